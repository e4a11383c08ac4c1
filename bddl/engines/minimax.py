"""Does Black win within d plies?  Exhaustive game-tree search: the one
minimax of the engines, and on a BDDL game the test oracle.

The rules (the paper's Def 10, generalised to any depth and either side first):

* players alternate; Black moves first unless the problem says otherwise;
* after a player's move, if that player's goal holds, that player has won;
* a player with no legal move in its turn has lost;
* when the plies run out and Black has not won, Black has lost.

The search (`Minimax`) is a depth-first AND/OR search with a transposition
table.  The table exploits monotonicity: a Black win with r plies left is a
win with any r' >= r plies left (the same strategy still finishes in time),
and a loss with r plies left is a loss with any fewer.  So each position keeps
the smallest depth known to win and the largest known to lose.  That holds
when the turns alternate; under a turn pattern (`movers`) the turns ahead
differ from one r to another, and it holds only because the board names the
plies left (a positional game's stones count its time points), so that a
board never meets two depths (tests/bddl/test_minimax.py has a game where
it would fail otherwise).

Why one core serves every explicit engine: it only reads a game through two
`SideMoves` (each side's distinct successors and goal test), the same
interface df-pn (`bddl.engines.pns`) reads, plus the two rule switches the
games differ in: who moves with r plies left (`movers`: (p,q) turn patterns
of positional games are not alternating) and what a mover without a move
means (`stuck_black_loses`: in a positional game the game just ends and Black
has not won).  What a game knows beyond its moves comes in through hooks, so
that the search itself exists once:

* `knowledge`: a verdict without a search, asked before a position is
  expanded (the race patterns of `bddl.engines.race`, the lost causes of the
  positional rules); not counted as an expansion, and kept in the table
  only by df-pn (`_remember_verdict`);
* `judge`: the value one ply decides, asked once the position is counted; it
  replaces the generic "stuck or winning at once" tests on every child by the
  rules' own (the positional rules read it from the cells that complete a
  goal, without a goal test per child);
* `key`: the table key of a position (the positional rules' canonical board
  under symmetries); by default (side to move, black cells, white cells);
* `watch`: called at positions counts it chooses (memory guards, progress,
  the positional solver switching symmetries on);
* what is stored (`_remember`, `_remember_verdict`): df-pn
  (`ProofNumberSearch`) is this search with its own entries in the table
  (the work spent beside the depths, for its garbage collection), which its
  leaf search (the last few plies) shares.

The BDDL entry points (`search`, `black_wins`) sit on top: `game_sides`
reads a `bddl.game.Game` as two `SideMoves`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..budget import MemoryBudgetExceeded, Progress, engine_bytes, max_stored_positions, memory_limit, require, stored_position_bytes
from ..game import BLACK, Game, Move, State
from .result import SearchResult

DEFAULT_MAX_POSITIONS = 20_000_000
NEVER = 1 << 62  # a positions count no search reaches, a depth no win needs
UNKNOWN = (NEVER, 0)  # a table entry: no depth known to win, none known to lose

Board = tuple[int, int]
# (black to move, black cells, white cells, plies left) -> True (Black wins), False (Black loses), None (unknown)
Knowledge = Callable[[bool, int, int, int], "bool | None"]
# (black to move, black cells, white cells, plies left) -> the position's table key
Key = Callable[[bool, int, int, int], Hashable]
# positions expanded so far -> the count at which to be called next
Watch = Callable[[int], int]


class SearchBudgetExceeded(Exception):
    """The search visited more positions than it was allowed to."""

    def __init__(self, positions: int):
        super().__init__(f"search stopped after {positions} positions without an answer")
        self.positions = positions


@dataclass(frozen=True)
class SideMoves:
    """One side's move generator: distinct successor boards, and the side's goal test."""

    successors: Callable[[int, int], Sequence[Board]]
    won: Callable[[int, int], bool]
    # about how many moves the side has (df-pn's `mobility_numbers`), cheaper than the successors
    count: Callable[[int, int], int] | None = None


def table_verdict(entry, r: int) -> bool | None:
    """A solved-table entry [smallest r Black wins with, largest r Black loses with]
    read at r plies left (monotonicity: a win stays a win with more plies, a loss
    with fewer); None where the entry does not decide r."""
    if entry is not None:
        if r >= entry[0]:
            return True
        if r <= entry[1]:
            return False
    return None


class Minimax:
    """Depth-first minimax over boards (black, white) with Black to move or
    not and r plies left, with a monotone transposition table."""

    def __init__(
        self,
        black: SideMoves,
        white: SideMoves,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        *,
        knowledge: Knowledge | None = None,
        judge: Knowledge | None = None,
        key: Key | None = None,
        movers: Sequence[bool] | None = None,
        stuck_black_loses: bool = False,
        watch: Watch | None = None,
    ):
        # movers[r]: does Black move with r plies left?  None: the sides alternate.  Given,
        # each board must meet one r only (else the table's monotonicity does not hold).
        # stuck_black_loses: a mover without a move ends the game with Black not
        # having won (positional games), rather than losing it (BDDL).
        self.sides = {True: black, False: white}
        self.max_positions = max_positions
        self.knowledge = knowledge
        # judge: where given, it decides every position whose mover is stuck or wins
        # at once (None: the mover has moves, and none of them wins at once)
        self.judge = judge
        self.key = key
        self.movers = movers
        self.stuck_black_loses = stuck_black_loses
        self.watch = watch
        self.next_watch = NEVER if watch is None else 1
        self.positions = 0
        self.knowledge_hits = 0
        # key -> (the smallest r Black is known to win with, the largest r it is known to lose with,
        # and whatever else an engine keeps: df-pn's work); the minimax's pairs are shared
        # (`_pairs`), so its entry costs its key and a slot of the table only
        self.solved: dict[Any, Any] = {}
        self._pairs: dict[tuple[int, int], tuple[int, int]] = {}
        # The carriers of Black's wins (`use_carriers`; Maker-Breaker positional games only)
        self.carriers: dict[int, int] | None = None
        self._threats: Callable[[bool], int] | None = None
        self._raw_shift = 0

    # -- the question ------------------------------------------------------

    def black_wins(self, black_to_move: bool, b: int, w: int, r: int) -> bool:
        """Does Black win from this board with r plies left?"""
        if r < 1:
            return False
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * r + 1000))
        try:
            return self._search(black_to_move, b, w, r)
        finally:
            sys.setrecursionlimit(limit)

    def _search(self, black_to_move: bool, b: int, w: int, r: int) -> bool:
        """The search from a root, r >= 1: the minimax's is `value` (df-pn's, `_mid`)."""
        return self.value(black_to_move, b, w, r)

    def use_carriers(self, cells: int, threats: Callable[[bool], int]) -> None:
        """Skip White's replies that a Black win already proved beats (a
        Maker-Breaker game's carrier pruning).

        The carrier of a Black win is a set of open cells holding every cell
        Black's winning strategy may claim, whatever White does.  Say Black
        beats White's claim x1 with a strategy T of carrier C, and x2 is a
        cell outside C.  Then Black beats x2 as well: it plays T pretending
        White's stone were on x1 rather than x2 (a White claim of x1 later
        stands for one of x2, which T never claims).  The two boards differ
        only on that pair, they have as many open cells at every time point,
        and T's goal holds no White cell (so not x1) and only cells of C or
        Black's stones (so not x2): Black completes it in the real play when
        it does in the imagined one.  White's stones count for nothing but
        blocking, so this needs White to have no winning sets of its own.
        So a White node tries only the cells in every carrier found so far
        among its replies.

        Carriers are built bottom up: a Black node's is its claim and the
        child's carrier; a White node's, the union of its children's and
        Black's cells completing a goal now (the replies the cuts never try:
        the forced block's other threat, the cornered mover's second one); a
        position the judge wins for Black, Black's completing cells
        (`threats`, asked of the position being expanded, before its
        children).  They are kept per raw board (a win reached through a
        symmetric table entry has no carrier known here, which counts as
        every cell: sound, it only prunes less)."""
        self.carriers = {}
        self._threats = threats
        self._raw_shift = cells

    def known(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        """What the table says about Black's chances (None: not decided there)."""
        key = (black_to_move, b, w) if self.key is None else self.key(black_to_move, b, w, r)
        return table_verdict(self.solved.get(key), r)

    # -- the search --------------------------------------------------------

    def value(self, black_to_move: bool, b: int, w: int, r: int) -> bool:
        """Does Black win, r >= 1?  The table, the knowledge, then one
        expansion: the judge or the generic tests, then the children.
        (One function: the hot path of every explicit engine.)"""
        key = (black_to_move, b, w) if self.key is None else self.key(black_to_move, b, w, r)
        entry = self.solved.get(key)
        if entry is not None:  # table_verdict, inline: this is every engine's hottest line
            if r >= entry[0]:
                return True
            if r <= entry[1]:
                return False
        if self.knowledge is not None:
            verdict = self.knowledge(black_to_move, b, w, r)
            if verdict is not None:
                self.knowledge_hits += 1
                self._remember_verdict(black_to_move, b, w, r, verdict)
                return verdict
        self.positions += 1
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions)
        if self.positions >= self.next_watch:
            self.next_watch = self.watch(self.positions)  # type: ignore[misc]
        side = self.sides[black_to_move]
        children: Sequence[Board] = ()
        result: bool | None
        carriers = self.carriers
        threats = 0
        if self.judge is not None:
            result = self.judge(black_to_move, b, w, r)
            if carriers is not None:
                threats = self._threats(black_to_move)  # type: ignore[misc]
            if result is None:
                if r == 1:  # the plies run out: Black has not won
                    result = False
                else:
                    children = side.successors(b, w)
        else:
            children = side.successors(b, w)
            if not children:  # the mover is stuck: it loses (BDDL), or the game ends (positional games)
                result = not black_to_move and not self.stuck_black_loses
            elif r == 1 and not black_to_move:  # White wins or not, Black has not won
                result = False
            else:
                won = side.won
                result = None
                for b2, w2 in children:
                    if won(b2, w2):
                        result = black_to_move
                        break
                else:
                    if r == 1:
                        result = False
        if result is None:
            child = not black_to_move if self.movers is None else self.movers[r - 1]
            r2 = r - 1
            value = self.value
            if black_to_move:
                result = False
                for b2, w2 in children:
                    if value(child, b2, w2, r2):
                        result = True
                        if carriers is not None:
                            shift = self._raw_shift
                            carriers[b << shift | w] = (b2 ^ b) | carriers.get(b2 << shift | w2, -1)
                        break
            elif carriers is None:
                result = True
                for b2, w2 in children:
                    if not value(child, b2, w2, r2):
                        result = False
                        break
            else:
                result = self._white_node_with_carriers(child, b, w, r2, children, threats)
        elif result and carriers is not None:
            carriers[b << self._raw_shift | w] = threats
        self._remember(key, r, result)
        return result

    def _white_node_with_carriers(self, child: bool, b: int, w: int, r2: int, children: Sequence[Board], threats: int) -> bool:
        """White to move: does every reply lose?  Replies outside the carrier
        of a win already found are skipped (`use_carriers` says why)."""
        carriers = self.carriers
        assert carriers is not None
        shift = self._raw_shift
        worth_trying = -1  # every cell
        union = threats
        value = self.value
        for b2, w2 in children:
            if not (w2 ^ w) & worth_trying:
                continue
            if not value(child, b2, w2, r2):
                return False
            carrier = carriers.get(b2 << shift | w2, -1)
            worth_trying &= carrier
            union |= carrier
        carriers[b << shift | w] = union
        return True

    # -- the table (df-pn keeps its own entries in it: `bddl.engines.pns`) ----

    def _remember(self, key: Hashable, r: int, black_wins: bool) -> None:
        win, loss = self.solved.get(key, UNKNOWN)
        pair = (min(win, r), loss) if black_wins else (win, max(loss, r))
        shared = self._pairs.get(pair)
        if shared is None:
            shared = self._pairs[pair] = pair
        self.solved[key] = shared

    def _remember_verdict(self, black_to_move: bool, b: int, w: int, r: int, black_wins: bool) -> None:
        """A verdict of the knowledge: not kept (asking again is what knowledge is for)."""


