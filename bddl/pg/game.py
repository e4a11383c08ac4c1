"""The positional-game representation that every front end produces.

Semantics (docs/positional.md says it for users, with the differences from
BDDL): at each time point the mover claims one open cell.  The first player to
own a whole winning set of its own wins (Maker-Maker); when only Black has
winning sets the game is Maker-Breaker.  When the time points run out, or the
mover has no open cell, the game is over and Black has not won.  With a
`graph` (Hex), Black's goal is instead a chain of Black cells that joins the
start border to the end border.

Cells are numbered by their place in `cells`, so a set of cells is a bitmask
(bit i = cell i): the solver and the encodings share one numbering.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

BLACK, WHITE = "black", "white"


@dataclass(frozen=True, slots=True)
class BorderGraph:
    """Hex's implicit goal: a neighbour relation and the two borders Black must join."""

    neighbours: tuple[tuple[int, ...], ...]  # neighbours[i]: the cells next to cell i, ascending
    start_border: frozenset[int]
    end_border: frozenset[int]


def flood(neighbours: Sequence[int], seeds: int, within: int) -> int:
    """The cells of `within` connected to `seeds` through `within` (`seeds` among them), on masks:
    `neighbours[i]` is the mask of the cells next to cell i.  Round by round, each round adding the
    cells next to the last round's."""
    reach = frontier = seeds
    while frontier:
        grow = 0
        while frontier:
            low = frontier & -frontier
            grow |= neighbours[low.bit_length() - 1]
            frontier ^= low
        frontier = grow & within & ~reach
        reach |= frontier
    return reach


def around(neighbours: Sequence[int], cells: int) -> int:
    """The cells next to any of `cells` (masks, as `flood`'s)."""
    out = 0
    while cells:
        low = cells & -cells
        out |= neighbours[low.bit_length() - 1]
        cells ^= low
    return out


@dataclass(frozen=True, slots=True)
class PositionalGame:
    """One positional game, with the names its file gave, so that writing it back is lossless."""

    cells: tuple[str, ...]  # cell names, in the file's order; cell i is bit i
    times: tuple[str, ...]  # time-point names, in order
    turns: tuple[str, ...]  # the mover at each time point: BLACK or WHITE
    black_wins: tuple[frozenset[int], ...] = ()  # winning sets, in the file's order
    white_wins: tuple[frozenset[int], ...] = ()
    black_initials: frozenset[int] = frozenset()
    white_initials: frozenset[int] = frozenset()
    first_moves: frozenset[int] | None = None  # None: the first move may claim any open cell
    graph: BorderGraph | None = None  # Hex: Black wins by joining the borders
    # Where the cells sit, when the game comes from a grid (drawing, symmetries): coordinates per cell.
    coordinates: tuple[tuple[int, ...], ...] | None = None

    @property
    def depth(self) -> int:
        return len(self.times)

    @property
    def maker_breaker(self) -> bool:
        """Only Black can win: White's aim is to stop it (Hex, or no White winning sets)."""
        return not self.white_wins

    def mask(self, cells: frozenset[int]) -> int:
        return sum(1 << c for c in cells)

    def with_depth(self, depth: int) -> "PositionalGame":
        """The same game with `depth` time points: the first ones, or the turn
        pattern continued periodically (its shortest period), with new time
        points named after the file's (t1 t2 ... continues as t10 t11 ...)."""
        if depth <= len(self.times):
            return replace(self, times=self.times[:depth], turns=self.turns[:depth])
        turns = list(self.turns)
        period = turn_period(self.turns)
        while len(turns) < depth:
            turns.append(turns[len(turns) - period])
        return replace(self, times=self.times + _more_names(self.times, depth - len(self.times)), turns=tuple(turns))

    def turn_blocks(self) -> tuple[tuple[str, int], ...]:
        """The turns as runs of one side: ((BLACK, 1), (WHITE, 2), ...) for a (p,q) game."""
        blocks: list[tuple[str, int]] = []
        for side in self.turns:
            if blocks and blocks[-1][0] == side:
                blocks[-1] = (side, blocks[-1][1] + 1)
            else:
                blocks.append((side, 1))
        return tuple(blocks)


def turn_period(turns: tuple[str, ...]) -> int:
    """The shortest p with turns[i] == turns[i - p] for every i >= p (1 for no turns)."""
    for p in range(1, len(turns) + 1):
        if all(turns[i] == turns[i - p] for i in range(p, len(turns))):
            return p
    return max(len(turns), 1)


def _more_names(times: tuple[str, ...], count: int) -> tuple[str, ...]:
    numbered = [re.fullmatch(r"(.*?)(\d+)", t) for t in times]
    prefixes = {m.group(1) for m in numbered if m}
    if times and all(numbered) and len(prefixes) == 1:
        prefix = prefixes.pop()
        start = max(int(m.group(2)) for m in numbered if m) + 1
        return tuple(f"{prefix}{start + k}" for k in range(count))
    taken, k = set(times), 1
    names: list[str] = []
    while len(names) < count:
        if f"t{k}" not in taken:
            names.append(f"t{k}")
        k += 1
    return tuple(names)
