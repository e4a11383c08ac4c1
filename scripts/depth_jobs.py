"""Measure `bddlc depth --jobs N` against the sequential search on every suite problem
with a known critical depth (`critical_depth` in problems/expected.toml): the critical
depth each finds and the wall time of each (issue 17's target).

    python scripts/depth_jobs.py [--jobs 2] [--timeout 120] [--output depth-jobs.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.cli.regress_run import read_manifest  # noqa: E402


def depth_run(entry, extra: list[str], timeout: float) -> dict:
    command = [sys.executable, "-m", "compiler.cli", "depth", str(entry.domain), str(entry.problem), "--json",
               "--timeout", str(timeout)] + extra
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    data = json.loads(done.stdout) if done.stdout.strip() else {}
    return {"critical_depth": data.get("critical_depth"), "seconds": round(seconds, 2), "status": done.returncode}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--output", type=Path, default=Path("depth-jobs.json"))
    args = parser.parse_args()
    rows = []
    for entry in read_manifest(ROOT / "problems" / "expected.toml"):
        if entry.critical_depth is None:
            continue
        one = depth_run(entry, [], args.timeout)
        many = depth_run(entry, ["--jobs", str(args.jobs)], args.timeout)
        row = {"problem": entry.name, "known": entry.critical_depth, "sequential": one, f"jobs{args.jobs}": many}
        rows.append(row)
        print(f"{entry.name:40} known {entry.critical_depth:3}  sequential {one['critical_depth']} in {one['seconds']:7.2f} s"
              f"  --jobs {args.jobs}: {many['critical_depth']} in {many['seconds']:7.2f} s", flush=True)
        args.output.write_text(json.dumps(rows, indent=1) + "\n")
    same = all(r["sequential"]["critical_depth"] == r[f"jobs{args.jobs}"]["critical_depth"] == r["known"] for r in rows)
    print(f"{len(rows)} problems; every critical depth equal to the known one both ways: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