# -- BDDL games -------------------------------------------------------------


def game_sides(game: Game) -> tuple[SideMoves, SideMoves]:
    """Black's and White's moves of a BDDL game, as the searches read them."""

    def distinct(rules):
        def successors(b: int, w: int) -> list[Board]:
            # an action that ignores ?y, say, reaches one state from every row
            return list(dict.fromkeys((b2, w2) for _, _, b2, w2 in rules.successors(b, w)))

        return successors

    def legal(rules):
        # the (action, position) pairs that may be played: the distinct successors
        # can be fewer, which an initial number need not know
        def count(b: int, w: int) -> int:
            return sum(mask.bit_count() for mask in rules.legal_masks(b, w))

        return count

    return (
        SideMoves(distinct(game.black), game.black.won, legal(game.black)),
        SideMoves(distinct(game.white), game.white.won, legal(game.white)),
    )


def _game_minimax(game: Game, max_positions: int) -> Minimax:
    """The minimax on a BDDL game, with the memory guard of its table and progress on stderr."""
    cells = game.geometry.cells
    placements = sum(len(box) for rules in (game.black, game.white) for box in rules.boxes)
    require("the game engine's tables for this board", engine_bytes(cells, placements))
    cap = max_stored_positions(cells, placements)
    progress = Progress("search")

    def watch(positions: int) -> int:
        if positions > cap:
            raise MemoryBudgetExceeded(
                f"the search's table of more than {cap:,} positions",
                engine_bytes(cells, placements) + positions * stored_position_bytes(cells),
                memory_limit(),
            )
        if not positions & 0xFFFF:
            progress(f"{positions:,} positions expanded")
        return min(cap + 1, (positions | 0xFFFF) + 1)

    black, white = game_sides(game)
    return Minimax(black, white, max_positions, watch=watch)


