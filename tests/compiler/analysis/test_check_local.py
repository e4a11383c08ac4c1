"""`check` by locality against the whole-board check, the engine, and a mutant.

The whole-board SAT check (`compiler.analysis.sanity_sat`, `check --exhaustive`) is the
oracle: on the suite, the corpus and random separable games the local check
(`compiler.analysis.sanity_local`) must find exactly the same offending
actions, and every step it reports must be one of the engine's moves
(`Game.moves`) that creates the opponent's win.  A window one cell too small
must be caught by the same comparison.
"""

from __future__ import annotations

import pytest
from conftest import Reach, scaled
from hypothesis import HealthCheck, given, settings

from bddl import Game, load_model
from bddl.game import BLACK, WHITE, opponent
from compiler.analysis import sanity as check_module
from compiler.analysis import sanity_sat
from compiler.analysis import sanity_local
from compiler.analysis.sanity_local import Undecided
from compiler.analysis.sanity import check
from helpers.check_models import assert_replays
from helpers.corpus import instances, needs_corpus
from helpers.strategies import separable_game
from helpers.suite import manifest


def local_actions(game: Game, mover: str) -> dict[int, sanity_local.LocalStep] | None:
    """The local method's offending actions, None when it defers to the whole board."""
    try:
        return sanity_local.violating_steps(game.geometry, game.rules(mover).actions, game.rules(opponent(mover)).goals)
    except Undecided:
        return None


def disagreements(domain, problem) -> tuple[int, list[str]]:
    """(sides decided locally, what differs from the whole-board check)."""
    game = Game(domain, problem)
    decided, found = 0, []
    for mover in (BLACK, WHITE):
        local = local_actions(game, mover)
        if local is None:
            continue
        decided += 1
        whole = sanity_sat.violating_steps(game, mover)
        if sorted(local) != sorted(whole):
            found.append(f"{mover}: local {sorted(local)} whole board {sorted(whole)}")
    return decided, found


def assert_same_report(domain, problem) -> None:
    """Per condition, the same verdict and the same offending actions; every
    local counterexample replays with the engine."""
    local, whole = check(domain, problem), check(domain, problem, exhaustive=True)
    game = Game(domain, problem)
    for a, b in zip(local.conditions, whole.conditions):
        assert a.holds == b.holds, (a.number, a.counterexamples, b.counterexamples)
        if a.number > 1:
            assert [v.action_index for v in a.counterexamples] == [v.action_index for v in b.counterexamples]
            for v in a.counterexamples:
                assert_replays(game, v)


# -- the suite and the corpus ------------------------------------------------------------


@pytest.mark.parametrize("case", manifest(), ids=lambda c: c.id)
def test_suite_models_get_the_whole_board_verdicts(case):
    m = load_model(case.domain, case.problem)
    assert_same_report(m.domain, m.problem)


def test_most_suite_models_are_decided_locally():
    """The fragment is not a corner case: the suite's games lie in it."""
    decided = total = 0
    for case in manifest():
        m = load_model(case.domain, case.problem)
        d, found = disagreements(m.domain, m.problem)
        assert not found, (case.id, found)
        decided += d
        total += 2
    assert decided >= 0.9 * total, f"only {decided} of {total} sides decided locally"


@needs_corpus
@pytest.mark.parametrize("case", instances(), ids=lambda c: c.id)
def test_corpus_models_get_the_whole_board_verdicts(case):
    m = load_model(case.domain, case.problem)
    assert_same_report(m.domain, m.problem)


# -- random games --------------------------------------------------------------------------


def test_random_separable_games_agree_with_the_whole_board():
    reach = Reach(share=0.4)  # a side falls back to the whole board when its model mixes coordinates

    @settings(max_examples=scaled(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(separable_game())
    def random_games(game):
        decided, found = disagreements(*game)
        reach.tried()
        reach.tried()
        for _ in range(decided):
            reach.reached()
        assert not found, found

    random_games()
    reach.check()


@settings(max_examples=scaled(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(separable_game())
def test_random_local_reports_replay(game):
    assert_same_report(*game)


def test_random_games_reach_the_local_method_and_both_verdicts():
    """The generator's games mostly lie in the local fragment and both break
    and keep the conditions, so the comparisons above are not vacuous or
    one-sided."""
    verdicts, sides, local = [], 0, 0

    @settings(max_examples=100, deadline=None, database=None)
    @given(separable_game())
    def collect(game):
        nonlocal sides, local
        g = Game(*game)
        for mover in (BLACK, WHITE):
            sides += 1
            found = local_actions(g, mover)
            if found is not None:
                local += 1
                verdicts.append(bool(found))

    collect()
    assert local >= 0.4 * sides, f"only {local} of {sides} sides decided locally"
    assert verdicts.count(True) >= 10 and verdicts.count(False) >= 10, verdicts


# -- the comparison can fail -------------------------------------------------------------


def test_a_window_one_cell_too_small_is_caught(monkeypatch):
    """The mutant: situations computed with a reach one cell short, so
    positions next to an edge share a situation with interior ones."""
    real = sanity_local._reach

    def short(action, goals, axis):
        left, right = real(action, goals, axis)
        return max(0, left - 1), max(0, right - 1)

    monkeypatch.setattr(sanity_local, "_reach", short)
    # Found by the random comparison above run against this mutant (after
    # some 650 games): Black's b0 may turn the cell two to the right of an
    # open cell White, which completes White's diagonal pair only where the
    # pair fits, so the short window misjudges the edge columns.
    from helpers.check_models import action, model

    domain = "#blackactions\n" + action("b0", "open(?x-1,?y)", "NOT(open(?x+1,?y))") + "#whiteactions\n" + action("w0", "open(?x,?y)", "white(?x,?y)")
    problem = "#boardsize 3 2\n#init\n#depth 1\n#blackgoals\n#whitegoals\n(white(?x,?y) white(?x+1,?y+1))\n"
    d, p = model(domain, problem)
    _, found = disagreements(d, p)
    assert found, "a window one cell too small went unnoticed"
    monkeypatch.setattr(sanity_local, "_reach", real)
    assert disagreements(d, p) == (2, [])


def test_the_engine_replay_guard_is_on_for_small_boards():
    assert check_module.ENGINE_REPLAY_CELLS >= 49
