"""`python -m bench.pairings GAME.pg|FOLDER ...`: the searches with and without White's pairings.

The positional rules end a line where White has a pairing within the depth
(`bddl.engines.positional_rules`, `compute_cuts`).  This runs each game
through the positional solver (or df-pn, `--algorithm pns`) twice in this
process, with the cut and without it (`pairings=False`), and prints per game
the verdicts, the positions and the seconds of both and the ratio of the
times: the figures of docs/benchmarks.md ("White's pairings as a cut") are
made so.  There is no time limit (a search in this process cannot be
stopped cleanly): give games that finish.  The exit status is 1 when the two
runs of a game disagree.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bddl.engines.positional import solve
from bddl.engines.positional_pns import solve_pns
from bddl.errors import BddlSyntaxError
from bddl.pg.reader import load_pg


def games_of(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        found.extend(sorted(path.rglob("*.pg")) if path.is_dir() else [path])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pairings", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", metavar="GAME", help=".pg files or folders of them")
    parser.add_argument("--algorithm", choices=("minimax", "pns"), default="minimax")
    args = parser.parse_args(argv)
    paths = games_of(args.games)
    if not paths:
        parser.error("no .pg game found in " + ", ".join(args.games))
    games = []
    for path in paths:
        try:
            games.append(load_pg(path))
        except BddlSyntaxError as exc:  # a BDDL file among them, too: the reader names what it found
            print(f"python -m bench.pairings: {exc}\n{path}: a .pg game is needed (White's pairings are a cut of the "
                  "positional rules; a BDDL model gets them with bddlc search --positional-rules)", file=sys.stderr)
            return 1
    search = solve if args.algorithm == "minimax" else solve_pns
    print("| game | verdict | positions with / without | seconds with / without | time ratio |")
    print("|---|---|---:|---:|---:|")
    totals = [0.0, 0.0, 0, 0]
    disagree = 0
    for path, game in zip(paths, games):
        runs = []
        for pairings in (True, False):
            start = time.perf_counter()
            result = search(game, pairings=pairings)
            runs.append((result.black_wins, result.positions, time.perf_counter() - start))
        (verdict, positions, seconds), (verdict_without, positions_without, seconds_without) = runs
        disagree += verdict != verdict_without
        shown = ("win" if verdict else "no win") if verdict == verdict_without else "DISAGREE"
        totals = [totals[0] + seconds, totals[1] + seconds_without, totals[2] + positions, totals[3] + positions_without]
        print(f"| {path.name} | {shown} | {positions:,} / {positions_without:,} | {seconds:.2f} / {seconds_without:.2f} | "
              f"{seconds / max(seconds_without, 1e-9):.2f} |")
    if len(paths) > 1:
        print(f"| all {len(paths)} | | {totals[2]:,} / {totals[3]:,} | {totals[0]:.2f} / {totals[1]:.2f} | "
              f"{totals[0] / max(totals[1], 1e-9):.2f} |")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
