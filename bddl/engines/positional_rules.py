"""The rules of positional games as the searches read them: the knowledge
of the positional solver, apart from any search.

The rules are the representation's (`bddl.pg.game`, docs/positional.md): at
each time point the mover claims one open cell (the first one from the
first-move set, if the game has one); the first side to own a whole winning
set of its own wins (Hex: Black wins once its cells join the two borders);
when the time points run out, or the mover has no open cell, the game is over
and Black has not won.  Before the first move, a side that already owns a
winning set has won (Black only if White does not own one too).

What the rules know beyond the moves, and both searches use (the minimax of
`bddl.engines.positional`, df-pn of `bddl.engines.positional_pns`), each from
one definition here:

* a position is two bitmasks; the time point is implied (one cell per time
  point), so a table keyed by the masks alone meets a (p,q) turn's stones
  claimed in any order in one entry (`time_of`, `movers`);
* each position knows the open cells that complete a goal of either side now
  (for Hex: the cells that touch both the start-connected and the
  end-connected Black groups): a side that can complete a goal does so
  (winning moves first); a side with one stone before the other's turn must
  block the other's only completing cell, and loses to two of them; in other
  positions the blocks are tried first (`cuts`, read as claims by `claims`
  and as values by `verdict`);
* a position where no Black goal can be completed with Black's remaining
  time points is lost for Black at once, a lost cause (for Hex: the fewest
  open cells that join the borders is more than Black has moves left);
  so is one where White has a *pairing* within the depth (`bddl.pg.pairing`:
  disjoint pairs of open cells, one inside each winning set Black could
  still complete with its moves left, where White moves between any two
  Black moves): White answers each paired claim with its partner.  Asked
  only where no Black goal is one cell short and the goals are listed sets
  (on Hex the paths cost too much to enumerate at every position);
* in a Maker-Breaker game, only the cells relevant to Black's goals are
  claimed by either side, cheapest goal first (`bddl.engines.relevance` argues
  why that keeps every value; `relevance=False` turns it off for the tests);
* positions equal up to a board symmetry (`geometry.symmetries`: the checked
  rotations, reflections and torus shifts) share one table entry, through a
  canonical key computed with per-byte lookup tables (`key`, `canonical`).

None of these changes a position's value, only how much of the tree a search
must look at; the tests hold both searches to a brute force that knows none
of them (tests/helpers/positional_games.py).
"""

from __future__ import annotations

from collections import deque

from ..pg.game import BLACK, PositionalGame, around, flood
from ..pg.geometry import symmetries as board_symmetries
from ..pg.pairing import Pairing, PairingFinder
from .relevance import Relevance

CUT_CACHE = 1 << 16  # positions whose cuts are kept (df-pn asks again about recent ones)

# What the rules' cuts read from a position (`PositionalRules.cuts`)
Cuts = tuple[int, int, int, "list[int] | None", int, int]


