"""`python -m bench.whole_commands`: issue 41's whole-command targets, measured as a user meets them
(docs/benchmarks.md, "The compiled core").

* `gttt`: the 180 GTTT games of the corpus, each opened and answered by `bddlc solve`'s default
  route (the race of the QBF route and the search, `compiler.solving.routes.answer`), in one
  process: the process start is left out, as the target says, and so is the first game's (the imports);
* `hein`: Hein 20 at depth 15 by `bddlc solve` itself, a child process, its wall time;
* `breakthrough`: `bddlc solve` on Breakthrough 4x5 with Black first and Black second (the whole
  game), wall time each; `3x7`: the same on 3x7, Black second (minutes: only when named);
* `regress`: `bddlc regress problems/expected.toml`, wall time;
* `race`: `bddlc solve` against `bddlc solve --engine search` on knightthrough second_3x6_d16 (what
  racing costs over the faster route), on a quiet machine and with the other core kept busy.

Every verdict is checked (the corpus's answers.tsv, the suite's expected.toml); a wrong one is an
error, not a figure.

    python -m bench.whole_commands                      # gttt, hein, breakthrough, regress, race
    python -m bench.whole_commands --sets breakthrough,3x7
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

from compiler.model import open_model
from compiler.solving.routes import answer

from .core import CORPUS


def _answers() -> dict[str, bool]:
    found = {}
    for line in (CORPUS / "answers.tsv").read_text().splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[1] in ("true", "false"):
            found[parts[0]] = parts[1] == "true"
    return found


def gttt(engine: str) -> tuple[int, float, float, dict[str, int]]:
    """(games, seconds opening, seconds answering, who answered) over the 180 GTTT games."""
    known = _answers()
    files = sorted(CORPUS.glob("gttt-*/*.pg"))
    answer(open_model([str(files[0])]), engine=engine)  # the imports, once
    opening = answering = 0.0
    who: dict[str, int] = {}
    for path in files:
        start = time.perf_counter()
        model = open_model([str(path)])
        opened = time.perf_counter()
        result = answer(model, engine=engine).result
        answering += time.perf_counter() - opened
        opening += opened - start
        expected = known.get(str(path.relative_to(CORPUS)))
        if expected is not None and result.black_wins is not None and result.black_wins != expected:
            raise SystemExit(f"{path}: {result.black_wins}, the corpus says {expected}")
        route = (result.answered_by or "none").split(":")[0]
        who[route] = who.get(route, 0) + 1
    return len(files), opening, answering, who


def hein_20_at_15() -> tuple[float, str]:
    """Wall seconds of `bddlc solve hein_20_6x6-13.pg --depth 15`, and its verdict line."""
    game = CORPUS / "hein" / "hein_20_6x6-13.pg"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "compiler.cli", "solve", str(game), "--depth", "15"],
                          capture_output=True, text=True)
    if done.returncode not in (10, 20):  # solve's exit statuses for a verdict (docs/cli.md)
        raise SystemExit(f"bddlc solve gave no verdict (exit status {done.returncode}): {done.stderr[-500:]}")
    return time.perf_counter() - start, done.stdout.splitlines()[0]


ROOT = Path(__file__).resolve().parents[1]
BREAKTHROUGH = ROOT / "domains" / "breakthrough.bddl"
SETS = ("gttt", "hein", "breakthrough", "3x7", "regress", "race")
DEFAULT_SETS = ("gttt", "hein", "breakthrough", "regress", "race")


def _expected(problem: Path) -> bool:
    """The suite's answer for a problem (problems/expected.toml)."""
    from compiler.cli.regress_run import read_manifest

    for entry in read_manifest(ROOT / "problems" / "expected.toml"):
        if entry.problem.resolve() == problem.resolve():
            return entry.black_wins
    raise SystemExit(f"{problem} is not in problems/expected.toml")


def solve_wall(domain: Path, problem: Path, *options: str) -> tuple[float, str]:
    """Wall seconds of `bddlc solve DOMAIN PROBLEM OPTIONS`, and its verdict line, checked against the suite."""
    seconds, _, verdict = solve_times(domain, problem, *options)
    return seconds, verdict


