"""`bddlc solve GAME.pg`: who wins a positional game, and Black's first claim.

The output follows `bddlc solve` on a BDDL model: the verdict, Black's first
move (a cell, confirmed by the explicit positional solver) with the board
after it, and a summary line; `--json` gives the same as one object."""

from __future__ import annotations

import json

from .common import EXIT_FALSE, EXIT_TRUE, EXIT_UNKNOWN, plies


def run_pg(args, path: str, parser) -> int:
    from bddl.pg.draw import draw
    from bddl.pg.reader import load_pg

    from ..solving.positional import solve_pg
    from .pg_compile import pg_encoding

    if getattr(args, "reply_to", None) is not None:
        parser.error("--reply-to is for BDDL models; for a .pg game, play it with bddlc play")
    encoding = pg_encoding(getattr(args, "encoding", None), parser)
    game = load_pg(path)
    if args.depth is not None:
        game = game.with_depth(args.depth)
    result = solve_pg(game, encoding=encoding, solver=args.solver, preprocess=args.preprocess, timeout=args.timeout)
    status = {True: EXIT_TRUE, False: EXIT_FALSE, None: EXIT_UNKNOWN}[result.black_wins]
    if args.json:
        print(json.dumps({
            "black_wins": result.black_wins,
            "depth": game.depth,
            "solver": result.solver,
            "first_move": result.first_move,
            "first_move_checked": result.move_checked,
            "seconds": round(result.seconds, 6),
            "encoding": {"name": result.encoding, "vars": result.variables, "clauses": result.clauses},
            "black_first": result.black_first,
            "depth_solved": result.depth_solved,
            "preprocess": result.preprocess,
            "preprocess_note": result.preprocess_note,
            "reason": result.reason,
        }))
        return status
    if result.black_wins is None:
        print(f"unknown: {result.reason}")
    elif result.black_wins:
        print(f"Black wins within {plies(game.depth)}.")
        if result.first_move is not None:
            note = "checked by the explicit solver" if result.move_checked else result.reason
            print(f"first move: {result.first_move} ({note})")
            cell = game.cells.index(result.first_move)
            board = draw(game, game.mask(game.black_initials) | 1 << cell, game.mask(game.white_initials), cell)
            if board is not None:
                print(board)
        elif result.black_first:
            print(f"first move: not available ({result.reason})")
        else:
            print("White moves first: Black has no first move; play the game with bddlc play.")
    else:
        print(f"Black has no winning strategy within {plies(game.depth)}.")
    text = f"solver: {result.solver}, encoding: {result.encoding} ({result.variables} variables, {result.clauses} clauses)"
    if result.depth_solved is not None and result.depth_solved < game.depth:
        text += f", decided at depth {result.depth_solved}"
    if result.preprocess != "none":
        text += f", preprocessing: {result.preprocess_note or result.preprocess}"
    print(text + f", time: {result.seconds:.2f} s")
    return status
