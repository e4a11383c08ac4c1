"""`bddlc validate`: bddlc's Black against every White reply, the game's rules as referee (both languages)."""

from __future__ import annotations

import argparse
import json

from .common import (
    add_engine_argument,
    engine_of,
    EXIT_BUDGET,
    EXIT_FALSE,
    EXIT_OK,
    EXIT_STRATEGY_FAILED,
    add_budget_argument,
    add_encoding_argument,
    add_model_arguments,
    add_solver_arguments,
    checked_encoding,
    counted,
    game_json,
    open_game,
    paragraph,
    plies,
    positive_int,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc validate",
        description=paragraph("Check bddlc's winning strategy for Black by playing it against every legal White reply, "
        "depth first, with the game's rules as referee (the BDDL engine, or a .pg game's semantics): every Black "
        "move must be legal, Black must reach its goal (or, in BDDL, leave White without a move) within the depth, "
        "and White must never reach its goal.  Black's moves come from a solve of each new position (once per "
        "position), by the QBF route and the explicit engine raced (--engine auto, the default) or by one of them."),
        epilog="exit status: 0 every line checked passed, 4 a line failed (shown in full), 20 Black has no "
        "winning strategy to check, 3 a solve ran out of time or the time budget is spent.\n\n"
        "example:\n  bddlc validate domains/domineering.bddl problems/domineering/4x4_d8.bddl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)")
    p.add_argument("--max-lines", type=positive_int, metavar="K", help="stop after K lines of play (default: all)")
    add_solver_arguments(p, "time limit in seconds for each solve")
    add_encoding_argument(p, "the encoding of every solve (default: as bddlc solve)")
    add_budget_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_engine_argument(p, "for each position Black must move in")
    return p


def run(args) -> int:
    import dataclasses
    import time

    from ..schema import SCHEMA_VERSION
    from ..solving.processes.budget import Budget
    from ..solving.routes import answer
    from ..solving.strategy import SolverStrategy
    from ..solving.strategy_validation import format_line, validate

    parser = build_parser()
    budget = Budget.starting_now(args.time_budget)
    engine = engine_of(args, parser)
    model = open_game(args, parser, print_warnings=True)
    encoding = checked_encoding(model, args.encoding, parser)
    start = time.perf_counter()
    root = answer(model, engine=engine, encoding=encoding, solver=args.solver, timeout=budget.timeout(args.timeout)).result
    if root.black_wins is None and budget.spent():
        root = dataclasses.replace(root, reason=budget.reason())

    def report_json(**fields) -> str:
        return json.dumps({"schema": SCHEMA_VERSION, "command": "validate", **game_json(model), "depth": model.depth,
                           **fields, "seconds": round(time.perf_counter() - start, 6),
                           "budget_spent": budget.seconds is not None and budget.spent()})

    if root.black_wins is not True:
        if args.json:
            print(report_json(valid=None, black_wins=root.black_wins, lines=0, complete=False, failure=None,
                              reason=root.reason, solves=1))
        elif root.black_wins is None:
            print(f"unknown: {root.reason}; nothing to validate.")
        else:
            print(f"Black has no winning strategy within {plies(model.depth)}: nothing to validate.")
        return EXIT_FALSE if root.black_wins is False else EXIT_BUDGET
    strategy = SolverStrategy(model, encoding=encoding, solver=args.solver, timeout=args.timeout, budget=budget, engine=engine)
    report = validate(model.rules, strategy, args.max_lines)
    seconds = time.perf_counter() - start
    solves = strategy.solves + 1
    status = EXIT_OK if report.valid else EXIT_STRATEGY_FAILED if report.failure else EXIT_BUDGET
    if args.json:
        failure = None
        if report.failure:
            failure = {
                "moves": [{"side": p.side, "text": p.text} for p in report.failure.plies],
                "reason": report.failure.reason,
                "board": model.rules.render(report.failure.position),
            }
        print(report_json(valid=report.valid, black_wins=True, lines=report.lines, complete=report.complete,
                          failure=failure, reason=report.unknown, solves=solves))
        return status
    if report.failure:
        print(f"FAILED after {report.lines} good lines of play; the failing line:")
        print(format_line(model.rules, report.failure))
    elif report.unknown:
        print(f"stopped after {counted(report.lines, 'line')} of play: {report.unknown}.")
    elif report.complete:
        every = "the only line" if report.lines == 1 else f"all {report.lines} lines"
        print(f"valid: Black wins {every} of play within {plies(model.depth)}.")
    else:
        print(f"valid so far: Black wins the {counted(report.lines, 'line')} checked (the --max-lines limit; more lines exist).")
    print(f"solves: {solves}, time: {seconds:.2f} s")
    return status
