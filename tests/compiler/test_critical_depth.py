"""The critical-depth scan against a direct scan with the game engine."""

from __future__ import annotations

import dataclasses

import pytest

from bddl import Game
from bddl.loader import load_model
from bddl.engines.minimax import search
from compiler.solving import critical_depth
from compiler.solving.critical_depth import candidate_depths, scan_depths
from compiler.solving.pipeline import EncodingSize, SolveResult
from helpers.suite import DOMAINS, PROBLEMS


def engine_critical_depth(domain, problem, high: int) -> int | None:
    """The smallest depth at which the engine says Black wins."""
    game = Game(domain, problem)
    for depth in range(1, high + 1):
        if search(game, depth).black_wins:
            return depth
    return None


CASES = [
    ("domineering.bddl", "domineering/4x4_d8.bddl"),
    ("connect.bddl", "connect/connect3_4x4_d9.bddl"),
    ("positional.bddl", "hex/hex4_c_d5.bddl"),
    ("breakthrough.bddl", "breakthrough/second_2x4_d8.bddl"),
    ("evader_pursuer_dual.bddl", "evader_pursuer/dual_1x6_p1-5_d3.bddl"),
]


@pytest.mark.parametrize("domain, problem", CASES, ids=[p for _, p in CASES])
def test_scan_finds_the_engines_critical_depth(domain, problem):
    m = load_model(DOMAINS / domain, PROBLEMS / problem)
    expected = engine_critical_depth(m.domain, m.problem, m.problem.depth)
    assert expected is not None
    seen = []
    scan = scan_depths(m.domain, m.problem, 1, m.problem.depth, timeout=60, on_result=seen.append)
    assert scan.critical_depth == scan.first_win == expected
    assert [r.depth for r in seen] == [r.depth for r in scan.results] == candidate_depths(m.problem, 1, expected)
    assert all(r.black_wins is False for r in scan.results[:-1]) and scan.results[-1].black_wins is True
    assert scan.monotonicity == "consistent" and scan.check.depth == expected + 2


def test_no_win_up_to_max():
    m = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_4x4_d9.bddl")
    scan = scan_depths(m.domain, m.problem, 1, 6)
    assert scan.first_win is None and scan.critical_depth is None and scan.refuted_before == 6
    assert [r.black_wins for r in scan.results] == [False] * 6


def test_a_scan_that_starts_late_proves_nothing_about_smaller_depths():
    m = load_model(DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl")
    scan = scan_depths(m.domain, m.problem, 5, 6)
    assert scan.first_win == 5 and scan.critical_depth is None and scan.refuted_before is None


def test_parity_when_black_has_no_goals():
    m = load_model(DOMAINS / "domineering.bddl", PROBLEMS / "domineering/4x4_d8.bddl")
    assert not m.problem.black_goals
    assert candidate_depths(m.problem, 1, 9) == [2, 4, 6, 8]  # Black first: White moves on even plies
    second = dataclasses.replace(m.problem, black_first=False)
    assert candidate_depths(second, 1, 9) == [1, 3, 5, 7, 9]
    hex_ = load_model(DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl").problem
    assert candidate_depths(hex_, 2, 5) == [2, 3, 4, 5]


def test_parity_skip_is_sound():
    """Where Black has no goals, a depth ending on Black's turn has the verdict of the one before."""
    m = load_model(DOMAINS / "domineering.bddl", PROBLEMS / "domineering/4x4_d8.bddl")
    game = Game(m.domain, m.problem)
    verdicts = [search(game, d).black_wins for d in range(1, 10)]
    for d in range(3, 10, 2):  # Black's plies
        assert verdicts[d - 1] == verdicts[d - 2]


def test_a_contradicting_solver_is_reported(monkeypatch):
    """Win at 3 but no win at 5 is impossible; the scan must say so."""
    m = load_model(DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl")

    def fake_solve(domain, problem, depth, **options):
        return SolveResult(depth == 3, depth, "fake", 0.0, EncodingSize(1, 1, 1))

    monkeypatch.setattr(critical_depth, "solve", fake_solve)
    scan = scan_depths(m.domain, m.problem, 3, 4)
    assert scan.first_win == 3 and scan.monotonicity == "violated" and scan.critical_depth is None
