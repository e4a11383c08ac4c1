"""A position drawn as a grid, for games whose cell names give coordinates.

`B` and `W` are the two sides' cells, `.` an open cell; a place of the box no
cell occupies is blank.  The first axis of the names runs down the rows, the
second across the columns (as in the published files, where `a1 b1` is a
vertical domino); a third axis and beyond give one grid per layer.
"""

from __future__ import annotations

from itertools import product

from .game import PositionalGame
from .geometry import name_axes


def draw(game: PositionalGame, black: int, white: int) -> str | None:
    """The position (two cell bitmasks) as text, or None when the names give no grid."""
    axes = name_axes(game.cells)
    if axes is None or game.coordinates is None:
        return None
    symbol = ["B" if black >> i & 1 else "W" if white >> i & 1 else "." for i in range(len(game.cells))]
    where = {c: i for i, c in enumerate(game.coordinates)}
    if len(axes) == 1:
        axes = [([0] * len(game.cells), [""])] + axes
        where = {(0,) + c: i for c, i in where.items()}
    rows, cols = axes[0][1], axes[1][1]
    width = max(len(label) for label in cols)
    gutter = max(len(label) for label in rows)
    out = []
    for layer in product(*(range(len(labels)) for _, labels in axes[2:])):
        if layer:
            out.append(" ".join(labels[v] for (_, labels), v in zip(axes[2:], layer)) + ":")
        out.append(" " * (gutter + 1) + " ".join(f"{label:>{width}}" for label in cols))
        for r, row_label in enumerate(rows):
            marks = []
            for c in range(len(cols)):
                i = where.get((r, c) + layer)
                marks.append(f"{' ' if i is None else symbol[i]:>{width}}")
            out.append(f"{row_label:>{gutter}} " + " ".join(marks).rstrip())
    return "\n".join(out)
