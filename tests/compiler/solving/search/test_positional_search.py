"""`bddlc search --positional-rules`: a positional BDDL model decided by the
positional solver (its minimax and its df-pn) gets the BDDL game's answer, the
minimax's, on the suite's positional models and on random ones, and the first
move it reports wins in the BDDL game; models the rules do not fit are refused
with the reason."""

from __future__ import annotations

import pytest
from conftest import ROOT, scaled
from hypothesis import given, settings

from bddl import Game, search
from bddl.game import WHITE
from bddl.loader import load_model
from bddl.engines.minimax import black_wins
from compiler.solving.search.positional_rules import not_searchable, search_positional
from helpers.corpus import instances, needs_corpus
from helpers.strategies import positional_game as random_positional_game
from helpers.suite import manifest

POSITIONAL = [e for e in manifest() if e.domain.name == "positional.bddl" and not e.slow]
ALGORITHMS = ("minimax", "pns")


def assert_bddl_answer(game: Game, expected: bool, algorithm: str) -> None:
    """The positional rules' verdict is `expected`, and a reported first move
    is a Black move that wins the BDDL game (by the BDDL minimax)."""
    depth = game.problem.depth
    result = search_positional(game, depth, algorithm)
    assert result.black_wins == expected
    if expected and game.black_first:
        move = result.first_move
        assert move is not None and move in game.moves(game.initial, "black")
        assert game.won(move.state, "black") or black_wins(game, move.state, WHITE, depth - 1)
    else:
        assert result.first_move is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_suite_positional_models_get_the_manifest_answer(algorithm):
    decided = 0
    for entry in POSITIONAL:
        model = load_model(entry.domain, entry.problem)
        if not_searchable(model.domain, model.problem, model.problem.depth) is not None:
            continue
        assert_bddl_answer(Game(model.domain, model.problem), entry.black_wins, algorithm)
        decided += 1
    assert decided >= 40


@needs_corpus
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_corpus_positional_models_get_the_table_answer(algorithm):
    """The reference tool's dialect (sat2023/) read as positional games: the
    HTTT and Hex models the table answers."""
    decided = 0
    for case in instances():
        model = load_model(case.domain, case.problem)
        if case.black_wins is None or not_searchable(model.domain, model.problem, model.problem.depth) is not None:
            continue
        assert_bddl_answer(Game(model.domain, model.problem), case.black_wins, algorithm)
        decided += 1
    assert decided >= 10


@settings(max_examples=scaled(150), deadline=None)
@given(random_positional_game())
def test_random_positional_models_get_the_minimax_answer(case):
    domain, problem = case
    if not_searchable(domain, problem, problem.depth) is not None:
        return
    game = Game(domain, problem)
    expected = search(game).black_wins
    for algorithm in ALGORITHMS:
        assert_bddl_answer(game, expected, algorithm)


def test_hex_is_decided_with_far_fewer_positions():
    model = load_model(ROOT / "domains" / "positional.bddl", ROOT / "problems" / "hex" / "hex4_b_d9.bddl")
    game = Game(model.domain, model.problem)
    plain = search(game).positions
    for algorithm in ALGORITHMS:
        assert search_positional(game, algorithm=algorithm).positions * 5 < plain


def test_models_the_rules_do_not_fit_are_refused_with_the_reason():
    gravity = load_model(ROOT / "domains" / "connect.bddl", ROOT / "problems" / "connect" / "connect3_4x4_d9.bddl")
    assert "not a positional game" in not_searchable(gravity.domain, gravity.problem, 9)
    full = load_model(ROOT / "domains" / "positional.bddl", ROOT / "problems" / "httt" / "domino_1x1_d2.bddl")
    assert "full board" in not_searchable(full.domain, full.problem, 2)
    assert not_searchable(full.domain, full.problem, 1) is None
    with pytest.raises(ValueError, match="full board"):
        search_positional(Game(full.domain, full.problem))


@pytest.mark.parametrize("entry", POSITIONAL, ids=lambda e: e.file)
def test_the_compiled_core_decides_a_model_by_the_rules_as_the_python_solver_does(entry):
    """`--positional-rules`' minimax runs in the compiled core where it is built: the same
    verdict, first move and positions as the Python solver on every suite model."""
    from bddl.engines import compiled

    if not compiled.available():
        pytest.skip(compiled.why_unavailable() or "the compiled core is not built")
    model = load_model(str(entry.domain), str(entry.problem))
    game = Game(model.domain, model.problem)
    if not_searchable(model.domain, model.problem, model.problem.depth) is not None:
        pytest.skip("the positional rules do not fit this model")
    by_core = search_positional(game, algorithm="minimax", core="compiled")
    by_python = search_positional(game, algorithm="minimax", core="python")
    assert (by_core.black_wins, by_core.first_move, by_core.positions) == (by_python.black_wins, by_python.first_move, by_python.positions)
