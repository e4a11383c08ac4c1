"""Using the race patterns in a search: a static verdict for df-pn.

Why this module exists: a pattern says the attacker wins a race; the search
needs a verdict on a whole position, which also depends on the defender's
own race.  `RaceKnowledge` places every window shape on the board for each
side, looks the side's pawns up in the pattern table, and concludes only
when every pawn of the other side is too far from its goal row to get there
in the moves it has; it remembers the orders of the board regions it has
seen, since regions repeat across positions.
"""

from __future__ import annotations

from ...game import BLACK, WHITE, Game
from .patterns import order_table, windows
from .recognise import breakthrough_directions

ORDERS_KEPT = 250_000  # `RaceKnowledge`'s remembered orders (about 50 MB at most), then it starts afresh


class RaceKnowledge:
    """A static verdict for df-pn: `knowledge(black_to_move, b, w, r)` is True
    when Black surely wins within r plies, False when Black surely loses, None
    when the patterns say nothing."""

    def __init__(self, game: Game, directions: dict[str, int]):
        g = game.geometry
        self.height = g.height
        self.directions = directions
        self.hits = 0
        # per attacker: [(x0, window, [(attacker-cell bit, window bit)...])]
        self.placements = {}
        for side, dy in directions.items():
            placements = []
            for x0 in range(1, g.width + 1):
                for window in windows(g.width, g.height):
                    if window.width + x0 - 1 > g.width:
                        continue
                    if window.left_open != (x0 > 1) or window.right_open != (x0 + window.width - 1 < g.width):
                        continue
                    bits = []
                    for c, r in window.cells():
                        # window row r sits height-1-r rows before the goal row
                        y = g.height - (window.height - 1 - r) if dy > 0 else 1 + (window.height - 1 - r)
                        bits.append((g.bit(x0 + c, y), window.bit(c, r)))
                    placements.append((window, bits))
            self.placements[side] = placements
        # per side: the cells its windows cover (an order depends on them alone), and its rows
        # by the moves a pawn there needs to reach the goal row, nearest first (a reach is the
        # first row holding a pawn)
        self.region = {side: sum({board_bit for _, bits in placements for board_bit, _ in bits}) for side, placements in self.placements.items()}
        self.rows = {side: sorted((g.height - y if dy > 0 else y - 1, sum(g.bit(x, y) for x in range(1, g.width + 1)))
                                  for y in range(1, g.height + 1)) for side, dy in directions.items()}
        # (side, its pawns and the other's in its region, attacker first) -> order: the windows'
        # scan was a fifth of df-pn's time on Breakthrough, and regions repeat across positions
        self.orders: dict[tuple[str, int, int, bool], int | None] = {}

    def _order(self, side: str, mine: int, theirs: int, attacker_first: bool) -> int | None:
        region = self.region[side]
        key = (side, mine & region, theirs & region, attacker_first)
        found = self.orders.get(key, False)
        if found is not False:
            return found
        if len(self.orders) >= ORDERS_KEPT:
            self.orders.clear()
        order = self.orders[key] = self._scan(side, mine, theirs, attacker_first)
        return order

    def _scan(self, side: str, mine: int, theirs: int, attacker_first: bool) -> int | None:
        """The smallest order of a pattern matching the side's windows (None: none matches)."""
        best = None
        for window, bits in self.placements[side]:
            a = d = 0
            for board_bit, window_bit in bits:
                if mine & board_bit:
                    a |= window_bit
                elif theirs & board_bit:
                    d |= window_bit
            order = order_table(window, attacker_first).get((a, d))
            if order is not None and (best is None or order < best):
                best = order
        return best

    def _reach(self, side: str, pawns: int) -> int:
        """The fewest moves any pawn of `side` needs to reach its goal row."""
        for distance, row in self.rows[side]:
            if pawns & row:
                return distance
        return self.height

    def __call__(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        for side, mine, theirs in ((BLACK, b, w), (WHITE, w, b)):
            moving = black_to_move == (side == BLACK)
            order = self._order(side, mine, theirs, moving)
            if order is None:
                continue
            defender_moves = order - 1 if moving else order
            if self._reach(WHITE if side == BLACK else BLACK, theirs) <= defender_moves:
                continue
            if side == WHITE:
                self.hits += 1
                return False  # White gets there first: Black never wins
            if (2 * order - 1 if moving else 2 * order) <= r:
                self.hits += 1
                return True
        return None


def race_knowledge(game: Game) -> RaceKnowledge | None:
    """Race patterns for this game, if it is Breakthrough-like."""
    directions = breakthrough_directions(game.domain, game.problem)
    return None if directions is None else RaceKnowledge(game, directions)
