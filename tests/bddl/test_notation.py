"""Moves as users type them: names, numbers, and outcomes a negated effect leaves open."""

from __future__ import annotations

import pytest

from bddl import Game, check_model, parse_domain, parse_problem
from bddl.game import WHITE
from bddl.notation import MoveInputError, describe_move, legal_moves, parse_move

DOMAIN = """#blackactions
:action occupy
:parameters (?x,?y)
:precondition (open(?x,?y))
:effect (black(?x,?y))
#whiteactions
:action paint
:parameters (?x,?y)
:precondition (open(?x,?y))
:effect (NOT(open(?x,?y)))
:action mark
:parameters (?x,?y)
:precondition (open(?x,?y))
:effect (white(?x,?y))
"""
PROBLEM = "#boardsize 2 1\n#init\n#depth 2\n#blackturn second\n#blackgoals\n(black(1,1) black(2,1))\n#whitegoals\n"


@pytest.fixture
def game():
    d, p = parse_domain(DOMAIN), parse_problem(PROBLEM)
    check_model(d, p)
    return Game(d, p)


def test_outcomes_of_one_move_are_told_apart(game):
    texts = [n.text for n in legal_moves(game, game.initial, WHITE)]
    # paint's white outcome is the same board as mark: listed once, under paint
    assert texts == ["paint 1 1 (1,1) becomes black", "paint 1 1 (1,1) becomes white",
                     "paint 2 1 (2,1) becomes black", "paint 2 1 (2,1) becomes white"]


def test_parsing(game):
    s = game.initial
    assert parse_move(game, s, WHITE, "1").state.black == game.geometry.bit(1, 1)
    assert describe_move(game, s, parse_move(game, s, WHITE, "  PAINT 1 1 (1,1) becomes white ")) == "paint 1 1 (1,1) becomes white"
    assert parse_move(game, s, WHITE, "4").state.white == game.geometry.bit(2, 1)
    marked = parse_move(game, s, WHITE, "mark 1 1")  # legal, though listed as 'paint 1 1 ... white'
    assert marked.action == "mark" and marked.state.white == game.geometry.bit(1, 1)
    for text, message in [
        ("paint 1 1", "can end in 2 ways"),
        ("mark 3 1", "not a legal move"),
        ("jump 1 1", "White has no action named 'jump'; White's actions: paint, mark"),
        ("pait 1 1", r"White has no action named 'pait' \(did you mean 'paint'\?\); White's actions: paint, mark"),
        ("paint one 1", "two whole numbers"),
        ("7", "no move number 7; the list goes from 1 to 4"),
        ("paint", "a move is ACTION X Y"),
        ("", "type a move"),
    ]:
        with pytest.raises(MoveInputError, match=message):
            parse_move(game, s, WHITE, text)
