"""The race patterns: what one says, how the restricted game proves them,
the window shapes a board needs, and the pattern file.

Why this module exists: the patterns are data, proved once and read on
every search.  `generate` proves every winning filling of a window by search
of the restricted game (`restricted.race_order`) and compresses the fillings
into patterns with wider cell types; `python -m bddl.engines.race` writes
them all to bddl/engines/race_patterns.txt (package data), and
`order_table` reads them back as a table from a window's filling to the
fewest attacker moves that win.

Cell types of a pattern (the paper's types, as sets of allowed contents):
`A` an attacker pawn, `.` open, `D` a defender pawn, `f` attacker or open
("free"), `n` open or defender (no attacker), `?` anything ("don't care";
on the goal row the attacker never stands, so there `?` means `n`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path

from .restricted import MAX_ORDER, Window, race_order

EMPTY, ATTACKER, DEFENDER = ".", "A", "D"
TYPES = {
    "A": frozenset("A"),
    ".": frozenset("."),
    "D": frozenset("D"),
    "f": frozenset("A."),
    "n": frozenset(".D"),
    "?": frozenset("A.D"),
}
WIDENINGS = ("?", "f", "n")  # tried in this order when a cell is generalised
WINDOW_WIDTH = 3
WINDOW_HEIGHT = 3
PATTERN_FILE = Path(__file__).parent.with_name("race_patterns.txt")  # bddl/engines/race_patterns.txt


@dataclass(frozen=True)
class RacePattern:
    """A proved pattern: on `window`, with the attacker to move or not, the
    attacker wins within `order` moves for every filling the cell types allow."""

    window: Window
    attacker_first: bool
    order: int
    cells: str  # one type letter per cell, row 0 first, columns left to right

    def fillings(self):
        """Every (attacker mask, defender mask) the pattern matches, in `product`'s order over the
        cells' allowed contents (the last cell's fastest).  Built cell by cell as masks, not summed
        per filling: every Breakthrough search reads the 36,000 fillings of the pattern file
        (`order_table`), and summing them one by one took 0.3 s of each `bddlc solve`."""
        w = self.window
        masks = [(0, 0)]
        for (c, r), letter in zip(w.cells(), self.cells):
            allowed = TYPES[letter] - ({ATTACKER} if r == w.height - 1 else set())
            bit = w.bit(c, r)
            options = [(bit if v == ATTACKER else 0, bit if v == DEFENDER else 0) for v in sorted(allowed)]
            masks = [(a | x, d | y) for a, d in masks for x, y in options]
        return iter(masks)

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
def order_table(window: Window, attacker_first: bool) -> dict[tuple[int, int], int]:
    """(attacker mask, defender mask) -> the smallest order of a pattern file's
    pattern on this window that matches it (read once per window and mover)."""
    table: dict[tuple[int, int], int] = {}
    for pattern in load_patterns():
        if pattern.window == window and pattern.attacker_first == attacker_first:
            for filling in pattern.fillings():
                table[filling] = min(table.get(filling, pattern.order), pattern.order)
    return table
