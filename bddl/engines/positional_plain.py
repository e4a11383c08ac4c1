"""The plain memoised minimax on a positional game: the rules and nothing else.

The Python reference for the compiled core's plain mode (`bddl.engines.compiled`): the two walk
the same tree in the same order and count the same positions (the core's table is bounded, so
they agree on the count wherever it evicted nothing), which is how the tests hold the core to the
rules.  It is the order of the animal games' referee (tests/pg/plain_minimax.py), extended to
Hex: at a Black node a completing claim wins at once (the lowest such cell is the claim reported),
else the open cells are tried in file order; at a White node a completing White claim loses for
Black at once, else White's blocks of Black's completing cells come first, then the other open
cells, each in file order.  A position is counted once, when its value is first computed
(terminal ones included); the time point is the number of stones, so the table key is the masks.

With `threats=True` it knows one thing more, the cheapest of the positional solver's cuts: where
the mover claims one cell before the other side's turn, the other side's completing cells (over
all open cells) are threats; two or more lose at once for the mover (it can block one), and one
must be blocked, so it is the mover's only claim (a lost position where the first-move set does
not hold it, unless the mover has no claim at all: then the game is over and Black has not won).  A completing claim of the mover's own comes first, as in the plain order.

What it does not know, on purpose: threats beyond one move, lost causes, pairings, relevance,
symmetries (`bddl.engines.positional` knows them, and is the default search).  Every value is
exact, so the order, the table and the threats change the time, never the answer.
"""

from __future__ import annotations

import sys
import time

from ..pg.game import BLACK, PositionalGame
from .minimax import DEFAULT_MAX_POSITIONS, SearchBudgetExceeded
from .positional import PgSearchResult


class PlainSearch:
    """One game's plain minimax and its (unbounded) table."""

    def __init__(self, game: PositionalGame, max_positions: int = DEFAULT_MAX_POSITIONS, threats: bool = False):
        self.n = n = len(game.cells)
        self.full = (1 << n) - 1
        self.black_turn = tuple(side == BLACK for side in game.turns)
        self.depth = len(self.black_turn)
        # one_stone[t]: t's mover claims one cell before the other side's turn (the threats' cases)
        self.one_stone = tuple(threats and t + 1 < self.depth and self.black_turn[t + 1] != self.black_turn[t]
                               for t in range(self.depth))
        self.black_sets = tuple(game.mask(s) for s in game.black_wins)
        self.white_sets = tuple(game.mask(s) for s in game.white_wins)
        self.b0, self.w0 = game.mask(game.black_initials), game.mask(game.white_initials)
        self.start = (self.b0 | self.w0).bit_count()
        self.first = self.full if game.first_moves is None else game.mask(game.first_moves)
        self.graph = game.graph
        if game.graph is not None:
            self.nbr = tuple(game.mask(frozenset(ns)) for ns in game.graph.neighbours)
            self.start_border = game.mask(game.graph.start_border)
            self.end_border = game.mask(game.graph.end_border)
        self.max_positions = max_positions
        self.positions = 0
        self.table: dict[tuple[int, int], bool] = {}
        self.first_move: int | None = None

    def black_wins(self) -> bool:
        b, w = self.b0, self.w0
        if any(m & w == m for m in self.white_sets):
            return False
        if self._black_won(b):
            return True
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * (self.depth + 50)))  # one frame per time point, two calls each
        try:
            return self._value(b, w, 0)
        finally:
            sys.setrecursionlimit(limit)

    def _value(self, b: int, w: int, t: int) -> bool:
        key = (b, w)
        known = self.table.get(key)
        if known is not None:
            return known
        self.positions += 1
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions)
        result = False
        if t < self.depth:
            open_cells = self.full & ~(b | w)
            if t == 0:
                open_cells &= self.first
            result = self._black(b, w, t, open_cells) if self.black_turn[t] else self._white(b, w, t, open_cells)
        self.table[key] = result
        return result

    def _black(self, b: int, w: int, t: int, open_cells: int) -> bool:
        wins = self._completing(b, open_cells)
        if wins:
            if t == 0:
                self.first_move = (wins & -wins).bit_length() - 1
            return True
        rest = open_cells
        if self.one_stone[t]:
            threats = self._white_completing(w, self.full & ~(b | w))
            if threats & (threats - 1) or threats & ~open_cells:  # two, or one Black may not take
                return False
            if threats:
                rest = threats
        while rest:
            low = rest & -rest
            rest ^= low
            if self._value(b | low, w, t + 1):
                if t == 0:
                    self.first_move = low.bit_length() - 1
                return True
        return False

    def _white(self, b: int, w: int, t: int, open_cells: int) -> bool:
        if self._white_completing(w, open_cells):
            return False
        blocks = self._completing(b, open_cells)
        parts = (blocks, open_cells & ~blocks)
        if self.one_stone[t] and open_cells:  # (no open cell: the game is over, below)
            threats = self._completing(b, self.full & ~(b | w))
            if threats & (threats - 1) or threats & ~open_cells:  # two, or one White may not take
                return True
            if threats:
                parts = (threats, 0)
        for part in parts:
            while part:
                low = part & -part
                part ^= low
                if not self._value(b, w | low, t + 1):
                    return False
        return bool(open_cells)  # no open cell: the game is over and Black has not won

    def _completing(self, b: int, open_cells: int) -> int:
        """The open cells whose claim completes a Black goal."""
        if self.graph is not None:  # a claim touching both borders' groups (or on a border) joins them
            _, near_start = self._reach(b & self.start_border, b)
            _, near_end = self._reach(b & self.end_border, b)
            return open_cells & (near_start | self.start_border) & (near_end | self.end_border)
        return _one_short(self.black_sets, b, open_cells)

    def _white_completing(self, w: int, open_cells: int) -> int:
        """The open cells whose claim completes a White set."""
        return _one_short(self.white_sets, w, open_cells)

    def _black_won(self, b: int) -> bool:
        if self.graph is not None:
            return bool(self._reach(b & self.start_border, b)[0] & self.end_border)
        return any(m & b == m for m in self.black_sets)

    def _reach(self, seeds: int, within: int) -> tuple[int, int]:
        """The cells of `within` connected to `seeds`, and the cells next to them."""
        reach = todo = seeds
        near = 0
        while todo:
            low = todo & -todo
            todo ^= low
            around = self.nbr[low.bit_length() - 1]
            near |= around
            grow = around & within & ~reach
            reach |= grow
            todo |= grow
        return reach, near


def solve_plain(game: PositionalGame, max_positions: int = DEFAULT_MAX_POSITIONS, threats: bool = False) -> PgSearchResult:
    """Decide the game by the plain minimax (with the one-move threats: `threats`); raises
    `SearchBudgetExceeded`."""
    start = time.perf_counter()
    search = PlainSearch(game, max_positions, threats)
    wins = search.black_wins()
    return PgSearchResult(wins, game.depth, search.first_move if wins else None, search.positions,
                          time.perf_counter() - start, 1)


def _one_short(sets, owned: int, open_cells: int) -> int:
    """The open cells that are the one cell a set of `sets` still misses beside `owned`."""
    found = 0
    for m in sets:
        missing = m & ~owned
        if missing and (missing & (missing - 1)) == 0 and missing & open_cells:
            found |= missing
    return found