def solve_times(domain: Path, problem: Path, *options: str) -> tuple[float, float, str]:
    """`solve_wall`'s wall seconds, the CPU seconds of the command and its race's members (user and
    system: what the shared machine's load does not lengthen), and the verdict line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "compiler.cli", "solve", str(domain), str(problem), *options],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode not in (10, 20):
        raise SystemExit(f"bddlc solve {problem.name} gave no verdict (exit status {done.returncode}): {done.stderr[-500:]}")
    if (done.returncode == 10) != _expected(problem):
        raise SystemExit(f"bddlc solve {problem.name}: {done.stdout.splitlines()[0]}, the suite expects the opposite")
    return seconds, cpu, done.stdout.splitlines()[0]


def regress_wall() -> tuple[float, str]:
    """Wall seconds of `bddlc regress problems/expected.toml`, and its summary line (every entry must agree)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "compiler.cli", "regress", str(ROOT / "problems" / "expected.toml")],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bddlc regress failed (exit status {done.returncode}): {done.stdout[-500:]}")
    return seconds, done.stdout.strip().splitlines()[-1]


def _spin(stop) -> None:
    while not stop.is_set():
        pass


def race_overhead(busy: bool, repeat: int = 3) -> tuple[float, float]:
    """The best wall seconds of `bddlc solve` (the race) and of `--engine search` on knightthrough
    second_3x6_d16, with a process spinning on one core beside them when `busy`."""
    domain, problem = ROOT / "domains" / "knightthrough.bddl", ROOT / "problems" / "knightthrough" / "second_3x6_d16.bddl"
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,)) if busy else None
    if spinner is not None:
        spinner.start()
    try:
        raced = min(solve_wall(domain, problem)[0] for _ in range(repeat))
        alone = min(solve_wall(domain, problem, "--engine", "search")[0] for _ in range(repeat))
    finally:
        stop.set()
        if spinner is not None:
            spinner.join()
    return raced, alone


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.whole_commands", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS),
                        help=f"comma-separated, from {', '.join(SETS)} (default: {','.join(DEFAULT_SETS)})")
    sets = parser.parse_args(argv).sets.split(",")
    unknown = [name for name in sets if name not in SETS]
    if unknown:
        parser.error(f"unknown set {unknown[0]!r}; choose from {', '.join(SETS)}")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    if "gttt" in sets:
        for engine in ("auto", "search"):
            games, opening, answering, who = gttt(engine)
            print(f"GTTT, {games} games, --engine {engine}: {opening + answering:.2f} s (opening {opening:.2f} s, "
                  f"answering {answering:.2f} s); answered by {who}")
    if "hein" in sets:
        seconds, verdict = hein_20_at_15()
        print(f"Hein 20 at 15, bddlc solve: {seconds:.2f} s wall ({verdict})")
    problems = ROOT / "problems" / "breakthrough"
    if "breakthrough" in sets:
        for name in ("first_4x5_d41.bddl", "second_4x5_d41.bddl"):
            runs = [solve_times(BREAKTHROUGH, problems / name) for _ in range(3)]
            walls, cpus = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
            print(f"Breakthrough {name}, bddlc solve, 3 runs: {walls[0]:.2f} s wall best, {walls[1]:.2f} median; "
                  f"{cpus[0]:.2f} s CPU best, {cpus[1]:.2f} median ({runs[-1][2]})")
    if "3x7" in sets:
        seconds, cpu, verdict = solve_times(BREAKTHROUGH, problems / "second_3x7_d55.bddl")
        print(f"Breakthrough second_3x7_d55.bddl, bddlc solve: {seconds:.2f} s wall, {cpu:.2f} s CPU ({verdict})")
    if "regress" in sets:
        seconds, summary = regress_wall()
        print(f"bddlc regress problems/expected.toml: {seconds:.2f} s wall ({summary})")
    if "race" in sets:
        for busy in (False, True):
            raced, alone = race_overhead(busy)
            print(f"knightthrough second_3x6_d16{', one core busy' if busy else ''}: solve {raced:.2f} s, "
                  f"--engine search {alone:.2f} s, racing costs {raced - alone:+.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
