"""Hand-made models for the checker's tests (each breaks exactly one thing), and the replay of a counterexample."""

from __future__ import annotations

from bddl import Game, check_model, parse_domain, parse_problem
from bddl.game import opponent
from compiler.analysis.sanity import Violation


def action(name: str, pre: str, eff: str) -> str:
    return f":action {name}\n:parameters (?x,?y)\n:precondition ({pre})\n:effect ({eff})\n"


OCCUPY_BLACK = action("occupy", "open(?x,?y)", "black(?x,?y)")
OCCUPY_WHITE = action("occupy", "open(?x,?y)", "white(?x,?y)")
POSITIONAL = "#blackactions\n" + OCCUPY_BLACK + "#whiteactions\n" + OCCUPY_WHITE

LINES_3x3 = (
    "#boardsize 3 3\n#init\n#depth 5\n"
    "#blackgoals\n(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n"
    "#whitegoals\n(white(?x,?y) white(?x,?y+1) white(?x,?y+2))\n"
)

# Condition 2: Black may paint a White stone, which can complete a White column.
PAINT_DOMAIN = "#blackactions\n" + OCCUPY_BLACK + action("paint", "open(?x,?y)", "white(?x,?y)") + "#whiteactions\n" + OCCUPY_WHITE

# Condition 2 through a negated effect: Black marks a cell "not open" and may
# choose white for it; the frame rule keeps every other cell.
MARK_DOMAIN = "#blackactions\n" + action("mark", "open(?x,?y)", "NOT(open(?x,?y))") + "#whiteactions\n" + OCCUPY_WHITE
PAIRS_3x1 = "#boardsize 3 1\n#init\n#depth 3\n#blackgoals\n(black(1,1) black(3,1))\n#whitegoals\n(white(?x,?y) white(?x+1,?y))\n"

# Condition 3: Black wins when cell (2,1) is empty; White's only move can empty it.
RETREAT_DOMAIN = (
    "#blackactions\n"
    + action("wait", "black(?x,?y)", "black(?x,?y)")
    + "#whiteactions\n"
    + action("retreat", "white(?x,?y) open(?x+1,?y)", "open(?x,?y) white(?x+1,?y)")
)
RETREAT_PROBLEM = "#boardsize 3 1\n#init\n(black(1,1) white(2,1))\n#depth 3\n#blackgoals\n(open(2,1))\n#whitegoals\n"

# Condition 1: Black's line is already on the board.
INITIAL_WIN_PROBLEM = LINES_3x3.replace("#init\n", "#init\n(black(1,2) black(2,2) black(3,2))\n")

# Condition 2 broken only in states the game never reaches within its depth:
# with depth 1 Black paints one stone on an empty board, never a White pair.
UNREACHABLE_PROBLEM = "#boardsize 3 1\n#init\n#depth 1\n#blackgoals\n(black(1,1) black(2,1) black(3,1))\n#whitegoals\n(white(?x,?y) white(?x+1,?y))\n"


def model(domain: str, problem: str):
    """A parsed, validated model (the initial state may be won: `check` reports that)."""
    d, p = parse_domain(domain, "d.bddl"), parse_problem(problem, "p.bddl")
    check_model(d, p, initial_state=False)
    return d, p


def assert_replays(game: Game, v: Violation) -> None:
    """The step is one of the engine's moves (`Game.moves`, which shares no
    code with the SAT encoding) and creates the opponent's win."""
    moves = [m for m in game.moves(v.before, v.mover) if (m.action_index, m.x, m.y) == (v.action_index, v.x, v.y)]
    assert v.after in [m.state for m in moves]
    assert not game.won(v.before, opponent(v.mover))
    assert game.won(v.after, opponent(v.mover))
    assert v.goal.side == opponent(v.mover)
