"""`python -m bench.bddl_core`: positions a second of the compiled core's BDDL minimax and of the
Python one on the same searches (docs/benchmarks.md, issue 41).

Both run `bddl.engines.minimax.search`'s search (the core's `bddl.engines.compiled.solve_bddl`),
which walk the same tree in the same order: their counts are equal wherever the core's table
evicted nothing (checked here: a difference is reported as a disagreement), so the ratio of
their speeds is the ratio of their times.  The games are the suite's BDDL problems the manifest
decides by the minimax (problems/expected.toml), by family.

Times are CPU seconds: the core's whole call (grounding the game in Python included) and its
search alone (the core's call on the ground game), the best of `--repeat` runs; the Python
search one run, on the games of at most `--python-cap` positions.

    python -m bench.bddl_core
    python -m bench.bddl_core --families breakthrough hex --python-cap 50000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Sequence

from bddl.engines import compiled, minimax
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.game import Game
from bddl.loader import load_model

from .suite import REPOSITORY, read_manifest

FAMILIES = ("breakthrough", "knightthrough", "connect", "domineering", "hex", "httt", "evader_pursuer")


@dataclass
class Row:
    family: str
    game: str
    cells: int
    black_wins: bool
    positions: int
    core_seconds: float  # the whole call (the grounding in Python included)
    core_search_seconds: float  # the core's search alone
    replacements: int
    python_positions: int | None = None
    python_seconds: float | None = None


def games(families: Sequence[str]) -> list[tuple[str, str, Game]]:
    found = []
    for case in read_manifest(REPOSITORY):
        family = case.file.split("/")[0]
        if family in families and case.engine == "minimax":
            model = load_model(case.domain, case.problem)
            found.append((family, case.file, Game(model.domain, model.problem)))
    return found


def _search_alone(game: Game, budget: int) -> float:
    """CPU seconds of the core's call on the ground game (no grounding)."""
    from bddl.engines.compiled import _core
    from bddl.engines.compiled.bddl_spec import flatten_bddl

    flat = flatten_bddl(game)
    start = time.process_time()
    _core.solve_bddl_flat(flat, game.problem.depth, budget, compiled.table_bytes_for(compiled.DEFAULT_TABLE_MB))
    return time.process_time() - start


def measure(families: Sequence[str], repeat: int, python_cap: int, core_budget: int) -> list[Row]:
    rows = []
    for family, label, game in games(families):
        best = alone = None
        try:
            for _ in range(repeat):
                start = time.process_time()
                found = compiled.solve_bddl(game, max_positions=core_budget)
                seconds = time.process_time() - start
                best = seconds if best is None else min(best, seconds)
                searching = _search_alone(game, core_budget)
                alone = searching if alone is None else min(alone, searching)
        except SearchBudgetExceeded:
            print(f"  {label}: beyond the core's budget ({core_budget:,} positions): left out", file=sys.stderr)
            continue
        assert best is not None and alone is not None
        row = Row(family, label, game.geometry.cells, found.black_wins, found.positions, best, alone, found.engine.replacements)
        if found.positions <= python_cap:
            start = time.process_time()
            slow = minimax.search(game, max_positions=python_cap)
            row.python_seconds = time.process_time() - start
            row.python_positions = slow.positions
            if (slow.black_wins, slow.first_move, slow.positions) != (found.black_wins, found.first_move, found.positions) \
                    and not found.engine.replacements:
                print(f"bench.bddl_core: DISAGREEMENT on {label}: compiled {found.black_wins}, {found.positions:,} positions; "
                      f"python {slow.black_wins}, {slow.positions:,}", file=sys.stderr)
        rows.append(row)
        print(f"  {label}: {found.positions:,} positions, core {best:.3f} s (search {alone:.3f} s)"
              + (f", python {row.python_seconds:.2f} s" if row.python_seconds is not None else ""), file=sys.stderr, flush=True)
    return rows


def _rate(positions: int, seconds: float) -> str:
    return f"{positions / seconds:,.0f}" if seconds > 0 else "-"


def summary(rows: list[Row]) -> str:
    """Per family, over the games both ran: positions, each side's positions a second, the ratio."""
    lines = ["| family | games | positions | Python: pos/s | core, whole call: pos/s | core, search alone: pos/s "
             "| core / Python (whole call) |",
             "|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r.family for r in rows):
        both = [r for r in rows if r.family == name and r.python_seconds is not None]
        if not both:
            continue
        p = sum(r.positions for r in both)
        python = sum(r.python_seconds or 0 for r in both)
        whole, alone = sum(r.core_seconds for r in both), sum(r.core_search_seconds for r in both)
        ratio = f"{python / whole:,.0f}x" if whole > 0 and python > 0 else "-"
        lines.append(f"| {name} | {len(both)} | {p:,} | {_rate(p, python)} | {_rate(p, whole)} | {_rate(p, alone)} | {ratio} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.bddl_core", description=__doc__.split("\n\n")[0])
    p.add_argument("--families", nargs="+", choices=FAMILIES, default=list(FAMILIES))
    p.add_argument("--repeat", type=int, default=3, help="runs of the compiled core per game, the best kept (default 3)")
    p.add_argument("--python-cap", type=int, default=300_000, help="run the Python minimax on games of at most this many positions (default 300,000)")
    p.add_argument("--core-budget", type=int, default=5_000_000, help="the compiled core's positions per game (default 5M)")
    p.add_argument("--json", metavar="FILE", help="also write every row as JSON lines to FILE")
    args = p.parse_args(argv)
    if not compiled.available():
        print(f"bench.bddl_core: {compiled.why_unavailable()}", file=sys.stderr)
        return 2
    rows = measure(args.families, args.repeat, args.python_cap, args.core_budget)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(asdict(r)) + "\n" for r in rows)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
