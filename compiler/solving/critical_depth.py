"""The critical depth: the fewest plies within which Black has a winning strategy.

The search solves increasing depths and stops at the first win.  Two facts
about the game (the rules of `bddl.engines.minimax`) shape it:

* Monotonicity.  A win within d plies is a win within any d' >= d plies:
  the same strategy still finishes in time.  So the first win is the
  critical depth once the depth before it is refuted, and one refutation
  covers every smaller depth.  A solver that says "win" at d but "no win"
  at d + 2 contradicts this; the scan re-checks d + 2 after the first win
  and reports a contradiction loudly, because one of the two answers is
  wrong (solver or encoding).
* Parity, when Black has no goals.  Black can then win only by leaving
  White without a legal move, which happens on White's turn.  A game that
  Black wins within d plies, where ply d is Black's, is won by the end of
  ply d - 1 (Black's last move cannot be the one that wins), so depths
  ending on Black's turn can never be critical and are skipped.  With goals,
  Black can win on its own move and White can be stuck on its turn, so any
  depth can be critical and every depth is tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bddl.ast import Domain, Problem

from ..encodings import SOLVE_ENCODING
from .budget import NO_BUDGET, Budget
from .pipeline import SolveResult, solve
from .solver_programs import DEFAULT_SOLVER


@dataclass(frozen=True)
class DepthResult:
    depth: int
    black_wins: bool | None
    seconds: float
    reason: str | None = None  # why there is no verdict
    implied_by: int | None = None  # not solved: refuted because this deeper depth was (`depth --jobs`)


@dataclass(frozen=True)
class DepthScan:
    """The outcome of a critical-depth search.

    `critical_depth` is set only when it is proved: a win at that depth and
    a refutation of every smaller depth that could matter.  `first_win` is
    the first depth found winning (it equals `critical_depth` when that is
    known).  `monotonicity` is "consistent", "violated", "unknown" (the
    re-check gave no verdict) or "not checked" (no win found)."""

    results: tuple[DepthResult, ...]
    critical_depth: int | None
    first_win: int | None
    refuted_before: int | None  # the largest depth below first_win shown to lose
    monotonicity: str
    check: DepthResult | None = None  # the re-check at first_win + 2
    budget_spent: bool = False  # the scan stopped early: the overall time budget ran out


def black_needs_white_turn(problem: Problem) -> bool:
    """True when only depths ending on White's turn can be critical (Black has no goals)."""
    return not problem.black_goals


def ends_on_white_turn(problem: Problem, depth: int) -> bool:
    """Is ply `depth` White's?  (Black moves on odd plies when Black moves first.)"""
    return (depth % 2 == 0) == problem.black_first


def candidate_depths(problem: Problem, low: int, high: int) -> list[int]:
    """The depths from low to high that can be critical (see the module docstring)."""
    depths = range(max(low, 1), high + 1)
    if black_needs_white_turn(problem):
        return [d for d in depths if ends_on_white_turn(problem, d)]
    return list(depths)


def scan_depths(
    domain: Domain,
    problem: Problem,
    low: int,
    high: int,
    *,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    encoding: str = SOLVE_ENCODING,
    preprocess: str = "none",
    on_result: Callable[[DepthResult], None] | None = None,
    on_check: Callable[[DepthResult], None] | None = None,
    budget: Budget = NO_BUDGET,
) -> DepthScan:
    """Solve depths low..high (the candidates) until Black wins; `timeout` is
    per depth, `budget` for the whole scan (no depth starts once it is spent)."""

    def attempt(depth: int) -> DepthResult:
        if budget.spent():
            return DepthResult(depth, None, 0.0, budget.reason())
        r: SolveResult = solve(domain, problem, depth, solver=solver, preprocess=preprocess, timeout=budget.timeout(timeout), encoding=encoding)
        reason = r.reason if r.black_wins is None else None
        if r.black_wins is None and budget.spent():
            reason = budget.reason()
        return DepthResult(depth, r.black_wins, r.seconds, reason)

    def cut(found: list[DepthResult]) -> bool:
        return budget.seconds is not None and any(r.reason == budget.reason() for r in found)

    results: list[DepthResult] = []
    first_win = None
    stopped = False
    for depth in candidate_depths(problem, low, high):
        if budget.spent():
            stopped = True
            break
        result = attempt(depth)
        results.append(result)
        if on_result:
            on_result(result)
        if result.black_wins:
            first_win = depth
            break
    if first_win is None:
        return DepthScan(tuple(results), None, None, _refuted(results), "not checked", budget_spent=stopped or cut(results))

    earlier = [r for r in results if r.depth < first_win]
    refuted = _refuted(earlier)
    smallest = candidate_depths(problem, 1, first_win)[0]
    # earlier[-1] is the candidate right before first_win (candidates are scanned in order)
    proved = first_win == smallest or (bool(earlier) and earlier[-1].black_wins is False)
    check = attempt(first_win + 2)
    if on_check:
        on_check(check)
    monotonicity = {True: "consistent", False: "violated", None: "unknown"}[check.black_wins]
    critical = first_win if proved and monotonicity != "violated" else None
    return DepthScan(tuple(results), critical, first_win, refuted, monotonicity, check, cut(results + [check]))


def _refuted(results: list[DepthResult]) -> int | None:
    losing = [r.depth for r in results if r.black_wins is False]
    return max(losing) if losing else None
