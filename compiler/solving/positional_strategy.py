"""Black's strategy in a `.pg` positional game, move by move, and its check
against every White reply: what `bddlc play` and `bddlc validate` run on a
`.pg` game.

Black's move in a position is read from a fresh QBF solve of the game that
is left (the stones so far as initial stones, the time points left), so
each move is backed by its own verdict and confirmed by the explicit solver
(`solve_pg`).  The referee of `validate_pg` is the `.pg` semantics itself
(bddl/pg/game.py): a claim must be of an open cell (at the first time point,
of a `#firstmoves` cell); the first side to own a whole set of its own wins;
time points run out, or a mover with no open cell, and Black has not won.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NoReturn

from bddl.pg.game import BLACK, PositionalGame

from .positional import solve_pg


class StrategyUnknown(Exception):
    """The solver gave no verdict (time limit) for a position Black must move in."""


def game_at(game: PositionalGame, black: int, white: int, t: int) -> PositionalGame:
    """The game from time point t on, with the stones so far as initial stones."""
    cells = range(len(game.cells))
    return replace(
        game,
        times=game.times[t:],
        turns=game.turns[t:],
        black_initials=frozenset(c for c in cells if black >> c & 1),
        white_initials=frozenset(c for c in cells if white >> c & 1),
        first_moves=game.first_moves if t == 0 else None,
    )


def owns_a_set(stones: int, sets) -> bool:
    return any(stones & s == s for s in sets)


def black_has_won(game: PositionalGame, black: int) -> bool:
    """Black's stones (a mask) win: a whole Black set, or, in Hex (a graph
    and no sets), a chain joining the two borders."""
    if game.graph is not None and not game.black_wins:
        from bddl.pg.prune import black_connected

        return black_connected(game.graph, {c for c in range(len(game.cells)) if black >> c & 1})
    return owns_a_set(black, [game.mask(s) for s in game.black_wins])


class PgStrategy:
    """Black's claims, one solve per position (cached: transpositions meet)."""

    def __init__(self, game: PositionalGame, *, encoding: str | None = None, solver: str = "default",
                 timeout: float | None = None):
        self.game, self.encoding, self.solver, self.timeout = game, encoding, solver, timeout
        self.solves = 0
        self._known: dict[tuple[int, int], int | None] = {}

    def __call__(self, black: int, white: int, t: int) -> int | None:
        """Black's winning claim at time point t (None: Black has no win from here)."""
        key = (black, white)
        if key not in self._known:
            self.solves += 1
            result = solve_pg(game_at(self.game, black, white, t), encoding=self.encoding, solver=self.solver,
                              timeout=self.timeout)
            if result.black_wins is None or (result.black_wins and result.first_move is None):
                raise StrategyUnknown(result.reason or "no verdict")
            self._known[key] = self.game.cells.index(result.first_move) if result.black_wins else None
        return self._known[key]


@dataclass(frozen=True)
class PgValidation:
    lines: int  # lines of play that ended in a Black win
    complete: bool  # every White reply was tried
    failure: tuple[tuple[str, str], ...] | None = None  # the failing line: (side, cell) per claim
    reason: str | None = None  # why the failing line fails, or why validation stopped


class _Stop(Exception):
    pass


def validate_pg(game: PositionalGame, strategy: PgStrategy, max_lines: int | None = None) -> PgValidation:
    """Play the strategy against every White reply, depth first."""
    white_sets = tuple(game.mask(s) for s in game.white_wins)
    full = (1 << len(game.cells)) - 1
    first = full if game.first_moves is None else game.mask(game.first_moves)
    lines = 0
    line: list[tuple[str, str]] = []
    failure: list = []

    def fail(reason: str) -> NoReturn:
        failure.extend([tuple(line), reason])
        raise _Stop

    def walk(black: int, white: int, t: int) -> None:
        nonlocal lines
        open_cells = full & ~(black | white) & (first if t == 0 else full)
        if t == len(game.turns) or not open_cells:
            fail("the game is over and Black has not won")
        if game.turns[t] == BLACK:
            cell = strategy(black, white, t)
            if cell is None:
                fail("the solver finds no winning claim for Black here")
            if not open_cells >> cell & 1:
                fail(f"Black's claim {game.cells[cell]} is not an open cell it may claim")
            line.append((BLACK, game.cells[cell]))
            black |= 1 << cell
            if black_has_won(game, black):
                lines += 1
                if max_lines is not None and lines >= max_lines:
                    raise _Stop
            else:
                walk(black, white, t + 1)
            line.pop()
            return
        for cell in range(len(game.cells)):
            if open_cells >> cell & 1:
                line.append(("white", game.cells[cell]))
                if owns_a_set(white | 1 << cell, white_sets):
                    fail("White completes a winning set")
                walk(black, white | 1 << cell, t + 1)
                line.pop()

    black, white = game.mask(game.black_initials), game.mask(game.white_initials)
    try:
        walk(black, white, 0)
    except _Stop:
        if failure:
            return PgValidation(lines, False, failure[0], failure[1])
        return PgValidation(lines, False, reason=f"stopped after {lines} lines (--max-lines)")
    except StrategyUnknown as exc:
        return PgValidation(lines, False, reason=f"a solve gave no verdict ({exc})")
    return PgValidation(lines, True)
