"""Black's strategy as a function: a position and the plies left in, a move out.

`play` and `validate` both ask "what does Black play here?"; keeping the
answer behind one callable type is what lets a test hand `validate` a
deliberately broken strategy and watch it fail.  The real one,
`SolverStrategy`, re-solves the game going on from the current position
(`compiler.model.GameModel.at_position`) with the plies that are left, for a
BDDL model and a `.pg` game alike, and remembers its answers: a move that
wins within r plies also wins within any r' >= r plies (the same strategy
still finishes in time), so one solve per position is enough for every later
visit with at least as many plies left.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from bddl.rules import Play, Position

from ..game_model import GameModel
from .processes.budget import NO_BUDGET, Budget
from .qbf.route import solve_model
from .results import SolveResult
from .qbf.solver_programs import DEFAULT_SOLVER

Strategy = Callable[[Position, int], "Play | None"]
"""Black to move in `position` with `plies` plies left: Black's move (a
`Play` of the game's rules), or None when Black has no winning move there
(as far as the strategy knows)."""


class StrategyUnknown(Exception):
    """The strategy could not decide on a move (a solver ran out of time, or the time budget is spent)."""


class SolverStrategy:
    """Black's moves from a QBF solver, re-solving from each new position."""

    def __init__(
        self,
        model: GameModel,
        *,
        solver: str = DEFAULT_SOLVER,
        preprocess: str = "none",
        timeout: float | None = None,
        encoding: str | None = None,
        budget: Budget = NO_BUDGET,
        engine: str = "qbf",
    ):
        self.model = model
        self.solver, self.preprocess, self.timeout, self.encoding = solver, preprocess, timeout, encoding
        self.budget = budget
        self.engine = engine  # `routes.answer`'s: qbf, search, or both raced for each position
        self.wins: dict[tuple[int, int], tuple[int, Play]] = {}  # board -> (fewest plies it was solved with, the move)
        self.losses: dict[tuple[int, int], int] = {}  # board -> most plies known not to be enough
        self.solves = 0
        self.last: SolveResult | None = None

    def __call__(self, position: Position, plies: int) -> Play | None:
        board = (position.black, position.white)
        known = self.wins.get(board)
        if known is not None and known[0] <= plies:
            return _at(known[1], position)
        if self.losses.get(board, 0) >= plies:
            return None
        if self.budget.spent():
            raise StrategyUnknown(self.budget.reason())
        if self.engine == "qbf":
            result = solve_model(
                self.model.at_position(position, plies),
                encoding=self.encoding,
                solver=self.solver,
                preprocess=self.preprocess,
                timeout=self.budget.timeout(self.timeout),
            )
        else:
            from .routes import answer

            result = answer(self.model.at_position(position, plies), engine=self.engine, encoding=self.encoding,
                            solver=self.solver, preprocess=self.preprocess, timeout=self.budget.timeout(self.timeout)).result
        self.solves += 1
        self.last = result
        if result.black_wins is None:
            raise StrategyUnknown(self.budget.reason() if self.budget.spent() else result.reason or "no verdict")
        if not result.black_wins:
            self.losses[board] = max(self.losses.get(board, 0), plies)
            return None
        if result.first_move is None:
            raise StrategyUnknown(result.reason or "no first move")
        self.wins[board] = (plies, result.first_move)
        return _at(result.first_move, position)


def _at(play: Play, position: Position) -> Play:
    """A move found in the game going on from `position`, as a move of the whole game."""
    return dataclasses.replace(play, after=dataclasses.replace(play.after, ply=position.ply + 1))
