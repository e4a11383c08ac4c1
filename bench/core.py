"""`python -m bench.core`: positions a second of the compiled core and of the Python engine on the
same searches, in one run, with the yardstick beside them (docs/benchmarks.md, issue 41).

Both cores run the plain minimax (`--knowledge none`: `bddl.engines.compiled` and its Python
reference `bddl.engines.positional_plain`), which walk the same tree in the same order, so their
position counts are equal (checked here: a difference is reported as a disagreement) and the
ratio of their speeds is the ratio of their times.  The yardstick, `../shared/yardstick/pgsolve.c`
(built here with `cc -O2`), is a plain memoised minimax in C with another move order and no
first-move cut, so it visits other positions: only its positions a second compare.  It takes
games of up to 64 cells with listed winning sets (no Hex).

Times are CPU seconds of the search alone (no process start, no file reading), so that other
work on the machine weighs less: the compiled core and the yardstick take their best of
`--repeat` runs, the Python engine one run.  The Python engine runs only on the games whose
count is at most `--python-cap` (it does 30,000-40,000 positions a second).

With `--knowledge full` both run the positional solver with all its knowledge instead (the core's
`bddl.engines.compiled.solve_full` and its reference, `bddl.engines.positional.solve`), which also
count the same positions; the yardstick, a plain minimax, is left out.  Their times are of the
whole call on both sides: the setup (the start's pairing question, the symmetries once a search
switches them on) is part of what each solver costs.

    python -m bench.core                      # all the sets: GTTT, Hein up to 5x5, animal races
    python -m bench.core --sets animals --repeat 1 --python-cap 20000
    python -m bench.core --knowledge full     # the positional solver, core against Python
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

from bddl.engines import compiled
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.positional import solve as solve_full_python
from bddl.engines.positional_plain import solve_plain
from bddl.pg.animals import animal_game
from bddl.pg.game import PositionalGame
from bddl.pg.reader import load_pg
from bddl.pg.writer import write_pg

from .suite import REPOSITORY

CORPUS = REPOSITORY.parent / "shared" / "corpus" / "pg"
YARDSTICK = REPOSITORY.parent / "shared" / "yardstick" / "pgsolve.c"
# Harary's races (the strong games) of docs/results.md, at move counts the plain minimax finishes
ANIMAL_RACES = (("L-tetromino", 4, 4), ("Z-tetromino", 4, 4), ("T-tetromino", 5, 4), ("L-tetromino", 5, 4),
                ("I-tetromino", 5, 5), ("O-tetromino", 5, 5), ("P-pentomino", 5, 5), ("Y-pentomino", 5, 6),
                ("N-pentomino", 5, 6))
SETS = ("gttt", "hein", "animals", "suite")
KNOWLEDGE = ("none", "full")  # the plain minimax on both sides, or the positional solver
DEFAULT_SETS = ("gttt", "hein", "animals")


@dataclass
class Row:
    set: str
    game: str
    cells: int
    black_wins: bool
    positions: int  # the compiled core's (the Python engine's where it ran are checked equal)
    core_seconds: float
    python_positions: int | None = None
    python_seconds: float | None = None
    yardstick_positions: int | None = None
    yardstick_seconds: float | None = None
    yardstick_black_wins: bool | None = None
    core_search_seconds: float | None = None  # --knowledge full: the core's search alone (no setup in Python)


def games(chosen: Sequence[str]) -> list[tuple[str, str, PositionalGame]]:
    found: list[tuple[str, str, PositionalGame]] = []
    for name in chosen:
        if name in ("gttt", "hein") and not CORPUS.is_dir():
            print(f"bench.core: no corpus at {CORPUS}: the {name} set is left out", file=sys.stderr)
            continue
        if name == "gttt":
            for folder in ("gttt-3x3", "gttt-4x4"):
                found += [(name, f"{folder}/{p.name}", load_pg(p)) for p in sorted((CORPUS / folder).glob("*.pg"))]
        elif name == "hein":  # up to 5x5: the plain minimax does not finish the 6x6 and 7x7 puzzles
            for p in sorted((CORPUS / "hein").glob("*.pg")):
                game = load_pg(p)
                if len(game.cells) <= 25:
                    found.append((name, f"hein/{p.name}", game))
        elif name == "animals":
            for animal, size, moves in ANIMAL_RACES:
                found.append((name, f"{animal} {size}x{size} race, {moves} moves", animal_game(animal, size, moves=moves)))
        elif name == "suite":
            for p in sorted((REPOSITORY / "problems").rglob("*.pg")):
                found.append((name, str(p.relative_to(REPOSITORY)), load_pg(p)))
    return found


def build_yardstick(folder: Path) -> Path | None:
    cc = shutil.which("cc")
    if not YARDSTICK.is_file() or cc is None:
        print(f"bench.core: no yardstick ({YARDSTICK} or cc missing)", file=sys.stderr)
        return None
    program = folder / "pgsolve"
    subprocess.run([cc, "-O2", "-o", str(program), str(YARDSTICK)], check=True)
    return program


def run_yardstick(program: Path, game: PositionalGame, folder: Path, repeat: int, timeout: float) -> tuple[bool, int, float] | None:
    """Its answer, positions and best CPU seconds (its own clock: the search alone)."""
    if game.graph is not None or len(game.cells) > 64:
        return None
    path = folder / "game.pg"
    path.write_text(write_pg(game), encoding="utf-8")
    best = None
    for _ in range(repeat):
        try:
            out = subprocess.run([str(program), str(path)], capture_output=True, text=True, timeout=timeout, check=True).stdout
        except subprocess.TimeoutExpired:
            return None
        answer, positions, seconds = out.split()
        if best is None or float(seconds) < best[2]:
            best = (answer == "true", int(positions), float(seconds))
    return best


def measure(chosen: Sequence[str], repeat: int, python_cap: int, core_budget: int, yardstick_timeout: float,
            knowledge: str = "none") -> list[Row]:
    rows: list[Row] = []
    core_search, python_search = ((compiled.solve_full, solve_full_python) if knowledge == "full"
                                  else (compiled.solve_plain, solve_plain))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        program = build_yardstick(folder) if knowledge == "none" else None
        for set_name, label, game in games(chosen):
            best = best_search = None
            try:
                for _ in range(repeat):
                    start = time.process_time()
                    found = core_search(game, max_positions=core_budget)
                    seconds = time.process_time() - start
                    best = seconds if best is None else min(best, seconds)
                    searching = getattr(found, "search_seconds", None)
                    if searching is not None:
                        best_search = searching if best_search is None else min(best_search, searching)
            except SearchBudgetExceeded:
                print(f"  {label}: beyond the core's budget ({core_budget:,} positions): left out", file=sys.stderr)
                continue
            assert best is not None
            row = Row(set_name, label, len(game.cells), found.black_wins, found.positions, best, core_search_seconds=best_search)
            if found.positions <= python_cap:
                start = time.process_time()
                try:
                    slow = python_search(game, max_positions=python_cap)
                except SearchBudgetExceeded:  # (the positional solver may count more than the core did)
                    slow = None
                if slow is not None:
                    row.python_seconds = time.process_time() - start
                    row.python_positions = slow.positions
                if slow is not None and (slow.black_wins, slow.positions) != (found.black_wins, found.positions) and not found.replacements:
                    print(f"bench.core: DISAGREEMENT on {label}: compiled {found.black_wins}, {found.positions:,} positions; "
                          f"python {slow.black_wins}, {slow.positions:,}", file=sys.stderr)
            if program is not None:
                yard = run_yardstick(program, game, folder, repeat, yardstick_timeout)
                if yard is not None:
                    row.yardstick_black_wins, row.yardstick_positions, row.yardstick_seconds = yard
            rows.append(row)
            print(f"  {label}: {found.positions:,} positions, core {best:.3f} s"
                  + (f", python {row.python_seconds:.2f} s" if row.python_seconds is not None else "")
                  + (f", yardstick {row.yardstick_positions:,} in {row.yardstick_seconds:.2f} s" if row.yardstick_seconds is not None else ""),
                  file=sys.stderr, flush=True)
    return rows


def _rate(positions: int, seconds: float) -> str:
    return f"{positions / seconds:,.0f}" if seconds > 0 else "-"


def summary(rows: list[Row]) -> str:
    """The markdown table: per set, each engine's positions a second over the games it ran, and the
    ratios over the games both engines of the ratio ran (so that each ratio is like for like)."""
    lines = ["| set | games | compiled core: positions, pos/s | Python: games, positions, pos/s | core / Python (same games) "
             "| yardstick: games, positions, pos/s | core / yardstick, pos/s (same games) |",
             "|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r.set for r in rows):
        mine = [r for r in rows if r.set == name]
        core_p, core_s = sum(r.positions for r in mine), sum(r.core_seconds for r in mine)
        py = [r for r in mine if r.python_seconds is not None]
        py_p, py_s = sum(r.positions for r in py), sum(r.python_seconds or 0 for r in py)
        py_core_s = sum(r.core_seconds for r in py)
        ratio_py = f"{(py_p / py_core_s) / (py_p / py_s):,.0f}x" if py and py_core_s > 0 and py_s > 0 else "-"
        yd = [r for r in mine if r.yardstick_seconds is not None]
        yd_p, yd_s = sum(r.yardstick_positions or 0 for r in yd), sum(r.yardstick_seconds or 0 for r in yd)
        yd_core_p, yd_core_s = sum(r.positions for r in yd), sum(r.core_seconds for r in yd)
        ratio_yd = f"{(yd_core_p / yd_core_s) / (yd_p / yd_s):.1f}x" if yd and yd_core_s > 0 and yd_s > 0 else "-"
        lines.append(f"| {name} | {len(mine)} | {core_p:,}, {_rate(core_p, core_s)} | {len(py)}, {py_p:,}, {_rate(py_p, py_s)} | {ratio_py} "
                     f"| {len(yd)}, {yd_p:,}, {_rate(yd_p, yd_s)} | {ratio_yd} |")
    return "\n".join(lines)


def summary_full(rows: list[Row]) -> str:
    """`--knowledge full`: per set, the core's positions a second over the whole call and over its
    search alone (the setup in Python left out: the rules' tables, the start's pairing question,
    finding the symmetries), against the Python solver's over the whole call, on the same games."""
    lines = ["| set | games | positions | core, whole call: pos/s | core, search alone: pos/s | Python: pos/s "
             "| core / Python, whole call | search alone / Python |",
             "|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r.set for r in rows):
        both = [r for r in rows if r.set == name and r.python_seconds is not None and r.core_search_seconds is not None]
        if not both:
            continue
        p = sum(r.positions for r in both)
        whole, alone = sum(r.core_seconds for r in both), sum(r.core_search_seconds or 0 for r in both)
        python = sum(r.python_seconds or 0 for r in both)
        lines.append(f"| {name} | {len(both)} | {p:,} | {_rate(p, whole)} | {_rate(p, alone)} | {_rate(p, python)} "
                     f"| {_ratio(python, whole)} | {_ratio(python, alone)} |")
    return "\n".join(lines)


def _ratio(python: float, core: float) -> str:
    return f"{python / core:,.0f}x" if core > 0 and python > 0 else "-"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.core", description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", nargs="+", choices=SETS, default=list(DEFAULT_SETS))
    p.add_argument("--repeat", type=int, default=3, help="runs of the compiled core and the yardstick per game, the best kept (default 3)")
    p.add_argument("--python-cap", type=int, default=300_000, help="run the Python engine on games of at most this many positions (default 300,000)")
    p.add_argument("--core-budget", type=int, default=100_000_000, help="the compiled core's positions per game (default 100M)")
    p.add_argument("--yardstick-timeout", type=float, default=120, help="seconds per yardstick run (default 120)")
    p.add_argument("--knowledge", choices=KNOWLEDGE, default="none",
                   help="none: the plain minimax (and the yardstick); full: the positional solver (default none)")
    p.add_argument("--json", metavar="FILE", help="also write every row as JSON lines to FILE")
    args = p.parse_args(argv)
    if not compiled.available():
        print(f"bench.core: {compiled.why_unavailable()}", file=sys.stderr)
        return 2
    rows = measure(args.sets, args.repeat, args.python_cap, args.core_budget, args.yardstick_timeout, args.knowledge)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(asdict(r)) + "\n" for r in rows)
    print(summary_full(rows) if args.knowledge == "full" else summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
