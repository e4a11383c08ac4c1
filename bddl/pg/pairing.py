"""White's pairing strategies: the oldest argument that Black cannot win a positional game.

A *pairing* is a set of disjoint pairs of open cells such that every Black
winning set that White has not yet blocked holds both cells of some pair.
White then answers each Black claim of a paired cell with its partner (and
plays anywhere otherwise), so Black never owns both cells of a pair, hence
never a whole winning set: Black cannot win, whatever the depth.  This is
the Hales-Jewett pairing strategy (Berlekamp, Conway and Guy, *Winning
Ways*, vol. 3, "Harary's generalized tic-tac-toe"; Beck, *Combinatorial
Games: Tic-Tac-Toe Theory*, §4), with which Harary's losing animals (the
O-tetromino and most pentominoes) are proved losers on every board.

The argument needs White to move after each Black move, before Black's next
one (`pairing_applies`): in a (2,1) game Black claims both cells of a pair
in one turn.

With the plies bounded (`within_depth=True`), Black with k moves left can
only complete a winning set with at most k open cells, so only those need
a pair: a pairing that holds one inside each keeps Black from winning
within the depth (not for ever).  This is what a certificate needs, and it
exists far more often than a pairing for ever: near the end of the plies
only Black's few nearly complete sets count.  A Hex goal is a chain, not
listed sets, but with the plies bounded it has sets again: every chain
holds a *path* between the borders, so the open cells of the paths with at
most k of them (`short_chains`) are Black's live winning sets for the
pairing.  The paths are enumerated up to `CHAIN_STEPS` steps; beyond that
no pairing is offered.

Finding a pairing is a small SAT problem (python-sat): a variable per pair
of open cells that share a live winning set, at most one chosen pair per
cell, and at least one chosen pair inside each live set.  Checking one is
simple counting, which the independent certificate checker does on its own
(`compiler.certificates.check`); this module only finds them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

from .game import BLACK, PositionalGame

Pairing = tuple[tuple[int, int], ...]

# Before the SAT call, a short exhaustive search tries to show that no pairing exists: most games
# have none, and loading python-sat alone costs some 60 ms, which a small game's whole search
# does not (docs/solving.md's race on Hex 4x4 is won by the search in 10-20 ms).
NO_PAIRING_STEPS = 2000
CHAIN_STEPS = 200_000  # a Hex position's short paths are enumerated within this many steps (else no pairing)


def pairing_applies(turns: Sequence[str], ply: int) -> bool:
    """White moves between any two Black moves from `ply` on (no Black turn follows a Black turn)."""
    return not any(a == BLACK and b == BLACK for a, b in zip(turns[ply:], turns[ply + 1:]))


class PairingFinder:
    """Finds pairings in positions of one game (its live winning sets read as bitmasks)."""

    def __init__(self, game: PositionalGame, within_depth: bool = False,
                 fits: Callable[[list[int]], bool | None] | None = None):
        # within_depth: only the sets Black can still complete with its moves left need a pair
        # (on Hex: the open cells of Black's short paths); without it, every live set, for ever
        self.game = game
        self.within_depth = within_depth
        # fits: the quick search's answer for the live sets, from elsewhere (the compiled core's
        # search within more steps, `bddl.engines.compiled.pairs_fit`): True, False, or None (out
        # of steps: the SAT call answers).  A certificate's builder asks `exists` of every White
        # reply, where the quick search in Python was nine tenths of its time
        self.fits = fits
        chains = within_depth and game.graph is not None
        self.usable = (bool(game.black_wins) and game.graph is None) or chains
        self.sets = tuple(sorted({game.mask(s) for s in game.black_wins}))
        # per time point (the end of the plies included): does the argument apply from there,
        # and Black's moves left; `_live` reads them at every position of a search
        turns = game.turns
        self.applies = tuple(pairing_applies(turns, t) for t in range(len(turns) + 1))
        self.black_left = tuple(turns[t:].count(BLACK) for t in range(len(turns) + 1))
        # the last position's live sets: a certificate asks `exists` and then `find` of the same
        # position, and on Hex each enumerates the short paths
        self._last: tuple[tuple[int, int, int | None], list[int] | None] | None = None

    def find(self, black: int, white: int, ply: int | None = None) -> Pairing | None:
        """A pairing of the open cells that blocks every live Black winning set, pairs
        ascending (the same position gives the same pairing), or None when there is none
        or the argument does not apply (`ply`: the time point to move, when known; needed
        within the depth)."""
        live = self._live(black, white, ply)
        if live is None:
            return None
        if not live:
            return ()
        if self._quick(live) is False:
            return None
        return _sat_pairing(live)

    def exists(self, black: int, white: int, ply: int | None = None) -> bool:
        """Whether `find` would give a pairing, cheaper: a pairing the short exhaustive search
        meets settles it without the SAT call (a search asks this at every position)."""
        live = self._live(black, white, ply)
        if live is None:
            return False
        quick = self._quick(live)
        return quick if quick is not None else _sat_pairing(live) is not None

    def _quick(self, live: list[int]) -> bool | None:
        """The quick search's answer for the live sets before any SAT call: True (it met a
        pairing), False (there is none), None (out of steps); the core's where given (`fits`)."""
        if self.fits is not None:
            return self.fits(list(dict.fromkeys(live)))  # each set once, as `_quick_pairing` reads them
        return _quick_pairing(live, NO_PAIRING_STEPS)

    def _live(self, black: int, white: int, ply: int | None) -> list[int] | None:
        """The open cells of each live Black set that needs a pair (maybe none), or None when
        no pairing can exist or the argument does not apply."""
        if not self.usable or (ply is not None and not self.applies[ply]):
            return None
        key = (black, white, ply)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        live = self._enumerate_live(black, white, ply)
        self._last = key, live
        return live

    def _enumerate_live(self, black: int, white: int, ply: int | None) -> list[int] | None:
        occupied = black | white
        sets = self.sets
        most = len(self.game.cells)  # the open cells a live set may have and still need a pair
        if self.within_depth:
            if ply is None:
                return None
            most = self.black_left[ply]
            if self.game.graph is not None:
                found = short_chains(self.game, black, white, most, CHAIN_STEPS)
                if found is None:
                    return None
                sets = tuple(found)
        live = []
        for s in sets:
            if s & white:
                continue
            open_cells = s & ~occupied
            if open_cells.bit_count() > most:
                continue  # Black has too few moves left to complete it
            if open_cells & (open_cells - 1) == 0:  # fewer than two open cells: no pair fits in it
                return None
            live.append(open_cells)
        return live


