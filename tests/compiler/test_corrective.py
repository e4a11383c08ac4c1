"""The corrective encoding of positional games, and the board symmetries it cuts.

Random positional games (half of them symmetric, so that the symmetry cuts
are exercised) are solved through the encoding and by the game-tree search;
the two answers must agree.  The cuts are also switched off to show they
change the formula, not the answer.
"""

from __future__ import annotations

import pytest
from conftest import ROOT, scaled
from hypothesis import given, settings

from bddl import Game, check_model, search
from bddl.loader import load_model
from compiler import applicable_encodings, encode
from compiler.corrective import CorrectiveEncoder, NotPositional, applicable, positional_game
from compiler.symmetry import board_maps, game_symmetries
from qbf import depqbf, qute
from strategies import positional_game as random_positional_game


def suite(domain: str, problem: str, depth: int | None = None):
    model = load_model(ROOT / "domains" / domain, ROOT / "problems" / problem, depth=depth)
    return model.domain, model.problem


@settings(max_examples=scaled(150))
@given(random_positional_game())
def test_corrective_answer_equals_the_game_search(case):
    domain, problem = case
    check_model(domain, problem)
    assert "corrective" in applicable_encodings(domain, problem)
    expected = search(Game(domain, problem)).black_wins
    circuit = encode(domain, problem, encoding="corrective").circuit
    assert depqbf(circuit, polarity=True) == expected
    assert qute(circuit) == expected


@settings(max_examples=scaled(60))
@given(random_positional_game(max_width=3, max_height=3))
def test_symmetry_cuts_do_not_change_the_answer(case):
    domain, problem = case
    with_cuts = CorrectiveEncoder(domain, problem)
    without = CorrectiveEncoder(domain, problem)
    without.symmetries = []
    assert depqbf(with_cuts.encode().circuit) == depqbf(without.encode().circuit)


@settings(max_examples=scaled(60))
@given(random_positional_game(max_width=3, max_height=3, max_depth=5))
def test_explicit_encoding_symmetry_cuts_keep_the_answer(case):
    """The explicit encoding cuts the same symmetries with its own move numbers."""
    from compiler.explicit import ExplicitEncoder

    domain, problem = case
    expected = search(Game(domain, problem)).black_wins
    encoder = ExplicitEncoder(domain, problem)
    assert depqbf(encoder.encode().circuit, polarity=True) == expected


def test_auto_picks_corrective_for_positional_games_only():
    assert encode(*suite("positional.bddl", "httt/tic_3x3_d9.bddl"), encoding="auto").name == "corrective"
    assert encode(*suite("domineering.bddl", "domineering/3x3_d4.bddl"), encoding="auto").name == "explicit"


@pytest.mark.parametrize(
    "domain, problem, words",
    [
        ("breakthrough.bddl", "breakthrough/second_2x4_d6.bddl", "does more than claim an open cell"),
        ("domineering.bddl", "domineering/3x3_d4.bddl", "does more than claim an open cell"),
        ("connect.bddl", "connect/connect2_2x2_d3.bddl", "does more than claim an open cell"),
    ],
)
def test_games_that_are_not_positional_are_refused_with_a_location(domain, problem, words):
    d, p = suite(domain, problem)
    assert not applicable(d, p)
    with pytest.raises(NotPositional) as caught:
        positional_game(d, p)
    rendered = caught.value.render()
    assert words in rendered and f"{domain}:" in rendered and "^" in rendered


def test_a_goal_with_an_open_cell_is_not_positional():
    from bddl import parse_domain, parse_problem

    domain = parse_domain((ROOT / "domains" / "positional.bddl").read_text())
    problem = parse_problem("#boardsize 2 1\n#init\n#depth 2\n#blackgoals\n(black(1,1) open(2,1))\n#whitegoals\n", "p.bddl")
    with pytest.raises(NotPositional, match="asks for more than black cells"):
        positional_game(domain, problem)


def test_the_symmetries_of_httt_and_hex():
    tic = suite("positional.bddl", "httt/tic_3x3_d9.bddl")
    assert len(game_symmetries(*tic)) == 7  # the whole dihedral group of the square
    hex4 = suite("positional.bddl", "hex/hex4_d9.bddl")
    assert [name for name, _ in game_symmetries(*hex4)] == ["rotate-180"]
    assert len(board_maps(4, 3)) == 3  # a rectangle has no quarter turns


def test_first_moves_are_cut_to_one_per_orbit():
    """On the empty 3x3 board Black is offered a corner, an edge and the centre."""
    domain, problem = suite("positional.bddl", "httt/tic_3x3_d9.bddl")
    encoder = CorrectiveEncoder(domain, problem)
    cuts = encoder.symmetry_cuts(1, {})
    offered = sorted(set(encoder.game.open_cells) - set(cuts))
    assert offered == [(1, 1), (2, 1), (2, 2)]
