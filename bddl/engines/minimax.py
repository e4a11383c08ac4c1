"""Does Black win within d plies?  Exhaustive game-tree search, the test oracle.

The rules (the paper's Def 10, generalised to any depth and either side first):

* players alternate; Black moves first unless the problem says otherwise;
* after a player's move, if that player's goal holds, that player has won;
* a player with no legal move in its turn has lost;
* when the plies run out and Black has not won, Black has lost.

The search is a depth-first AND/OR search with a transposition table.  The
table exploits monotonicity: a Black win with r plies left is a win with any
r' >= r plies left (the same strategy still finishes in time), and a loss
with r plies left is a loss with any fewer.  So each (position, side to move)
keeps the smallest depth known to win and the largest known to lose.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from ..budget import MemoryBudgetExceeded, Progress, engine_bytes, max_stored_positions, memory_limit, require, stored_position_bytes
from ..game import BLACK, WHITE, Game, Move, State

DEFAULT_MAX_POSITIONS = 20_000_000


class SearchBudgetExceeded(Exception):
    """The search visited more positions than it was allowed to."""

    def __init__(self, positions: int):
        super().__init__(f"search stopped after {positions} positions without an answer")
        self.positions = positions


@dataclass(frozen=True)
class SearchResult:
    black_wins: bool
    depth: int
    first_move: Move | None
    positions: int
    seconds: float


class _Searcher:
    def __init__(self, game: Game, max_positions: int):
        self.game = game
        self.max_positions = max_positions
        self.positions = 0
        # (black, white) -> [smallest winning depth, largest losing depth], per side to move
        self.table: dict[str, dict[tuple[int, int], list[int]]] = {BLACK: {}, WHITE: {}}
        self.black_rules = game.black
        self.white_rules = game.white
        cells = game.geometry.cells
        placements = sum(len(box) for rules in (game.black, game.white) for box in rules.boxes)
        require("the game engine's tables for this board", engine_bytes(cells, placements))
        self.memory_cap = max_stored_positions(cells, placements)
        self.memory = lambda n: engine_bytes(cells, placements) + n * stored_position_bytes(cells)
        self.progress = Progress("search")

    def _expand(self) -> None:
        """Count one more expanded position against the budgets."""
        self.positions += 1
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions)
        if self.positions > self.memory_cap:
            raise MemoryBudgetExceeded(f"the search's table of more than {self.memory_cap:,} positions", self.memory(self.positions), memory_limit())
        if not self.positions & 0xFFFF:
            self.progress(f"{self.positions:,} positions expanded")

    def black_to_move(self, b: int, w: int, r: int) -> bool:
        """Black to move with r >= 1 plies left: can Black force a win?"""
        entry = self.table[BLACK].get((b, w))
        if entry is not None:
            if r >= entry[0]:
                return True
            if r <= entry[1]:
                return False
        self._expand()
        rules = self.black_rules
        children = _distinct(rules.successors(b, w))
        won = rules.won
        result = False
        if children:
            for b2, w2 in children:
                if won(b2, w2):
                    result = True
                    break
            else:
                if r > 1:
                    for b2, w2 in children:
                        if self.white_to_move(b2, w2, r - 1):
                            result = True
                            break
        self._store(BLACK, b, w, r, result)
        return result

    def white_to_move(self, b: int, w: int, r: int) -> bool:
        """White to move with r >= 1 plies left: does Black win whatever White does?"""
        entry = self.table[WHITE].get((b, w))
        if entry is not None:
            if r >= entry[0]:
                return True
            if r <= entry[1]:
                return False
        self._expand()
        rules = self.white_rules
        children = _distinct(rules.successors(b, w))
        won = rules.won
        if not children:
            result = True
        elif r == 1:
            result = False
        else:
            result = True
            for b2, w2 in children:
                if won(b2, w2):
                    result = False
                    break
            else:
                for b2, w2 in children:
                    if not self.black_to_move(b2, w2, r - 1):
                        result = False
                        break
        self._store(WHITE, b, w, r, result)
        return result

    def _store(self, side: str, b: int, w: int, r: int, result: bool) -> None:
        table = self.table[side]
        entry = table.get((b, w))
        if entry is None:
            entry = table[(b, w)] = [sys.maxsize, 0]
        if result:
            entry[0] = min(entry[0], r)
        else:
            entry[1] = max(entry[1], r)


def _distinct(successors) -> list[tuple[int, int]]:
    """The distinct successor states, in move order (an action that ignores
    ?y, say, reaches the same state from every row)."""
    return list(dict.fromkeys((b2, w2) for _, _, b2, w2 in successors))


def search(game: Game, depth: int | None = None, max_positions: int = DEFAULT_MAX_POSITIONS) -> SearchResult:
    """Decide whether Black wins within `depth` plies (default: the problem's).

    Raises `SearchBudgetExceeded` after `max_positions` expanded positions."""
    depth = game.problem.depth if depth is None else depth
    start = time.perf_counter()
    searcher = _Searcher(game, max_positions)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * depth + 1000))
    try:
        state = game.initial
        first_move = None
        if depth < 1:
            wins = False
        elif game.black_first:
            wins = False
            for move in game.moves(state, BLACK):
                s = move.state
                if game.won(s, BLACK) or (depth > 1 and searcher.white_to_move(s.black, s.white, depth - 1)):
                    wins, first_move = True, move
                    break
        else:
            wins = searcher.white_to_move(state.black, state.white, depth)
    finally:
        sys.setrecursionlimit(limit)
    return SearchResult(wins, depth, first_move, searcher.positions, time.perf_counter() - start)


def black_wins(game: Game, state: State, side: str, plies: int, max_positions: int = DEFAULT_MAX_POSITIONS) -> bool:
    """Does Black win from `state` with `side` to move and `plies` plies left?"""
    if plies < 1:
        return False
    searcher = _Searcher(game, max_positions)
    if side == BLACK:
        return searcher.black_to_move(state.black, state.white, plies)
    return searcher.white_to_move(state.black, state.white, plies)
