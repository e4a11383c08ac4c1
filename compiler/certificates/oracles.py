"""Who wins from here?  The explicit engines, asked position by position.

The one module of `compiler.certificates` that knows the engines: each
oracle answers "does Black win from this position with the plies left?"
through the engines' public entry points, keeping one engine (and so its
table) for all the questions about one game, so that asking again about a
position the search has solved costs a lookup.  Keep it small: when the
engines change, this is the file to adjust.

* BDDL: df-pn (`bddl.engines.pns.ProofNumberSearch`, with mobility numbers),
  its solved table read through `known`;
* positional games: the positional solver (`bddl.engines.positional`),
  whose table is keyed by the position alone (the time point is implied), or
  the search that decided the game (the minimax or df-pn on the positional
  rules, `bddl.engines.positional_pns`), its table kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bddl.budget import MemoryBudgetExceeded, max_stored_positions, memory_limit
from bddl.rules import BLACK, WHITE, GameRules, Position

# a positional solver's stored position, all its tables counted: Hein 20 at 15 took 3.0 GB for
# 34,738,383 positions (docs/benchmarks.md), 93 bytes each
PG_ENTRY_BYTES = 100


@dataclass(frozen=True)
class Oracle:
    name: str  # the certificate's "produced_by"
    black_wins: Callable[[Position], bool]
    # the position after the engine's own move for the claim's strategist: Black's winning
    # move (claim True), White's refuting one (claim False); None where it names none
    own_move: Callable[[Position, bool], Position | None] | None = None


def engine_oracle(model, max_bytes: int | None = None, searched=None) -> Oracle:
    """The explicit engine of the model's language, its table held within `max_bytes`;
    on a positional game, `searched` (the solver of the search that decided it,
    `bddl.engines.positional.PgSearchResult.solver`) is asked instead of a new
    minimax, so that its table answers and its own moves make the strategy."""
    limit = memory_limit() if max_bytes is None else max_bytes
    if model.language == "pg":
        return _positional(model, limit, searched)
    return _dfpn(model, limit)


def _dfpn(model, limit: int) -> Oracle:
    from bddl.engines.minimax import SearchBudgetExceeded
    from bddl.engines.pns import ProofNumberSearch, game_sides, mobility_numbers

    rules: GameRules = model.rules
    game = rules.game  # type: ignore[attr-defined]
    cells = game.geometry.cells
    placements = sum(len(box) for side in (game.black, game.white) for box in side.boxes)
    capacity = max_stored_positions(cells, placements, limit)
    black, white = game_sides(game)
    engine = ProofNumberSearch(black, white, max_positions=1 << 62, capacity=max(capacity, 16), initial=mobility_numbers(black, white))
    depth = rules.depth

    def black_wins(position: Position) -> bool:
        to_move = rules.to_move(position.ply) == BLACK
        left = depth - position.ply
        known = engine.known(to_move, position.black, position.white, left)
        if known is not None:
            return known
        try:
            return engine.black_wins(to_move, position.black, position.white, left)
        except SearchBudgetExceeded as exc:  # not reached: the budget is unbounded, memory is bounded by the capacity
            raise MemoryBudgetExceeded("df-pn", exc.positions, limit) from None

    return Oracle("df-pn", black_wins)


def _positional(model, limit: int, searched=None) -> Oracle:
    """The positional solver (the minimax, `PositionalSolver`) or df-pn on the
    positional rules (`PositionalProofNumberSearch`): the same two questions,
    `decide` and `refutation`, each answered in the search's own order."""
    from bddl.engines.positional import PositionalSolver, SearchBudgetExceeded
    from bddl.engines.positional_pns import PositionalProofNumberSearch

    cap = max(1, limit // PG_ENTRY_BYTES)
    if isinstance(searched, (PositionalSolver, PositionalProofNumberSearch)):
        solver = searched
        # the questions to come may add `cap` positions to what the search stored
        solver.engine.max_positions = solver.positions + cap
    else:
        solver = PositionalSolver(model.pg, max_positions=cap)
    name = "df-pn" if isinstance(solver, PositionalProofNumberSearch) else "positional solver"

    def asked(question, *args):
        try:
            return question(*args)
        except SearchBudgetExceeded:
            raise MemoryBudgetExceeded(f"the {name}'s table of more than {cap:,} positions", cap * PG_ENTRY_BYTES, limit) from None

    def own_move(position: Position, black_wins: bool) -> Position | None:
        """The solver's own move, the first in its order of claims that keeps the claim:
        its search has refuted the claims before it, so this costs table lookups where
        another order would cost a search per move tried and rejected."""
        if black_wins:
            wins, cell = asked(solver.decide, position.black, position.white)
            return None if not wins or cell is None else Position(position.black | 1 << cell, position.white, position.ply + 1)
        cell = asked(solver.refutation, position.black, position.white)
        return None if cell is None else Position(position.black, position.white | 1 << cell, position.ply + 1)

    return Oracle(name, lambda position: asked(solver.decide, position.black, position.white)[0], own_move)


def qbf_chooser(model, solver: str = "default", timeout: float | None = None):
    """Black's moves from the QBF route, a solve per position Black reaches (as
    `bddlc validate` plays them): `compiler.solving.strategy.SolverStrategy`,
    one for both languages.  A solve without a verdict raises its StrategyUnknown."""
    from compiler.solving.strategy import SolverStrategy

    from .produce import Play

    rules: GameRules = model.rules
    strategy = SolverStrategy(model, solver=solver, timeout=timeout)

    def choose(position: Position, plays: list[Play]) -> Play | None:
        move = strategy(position, rules.depth - position.ply)
        if move is None:
            return None
        return next((p for p in plays if (p.after.black, p.after.white) == (move.after.black, move.after.white)), None)

    return choose


def rules_oracle(rules: GameRules) -> Oracle:
    """A plain minimax over the rules alone, one table for every question (small games, tests)."""
    table: dict[Position, bool] = {}

    def black_wins(p: Position) -> bool:
        if p.ply >= rules.depth:
            return False
        known = table.get(p)
        if known is None:
            plays = rules.plays(p)
            if not plays:
                known = rules.stuck_winner(rules.to_move(p.ply)) == BLACK
            elif rules.to_move(p.ply) == BLACK:
                known = any(rules.won(q.after, BLACK) or black_wins(q.after) for q in plays)
            else:
                known = all(not rules.won(q.after, WHITE) and black_wins(q.after) for q in plays)
            table[p] = known
        return known

    return Oracle("rules minimax", black_wins)
