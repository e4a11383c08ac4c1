"""A few positions that stand for all: where a condition's grounding can differ.

At a position p, a condition's atoms name cells; two atoms name the same
cell when they agree on both axes.  Two relative coordinates (?x+k, ?x+j)
agree everywhere or nowhere, two fixed ones (an absolute index, an edge)
likewise; a relative and a fixed one (?x+k, xmin) agree only where p is
c - k.  So on each axis only the coordinates c - k can group a condition's
atoms differently from the rest, and one more coordinate stands for all
others: a handful of positions show every way the condition can ground.
That is what lets the validator and the linter answer "can this ever
hold / be played" on a 1000x1000 board without visiting its million cells.

Also here: where a goal holds in the initial state, found from the stones of
`#init` rather than by scanning the board.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from .ast import Atom, Condition, Relative
from .bounds import Box, condition_bounds

Cell = tuple[int, int]


def _resolve(coord, axis: str, width: int, height: int) -> int:
    if hasattr(coord, "value"):
        return coord.value
    return {"xmin": 1, "ymin": 1, "xmax": width, "ymax": height}[coord.name]


def _axis_representatives(atoms: Sequence[Atom], axis: str, lo: int, hi: int, width: int, height: int) -> list[int]:
    coords = [a.x if axis == "x" else a.y for a in atoms]
    offsets = {c.offset for c in coords if isinstance(c, Relative)}
    if not offsets:
        return [lo] if lo <= hi else []  # the atoms do not move with the position on this axis
    fixed = {_resolve(c, axis, width, height) for c in coords if not isinstance(c, Relative)}
    special = sorted({c - k for c in fixed for k in offsets if lo <= c - k <= hi})
    taken = set(special)
    other = next((v for v in range(lo, min(hi, lo + len(taken)) + 1) if v not in taken), None)
    return sorted(special + ([other] if other is not None else []))


def representative_positions(atoms: Sequence[Atom], box: Box, width: int, height: int) -> list[Cell]:
    """Positions of `box`, row by row, among which every grouping of the atoms
    into cells that any position of the box gives occurs (module docstring).
    At most (fixed coordinates x offsets + 1) per axis, whatever the board."""
    if box.empty:
        return []
    xs = _axis_representatives(atoms, "x", box.x_lo, box.x_hi, width, height)
    ys = _axis_representatives(atoms, "y", box.y_lo, box.y_hi, width, height)
    return [(x, y) for y in ys for x in xs]


# -- goals in the initial state --------------------------------------------------------


def _accepts(atom: Atom, value: str) -> bool:
    return (atom.pred == value) != atom.negated


def _cell(atom: Atom, pos: Cell, width: int, height: int) -> Cell:
    x = pos[0] + atom.x.offset if isinstance(atom.x, Relative) else _resolve(atom.x, "x", width, height)
    y = pos[1] + atom.y.offset if isinstance(atom.y, Relative) else _resolve(atom.y, "y", width, height)
    return (x, y)


def holds_at(goal: Condition, stones: dict[Cell, str], pos: Cell, width: int, height: int) -> bool:
    """Def 6 at one position, for a state given by its stones (every other cell open)."""
    return all(_accepts(a, stones.get(_cell(a, pos, width, height), "open")) for a in goal.atoms)


def _candidates(goal: Condition, box: Box, stones: dict[Cell, str], width: int, height: int) -> Iterator[Cell]:
    """Positions of the box, in no particular order, that include every
    position where the goal holds: a goal with an atom open cells fail must
    have a stone under that atom.  Falls back to the whole box (row by row)
    for a goal every atom of which an open cell satisfies."""
    picky = [a for a in goal.atoms if not _accepts(a, "open")]
    if not picky:
        yield from _box_positions(box)
        return
    atom = picky[0]
    for sx, sy in stones:
        x = sx - atom.x.offset if isinstance(atom.x, Relative) else None
        y = sy - atom.y.offset if isinstance(atom.y, Relative) else None
        if x is None and sx != _resolve(atom.x, "x", width, height) or y is None and sy != _resolve(atom.y, "y", width, height):
            continue
        xs = [x] if x is not None else range(box.x_lo, box.x_hi + 1)
        ys = [y] if y is not None else range(box.y_lo, box.y_hi + 1)
        for cy in ys:
            for cx in xs:
                if (cx, cy) in box:
                    yield (cx, cy)


def _box_positions(box: Box) -> Iterator[Cell]:
    for y in range(box.y_lo, box.y_hi + 1):
        for x in range(box.x_lo, box.x_hi + 1):
            yield (x, y)


def first_holding(goal: Condition, stones: dict[Cell, str], width: int, height: int) -> Cell | None:
    """The first position (row by row) where the goal holds in the state given
    by its stones, None if it holds nowhere.  Work follows the stones: a goal
    satisfied by open cells is found within (stones x atoms + 1) positions of
    the box's start, since every position it fails at puts a stone under it."""
    box = condition_bounds(goal, width, height)
    if box.empty:
        return None
    picky = any(not _accepts(a, "open") for a in goal.atoms)
    if not picky:
        for pos in _box_positions(box):
            if holds_at(goal, stones, pos, width, height):
                return pos
        return None
    found = [pos for pos in set(_candidates(goal, box, stones, width, height)) if holds_at(goal, stones, pos, width, height)]
    return min(found, key=lambda p: (p[1], p[0])) if found else None
