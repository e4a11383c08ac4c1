"""A plain depth-first minimax over the rules alone, without a table: the referee's referee.

It remembers nothing between positions and prunes nothing but what `any`/`all` stop at (a win
found for the side to move ends its loop), so it is exponential in the depth; what it buys is an
answer that shares no code with the tables, orderings, cuts and knowledge of the other engines,
written from `bddl.rules.GameRules` alone, the same for every language: Black wins a position
when, with plies left, it moves into a win or a position it wins; White, when every move of
White's neither wins for White nor leaves Black a position Black cannot win; a side without a
move gets what the stuck rule says.  (`bddl.rules.RulesMinimax` is the same recursion with a table.)
"""

from __future__ import annotations

import time

from ..rules import BLACK, WHITE, GameRules, Play, Position
from .minimax import SearchBudgetExceeded
from .result import SearchResult


def search_depth_first(rules: GameRules, max_positions: int) -> SearchResult:
    """Does Black win within the rules' depth, and by which first move?  Raises
    `SearchBudgetExceeded` past `max_positions` positions expanded."""
    start = time.perf_counter()
    before = rules.winner_before_play()
    if before is not None:
        return SearchResult(before == BLACK, rules.depth, None, 0, time.perf_counter() - start)
    search = _DepthFirst(rules, max_positions)
    first: Play | None = None
    if rules.depth > 0 and rules.to_move(0) == BLACK:
        first = search.winning_play(rules.initial)
        wins = first is not None or search.stuck_win(rules.initial)
    else:
        wins = search.black_wins(rules.initial)
    return SearchResult(wins, rules.depth, first, search.positions, time.perf_counter() - start)


class _DepthFirst:
    def __init__(self, rules: GameRules, max_positions: int):
        self.rules = rules
        self.max_positions = max_positions
        self.positions = 0

    def _expand(self, position: Position) -> list[Play]:
        self.positions += 1
        if self.positions > self.max_positions:
            raise SearchBudgetExceeded(self.positions - 1)
        return self.rules.plays(position)

    def stuck_win(self, position: Position) -> bool:
        """Black's win where the side to move has no move (the stuck rule)."""
        return not self.rules.plays(position) and self.rules.stuck_winner(self.rules.to_move(position.ply)) == BLACK

    def winning_play(self, position: Position) -> Play | None:
        """Black's first play that wins, Black to move (None: none does)."""
        rules = self.rules
        for play in self._expand(position):
            if rules.won(play.after, BLACK) or self.black_wins(play.after):
                return play
        return None

    def black_wins(self, position: Position) -> bool:
        rules = self.rules
        if position.ply >= rules.depth:
            return False
        side = rules.to_move(position.ply)
        plays = self._expand(position)
        if not plays:
            return rules.stuck_winner(side) == BLACK
        if side == BLACK:
            return any(rules.won(q.after, BLACK) or self.black_wins(q.after) for q in plays)
        return all(not rules.won(q.after, WHITE) and self.black_wins(q.after) for q in plays)
