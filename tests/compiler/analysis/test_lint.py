"""`compiler.analysis.lint`: one model per warning, each located where the modeller must look."""

from __future__ import annotations

from helpers.check_models import LINES_3x3, OCCUPY_BLACK, OCCUPY_WHITE, POSITIONAL, action, model

from compiler.analysis.lint import lint
from compiler.analysis.mistakes import modelling_mistakes


def warnings_of(domain: str, problem: str = LINES_3x3):
    """lint's own warnings; those about goals (`compiler.analysis.mistakes`) have their tests."""
    d, p = model(domain, problem)
    goals = modelling_mistakes(d, p)
    return [w for w in lint(d, p) if w not in goals]


def where(d):
    return d.span.file, d.span.line, d.span.column


def test_a_sound_model_has_no_warnings():
    assert warnings_of(POSITIONAL) == []


def test_contradictory_precondition():
    domain = POSITIONAL + action("odd", "open(?x,?y) black(?x,?y)", "white(?x,?y)")
    (w,) = warnings_of(domain)
    assert w.severity == "warning" and where(w) == ("d.bddl", 11, 9)
    assert "White's action 'odd' can never be played on the 3x3 board: its precondition asks for two values" in w.message


def test_contradictory_effect():
    domain = POSITIONAL + action("odd", "open(?x,?y)", "white(?x,?y) black(?x,?y)")
    (w,) = warnings_of(domain)
    assert "its effect asks for two values of one cell wherever its precondition can hold" in w.message


def test_contradiction_at_some_positions_only_is_not_a_warning():
    # black(?x,?y) and white(xmin,?y) name one cell only where ?x = xmin
    domain = POSITIONAL + action("edge", "black(?x,?y) white(xmin,?y)", "open(?x,?y)")
    assert warnings_of(domain) == []
    problem = LINES_3x3.replace("#whitegoals\n", "#whitegoals\n(black(?x,?y) white(1,?y))\n")
    assert warnings_of(POSITIONAL, problem) == []


def test_goal_that_asks_one_cell_for_two_values():
    problem = LINES_3x3.replace("#whitegoals\n", "#whitegoals\n(white(2,2) open(2,2))\n")
    (w,) = warnings_of(POSITIONAL, problem)
    assert where(w) == ("p.bddl", 7, 1)
    assert w.message == "this goal of White can never hold on the 3x3 board: it asks for two values of one cell wherever it fits"


def test_side_without_actions_points_at_its_header():
    (w,) = warnings_of("#blackactions\n" + OCCUPY_BLACK + "#whiteactions\n")
    assert where(w) == ("d.bddl", 6, 1)
    assert w.message == "White has no actions, so White loses as soon as it is White's turn"
    found = warnings_of("#blackactions\n#whiteactions\n" + OCCUPY_WHITE)
    assert [where(w) for w in found] == [("d.bddl", 1, 1)]


def test_cells_no_action_can_change():
    # both sides may only play next to an occupied cell on their left: column 1 never changes
    move = action("extend", "open(?x,?y) NOT(open(?x-1,?y))", "black(?x,?y)")
    domain = "#blackactions\n" + move + "#whiteactions\n" + move.replace("black(?x,?y)", "white(?x,?y)")
    (w,) = warnings_of(domain)
    assert where(w) == ("p.bddl", 1, 12)
    assert w.message == "no action can ever change 3 cells of the 3x3 board: (1,1), (1,2), (1,3)"


def test_an_action_that_rewrites_a_cell_with_its_own_value_changes_nothing():
    keep = action("keep", "black(?x,?y)", "black(?x,?y)")
    (w,) = warnings_of("#blackactions\n" + keep + "#whiteactions\n" + keep)
    assert "(the whole board)" in w.message
