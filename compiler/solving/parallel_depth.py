"""The critical-depth search with several depths at once (`bddlc depth --jobs N | --scheduler`).

It finds what the sequential scan (`compiler.solving.critical_depth`) finds, with the
same two facts about the game doing the pruning:

* a win at depth d makes every deeper depth pointless (the first win is the
  answer; the sequential scan stops there too), except the monotonicity
  re-check (`critical_depth.check_depth`, d + 2 for most games), which is started at once (or earlier: once every
  candidate has started, a free slot starts the re-check the deepest one
  would need, since the problem's own depth is often a win);
* a refutation at d refutes every shallower depth (a win within fewer plies
  would be a win within d), so their solves are stopped and their answers
  recorded as implied by d.

Depths are started smallest first, `jobs` at a time; a stopped solve's
solver is killed (`compiler.solving.processes.cluster`).  When every solve decides, the
critical depth is the sequential scan's; where the sequential scan would
time out on a shallow depth that a deeper refutation settles, this one can
say more, never less.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game_model import GameModel
from .critical_depth import DepthResult, DepthScan, candidate_depths, check_depth, solve_at
from .qbf.solver_programs import DEFAULT_SOLVER


def solve_depth(model, depth, solver, preprocess, timeout, encoding, stop=None) -> DepthResult:
    """One depth's task (module level, so Dask workers can import it)."""
    return solve_at(model, depth, solver=solver, preprocess=preprocess, timeout=timeout, encoding=encoding, stop=stop)


def scan_depths_parallel(
    model: GameModel,
    low: int,
    high: int,
    runner,
    jobs: int,
    *,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    encoding: str | None = None,
    preprocess: str = "none",
    on_result: Callable[[DepthResult], None] | None = None,
) -> DepthScan:
    """`scan_depths` with up to `jobs` depths at once on `runner` (a `LocalRunner` or `DaskRunner`)."""
    candidates = candidate_depths(model, low, high)

    def recheck(win: int) -> int:
        return check_depth(model, win) or win + 2
    settled: dict[int, DepthResult] = {}  # solved, or implied by a deeper refutation
    running: set[int] = set()
    best_win: int | None = None

    def wanted(depth: int) -> bool:
        if depth in settled:
            return False
        if any(d > depth and r.black_wins is False and r.implied_by is None for d, r in settled.items()):
            return False  # refuted by a deeper refutation
        if best_win is None:  # a depth past the candidates is the speculative re-check: wanted while one may win
            return depth in candidates or any(d not in settled for d in candidates)
        return depth <= best_win or depth == recheck(best_win)

    def start_more() -> None:
        # once every candidate has started, a free slot starts the re-check the last one would need if it wins
        order = list(candidates) + [recheck(best_win) if best_win is not None else recheck(candidates[-1])] if candidates else []
        for depth in order:
            if len(running) >= jobs:
                return
            if depth not in running and wanted(depth):
                running.add(depth)
                runner.submit(depth, solve_depth, model, depth, solver, preprocess, timeout, encoding)

    def record(result: DepthResult) -> None:
        nonlocal best_win
        settled[result.depth] = result
        if result.black_wins and (best_win is None or result.depth < best_win):
            best_win = result.depth
        if on_result and result.depth in candidates and (best_win is None or result.depth <= best_win):
            on_result(result)  # as the sequential scan shows it: not the re-check, not what comes after the first win

    start_more()
    while running:
        finished = runner.done()
        if finished is None:
            break
        depth, result = finished
        running.discard(depth)
        if isinstance(result, BaseException):
            result = DepthResult(depth, None, 0.0, f"the task failed: {type(result).__name__}: {result}")
        record(result)
        if result.black_wins is False:
            for shallower in [d for d in candidates if d < depth and d not in settled]:
                if shallower in running:
                    runner.cancel(shallower)
                    running.discard(shallower)
                record(DepthResult(shallower, False, 0.0, None, implied_by=depth))
        for depth in list(running):
            if not wanted(depth):
                runner.cancel(depth)
                running.discard(depth)
        start_more()
    return _scan(candidates, settled, best_win, None if best_win is None else recheck(best_win))


def _scan(candidates: list[int], settled: dict[int, DepthResult], first_win: int | None, recheck: int | None) -> DepthScan:
    """The `DepthScan` the sequential search reports for the same answers."""
    if first_win is None:
        results = tuple(settled[d] for d in candidates if d in settled)
        losing = [r.depth for r in results if r.black_wins is False]
        return DepthScan(results, None, None, max(losing) if losing else None, "not checked")
    results = tuple(settled[d] for d in candidates if d <= first_win and d in settled)
    earlier = [r for r in results if r.depth < first_win]
    losing = [r.depth for r in earlier if r.black_wins is False]
    proved = first_win == candidates[0] or (bool(earlier) and earlier[-1].depth == max(d for d in candidates if d < first_win)
                                            and earlier[-1].black_wins is False)
    check = settled.get(recheck) if recheck is not None else None
    solved_refutations = [d for d, r in settled.items() if r.black_wins is False and r.implied_by is None]
    if check is not None and check.black_wins is False or any(d > first_win for d in solved_refutations):
        monotonicity = "violated"
    else:
        monotonicity = {True: "consistent", None: "unknown"}[None if check is None else check.black_wins]
    critical = first_win if proved and monotonicity != "violated" else None
    return DepthScan(results, critical, first_win, max(losing) if losing else None, monotonicity, check)
