"""`bddlc validate GAME.pg`: bddlc's Black against every White reply in a positional game,
the `.pg` rules as referee (`compiler.solving.positional_strategy.validate_pg`)."""

from __future__ import annotations

import json
import time

from .common import EXIT_BUDGET, EXIT_STRATEGY_FAILED, EXIT_FALSE, EXIT_OK, plies


def run_pg(args, path: str) -> int:
    from bddl.pg.reader import load_pg

    from ..solving.positional import solve_pg
    from ..solving.positional_strategy import PgStrategy, validate_pg

    game = load_pg(path)
    if args.depth is not None:
        game = game.with_depth(args.depth)
    start = time.perf_counter()
    root = solve_pg(game, solver=args.solver, timeout=args.timeout)
    if root.black_wins is not True:
        if args.json:
            print(json.dumps({"valid": None, "black_wins": root.black_wins, "lines": 0, "complete": False, "failure": None,
                              "reason": root.reason, "solves": 1, "seconds": round(time.perf_counter() - start, 6)}))
        elif root.black_wins is None:
            print(f"unknown: {root.reason}; nothing to validate.")
        else:
            print(f"Black has no winning strategy within {plies(game.depth)}: nothing to validate.")
        return EXIT_FALSE if root.black_wins is False else EXIT_BUDGET
    strategy = PgStrategy(game, solver=args.solver, timeout=args.timeout)
    report = validate_pg(game, strategy, args.max_lines)
    seconds = time.perf_counter() - start
    solves = strategy.solves + 1
    passed = report.failure is None and report.complete
    status = EXIT_OK if passed or (report.failure is None and report.reason and "max-lines" in report.reason) else EXIT_STRATEGY_FAILED if report.failure else EXIT_BUDGET
    if args.json:
        failure = None if report.failure is None else {"moves": [{"side": s, "move": c} for s, c in report.failure], "reason": report.reason}
        print(json.dumps({"valid": passed, "black_wins": True, "lines": report.lines, "complete": report.complete,
                          "failure": failure, "reason": None if failure else report.reason, "solves": solves,
                          "seconds": round(seconds, 6)}))
        return status
    if report.failure is not None:
        print(f"FAILED after {report.lines} good lines of play; the failing line: "
              + " ".join(f"{side} {cell}" for side, cell in report.failure) + f" ({report.reason})")
    elif report.complete:
        print(f"valid: Black wins all {report.lines} lines of play within {plies(game.depth)}.")
    elif "max-lines" in (report.reason or ""):
        print(f"valid so far: Black wins the {report.lines} lines checked (the --max-lines limit; more lines exist).")
    else:
        print(f"stopped after {report.lines} lines of play: {report.reason}.")
    print(f"solves: {solves}, time: {seconds:.2f} s")
    return status