class PositionalRules:
    """One game's rules, cuts and symmetries: what a search asks of a
    position, never a search itself."""

    def __init__(self, game: PositionalGame, use_symmetries: bool = True, relevance: bool = True, pairings: bool = True):
        self.game = game
        n = len(game.cells)
        self.n = n
        self.full = (1 << n) - 1
        self.turns = tuple(side == BLACK for side in game.turns)
        self.depth = len(self.turns)
        # movers[r]: does Black move with r time points left (at time point depth - r)?  The
        # searches' `movers`; movers[0] is never asked (the game is over).
        self.movers = (False,) + tuple(self.turns[self.depth - r] for r in range(1, self.depth + 1))
        # black_left[t]: Black's time points from t on
        self.black_left = [0] * (self.depth + 1)
        for t in range(self.depth - 1, -1, -1):
            self.black_left[t] = self.black_left[t + 1] + self.turns[t]
        # one_stone[t]: t's mover claims one cell before the other side's turn (the cornered
        # cases of the cuts: one threat must be blocked, two lose)
        self.one_stone = tuple(t + 1 < self.depth and self.turns[t + 1] != self.turns[t] for t in range(self.depth))
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
        # Maker-Breaker only: the moves are restricted to the relevant cells and
        # ordered by the cost of their cheapest goal (bddl.engines.relevance says why that is sound)
        self.relevance: Relevance | None = None
        if relevance and game.maker_breaker:
            if graph is not None:
                self.relevance = Relevance(n, (), self.nbr, self.start_mask, self.end_mask, self.order)
            else:
                self.relevance = Relevance(n, self.black_sets, order=self.order)
        # Canonical keys pay off in the first half of the game, where a table entry stands for
        # a big subtree; deeper, the raw key is cheaper than the many lookups it saves
        # (measured on the 48 4x4 torus files: 22 s with this rule, 51 s with none, 50 s with
        # canonical keys everywhere).  Mixing the two kinds of key is sound: a key is always
        # some position of its orbit, so positions sharing a key share a value.
        self.symmetric_plies = max(4, self.depth // 2)
        # The symmetries are found when a search asks (`set_up_symmetries`): the positional
        # solver once it is not tiny.  Entries stored before stay sound (a raw key is the
        # canonical key of its own orbit or of none).
        self.use_symmetries = use_symmetries
        self.perms: tuple[tuple[int, ...], ...] = (tuple(range(n)),)
        self._lookup: list[list[list[int]]] = []
        self._cut_cache: dict[int, Cuts | None] = {}
        # White's pairings within the depth, asked per position (`compute_cuts`) where they may apply
        # (pairable[t]: the argument applies from time point t on, the finder's own table)
        self.pairings: PairingFinder | None = None
        self.pairable: tuple[bool, ...] = ()
        if pairings and graph is None and game.black_wins:
            finder = PairingFinder(game, within_depth=True)
            if any(finder.applies[: self.depth]):
                self.pairings, self.pairable = finder, finder.applies[: self.depth]

    # -- time and the start ------------------------------------------------------
    def time_of(self, b: int, w: int) -> int:
        return (b | w).bit_count() - self.initial_count

    def settled_before_play(self, b: int, w: int) -> bool | None:
        """A side that owns a winning set before the first move has won; and Black cannot win
        against a pairing strategy of White's from the start (`bddl.pg.pairing`: one small
        SAT call, which settles Harary's losing animals on any board without a search)."""
        if self.white_won(w):
            return False
        if self.black_won(b):
            return True
        if self.pairing_at_start(b, w) is not None:
            return False
        return None

    def decided_at_once(self, b: int, w: int) -> bool | None:
        """Black's value where no search is needed: before the first move, as
        `settled_before_play` says; with no time point left, Black has not won.
        The searches' (minimax and df-pn) first question about any position."""
        t = self.time_of(b, w)
        if t == 0:
            settled = self.settled_before_play(b, w)
            if settled is not None:
                return settled
        return False if t >= self.depth else None

    def pairing_at_start(self, b: int, w: int) -> Pairing | None:
        """White's pairing strategy from the position before the first move, if it has one
        (`PairingFinder` loads python-sat only where its goals are winning sets)."""
        if self.time_of(b, w) != 0:
            return None
        return PairingFinder(self.game).find(b, w, 0)

    # -- goals ----------------------------------------------------------------
    def black_won(self, b: int) -> bool:
        if self.game.graph is not None:
            return self.joined(b)
        return any(m & b == m for m in self.black_sets)

    def white_won(self, w: int) -> bool:
        return any(m & w == m for m in self.white_sets)

    def joined(self, b: int) -> bool:
        return bool(self._reach(self.start_mask & b, b) & self.end_mask)

    def _reach(self, seeds: int, within: int) -> int:
        """The cells of `within` connected to `seeds` (a flood fill on bitmasks)."""
        return flood(self.nbr, seeds, within)

    def _around(self, cells: int) -> int:
        return around(self.nbr, cells)

    def black_status(self, b: int, w: int) -> tuple[int, int]:
        """The fewest open cells Black still needs for a goal (a large number if
        none can be completed any more), and the open cells that complete one now."""
        if self.game.graph is not None:
            open_ = self.full & ~(b | w)
            touch_start = self.start_mask | self._around(self._reach(self.start_mask & b, b))
            touch_end = self.end_mask | self._around(self._reach(self.end_mask & b, b))
            completing = open_ & touch_start & touch_end
            return (1 if completing else self._border_need(b, w)), completing
        best, completing = 1 << 30, 0
        for m in self.black_sets:
            if m & w:
                continue
            missing = m & ~b
            k = missing.bit_count()
            if k == 1:
                completing |= missing
            if k < best:
                best = k
        return best, completing

    def white_completing(self, b: int, w: int) -> int:
        """The open cells that complete a White goal now (Maker-Maker only)."""
        completing = 0
        for m in self.white_sets:
            if m & b:
                continue
            missing = m & ~w
            if missing and missing & (missing - 1) == 0:
                completing |= missing
        return completing

    def white_need(self, b: int, w: int) -> int:
        """The fewest open cells White still needs for a goal of its own (a large number if none)."""
        return min(((m & ~w).bit_count() for m in self.white_sets if not m & b), default=1 << 30)

    def _border_need(self, b: int, w: int) -> int:
        """0-1 breadth-first search: Black cells cost 0, open cells 1, White cells block."""
        inf = 1 << 30
        dist = [inf] * self.n
        queue: deque[int] = deque()
        for c in range(self.n):
            if self.start_mask >> c & 1 and not w >> c & 1:
                d = 0 if b >> c & 1 else 1
                dist[c] = d
                (queue.appendleft if d == 0 else queue.append)(c)
        while queue:
            c = queue.popleft()
            d = dist[c]
            if self.end_mask >> c & 1:
                return d  # popped in order of distance
            nbrs = self.nbr[c] & ~w
            while nbrs:
                low = nbrs & -nbrs
                j = low.bit_length() - 1
                nbrs ^= low
                nd = d + (0 if b >> j & 1 else 1)
                if nd < dist[j]:
                    dist[j] = nd
                    (queue.appendleft if nd == d else queue.append)(j)
        return inf

    # -- symmetries --------------------------------------------------------------
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

    def canonical(self, b: int, w: int) -> tuple[int, int]:
        """The board of the position's orbit whose `key` it is (itself before
        `set_up_symmetries`): df-pn's tables meet symmetric positions there."""
        k = self.key(b, w)
        return k >> self.n, k & self.full

    def set_up_symmetries(self) -> None:
        """Find the board's symmetries and their lookup tables (once)."""
        if self.use_symmetries:
            self.use_symmetries = False
            self.perms = board_symmetries(self.game)
            self._lookup = [_byte_tables(p) for p in self.perms[1:]]

    # -- the cuts: claims and verdicts ---------------------------------------------
    def allowed(self, b: int, w: int, t: int) -> int:
        """The cells the mover may claim at time t: the open ones (of the first-move set at t = 0)."""
        open_ = self.full & ~(b | w)
        return open_ & self.first_mask if t == 0 else open_

    def ordered(self, allowed: int, urgent: int) -> list[int]:
        """The claims to try: the urgent cells (blocks) first, then the static order."""
        first = [c for c in self.order if urgent >> c & 1 and allowed >> c & 1]
        return first + [c for c in self.order if allowed >> c & 1 and not urgent >> c & 1]

    def claims(self, b: int, w: int, t: int) -> list[int]:
        """The claims the mover at t is to try, in order (df-pn's move
        generator; the minimax reads the same `cuts`): none when
        Black can no longer complete a goal in time; one where the rest cannot
        change the value (a claim completing the mover's goal; the forced block
        of a mover with one stone before the other's turn; any one claim when
        that mover faces two completing cells and loses to them); else, in a
        Maker-Breaker game, the relevant cells, cheapest goals first, and in
        others every allowed cell, the blocks of the other side's completing
        cells first."""
        cuts = self.cuts(b, w, t)
        if cuts is None:
            return []  # Black cannot win any more: the game's end, as far as Black is concerned
        return self.claims_of(cuts, t)

    def claims_of(self, cuts: Cuts, t: int) -> list[int]:
        """`claims`, from the position's cuts."""
        allowed, own, other, within, k, _ = cuts
        if own & allowed:  # a completing claim wins: the only one worth looking at
            return [(own & allowed).bit_length() - 1]
        # one stone before the other side's turn: it must block the other's only completing
        # cell; against two (or one it may not claim) every claim loses alike
        cornered = other and self.one_stone[t]
        if cornered and not other & (other - 1) and other & allowed:
            return [other.bit_length() - 1]
        if within is None:
            moves = self.ordered(allowed, other)
        else:
            moves = self.relevance.ordered(allowed, within, k)  # type: ignore[union-attr]
        return moves[:1] if cornered else moves

    def verdict(self, b: int, w: int, t: int) -> bool | None:
        """Does Black win, where the rules' cuts decide without a search (None:
        they do not)?  Black has lost when no goal of its own can be completed
        in time, or the mover has no open cell; the mover wins by completing
        its goal; a mover with one stone before the other's turn loses to two
        completing cells of the other side (or one it may not claim).  The
        same cuts as `claims`, read as a value: df-pn's static knowledge."""
        if t >= self.depth:
            return False
        cuts = self.cuts(b, w, t)
        return False if cuts is None else self.verdict_of(cuts, t)

    def verdict_of(self, cuts: Cuts, t: int) -> bool | None:
        """`verdict` of a position Black can still win, from its cuts: what one
        ply decides (the minimax's judge)."""
        allowed, own, other, _, _, _ = cuts
        if not allowed:
            return False  # the mover has no open cell: the game is over and Black has not won
        black = self.turns[t]
        if own & allowed:
            return black
        if other and self.one_stone[t] and (other & (other - 1) or not other & allowed):
            return not black
        return None

    def cuts(self, b: int, w: int, t: int) -> Cuts | None:
        """What the cuts of `claims` and `verdict` read from a position: None
        when Black can no longer complete a goal with its claims from t on (or White's pairing
        keeps it from every one it could); else (the allowed cells, the open cells
        completing a goal of the mover's, those completing one of the other
        side's, the relevance tiers of a Maker-Breaker game or None, Black's
        claims left, the fewest open cells Black needs for a goal).  Recent
        answers are kept: df-pn asks `verdict`, `claims` and its initial
        numbers of one position at different times."""
        key = b << self.n | w
        found = self._cut_cache.get(key, False)
        if found is False:
            if len(self._cut_cache) >= CUT_CACHE:
                self._cut_cache.clear()
            found = self._cut_cache[key] = self.compute_cuts(b, w, t)
        return found  # type: ignore[return-value]

    def compute_cuts(self, b: int, w: int, t: int) -> Cuts | None:
        """`cuts`, not kept (the minimax asks once per position)."""
        allowed = self.allowed(b, w, t)  # none: the game is over and Black has not won (`verdict_of`)
        k = self.black_left[t]  # at a White node: Black's claims after this one
        within: list[int] | None = None
        if self.relevance is not None:
            need, within = self.relevance.tiers(b, w, k)
            if need > k:
                return None
            completing, threats = (within[1] if k else 0), 0
        else:
            need, completing = self.black_status(b, w)
            if need > k:
                return None
            threats = self.white_completing(b, w) if self.white_sets else 0
        if need > 1 and self.pairings is not None and t < self.depth and self.pairable[t] and self.pairings.exists(b, w, t):
            return None  # White's pairing keeps Black from every goal it could complete in time
        if self.turns[t]:
            return allowed, completing, threats, within, k, need
        return allowed, threats, completing, within, k, need


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
