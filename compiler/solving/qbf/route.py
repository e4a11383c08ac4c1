"""The QBF route, once for every language: a formula, a solver program, a verdict.

`solve_model` is what solve, depth, play, validate and regress call.  It asks the model's
adapter (`GameModel.solve_qbf`), which owns its language's first-move policy, and the adapter
runs each formula through `run` here: the game compiled (`GameModel.formula`, the one
`compiler.game_model.Formula`), written as QDIMACS (QCIR for Qute, which is much stronger on
it), given to a solver program as a killable child (`solver_programs`, `verdicts`), and only a
verdict the solver gave reported.  The time limit (`Clock`) covers everything, compiling
included.  `QbfRun.assigned_move` reads Black's first move from the solver's assignment to the
outermost existential block and says whether the solver assigned every move bit the formula
uses; where it did not (QFun prints no assignment; after Bloqqer the assignment is the
preprocessed formula's), the adapter proves or checks the move its own way.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from bddl.at_once import soonest

from ..results import EncodingSize, SolveResult
from .preprocessing import PREPROCESSORS
from .solver_programs import DEFAULT_SOLVER, members
from .verdicts import Verdict, decide

if TYPE_CHECKING:
    from bddl.rules import Play
    from circuits import Qdimacs

    from ...game_model import Formula, GameModel


def solve_model(model: GameModel, *, encoding: str | None = None, **options) -> SolveResult:
    """Does Black win the game within the model's depth, and with which first move?

    The one entry point for both languages.  `encoding` None is the game's `solve_encoding`; one
    that does not fit raises `compiler.game_model.EncodingDoesNotFit`.  `options` are the same
    for both: `solver`, `preprocess`, `timeout` (seconds, compiling included) and `stop` (a
    callable; True kills the solver: `depth --jobs`)."""
    return _soonest(model, model.solve_qbf(encoding=encoding, **options))


def _soonest(model: GameModel, result: SolveResult) -> SolveResult:
    """The result with a win at once as its first move where Black has one (`bddl.at_once`):
    the solver's assignment names any winning move, and reading one (or proving one,
    or checking one with the explicit solver) costs more than the rules' goal test."""
    if not result.black_wins or not result.black_first or model.depth < 1:
        return result
    rules = model.rules
    move = soonest(rules, rules.initial, result.first_move)
    if move is None or move is result.first_move:
        return result
    return dataclasses.replace(result, first_move=move, move_source="at once", reason=None)


@dataclass(frozen=True)
class Clock:
    """The time limit of one answer, compiling and every follow-up solve included."""

    start: float
    deadline: float | None
    limit: str  # how a reason names it: "time limit of 5 s"

    @classmethod
    def started(cls, timeout: float | None) -> Clock:
        start = time.perf_counter()
        return cls(start, None if timeout is None else start + timeout,
                   f"time limit of {timeout:g} s" if timeout is not None else "time limit")

    def seconds(self) -> float:
        return time.perf_counter() - self.start


def check_options(solver: str, preprocess: str) -> None:
    """ValueError for an unknown solver program or preprocessing, before anything is compiled."""
    if solver != DEFAULT_SOLVER:
        members(solver)  # ValueError for an unknown solver
    if preprocess not in PREPROCESSORS:
        raise ValueError(f"unknown preprocessing {preprocess!r}; choose from {', '.join(PREPROCESSORS)}")


@dataclass(frozen=True)
class QbfRun:
    """One formula given to one solver program (after Bloqqer, if asked)."""

    formula: Formula
    qdimacs: Qdimacs
    verdict: Verdict
    size: EncodingSize

    def move(self, read: list[int] | None = None) -> Play | None:
        """Black's first move read from the solver's assignment (a bit it did not assign counts as
        false); `read`, when given, collects the variables the decoding read."""
        model = self.verdict.model

        def value(lit: int) -> bool:
            if read is not None:
                read.append(lit)
            return model.get(lit, False)

        return self.formula.decode_first_move(value)

    def assigned_move(self) -> tuple[Play | None, bool]:
        """`move`, and whether the solver assigned every move bit the formula uses.  A bit it left
        unassigned was filled in here (False), so the move must be proved; no bits read at all
        means one move, nothing to fill in."""
        read: list[int] = []
        move = self.move(read)
        model = self.verdict.model
        used = {abs(lit) for clause in self.qdimacs.clauses for lit in clause}
        unassigned = [lit for lit in read if lit in used and lit not in model]
        return move, bool((model or not read) and not unassigned)


def run(formula: Formula, *, program: str, preprocess: str, clock: Clock, stop: Callable[[], bool] | None = None,
        qcir: bool = True, options: Mapping[str, Sequence[str]] | None = None) -> QbfRun:
    """Decide `formula` with `program`.  `qcir`: a QCIR solver gets the circuit (a circuit's size
    is then counted by its inputs and gates); else every program gets the QDIMACS."""
    from circuits import numbering

    from ...encodings import SOLVE_TSEITIN

    qdimacs = formula.qdimacs(**SOLVE_TSEITIN)
    circuit = formula.circuit if qcir else None
    verdict = decide(program, preprocess, circuit, qdimacs, clock.deadline, clock.limit, stop, options)
    if circuit is not None:
        numbers = numbering(circuit)
        size = EncodingSize(numbers.num_inputs, len(numbers.gates), qdimacs.num_clauses)
    else:
        size = EncodingSize(qdimacs.num_vars, None, qdimacs.num_clauses)
    return QbfRun(formula, qdimacs, verdict, size)
