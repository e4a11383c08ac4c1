"""Issue 42's pawn race, as the issue wrote it: a 4x4 board, three black and two white pawns, and
`advance 2 3` wins at once at depth 9.  Several tests use it (Black must take that win; a new
user's trial of mistakes), so it is written once."""

DOMAIN = """\
#blackactions
:action advance
:parameters (?x,?y)
:precondition (black(?x,?y) open(?x,?y+1))
:effect (open(?x,?y) black(?x,?y+1))
:action takeleft
:parameters (?x,?y)
:precondition (black(?x,?y) white(?x-1,?y+1))
:effect (open(?x,?y) black(?x-1,?y+1))
:action takeright
:parameters (?x,?y)
:precondition (black(?x,?y) white(?x+1,?y+1))
:effect (open(?x,?y) black(?x+1,?y+1))
#whiteactions
:action advance
:parameters (?x,?y)
:precondition (white(?x,?y) open(?x,?y-1))
:effect (open(?x,?y) white(?x,?y-1))
:action takeleft
:parameters (?x,?y)
:precondition (white(?x,?y) black(?x-1,?y-1))
:effect (open(?x,?y) white(?x-1,?y-1))
:action takeright
:parameters (?x,?y)
:precondition (white(?x,?y) black(?x+1,?y-1))
:effect (open(?x,?y) white(?x+1,?y-1))
"""

PROBLEM = """\
#boardsize 4 4
#init
black(1,1) black(2,3) black(4,1)
white(3,4) white(4,4)
#depth 9
#blackgoals
(black(?x,ymax))
#whitegoals
(white(?x,ymin))
"""
