"""Issue 18's table: `bddlc check` and a lifted compile as the board grows.

    python -m bench.locality [--sides 19,20,50,100,300,1000] [--depth 101]
                             [--repeat 3] [--exhaustive-timeout 300]

Five in a row for both sides (`domains/positional.bddl`, the scaling
problems of `bench.instances`), each command a fresh process, as a user runs
it: wall time (best of --repeat) and peak memory (the child's maximum
resident set, from wait4).  `check --exhaustive` (the whole-board method)
runs once per board, up to its time limit, to compare verdicts; past its
memory estimate it refuses at once (exit status 3), which the table shows.
Prints a Markdown table (docs/benchmarks.md keeps one).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from .instances import five_in_a_row_problem

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "domains" / "positional.bddl"


def measured(argv: list[str], timeout: float) -> tuple[int | None, float, float, int, str]:
    """(exit status or None past `timeout`, wall seconds, CPU seconds, peak KB,
    stdout) of one bddlc process; CPU time and peak are exactly this child's
    (wait4's rusage).  CPU time is the figure to trust on a busy machine."""
    done = False
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    read, write = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: become bddlc, stdout into the pipe
        os.close(read)
        os.dup2(write, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "compiler.cli", *argv], env)
    os.close(write)
    chunks = []
    deadline = start + timeout
    os.set_blocking(read, False)
    try:
        while True:
            try:
                data = os.read(read, 1 << 16)
                if data:
                    chunks.append(data)
            except BlockingIOError:
                pass
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.close(read)
                return None, time.perf_counter() - start, 0.0, 0, ""
            time.sleep(0.01)
    finally:
        if not done:  # past the time limit, or interrupted: the child goes too
            os.kill(pid, 9)
            os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    while True:
        try:
            data = os.read(read, 1 << 16)
        except BlockingIOError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(read)
    cpu = usage.ru_utime + usage.ru_stime
    return os.waitstatus_to_exitcode(status), seconds, cpu, usage.ru_maxrss, b"".join(chunks).decode()


def best(argv: list[str], repeat: int, timeout: float) -> tuple[int | None, float, float, int, str]:
    runs = [measured(argv, timeout) for _ in range(repeat)]
    return min(runs, key=lambda r: r[1])


def verdicts(text: str) -> str:
    """The three conditions' verdicts from a check report, e.g. "holds/holds/holds"."""
    found = [line.split(": ")[-1].split(" ")[0] for line in text.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    return "/".join(found) if found else "-"


def _cell(wall: float, cpu: float, kb: int) -> str:
    return f"{wall:.2f} s ({cpu:.2f} s CPU), {kb // 1024} MB"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.locality", description=__doc__.split("\n\n")[0])
    p.add_argument("--sides", default="19,20,50,100,300,1000")
    p.add_argument("--depth", type=int, default=101)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--exhaustive-timeout", type=float, default=300.0)
    args = p.parse_args(argv)
    rows = [
        "| board | `bddlc D P -o f.qcir` | `bddlc check D P` | verdicts | `bddlc check --exhaustive D P` | verdicts |",
        "|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for side in (int(s) for s in args.sides.split(",")):
            problem = Path(folder) / f"gomoku_{side}x{side}_d{args.depth}.bddl"
            problem.write_text(five_in_a_row_problem(side, args.depth))
            out = Path(folder) / "f.qcir"
            code, s, cpu, kb, _ = best([str(DOMAIN), str(problem), "-o", str(out)], args.repeat, 120)
            compile_cell = _cell(s, cpu, kb) if code == 0 else f"exit {code}"
            code, s, cpu, kb, text = best(["check", str(DOMAIN), str(problem)], args.repeat, 120)
            check_cell = _cell(s, cpu, kb) if code in (0, 1) else f"exit {code}"
            local = verdicts(text)
            code, s, cpu, kb, text = measured(["check", "--exhaustive", str(DOMAIN), str(problem)], args.exhaustive_timeout)
            if code is None:
                whole, whole_verdicts = f"no answer in {args.exhaustive_timeout:.0f} s", "-"
            elif code == 3:
                whole, whole_verdicts = f"refused at once ({s:.2f} s): past the 2 GB estimate", "-"
            else:
                whole, whole_verdicts = _cell(s, cpu, kb), verdicts(text)
            rows.append(f"| {side}x{side} | {compile_cell} | {check_cell} | {local} | {whole} | {whole_verdicts} |")
            print(rows[-1], file=sys.stderr, flush=True)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
