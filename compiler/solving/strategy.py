"""Black's strategy as a function: the position and the plies left in, a move out.

`play` and `validate` both ask "what does Black play here?"; keeping the
answer behind one callable type is what lets a test hand `validate` a
deliberately broken strategy and watch it fail.  The real one,
`SolverStrategy`, re-solves from the current position with the plies that
are left (`compiler.solving.pipeline.problem_at`), and remembers its answers: a move
that wins within r plies also wins within any r' >= r plies (the same
strategy still finishes in time), so one solve per position is enough for
every later visit with at least as many plies left.
"""

from __future__ import annotations

from typing import Callable

from bddl.ast import Domain, Problem
from bddl.game import BLACK, Move, State

from ..encodings import SOLVE_ENCODING
from .budget import NO_BUDGET, Budget
from .pipeline import SolveResult, problem_at, solve
from .solver_programs import DEFAULT_SOLVER

Strategy = Callable[[State, int], "Move | None"]
"""Black to move in `state` with `plies` plies left: Black's move, or None
when Black has no winning move there (as far as the strategy knows)."""


class StrategyUnknown(Exception):
    """The strategy could not decide on a move (a solver ran out of time)."""


class SolverStrategy:
    """Black's moves from a QBF solver, re-solving from each new position."""

    def __init__(
        self,
        domain: Domain,
        problem: Problem,
        *,
        solver: str = DEFAULT_SOLVER,
        preprocess: str = "none",
        timeout: float | None = None,
        encoding: str = SOLVE_ENCODING,
        budget: Budget = NO_BUDGET,
    ):
        self.domain, self.problem = domain, problem
        self.solver, self.preprocess, self.timeout, self.encoding = solver, preprocess, timeout, encoding
        self.budget = budget
        self.wins: dict[State, tuple[int, Move]] = {}  # position -> (fewest plies it was solved with, the move)
        self.losses: dict[State, int] = {}  # position -> most plies known not to be enough
        self.solves = 0
        self.last: SolveResult | None = None

    def __call__(self, state: State, plies: int) -> Move | None:
        known = self.wins.get(state)
        if known is not None and known[0] <= plies:
            return known[1]
        if self.losses.get(state, 0) >= plies:
            return None
        if self.budget.spent():
            raise StrategyUnknown(self.budget.reason())
        result = solve(
            self.domain,
            problem_at(self.problem, state, plies, BLACK),
            solver=self.solver,
            preprocess=self.preprocess,
            timeout=self.budget.timeout(self.timeout),
            encoding=self.encoding,
        )
        self.solves += 1
        self.last = result
        if result.black_wins is None:
            raise StrategyUnknown(self.budget.reason() if self.budget.spent() else result.reason or "no verdict")
        if not result.black_wins:
            self.losses[state] = max(self.losses.get(state, 0), plies)
            return None
        if result.first_move is None:
            raise StrategyUnknown(result.reason or "no first move")
        self.wins[state] = (plies, result.first_move)
        return result.first_move
