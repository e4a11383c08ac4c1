"""A formula's verdict from a solver program (after Bloqqer, if asked), with the time left.

Both languages' solves (`pipeline` for a BDDL model, `positional` for a
`.pg` game) ask the same question here: the formula (QCIR where a program is
best at it and the formula has a circuit, else QDIMACS) goes to a solver
program, or a portfolio's members side by side, as killable children; only
a verdict the program gave counts, and an assignment is kept only when it is
one of the original formula (Bloqqer's is of the preprocessed one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from circuits import Qdimacs, write_qcir, write_qdimacs

from ..processes import processes
from .preprocessing import bloqqer
from .solver_programs import FORMATS, SolverRun, members, run_portfolio, run_solver


@dataclass(frozen=True)
class Verdict:
    """What the solver (or Bloqqer) said about the formula."""

    black_wins: bool | None
    reason: str | None = None  # why there is no verdict
    preprocess_note: str | None = None
    answered_by: str | None = None  # the program that gave the verdict
    model: dict[int, bool] = field(default_factory=dict)  # an assignment of the original formula, if any
    preprocessed: bool = False  # the verdict is on Bloqqer's formula (or Bloqqer's own): no assignment of the original


def decide(
    solver: str,
    preprocess: str,
    circuit,
    formula: Qdimacs,
    deadline: float | None,
    limit: str,
    stop: Callable[[], bool] | None = None,
    options: Mapping[str, Sequence[str]] | None = None,
) -> Verdict:
    """The verdict on the formula: Bloqqer's, when asked for and it decides, else the solver's.
    `options`: extra command-line options per program, for a run of one program."""
    note = None
    if preprocess == "bloqqer":
        if remaining(deadline) <= 0:
            return Verdict(None, f"{limit} (reached while compiling)")
        pre = bloqqer(formula, time_left(deadline))
        note = pre.note
        if pre.status == "decided" and pre.verdict is not None:
            return Verdict(pre.verdict, preprocess_note=note, preprocessed=True)
        if pre.formula is not None:
            run = run_formula(solver, deadline, formula=pre.formula, stop=stop, options=options)
            if run.verdict is None:
                return Verdict(None, unknown_reason(run, limit), note)
            # its assignment is to the preprocessed formula: not used
            return Verdict(run.verdict, preprocess_note=note, answered_by=run.solver, preprocessed=True)
        if pre.status == "timeout":
            return Verdict(None, f"{limit} (reached while preprocessing)", note)
    run = run_formula(solver, deadline, circuit=circuit, formula=formula, stop=stop, options=options)
    if run.verdict is None:
        return Verdict(None, unknown_reason(run, limit), note)
    return Verdict(run.verdict, preprocess_note=note, answered_by=run.solver, model=run.model)


def remaining(deadline: float | None) -> float:
    return float("inf") if deadline is None else deadline - time.perf_counter()


def time_left(deadline: float | None) -> float | None:
    """The time left as a timeout argument (None: no limit)."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.0)


def run_formula(
    solver: str,
    deadline: float | None,
    *,
    circuit=None,
    formula: Qdimacs | None = None,
    stop=None,
    options: Mapping[str, Sequence[str]] | None = None,
) -> SolverRun:
    """Run the solver (a portfolio: all its members at once) with whatever time is left.

    Each program gets the format it is best at (`FORMATS`) when that is at
    hand, else the QDIMACS, which every program reads."""
    if remaining(deadline) <= 0:
        return SolverRun(solver, None, 0.0, "timeout")
    given = {"qcir": circuit, "qdimacs": formula}
    with processes.temporary_folder() as folder:
        jobs = []
        for name in members(solver):
            kind = FORMATS[name] if given[FORMATS[name]] is not None else "qdimacs"
            path = Path(folder) / f"formula.{kind}"
            if not path.exists():
                with open(path, "w", encoding="ascii", newline="\n") as fh:
                    (write_qcir if kind == "qcir" else write_qdimacs)(given[kind], fh)
            jobs.append((name, path))
        if len(jobs) == 1:
            return run_solver(*jobs[0], time_left(deadline), options=(options or {}).get(jobs[0][0], ()), stop=stop)
        return run_portfolio(jobs, time_left(deadline), stop=stop)


def unknown_reason(run, limit: str) -> str:
    if run.status == "timeout":
        return limit
    if run.status == "stopped":
        return "stopped: the answer was no longer needed"
    last = run.output.strip().splitlines()[-1:] or ["no output"]
    return f"{run.solver} gave no verdict ({last[0][:200]})"