def search(game: Game, depth: int | None = None, max_positions: int = DEFAULT_MAX_POSITIONS) -> SearchResult:
    """Decide whether Black wins within `depth` plies (default: the problem's).

    Raises `SearchBudgetExceeded` after `max_positions` expanded positions."""
    depth = game.problem.depth if depth is None else depth
    start = time.perf_counter()
    engine = _game_minimax(game, max_positions)
    state = game.initial
    first_move = None
    if depth < 1:
        wins = False
    elif game.black_first:
        first_move = first_winning_move(game, lambda s: engine.black_wins(False, s.black, s.white, depth - 1))
        wins = first_move is not None
    else:
        wins = engine.black_wins(False, state.black, state.white, depth)
    return SearchResult(wins, depth, first_move, engine.positions, time.perf_counter() - start, engine=engine)


def first_winning_move(game: Game, wins_after: Callable[[State], bool]) -> Move | None:
    """Black's first move from the initial position that wins at once, else the first
    that `wins_after` (Black wins from the state after it) says wins: a win at once
    costs no search, and naming a longer win where one exists looks broken
    (`bddl.at_once` says why every route does this)."""
    moves = game.moves(game.initial, BLACK)
    at_once = next((move for move in moves if game.won(move.state, BLACK)), None)
    if at_once is not None:
        return at_once
    return next((move for move in moves if wins_after(move.state)), None)


def black_wins(game: Game, state: State, side: str, plies: int, max_positions: int = DEFAULT_MAX_POSITIONS) -> bool:
    """Does Black win from `state` with `side` to move and `plies` plies left?"""
    if plies < 1:
        return False
    return _game_minimax(game, max_positions).black_wins(side == BLACK, state.black, state.white, plies)
