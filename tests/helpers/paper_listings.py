"""The models printed in the BDDL paper (Listings 4-20), as text.

Typed in from `../shared/papers/bddl-lifted-qbf-encoding.txt`.  Where the
paper prints only a fragment (one side's actions, or "..." for omitted
actions), the fragment is kept verbatim and completed just enough to form a
file, and the comment says how.  Layout follows the paper, including its
line breaks inside conditions and `#depth 5` on one line.
"""

LISTING_4_POSITIONAL_DOMAIN = """\
#blackactions
:action occupy
:parameters (?x,?y)
:precondition (open(?x,?y))
:effect (black(?x,?y))
#whiteactions
:action occupy
:parameters (?x,?y)
:precondition (open(?x,?y))
:effect (white(?x,?y))
"""

LISTING_5_TIC_PROBLEM = """\
#boardsize 5 4
#init
(black(1,3)white(2,4))
#depth 5
#blackgoals
(black(?x,?y)black(?x,?y+1)black(?x,?y+2))
(black(?x,?y)black(?x+1,?y)black(?x+2,?y))
#whitegoals
(white(?x,?y)white(?x,?y+1)white(?x,?y+2))
(white(?x,?y)white(?x+1,?y)white(?x+2,?y))
"""

# Listing 6 gives Black's actions only ("The actions for white would be similar").
LISTING_6_CONNECT4_BLACK = """\
#blackactions
:action occupyOnTop
:parameters (?x,?y)
:precondition
  (open(?x,?y)
  NOT(open(?x,?y+1)))
:effect (black(?x,?y))
:action occupyBottom
:parameters (?x,?y)
:precondition
   (open(?x,ymax))
:effect (black(?x,ymax))
#whiteactions
"""

# Listing 7 is named in the paper but only described; Listing 13 holds its text.

# Listing 8: one Black action of Evader-Pursuer.
LISTING_8_EVADER_SNIPPET = """\
#blackactions
:action down-two
:parameters (?x,?y)
:precondition
(black(?x,?y) open(?x,?y+1) open(?x,?y+2))
:effect (open(?x,?y)black(?x,?y+2))
#whiteactions
"""

# Listing 10 mixes a domain fragment (Black's action) with the problem's empty
# goal sections; each half is completed into its own file.
LISTING_10_DOMINEERING_DOMAIN = """\
#blackactions
:action vertical
:parameters (?x, ?y)
:precondition
  (open(?x,?y) open(?x,?y+1))
:effect
  (black(?x,?y) black(?x,?y+1))
#whiteactions
"""

LISTING_10_DOMINEERING_GOALS = """\
#boardsize 3 3
#init
#depth 3
#blackgoals
#whitegoals
"""

LISTING_11_CONNECT4_DOMAIN = """\
#blackactions
:action occupyOnTop
:parameters (?x,?y)
:precondition (open(?x,?y) NOT(open(?x,?y+1)))
:effect (black(?x,?y))
:action occupyBottom
:parameters (?x,?y)
:precondition (open(?x,ymax))
:effect (black(?x,ymax))
#whiteactions
:action occupyOnTop
:parameters (?x,?y)
:precondition (open(?x,?y) NOT(open(?x,?y+1)))
:effect (white(?x,?y))
:action occupyBottom
:parameters (?x,?y)
:precondition (open(?x,ymax))
:effect (white(?x,ymax))
"""

LISTING_12_CONNECT4_PROBLEM = """\
#boardsize
7 6
#init
#depth
9
#blackgoal
(black(?x,?y) black(?x+1,?y) black(?x+2,?y) black(?x+3,?y))
(black(?x,?y) black(?x,?y+1) black(?x,?y+2) black(?x,?y+3))
(black(?x,?y) black(?x+1,?y+1) black(?x+2,?y+2) black(?x+3,?y+3))
(black(?x,?y) black(?x+1,?y-1) black(?x+2,?y-2) black(?x+3,?y-3))
#whitegoal
(white(?x,?y) white(?x+1,?y) white(?x+2,?y) white(?x+3,?y+3))
(white(?x,?y) white(?x+1,?y+1) white(?x+2,?y+2) white(?x+3,?y+3))
(white(?x,?y) white(?x+1,?y+1) white(?x+2,?y+2) white(?x+3,?y+3))
(white(?x,?y) white(?x+1,?y-1) white(?x+2,?y-2) white(?x+3,?y+3))
(white(?x,?y) white(?x+1,?y-1) white(?x+2,?y-2) white(?x+3,?y-3))
"""

LISTING_13_BREAKTHROUGH_DOMAIN = """\
#blackactions
:action forward
:parameters (?x,?y)
:precondition (black(?x,?y) open(?x,?y-1))
:effect (open(?x,?y) black(?x,?y-1))
:action left-diagonal
:parameters (?x,?y)
:precondition (black(?x,?y) NOT(black(?x-1,?y-1)))
:effect (open(?x,?y) black(?x-1,?y-1))
:action right-diagonal
:parameters (?x,?y)
:precondition (black(?x,?y) NOT(black(?x+1,?y-1)))
:effect (open(?x,?y) black(?x+1,?y-1))
#whiteactions
:action forward
:parameters (?x,?y)
:precondition (white(?x,?y) open(?x,?y+1))
:effect (open(?x,?y) white(?x,?y+1))
:action left-diagonal
:parameters (?x,?y)
:precondition (white(?x,?y) NOT(white(?x-1,?y+1)))
:effect (open(?x,?y) white(?x-1,?y+1))
:action right-diagonal
:parameters (?x,?y)
:precondition (white(?x,?y) NOT(white(?x+1,?y+1)))
:effect (open(?x,?y) white(?x+1,?y+1))
"""

