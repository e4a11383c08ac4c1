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

from dataclasses import dataclass

BLACK, WHITE = "black", "white"


@dataclass(frozen=True, slots=True)
class BorderGraph:
    """Hex's implicit goal: a neighbour relation and the two borders Black must join."""

    neighbours: tuple[tuple[int, ...], ...]  # neighbours[i]: the cells next to cell i, ascending
    start_border: frozenset[int]
    end_border: frozenset[int]


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
