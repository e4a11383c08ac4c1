"""`bddlc validate`: bddlc's Black against every White reply, the game engine as referee."""

from __future__ import annotations

import argparse
import json

from .common import (
    EXIT_BUDGET,
    EXIT_STRATEGY_FAILED,
    EXIT_FALSE,
    EXIT_OK,
    add_budget_argument,
    add_model_arguments,
    add_solver_arguments,
    load,
    paragraph,
    pg_path,
    plies,
    positive_int,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc validate",
        description=paragraph("Check bddlc's winning strategy for Black by playing it against every legal White reply, "
        "depth first, with the game engine as referee: every Black move must be legal, Black must reach "
        "its goal or leave White without a move within the depth, and White must never reach its goal.  "
        "Black's moves come from the solver, re-solving each new position (once per position)."),
        epilog="exit status: 0 every line checked passed, 4 a line failed (shown in full), 20 Black has no "
        "winning strategy to check, 3 a solve ran out of time or the time budget is spent.\n\n"
        "example:\n  bddlc validate domains/domineering.bddl problems/domineering/4x4_d8.bddl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)", positional=True)
    p.add_argument("--max-lines", type=positive_int, metavar="K", help="stop after K lines of play (default: all)")
    add_solver_arguments(p, "time limit in seconds for each solve")
    add_budget_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def run(args) -> int:
    import dataclasses
    import time

    from bddl.game import Game

    from ..solving.budget import Budget
    from ..solving.pipeline import solve
    from ..solving.strategy import SolverStrategy
    from ..solving.strategy_validation import format_line, validate

    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_validate import run_pg

        return run_pg(args, game_file)
    budget = Budget.starting_now(args.time_budget)
    model = load(args)
    problem = model.problem
    game = Game(model.domain, problem)
    start = time.perf_counter()
    root = solve(model.domain, problem, solver=args.solver, timeout=budget.timeout(args.timeout))
    if root.black_wins is None and budget.spent():
        root = dataclasses.replace(root, reason=budget.reason())
    if root.black_wins is not True:
        seconds = time.perf_counter() - start
        if args.json:
            print(json.dumps({"valid": None, "black_wins": root.black_wins, "lines": 0, "complete": False,
                              "failure": None, "reason": root.reason, "solves": 1, "seconds": round(seconds, 6)}))
        elif root.black_wins is None:
            print(f"unknown: {root.reason}; nothing to validate.")
        else:
            print(f"Black has no winning strategy within {plies(problem.depth)}: nothing to validate.")
        return EXIT_FALSE if root.black_wins is False else EXIT_BUDGET
    strategy = SolverStrategy(model.domain, problem, solver=args.solver, timeout=args.timeout, budget=budget)
    report = validate(game, problem.depth, strategy, args.max_lines)
    seconds = time.perf_counter() - start
    solves = strategy.solves + 1
    status = EXIT_OK if report.passed else EXIT_STRATEGY_FAILED if report.failure else EXIT_BUDGET
    if args.json:
        failure = None
        if report.failure:
            failure = {
                "moves": [{"side": p.side, "move": p.text} for p in report.failure.plies],
                "reason": report.failure.reason,
                "board": game.render(report.failure.state),
            }
        print(json.dumps({"valid": report.passed, "black_wins": True, "lines": report.lines, "complete": report.complete,
                          "failure": failure, "reason": report.unknown, "solves": solves, "seconds": round(seconds, 6)}))
        return status
    if report.failure:
        print(f"FAILED after {report.lines} good lines of play; the failing line:")
        print(format_line(game, game.initial, report.failure))
    elif report.unknown:
        print(f"stopped after {report.lines} lines of play: {report.unknown}.")
    elif report.complete:
        every = "the only line" if report.lines == 1 else f"all {report.lines} lines"
        print(f"valid: Black wins {every} of play within {plies(problem.depth)}.")
    else:
        print(f"valid so far: Black wins the {report.lines} lines checked (the --max-lines limit; more lines exist).")
    print(f"solves: {solves}, time: {seconds:.2f} s")
    return status