LISTING_14_BREAKTHROUGH_PROBLEM = """\
#boardsize
2 4
#init
(black(1,4) black(2,4) black(1,3) black(2,3)
white(1,1) white(2,1) white(1,2) white(2,2))
#depth
13
#blackgoal
(black(?x,ymin))
#whitegoal
(white(?x,ymax))
"""

# Listing 15 omits 12 of its 16 actions ("..."); the four shown are kept.
LISTING_15_KNIGHTTHROUGH_DOMAIN = """\
#blackactions
:action L1
:parameters (?x, ?y)
:precondition (black(?x,?y) NOT(black(?x+1,?y+2)))
:effect (open(?x,?y) black(?x+1,?y+2))
:action L2
:parameters (?x,?y)
:precondition (black(?x,?y) NOT(black(?x+1,?y-2)))
:effect (open(?x,?y) black(?x+1,?y-2))
#whiteactions
:action L1
:parameters (?x,?y)
:precondition (white(?x,?y) NOT(white(?x+1,?y+2)))
:effect (open(?x,?y) white(?x+1,?y+2))
:action L2
:parameters (?x,?y)
:precondition (white(?x,?y) NOT(white(?x+1,?y-2)))
:effect (open(?x,?y) white(?x+1,?y-2))
"""

LISTING_16_KNIGHTTHROUGH_PROBLEM = """\
#boardsize
3 4
#init
(black(1,4) black(2,4) black(3,4) black(1,3) black(2,3) black(3,3)
white(1,1) white(2,1) white(3,1) white(1,2) white(2,2) white(3,2))
#depth
1
#blackgoal
(black(?x,ymin))
#whitegoal
(white(?x,ymax))
"""

# Listing 17 omits 14 of its 18 actions ("..."); the four shown are kept.
LISTING_17_EVADER_PURSUER_DOMAIN = """\
#blackactions
:action right-diagonal-down
:parameters (?x, ?y)
:precondition (black(?x,?y) open(?x+1,?y+1))
:effect (open(?x,?y) black(?x+1,?y+1))
:action stay
:parameters (?x, ?y)
:precondition (black(?x,?y))
:effect (black(?x,?y))
#whiteactions
:action left
:parameters (?x, ?y)
:precondition (white(?x,?y))
:effect (open(?x,?y) white(?x-1,?y))
:action stay
:parameters (?x, ?y)
:precondition (white(?x,?y))
:effect (white(?x,?y))
"""

LISTING_18_EVADER_PURSUER_PROBLEM = """\
#boardsize
8 8
#init
(black(8,1) white(2,3))
#depth
11
#blackgoal
(black(xmin,ymin))
#whitegoal

(white(xmin,ymin))
"""

LISTING_19_DOMINEERING_DOMAIN = """\
#blackactions
:action vertical
:parameters (?x, ?y)
:precondition (open(?x,?y) open(?x,?y+1))
:effect (black(?x,?y) black(?x,?y+1))
#whiteactions
:action horizontal
:parameters (?x, ?y)
:precondition (open(?x,?y) open(?x+1,?y))
:effect (white(?x,?y) white(?x+1,?y))
"""

LISTING_20_DOMINEERING_PROBLEM = """\
#boardsize
6 6
#init
#depth
11
#blackgoal
#whitegoal
"""

DOMAINS = {
    "listing4": LISTING_4_POSITIONAL_DOMAIN,
    "listing6": LISTING_6_CONNECT4_BLACK,
    "listing8": LISTING_8_EVADER_SNIPPET,
    "listing10": LISTING_10_DOMINEERING_DOMAIN,
    "listing11": LISTING_11_CONNECT4_DOMAIN,
    "listing13": LISTING_13_BREAKTHROUGH_DOMAIN,
    "listing15": LISTING_15_KNIGHTTHROUGH_DOMAIN,
    "listing17": LISTING_17_EVADER_PURSUER_DOMAIN,
    "listing19": LISTING_19_DOMINEERING_DOMAIN,
}

PROBLEMS = {
    "listing5": LISTING_5_TIC_PROBLEM,
    "listing10": LISTING_10_DOMINEERING_GOALS,
    "listing12": LISTING_12_CONNECT4_PROBLEM,
    "listing14": LISTING_14_BREAKTHROUGH_PROBLEM,
    "listing16": LISTING_16_KNIGHTTHROUGH_PROBLEM,
    "listing18": LISTING_18_EVADER_PURSUER_PROBLEM,
    "listing20": LISTING_20_DOMINEERING_PROBLEM,
}
