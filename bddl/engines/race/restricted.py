"""The restricted game, whose attacker win is a real win, and its search.

Why this module exists: a race pattern is only as good as its proof, and the
proof is an exhaustive search of a small game on a window of the board that
over-approximates the defender.  Our formulation, made so that a restricted
win is a real win:

* the window is `width` columns by `height` rows ending at the attacker's
  goal row; row 0 is the farthest from the goal, row height-1 the goal row;
* the attacker moves only its pawns inside the window, by Breakthrough's
  rules (straight ahead onto an open cell, diagonally ahead onto a cell not
  its own, capturing), and wins by reaching the goal row;
* the defender is over-approximated: at each turn it may pass (a move
  elsewhere on the board), move a pawn of the window by the rules, move one
  out of the window (it vanishes), or bring a new pawn in at a window column
  next to an open side (a side that is not the board's edge), on any row
  but the goal row, capturing what is there.  A pawn moving away from the
  goal row cannot come from above the window.

So whatever the defender does in the real game is one of its restricted
moves, and the attacker's restricted strategy is legal in the real game.
The attacker then wins unless the defender reaches its own goal first;
`knowledge.RaceKnowledge` only concludes when every defender pawn is too far
from the defender's goal row to get there in the moves it has.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..minimax import SideMoves
from ..pns import ProofNumberSearch

MAX_ORDER = 2


@dataclass(frozen=True)
class Window:
    """A window's shape: columns, rows, and which sides the defender may enter from."""

    width: int
    height: int
    left_open: bool
    right_open: bool

    def bit(self, column: int, row: int) -> int:
        return 1 << (row * self.width + column)

    @property
    def goal_row(self) -> int:
        return sum(self.bit(c, self.height - 1) for c in range(self.width))

    def cells(self) -> list[tuple[int, int]]:
        return [(c, r) for r in range(self.height) for c in range(self.width)]


def restricted_moves(window: Window) -> tuple[SideMoves, SideMoves]:
    """The restricted game as df-pn sides: the attacker plays 'Black' (its
    pawns in the first mask), the defender 'White', never winning, never stuck."""
    width, height = window.width, window.height
    bit = window.bit
    goal = window.goal_row
    entries = [bit(c, r) for c in ([0] if window.left_open else []) + ([width - 1] if window.right_open else []) for r in range(height - 1)]

    def attacker(a: int, d: int) -> list[tuple[int, int]]:
        out = []
        for c, r in window.cells():
            here = bit(c, r)
            if not a & here or r == height - 1:
                continue
            ahead = bit(c, r + 1)
            if not (a | d) & ahead:
                out.append((a ^ here | ahead, d))
            for c2 in (c - 1, c + 1):
                if 0 <= c2 < width:
                    target = bit(c2, r + 1)
                    if not a & target:
                        out.append((a ^ here | target, d & ~target))
        return list(dict.fromkeys(out))

    def defender(a: int, d: int) -> list[tuple[int, int]]:
        out = [(a, d)]  # a move elsewhere on the board
        for c, r in window.cells():
            here = bit(c, r)
            if not d & here:
                continue
            if r == 0:
                out.append((a, d ^ here))  # straight out of the window
            elif not (a | d) & bit(c, r - 1):
                out.append((a, d ^ here | bit(c, r - 1)))
            for c2 in (c - 1, c + 1):
                if r == 0 or not 0 <= c2 < width:
                    out.append((a, d ^ here))  # diagonally out of the window
                else:
                    target = bit(c2, r - 1)
                    if not d & target:
                        out.append((a & ~target, d ^ here | target))
        for cell in entries:
            if not d & cell:
                out.append((a & ~cell, d | cell))
        return list(dict.fromkeys(out))

    return SideMoves(attacker, lambda a, d: bool(a & goal)), SideMoves(defender, lambda a, d: False)


def race_order(window: Window, a: int, d: int, attacker_first: bool, max_order: int = MAX_ORDER) -> int | None:
    """The fewest attacker moves that win the restricted game (None: more than max_order)."""
    attacker, defender = restricted_moves(window)
    for order in range(1, max_order + 1):
        plies = 2 * order - 1 if attacker_first else 2 * order
        engine = ProofNumberSearch(attacker, defender, max_positions=10**7)
        if engine.black_wins(attacker_first, a, d, plies):
            return order
    return None
