"""Running real QBF solvers with an honest time limit.

pyqbf's in-process solvers cannot be interrupted (they hold the GIL, signals
wait) and DepQBF's own time limit answers "false", indistinguishable from a
real refutation (docs/qbf-solvers.md §1).  So every solve here runs the
solver program pyqbf installs as a child process in its own process group
(`compiler.solving.processes.processes`: it dies with bddlc, however bddlc ends), kills
the whole group at the limit, and trusts only the exit codes 10 (true)
and 20 (false).  A verdict the solver did not give is never reported.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from ..processes.processes import Child, spawn, temporary_folder

STOP_POLL = 0.05  # seconds between two looks at a solve's stop flag

SOLVERS = ("depqbf", "caqe", "qute", "rareqs", "qfun")
# Portfolios run their members side by side and take the first verdict.
# RACING_PORTFOLIO ("auto"; not the encoding "auto", `compiler.encodings.
# AUTO_ENCODING`, which picks one encoding): Qute on QCIR and DepQBF on
# QDIMACS each decide instances the other does not (on the corpus at 10 s: 51
# and 50 of 56, 53 together), and the machines we target have two cores.  Not the default: which member answers
# first varies from run to run, and with it the first move shown.
RACING_PORTFOLIO = "auto"
PORTFOLIOS = {RACING_PORTFOLIO: ("qute", "depqbf")}
# "default" is not a program: it names the best solver for the encoding at
# hand (`default_solver`).
DEFAULT_SOLVER = "default"
SOLVER_CHOICES = (DEFAULT_SOLVER,) + SOLVERS + tuple(PORTFOLIOS)
# The best single solver per encoding.  Qute on QCIR for the general ones (on
# the explicit encoding: 54 of the 56 answered corpus instances within 60 s,
# DepQBF 53); DepQBF for the corrective encoding, a CNF made of binary
# implication chains, where Qute and CAQE finish none of the 4x4 HTTT and Hex
# instances that DepQBF decides in 10-20 s (docs/benchmarks.md).
BEST_SOLVER = {"corrective": "depqbf"}
GENERAL_SOLVER = "qute"


def default_solver(encoding: str) -> str:
    """The program `--solver default` runs on a formula of this encoding."""
    return BEST_SOLVER.get(encoding, GENERAL_SOLVER)

# Options that make each program print the outermost existential block's
# values (the "partial certificate"), where it can.
MODEL_OPTIONS = {
    "depqbf": ["--qdo", "--no-dynamic-nenofex"],
    "caqe": ["--qdo"],
    "qute": ["--partial-certificate"],
    "rareqs": [],
    "qfun": [],
}

# The file format each solver is given.  Qute reads QCIR, and on the suite's
# default encoding it decides 106 of 118 instances in 5 s from QCIR against
# 57 from the Tseitin QDIMACS (docs/solving.md).  Our QCIR writer emits only
# the gate forms Qute is known to handle correctly (docs/qbf-solvers.md §2).
FORMATS = {"depqbf": "qdimacs", "caqe": "qdimacs", "qute": "qcir", "rareqs": "qdimacs", "qfun": "qdimacs"}


class SolverNotFound(RuntimeError):
    pass


def members(solver: str) -> tuple[str, ...]:
    """The solver programs a solver name runs: a portfolio's members, or the one program."""
    if solver in PORTFOLIOS:
        return PORTFOLIOS[solver]
    if solver == DEFAULT_SOLVER:
        raise ValueError("the default solver depends on the encoding: resolve it with default_solver() first")
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose from {', '.join(SOLVER_CHOICES)}")
    return (solver,)


@lru_cache(maxsize=None)
def solver_dir() -> Path:
    """The folder with pyqbf's real solver programs (not the slow Python wrappers on PATH)."""
    import importlib.util

    spec = importlib.util.find_spec("pyqbf")
    if spec is None or spec.origin is None:
        raise SolverNotFound("pyqbf is not installed: pip install pyqbf")
    # site-packages/cmeel.prefix/lib/pythonX.Y/site-packages/pyqbf/__init__.py -> cmeel.prefix/bin
    return Path(spec.origin).resolve().parents[4] / "bin"


def solver_path(name: str) -> Path:
    if name not in SOLVERS:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}")
    path = solver_dir() / f"pyqbf_{name}"
    if not path.exists():
        raise SolverNotFound(f"the {name} program is not where pyqbf installs it ({path})")
    return path


@dataclass(frozen=True)
class SolverRun:
    """What a solver said: `verdict` True/False, or None when it gave none."""

    solver: str
    verdict: bool | None
    seconds: float
    status: str  # "solved" | "timeout" | "error" | "stopped" (its answer was no longer wanted)
    model: dict[int, bool] = field(default_factory=dict)  # values of outer-block variables, when printed
    output: str = ""


