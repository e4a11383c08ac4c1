"""`compiler.analysis.sanity`: the sanity conditions on the suite, the corpus and models broken on purpose.

Every counterexample is replayed with the game engine (`Game.moves`), which
shares no code with the SAT encoding beyond the grounding of actions."""

from __future__ import annotations

import pytest
from helpers.check_models import (
    assert_replays,
    INITIAL_WIN_PROBLEM,
    LINES_3x3,
    MARK_DOMAIN,
    PAINT_DOMAIN,
    PAIRS_3x1,
    POSITIONAL,
    RETREAT_DOMAIN,
    RETREAT_PROBLEM,
    UNREACHABLE_PROBLEM,
    model,
)

from bddl import Game, load_model
from bddl.game import BLACK, WHITE
from compiler.analysis.sanity import InitialWin, ReachableTooLarge, check
from helpers.corpus import instances, needs_corpus
from helpers.suite import manifest


def rows(game: Game, state) -> list[str]:
    g = game.geometry
    symbol = {"open": ".", "black": "B", "white": "W"}
    return ["".join(symbol[state.value(g, x, y)] for x in range(1, g.width + 1)) for y in range(1, g.height + 1)]


# -- every model we ship and every corpus model passes ------------------------------------


@pytest.mark.parametrize("case", manifest(), ids=lambda c: c.id)
def test_every_suite_problem_passes(case):
    m = load_model(case.domain, case.problem)
    report = check(m.domain, m.problem)
    assert report.ok, [(c.number, c.counterexamples) for c in report.conditions if not c.holds]


@needs_corpus
@pytest.mark.parametrize("case", instances(), ids=lambda c: c.id)
def test_every_corpus_problem_passes(case):
    m = load_model(case.domain, case.problem)
    assert check(m.domain, m.problem).ok


# -- one broken model per condition ------------------------------------------------------


@pytest.mark.parametrize("reachable", [False, True], ids=["sat", "reachable"])
def test_black_painting_a_white_stone_breaks_condition_2(reachable):
    d, p = model(PAINT_DOMAIN, LINES_3x3)
    game = Game(d, p)
    report = check(d, p, reachable=reachable)
    first, second, third = report.conditions
    assert first.holds and third.holds and not second.holds and not report.ok
    (v,) = second.counterexamples
    assert (v.mover, v.action.name, v.action_index) == (BLACK, "paint", 1)
    assert (v.action.name_span.line, v.action.name_span.column) == (6, 9)
    assert (v.goal.side, v.goal.index, v.goal.goal.span.line) == (WHITE, 0, 7)
    assert_replays(game, v)
    # the painted cell completes the White column the goal names
    assert v.goal.x == v.x and v.goal.y <= v.y <= v.goal.y + 2
    if reachable:
        assert v.ply == 3  # Black paints, White occupies, Black paints the third stone
    else:
        # simplified: only the two White stones the step needs remain
        assert v.ply is None
        assert sum(r.count("W") for r in rows(game, v.before)) == 2
        assert "B" not in "".join(rows(game, v.before))


def test_a_negated_effect_choosing_white_breaks_condition_2():
    d, p = model(MARK_DOMAIN, PAIRS_3x1)
    game = Game(d, p)
    report = check(d, p)
    (v,) = report.conditions[1].counterexamples
    assert v.action.name == "mark"
    assert v.after.value(game.geometry, v.x, v.y) == WHITE
    assert_replays(game, v)
    assert report.conditions[2].holds


@pytest.mark.parametrize("reachable", [False, True], ids=["sat", "reachable"])
def test_white_emptying_blacks_target_breaks_condition_3(reachable):
    d, p = model(RETREAT_DOMAIN, RETREAT_PROBLEM)
    game = Game(d, p)
    report = check(d, p, reachable=reachable)
    assert [c.holds for c in report.conditions] == [True, True, False]
    (v,) = report.conditions[2].counterexamples
    assert (v.mover, v.action.name, v.x, v.y) == (WHITE, "retreat", 2, 1)
    assert (v.goal.side, v.goal.index) == (BLACK, 0)
    # in play Black's stone stands at (1,1); the SAT counterexample drops it, since it does not matter
    assert rows(game, v.after) == (["B.W"] if reachable else ["..W"])
    assert_replays(game, v)


def test_a_goal_holding_initially_breaks_condition_1():
    d, p = model(POSITIONAL, INITIAL_WIN_PROBLEM)
    report = check(d, p)
    first = report.conditions[0]
    (example,) = first.counterexamples
    assert isinstance(example, InitialWin)
    assert (example.goal.side, example.goal.x, example.goal.y) == (BLACK, 1, 2)
    assert example.goal.goal.span.line == 6
    assert example.state == Game(d, p).initial
    assert not report.ok


def test_sat_covers_unreachable_states_and_reachable_does_not():
    d, p = model(PAINT_DOMAIN, UNREACHABLE_PROBLEM)
    by_sat = check(d, p)
    by_play = check(d, p, reachable=True)
    assert not by_sat.conditions[1].holds
    assert by_play.ok and by_play.positions == 1 and by_play.method == "reachable"
    assert_replays(Game(d, p), by_sat.conditions[1].counterexamples[0])


def test_no_goals_for_the_opponent_means_nothing_to_break():
    d, p = model(PAINT_DOMAIN, LINES_3x3.replace("(white(?x,?y) white(?x,?y+1) white(?x,?y+2))\n", ""))
    assert check(d, p).ok


def test_reachable_refuses_past_its_budget():
    d, p = model(POSITIONAL, LINES_3x3)
    with pytest.raises(ReachableTooLarge, match="more than 10 positions"):
        check(d, p, reachable=True, max_positions=10)


def test_counterexamples_are_deterministic():
    d, p = model(PAINT_DOMAIN, LINES_3x3)
    first, second = check(d, p), check(d, p)
    assert first.conditions == second.conditions
