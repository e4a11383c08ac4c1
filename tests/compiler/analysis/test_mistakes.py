"""`compiler.analysis.mistakes`: one model per silent modelling mistake, each
warning located and hinted; none on the suite or the corpus; the cell
reachability it rests on checked against the game engine."""

from __future__ import annotations

import pytest
from conftest import CORPUS, scaled
from hypothesis import given, settings

from bddl import Game, load_model
from bddl.game import Geometry
from compiler.analysis.lint import lint
from compiler.analysis.mistakes import modelling_mistakes, reachable_values
from helpers.check_models import LINES_3x3, OCCUPY_WHITE, POSITIONAL, action, model
from helpers.corpus import needs_corpus
from helpers.strategies import game as random_game
from helpers.suite import manifest

LINES_4x4 = (
    "#boardsize 4 4\n#init\n#depth 5\n"
    "#blackgoals\n(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n(black(?x,?y) black(?x,?y+1) black(?x,?y+2))\n"
    "#whitegoals\n(white(?x,?y) white(?x,?y+1) white(?x,?y+2))\n"
)


def warnings_of(problem: str, domain: str = POSITIONAL):
    d, p = model(domain, problem)
    return modelling_mistakes(d, p)


def where(d):
    return d.span.file, d.span.line, d.span.column


def test_a_sound_model_has_none():
    assert warnings_of(LINES_4x4) == [] and warnings_of(LINES_3x3) == []


def test_black_without_goals_while_white_has_some():
    (w,) = warnings_of(LINES_4x4.replace("(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n(black(?x,?y) black(?x,?y+1) black(?x,?y+2))\n", ""))
    assert where(w) == ("p.bddl", 4, 1)  # the '#blackgoals' header
    assert w.message == "Black has actions but no goals: it can win only by leaving White without a move"
    assert "write False under '#blackgoals'" in w.hint


def test_no_goals_said_on_purpose_or_on_both_sides_is_fine():
    without = LINES_4x4.replace("(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n(black(?x,?y) black(?x,?y+1) black(?x,?y+2))\n", "")
    assert warnings_of(without.replace("#blackgoals\n", "#blackgoals\nFalse\n")) == []
    assert warnings_of(without.replace("(white(?x,?y) white(?x,?y+1) white(?x,?y+2))\n", "")) == []  # Domineering-like
    assert warnings_of(LINES_4x4.replace("(white(?x,?y) white(?x,?y+1) white(?x,?y+2))\n", "")) == []  # maker-breaker


def test_goal_blocked_by_a_stone_no_action_moves():
    problem = LINES_4x4.replace("#init\n", "#init\nwhite(1,1)\n").replace(
        "#whitegoals\n", "(black(1,1) black(2,1))\n#whitegoals\n"
    )
    (w,) = warnings_of(problem)
    assert where(w) == ("p.bddl", 8, 1)
    assert w.message == "this goal of Black can never hold: (1,1) must be black but is only ever white"
    assert w.hint == "note: the '#init' stone at (1,1) stays for the whole game: no action can move or remove it"


def test_goal_whose_value_no_action_writes():
    domain = "#blackactions\n" + action("occupy", "open(?x,?y)", "black(?x,?y)") + "#whiteactions\n" + OCCUPY_WHITE
    problem = LINES_4x4.replace("#whitegoals\n(white", "#whitegoals\n(white(?x,?y) open(?x,?y+1) black(?x,?y+2))\n(white")
    assert warnings_of(problem, domain) == []  # both values can be written
    problem = LINES_4x4.replace("#blackgoals\n", "#blackgoals\n(black(?x,?y) NOT(open(?x,?y)) white(?x+1,ymax) black(?x+1,?y))\n")
    assert warnings_of(problem, domain) == []
    painter = "#blackactions\n" + action("occupy", "open(?x,?y)", "black(?x,?y)") + "#whiteactions\n" + action("wait", "white(?x,?y)", "white(?x,?y)")
    problem = LINES_4x4.replace("#init\n", "#init\nwhite(4,4)\n")
    (w,) = warnings_of(problem, painter)
    assert where(w) == ("p.bddl", 9, 1)
    assert w.message.startswith("this goal of White can never hold: each of its 8 placements needs a value some cell never has")
    assert w.hint.startswith("note: no action can make (")


def test_one_goal_split_over_two_lines():
    problem = LINES_4x4.replace("(black(?x,?y) black(?x+1,?y) black(?x+2,?y))", "black(?x,?y) black(?x+1,?y)\nblack(?x+2,?y)")
    (w,) = warnings_of(problem)
    assert where(w) == ("p.bddl", 5, 1)
    assert w.message == "goal lines 5 and 6 of Black look like one goal split over two lines: each line is a goal of its own"
    assert "inside one pair of parentheses" in w.hint


