"""Hand-made games for the corners of the semantics that random games reach
only rarely: each was built so that a specific plausible encoding mistake
flips its answer (each was checked to fail against such a mutant)."""

from __future__ import annotations

import pytest

from bddl import Game, check_model, parse_domain, parse_problem, search
from compiler import applicable_encodings, encode
from helpers.qbf import depqbf, qute


def model(domain: str, problem: str):
    d, p = parse_domain(domain), parse_problem(problem)
    check_model(d, p)
    return d, p


def action(name: str, pre: str, eff: str) -> str:
    return f":action {name}\n:parameters (?x,?y)\n:precondition ({pre})\n:effect ({eff})\n"


BLACK_OCCUPIES = "#blackactions\n" + action("occupy", "open(?x,?y)", "black(?x,?y)")
POSITIONAL = BLACK_OCCUPIES + "#whiteactions\n" + action("occupy", "open(?x,?y)", "white(?x,?y)")

CASES = {
    # White chooses the colour of a negated effect; if Black chose it (the
    # innermost state variables), Black would paint White's stone black and win.
    "white_chooses_negated_effect": (
        BLACK_OCCUPIES
        + action("pass", "black(?x,?y)", "black(?x,?y)")
        + "#whiteactions\n" + action("paint", "open(?x,?y)", "NOT(open(?x,?y))"),
        "#boardsize 2 1\n#init\n#depth 3\n#blackgoals\n(black(1,1) black(2,1))\n#whitegoals\n",
        False,
    ),
    # Black chooses the colour when it moves, not after seeing White's reply.
    "black_chooses_when_it_moves": (
        "#blackactions\n" + action("paint", "open(xmin,ymin)", "NOT(open(xmin,ymin))")
        + action("fill", "open(?x,?y) NOT(open(xmin,ymin))", "black(?x,?y)")
        + "#whiteactions\n" + action("occupy", "open(?x,?y)", "white(?x,?y)"),
        "#boardsize 3 1\n#init\n#depth 3\n#blackgoals\n(black(1,1) black(3,1))\n(white(1,1) black(2,1))\n#whitegoals\n",
        False,
    ),
    # A White effect that contradicts itself on one cell (?x meets xmin) is no
    # move at all: White is stuck, so Black wins.
    "contradictory_white_effect_is_illegal": (
        "#blackactions\n" + action("wait", "open(?x,?y)", "open(?x,?y)")
        + "#whiteactions\n" + action("clash", "open(?x,?y)", "white(?x,?y) black(xmin,?y)"),
        "#boardsize 1 1\n#init\n#depth 2\n#blackgoals\n#whitegoals\n",
        True,
    ),
    # White's actions have different numbers of preconditions: the indicator
    # the short action does not use must not make its moves look illegal.
    "unequal_precondition_counts": (
        POSITIONAL
        + action("pair", "open(?x,?y) open(?x+1,?y) open(?x+2,?y)", "white(?x,?y)"),
        "#boardsize 2 1\n#init\n#depth 3\n#blackgoals\n(black(1,1) black(2,1))\n#whitegoals\n",
        False,
    ),
    # Even depth, goals on both sides: Black wins only if White cannot answer.
    "even_depth_needs_white_stuck": (
        POSITIONAL,
        "#boardsize 3 1\n#init\n#depth 2\n#blackgoals\n(black(?x,?y) black(?x+1,?y))\n#whitegoals\n(white(?x,?y) white(?x+1,?y))\n",
        False,
    ),
    # White moves first and reaches its goal before Black ever moves.
    "white_first_wins_at_once": (
        POSITIONAL,
        "#boardsize 1 1\n#init\n#depth 3\n#blackturn second\n#blackgoals\n#whitegoals\n(white(1,1))\n",
        False,
    ),
    # Black moves second and wins because White's only move leaves Black a line.
    "black_second_wins": (
        BLACK_OCCUPIES
        + "#whiteactions\n" + action("edge", "open(xmin,?y)", "white(xmin,?y)"),
        "#boardsize 3 1\n#init\n#depth 2\n#blackturn second\n#blackgoals\n(black(2,1))\n#whitegoals\n",
        True,
    ),
    # White is stuck before the last ply: an illegal White move (the only
    # kind left) ends the game in Black's favour, even though Black has no
    # goal and could not make another move.
    "white_stuck_before_the_end": (
        POSITIONAL,
        "#boardsize 1 1\n#init\n#depth 3\n#blackgoals\n#whitegoals\n",
        True,
    ),
    # A side may have no actions at all: it loses as soon as it must move.
    # Black without actions, moving second on a 1x1 board: White fills the
    # cell, then Black is stuck and loses (were Black to pass, White would be
    # stuck next and Black would win).
    "black_without_actions": (
        "#blackactions\n#whiteactions\n" + action("occupy", "open(?x,?y)", "white(?x,?y)"),
        "#boardsize 1 1\n#init\n#depth 3\n#blackturn second\n#blackgoals\n#whitegoals\n",
        False,
    ),
    # White without actions: Black's first move leaves White stuck, at any depth >= 2.
    "white_without_actions": (
        BLACK_OCCUPIES + "#whiteactions\n",
        "#boardsize 2 1\n#init\n#depth 2\n#blackgoals\n(black(1,1) black(2,1))\n#whitegoals\n",
        True,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_answer(name):
    domain, problem, expected = CASES[name]
    assert search(Game(*model(domain, problem))).black_wins is expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_qbf_answer(name):
    domain, problem, expected = CASES[name]
    game = model(domain, problem)
    for encoding in applicable_encodings(*game):
        circuit = encode(*game, encoding=encoding).circuit
        assert depqbf(circuit) is expected, encoding
        assert qute(circuit) is expected, encoding
