"""Run the in-suite command fuzzer N times and print the exit statuses seen.

    python scripts/fuzz_commands.py --runs 20000

Each run mutates a small model of the suite (BDDL or .pg) and gives it to one
command in-process (tests/helpers/fuzzing.py says how); a traceback stops the
run and prints the case that caused it (hypothesis shrinks it first)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers.fuzzing import DOCUMENTED, cases, histogram, run_case  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="hypothesis's seed (runs are reproducible)")
    args = parser.parse_args()
    statuses: Counter = Counter()
    by_command: Counter = Counter()

    @settings(max_examples=args.runs, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(cases())
    def fuzz(case):
        status = run_case(case)
        assert status in DOCUMENTED, (status, case)
        statuses[status] += 1
        by_command[(case.command[0], len(case.seed) == 1)] += 1

    from hypothesis import seed

    seed(args.seed)(fuzz)()
    print("exit statuses:", histogram(statuses))
    print("runs per command (BDDL / .pg):", ", ".join(
        f"{name} {by_command[(name, False)]}/{by_command[(name, True)]}" for name in sorted({c for c, _ in by_command})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
