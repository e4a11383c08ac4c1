"""The critical depth: the fewest plies within which Black has a winning strategy.

The search solves increasing depths and stops at the first win.  Two facts
about the game shape it, for a BDDL model and a `.pg` game alike (one rule,
asked of the game's rules through `compiler.model.GameModel`):

* Monotonicity.  A win within d plies is a win within any d' >= d plies:
  the same strategy still finishes in time.  So the first win is the
  critical depth once the depth before it is refuted, and one refutation
  covers every smaller depth.  A solver that says "win" at d but "no win"
  at d + 2 contradicts this; the scan re-checks d + 2 after the first win
  and reports a contradiction loudly, because one of the two answers is
  wrong (solver or encoding).  The re-check is the first candidate depth
  (below) at least two plies deeper than the first win.
* Candidates.  A depth d can be critical only if its last ply can bring
  Black the game: a Black ply when Black has a goal, a White ply when a
  stuck White loses (BDDL's rule; in a `.pg` game a stuck mover ends the
  game and Black has not won).  Any other depth has the answer of the one
  before it and is skipped: in BDDL, with no goals for Black, the depths
  ending on Black's turn; in a `.pg` game, those ending on White's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..game_model import GameModel
from .processes.budget import NO_BUDGET, Budget
from .qbf.route import solve_model
from .results import SolveResult
from .qbf.solver_programs import DEFAULT_SOLVER


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


def candidate_depths(model: GameModel, low: int, high: int) -> list[int]:
    """The depths from low to high that can be critical (see the module docstring)."""
    return model.candidate_depths(low, high)


def check_depth(model: GameModel, first_win: int) -> int | None:
    """The monotonicity re-check's depth: the first candidate at least two plies deeper."""
    period = model.turn_period
    found = model.candidate_depths(first_win + 2, first_win + 2 + max(period, 2))
    return found[0] if found else None


def solve_at(model: GameModel, depth: int, *, solver: str, preprocess: str, timeout: float | None,
             encoding: str | None, stop=None, engine: str = "qbf", on_wait=None) -> DepthResult:
    """One depth of the scan: the game asked about `depth` plies, by the route(s)
    `engine` names (`routes.answer`: qbf, search, or both raced; `on_wait`: the progress, of one route too)."""
    if engine == "qbf":
        from .routes import alone, qbf_name

        at = model.at_depth(depth)
        r: SolveResult = alone(qbf_name(at, encoding, solver), on_wait,
                               lambda: solve_model(at, solver=solver, preprocess=preprocess, timeout=timeout, encoding=encoding, stop=stop))
    else:
        from .routes import answer

        r = answer(model.at_depth(depth), engine=engine, solver=solver, preprocess=preprocess, timeout=timeout,
                   encoding=encoding, stop=stop, on_wait=on_wait).result
    return DepthResult(depth, r.black_wins, r.seconds, r.reason if r.black_wins is None else None)


def scan_depths(
    model: GameModel,
    low: int,
    high: int,
    *,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    encoding: str | None = None,
    preprocess: str = "none",
    on_result: Callable[[DepthResult], None] | None = None,
    on_check: Callable[[DepthResult], None] | None = None,
    budget: Budget = NO_BUDGET,
    engine: str = "qbf",
    progress: Callable[[int], Callable | None] | None = None,
) -> DepthScan:
    """Solve depths low..high (the candidates) until Black wins; `timeout` is
    per depth, `budget` for the whole scan (no depth starts once it is spent).
    `progress(depth)` gives the progress callback of that depth's race (`routes.answer`'s on_wait)."""

    def attempt(depth: int) -> DepthResult:
        if budget.spent():
            return DepthResult(depth, None, 0.0, budget.reason())
        r = solve_at(model, depth, solver=solver, preprocess=preprocess, timeout=budget.timeout(timeout), encoding=encoding,
                     engine=engine, on_wait=None if progress is None else progress(depth))
        if r.black_wins is None and budget.spent():
            return DepthResult(depth, None, r.seconds, budget.reason())
        return r

    def cut(found: list[DepthResult]) -> bool:
        return budget.seconds is not None and any(r.reason == budget.reason() for r in found)

    results: list[DepthResult] = []
    first_win = None
    stopped = False
    for depth in candidate_depths(model, low, high):
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
    smallest = candidate_depths(model, 1, first_win)[0]
    # earlier[-1] is the candidate right before first_win (candidates are scanned in order)
    proved = first_win == smallest or (bool(earlier) and earlier[-1].black_wins is False)
    deeper = check_depth(model, first_win)
    check = attempt(deeper) if deeper is not None else None
    if check is not None and on_check:
        on_check(check)
    monotonicity = "not checked" if check is None else {True: "consistent", False: "violated", None: "unknown"}[check.black_wins]
    critical = first_win if proved and monotonicity != "violated" else None
    return DepthScan(tuple(results), critical, first_win, refuted, monotonicity, check, cut(results + ([check] if check else [])))


def _refuted(results: list[DepthResult]) -> int | None:
    losing = [r.depth for r in results if r.black_wins is False]
    return max(losing) if losing else None
