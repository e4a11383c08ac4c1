"""Which open cells can still matter in a Maker-Breaker position, and in what
order to try them: the relevance pruning of the explicit searches
(`bddl.engines.positional`, `bddl.engines.positional_pns`).

A *goal* is a winning set of Black's, or (Hex) a simple chain of cells from
the start border to the end border.  Its *cost* in a position is its number
of open cells; a goal holding a White cell is dead.  An open cell is
*relevant within k* when it lies on a live goal of cost at most k.  For a
chain that is the 0-1 distance test d_start(c) + d_end(c) - 1 <= k, where
d_start(c) is the fewest open cells on a chain from the start border to c,
c included, Black's cells costing nothing and White's blocking (section 4.1
of the implicit-state paper applies the same test once, at the root:
`prune.far_cells_to_white`; here it is asked again at every node).

Why a search may look at relevant cells only (White has no winning sets):

* Black to move at time t, with r claims of its own from t on (this one
  included).  Whatever Black does, a goal it completes was live at t and had
  at most r open cells then (each is claimed by Black from t on), so all its
  open cells are relevant within r.  Say a claim c outside that set wins, by
  some strategy S.  Let c' be any relevant cell Black may claim at t.  Black
  claims c' and plays S as if it owned c instead of c' (the two boards differ
  only on that pair; if S claims c', Black claims c; if White claims c,
  pretend it claimed c').  The two plays have as many open cells at every
  time point, so they end together; S's goal avoids c (it is not relevant)
  and avoids c' unless c' is Black in both; so S's goal is Black's in the
  real play no later than in the imagined one.  A claim of c' wins too:
  Black loses nothing by trying relevant cells only.
* White to move at time t, r' Black claims after this one.  A goal Black
  completes after White's claim was live before it and has at most r' open
  cells, so it only uses cells relevant within r' (computed before the
  claim).  If Black beats a relevant White claim y, it beats any irrelevant
  claim x: it plays its strategy against y pretending White's stone sits on
  y, not x (swapping the pair as above); that strategy's goal contains no
  White cell, so not y, and no irrelevant cell, so not x.  White loses
  nothing by trying relevant cells only.  (When nothing is relevant, Black
  has no live goal of cost at most r', which the searches' cut "need more
  claims than Black has left" already decides.)
* Neither argument holds when the relevant set misses every cell the mover
  may claim (the first-move set at t = 0): then all allowed claims are tried.
  A restricted move list is never taken for a board without open cells
  either: the searches test for the end of the game on the allowed cells
  before they restrict.
* The restriction depends on the position and t only (t follows from the
  number of stones), and it never changes a position's value, so the
  transposition tables still store values of positions, not of paths.

Move order: the cells on the cheapest goals first (tier by tier), each tier
in the solver's static order; White's cells on Black's cheapest goals by how
much they raise Black's need, when the subtrees are big enough to pay for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..pg.game import around

UNREACHABLE = 1 << 30


class Relevance:
    """The relevance test of one game: `tiers` per position."""

    def __init__(
        self,
        n: int,
        black_sets: Sequence[int] = (),
        neighbours: Sequence[int] | None = None,
        start_mask: int = 0,
        end_mask: int = 0,
        order: Sequence[int] = (),
    ):
        self.full = (1 << n) - 1
        self.black_sets = tuple(black_sets)
        self.nbr = None if neighbours is None else tuple(neighbours)
        self.start_mask = start_mask
        self.end_mask = end_mask
        rank = [0] * n
        for place, c in enumerate(order or range(n)):
            rank[c] = place
        self.rank = rank

    def tiers(self, b: int, w: int, k: int) -> tuple[int, list[int]]:
        """(need, within): the fewest open cells a live goal has (UNREACHABLE
        when more than k, for chains), and within[m] for m = 0..k, the open
        cells on a live goal of cost at most m (within[1]: the cells that
        complete a goal now)."""
        if self.nbr is not None:
            return self._chain_tiers(b, w, k)
        return self._set_tiers(b, w, k)

    def _set_tiers(self, b: int, w: int, k: int) -> tuple[int, list[int]]:
        need = UNREACHABLE
        exact = [0] * (k + 1)
        for m in self.black_sets:
            if m & w:
                continue
            missing = m & ~b
            cost = missing.bit_count()
            if cost < need:
                need = cost
            if cost <= k:
                exact[cost] |= missing
        within = exact
        for m in range(1, k + 1):
            within[m] |= within[m - 1]
        return need, within

    def _layers(self, b: int, w: int, border: int, k: int) -> list[int]:
        """layers[i]: the cells reached from `border` through at most i open
        cells (Black's free, White's blocked), i = 0..k."""
        nbr = self.nbr
        assert nbr is not None
        open_ = self.full & ~(b | w)
        reached = 0
        touching = border  # the cells next to the reached ones (the border counts as reached)
        layers = []
        for i in range(k + 1):
            frontier = touching & (b if i == 0 else open_) & ~reached
            new = frontier
            while frontier:
                grow = around(nbr, frontier)
                touching |= grow
                frontier = grow & b & ~reached & ~new
                new |= frontier
            reached |= new
            layers.append(reached)
        return layers

    def _chain_tiers(self, b: int, w: int, k: int) -> tuple[int, list[int]]:
        from_start = self._layers(b, w, self.start_mask, k)
        need = UNREACHABLE
        for i, layer in enumerate(from_start):
            if layer & self.end_mask:
                need = i
                break
        within = [0] * (k + 1)
        if need > k:
            return need, within
        from_end = self._layers(b, w, self.end_mask, k)
        open_ = self.full & ~(b | w)
        for m in range(max(need, 1), k + 1):
            # an open cell c lies on a chain of cost m iff d_start(c) = i and d_end(c) <= m + 1 - i
            found = 0
            for i in range(1, m + 1):
                found |= from_start[i] & from_end[m + 1 - i]
            within[m] = found & open_
        return need, within

    def strongest_blocks_first(self, b: int, w: int, k: int, moves: list[int], cheapest: int) -> list[int]:
        """White's `moves` with those among `cheapest` (the cells of Black's
        cheapest goals) first, the ones that leave Black needing the most open
        cells first of all: a refutation found early cuts a whole node."""
        scored = []
        for i, c in enumerate(moves):
            if cheapest >> c & 1:
                need = self.need(b, w | 1 << c, k)
                scored.append((-need, i, c))
        scored.sort()
        first = [c for _, _, c in scored]
        return first + [c for c in moves if not cheapest >> c & 1]

    def need(self, b: int, w: int, k: int) -> int:
        """The fewest open cells of a live goal (UNREACHABLE: more than k, for chains)."""
        if self.nbr is None:
            return self._set_tiers(b, w, k)[0]
        for i, layer in enumerate(self._layers(b, w, self.start_mask, k)):
            if layer & self.end_mask:
                return i
        return UNREACHABLE

    def ordered(self, allowed: int, within: list[int], k: int) -> list[int]:
        """The claims worth trying among `allowed`: the relevant ones, cheapest
        goals first; all of `allowed` when none of them is relevant."""
        pool = allowed & within[k]
        if not pool:
            return self._by_rank(allowed)
        out: list[int] = []
        seen = 0
        for m in range(1, k + 1):
            tier = pool & within[m] & ~seen
            if tier:
                out += self._by_rank(tier)
                seen |= tier
        return out

    def _by_rank(self, cells: int) -> list[int]:
        found = []
        while cells:
            low = cells & -cells
            found.append(low.bit_length() - 1)
            cells ^= low
        rank = self.rank
        found.sort(key=rank.__getitem__)
        return found
