"""`bddlc depth`: the critical depth, found by solving increasing depths."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from .common import (
    add_engine_argument,
    add_progress_argument,
    engine_of,
    race_progress,
    EXIT_FALSE,
    EXIT_INPUT,
    EXIT_TRUE,
    EXIT_UNKNOWN,
    add_budget_argument,
    add_encoding_argument,
    add_model_arguments,
    add_solver_arguments,
    checked_encoding,
    game_json,
    open_game,
    paragraph,
    plies,
    positive_int,
)

if TYPE_CHECKING:
    from ..solving.processes.budget import Budget
    from ..solving.critical_depth import DepthResult, DepthScan


# Options of the other commands that a user of depth reaches for, and depth's own way to say it.
MISTAKEN_OPTIONS = {
    "--depth": "bddlc depth tries every depth from --min to --max and has no --depth: to try depths up to "
    "{value}, use --max {value}",
}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc depth",
        description=paragraph("Find the critical depth: the fewest moves (plies) within which Black has a winning "
        "strategy.  Solves increasing depths, printing one line per depth as it finishes, and stops at "
        "the first win.  Only depths whose last move can bring Black the game are tried: in a BDDL game where "
        "Black has no goals, those ending on White's turn; in a positional game GAME.pg, those ending on "
        "Black's (its turn pattern is continued periodically beyond the file's time points)."),
        epilog="exit status: 10 Black wins at some depth, 20 no win up to MAX, 0 unknown (a time limit, "
        "the time budget, or solver answers that contradict each other).\n\n"
        "example:\n  bddlc depth domains/connect.bddl problems/connect/connect3_4x4_d9.bddl --max 11",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, depth_help=None)
    p.add_argument("--min", type=positive_int, default=1, metavar="N", help="first depth to try (default 1)")
    p.add_argument("--max", type=positive_int, metavar="N", help="last depth to try (default: the problem's depth; stands in for a missing #depth)")
    add_solver_arguments(p, "time limit per depth in seconds (a depth that hits it is reported unknown)")
    add_encoding_argument(p, "the encoding of every depth (default: as bddlc solve)")
    add_budget_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object at the end instead of text")
    add_engine_argument(p, "for each depth")
    add_progress_argument(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="solve up to N depths at once on this machine by the QBF route (N > 1 implies --engine qbf: each "
        "depth gets one solver, not a race), stopping the solves an answer makes pointless (default 1)",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="solve the depths as tasks on the Dask cluster whose scheduler is at ADDRESS, as many at once as it has "
        "worker threads, by the QBF route (implies --engine qbf; needs bddlc[cluster])",
    )
    return p


def _verdict(black_wins) -> str:
    return {True: "Black wins", False: "no winning strategy", None: "unknown"}[black_wins]


def run(args) -> int:
    from ..solving.processes.budget import Budget
    from ..solving.critical_depth import candidate_depths, scan_depths

    parser = build_parser()
    if args.time_budget is not None and (args.jobs != 1 or args.scheduler is not None):
        parser.error("--time-budget bounds the sequential scan; it does not combine with --jobs or --scheduler")
    parallel = args.jobs != 1 or args.scheduler is not None
    if parallel and args.engine not in (None, "qbf"):
        parser.error(f"--engine {args.engine} races or searches each depth in turn; --jobs and --scheduler solve "
                     "several depths at once by the QBF route alone: drop one of them")
    engine = "qbf" if parallel else engine_of(args, parser)
    budget = Budget.starting_now(args.time_budget)
    model = _open(args, parser)
    encoding = checked_encoding(model, args.encoding, parser)
    high = model.depth if args.max is None else args.max
    if args.min > high:
        last = f"--max {high}" if args.max is not None else f"the game's depth, {high}"
        parser.error(f"--min {args.min} is above the last depth to try ({last}): give --min {high} or less, "
                     f"or --max {args.min} or more")
    if not args.json:
        depths = candidate_depths(model, args.min, high)
        if depths != list(range(args.min, high + 1)):
            print(_candidates_note(model) + (", ".join(map(str, depths)) or "none"))
        sys.stdout.flush()
    quiet = args.json  # JSON: one object at the end, no lines as depths finish
    if args.jobs == 1 and args.scheduler is None:
        scan = scan_depths(model, args.min, high, solver=args.solver, timeout=args.timeout, encoding=encoding,
                           on_result=None if quiet else print_depth_line, on_check=None if quiet else print_check_line,
                           budget=budget, engine=engine,
                           progress=lambda depth: race_progress(f"depth {depth}", engine, args.progress))
    else:
        found = _scan_in_parallel(args, model, high, encoding, None if quiet else print_depth_line)
        if found is None:
            return EXIT_INPUT
        scan = found
        if scan.check is not None and not quiet:
            print_check_line(scan.check)
    if scan.monotonicity == "violated":
        print(contradiction_message(scan), file=sys.stderr)
    status = exit_status(scan)
    if args.json:
        print(json.dumps(scan_json(model, scan, args.solver, encoding, args.min, high, budget, engine)))
    else:
        for line in conclusion(scan, high, status, budget, model):
            print(line)
    return status


def _open(args, parser):
    """The game, with depth's own fix where the guard --max-depth refuses the file's
    depth: a user who gave --max-depth meant the last depth to try, which is --max."""
    import dataclasses
    import re

    from bddl.errors import BddlLimitError

    try:
        return open_game(args, parser, default_depth=args.max, print_warnings=True)
    except BddlLimitError as exc:
        first = exc.diagnostics[0]
        found = re.match(r"a depth of (\d+) is beyond", first.message)
        if not found:
            raise
        if args.max is not None and args.max <= args.max_depth:
            # the scan stops at --max: the file's larger depth is never solved, so the guard has nothing to refuse
            return open_game(argparse.Namespace(**{**vars(args), "depth": args.max}), parser, print_warnings=True)
        hint = (f"note: to try the depths up to {args.max_depth}, use --max {args.max_depth} (--max-depth is a guard "
                f"against huge depths); to try them all, raise the guard with --max-depth {args.max or found.group(1)}")
        raise BddlLimitError((dataclasses.replace(first, hint=hint), *exc.diagnostics[1:])) from None


def _candidates_note(model) -> str:
    return model.words.candidates_note


def _scan_in_parallel(args, model, high: int, encoding, on_result) -> DepthScan | None:
    """The search on local threads (--jobs) or a Dask cluster (--scheduler); None when the cluster is unavailable."""
    from ..solving.processes.cluster import ClusterUnavailable, DaskRunner, LocalRunner, connect
    from ..solving.parallel_depth import scan_depths_parallel

    def search(runner, jobs: int) -> DepthScan:
        return scan_depths_parallel(model, args.min, high, runner, jobs, solver=args.solver, timeout=args.timeout,
                                    encoding=encoding, on_result=on_result)

    if args.scheduler is None:
        with LocalRunner(args.jobs) as runner:
            return search(runner, args.jobs)
    try:
        with connect(scheduler=args.scheduler) as client:
            threads = sum(w.get("nthreads", 1) for w in client.scheduler_info(n_workers=-1)["workers"].values())
            with DaskRunner(client) as dask_runner:
                return search(dask_runner, max(1, threads))
    except ClusterUnavailable as exc:
        print(f"bddlc depth: error: {exc}", file=sys.stderr)
        return None


def print_depth_line(result: DepthResult) -> None:
    if result.reason:
        note = f" ({result.reason})"
    else:
        note = f" (implied by depth {result.implied_by})" if result.implied_by else ""
    print(f"depth {result.depth:>3}: {_verdict(result.black_wins)}{note}, {result.seconds:.2f} s", flush=True)


def print_check_line(result: DepthResult) -> None:
    print(f"monotonicity check, depth {result.depth:>3}: {_verdict(result.black_wins)}, {result.seconds:.2f} s", flush=True)


def exit_status(scan: DepthScan) -> int:
    if scan.first_win is not None and scan.monotonicity != "violated":
        return EXIT_TRUE
    if scan.first_win is None and not scan.budget_spent and all(r.black_wins is False for r in scan.results):
        return EXIT_FALSE
    return EXIT_UNKNOWN


def contradiction_message(scan: DepthScan) -> str:
    return (
        f"bddlc depth: error: the solver contradicts itself: Black wins within {plies(scan.first_win or 0)} "
        f"but not within {(scan.first_win or 0) + 2}, which is impossible (a win within d plies is a win within "
        f"more); one of these answers is wrong: report a bug"
    )


def scan_json(model, scan: DepthScan, solver: str, encoding: str | None, low: int, high: int, budget, engine: str) -> dict:
    from ..schema import SCHEMA_VERSION

    return {
        "schema": SCHEMA_VERSION,
        "command": "depth",
        **game_json(model),
        "critical_depth": scan.critical_depth,
        "first_win": scan.first_win,
        "refuted_before": scan.refuted_before,
        "results": [
            {"depth": r.depth, "black_wins": r.black_wins, "seconds": round(r.seconds, 6), "reason": r.reason,
             "implied_by": r.implied_by}
            for r in scan.results
        ],
        "monotonicity": scan.monotonicity,
        "monotonicity_check": None
        if scan.check is None
        else {"depth": scan.check.depth, "black_wins": scan.check.black_wins, "seconds": round(scan.check.seconds, 6)},
        "solver": solver,
        "encoding": encoding,
        "min": low,
        "max": high,
        "budget_spent": scan.budget_spent,
        "engine": engine,  # the route(s) of every depth: auto, qbf (always with --jobs or --scheduler) or search
    }


def conclusion(scan: DepthScan, high: int, status: int, budget: Budget, model) -> list[str]:
    """The closing lines of the text report."""
    first, critical, refuted = scan.first_win, scan.critical_depth, scan.refuted_before
    if first is None and scan.budget_spent:
        verdicts = [r for r in scan.results if r.black_wins is not None]
        known = f"no win within {plies(verdicts[-1].depth)}" if verdicts and all(r.black_wins is False for r in verdicts) else "no win found"
        return [f"stopped: {budget.reason()}; {known}, depths up to {high} not all decided."]
    if first is None:
        if status == EXIT_FALSE:
            return [f"no win up to {plies(high)}."]
        return [f"no win found up to {plies(high)}, but some depths gave no verdict."]
    if scan.monotonicity == "violated":
        lines = ["critical depth: unknown (the solver's answers contradict each other)."]
    elif critical is not None:
        line = f"critical depth: {critical}: Black wins within {plies(critical)}"
        if refuted is None:
            line += " (no smaller depth can be critical)."
        elif refuted == critical - 1:
            line += f" and has no winning strategy within {refuted}."
        else:
            line += f" and has no winning strategy within {refuted} ({_skipped(model, refuted, critical)})."
        lines = [line]
    else:
        lines = [f"Black wins within {plies(first)}; the critical depth is at most {first} (a smaller depth was not refuted)."]
    if scan.monotonicity == "unknown":
        reason = scan.check.reason if scan.check is not None else None
        lines.append(f"monotonicity check at depth {first + 2}: no verdict ({reason}).")
    return lines


def _skipped(model, refuted: int, critical: int) -> str:
    """Why the depths between the last refuted one and the critical one were not
    solved: each ends on a turn whose mover cannot bring Black the game.  The turn
    is the game's own (a .pg game's pattern, or a BDDL game's alternation), not
    assumed: a .pg game skips the depths that end on White's turn, a BDDL game
    without goals those that end on Black's."""
    from bddl.rules import BLACK

    by_side: dict[str, list[int]] = {}
    for depth in range(refuted + 1, critical):
        by_side.setdefault(model.rules.to_move(depth - 1), []).append(depth)
    parts = []
    for side, depths in by_side.items():
        listed = ", ".join(map(str, depths[:-1])) + (" or " if len(depths) > 1 else "") + str(depths[-1])
        ends = "ends" if len(depths) == 1 else "end"
        parts.append(f"within {listed}, which {ends} on {'Black' if side == BLACK else 'White'}'s turn")
    return "nor " + "; nor ".join(parts)
