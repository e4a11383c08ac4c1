"""bench.whole_commands measures issue 41's whole-command targets; these check that its figures are
of checked verdicts and that a wrong set name is a usage error, on games that take milliseconds."""

import pytest

from bench import whole_commands


def test_a_bddl_solve_is_timed_and_its_verdict_checked_against_the_suite():
    problem = whole_commands.ROOT / "problems" / "breakthrough" / "second_2x4_d6.bddl"
    seconds, verdict = whole_commands.solve_wall(whole_commands.BREAKTHROUGH, problem)
    assert seconds > 0
    assert verdict.startswith("Black wins" if whole_commands._expected(problem) else "Black has no winning strategy")


def test_a_verdict_against_the_suite_is_an_error_not_a_figure(monkeypatch):
    problem = whole_commands.ROOT / "problems" / "breakthrough" / "second_2x4_d6.bddl"
    expected = whole_commands._expected(problem)
    monkeypatch.setattr(whole_commands, "_expected", lambda path: not expected)
    with pytest.raises(SystemExit, match="expects the opposite"):
        whole_commands.solve_wall(whole_commands.BREAKTHROUGH, problem)


def test_an_unknown_set_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        whole_commands.main(["--sets", "gttt,breakthru"])
    assert stopped.value.code == 2
    assert "unknown set 'breakthru'" in capsys.readouterr().err
