"""The corrective encoding of claiming games, and the board symmetries it cuts.

Random positional games (half of them symmetric, so that the symmetry cuts
are exercised) and random claiming games (gravity, or claims that wait for
owned cells, where a side can run out of moves) are solved through the
encoding and by the game-tree search; the two answers must agree.  The cuts
are also switched off to show they change the formula, not the answer.
"""

from __future__ import annotations

import pytest
from conftest import ROOT, Reach, scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import Game, check_model, search
from bddl.loader import load_model
from compiler import applicable_encodings, encode
from compiler.encodings.corrective import CorrectiveEncoder, NotClaiming, applicable, claiming_game
from compiler.encodings.symmetry import board_maps, game_symmetries
from helpers.qbf import depqbf, qute
from helpers.strategies import claiming_game as random_claiming_game
from helpers.strategies import positional_game as random_positional_game


def suite(domain: str, problem: str, depth: int | None = None):
    model = load_model(ROOT / "domains" / domain, ROOT / "problems" / problem, depth=depth)
    return model.domain, model.problem


@settings(max_examples=scaled(150))
@given(random_positional_game())
def test_corrective_answer_equals_the_game_search(case):
    domain, problem = case
    check_model(domain, problem)
    assert "corrective" in applicable_encodings(domain, problem)
    assert_solvers_agree_with_the_search(domain, problem)


def assert_solvers_agree_with_the_search(domain, problem):
    """DepQBF and Qute on the corrective encoding both give the engine's answer."""
    expected = search(Game(domain, problem)).black_wins
    circuit = encode(domain, problem, encoding="corrective").circuit
    assert depqbf(circuit, polarity=True) == expected
    assert qute(circuit) == expected


def test_claiming_games_answer_equals_the_game_search():
    reach = Reach(share=0.5)  # 150 of 150 are claiming games the corrective encoding covers

    @settings(max_examples=scaled(150))
    @given(random_claiming_game())
    def claiming_games(case):
        domain, problem = case
        check_model(domain, problem)
        reach.tried()
        if applicable(domain, problem):  # else a goal holds before the first move: left to the other encodings
            reach.reached()
            assert_solvers_agree_with_the_search(domain, problem)

    claiming_games()
    reach.check()


@settings(max_examples=scaled(60))
@given(random_claiming_game(max_width=3, max_height=3))
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
    from compiler.encodings.explicit import ExplicitEncoder

    domain, problem = case
    expected = search(Game(domain, problem)).black_wins
    encoder = ExplicitEncoder(domain, problem)
    assert depqbf(encoder.encode().circuit, polarity=True) == expected


def test_auto_picks_corrective_for_claiming_games_only():
    assert encode(*suite("positional.bddl", "httt/tic_3x3_d9.bddl"), encoding="auto").name == "corrective"
    assert encode(*suite("connect.bddl", "connect/connect2_2x2_d3.bddl"), encoding="auto").name == "corrective"
    assert encode(*suite("domineering.bddl", "domineering/3x3_d4.bddl"), encoding="auto").name == "explicit"


@pytest.mark.parametrize(
    "domain, problem, words",
    [
        ("breakthrough.bddl", "breakthrough/second_2x4_d6.bddl", "does more than claim an open cell"),
        ("domineering.bddl", "domineering/3x3_d4.bddl", "does more than claim an open cell"),
        ("evader_pursuer.bddl", "evader_pursuer/4x4_p2-3_d1.bddl", "does more than claim an open cell"),
    ],
)
def test_games_that_are_not_claiming_games_are_refused_with_a_location(domain, problem, words):
    d, p = suite(domain, problem)
    assert not applicable(d, p)
    with pytest.raises(NotClaiming) as caught:
        claiming_game(d, p)
    rendered = caught.value.render()
    assert words in rendered and f"{domain}:" in rendered and "^" in rendered
    assert "Black's action" in rendered  # the side as the messages name it everywhere


def test_a_goal_with_an_open_cell_is_refused():
    from bddl import parse_domain, parse_problem

    domain = parse_domain((ROOT / "domains" / "positional.bddl").read_text())
    problem = parse_problem("#boardsize 2 1\n#init\n#depth 2\n#blackgoals\n(black(1,1) open(2,1))\n#whitegoals\n", "p.bddl")
    with pytest.raises(NotClaiming, match="a goal of Black asks for more than black stones"):
        claiming_game(domain, problem)


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


def test_connect_four_columns_are_lanes():
    """Under gravity White's number names a column: five lanes, bottom cell first."""
    game = claiming_game(*suite("connect.bddl", "connect/connect4_5x4_d19.bddl"))
    assert game.lanes == tuple(tuple((x, y) for y in (4, 3, 2, 1)) for x in range(1, 6))
    assert game.unconditional("black") and game.unconditional("white")
    assert {claim.action for claim in game.claims["black"][(2, 4)]} == {1}  # occupyBottom
    assert [claim.requires for claim in game.claims["black"][(2, 3)]] == [((("black", (2, 4)), ("white", (2, 4))),)]


def test_a_claim_that_waits_for_a_stone_of_the_wrong_colour_is_dropped():
    from bddl import parse_domain, parse_problem

    domain = parse_domain(
        "#blackactions\n:action grow\n:parameters (?x,?y)\n:precondition (open(?x,?y) black(?x+1,?y))\n:effect (black(?x,?y))\n"
        "#whiteactions\n:action occupy\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n:effect (white(?x,?y))\n",
        "d.bddl",
    )
    problem = parse_problem("#boardsize 3 1\n#init\n(white(3,1))\n#depth 2\n#blackgoals\n#whitegoals\n", "p.bddl")
    game = claiming_game(domain, problem)
    assert game.claims["black"] == {(1, 1): game.claims["black"][(1, 1)]}  # (2,1) would need (3,1) black
    assert not game.unconditional("black") and game.unconditional("white")


@settings(max_examples=scaled(100))
@given(random_claiming_game(), st.randoms(use_true_random=False))
def test_at_most_one_cell_of_a_lane_is_ever_claimable(case, rng):
    """White's number names lanes, which is sound only if no position reached
    in play offers two cells of one lane (checked here with the engine's own
    legal moves, along random playouts)."""
    domain, problem = case
    try:
        lanes = claiming_game(domain, problem).lanes
    except NotClaiming:
        return
    game = Game(domain, problem)
    lane_of = {cell: n for n, lane in enumerate(lanes) for cell in lane}
    state = game.initial
    for _ in range(len(lane_of) + 1):
        moves = game.moves(state, "black") + game.moves(state, "white")
        claimed = {cell for move in moves for cell in lane_of if state.value(game.geometry, *cell) == "open" and move.state.value(game.geometry, *cell) != "open"}
        lanes = [lane_of[cell] for cell in claimed]
        assert len(lanes) == len(set(lanes)), f"two claimable cells in one lane at {state}"
        if not moves:
            break
        state = rng.choice(moves).state


def test_white_stacking_only_on_white_is_stuck_under_a_black_stone():
    """One column of two cells; White may only stack on a white stone.  Black
    takes the bottom cell and White, with the top cell open, has no move:
    a Black win the encoding must see although the column is a lane whose
    head White can always claim."""
    from bddl import Problem
    from helpers.strategies import gravity_domain

    domain = gravity_domain(white_below="white")
    problem = Problem(1, 2, (), 2, (), ())
    assert search(Game(domain, problem)).black_wins
    encoder = CorrectiveEncoder(domain, problem)
    assert encoder.game.lanes == (((1, 2), (1, 1)),) and not encoder.game.unconditional("white")
    assert depqbf(encoder.encode().circuit) is True
