"""The critical-depth scan against a direct scan with the game engine."""

from __future__ import annotations

import dataclasses

import pytest

from bddl import Game
from bddl.loader import load_model
from compiler.model import open_model
from bddl.engines.minimax import search
from compiler.solving import critical_depth
from compiler.solving.critical_depth import candidate_depths, scan_depths
from compiler.solving.results import EncodingSize, SolveResult
from helpers.suite import DOMAINS, PROBLEMS, ROOT


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
    model = open_model([DOMAINS / domain, PROBLEMS / problem])
    scan = scan_depths(model, 1, m.problem.depth, timeout=60, on_result=seen.append)
    assert scan.critical_depth == scan.first_win == expected
    assert [r.depth for r in seen] == [r.depth for r in scan.results] == candidate_depths(model, 1, expected)
    assert all(r.black_wins is False for r in scan.results[:-1]) and scan.results[-1].black_wins is True
    assert scan.monotonicity == "consistent" and scan.check.depth == expected + 2


def test_no_win_up_to_max():
    scan = scan_depths(open_model([DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_4x4_d9.bddl"]), 1, 6)
    assert scan.first_win is None and scan.critical_depth is None and scan.refuted_before == 6
    assert [r.black_wins for r in scan.results] == [False] * 6


def test_a_scan_that_starts_late_proves_nothing_about_smaller_depths():
    scan = scan_depths(open_model([DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl"]), 5, 6)
    assert scan.first_win == 5 and scan.critical_depth is None and scan.refuted_before is None


def test_parity_when_black_has_no_goals():
    m = open_model([DOMAINS / "domineering.bddl", PROBLEMS / "domineering/4x4_d8.bddl"])
    assert not m.bddl.problem.black_goals
    assert candidate_depths(m, 1, 9) == [2, 4, 6, 8]  # Black first: White moves on even plies
    second = m.at_position(dataclasses.replace(m.rules.initial, ply=1), plies=9)  # the same board, White to move
    assert candidate_depths(second, 1, 9) == [1, 3, 5, 7, 9]
    hex_ = open_model([DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl"])
    assert candidate_depths(hex_, 2, 5) == [2, 3, 4, 5]


def test_a_positional_game_can_be_critical_only_on_black_plies():
    """In a .pg game a stuck mover ends the game: Black wins only on its own claim."""
    m = open_model([ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg"])  # turns B W W B B, continued with period 4
    assert candidate_depths(m, 1, 9) == [1, 4, 5, 8, 9]
    scan = scan_depths(m, 1, 7, timeout=60)
    assert scan.critical_depth == 5 and scan.check.depth == 8 and scan.monotonicity == "consistent"


def test_parity_skip_is_sound():
    """Where Black has no goals, a depth ending on Black's turn has the verdict of the one before."""
    m = load_model(DOMAINS / "domineering.bddl", PROBLEMS / "domineering/4x4_d8.bddl")
    game = Game(m.domain, m.problem)
    verdicts = [search(game, d).black_wins for d in range(1, 10)]
    for d in range(3, 10, 2):  # Black's plies
        assert verdicts[d - 1] == verdicts[d - 2]


def test_a_contradicting_solver_is_reported(monkeypatch):
    """Win at 3 but no win at 5 is impossible; the scan must say so."""
    m = open_model([DOMAINS / "positional.bddl", PROBLEMS / "hex/hex3_d5.bddl"])

    def fake_solve(model, **options):
        return SolveResult(model.depth == 3, model.depth, "fake", 0.0, EncodingSize(1, 1, 1))

    monkeypatch.setattr(critical_depth, "solve_model", fake_solve)
    scan = scan_depths(m, 3, 4)
    assert scan.first_win == 3 and scan.monotonicity == "violated" and scan.critical_depth is None
