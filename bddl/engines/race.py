"""Race patterns for Breakthrough-like games (Saffidine, Jouandeau & Cazenave,
ACG 2011, section 3.3), generated and proved by our own search.

A race pattern says: this arrangement of pawns near the attacker's goal row
lets the attacker reach that row within `order` of its own moves whatever the
defender does, so the position is decided long before the game ends.  The
paper wrote 26 patterns by hand and had no way to check them; here every
pattern comes out of an exhaustive search of a *restricted game*, and the
tests prove each one again.

The restricted game (our formulation, made so that a restricted win is a
real win):

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
`RaceKnowledge` only concludes when every defender pawn is too far from the
defender's goal row to get there in the moves it has.

Cell types of a pattern (the paper's types, as sets of allowed contents):
`A` an attacker pawn, `.` open, `D` a defender pawn, `f` attacker or open
("free"), `n` open or defender (no attacker), `?` anything ("don't care";
on the goal row the attacker never stands, so there `?` means `n`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path

from ..ast import Absolute, Domain, Extreme, Problem, Relative
from ..game import BLACK, WHITE, Game
from .minimax import SideMoves
from .pns import ProofNumberSearch

EMPTY, ATTACKER, DEFENDER = ".", "A", "D"
ORDERS_KEPT = 250_000  # `RaceKnowledge`'s remembered orders (about 50 MB at most), then it starts afresh
TYPES = {
    "A": frozenset("A"),
    ".": frozenset("."),
    "D": frozenset("D"),
    "f": frozenset("A."),
    "n": frozenset(".D"),
    "?": frozenset("A.D"),
}
WIDENINGS = ("?", "f", "n")  # tried in this order when a cell is generalised
MAX_ORDER = 2
WINDOW_WIDTH = 3
WINDOW_HEIGHT = 3
PATTERN_FILE = Path(__file__).with_name("race_patterns.txt")


# ---------------------------------------------------------------------------
# Recognising a Breakthrough-like game from its rules


def _relative(coord, var: str) -> int | None:
    return coord.offset if isinstance(coord, Relative) and coord.var == var else None


def _normal_atoms(condition) -> frozenset | None:
    atoms = set()
    for atom in condition.atoms:
        dx, dy = _relative(atom.x, "x"), _relative(atom.y, "y")
        if dx is None or dy is None:
            return None
        atoms.add((atom.pred, atom.negated, dx, dy))
    return frozenset(atoms)


def _pawn_rules(side: str, dy: int) -> frozenset:
    """Breakthrough's three moves for a pawn of `side` moving dy rows per step."""
    here_open = ("open", False, 0, 0)
    me = (side, False, 0, 0)
    return frozenset(
        {
            (frozenset({me, ("open", False, 0, dy)}), frozenset({here_open, (side, False, 0, dy)})),
            (frozenset({me, (side, True, -1, dy)}), frozenset({here_open, (side, False, -1, dy)})),
            (frozenset({me, (side, True, 1, dy)}), frozenset({here_open, (side, False, 1, dy)})),
        }
    )


def _direction(actions, side: str) -> int | None:
    normal = []
    for action in actions:
        pre, eff = _normal_atoms(action.precondition), _normal_atoms(action.effect)
        if pre is None or eff is None:
            return None
        normal.append((pre, eff))
    if len(normal) != 3:
        return None
    for dy in (1, -1):
        if frozenset(normal) == _pawn_rules(side, dy):
            return dy
    return None


def _far_row_goal(goals, side: str, dy: int, height: int) -> bool:
    """Is the only goal `side(?x, far row)`, the row the pawns move towards?"""
    if len(goals) != 1 or len(goals[0].atoms) != 1:
        return False
    atom = goals[0].atoms[0]
    if atom.pred != side or atom.negated or _relative(atom.x, "x") != 0:
        return False
    far = height if dy > 0 else 1
    y = atom.y
    if isinstance(y, Extreme):
        return y.name == ("ymax" if dy > 0 else "ymin")
    return isinstance(y, Absolute) and y.value == far


def breakthrough_directions(domain: Domain, problem: Problem) -> dict[str, int] | None:
    """Each side's row step if the game is Breakthrough-like (pawns moving
    forward, straight onto open cells or diagonally capturing; the only goal
    reaching the far row), else None.  Recognised from the rules, whatever
    the files or actions are called."""
    black = _direction(domain.black_actions, BLACK)
    white = _direction(domain.white_actions, WHITE)
    if black is None or white is None or black == white:
        return None
    if not _far_row_goal(problem.black_goals, BLACK, black, problem.height):
        return None
    if not _far_row_goal(problem.white_goals, WHITE, white, problem.height):
        return None
    return {BLACK: black, WHITE: white}


# ---------------------------------------------------------------------------
# The restricted game and the patterns it proves


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


