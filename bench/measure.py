"""Measuring one instance: compiling it as a user would and in-process, translating it to
QDIMACS, and solving it under a time limit.

The whole-process compile (`python -m compiler.cli DOMAIN PROBLEM -o FILE`)
is the number users feel, imports and all; the in-process compile (load,
encode, write the QCIR text, with the parser already built) is the number
the compiler's own work costs.  Solver runs go through
`compiler.solving.qbf.solver_programs.run_solver`: a child process per run, killed at the limit,
with a verdict only from the exit codes 10 and 20.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from circuits import Qdimacs, to_qdimacs, write_qdimacs
from compiler.solving.qbf import solver_programs as solvers
from compiler.solving.qbf.preprocessing import check_prefix
from compiler.solving.processes.processes import spawn

from .configs import Configuration
from .preprocessing import PREPROCESSORS
from .records import ERROR, SOLVED, TIMEOUT, UNAVAILABLE
from .suite import REPOSITORY

COMPILE_PROCESS_TIMEOUT = 600.0  # a compile that takes longer is a bug to report, not a measurement


class CompileFailed(Exception):
    """The instance did not compile; the message says why (the compiler's own diagnostic when it gave one)."""


@dataclass(frozen=True)
class ProcessCompile:
    seconds: float  # wall time of the whole process, best of the repeats
    peak_mb: float | None  # the process's peak resident memory, the largest of the repeats (None: not measurable here)


# `python -m compiler.cli ARGS`, plus a note of the process's peak memory on the
# way out.  The peak cannot be taken from the parent: Linux folds the parent's
# own high-water mark into a child's ru_maxrss when the child execs, so
# wait4/getrusage report at least the size of this (growing) benchmark
# process.  VmHWM in /proc/self/status is the peak of the compiler's own
# address space only.
_PEAK_WRAPPER = """\
import runpy, sys
report, sys.argv = sys.argv[1], sys.argv[1:]
try:
    runpy.run_module("compiler.cli", run_name="__main__", alter_sys=True)
finally:
    try:
        with open("/proc/self/status") as status:
            peak = [line.split()[1] for line in status if line.startswith("VmHWM:")]
        with open(report, "w") as out:
            out.write(peak[0] if peak else "")
    except OSError:
        pass
"""


def compile_process(domain: Path, problem: Path, encoding: str, repeat: int = 1) -> ProcessCompile:
    """Time `python -m compiler.cli DOMAIN PROBLEM --encoding E -o tmp.qcir` run from this checkout
    (through `runpy`, as `-m` does, so that the process can also report its peak memory)."""
    arguments = [str(domain), str(problem), "--encoding", encoding]
    best, peak = float("inf"), None
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as folder:
        output, log, report = (Path(folder) / name for name in ("formula.qcir", "stderr.txt", "peak.txt"))
        command = [sys.executable, "-c", _PEAK_WRAPPER, str(report)] + arguments + ["-o", str(output)]
        for _ in range(max(1, repeat)):
            report.unlink(missing_ok=True)
            seconds, status = _timed_process(command, log)
            if status != 0:
                raise CompileFailed(_diagnostic(log.read_text(errors="replace")) or f"exit status {status}")
            best = min(best, seconds)
            kilobytes = report.read_text().strip() if report.exists() else ""
            if kilobytes.isdigit():
                peak = max(peak or 0.0, int(kilobytes) / 1024)
    return ProcessCompile(best, peak)


def _timed_process(command: list[str], log: Path) -> tuple[float, int]:
    """Run to completion from the repository root; (wall seconds, exit status)."""
    with open(log, "w") as err:
        start = time.perf_counter()
        proc = spawn(command, cwd=REPOSITORY, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        try:
            status = proc.wait(timeout=COMPILE_PROCESS_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill_group()
            proc.wait()
            raise CompileFailed(f"the compile process ran past {COMPILE_PROCESS_TIMEOUT:.0f} s and was killed") from None
        except BaseException:  # interrupted: the compile process ends with us
            proc.kill_group()
            proc.wait()
            raise
        return time.perf_counter() - start, status


def _diagnostic(text: str) -> str:
    """The `file:line:col: error: ...` lines of a compiler's stderr (else its last lines), on one line."""
    errors = [line.strip() for line in text.splitlines() if ": error:" in line]
    return " | ".join(errors[:3]) if errors else _last_lines(text)


def _last_lines(text: str, count: int = 6) -> str:
    return " | ".join(line.rstrip() for line in text.strip().splitlines()[-count:])


@dataclass(frozen=True)
class Compiled:
    circuit: object
    qcir_text: str
    seconds: float  # best of the repeats
    width: int
    height: int
    depth: int
    variables: int
    gates: int
    blocks: int
    encoding: str = ""  # the encoding the formula really is ("auto" resolved)


def compile_in_process(domain: Path, problem: Path, encoding: str, repeat: int = 1) -> Compiled:
    """Load, encode and write the QCIR text in this process; the time excludes imports and the parser build."""
    from bddl.errors import BddlError
    from bddl.loader import load_model
    from compiler.encodings import encode, encoding_name
    from compiler.formula_files import formula_text

    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        try:
            model = load_model(domain, problem)
            encoded = encode(model.domain, model.problem, model.problem.depth, encoding)
            circuit = encoded.circuit
        except BddlError as exc:
            raise CompileFailed(_diagnostic(exc.render())) from None
        text, stats = formula_text(circuit, "qcir", [])
        best = min(best, time.perf_counter() - start)
    p = model.problem
    name = encoding_name(encoded, encoding)
    return Compiled(circuit, text, best, p.width, p.height, p.depth, stats.variables, stats.gates, stats.blocks, name)


@dataclass(frozen=True)
class Translated:
    formula: Qdimacs
    text: str
    seconds: float


def translate(circuit, polarity: bool, placement: str) -> Translated:
    """The QDIMACS a configuration hands its solver (Tseitin or Plaisted-Greenbaum, gate placement)."""
    start = time.perf_counter()
    formula = to_qdimacs(circuit, polarity=polarity, placement=placement)
    buffer = io.StringIO()
    write_qdimacs(formula, buffer)
    return Translated(formula, buffer.getvalue(), time.perf_counter() - start)


@dataclass(frozen=True)
class Solved:
    status: str  # solved | timeout | error | unavailable
    verdict: bool | None
    seconds: float | None
    note: str = ""


def solve(config: Configuration, formula: Qdimacs | None, path: Path, limit: float, model: bool = True, qcir_path: Path | None = None) -> Solved:
    """Preprocess (when the configuration says so) and run the solver, all within `limit` seconds.

    `path` holds the formula as the solver reads it (QDIMACS, or QCIR for a
    QCIR configuration, when `formula` is None).  A portfolio runs its
    members side by side, as `bddlc solve` does: the QCIR readers on
    `qcir_path` (unless preprocessing made a new QDIMACS), the others on `path`."""
    preprocessor = PREPROCESSORS[config.preprocess]
    reason = preprocessor.unavailable()
    if reason:
        return Solved(UNAVAILABLE, None, None, reason)
    spent, note = 0.0, ""
    if config.preprocess != "none":
        try:
            pre = preprocessor(formula, limit)
        except Exception as exc:  # a failing step is a result to record, not a crash of the whole run
            return Solved(ERROR, None, None, f"{config.preprocess} failed: {type(exc).__name__}: {exc}")
        spent, note = pre.seconds, pre.note
        if spent >= limit:
            return Solved(TIMEOUT, None, spent, note)
        if pre.decided is not None:
            return Solved(SOLVED, pre.decided, spent, note or f"decided by {config.preprocess}")
        if pre.formula is None:
            return Solved(ERROR, None, spent, f"{config.preprocess} returned neither a verdict nor a formula")
        loose = check_prefix(pre.formula)
        if loose:
            return Solved(ERROR, None, spent, f"{config.preprocess} left {len(loose)} clause variables unquantified")
        buffer = io.StringIO()
        write_qdimacs(pre.formula, buffer)
        path = path.with_name(f"{path.stem}-{config.preprocess}.qdimacs")
        path.write_text(buffer.getvalue(), encoding="ascii")
    if config.solver in solvers.PORTFOLIOS:
        jobs = [
            (name, qcir_path if solvers.FORMATS[name] == "qcir" and qcir_path and config.preprocess == "none" else path)
            for name in solvers.members(config.solver)
        ]
        run = solvers.run_portfolio(jobs, timeout=limit - spent, model=model)
    else:
        run = solvers.run_solver(config.solver, path, timeout=limit - spent, model=model)
    seconds = spent + run.seconds
    if run.status == "solved" and run.verdict is not None:
        return Solved(SOLVED, run.verdict, seconds, note)
    if run.status == "timeout":
        return Solved(TIMEOUT, None, seconds, note)
    tail = _last_lines(run.output, 2)
    return Solved(ERROR, None, seconds, "; ".join(filter(None, [note, f"{config.solver} gave no verdict: {tail}" if tail else f"{config.solver} gave no verdict"])))
