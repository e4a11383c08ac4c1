"""`bddlc search`: the explicit game-tree search, no QBF involved."""

from __future__ import annotations

import argparse
import json
import sys

from .common import (
    EXIT_BUDGET,
    EXIT_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    add_model_arguments,
    load,
    pg_path,
    plies,
    positive_int,
)

ALGORITHMS = ("minimax", "pns", "ppn2")
DEFAULT_ALGORITHM = "minimax"  # fewer positions on most of the suite and corpus: docs/benchmarks.md


def build_parser() -> argparse.ArgumentParser:
    from bddl.engines.minimax import DEFAULT_MAX_POSITIONS

    p = argparse.ArgumentParser(
        prog="bddlc search",
        description="Decide whether Black wins within the depth by exhaustive game-tree search "
        "(the explicit semantics of the BDDL paper; no QBF involved).  A positional game GAME.pg "
        "(docs/positional.md) may stand in place of DOMAIN PROBLEM: it is decided by the explicit "
        "positional solver, with the positional games' rules.",
    )
    add_model_arguments(p, positional=True)
    p.add_argument(
        "--max-positions",
        type=positive_int,
        default=DEFAULT_MAX_POSITIONS,
        metavar="N",
        help=f"give up (exit status 3) after expanding N positions (default {DEFAULT_MAX_POSITIONS:,})",
    )
    p.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help="minimax: depth-first search with a transposition table; pns: depth-first proof-number "
        "search (df-pn), which finds narrow wins with fewer positions on some games; ppn2: the parallel "
        f"proof-number search on a Dask cluster, df-pn jobs on its workers (docs/scaling.md) (default {DEFAULT_ALGORITHM})",
    )
    p.add_argument("--workers", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: a local cluster of N worker processes (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --algorithm ppn2: run the jobs on the Dask cluster whose scheduler is at ADDRESS")
    p.add_argument("--job-descents", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: each job's df-pn expands at most N positions (default 1000)")
    p.add_argument("--partial-every", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: a job reports its numbers every N positions (default 100)")
    p.add_argument(
        "--race-patterns",
        action="store_true",
        help="with --algorithm pns on a Breakthrough-like game: decide positions early by the race "
        "patterns of bddl/engines/race_patterns.txt (each proved by search)",
    )
    p.add_argument(
        "--positional-rules",
        action="store_true",
        help="on a positional game (each move claims an open cell, goals are sets of cells, as "
        "domains/positional.bddl): decide it by the positional solver, which knows completing "
        "claims, threats, lost causes and symmetries, with either algorithm",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def run(args) -> int:
    from bddl.game import Game
    from bddl.engines.pns import search_pns
    from bddl.engines.minimax import SearchBudgetExceeded, search

    from ..solving.ppn2 import Ppn2Failed, misplaced_option

    if misplaced_option(args):
        print(f"bddlc search: error: {misplaced_option(args)}", file=sys.stderr)
        return EXIT_USAGE
    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_search import run_pg

        return run_pg(args, game_file)
    if args.race_patterns and args.algorithm not in ("pns", "ppn2"):
        print("bddlc search: error: --race-patterns needs --algorithm pns or ppn2", file=sys.stderr)
        return EXIT_USAGE
    if args.race_patterns and args.positional_rules:
        print("bddlc search: error: --race-patterns and --positional-rules do not go together", file=sys.stderr)
        return EXIT_USAGE
    model = load(args)
    game = Game(model.domain, model.problem)
    depth = model.problem.depth
    knowledge = None
    if args.race_patterns:
        from bddl.engines.race import race_knowledge

        knowledge = race_knowledge(game)
        if knowledge is None:
            print("note: not a Breakthrough-like game; searching without race patterns", file=sys.stderr)
    try:
        result = _by_positional_rules(game, depth, args) if args.positional_rules else None
        positional = result is not None
        if result is None and args.algorithm == "ppn2":
            from ..solving.ppn2 import search_from_args

            result = search_from_args(args, bddl_game=game, depth=depth, knowledge=knowledge is not None)
        elif result is None and args.algorithm == "pns":
            result = search_pns(game, depth, max_positions=args.max_positions, knowledge=knowledge)
        elif result is None:
            result = search(game, depth, max_positions=args.max_positions)
    except SearchBudgetExceeded as exc:
        if args.json:
            print(json.dumps({"black_wins": None, "depth": depth, "first_move": None, "positions": exc.positions, "algorithm": args.algorithm, "error": "budget exhausted"}))
        else:
            print(f"unknown: the search expanded {exc.positions:,} positions without an answer (raise --max-positions)")
        return EXIT_BUDGET
    except Ppn2Failed as exc:  # the parallel search: no cluster, a failed job, the tree's bound
        print(f"bddlc search: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    move = result.first_move
    if args.json:
        print(
            json.dumps(
                {
                    "black_wins": result.black_wins,
                    "depth": depth,
                    "first_move": None if move is None else {"action": move.action, "x": move.x, "y": move.y},
                    "positions": result.positions,
                    "algorithm": args.algorithm,
                    "positional_rules": positional,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return EXIT_OK
    if result.black_wins:
        print(f"Black wins within {plies(depth)}.")
        if move is not None:
            print(f"first move: {move.action} {move.x} {move.y}")
            print(game.render(move.state))
        else:
            print("White moves first (#blackturn second): Black wins whatever White plays.")
    else:
        print(f"Black has no winning strategy within {plies(depth)}.")
    rules = " (by the positional rules)" if positional else ""
    print(f"positions: {result.positions:,}, time: {result.seconds:.2f} s{rules}")
    return EXIT_OK


def _by_positional_rules(game, depth: int, args):
    """The positional solver's result, or None (with a note) where its rules do not fit the model."""
    from ..solving.positional_search import RulesDoNotFit, search_positional

    try:
        if args.algorithm == "ppn2":
            from ..solving.ppn2 import search_positional_from_args

            return search_positional_from_args(args, game, depth)
        return search_positional(game, depth, args.algorithm, args.max_positions)
    except RulesDoNotFit as exc:
        print(f"note: {exc}; searching without the positional rules", file=sys.stderr)
        return None
