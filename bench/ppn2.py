"""`python -m bench.ppn2`: the parallel search's configurations side by side, one run at a time.

Each configuration is a `bddlc search` command line on the game, run as its
own process (its own session, so that a time limit ends it with its Dask
workers), one after the other, and timed whole: the figures of
docs/benchmarks.md ("The parallel proof-number search") are made so.  The
Markdown table gives per game the wall seconds, the positions of all jobs,
the verdict and each time's ratio to the game's first configuration; the
run exits 1 when two configurations disagree on a verdict, or a `bddlc
search` fails (a time limit or a positions budget is no failure: no verdict).

A configuration is `pns` or `minimax` (one process), or
`ppn2:LEAF_JOBS:WORKERS` (say `ppn2:search:2`, `ppn2:dfpn:1`); `--` passes
options to every command (`-- --race-patterns`).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

DEFAULT_CONFIGS = "ppn2:dfpn:1,ppn2:dfpn:2,ppn2:search:1,ppn2:search:2"


@dataclass(frozen=True)
class Run:
    game: str
    config: str
    verdict: bool | None  # None: no answer (the time limit, the budget, an error)
    positions: int | None
    seconds: float
    note: str = ""
    failed: bool = False  # bddlc search failed (exit 1 or 2: the game unreadable, an option refused, an error)


def command(game: list[str], config: str, extra: list[str]) -> list[str]:
    """The `bddlc search` command line of one configuration."""
    parts = config.split(":")
    if parts[0] in ("pns", "minimax") and len(parts) == 1:
        options = ["--algorithm", parts[0]]
    elif parts[0] == "ppn2" and len(parts) == 3 and parts[2].isdigit():
        options = ["--algorithm", "ppn2", "--leaf-jobs", parts[1], "--workers", parts[2]]
    else:
        raise ValueError(f"configuration {config!r}: expected pns, minimax or ppn2:LEAF_JOBS:WORKERS")
    return [sys.executable, "-m", "compiler.cli", "search", *game, *options, *extra, "--json"]


def run(game: list[str], config: str, extra: list[str], limit: float) -> Run:
    argv = command(game, config, extra)
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = child.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGINT)  # bddlc ends its cluster on SIGINT
        try:
            child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
        return Run(" ".join(game), config, None, None, time.perf_counter() - start, f"no verdict in {limit:g} s")
    seconds = time.perf_counter() - start
    try:
        found = json.loads(out)
    except ValueError:
        lines = err.strip().splitlines()
        return Run(" ".join(game), config, None, None, seconds, f"exit {child.returncode}: {lines[-1] if lines else ''}",
                   failed=child.returncode not in (0, 3))
    note = "" if found.get("black_wins") is not None else (found.get("error") or f"exit {child.returncode}")
    return Run(" ".join(game), config, found.get("black_wins"), found.get("positions"), seconds, note,
               failed=child.returncode not in (0, 3))


def table(runs: list[Run]) -> str:
    lines = ["| game | configuration | wall s | ratio | positions | verdict |", "| --- | --- | ---: | ---: | ---: | --- |"]
    first: dict[str, float] = {}
    for r in runs:
        base = first.setdefault(r.game, r.seconds if r.verdict is not None else float("nan"))
        ratio = f"{r.seconds / base:.2f}" if r.verdict is not None and base == base else "-"
        verdict = r.note if r.verdict is None else "Black wins" if r.verdict else "no win"
        positions = "-" if r.positions is None else f"{r.positions:,}"
        lines.append(f"| {r.game} | {r.config} | {r.seconds:.1f} | {ratio} | {positions} | {verdict} |")
    return "\n".join(lines)


def disagreements(runs: list[Run]) -> list[str]:
    seen: dict[str, set[bool]] = {}
    for r in runs:
        if r.verdict is not None:
            seen.setdefault(r.game, set()).add(r.verdict)
    return [game for game, verdicts in seen.items() if len(verdicts) > 1]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(prog="python -m bench.ppn2", description=__doc__.splitlines()[0],
                                     epilog="options after -- go to every bddlc search command")
    parser.add_argument("games", metavar="GAME", nargs="+", help="a .pg game, or DOMAIN,PROBLEM for a BDDL model")
    parser.add_argument("--configs", default=DEFAULT_CONFIGS, help=f"comma-separated (default {DEFAULT_CONFIGS})")
    parser.add_argument("--time-limit", type=float, default=600.0, metavar="S", help="seconds per run (default 600)")
    args = parser.parse_args(argv)
    configs = args.configs.split(",")
    try:
        for config in configs:
            command(["GAME"], config, [])
    except ValueError as exc:
        parser.error(str(exc))
    runs = []
    for game in args.games:
        for config in configs:
            runs.append(run(game.split(","), config, extra, args.time_limit))
            r = runs[-1]
            print(f"{r.game}\t{r.config}\t{r.seconds:.1f} s\t{r.verdict}\t{r.positions}\t{r.note}", file=sys.stderr, flush=True)
    print(table(runs))
    wrong = disagreements(runs)
    if wrong:
        print(f"verdicts disagree on {', '.join(wrong)}", file=sys.stderr)
    failed = [f"{r.game} ({r.config})" for r in runs if r.failed]
    if failed:
        print(f"bddlc search failed on {', '.join(failed)}", file=sys.stderr)
    return 1 if wrong or failed else 0


if __name__ == "__main__":
    sys.exit(main())