@dataclass(frozen=True)
class RacePattern:
    """A proved pattern: on `window`, with the attacker to move or not, the
    attacker wins within `order` moves for every filling the cell types allow."""

    window: Window
    attacker_first: bool
    order: int
    cells: str  # one type letter per cell, row 0 first, columns left to right

    def fillings(self):
        """Every (attacker mask, defender mask) the pattern matches."""
        w = self.window
        choices = []
        for (c, r), letter in zip(w.cells(), self.cells):
            allowed = TYPES[letter] - ({ATTACKER} if r == w.height - 1 else set())
            choices.append([(w.bit(c, r), v) for v in sorted(allowed)])
        for combo in product(*choices):
            yield sum(b for b, v in combo if v == ATTACKER), sum(b for b, v in combo if v == DEFENDER)

    def text(self) -> str:
        w = self.window
        rows = [self.cells[r * w.width:(r + 1) * w.width] for r in range(w.height)]
        return (
            f"{w.width} {w.height} {'open' if w.left_open else 'edge'} {'open' if w.right_open else 'edge'} "
            f"{'first' if self.attacker_first else 'second'} {self.order} {'/'.join(rows)}"
        )

    @classmethod
    def parse(cls, line: str) -> RacePattern:
        width, height, left, right, first, order, rows = line.split()
        return cls(Window(int(width), int(height), left == "open", right == "open"), first == "first", int(order), rows.replace("/", ""))


def _all_fillings(window: Window):
    letters = []
    for _, r in window.cells():
        letters.append(".D" if r == window.height - 1 else ".AD")
    yield from ("".join(p) for p in product(*letters))


def generate(window: Window, attacker_first: bool, max_order: int = MAX_ORDER) -> list[RacePattern]:
    """Every winning filling of the window, by search, compressed into patterns
    with wider cell types wherever all the fillings a wider type admits win
    within the same order (a greedy cover; the cover is exact)."""
    orders: dict[str, int] = {}
    for filling in _all_fillings(window):
        a = sum(window.bit(c, r) for (c, r), v in zip(window.cells(), filling) if v == ATTACKER)
        d = sum(window.bit(c, r) for (c, r), v in zip(window.cells(), filling) if v == DEFENDER)
        order = race_order(window, a, d, attacker_first, max_order)
        if order is not None:
            orders[filling] = order
    patterns = []
    covered: set[str] = set()
    for order in range(1, max_order + 1):
        winning = {f for f, o in orders.items() if o <= order}
        for filling in sorted(f for f, o in orders.items() if o == order):
            if filling in covered:
                continue
            cells = list(filling)
            for i in range(len(cells)):
                for wider in WIDENINGS:
                    trial = cells[:i] + [wider] + cells[i + 1:]
                    if TYPES[wider] >= TYPES[cells[i]] and all(f in winning for f in _expand(window, trial)):
                        cells = trial
                        break
            pattern = RacePattern(window, attacker_first, order, "".join(cells))
            patterns.append(pattern)
            covered.update(f for f in _expand(window, cells) if orders.get(f) == order)
    return patterns


def _expand(window: Window, cells) -> list[str]:
    choices = []
    for (_, r), letter in zip(window.cells(), cells):
        allowed = TYPES[letter] - ({ATTACKER} if r == window.height - 1 else set())
        choices.append(sorted(allowed))
    return ["".join(p) for p in product(*choices)]


def windows(board_width: int, board_height: int) -> list[Window]:
    """The window shapes a board needs: as wide as the board up to 3 columns,
    as high as it up to 3 rows, one per combination of open sides."""
    width = min(WINDOW_WIDTH, board_width)
    height = min(WINDOW_HEIGHT, board_height)
    shapes = []
    for x0 in range(1, board_width - width + 2):
        shape = Window(width, height, x0 > 1, x0 + width - 1 < board_width)
        if shape not in shapes:
            shapes.append(shape)
    return shapes


def all_windows() -> list[Window]:
    """Every shape `windows` can ask for."""
    shapes = []
    for width in range(1, WINDOW_WIDTH + 1):
        for height in range(2, WINDOW_HEIGHT + 1):
            for left, right in product((False, True), repeat=2):
                if width == WINDOW_WIDTH or not (left or right):  # narrower windows only on narrow boards
                    shapes.append(Window(width, height, left, right))
    return shapes


def load_patterns(path: Path = PATTERN_FILE) -> list[RacePattern]:
    return [RacePattern.parse(line) for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


@cache
def _order_table(window: Window, attacker_first: bool) -> dict[tuple[int, int], int]:
    table: dict[tuple[int, int], int] = {}
    for pattern in load_patterns():
        if pattern.window == window and pattern.attacker_first == attacker_first:
            for filling in pattern.fillings():
                table[filling] = min(table.get(filling, pattern.order), pattern.order)
    return table


# ---------------------------------------------------------------------------
# Using the patterns in a search


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
            order = _order_table(window, attacker_first).get((a, d))
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


def main() -> None:
    """Write bddl/engines/race_patterns.txt: every window shape, both movers, by search."""
    lines = [
        "# Race patterns for Breakthrough-like games, generated by `python -m bddl.engines.race`",
        "# (every one proved by exhaustive search of the restricted game; see bddl/engines/race.py).",
        "# width height left right mover order rows(row 0 = farthest from the goal row, '/' between rows)",
    ]
    for window in all_windows():
        for attacker_first in (True, False):
            for pattern in generate(window, attacker_first):
                lines.append(pattern.text())
    PATTERN_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 3} patterns written to {PATTERN_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
