"""`depth --jobs`: several depths at once give the sequential scan's answer, and the pruning
(a win makes deeper depths pointless, a refutation settles the shallower ones) stops solves."""

from __future__ import annotations

import threading
import time

import pytest
from helpers.suite import DOMAINS, PROBLEMS
from test_critical_depth import CASES

from compiler.model import open_model
from compiler.solving import parallel_depth
from compiler.solving.processes.cluster import LocalRunner
from compiler.solving.critical_depth import DepthResult, scan_depths
from compiler.solving.parallel_depth import scan_depths_parallel


def summary(scan):
    return (scan.critical_depth, scan.first_win, scan.refuted_before, scan.monotonicity,
            None if scan.check is None else (scan.check.depth, scan.check.black_wins))


@pytest.mark.parametrize("domain, problem", CASES, ids=[p for _, p in CASES])
def test_two_jobs_find_what_the_sequential_scan_finds(domain, problem):
    m = open_model([DOMAINS / domain, PROBLEMS / problem])
    sequential = scan_depths(m, 1, m.depth, timeout=60)
    with LocalRunner(2) as runner:
        seen = []
        both = scan_depths_parallel(m, 1, m.depth, runner, 2, timeout=60, on_result=seen.append)
    assert summary(both) == summary(sequential)
    assert [r.depth for r in both.results] == [r.depth for r in sequential.results]
    assert [r.black_wins for r in both.results] == [r.black_wins for r in sequential.results]
    assert sorted(r.depth for r in seen) == [r.depth for r in both.results]


class Scripted:
    """Stands in for one depth's solve: answers from a table after a delay; records which
    solves were stopped before answering."""

    def __init__(self, answers: dict[int, tuple[bool | None, float]]) -> None:
        self.answers = answers
        self.stopped: list[int] = []
        self.started: list[int] = []
        self.lock = threading.Lock()

    def __call__(self, model, depth, solver, preprocess, timeout, encoding, stop=None) -> DepthResult:
        with self.lock:
            self.started.append(depth)
        verdict, delay = self.answers[depth]
        end = time.monotonic() + delay
        while time.monotonic() < end:
            if stop is not None and stop():
                with self.lock:
                    self.stopped.append(depth)
                return DepthResult(depth, None, 0.0, "stopped")
            time.sleep(0.005)
        return DepthResult(depth, verdict, delay, None if verdict is not None else "time limit")


@pytest.fixture
def goal_game():
    """A model where Black has goals, so every depth is a candidate."""
    m = open_model([DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_4x4_d9.bddl"])
    assert m.bddl.problem.black_goals
    return m


def run_scripted(monkeypatch, model, answers, jobs, high):
    scripted = Scripted(answers)
    monkeypatch.setattr(parallel_depth, "solve_depth", scripted)
    with LocalRunner(jobs) as runner:
        scan = scan_depths_parallel(model, 1, high, runner, jobs)
        time.sleep(0.1)  # a stop is seen within 5 ms
        scripted.stopped_during_scan = list(scripted.stopped)  # not by the runner's cleanup
    return scan, scripted


def test_a_deeper_refutation_settles_and_stops_the_shallower_depths(monkeypatch, goal_game):
    # depth 1 is slow (it would time out in a sequential scan); 2 and 3 refute quickly; 4 wins; 6 re-checks
    answers = {1: (None, 5.0), 2: (False, 0.05), 3: (False, 0.05), 4: (True, 0.05), 5: (True, 5.0), 6: (True, 0.05)}
    scan, scripted = run_scripted(monkeypatch, goal_game, answers, jobs=2, high=6)
    assert 1 in scripted.stopped_during_scan  # refuted by depth 2 while it ran
    assert [(r.depth, r.black_wins, r.implied_by) for r in scan.results] == [(1, False, 2), (2, False, None), (3, False, None), (4, True, None)]
    assert scan.critical_depth == 4 and scan.refuted_before == 3 and scan.monotonicity == "consistent"
    assert 5 not in scripted.started or 5 in scripted.stopped  # deeper than the first win: pointless


def test_a_win_stops_the_deeper_depths_but_not_the_recheck(monkeypatch, goal_game):
    answers = {1: (False, 0.3), 2: (True, 0.05), 3: (True, 5.0), 4: (True, 0.3), 5: (True, 5.0)}
    scan, scripted = run_scripted(monkeypatch, goal_game, answers, jobs=3, high=5)
    assert 3 in scripted.stopped_during_scan and 4 in scripted.started and 4 not in scripted.stopped
    assert scan.critical_depth == 2 and scan.check.depth == 4 and scan.monotonicity == "consistent"


def test_a_refutation_deeper_than_a_win_is_a_contradiction(monkeypatch, goal_game):
    answers = {1: (True, 0.05), 2: (True, 0.3), 3: (False, 0.05)}
    scan, _ = run_scripted(monkeypatch, goal_game, answers, jobs=3, high=2)
    assert scan.first_win == 1 and scan.monotonicity == "violated" and scan.critical_depth is None


def test_unknown_depths_leave_the_critical_depth_unproved(monkeypatch, goal_game):
    answers = {1: (False, 0.05), 2: (None, 0.05), 3: (True, 0.05), 5: (True, 0.05)}
    scan, _ = run_scripted(monkeypatch, goal_game, answers, jobs=2, high=3)
    assert scan.first_win == 3 and scan.critical_depth is None and scan.refuted_before == 1
