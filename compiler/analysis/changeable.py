"""The cells no action can change, counted without visiting the board cell by cell.

An action whose atoms are, per axis, all relative or all fixed groups them
into cells the same way at every position, so the cells it can change are
one box per changed cell of one grounding: the action's bounds shifted by
the cell's offset on a relative axis, the fixed index on the other.  The
frozen cells are the board minus the union of those boxes, counted row by
row over intervals.  Other actions (a condition mixing `?x` and `xmin`) are
grounded position by position (`lint.changeable_cells`), as before.
"""

from __future__ import annotations

from typing import Sequence

from bddl.ast import Action, Relative
from bddl.bounds import Box, action_bounds
from bddl.game import Geometry
from bddl.situations import representative_positions

Cell = tuple[int, int]


def _relative(action: Action, axis: str) -> bool | None:
    atoms = action.precondition.atoms + action.effect.atoms
    kinds = {isinstance(a.x if axis == "x" else a.y, Relative) for a in atoms}
    return None if len(kinds) > 1 else kinds == {True}


def changeable_boxes(action: Action, geometry: Geometry) -> list[Box] | None:
    """Boxes whose union is every cell some move of the action changes on some
    board; None when the action is not separable (see module docstring)."""
    from ..lint import changed_cells, move_at

    rel = (_relative(action, "x"), _relative(action, "y"))
    if None in rel:
        return None
    box = action_bounds(action, geometry.width, geometry.height)
    atoms = action.precondition.atoms + action.effect.atoms
    positions = representative_positions(atoms, box, geometry.width, geometry.height)
    if not positions:
        return []
    x0, y0 = positions[0]
    move = move_at(geometry, action, (x0, y0))
    if move is None:
        return []
    found = []
    for cx, cy in changed_cells(*move):
        xs = (box.x_lo + cx - x0, box.x_hi + cx - x0) if rel[0] else (cx, cx)
        ys = (box.y_lo + cy - y0, box.y_hi + cy - y0) if rel[1] else (cy, cy)
        found.append(Box(xs[0], xs[1], ys[0], ys[1]))
    return found


def frozen_cells(actions: Sequence[Action], geometry: Geometry, shown: int) -> tuple[list[Cell], int]:
    """The first `shown` cells (row by row) that no action changes, and how many there are."""
    from ..lint import changeable_cells

    boxes: list[Box] = []
    cells: set[Cell] = set()
    for action in actions:
        found = changeable_boxes(action, geometry)
        if found is None:
            cells |= changeable_cells(geometry, action)
        else:
            boxes += found
    by_row: dict[int, list[tuple[int, int]]] = {}
    for x, y in cells:
        by_row.setdefault(y, []).append((x, x))
    first: list[Cell] = []
    count = 0
    for y in range(1, geometry.height + 1):
        spans = sorted([(b.x_lo, b.x_hi) for b in boxes if b.y_lo <= y <= b.y_hi] + by_row.get(y, []))
        x = 1  # the first column not yet known to be covered
        for lo, hi in spans + [(geometry.width + 1, geometry.width + 1)]:
            if lo > x:
                gap = range(x, min(lo, geometry.width + 1))
                count += len(gap)
                first += [(v, y) for v in gap[: max(0, shown - len(first))]]
            x = max(x, hi + 1)
    return first, count
