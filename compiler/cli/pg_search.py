"""`bddlc search GAME.pg`: a positional game decided by the explicit positional solver.

The output follows `bddlc search` on a BDDL model (the verdict, Black's first
winning claim with the board after it, positions and time; `--json` the same
keys), and so do the exit statuses (0 decided, 3 budget exhausted, 1 a bad file)."""

from __future__ import annotations

import json
import sys

from .common import EXIT_BUDGET, EXIT_INPUT, EXIT_OK, plies


def run_pg(args, path: str) -> int:
    from bddl.pg.draw import draw
    from bddl.engines.positional_pns import solve_pns
    from bddl.pg.reader import load_pg
    from bddl.engines.positional import SearchBudgetExceeded, solve

    game = load_pg(path)
    if args.depth is not None:
        game = game.with_depth(args.depth)
    depth = game.depth
    from ..solving.ppn2 import Ppn2Failed, search_from_args

    try:
        if getattr(args, "algorithm", "minimax") == "ppn2":
            result = search_from_args(args, pg_game=game)
        elif getattr(args, "algorithm", "minimax") == "pns":
            result = solve_pns(game, max_positions=args.max_positions)
        else:
            result = solve(game, max_positions=args.max_positions)
    except SearchBudgetExceeded as exc:
        if args.json:
            print(json.dumps({"black_wins": None, "depth": depth, "first_move": None, "positions": exc.positions, "error": "budget exhausted"}))
        else:
            print(f"unknown: the search expanded {exc.positions:,} positions without an answer (raise --max-positions)")
        return EXIT_BUDGET
    except Ppn2Failed as exc:  # the parallel search: no cluster, a failed job, the tree's bound
        print(f"bddlc search: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    first = result.first_move
    move = None if first is None else game.cells[first]
    if args.json:
        print(
            json.dumps(
                {
                    "black_wins": result.black_wins,
                    "depth": depth,
                    "first_move": move,
                    "positions": result.positions,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return EXIT_OK
    if result.black_wins:
        print(f"Black wins within {plies(depth)}.")
        if first is not None:
            print(f"first move: {move}")
            board = draw(game, game.mask(game.black_initials) | 1 << first, game.mask(game.white_initials), first)
            if board is not None:
                print(board)
        elif game.turns and game.turns[0] != "black":
            print("White moves first: Black wins whatever White plays.")
        else:
            print("Black owns a whole winning set before the first move.")
    else:
        print(f"Black has no winning strategy within {plies(depth)}.")
    print(f"positions: {result.positions:,}, time: {result.seconds:.2f} s")
    return EXIT_OK