def test_split_needs_two_lines_without_parentheses():
    parenthesised = LINES_4x4.replace("(black(?x,?y) black(?x+1,?y) black(?x+2,?y))", "(black(?x,?y) black(?x+1,?y))\n(black(?x+2,?y))")
    found = warnings_of(parenthesised)
    assert found and not any("split" in w.message for w in found)
    assert [w.span.line for w in found] == [5, 7]  # the pair (one implies the other), and the column the single stone implies


def test_goal_that_is_another_moved():
    problem = LINES_4x4.replace("#whitegoals", "(black(?x+1,?y+1) black(?x+2,?y+1) black(?x+3,?y+1))\n#whitegoals")
    (w,) = warnings_of(problem)
    assert where(w) == ("p.bddl", 7, 1)
    assert w.message == "this goal of Black is the goal on line 5 moved by (+1,+1), so it adds nothing"
    assert w.hint.startswith("note: a side wins when any one of its goals holds")


def test_goal_that_another_implies():
    problem = LINES_4x4.replace("#whitegoals", "(black(?x,?y+1) black(?x+1,?y+1) black(?x+2,?y+1) white(?x,?y))\n#whitegoals")
    (w,) = warnings_of(problem)
    assert where(w) == ("p.bddl", 7, 1)
    assert w.message == "this goal of Black adds nothing: whenever it holds, the goal on line 5 holds too"


def test_a_repeated_goal_blames_the_second():
    problem = LINES_4x4.replace("#whitegoals", "(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n#whitegoals")
    (w,) = warnings_of(problem)
    assert where(w) == ("p.bddl", 7, 1) and w.message == "this goal of Black is the goal on line 5, so it adds nothing"


def test_shifted_goals_with_board_edges_are_not_the_same():
    problem = LINES_4x4.replace("#whitegoals", "(black(?x,ymax) black(?x+1,ymax))\n(black(?x,ymin) black(?x+1,ymin))\n#whitegoals")
    assert warnings_of(problem) == []


def test_compile_and_check_show_them(capsys):
    d, p = model(POSITIONAL, LINES_4x4.replace("#whitegoals", "(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n#whitegoals"))
    assert any("adds nothing" in w.message for w in lint(d, p))


# -- never on real models ---------------------------------------------------------------------


@pytest.mark.parametrize("instance", [pytest.param(i, id=i.file) for i in manifest()])
def test_none_on_the_suite(instance):
    m = load_model(instance.domain, instance.problem)
    assert modelling_mistakes(m.domain, m.problem) == []


@needs_corpus
def test_none_on_the_corpus():
    from bench.corpus import instances

    found = instances(CORPUS)
    assert found
    for instance in found:
        m = load_model(instance.domain, instance.problem)
        assert modelling_mistakes(m.domain, m.problem) == [], instance


# -- the reachability the blocked-goal warning rests on -----------------------------------------


def reached_states(game: Game, limit: int = 3000):
    """Every state either side's moves reach from the initial one, in any order (a superset of the plays)."""
    seen = {game.initial}
    frontier = [game.initial]
    while frontier and len(seen) < limit:
        state = frontier.pop()
        for side in ("black", "white"):
            for move in game.moves(state, side):
                if move.state not in seen:
                    seen.add(move.state)
                    frontier.append(move.state)
    return seen


@settings(max_examples=scaled(60), deadline=None)
@given(random_game())
def test_reachable_values_cover_every_reachable_state(pair):
    domain, problem = pair
    game = Game(domain, problem)
    g = game.geometry
    values = reachable_values(domain, problem, Geometry(problem.width, problem.height))
    for state in reached_states(game):
        for (x, y), allowed in values.items():
            assert state.value(g, x, y) in allowed, ((x, y), state)


def test_reachable_values_are_not_everything():
    """The over-approximation still rules out something (else the warning could never fire)."""
    d, p = model(POSITIONAL, LINES_4x4.replace("#init\n", "#init\nwhite(1,1)\n"))
    values = reachable_values(d, p, Geometry(4, 4))
    assert values[(1, 1)] == frozenset({"white"}) and values[(2, 2)] == frozenset({"open", "black", "white"})


def test_blocked_goals_are_not_looked_for_on_boards_past_the_cell_bound(monkeypatch):
    """The fixpoint grows with the board; compile and check must not (issue 18): past the bound it is skipped."""
    import compiler.analysis.mistakes as mistakes

    problem = LINES_4x4.replace("#init\n", "#init\nwhite(1,1)\n").replace("#whitegoals\n", "(black(1,1) black(2,1))\n#whitegoals\n")
    assert len(warnings_of(problem)) == 1  # the blocked goal, within the bound
    monkeypatch.setattr(mistakes, "REACHABILITY_CELLS", 15)

    def refuse(*args):
        raise AssertionError("reachable_values ran on a board past the bound")

    monkeypatch.setattr(mistakes, "reachable_values", refuse)
    assert warnings_of(problem) == []
