"""The solver runner and the portfolio: a verdict only from exit codes 10/20,
the first verdict of a portfolio wins, the others are killed, the limit holds."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from compiler.solving.qbf import solver_programs as solvers
from compiler.solving.qbf.solver_programs import members, run_portfolio, run_solver
from conftest import shell_program


@pytest.fixture
def programs(tmp_path, monkeypatch):
    """Make solver NAME run a shell script: programs({"qute": body, "depqbf": body})."""

    def install(bodies: dict[str, str]) -> None:
        paths = {name: shell_program(tmp_path, f"fake_{name}", body) for name, body in bodies.items()}
        monkeypatch.setattr(solvers, "solver_path", lambda name: paths[name])

    return install


@pytest.fixture
def formula(tmp_path) -> Path:
    path = tmp_path / "f.qdimacs"
    path.write_text("p cnf 2 1\ne 1 2 0\n1 2 0\n")
    return path


def test_members():
    assert members("qute") == ("qute",)
    assert members("auto") == solvers.PORTFOLIOS["auto"]
    with pytest.raises(ValueError, match="unknown solver"):
        members("minisat")


def test_the_first_verdict_wins_and_the_slower_member_is_killed(programs, formula, tmp_path):
    marker = tmp_path / "slow-finished"
    programs({"qute": "echo '1 -2 0'; exit 10", "depqbf": f"sleep 5; touch {marker}; exit 20"})
    start = time.perf_counter()
    run = run_portfolio([("qute", formula), ("depqbf", formula)], timeout=30)
    assert (run.solver, run.verdict, run.status) == ("qute", True, "solved")
    assert run.model == {1: True, 2: False}
    time.sleep(0.2)
    assert time.perf_counter() - start < 4 and not marker.exists()  # killed, not waited for


def test_a_member_without_a_verdict_does_not_decide(programs, formula):
    programs({"qute": "echo 'parse error'; exit 1", "depqbf": "sleep 0.3; echo 's cnf 0'; exit 20"})
    run = run_portfolio([("qute", formula), ("depqbf", formula)], timeout=30)
    assert (run.solver, run.verdict, run.status) == ("depqbf", False, "solved")


def test_no_verdict_from_anyone_is_an_error(programs, formula):
    programs({"qute": "exit 0", "depqbf": "echo UNKNOWN; exit 0"})
    run = run_portfolio([("qute", formula), ("depqbf", formula)], timeout=30)
    assert run.verdict is None and run.status == "error"


def test_the_limit_stops_every_member(programs, formula):
    programs({"qute": "sleep 30; exit 10", "depqbf": "sleep 30; exit 20"})
    start = time.perf_counter()
    run = run_portfolio([("qute", formula), ("depqbf", formula)], timeout=0.5)
    assert run.verdict is None and run.status == "timeout"
    assert time.perf_counter() - start < 5  # a generous margin, not a speed claim


@pytest.mark.parametrize("code, verdict", [(10, True), (20, False), (0, None), (139, None)])
def test_only_exit_codes_10_and_20_are_verdicts(programs, formula, code, verdict):
    programs({"depqbf": f"exit {code}"})
    assert run_solver("depqbf", formula, timeout=30).verdict is verdict


def test_real_portfolio_on_a_true_and_a_false_formula(tmp_path):
    true_file = tmp_path / "t.qdimacs"
    true_file.write_text("p cnf 2 2\na 1 0\ne 2 0\n1 2 0\n-1 -2 0\n")
    false_file = tmp_path / "f.qdimacs"
    false_file.write_text("p cnf 2 2\ne 1 0\na 2 0\n1 2 0\n-1 -2 0\n")
    jobs = lambda path: [(name, path) for name in members("auto")]  # noqa: E731
    assert run_portfolio(jobs(true_file), timeout=60).verdict is True
    assert run_portfolio(jobs(false_file), timeout=60).verdict is False
