"""`python -m bench.pg_pns_core`: positions a second of the compiled core's df-pn on `.pg` games
and of the Python one (`bddl.engines.positional_pns`) on the same searches (docs/benchmarks.md,
issue 41).

The two walk the same tree in the same order, so their counts are equal wherever the core's
table forced no collection (checked where both finish: a difference is reported as a
disagreement).  The core decides each game; the Python search runs within `--python-cap`
positions (the L-pentomino's 7x7 race took it 2,219 s whole), so its speed is that of the first
positions of the same search, which the ratio compares with the core's whole run.  Times are
CPU seconds of this process, one run each, the core first, in one run of this command.

    python -m bench.pg_pns_core
    python -m bench.pg_pns_core --python-cap 20000 --games I4_6x6_m8 hein_15_5x5-15
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Sequence

from bddl.engines.compiled.pg_pns import solve_pns as core_pns
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.positional_pns import solve_pns as python_pns
from bddl.pg.animals import animal_game
from bddl.pg.reader import load_pg

from .suite import REPOSITORY

CORPUS = REPOSITORY.parent / "shared" / "corpus" / "pg"
ANIMALS = {"I4_6x6_m8": ("I-tetromino", 6, 8), "L5_6x6_m10": ("L-pentomino", 6, 10), "L5_7x7_m7": ("L-pentomino", 7, 7)}
CORPUS_GAMES = ("hein/hein_15_5x5-15", "hein/hein_20_6x6-13", "hein/hein_02_5x5-13", "hein/hein_17_6x6-13",
                "gttt-4x4/gttt_2_2_00011011_4x4_b", "gttt-4x4/gttt_2_1_00011011_4x4_w")


@dataclass
class Row:
    game: str
    black_wins: bool | None
    positions: int
    core_seconds: float
    python_positions: int
    python_seconds: float
    python_finished: bool

    @property
    def ratio(self) -> float | None:
        """The core's positions a second over the Python search's (None: a side counted none)."""
        if not (self.positions and self.python_positions and self.core_seconds and self.python_seconds):
            return None
        return (self.positions / self.core_seconds) / (self.python_positions / self.python_seconds)


def load(name: str):
    if name in ANIMALS:
        animal, n, moves = ANIMALS[name]
        return animal_game(animal, n, moves=moves)
    path = CORPUS / f"{name}.pg"
    if not path.is_file():
        matches = sorted((CORPUS / name.split("/")[0]).glob(f"{name.split('/')[-1]}*.pg"))
        if not matches:
            raise SystemExit(f"no game {name} (under {CORPUS})")
        path = matches[0]
    return load_pg(path)


def measure(name: str, python_cap: int, max_positions: int) -> Row:
    game = load(name)
    began = time.process_time()
    found = core_pns(game, max_positions=max_positions)
    core_seconds = time.process_time() - began
    began = time.process_time()
    try:
        reference = python_pns(game, max_positions=python_cap)
        python_positions, finished = reference.positions, True
    except SearchBudgetExceeded as exc:
        python_positions, finished = exc.positions, False
    python_seconds = time.process_time() - began
    if finished and (reference.black_wins, reference.positions) != (found.black_wins, found.positions):
        print(f"DISAGREEMENT on {name}: python {reference.black_wins} {reference.positions}, "
              f"core {found.black_wins} {found.positions}", file=sys.stderr)
    return Row(name, found.black_wins, found.positions, core_seconds, python_positions, python_seconds, finished)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_pns_core", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=[*ANIMALS, *CORPUS_GAMES])
    parser.add_argument("--python-cap", type=int, default=50_000, help="the Python search's positions at most")
    parser.add_argument("--max-positions", type=int, default=50_000_000, help="the core's positions at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(name, args.python_cap, args.max_positions) for name in args.games]
    if args.json:
        print(json.dumps([{**asdict(r), "ratio": r.ratio} for r in rows], indent=1))
        return 0
    print("| game | verdict | positions | core s | core positions/s | Python positions (of a capped run) | Python s | Python positions/s | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    def rate(positions: int, seconds: float) -> str:
        return f"{positions / seconds:,.0f}" if seconds else "-"

    for r in rows:
        verdict = "Black wins" if r.black_wins else "no win"
        capped = "" if r.python_finished else " (capped)"
        ratio = "-" if r.ratio is None else f"{r.ratio:.0f}"
        print(f"| {r.game} | {verdict} | {r.positions:,} | {r.core_seconds:.2f} | {rate(r.positions, r.core_seconds)} | "
              f"{r.python_positions:,}{capped} | {r.python_seconds:.1f} | {rate(r.python_positions, r.python_seconds)} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
