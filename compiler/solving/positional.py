"""Solving a `.pg` positional game with a QBF solver: what `bddlc solve game.pg` runs.

The game is compiled by COR+ or COR (`compiler.encodings.POSITIONAL`),
written as QDIMACS and given to a solver program as a killable child
(`compiler.solving.verdicts`, the same run and Bloqqer path a BDDL model's
solve takes).  The time limit covers
everything, compiling included.  When Black wins and moves first, its first
move is read from the solver's assignment to the outermost block and named
by its cell and confirmed with the explicit solver (`bddl.engines.positional`, the
oracle of every positional encoding) within a budget of positions: a move
it refutes is a bug (`MoveCheckError`, never printed), a move it cannot
decide in the budget is shown as unchecked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from bddl.pg.game import BLACK, PositionalGame

from ..encodings import POSITIONAL_ENCODING, SOLVE_TSEITIN, encode_positional, pg_solve_encoding
from .preprocessing import PREPROCESSORS
from .results import EncodingSize, MoveCheckError, SolveResult, cell_play
from .solver_programs import DEFAULT_SOLVER, members
from .verdicts import decide

# Measured on the 180 GTTT games of the corpus (docs/benchmarks.md, "Positional games").
PG_SOLVE_ENCODING = POSITIONAL_ENCODING
PG_SOLVER = "depqbf"
# CAQE's light expansion refinement on ET: Hein 02 at depth 11 refuted in 8 s
# instead of 32 s, depth 13 proved in 40 s instead of no verdict in 60 s.
ENCODING_SOLVER_OPTIONS = {("et", "caqe"): ("--expansion-refinement", "light")}
PG_SOLVERS = {"et": "caqe", "en": "caqe", "ea": "caqe", "ln": "caqe", "la": "caqe", "sn": "caqe", "sa": "caqe"}


def default_encoding(game: PositionalGame) -> str:
    """The encoding `bddlc solve` uses for this game when not told (ET on Hex,
    measured on the Hein puzzles: docs/benchmarks.md, "Hex")."""
    return pg_solve_encoding(game)


# Options per program on these formulas: none.  DepQBF's long-distance
# resolution cut two GTTT 4x4 refutations from 18 s and 34 s to 6 s and 26 s,
# but over the 35 4x4 games measured both ways it took 498 s against 473 s
# without (docs/benchmarks.md, "Positional games").
PG_SOLVER_OPTIONS: dict[str, tuple[str, ...]] = {}
# Positions the explicit solver may expand to confirm a first move (a few
# seconds; the 4x4 GTTT games need far fewer).
CHECK_POSITIONS = 300_000


def encode_pg(game: PositionalGame, encoding: str | None = None):
    return encode_positional(game, encoding or default_encoding(game))


def solve_pg(
    game: PositionalGame,
    *,
    encoding: str | None = None,
    solver: str = DEFAULT_SOLVER,
    preprocess: str = "none",
    timeout: float | None = None,
    deepening: bool = True,
    stop: Callable[[], bool] | None = None,
) -> SolveResult:
    """Does Black win the game, and with which first move?

    With `deepening`, shallower games come first: the depths ending on
    Black's turn, in increasing order, each as long as the one before took
    under DEEPENING_STOP seconds.  A win within fewer time points is a win
    (Black stops the clock), and QBF solving time grows steeply with the
    depth: on 4x4 GTTT a game won within 7 of its 16 points is decided at
    depth 7 in under a second and not at all in 20 s at depth 16.  A
    refuted shallow depth says nothing about the game, so the full depth
    follows; what that costs a lost game is the shallow refutations, about
    a tenth of the full one.  `stop()`, when given, is asked while a solver
    runs: True kills it and the result is unknown (`depth --jobs`)."""
    if preprocess not in PREPROCESSORS:
        raise ValueError(f"unknown preprocessing {preprocess!r}; choose from {', '.join(PREPROCESSORS)}")
    encoding = encoding or default_encoding(game)
    solver = PG_SOLVERS.get(encoding, PG_SOLVER) if solver == DEFAULT_SOLVER else solver
    members(solver)  # ValueError for an unknown solver
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    limit = f"time limit of {timeout:g} s" if timeout is not None else "time limit"
    shallow = [d for d in range(1, game.depth) if game.turns[d - 1] == BLACK] if deepening else []
    if shallow and shallow[-1] == max((i + 1 for i, side in enumerate(game.turns) if side == BLACK), default=0):
        shallow.pop()  # the full game ends with that point (its trailing White points are dropped)
    for depth in shallow:
        began = time.perf_counter()
        attempt = _solve_once(game.with_depth(depth), encoding, solver, preprocess, deadline, limit, stop)
        if attempt.black_wins:
            return _result(attempt, game, solver, encoding, preprocess, start, depth)
        if attempt.black_wins is None or time.perf_counter() - began > DEEPENING_STOP:
            break
    return _result(_solve_once(game, encoding, solver, preprocess, deadline, limit, stop), game, solver, encoding, preprocess, start, game.depth)


# Deepening goes on to the next shallow depth only while each took less than this (seconds).
DEEPENING_STOP = 1.0


@dataclass(frozen=True)
class _Attempt:
    black_wins: bool | None
    size: EncodingSize
    black_first: bool
    reason: str | None = None
    note: str | None = None
    move: int | None = None  # Black's first claim (a cell of the game)
    checked: bool = False
    answered_by: str | None = None


def _result(attempt: _Attempt, game: PositionalGame, solver: str, encoding: str, preprocess: str, start: float, depth: int) -> SolveResult:
    move = None if attempt.move is None else cell_play(game, attempt.move)
    source = None if move is None else "checked" if attempt.checked else "unchecked"
    return SolveResult(
        attempt.black_wins, game.depth, solver, time.perf_counter() - start, attempt.size, move, attempt.reason,
        encoding, preprocess, attempt.note, attempt.black_first, source, attempt.answered_by, depth,
    )


def _solve_once(game: PositionalGame, encoding: str, solver: str, preprocess: str, deadline, limit: str, stop=None) -> _Attempt:
    """One formula, one solver run (after Bloqqer, if asked)."""
    compiled = encode_pg(game, encoding)
    formula = compiled.qdimacs(**SOLVE_TSEITIN)
    black_first = compiled.first_side == BLACK
    size = EncodingSize(formula.num_vars, None, formula.num_clauses)
    answered_by: list[str] = []

    def finish(verdict, reason=None, note=None, move=None, checked=False) -> _Attempt:
        return _Attempt(verdict, size, black_first, reason, note, move, checked, answered_by[0] if answered_by else None)

    options = {program: ENCODING_SOLVER_OPTIONS.get((encoding, program), PG_SOLVER_OPTIONS.get(program, ())) for program in members(solver)}
    verdict = decide(solver, preprocess, None, formula, deadline, limit, stop, options)  # QDIMACS for every program
    note = verdict.preprocess_note
    if verdict.answered_by:
        answered_by.append(verdict.answered_by)
    if verdict.black_wins is None:
        return finish(None, verdict.reason, note)
    if verdict.preprocessed:  # its assignment belongs to the preprocessed formula: no move read
        return finish(verdict.black_wins, None if not verdict.black_wins or not black_first else "no first move after preprocessing", note)
    if not verdict.black_wins or not black_first:
        return finish(verdict.black_wins, None if not verdict.black_wins else "White moves first: Black has no first move", note)
    if not verdict.model:
        return finish(True, f"{verdict.answered_by} prints no assignment: no first move", note)
    cell = compiled.game.cells[compiled.first_move(lambda var: verdict.model.get(var, False))]
    budget = check_budget(deadline)
    checked = check_first_move(game, cell, budget)
    if checked is False:
        raise MoveCheckError(f"{verdict.answered_by} says Black wins, but the explicit solver refutes its first move {game.cells[cell]}")
    reason = None if checked else f"first move not checked: the explicit solver needs more than {budget} positions"
    return finish(True, reason, note, cell, bool(checked))


# The explicit solver expands about 2,500 positions a second on a 2-core
# machine under moderate load (Hein 02 5x5 at depth 13: 535k positions in
# 217 s) and well under half that under heavy load, so the check gets half
# of what is left of the time limit at 1,000 a second: a check must not turn
# a verdict within the limit into an answer after it.
CHECK_RATE = 1_000


def check_budget(deadline: float | None) -> int:
    """Positions the first-move check may expand before the deadline."""
    if deadline is None:
        return CHECK_POSITIONS
    return max(0, min(CHECK_POSITIONS, int((deadline - time.perf_counter()) / 2 * CHECK_RATE)))


def check_first_move(game: PositionalGame, cell: int, max_positions: int = CHECK_POSITIONS) -> bool | None:
    """Does Black's first claim of `cell` keep the game won (None: not decided in the budget)?

    Asked of the explicit solver as a game of its own: the claim becomes a
    Black stone before play and the first time point is gone (a completed
    set then counts as won before play)."""
    from dataclasses import replace

    from bddl.engines.positional import SearchBudgetExceeded, solve

    if game.first_moves is not None and cell not in game.first_moves:
        return False
    if cell in game.black_initials | game.white_initials or not game.turns or game.turns[0] != BLACK:
        return False
    after = replace(game, times=game.times[1:], turns=game.turns[1:], black_initials=game.black_initials | {cell}, first_moves=None)
    try:
        return solve(after, max_positions=max_positions).black_wins
    except SearchBudgetExceeded:
        return None
