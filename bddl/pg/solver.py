"""Does Black win the positional game?  The exact explicit solver: the oracle
that every QBF encoding of positional games (COR, COR+, Hex's) is tested against.

The rules are the representation's (`bddl.pg.game`, docs/positional.md): at
each time point the mover claims one open cell (the first one from the
first-move set, if the game has one); the first side to own a whole winning
set of its own wins (Hex: Black wins once its cells join the two borders);
when the time points run out, or the mover has no open cell, the game is over
and Black has not won.  Before the first move, a side that already owns a
winning set has won (Black only if White does not own one too).

How it stays fast enough for the 4x4 GTTT files:

* a position is two bitmasks; the time point is implied (one cell per time
  point), so the transposition table is keyed by the masks alone, and a
  (p,q) turn's stones claimed in any order meet in one entry;
* Black's goal is checked only for the sets through the cell just claimed;
* a side that can complete a goal now does so (winning moves first), and the
  cells that would complete the other side's goal are tried next (blocks);
* a position where no Black goal can be completed with Black's remaining
  time points is lost for Black at once (for Hex: the fewest open cells that
  join the borders is more than Black has moves left);
* positions equal up to a board symmetry (`geometry.symmetries`: the checked
  rotations, reflections and torus shifts) share one table entry, through a
  canonical key computed with per-byte lookup tables.

The budget contract is `bddl.search`'s: `SearchBudgetExceeded` after
`max_positions` expanded positions.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from dataclasses import dataclass

from ..search import DEFAULT_MAX_POSITIONS, SearchBudgetExceeded
from .game import BLACK, PositionalGame
from .geometry import symmetries as board_symmetries

SYMMETRY_AFTER = 2000

__all__ = ["PgSearchResult", "PositionalSolver", "SearchBudgetExceeded", "solve"]


@dataclass(frozen=True)
class PgSearchResult:
    black_wins: bool
    depth: int  # the number of time points
    first_move: int | None  # a winning first claim, when Black moves first and wins
    positions: int  # positions expanded
    seconds: float
    symmetries: int  # the size of the symmetry group used (1: none)


def solve(
    game: PositionalGame,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    use_symmetries: bool = True,
    symmetry_after: int = SYMMETRY_AFTER,
) -> PgSearchResult:
    """Decide the game from its initial position; raises `SearchBudgetExceeded`.

    Symmetries are used once the search has expanded `symmetry_after` positions."""
    start = time.perf_counter()
    solver = PositionalSolver(game, max_positions, use_symmetries, symmetry_after)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    wins, move = solver.decide(b, w)
    return PgSearchResult(wins, game.depth, move, solver.positions, time.perf_counter() - start, len(solver.perms))


class PositionalSolver:
    """The search, with its table; reusable across positions of one game
    (`play` and `validate` ask it about positions along a line of play)."""

    def __init__(
        self,
        game: PositionalGame,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        use_symmetries: bool = True,
        symmetry_after: int = SYMMETRY_AFTER,
    ):
        self.game = game
        self.symmetry_after = symmetry_after
        self.max_positions = max_positions
        self.positions = 0
        n = len(game.cells)
        self.n = n
        self.full = (1 << n) - 1
        self.turns = tuple(side == BLACK for side in game.turns)
        self.depth = len(self.turns)
        # black_left[t]: Black's time points from t on
        self.black_left = [0] * (self.depth + 1)
        for t in range(self.depth - 1, -1, -1):
            self.black_left[t] = self.black_left[t + 1] + self.turns[t]
        self.black_sets = tuple(dict.fromkeys(game.mask(s) for s in game.black_wins))
        self.white_sets = tuple(dict.fromkeys(game.mask(s) for s in game.white_wins))
        self.black_through = [tuple(m for m in self.black_sets if m >> c & 1) for c in range(n)]
        self.white_through = [tuple(m for m in self.white_sets if m >> c & 1) for c in range(n)]
        degree = [len(self.black_through[c]) + len(self.white_through[c]) for c in range(n)]
        graph = game.graph
        if graph is not None:
            self.nbr = [sum(1 << j for j in ns) for ns in graph.neighbours]
            self.start_mask = game.mask(graph.start_border)
            self.end_mask = game.mask(graph.end_border)
            degree = [len(ns) for ns in graph.neighbours]
        # the static move order: cells in many goals first, then file order
        self.order = sorted(range(n), key=lambda c: (-degree[c], c))
        self.first_mask = self.full if game.first_moves is None else game.mask(game.first_moves)
        self.initial_count = len(game.black_initials) + len(game.white_initials)
        self.table: dict[int, bool] = {}
        # Canonical keys pay off in the first half of the game, where a table entry stands for
        # a big subtree; deeper, the raw key is cheaper than the many lookups it saves
        # (measured on the 48 4x4 torus files: 22 s with this rule, 51 s with none, 50 s with
        # canonical keys everywhere).  Mixing the two kinds of key is sound: a key is always
        # some position of its orbit, so positions sharing a key share a value.
        self.symmetric_plies = max(4, self.depth // 2)
        # Symmetries cost a fixed setup, worth it only for a search that is not tiny: they are
        # switched on after SYMMETRY_AFTER positions.  Entries stored before stay sound (a raw
        # key is the canonical key of its own orbit or of none).
        self.use_symmetries = use_symmetries
        self.perms: tuple[tuple[int, ...], ...] = (tuple(range(n)),)
        self._lookup: list[list[list[int]]] = []

    # -- the public questions ---------------------------------------------------
    def decide(self, b: int, w: int) -> tuple[bool, int | None]:
        """Does Black win from the position (b, w) (the time point is implied)?
        Also a winning claim when Black is to move and wins."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.depth + 1000))
        try:
            t = self.time_of(b, w)
            if t == 0:
                settled = self.settled_before_play(b, w)
                if settled is not None:
                    return settled, None
            if t >= self.depth:
                return False, None
            if not self.turns[t]:
                return self.white_node(b, w, t), None
            for c in self.black_moves(b, w, t):
                if self.black_child_wins(b | 1 << c, w, t, c):
                    return True, c
            return False, None
        finally:
            sys.setrecursionlimit(limit)

    def black_wins(self, b: int, w: int) -> bool:
        return self.decide(b, w)[0]

    def time_of(self, b: int, w: int) -> int:
        return (b | w).bit_count() - self.initial_count

    def settled_before_play(self, b: int, w: int) -> bool | None:
        """A side that owns a winning set before the first move has won."""
        if any(m & w == m for m in self.white_sets):
            return False
        if self.black_won(b):
            return True
        return None

    # -- goals ----------------------------------------------------------------
    def black_won(self, b: int) -> bool:
        if self.game.graph is not None:
            return self.joined(b)
        return any(m & b == m for m in self.black_sets)

    def black_completes(self, b: int, c: int) -> bool:
        """Black has just claimed c: is a goal of Black's now complete?"""
        if self.game.graph is not None:
            return self.joined(b)
        return any(m & b == m for m in self.black_through[c])

    def joined(self, b: int) -> bool:
        reach = self.start_mask & b
        frontier = reach
        while frontier:
            grow = 0
            while frontier:
                low = frontier & -frontier
                grow |= self.nbr[low.bit_length() - 1]
                frontier ^= low
            frontier = grow & b & ~reach
            reach |= frontier
        return bool(reach & self.end_mask)

    def black_need(self, b: int, w: int) -> tuple[int, int]:
        """The fewest open cells Black still needs for a goal (a large number if
        none is reachable), and one cell that completes it when that is 1."""
        if self.game.graph is not None:
            return self._border_need(b, w)
        best, cell = 1 << 30, 0
        for m in self.black_sets:
            if m & w:
                continue
            missing = m & ~b
            k = missing.bit_count()
            if k < best:
                best, cell = k, missing
                if k <= 1:
                    break
        return best, (cell.bit_length() - 1 if best == 1 else -1)

    def _border_need(self, b: int, w: int) -> tuple[int, int]:
        """0-1 breadth-first search: Black cells cost 0, open cells 1, White cells block."""
        n = self.n
        inf = 1 << 30
        dist = [inf] * n
        parent = [-1] * n
        queue: deque[int] = deque()
        for c in range(n):
            if self.start_mask >> c & 1 and not w >> c & 1:
                d = 0 if b >> c & 1 else 1
                dist[c] = d
                (queue.appendleft if d == 0 else queue.append)(c)
        best, best_cell = inf, -1
        while queue:
            c = queue.popleft()
            d = dist[c]
            if self.end_mask >> c & 1 and d < best:
                best, best_cell = d, c
            nbrs = self.nbr[c] & ~w
            while nbrs:
                low = nbrs & -nbrs
                j = low.bit_length() - 1
                nbrs ^= low
                nd = d + (0 if b >> j & 1 else 1)
                if nd < dist[j]:
                    dist[j] = nd
                    parent[j] = c
                    (queue.appendleft if nd == d else queue.append)(j)
        if best != 1:
            return best, -1
        c = best_cell
        while c != -1 and b >> c & 1:
            c = parent[c]
        return 1, c

    def white_threat(self, b: int, w: int) -> int:
        """A cell that completes a White goal now, or -1 (Maker-Maker only)."""
        for m in self.white_sets:
            if m & b:
                continue
            missing = m & ~w
            if missing & (missing - 1) == 0 and missing:
                return missing.bit_length() - 1
        return -1

    def white_won_with(self, w: int, c: int) -> bool:
        return any(m & w == m for m in self.white_through[c])

    # -- the search -------------------------------------------------------------
    def key(self, b: int, w: int) -> int:
        n = self.n
        best = b << n | w
        for tables in self._lookup:
            pb = pw = 0
            shift = 0
            for table in tables:
                pb |= table[b >> shift & 255]
                pw |= table[w >> shift & 255]
                shift += 8
            k = pb << n | pw
            if k < best:
                best = k
        return best

    def expand(self) -> None:
        self.positions += 1
        if self.positions >= self.symmetry_after and self.use_symmetries:
            self.use_symmetries = False  # set up once
            self.perms = board_symmetries(self.game)
            self._lookup = [_byte_tables(p) for p in self.perms[1:]]
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions)

    def black_moves(self, b: int, w: int, t: int) -> list[int]:
        """Black's claims at time t, the promising first: a completing cell, blocks, the rest."""
        open_ = self.full & ~(b | w)
        if t == 0:
            open_ &= self.first_mask
        first = []
        need, cell = self.black_need(b, w)
        if need == 1 and open_ >> cell & 1:
            first.append(cell)
        block = self.white_threat(b, w)
        if block >= 0 and open_ >> block & 1 and block not in first:
            first.append(block)
        return first + [c for c in self.order if open_ >> c & 1 and c not in first]

    def white_moves(self, b: int, w: int, t: int) -> list[int]:
        open_ = self.full & ~(b | w)
        if t == 0:
            open_ &= self.first_mask
        first = []
        win = self.white_threat(b, w)
        if win >= 0 and open_ >> win & 1:
            first.append(win)
        need, cell = self.black_need(b, w)
        if need == 1 and open_ >> cell & 1 and cell not in first:
            first.append(cell)
        return first + [c for c in self.order if open_ >> c & 1 and c not in first]

    def black_child_wins(self, b: int, w: int, t: int, c: int) -> bool:
        """Black has claimed c at time t, giving (b, w)."""
        if self.black_completes(b, c):
            return True
        return self.node(b, w, t + 1)

    def node(self, b: int, w: int, t: int) -> bool:
        if t >= self.depth:
            return False
        if self.black_need(b, w)[0] > self.black_left[t]:
            return False
        key = self.key(b, w) if self._lookup and t < self.symmetric_plies else b << self.n | w
        known = self.table.get(key)
        if known is not None:
            return known
        if self.turns[t]:
            result = self.black_node(b, w, t)
        else:
            result = self.white_node(b, w, t)
        self.table[key] = result
        return result

    def black_node(self, b: int, w: int, t: int) -> bool:
        self.expand()
        for c in self.black_moves(b, w, t):
            if self.black_child_wins(b | 1 << c, w, t, c):
                return True
        return False  # no move wins, or no open cell: the game is over and Black has not won

    def white_node(self, b: int, w: int, t: int) -> bool:
        self.expand()
        moves = self.white_moves(b, w, t)
        if not moves:
            return False  # White has no open cell: the game is over and Black has not won
        for c in moves:
            w2 = w | 1 << c
            if self.white_won_with(w2, c):
                return False
            if not self.node(b, w2, t + 1):
                return False
        return True


def _byte_tables(perm: tuple[int, ...]) -> list[list[int]]:
    """For each byte of a mask, the image of its 256 values under the cell permutation."""
    n = len(perm)
    tables = []
    for base in range(0, n, 8):
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            bit = base + low.bit_length() - 1
            table[value] = table[value ^ low] | (1 << perm[bit] if bit < n else 0)
        tables.append(table)
    return tables
