"""`bddlc search`: the explicit game-tree search, no QBF involved."""

from __future__ import annotations

import argparse
import json

from .common import EXIT_BUDGET, EXIT_OK, add_model_arguments, load, pg_path, plies, positive_int


def build_parser() -> argparse.ArgumentParser:
    from bddl.search import DEFAULT_MAX_POSITIONS

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
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def run(args) -> int:
    from bddl.game import Game
    from bddl.search import SearchBudgetExceeded, search

    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_search import run_pg

        return run_pg(args, game_file)
    model = load(args)
    game = Game(model.domain, model.problem)
    depth = model.problem.depth
    try:
        result = search(game, depth, max_positions=args.max_positions)
    except SearchBudgetExceeded as exc:
        if args.json:
            print(json.dumps({"black_wins": None, "depth": depth, "first_move": None, "positions": exc.positions, "error": "budget exhausted"}))
        else:
            print(f"unknown: the search expanded {exc.positions:,} positions without an answer (raise --max-positions)")
        return EXIT_BUDGET
    move = result.first_move
    if args.json:
        print(
            json.dumps(
                {
                    "black_wins": result.black_wins,
                    "depth": depth,
                    "first_move": None if move is None else {"action": move.action, "x": move.x, "y": move.y},
                    "positions": result.positions,
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
    print(f"positions: {result.positions:,}, time: {result.seconds:.2f} s")
    return EXIT_OK