def parse_model(solver: str, output: str) -> dict[int, bool]:
    """The variable values a solver printed: `V lit 0` lines (DepQBF, CAQE),
    `V +1 -2` (RAReQS) or a bare `1 -2 0` line (Qute; on QCIR input it also
    names auxiliary variables such as `-2.e`, which are skipped)."""
    values: dict[int, bool] = {}
    for line in output.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "V":
            words = words[1:]
        elif solver != "qute" or words[-1] != "0" or not all(_is_literal(w.split(".")[0]) for w in words):
            continue
        for word in words:
            if not _is_literal(word):
                continue
            lit = int(word)
            if lit != 0:
                values[abs(lit)] = lit > 0
    return values


def _is_literal(word: str) -> bool:
    return word.lstrip("+-").isdigit()


def run_solver(
    name: str,
    path: str | Path,
    timeout: float | None = None,
    model: bool = True,
    options: Sequence[str] = (),
    stop: Callable[[], bool] | None = None,
) -> SolverRun:
    """Run solver `name` on a file; kill it (and anything it started) at `timeout`
    seconds, or as soon as `stop()` says its answer is no longer wanted (status "stopped").

    Output goes to a file, not a pipe, so a chatty solver never blocks on a full pipe."""
    command = _command(name, path, model, options)
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        proc = spawn(command, stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            status = _wait(proc, start, timeout, stop)
        finally:
            if proc.returncode is None:  # timed out, stopped, or we are interrupted
                _kill_group(proc)
                proc.wait()
        log.seek(0)
        out = log.read()
    seconds = time.perf_counter() - start
    if status != "finished":
        return SolverRun(name, None, seconds, status, {}, out)
    return _finished(name, proc.returncode, seconds, out)


def _wait(proc: Child, start: float, timeout: float | None, stop: Callable[[], bool] | None) -> str:
    """Wait for the child: "finished", "timeout" or "stopped"."""
    if stop is None:
        try:
            proc.wait(timeout)
            return "finished"
        except subprocess.TimeoutExpired:
            return "timeout"
    while True:
        left = None if timeout is None else timeout - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return "timeout"
        try:
            proc.wait(STOP_POLL if left is None else min(STOP_POLL, left))
            return "finished"
        except subprocess.TimeoutExpired:
            if stop():
                return "stopped"


def _command(name: str, path: str | Path, model: bool, options: Sequence[str] = ()) -> list[str]:
    return [str(solver_path(name))] + (MODEL_OPTIONS[name] if model else []) + list(options) + [str(path)]


def _finished(name: str, returncode: int, seconds: float, out: str) -> SolverRun:
    """A finished program's run: a verdict only from the exit codes 10 and 20."""
    verdict = {10: True, 20: False}.get(returncode)
    if verdict is None:
        return SolverRun(name, None, seconds, "error", {}, out)
    return SolverRun(name, verdict, seconds, "solved", parse_model(name, out) if verdict else {}, out)


def run_portfolio(
    jobs: Sequence[tuple[str, str | Path]],
    timeout: float | None = None,
    model: bool = True,
    stop: Callable[[], bool] | None = None,
) -> SolverRun:
    """Run several (solver, file) jobs side by side; the first verdict wins.

    The race runs through `compiler.solving.processes.cluster.LocalRunner`, the machinery of
    `depth --jobs`: the others are stopped (their solvers killed) the moment
    one answers, and all of them at `timeout` or when `stop()` says so.
    The run reports the solver that answered; with no verdict, "timeout" or
    the last error."""
    from ..processes.cluster import LocalRunner

    start = time.perf_counter()
    failed: SolverRun | None = None
    with LocalRunner(len(jobs)) as runner:
        for index, (name, path) in enumerate(jobs):
            runner.submit(index, _member, name, path, timeout, model, stop)
        while (finished := runner.done()) is not None:
            _, run = finished
            if isinstance(run, BaseException):
                raise run
            if run.verdict is not None:
                return run
            if run.status in ("timeout", "stopped"):
                names = "+".join(name for name, _ in jobs)
                return SolverRun(names, None, time.perf_counter() - start, run.status)
            failed = run
    if failed is None:
        raise ValueError("a portfolio needs at least one job")
    return failed


def _member(name: str, path: str | Path, timeout: float | None, model: bool, stop_race: Callable[[], bool] | None, stop: Callable[[], bool]) -> SolverRun:
    """One portfolio member: stopped when the race is decided, or when the caller's `stop_race` says so."""
    wanted = stop if stop_race is None else (lambda: stop() or stop_race())
    return run_solver(name, path, timeout, model, stop=wanted)


def _kill_group(proc: Child) -> None:
    proc.kill_group()


def run_solver_on_text(
    name: str, text: str, suffix: str, timeout: float | None = None, model: bool = True, options: Sequence[str] = ()
) -> SolverRun:
    """Write `text` to a temporary file and run the solver on it."""
    with temporary_folder() as folder:
        path = Path(folder) / f"formula{suffix}"
        path.write_text(text, encoding="ascii")
        return run_solver(name, path, timeout, model, options)
