"""Does Black win within d plies?  Depth-first proof-number search (df-pn).

The question and the rules are exactly those of `bddl.engines.minimax` (the minimax
oracle): players alternate, a player whose goal holds after its own move has
won, a player with no legal move loses, and when the plies run out Black has
lost.  Only the order in which positions are looked at differs: df-pn
(Nagai 2002) expands the most-proving position first, so on games with one
narrow winning line and wide refutations (Breakthrough, Hex puzzles) it
touches far fewer positions than the even-handed depth-first minimax.

Numbers are kept in the phi/delta form: for the side to move at a node, phi
is the proof number of "the mover wins", delta its disproof number.  At a node,
phi = min over children of the child's delta and delta = sum of the children's
phi.  A solved node has (0, INF) (the mover wins) or (INF, 0).

The df-pn pitfalls this implementation meets, and how it handles them:

* Bounded depth.  The answer for a position depends on the plies left, so
  unsolved entries are keyed by (side, board, plies left).  Solved positions
  use monotonicity instead, as the minimax table does: a Black win with r
  plies left is one with any r' >= r, a Black loss one with any r' <= r, so
  one solved entry per (side, board) keeps the smallest winning and the
  largest losing r (under a turn pattern sound because the board names the
  plies left: `bddl.engines.minimax` says why).
* Graph history interaction (GHI) does not arise: with the plies left in the
  key every move strictly decreases the key's depth, so the search space is a
  DAG and a position's value never depends on the path to it.  (Transpositions
  still make proof numbers over-count, which costs time, never correctness.)
* Infinite re-expansion when the table forgets.  A parent keeps its children's
  numbers in its own frame and updates them from what the child's search
  returns, never by re-reading the table: an evicted entry cannot make a
  parent pick the same child forever with the same stale (1, 1).
* The seesaw effect between two close siblings: the 1+epsilon trick
  (Pawlewicz & Lew 2007) lets the best child run until its delta exceeds
  the second best's times (1 + epsilon), not merely by one.
* Weak proof numbers change the child's phi threshold: with delta = largest
  + (open children - 1), a child reaching th_delta - (open children - 1)
  pushes the parent over its threshold, so that is the child's bound.
* Number overflow: Python integers do not overflow, but sums of many
  children would grow without bound and slow the arithmetic, so unsolved
  numbers are capped at INF - 1 (INF itself only ever means "solved").
* Memory.  Every entry, solved or not, counts against a capacity; when it is
  exceeded the half of the table with the smallest subtrees (work spent) is
  dropped (the SmallTreeGC policy).  Expansions are bounded by the same
  `max_positions` budget as the minimax, so the search never runs out of
  memory and stops with `SearchBudgetExceeded`.

Measured refinements (the defaults; docs/benchmarks.md): the last
`leaf_plies` (5) plies are decided by the engines' minimax
(`bddl.engines.minimax.Minimax`, of which `ProofNumberSearch` is the df-pn
kind) on the solved table (near the horizon proof numbers guide nothing and
each df-pn re-expansion is a full move generation); weak proof numbers (Ueda et al.
2008: delta is the largest child number plus one per other open child, not
the sum, which counts a transposition once per path to it: positional games
and Connect-4 are full of them); and epsilon = 1.  Together they took the
positions on samples of HTTT, Connect-4, Hex, Domineering and Breakthrough
from 2-6 times the minimax's to 0.5-2.3 times.  `search_pns` then starts
fresh positions at mobility numbers (`mobility_numbers`, df-pn+: delta is the
mover's number of moves), which took the geometric mean of df-pn's positions
over the minimax's below 1 on Breakthrough, Domineering and Knightthrough
and to about 1 on Hex, and cut the worst ratio (Hex 4x4 lost d11) from 5 to
about 1 (docs/benchmarks.md, "The game engine").  A `knowledge` function may
decide a position statically (the race patterns of `bddl.engines.race`, the
threat cuts of positional games); it is asked before a position is expanded,
by df-pn and by the leaf search alike, and its answers are stored as solved.

The core (`ProofNumberSearch`) only needs, per side, the distinct successors
of a board and the side's win test (`SideMoves`, the minimax's interface
too), so the race-pattern verifier and the positional-game solver reuse it
on their own move generators.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence

from ..game import BLACK, Game
from .minimax import DEFAULT_MAX_POSITIONS, Knowledge, Minimax, SearchBudgetExceeded, SearchResult, SideMoves, game_sides

INF = 1 << 40
DEFAULT_CAPACITY = 2_000_000  # table entries (solved and unsolved) kept at once
DEFAULT_EPSILON = 1.0
DEFAULT_LEAF_PLIES = 5
DEFAULT_WEAK = True  # these three: the fewest positions on samples of the suite (docs/benchmarks.md)

# (black to move, black cells, white cells, plies left) -> (phi, delta) of an unexpanded, unsolved position, each >= 1
Initial = Callable[[bool, int, int, int], tuple[int, int]]


class ProofNumberSearch(Minimax):
    """df-pn over boards (black, white) with Black to move or not and r plies left.

    A `Minimax` whose table is df-pn's (solved entries, and the proof
    numbers of unsolved ones, collected by work): the last `leaf_plies`
    plies are the minimax's own search (`Minimax.value`) on the solved table."""

    def __init__(
        self,
        black: SideMoves,
        white: SideMoves,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        capacity: int = DEFAULT_CAPACITY,
        epsilon: float = DEFAULT_EPSILON,
        knowledge: Knowledge | None = None,
        weak: bool = DEFAULT_WEAK,
        leaf_plies: int = DEFAULT_LEAF_PLIES,
        movers: Sequence[bool] | None = None,
        stuck_black_loses: bool = False,
        initial: Initial | None = None,
    ):
        # movers, stuck_black_loses, knowledge: the rules' switches and knowledge (`Minimax`)
        super().__init__(black, white, max_positions, knowledge=knowledge, movers=movers, stuck_black_loses=stuck_black_loses)
        self.weak = weak
        self.leaf_plies = leaf_plies
        self.capacity = max(capacity, 16)
        self.epsilon = epsilon
        # initial: the numbers of a position not expanded yet (df-pn+); (1, 1) without it
        self.initial = initial
        # `steps` pauses the search (every frame returns its numbers) once positions reach this
        self.pause_at = INF
        self.paused_plies = 0  # the plies left where the last pause began (the deepest frame)
        self.collections = 0
        # (black to move, b, w) -> [smallest r Black wins with, largest r Black loses with, work]
        self.solved: dict[tuple[bool, int, int], list[int]] = {}
        # (black to move, b, w, r) -> (phi, delta, work), unsolved only
        self.unsolved: dict[tuple[bool, int, int, int], tuple[int, int, int]] = {}
        # the keys stored since `keep_journal` (a PPN² job's news for the other workers), in order
        self.journal: dict[tuple, None] | None = None

    # -- the question (`black_wins` and `known` are the minimax's) -----------

    def _search(self, black_to_move: bool, b: int, w: int, r: int) -> bool:
        """df-pn from the root, to a proof or a disproof."""
        phi, delta = self._mid(black_to_move, b, w, r, INF, INF)
        mover_wins = phi == 0
        assert mover_wins or delta == 0, "df-pn returned an unsolved root"
        return mover_wins == black_to_move

    def steps(self, black_to_move: bool, b: int, w: int, r: int, descents: int, every: int) -> Iterator[tuple[int, int]]:
        """The root's (phi, delta) for its mover after every `every` expansions,
        until it is solved or `descents` expansions are spent: a bounded job
        whose partial numbers are worth reporting (PPN²'s remote search).

        Each pause unwinds the whole search with every frame storing its
        current numbers, as when a threshold is exceeded, so the next step
        resumes from the table (re-expanding the path to where it stopped)
        and nothing learnt is lost.  A leaf search that started before the
        pause runs to its end, so a step can overrun `every` by the size of
        one `leaf_plies` search.  A step's `every` counts beyond the path it
        re-expands (a step shorter than the path would never get past it);
        the path counts against `descents`."""
        if r < 1:
            yield (INF, 0) if black_to_move else (0, INF)  # Black has lost: the mover wins if it is White
            return
        start = self.positions
        phi, delta = self._lookup(black_to_move, b, w, r)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * r + 1000))
        path = 0  # positions the next step re-expands to come back to where this one paused
        try:
            while phi and delta and self.positions - start < descents:
                self.pause_at = min(start + descents, self.positions + max(every, 1) + path)
                self.paused_plies = r
                phi, delta = self._mid(black_to_move, b, w, r, INF, INF)
                path = r - self.paused_plies
                yield phi, delta
        finally:
            self.pause_at = INF
            sys.setrecursionlimit(limit)

    def numbers(self, black_to_move: bool, b: int, w: int, r: int) -> tuple[int, int]:
        """A position's (phi, delta) for its mover as the table has them (fresh ones if it has none)."""
        return self._lookup(black_to_move, b, w, r)

    # -- the search --------------------------------------------------------

    def _lookup(self, black_to_move: bool, b: int, w: int, r: int) -> tuple[int, int]:
        """(phi, delta) of a node for its mover: solved, remembered, or fresh (1, 1)."""
        entry = self.solved.get((black_to_move, b, w))
        if entry is not None:
            if r >= entry[0]:  # Black wins
                return (0, INF) if black_to_move else (INF, 0)
            if r <= entry[1]:  # Black loses
                return (INF, 0) if black_to_move else (0, INF)
        found = self.unsolved.get((black_to_move, b, w, r))
        if found is not None:
            return found[0], found[1]
        if self.initial is not None:
            phi, delta = self.initial(black_to_move, b, w, r)
            if phi < 1 or delta < 1:  # 0 means solved: the search would loop on a position it never solves
                raise ValueError(f"initial numbers must be at least 1, got ({phi}, {delta})")
            return phi, delta
        return 1, 1

    def _mid(self, black_to_move: bool, b: int, w: int, r: int, th_phi: int, th_delta: int) -> tuple[int, int]:
        phi, delta = self._lookup(black_to_move, b, w, r)
        if phi >= th_phi or delta >= th_delta:
            return phi, delta
        verdict = self._static(black_to_move, b, w, r)
        if verdict is not None:
            return self._store_solved(black_to_move, b, w, r, verdict, 0)
        if r <= self.leaf_plies:
            start = self.positions
            verdict = self.value(black_to_move, b, w, r)
            return self._store_solved(black_to_move, b, w, r, verdict, self.positions - start)
        self.positions += 1
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions)
        start = self.positions
        side = self.sides[black_to_move]
        children = side.successors(b, w)
        if not children:  # the mover is stuck: it loses (BDDL), or the game ends (positional games)
            return self._store_solved(black_to_move, b, w, r, not black_to_move and not self.stuck_black_loses, 1)
        won = side.won
        for b2, w2 in children:
            if won(b2, w2):
                return self._store_solved(black_to_move, b, w, r, black_to_move, 1)
        if r == 1:  # the plies run out: Black has not won
            return self._store_solved(black_to_move, b, w, r, False, 1)

        child_side = not black_to_move if self.movers is None else self.movers[r - 1]
        r2 = r - 1
        lookup = self._lookup
        # The children's numbers as seen by the opponent of this node's mover
        # (phi: the opponent wins there).  Where the same side moves again, as in
        # (p,q) positional games, the child's own numbers are swapped into that view.
        again = child_side == black_to_move
        phis = []
        deltas = []
        for b2, w2 in children:
            p, d = lookup(child_side, b2, w2, r2)
            if again:
                p, d = d, p
            phis.append(p)
            deltas.append(d)
        epsilon = self.epsilon
        weak = self.weak
        while True:
            # phi = min child delta (the best and the second best kept for the thresholds);
            # delta = sum of child phi, or under weak PNS the largest plus one per other open child
            best = 0
            first = second = INF
            total = largest = open_children = 0
            for i, d in enumerate(deltas):
                if d < first:
                    second = first
                    first = d
                    best = i
                elif d < second:
                    second = d
                p = phis[i]
                total += p
                if p:
                    open_children += 1
                    if p > largest:  # noqa: PLR1730 (the hot loop: no call)
                        largest = p
            if first == 0:  # a child the opponent loses: the mover wins
                phi, delta = 0, INF
            elif weak:
                phi, delta = first, 0 if not open_children else min(largest + open_children - 1, INF - 1)
            else:  # (first == INF exactly when every child is won by the opponent: total == 0)
                phi, delta = first, min(total, INF - 1)
            if phi >= th_phi or delta >= th_delta:
                break
            if self.positions >= self.pause_at:  # `steps` pauses: each frame keeps its numbers
                self.paused_plies = min(self.paused_plies, r)
                break
            if weak:
                child_th_phi = th_delta - (open_children - 1)
            else:
                child_th_phi = th_delta - delta + phis[best]
            if second >= INF:
                child_th_delta = th_phi
            else:
                child_th_delta = min(th_phi, max(second + 1, int(second * (1 + epsilon)) + 1))
            b2, w2 = children[best]
            if again:
                d, p = self._mid(child_side, b2, w2, r2, child_th_delta, child_th_phi)
            else:
                p, d = self._mid(child_side, b2, w2, r2, child_th_phi, child_th_delta)
            phis[best], deltas[best] = p, d
        work = self.positions - start + 1
        if phi == 0:
            return self._store_solved(black_to_move, b, w, r, black_to_move, work)
        if delta == 0:
            return self._store_solved(black_to_move, b, w, r, not black_to_move, work)
        self.unsolved[(black_to_move, b, w, r)] = (phi, delta, work)
        if self.journal is not None:
            self.journal[(black_to_move, b, w, r)] = None
        self._bound_memory()
        return phi, delta

    # -- what the minimax stores in the solved table ---------------------------

    def _remember(self, key, r: int, black_wins: bool) -> None:
        """A value the leaf search found (one expansion of work, collected like any)."""
        entry = self.solved.get(key)
        if entry is None:
            entry = self.solved[key] = [INF, 0, 1]
        if black_wins:
            entry[0] = min(entry[0], r)
        else:
            entry[1] = max(entry[1], r)
        if self.journal is not None:
            self.journal[key] = None

    def _remember_verdict(self, black_to_move: bool, b: int, w: int, r: int, black_wins: bool) -> None:
        """The knowledge's verdicts are kept as solved, as df-pn keeps them."""
        self._store_solved(black_to_move, b, w, r, black_wins, 0)

    def _static(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        """Does Black win, as the `knowledge` function decides without a search
        (None: it does not)?  Asked by df-pn and by the leaf search alike."""
        if self.knowledge is None:
            return None
        verdict = self.knowledge(black_to_move, b, w, r)
        if verdict is not None:
            self.knowledge_hits += 1
        return verdict

    def _store_solved(self, black_to_move: bool, b: int, w: int, r: int, black_wins: bool, work: int) -> tuple[int, int]:
        key = (black_to_move, b, w)
        entry = self.solved.get(key)
        if entry is None:
            entry = self.solved[key] = [INF, 0, 0]
        if black_wins:
            entry[0] = min(entry[0], r)
        else:
            entry[1] = max(entry[1], r)
        entry[2] += work
        self.unsolved.pop((black_to_move, b, w, r), None)
        if self.journal is not None:
            self.journal[key] = None
        self._bound_memory()
        mover_wins = black_wins == black_to_move
        return (0, INF) if mover_wins else (INF, 0)

    # -- what a table learns from others (PPN²'s table news) -------------------

    def keep_journal(self) -> None:
        """Note every key stored from now on, for `news`."""
        self.journal = {}

    def news(self, min_work: int = 1) -> tuple[tuple[int, ...], ...]:
        """The entries stored since `keep_journal` that cost at least `min_work` and are
        still held, as flat tuples: (black to move, b, w, smallest winning r, largest
        losing r, work) for a solved board, (black to move, b, w, r, phi, delta, work)
        for an unsolved position.  Ends the journal.

        Why share them: two PPN² workers searching nearby leaves meet the same
        positions (Breakthrough's transpositions), and each would otherwise solve
        them again in its own table; measured, sharing both kinds at job
        boundaries took 2 workers' positions from 1.5 times one worker's to
        about one worker's (docs/benchmarks.md)."""
        journal, self.journal = self.journal or {}, None
        found: list[tuple[int, ...]] = []
        for key in journal:
            if len(key) == 3:
                entry = self.solved.get(key)
                if entry is not None and entry[2] >= min_work:
                    found.append((*key, entry[0], entry[1], entry[2]))
            else:
                unsolved = self.unsolved.get(key)
                if unsolved is not None and unsolved[2] >= min_work:
                    found.append((*key, *unsolved))
        return tuple(found)

    def learn(self, news: Sequence[Sequence[int]]) -> None:
        """Take another table's `news`: solved facts merge by the plies-left
        monotonicity (they are exact, as this table's own are), unsolved numbers
        replace those that cost less work (they only guide the search)."""
        for item in news:
            if len(item) == 6:
                black_to_move, b, w, win, loss, work = item
                key = (bool(black_to_move), b, w)
                entry = self.solved.get(key)
                if entry is None:
                    self.solved[key] = [win, loss, work]
                else:
                    entry[0] = min(entry[0], win)
                    entry[1] = max(entry[1], loss)
                    entry[2] = max(entry[2], work)
            else:
                black_to_move, b, w, r, phi, delta, work = item
                key4 = (bool(black_to_move), b, w, r)
                held = self.unsolved.get(key4)
                if held is None or held[2] < work:
                    self.unsolved[key4] = (phi, delta, work)
        self._bound_memory()

    def _bound_memory(self) -> None:
        if len(self.solved) + len(self.unsolved) <= self.capacity:
            return
        # SmallTreeGC: keep the half of all entries that cost the most work to build
        self.collections += 1
        works = sorted([e[2] for e in self.unsolved.values()] + [e[2] for e in self.solved.values()])
        cut = works[len(works) // 2]
        self.unsolved = {k: e for k, e in self.unsolved.items() if e[2] > cut}
        self.solved = {k: e for k, e in self.solved.items() if e[2] > cut}


def mobility_numbers(black: SideMoves, white: SideMoves) -> Initial:
    """df-pn+ initial numbers from mobility: a fresh position whose mover has
    n moves starts at phi 1, delta n.  One good move proves it but all n must
    fail to disprove it, so a search choosing between fresh children prefers
    the one whose mover has fewest replies: forcing moves first.  On the
    suite this took df-pn from about the minimax's positions to fewer on most
    families (docs/benchmarks.md, "The game engine").  n is the side's
    `count` where it has one: generating every fresh child's successors only
    to count them took about twice the time."""

    def counter(side: SideMoves) -> Callable[[int, int], int]:
        if side.count is not None:
            return side.count
        return lambda b, w: len(side.successors(b, w))

    counts = {True: counter(black), False: counter(white)}

    def initial(black_to_move: bool, b: int, w: int, r: int) -> tuple[int, int]:
        return 1, max(1, counts[black_to_move](b, w))

    return initial


def search_pns(
    game: Game,
    depth: int | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    capacity: int = DEFAULT_CAPACITY,
    knowledge: Knowledge | None = None,
    mobility: bool = True,
) -> SearchResult:
    """Decide whether Black wins within `depth` plies (default: the problem's) by df-pn.

    The same question, answer and budget contract as `bddl.engines.minimax.search`:
    raises `SearchBudgetExceeded` after `max_positions` expanded positions.
    The first move reported is one that wins at once, else the first winning
    one, in move order, that the search proved.  `mobility=False` starts fresh positions at (1, 1)
    instead of `mobility_numbers`."""
    depth = game.problem.depth if depth is None else depth
    start = time.perf_counter()
    black, white = game_sides(game)
    initial = mobility_numbers(black, white) if mobility else None
    engine = ProofNumberSearch(black, white, max_positions, capacity, knowledge=knowledge, initial=initial)
    state = game.initial
    first_move = None
    wins = engine.black_wins(game.black_first, state.black, state.white, depth)
    if wins and game.black_first:
        first_move = _first_winning_move(game, engine, depth)
    return SearchResult(wins, depth, first_move, engine.positions, time.perf_counter() - start, engine=engine)


def _first_winning_move(game: Game, engine: ProofNumberSearch, depth: int):
    """A move that wins at once, else the first move, in move order, known (or, if the
    table forgot, proved again) to win."""
    moves = game.moves(game.initial, BLACK)
    for move in moves:
        if game.won(move.state, BLACK):
            return move
    for move in moves:
        s = move.state
        if engine.known(False, s.black, s.white, depth - 1):
            return move
    for move in moves:
        s = move.state
        if depth > 1 and engine.black_wins(False, s.black, s.white, depth - 1):
            return move
    raise AssertionError("df-pn proved a win but no first move wins")
