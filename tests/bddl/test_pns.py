"""df-pn (`bddl.engines.pns`) answers exactly what the minimax oracle answers.

Random games from the encoding tests' generator, under the default settings
and under settings that force the rarely taken paths (a table so small it is
collected all the time, no leaf search, summed proof numbers, other epsilons),
then every suite instance and every answered corpus instance.  df-pn's leaf
search is the minimax itself (`Minimax.value` on df-pn's table), so the
settings without a leaf search are the ones where the two answers are
computed wholly apart (tests/bddl/test_minimax.py holds both to the rules
read word for word)."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT, scaled
from helpers.corpus import instances, needs_corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers.strategies import game as random_game
from helpers.suite import MANIFEST, manifest

from bddl import Game, SearchBudgetExceeded, load_model, search
from bddl.engines.minimax import SideMoves, game_sides
from bddl.engines.pns import ProofNumberSearch, mobility_numbers, search_pns
from bddl.engines.minimax import black_wins

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SETTINGS = {
    "default": {},
    "tiny table": {"capacity": 16},
    "no leaf minimax": {"leaf_plies": 0},
    "summed numbers, no epsilon": {"weak": False, "epsilon": 0.0, "leaf_plies": 1},
    "weak, epsilon 1/4, tiny table": {"weak": True, "epsilon": 0.25, "leaf_plies": 0, "capacity": 16},
    "mobility (search_pns's)": {"mobility": True},
    "mobility, no leaf minimax, tiny table": {"mobility": True, "leaf_plies": 0, "capacity": 16},
    "mobility, summed numbers": {"mobility": True, "weak": False, "leaf_plies": 1},
    "mobility counted by the successors": {"mobility": "successors"},
}


def _dfpn(game: Game, depth: int, mobility: bool | str = False, **options) -> bool:
    black, white = game_sides(game)
    if mobility == "successors":  # a side without a cheap count (the race verifier's, the .pg solver's)
        black, white = SideMoves(black.successors, black.won), SideMoves(white.successors, white.won)
    if mobility:
        options["initial"] = mobility_numbers(black, white)
    engine = ProofNumberSearch(black, white, **options)
    return engine.black_wins(game.black_first, game.initial.black, game.initial.white, depth)


@settings(max_examples=scaled(150))
@given(random_game(max_depth=7), st.sampled_from(sorted(SETTINGS)))
def test_dfpn_equals_minimax_on_random_games(case, variant):
    domain, problem = case
    game = Game(domain, problem)
    expected = search(game).black_wins
    assert _dfpn(game, problem.depth, **SETTINGS[variant]) == expected


@settings(max_examples=scaled(50))
@given(random_game(max_depth=7))
def test_the_first_move_reported_wins(case):
    domain, problem = case
    game = Game(domain, problem)
    result = search_pns(game)
    assert result.black_wins == search(game).black_wins
    move = result.first_move
    if result.black_wins and game.black_first:
        state = move.state
        assert game.won(state, "black") or black_wins(game, state, "white", problem.depth - 1)
    else:
        assert move is None


def test_mobility_numbers_count_the_movers_moves():
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x5_d11.bddl")
    game = Game(model.domain, model.problem)
    initial = mobility_numbers(*game_sides(game))
    b, w = game.initial.black, game.initial.white
    # the empty board, 4 wide and 5 high: Black's vertical dominoes fit 4 x 4 ways, White's horizontal 3 x 5
    assert initial(True, b, w, 11) == (1, 16)
    assert initial(False, b, w, 11) == (1, 15)
    # Black's domino on (1,1)-(1,2) takes the two horizontal places through those cells
    after = next(m.state for m in game.moves(game.initial, "black") if (m.x, m.y) == (1, 1))
    assert initial(False, after.black, after.white, 10) == (1, 13)


@settings(max_examples=scaled(50))
@given(random_game(max_depth=4), st.integers(0, 3))
def test_the_move_count_is_zero_exactly_without_successors(case, plies):
    """The count the mobility numbers read is the number of (action, position)
    pairs that may be played: an estimate (an effect with several outcomes,
    or two moves reaching one board, make it differ from the distinct
    successors), but 0 exactly when the side has no move."""
    domain, problem = case
    game = Game(domain, problem)
    state, side = game.initial, "black" if game.black_first else "white"
    for _ in range(plies):  # later positions too
        moves = game.moves(state, side)
        if not moves:
            break
        state = moves[len(moves) // 2].state
        side = "white" if side == "black" else "black"
    for moves in game_sides(game):
        assert moves.count is not None
        n = moves.count(state.black, state.white)
        assert (n == 0) == (not moves.successors(state.black, state.white))


def test_initial_numbers_below_one_are_refused():
    """0 means solved to the core: taken as a guess it would make df-pn loop."""
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x4_d8.bddl")
    game = Game(model.domain, model.problem)
    black, white = game_sides(game)
    engine = ProofNumberSearch(black, white, initial=lambda black_to_move, b, w, r: (0, 3))
    with pytest.raises(ValueError, match="at least 1"):
        engine.black_wins(True, game.initial.black, game.initial.white, 8)


def test_mobility_changes_the_search_not_the_answer():
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x4_d8.bddl")
    game = Game(model.domain, model.problem)
    plain, mobile = search_pns(game, mobility=False), search_pns(game)
    assert plain.black_wins == mobile.black_wins == search(game).black_wins
    assert mobile.positions < plain.positions  # 193 against 511 when measured


def test_the_budget_is_kept():
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    with pytest.raises(SearchBudgetExceeded) as caught:
        search_pns(Game(model.domain, model.problem), max_positions=500)
    assert caught.value.positions == 501


def test_a_collected_table_stays_within_its_capacity():
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/2x6_d15.bddl")
    game = Game(model.domain, model.problem)
    black, white = game_sides(game)
    engine = ProofNumberSearch(black, white, capacity=500)
    assert engine.black_wins(True, game.initial.black, game.initial.white, 15) is True
    assert engine.collections > 0
    assert len(engine.solved) + len(engine.unsolved) <= 500


def _minimax_seconds() -> dict[str, float]:
    data = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    return {entry["file"]: float(entry.get("seconds", 0.0)) for entry in data.get("problem", [])}


def _suite_params():
    seconds = _minimax_seconds()
    # df-pn takes up to a few times the minimax's time: the long ones are slow tests
    return [
        pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow or seconds.get(c.file, 0.0) > 0.1 else [])
        for c in manifest()
        if c.engine == "minimax"  # the others are decided by df-pn in test_answers
    ]


@pytest.mark.parametrize("case", _suite_params())
def test_dfpn_agrees_with_the_manifest(case):
    model = load_model(case.domain, case.problem)
    assert search_pns(Game(model.domain, model.problem)).black_wins == case.black_wins


ANSWERED = [i for i in instances() if i.black_wins is not None]


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("case", ANSWERED, ids=lambda c: c.id)
def test_dfpn_agrees_with_the_corpus_table(case):
    model = load_model(case.domain, case.problem)
    assert search_pns(Game(model.domain, model.problem)).black_wins == case.black_wins
