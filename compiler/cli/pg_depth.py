"""`bddlc depth GAME.pg`: the fewest time points within which Black wins a positional game.

Depths beyond the file's continue its turn pattern periodically
(`PositionalGame.with_depth`).  Only depths whose last time point is Black's
can be critical: a White point at the end cannot make Black win, so such a
depth has the answer of the one before it, and it is skipped.  A win within
d points is a win within more (Black stops the clock), so the first win is
the critical depth once the candidate before it is refuted; the next
candidate after the first win is solved too, as a check of the solver
(`compiler.critical_depth` does the same for BDDL)."""

from __future__ import annotations

import json
import sys

from .common import EXIT_FALSE, EXIT_TRUE, EXIT_UNKNOWN


def candidates(game, low: int, high: int) -> list[int]:
    return [d for d in range(low, high + 1) if game.with_depth(d).turns[-1] == "black"]


def run_pg(args, path: str, parser) -> int:
    from bddl.pg.reader import load_pg

    from ..solving.positional import default_encoding, solve_pg
    from .pg_compile import pg_encoding

    encoding = pg_encoding(getattr(args, "encoding", None), parser)
    game = load_pg(path)
    encoding = encoding or default_encoding(game)
    high = game.depth if args.max is None else args.max
    if args.min > high:
        parser.error(f"--min {args.min} is above the last depth to try ({high})")
    depths = candidates(game, args.min, high)
    if not args.json:
        print("only depths ending on Black's turn can be critical: " + (", ".join(map(str, depths)) or "none"))
        sys.stdout.flush()
    results, first_win, refuted = [], None, None
    for depth in depths:
        result = solve_pg(game.with_depth(depth), encoding=encoding, solver=args.solver, timeout=args.timeout)
        results.append((depth, result))
        if not args.json:
            verdict = {True: "Black wins", False: "no winning strategy", None: "unknown"}[result.black_wins]
            note = f" ({result.reason})" if result.black_wins is None else ""
            print(f"depth {depth:>3}: {verdict}{note}, {result.seconds:.2f} s", flush=True)
        if result.black_wins:
            first_win = depth
            break
        if result.black_wins is False:
            refuted = depth
    check = None  # the next candidate depth after the first win, solved again
    check_depth = 0
    later = [d for d in candidates(game, first_win + 1, first_win + len(game.turns) + 2) if d > first_win][:1] if first_win else []
    if later:
        check_depth = later[0]
        check = solve_pg(game.with_depth(check_depth), encoding=encoding, solver=args.solver, timeout=args.timeout)
    violated = check is not None and check.black_wins is False
    earlier = [d for d in depths if first_win is not None and d < first_win]
    unexplored = candidates(game, 1, args.min - 1)  # below --min: not solved, so not refuted
    proved = first_win is not None and not violated and not unexplored and all(r.black_wins is False for d, r in results if d < first_win)
    critical = first_win if proved else None
    if violated:
        print(f"bddlc depth: error: the solver contradicts itself: Black wins within {first_win} moves but not "
              f"within {check_depth}, which is impossible; one of these answers is wrong: report a bug", file=sys.stderr)
    if first_win is not None and not violated:
        status = EXIT_TRUE
    elif first_win is None and all(r.black_wins is False for _, r in results):
        status = EXIT_FALSE
    else:
        status = EXIT_UNKNOWN
    if args.json:
        print(json.dumps({
            "critical_depth": critical,
            "first_win": first_win,
            "refuted_before": refuted if first_win is not None else None,
            "results": [{"depth": d, "black_wins": r.black_wins, "seconds": round(r.seconds, 6), "reason": r.reason} for d, r in results],
            "monotonicity": "not checked" if check is None else "violated" if violated else "unknown" if check.black_wins is None else "consistent",
            "encoding": encoding,
            "min": args.min,
            "max": high,
        }))
        return status
    if first_win is None:
        print(f"no win up to {high} moves." if status == EXIT_FALSE else f"no win found up to {high} moves, but some depths gave no verdict.")
    elif violated:
        print("critical depth: unknown (the solver's answers contradict each other).")
    elif critical is not None:
        tail = f" and has no winning strategy within {earlier[-1]}." if earlier else " (no smaller depth can be critical)."
        print(f"critical depth: {critical}: Black wins within {critical} moves" + tail)
    else:
        print(f"Black wins within {first_win} moves; the critical depth is at most {first_win} (a smaller depth was not refuted).")
    return status
