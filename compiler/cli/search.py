"""`bddlc search`: the explicit game-tree search, no QBF involved (both languages)."""

from __future__ import annotations

import argparse
import json
import sys

from .common import EXIT_BUDGET, EXIT_INPUT, EXIT_OK, add_certificate_argument, add_model_arguments, certificate_path, counted, write_certificate_for, game_json, move_json, open_game, plies, positive_float, positive_int, white_first

DEFAULT_ALGORITHM = "minimax"  # fewer positions on most of the suite and corpus: docs/benchmarks.md


def build_parser() -> argparse.ArgumentParser:
    from bddl.engines.leaf_search import DEFAULT_LEAF_POSITIONS
    from bddl.engines.minimax import DEFAULT_MAX_POSITIONS

    from ..solving.search.engines import DESCRIPTIONS
    from ..solving.search.outcome import ALGORITHMS
    from ..solving.search.leaf_verdicts import LEAF_JOBS
    from .core_options import add_core_arguments

    p = argparse.ArgumentParser(
        prog="bddlc search",
        description="Decide whether Black wins within the depth by exhaustive game-tree search "
        "(no QBF involved): a BDDL model by the explicit semantics of the BDDL paper, a positional game "
        "GAME.pg (docs/positional.md) by the explicit positional solver, with the positional games' rules.",
    )
    add_model_arguments(p)
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
        "proof-number search on a Dask cluster, leaf searches and df-pn jobs on its workers (docs/scaling.md)"
        + "".join(f"; {name}: {text}" for name, text in DESCRIPTIONS.items()) + f" (default {DEFAULT_ALGORITHM})",
    )
    p.add_argument("--workers", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: a local cluster of N worker processes (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --algorithm ppn2: run the jobs on the Dask cluster whose scheduler is at ADDRESS")
    p.add_argument("--job-descents", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: each job's df-pn expands at most N positions (default 1000)")
    p.add_argument("--partial-every", type=positive_int, metavar="N",
                   help="with --algorithm ppn2: a job reports its numbers every N positions (default 100)")
    p.add_argument("--leaf-jobs", choices=LEAF_JOBS,
                   help="with --algorithm ppn2: what a job on a leaf runs: search (default), first the single-process "
                   "search (--algorithm minimax's engine) within --leaf-positions, then df-pn if undecided; dfpn, a "
                   "bounded df-pn only (the paper's PPN²); qbf, first the QBF route of solve on the leaf's formula within "
                   "--qbf-slice, then df-pn if undecided; mixed, qbf at leaves two or more plies below the root (docs/scaling.md)")
    p.add_argument("--qbf-slice", type=positive_float, metavar="SECONDS",
                   help="with --leaf-jobs qbf or mixed: the seconds a leaf's QBF job may take, compiling included (default 2)")
    p.add_argument("--leaf-positions", type=positive_int, metavar="N",
                   help=f"with --leaf-jobs search (the default): the positions a leaf's search job may expand (default {DEFAULT_LEAF_POSITIONS:,})")
    p.add_argument("--share-tables", action=argparse.BooleanOptionalAction,
                   help="with --algorithm ppn2: each job brings a worker what the other workers' df-pn tables "
                   "learnt since its last job (default: on; --no-share-tables for the paper's independent workers)")
    p.add_argument(
        "--race-patterns",
        action="store_true",
        help="with --algorithm pns or ppn2 on a Breakthrough-like BDDL game: decide positions early by the race "
        "patterns of bddl/engines/race_patterns.txt (each proved by search); refused on a .pg game",
    )
    p.add_argument(
        "--positional-rules",
        action="store_true",
        help="on a positional BDDL model (each move claims an open cell, goals are sets of cells, as "
        "domains/positional.bddl): decide it by the positional solver, which knows completing "
        "claims, threats, lost causes and symmetries, with either algorithm (a .pg game always is)",
    )
    add_core_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_certificate_argument(p)
    return p


def run(args) -> int:
    from bddl.engines.minimax import SearchBudgetExceeded

    from ..schema import SCHEMA_VERSION
    from ..solving.search.core import search_with_core, table_mb_for
    from ..solving.search.outcome import refusal
    from ..solving.search.ppn2 import Ppn2Failed
    from .core_options import core_of
    from .ppn2_options import misplaced_option, ppn2_options

    parser = build_parser()
    certificate_path(args, parser)
    misplaced = misplaced_option(args)
    if misplaced is not None:
        parser.error(misplaced)
    model = open_game(args, parser, print_warnings=True)
    why = refusal(model, algorithm=args.algorithm, race_patterns=args.race_patterns, positional_rules=args.positional_rules)
    if why is not None:
        parser.error(why)
    core = core_of(args, model, parser)
    head = {"schema": SCHEMA_VERSION, "command": "search", **game_json(model)}
    try:
        result = search_with_core(model, core=core, knowledge=args.knowledge, table_mb=table_mb_for(args.max_memory),
                                  algorithm=args.algorithm, max_positions=args.max_positions,
                                  race_patterns=args.race_patterns, positional_rules=args.positional_rules,
                                  parallel=ppn2_options(args), keep=args.certificate is not None and core == "compiled")
    except SearchBudgetExceeded as exc:
        if args.json:
            print(json.dumps({**head, "black_wins": None, "depth": model.depth, "first_move": None, "positions": exc.positions,
                              "algorithm": args.algorithm, "positional_rules": None, "race_patterns": None,
                              "seconds": None, "budget_spent": True, "error": "budget exhausted", "certificate": None}))
        else:
            print(f"unknown: the search expanded {counted(exc.positions, 'position')} without an answer (raise --max-positions)")
        return EXIT_BUDGET
    except Ppn2Failed as exc:  # the parallel search: no cluster, a failed job, the tree's bound
        print(f"bddlc search: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    move = result.first_move
    certificate = write_certificate_for(args, model, result.black_wins, searched=result.solver)
    if args.json:
        print(json.dumps({**head, "black_wins": result.black_wins, "depth": result.depth, "first_move": move_json(move),
                          "positions": result.positions, "algorithm": args.algorithm,
                          "positional_rules": result.positional_rules, "race_patterns": result.race_patterns,
                          "seconds": round(result.seconds, 6), "budget_spent": False, "error": None, "certificate": certificate}))
        return EXIT_OK
    if result.black_wins:
        print(f"Black wins within {plies(result.depth)}.")
        if move is not None:
            print(f"first move: {move.text}")
            print(model.rules.render(move.after, move))
        elif model.rules.winner_before_play() is not None:
            print("Black has won before the first move.")
        else:
            print(f"{white_first(model)}: Black wins whatever White plays.")
    else:
        print(f"Black has no winning strategy within {plies(result.depth)}.")
    print(f"positions: {result.positions:,}, time: {result.seconds:.2f} s{result.decided_by}")
    return EXIT_OK
