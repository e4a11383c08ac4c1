"""Solving a game with a real QBF solver: the library behind solve, depth, play and validate.

`solve` compiles a model in memory, writes QDIMACS (QCIR for Qute, which is
much stronger on it) to a temporary file, runs a solver program as a
killable child (`compiler.solving.solver_programs`) and reports only a verdict the solver
gave.  The time limit covers everything, compiling included.  When Black
wins and moves first, Black's first move is read from the solver's
assignment to the outermost existential block (Black's first move block)
and checked against the game engine before anyone sees it:

* a move read from the solver's own assignment to the original formula must
  be legal; if it is not, that is a bug (`MoveCheckError`, never printed);
* when there is no such assignment (QFun prints none; after Bloqqer the
  assignment belongs to the preprocessed formula, which Bloqqer cannot map
  back), candidate moves are *proved* winning instead: apply the move with
  the engine, then solve the position after it (`problem_at`) with one ply
  fewer and White to move.  The solver's move, when it named a legal one,
  is tried first; the others follow in the engine's order.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

from bddl.ast import Domain, Problem
from bddl.at_once import soonest
from bddl.game import BLACK, WHITE, Game, Move, State
from circuits import Qdimacs, numbering, to_qdimacs

from ..encodings import SOLVE_ENCODING, SOLVE_TSEITIN, encode, encoding_name
from ..encodings.decoding import engine_move
from ..model import GameModel, problem_at
from .positional import solve_pg
from .preprocessing import PREPROCESSORS
from .results import EncodingSize, MoveCheckError, SolveResult, bddl_play
from .solver_programs import DEFAULT_SOLVER, default_solver, members
from .verdicts import Verdict, decide, remaining, time_left

__all__ = ["EncodingSize", "MoveCheckError", "SolveResult", "problem_at", "solve", "solve_model"]


def solve_model(model: GameModel, *, encoding: str | None = None, **options) -> SolveResult:
    """Does Black win the game within the model's depth, and with which first move?

    The one entry point for both languages: a BDDL model is solved as this
    module's docstring says, a `.pg` game by `compiler.solving.positional`
    (shallower depths first, the first move confirmed by the explicit
    solver).  `encoding` None is the game's `solve_encoding`; one that does
    not fit raises `compiler.model.EncodingDoesNotFit`.  `options` are the
    same for both: `solver`, `preprocess`, `timeout` (seconds, compiling
    included) and `stop` (a callable; True kills the solver: `depth --jobs`)."""
    if model.pg is not None:
        name = model.check_encoding(encoding) if encoding is not None else None
        result = solve_pg(model.pg, encoding=name, **options)
    else:
        assert model.bddl is not None
        if encoding is not None and encoding != SOLVE_ENCODING:
            encoding = model.check_encoding(encoding)
        result = solve(model.bddl.domain, model.bddl.problem, encoding=encoding or SOLVE_ENCODING, **options)
    return _soonest(model, result)


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


def solve(
    domain: Domain,
    problem: Problem,
    depth: int | None = None,
    *,
    solver: str = DEFAULT_SOLVER,
    preprocess: str = "none",
    timeout: float | None = None,
    encoding: str = SOLVE_ENCODING,
    stop: Callable[[], bool] | None = None,
) -> SolveResult:
    """Does Black win within `depth` plies (default: the problem's), and with which first move?

    `stop()`, when given, is asked while the solver runs: True kills it and
    the result is unknown (`depth --jobs` stops solves made pointless)."""
    if solver != DEFAULT_SOLVER:
        members(solver)  # ValueError for an unknown solver
    if preprocess not in PREPROCESSORS:
        raise ValueError(f"unknown preprocessing {preprocess!r}; choose from {', '.join(PREPROCESSORS)}")
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    limit = f"time limit of {timeout:g} s" if timeout is not None else "time limit"
    depth = problem.depth if depth is None else depth
    problem = dataclasses.replace(problem, depth=depth)
    compiled = encode(domain, problem, depth, encoding)
    compiled_as = encoding_name(compiled, encoding)
    program = default_solver(compiled_as) if solver == DEFAULT_SOLVER else solver
    numbers = numbering(compiled.circuit)
    formula = to_qdimacs(compiled.circuit, **SOLVE_TSEITIN)
    verdict = decide(program, preprocess, compiled.circuit, formula, deadline, limit, stop)
    move, reason, source = None, verdict.reason, None
    if verdict.black_wins and not problem.black_first:
        reason = "White moves first: Black has no first move"
    elif verdict.black_wins:
        # a follow-up solve asks for what this one was asked for ("default", "auto"), not what they resolved to
        retry = _Retry(solver, encoding, preprocess, deadline, limit, stop)
        move, reason, source = _first_move(domain, problem, compiled, numbers, formula, verdict, program, retry)
    return SolveResult(
        verdict.black_wins,
        depth=depth,
        solver=program,
        seconds=time.perf_counter() - start,
        size=EncodingSize(numbers.num_inputs, len(numbers.gates), formula.num_clauses),
        first_move=None if move is None else bddl_play(Game(domain, problem), Game(domain, problem).initial, move),
        reason=reason,
        encoding=compiled_as,
        preprocess=preprocess,
        preprocess_note=verdict.preprocess_note,
        black_first=problem.black_first,
        move_source=source,
        answered_by=verdict.answered_by,
        depth_solved=depth,
    )


@dataclass(frozen=True)
class _Retry:
    """How to solve again while proving a first move: as the caller asked, with the time left."""

    solver: str
    encoding: str
    preprocess: str
    deadline: float | None
    limit: str
    stop: Callable[[], bool] | None = None


def _first_move(domain, problem, compiled, numbers, formula: Qdimacs, verdict: Verdict, program: str, retry: _Retry):
    """Black's first move, checked by the engine: (move, reason there is none, "solver" or "proved")."""
    game = Game(domain, problem)
    read: list[int] = []

    def value(var: int) -> bool:
        read.append(var)
        return verdict.model.get(numbers.lit(var), False)

    decoded = compiled.decode_move(compiled.steps[0], value)
    proposed = None if decoded is None else engine_move(game, game.initial, decoded)
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    # A move bit the formula uses that the solver left unassigned (QFun prints
    # no assignment; after Bloqqer there is none of the original formula) was
    # filled in by us, so the move must be proved.  No bits at all: one move.
    unassigned = [v for v in read if numbers.lit(v) in used and numbers.lit(v) not in verdict.model]
    if (verdict.model or not read) and not unassigned:
        if proposed is None:
            raise MoveCheckError(
                f"{program} says Black wins, but its first move {decoded or '(the bits name no move)'} "
                "is not legal in the initial position"
            )
        return proposed, None, "solver"
    move, reason = first_winning_move(
        domain, problem, game, proposed, solver=retry.solver, preprocess=retry.preprocess, encoding=retry.encoding,
        deadline=retry.deadline, limit=retry.limit, stop=retry.stop,
    )
    return move, reason, "proved" if move else None


def first_winning_move(domain, problem, game, proposed, *, solver, preprocess, encoding, deadline, limit="time limit", stop=None):
    """A first move for Black proved winning by solving the position after it.

    Returns (move, None) or (None, reason).  Used when the solver's
    assignment cannot be trusted as a model of the original formula."""
    candidates = [m for m in _distinct_moves(game, game.initial, BLACK)]
    if proposed is not None:
        candidates = [proposed] + [m for m in candidates if m.state != proposed.state]
    for move in candidates:
        if game.won(move.state, BLACK):
            return move, None
        if problem.depth < 2:
            continue
        if remaining(deadline) <= 0:
            return None, f"{limit} (reached while proving a first move)"
        after = solve(
            domain,
            problem_at(problem, move.state, problem.depth - 1, WHITE),
            solver=solver,
            preprocess=preprocess,
            timeout=time_left(deadline),
            encoding=encoding,
            stop=stop,
        )
        if after.black_wins:
            return move, None
        if after.black_wins is None:
            reason = after.reason or "no verdict"
            if reason.startswith("time limit"):
                reason = f"{limit} (reached while proving a first move)"
            return None, reason
    raise MoveCheckError(f"{solver} says Black wins, but no first move of Black's could be proved winning")


def _distinct_moves(game: Game, state: State, side: str) -> list[Move]:
    seen, moves = set(), []
    for move in game.moves(state, side):
        if move.state not in seen:
            seen.add(move.state)
            moves.append(move)
    return moves
