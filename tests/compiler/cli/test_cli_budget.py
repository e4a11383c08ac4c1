"""Limits a user expects: an overall `--time-budget` for `depth` and
`validate`, and `--depth` (`--max` for `depth`) standing in for a missing
`#depth`."""

from __future__ import annotations

import json
import time

import pytest

from bddl.game import BLACK
from bddl.engines.minimax import black_wins
from compiler.cli import main
from compiler.solving.processes import budget as budget_module
from compiler.solving.processes.budget import Budget
from compiler.solving.critical_depth import candidate_depths, scan_depths
from compiler.model import open_model
from compiler.solving.strategy import SolverStrategy, StrategyUnknown
from helpers.suite import DOMAINS, PROBLEMS

CONNECT3 = [str(DOMAINS / "connect.bddl"), str(PROBLEMS / "connect/connect3_4x4_d9.bddl")]
DOMINEERING = [str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering/4x4_d8.bddl")]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class StepClock:
    """A monotonic clock that moves `step` seconds each time it is read."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_budget_arithmetic(monkeypatch):
    monkeypatch.setattr(budget_module.time, "monotonic", StepClock(1.0))
    b = Budget.starting_now(3.0)  # starts at 1
    assert b.timeout(10.0) == 2.0  # read at 2: 2 s left, less than the solve's own 10
    assert b.timeout(0.5) == 0.5  # read at 3: 1 s left, more than 0.5
    assert b.spent()  # read at 4
    assert b.reason() == "the time budget of 3 s is spent"
    assert Budget().timeout(7.0) == 7.0 and not Budget().spent() and Budget().timeout(None) is None


def test_scan_stops_when_the_budget_is_spent_and_keeps_what_it_knows(monkeypatch):
    model = open_model(CONNECT3)
    clock = StepClock(1.0)
    monkeypatch.setattr(budget_module.time, "monotonic", clock)
    scan = scan_depths(model, 1, 9, budget=Budget.starting_now(12.0))
    assert scan.budget_spent and scan.first_win is None
    tried = [r.depth for r in scan.results]
    assert tried and tried == candidate_depths(model, 1, 9)[: len(tried)] and len(tried) < 9
    for r in scan.results:  # what it reports is right: the engine agrees on every verdict it gives
        if r.black_wins is not None:
            game = model.rules.game
            assert r.black_wins == black_wins(game, game.initial, BLACK, r.depth)
        else:
            assert r.reason == "the time budget of 12 s is spent"


def test_scan_without_a_budget_is_unchanged():
    scan = scan_depths(open_model(CONNECT3), 8, 9)
    assert (scan.critical_depth, scan.budget_spent) == (9, False)


def test_depth_with_a_spent_budget_stops_cleanly(capsys):
    status, out, err = run(capsys, "depth", *CONNECT3, "--time-budget", "0.000001")
    assert status == 0 and "Traceback" not in err
    assert out.splitlines()[-1] == "stopped: the time budget of 1e-06 s is spent; no win found, depths up to 9 not all decided."
    status, out, _ = run(capsys, "depth", *CONNECT3, "--time-budget", "0.000001", "--json")
    data = json.loads(out)
    assert status == 0 and data["budget_spent"] is True and data["critical_depth"] is None


def test_depth_with_enough_budget_answers_as_without(capsys):
    status, out, _ = run(capsys, "depth", *CONNECT3, "--min", "8", "--time-budget", "600")
    assert status == 10 and "critical depth: 9" in out and "budget" not in out


def test_validate_with_a_spent_budget_stops_cleanly(capsys):
    status, out, err = run(capsys, "validate", *DOMINEERING, "--time-budget", "0.000001")
    assert status == 3 and "Traceback" not in err
    assert out.splitlines()[0] == "unknown: the time budget of 1e-06 s is spent; nothing to validate."


def test_strategy_stops_when_the_budget_is_spent():
    model = open_model(DOMINEERING)
    spent = Budget(1.0, time.monotonic() - 2.0)
    strategy = SolverStrategy(model, budget=spent)
    with pytest.raises(StrategyUnknown, match="the time budget of 1 s is spent"):
        strategy(model.rules.initial, model.depth)
    assert strategy.solves == 0


def test_validate_stopped_midway_reports_the_lines_it_checked(capsys, monkeypatch):
    real = time.monotonic
    calls = []

    def clock():  # the budget runs out after a few solves
        calls.append(1)
        return real() + (100.0 if len(calls) > 8 else 0.0)

    monkeypatch.setattr(budget_module.time, "monotonic", clock)
    status, out, _ = run(capsys, "validate", *DOMINEERING, "--time-budget", "50")
    assert status == 3
    assert out.startswith("stopped after ") and out.splitlines()[0].endswith("lines of play: the time budget of 50 s is spent.")


# -- --depth for a missing #depth --------------------------------------------------------------


@pytest.fixture
def no_depth(tmp_path):
    text = (PROBLEMS / "connect/connect3_4x4_d9.bddl").read_text().replace("#depth\n9\n", "")
    assert "#depth" not in text
    path = tmp_path / "nodepth.bddl"
    path.write_text(text)
    return str(path)


def test_a_missing_depth_names_the_option(capsys, no_depth):
    status, _, err = run(capsys, "search", CONNECT3[0], no_depth)
    assert status == 1 and "missing section '#depth'" in err and "--depth D" in err


def test_depth_option_stands_in_for_a_missing_depth(capsys, no_depth):
    status, out, _ = run(capsys, "search", CONNECT3[0], no_depth, "--depth", "3")
    assert status == 0 and out.startswith("Black has no winning strategy within 3 moves.")
    status, out, _ = run(capsys, "depth", CONNECT3[0], no_depth, "--min", "8", "--max", "9")
    assert status == 10 and "critical depth: 9" in out