def _sat_pairing(live: list[int]) -> Pairing | None:
    """A pairing of the `live` sets (masks of their open cells) by a SAT call, pairs ascending, or None."""
    from ..sat import CardEnc, EncType, IDPool, Solver  # loaded only where a pairing may exist

    pool = IDPool()
    by_cell: dict[int, list[int]] = {}
    clauses: list[list[int]] = []
    for open_cells in live:
        cells = [i for i in range(open_cells.bit_length()) if open_cells >> i & 1]
        clause = []
        for a, b in combinations(cells, 2):
            known = pool.obj2id.get((a, b))
            var = pool.id((a, b))
            if known is None:
                by_cell.setdefault(a, []).append(var)
                by_cell.setdefault(b, []).append(var)
            clause.append(var)
        clauses.append(clause)
    for cell in sorted(by_cell):
        if len(by_cell[cell]) > 1:
            clauses.extend(CardEnc.atmost(by_cell[cell], 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        model = solver.get_model()
    chosen = {v for v in model if v > 0}
    return tuple(sorted(pair for pair, var in pool.obj2id.items() if isinstance(pair, tuple) and var in chosen))


def short_chains(game: PositionalGame, black: int, white: int, k: int, steps: int) -> list[int] | None:
    """On Hex: the open cells of each path of non-White cells joining Black's borders with
    at most `k` open cells, inclusion-minimal sets only (a superset holds any pair its
    subset holds); None when enumerating them takes more than `steps` steps."""
    graph = game.graph
    assert graph is not None
    n = len(game.cells)
    usable = ((1 << n) - 1) & ~white
    open_cells = usable & ~black
    need = _open_cells_to(graph, graph.end_border, usable, open_cells)  # a lower bound per cell
    found: set[int] = set()
    budget = [steps]

    def walk(cell: int, path: int, used: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise OverflowError
        if cell in graph.end_border:
            found.add(used)
            return
        for nxt in graph.neighbours[cell]:
            bit = 1 << nxt
            if not usable & bit or path & bit:
                continue
            more = used | (bit & open_cells)
            if more.bit_count() + need[nxt] - (1 if bit & open_cells else 0) <= k:
                walk(nxt, path | bit, more)

    try:
        for start in sorted(graph.start_border):
            bit = 1 << start
            if usable & bit and need[start] <= k:
                walk(start, bit, bit & open_cells)
    except OverflowError:
        return None
    minimal: list[int] = []
    for s in sorted(found, key=lambda s: (s.bit_count(), s)):
        if not any(m & s == m for m in minimal):
            minimal.append(s)
    return minimal


def _open_cells_to(graph, border, usable: int, open_cells: int) -> list[int]:
    """Per cell, the fewest open cells on a path of usable cells from it to `border`, itself
    included (a 0-1 breadth-first search; unreachable: a large number)."""
    from collections import deque

    far = 1 << 30
    best = [far] * len(graph.neighbours)
    todo: deque[int] = deque()
    for cell in sorted(border):
        if usable >> cell & 1:
            best[cell] = open_cells >> cell & 1
            todo.append(cell)
    while todo:
        cell = todo.popleft()
        for nxt in graph.neighbours[cell]:
            if not usable >> nxt & 1:
                continue
            cost = open_cells >> nxt & 1
            if best[cell] + cost < best[nxt]:
                best[nxt] = best[cell] + cost
                (todo.append if cost else todo.appendleft)(nxt)
    return best


def _quick_pairing(live: list[int], steps: int) -> bool | None:
    """Whether disjoint pairs fit one inside each of the `live` sets, by an exhaustive search
    within `steps` choices: True (it met one), False (there is none), None (out of steps).
    It pairs first inside the set with the fewest unused cells, and hands on the sets that
    the chosen pair does not cover (the search runs at every position of a search)."""
    budget = [steps]

    def fits(sets: list[int], used: int) -> bool | None:
        best, fewest = 0, 1 << 30
        for cells in sets:
            free = cells & ~used
            count = free.bit_count()
            if count < 2:
                return False  # this set has no two unused cells left for a pair of its own
            if count < fewest:
                best, fewest = free, count
        if not best:
            return True
        bits = [1 << i for i in range(best.bit_length()) if best >> i & 1]
        for i, a in enumerate(bits):
            for b in bits[i + 1:]:
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                pair = a | b
                found = fits([cells for cells in sets if cells & pair != pair], used | pair)
                if found is not False:
                    return found
        return False

    return fits(list(dict.fromkeys(live)), 0)
