"""BDDL conditions drawn as small patterns: the cells a goal or an action
names, placed relative to its position (?x, ?y), with each atom's value.

A goal like `black(?x,?y) black(?x+1,?y) black(?x+2,?y)` becomes three cells
in a row, each with a Black stone; the anchor (?x, ?y) is outlined in red.
`open` is a dashed ring, a negated atom its value struck through in red.
A coordinate fixed on the board (`ymax`, `3`) gets a row or column of its
own after the relative ones, labelled with it: Connect-4's
`open(?x,ymax)` is one cell in column ?x of a row labelled `ymax`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bddl.ast import Absolute, Atom, Condition, Extreme, Relative
from bddl.printer import format_coord

from .svg import label, num

PATTERN_UNIT = 22.0
LAST_RED = "#d62728"


Key = tuple[int, Any]  # (0, offset) relative to the anchor, (1, rank) a fixed coordinate


def key(coord, var: str) -> Key:
    """Where a coordinate puts its cell in a pattern: relative ones by offset, fixed ones
    (`xmin`, `3`, `ymax`) after them, in board order."""
    if isinstance(coord, Relative) and coord.var == var:
        return (0, coord.offset)
    if isinstance(coord, Extreme):
        return (1, (0, 0) if coord.name.endswith("min") else (2, 0))
    if isinstance(coord, Absolute):
        return (1, (1, coord.value))
    return (1, (3, format_coord(coord)))


def key_label(coord) -> str:
    """How a pattern labels its row or column: the coordinate as the file writes it."""
    return format_coord(coord)


@dataclass(frozen=True, slots=True)
class Frame:
    """A pattern's columns and rows: the anchor's, the relative offsets the conditions name, then
    the fixed coordinates (labelled); `left` and `top` make room for those labels."""

    columns: tuple[Key, ...]
    rows: tuple[Key, ...]
    labels: dict
    left: float
    top: float

    @property
    def width(self) -> float:
        return self.left + len(self.columns) * PATTERN_UNIT

    @property
    def height(self) -> float:
        return self.top + len(self.rows) * PATTERN_UNIT


def frame(conditions: list[Condition]) -> Frame:
    """The smallest frame that holds the anchor (?x, ?y) and every cell the conditions name,
    relative offsets filled in between so the shape keeps its geometry."""
    xs: set[Key] = {(0, 0)}
    ys: set[Key] = {(0, 0)}
    labels: dict = {}
    for condition in conditions:
        for atom in condition.atoms:
            kx, ky = key(atom.x, "x"), key(atom.y, "y")
            xs.add(kx)
            ys.add(ky)
            labels[("x", kx)] = key_label(atom.x)
            labels[("y", ky)] = key_label(atom.y)

    def filled(keys: set[Key]) -> tuple[Key, ...]:
        offsets = [int(k[1]) for k in keys if k[0] == 0]
        relative = tuple((0, d) for d in range(min(offsets), max(offsets) + 1))
        return relative + tuple(sorted((k for k in keys if k[0] == 1), key=lambda k: k[1]))

    columns, rows = filled(xs), filled(ys)
    fixed_rows = [labels[("y", k)] for k in rows if k[0] == 1]
    left = max([0.0] + [6.0 * len(t) + 4 for t in fixed_rows])
    top = 11.0 if any(k[0] == 1 for k in columns) else 0.0
    return Frame(columns, rows, labels, left, top)


def _glyph(atom: Atom, x: float, y: float, radius: float) -> list[str]:
    out = []
    if atom.pred == "black":
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill="#161616" stroke="#000000"/>')
    elif atom.pred == "white":
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill="#ffffff" stroke="#161616" stroke-width="1.2"/>')
    else:
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill="none" stroke="#444444" stroke-width="1.2" stroke-dasharray="2,2"/>')
    if atom.negated:
        d = radius * 1.1
        out.append(f'<line x1="{num(x - d)}" y1="{num(y + d)}" x2="{num(x + d)}" y2="{num(y - d)}" stroke="{LAST_RED}" stroke-width="2"/>')
    return out


def key_text(k: Key, axis: str, box: Frame) -> str:
    """A row's or column's key as the drawing's data attributes write it: the offset, or the fixed coordinate."""
    return str(k[1]) if k[0] == 0 else str(box.labels[(axis, k)])


def pattern(condition: Condition, box: Frame, x0: float, y0: float, fill: str) -> list[str]:
    """The condition drawn in `box` with its top-left corner at (x0, y0)."""
    out = []
    at: dict[tuple[Key, Key], list[Atom]] = {}
    for atom in condition.atoms:
        at.setdefault((key(atom.x, "x"), key(atom.y, "y")), []).append(atom)
    gx, gy = x0 + box.left, y0 + box.top
    for r, ky in enumerate(box.rows):
        for c, kx in enumerate(box.columns):
            x, y = gx + c * PATTERN_UNIT, gy + r * PATTERN_UNIT
            atoms = at.get((kx, ky), [])
            values = ",".join(("NOT " if a.negated else "") + a.pred for a in atoms)
            out.append(
                f'<rect x="{num(x)}" y="{num(y)}" width="{num(PATTERN_UNIT)}" height="{num(PATTERN_UNIT)}" '
                f'fill="{fill if atoms else "#f4f4f4"}" stroke="#9a9a9a" stroke-width="0.8" '
                f'data-dx="{key_text(kx, "x", box)}" data-dy="{key_text(ky, "y", box)}" data-atoms="{values}"/>'
            )
    for (kx, ky), atoms in sorted(at.items(), key=lambda item: (box.rows.index(item[0][1]), box.columns.index(item[0][0]))):
        cx = gx + (box.columns.index(kx) + 0.5) * PATTERN_UNIT
        cy = gy + (box.rows.index(ky) + 0.5) * PATTERN_UNIT
        radius = PATTERN_UNIT * (0.36 if len(atoms) == 1 else 0.2)
        for k, atom in enumerate(atoms):
            shift = (k - (len(atoms) - 1) / 2) * radius * 2.2
            out += _glyph(atom, cx + shift, cy, radius)
    for c, kx in enumerate(box.columns):
        if kx[0] == 1:
            out.append(label(gx + (c + 0.5) * PATTERN_UNIT, y0 + 4, str(box.labels[("x", kx)]), 9, extra=' fill="#555555"'))
    for r, ky in enumerate(box.rows):
        if ky[0] == 1:
            out.append(label(x0 + box.left - 3, gy + (r + 0.5) * PATTERN_UNIT, str(box.labels[("y", ky)]), 9, anchor="end", extra=' fill="#555555"'))
    ax, ay = gx + box.columns.index((0, 0)) * PATTERN_UNIT, gy + box.rows.index((0, 0)) * PATTERN_UNIT
    out.append(
        f'<rect x="{num(ax + 1)}" y="{num(ay + 1)}" width="{num(PATTERN_UNIT - 2)}" height="{num(PATTERN_UNIT - 2)}" '
        f'fill="none" stroke="{LAST_RED}" stroke-width="1.5" stroke-dasharray="3,2"/>'
    )
    return out


def legend(x: float, y: float) -> tuple[list[str], float]:
    """The key to the patterns' symbols, one line; returns its elements and width."""
    out = []
    items = [
        (Atom("black", Relative("x"), Relative("y")), "black"),
        (Atom("white", Relative("x"), Relative("y")), "white"),
        (Atom("open", Relative("x"), Relative("y")), "open"),
        (Atom("black", Relative("x"), Relative("y"), negated=True), "NOT(black)"),
    ]
    cursor = x
    for atom, words in items:
        out += _glyph(atom, cursor + 8, y, 7)
        out.append(label(cursor + 20, y, words, 11, anchor="start"))
        cursor += 30 + 6.5 * len(words)
    out.append(f'<rect x="{num(cursor)}" y="{num(y - 8)}" width="16" height="16" fill="none" stroke="{LAST_RED}" stroke-width="1.5" stroke-dasharray="3,2"/>')
    out.append(label(cursor + 22, y, "(?x,?y)", 11, anchor="start"))
    return out, cursor + 80 - x


def fixed(condition: Condition) -> bool:
    """Does every atom name its cell absolutely (numbers or board edges, no ?x or ?y)?  Such a goal holds
    at one place only, so it is drawn on the board (Hex's explicit winning paths are)."""
    return bool(condition.atoms) and all(not isinstance(a.x, Relative) and not isinstance(a.y, Relative) for a in condition.atoms)


def board_unit(width: int, height: int) -> float:
    return max(6.0, min(PATTERN_UNIT, 110.0 / max(width, height)))


def board_pattern(condition: Condition, width: int, height: int, x0: float, y0: float, fill: str) -> list[str]:
    """A condition of absolute cells drawn on the whole board (x across, y down, as the boards are)."""
    from bddl.game import Geometry

    geometry = Geometry(width, height)
    unit = board_unit(width, height)
    at: dict[tuple[int, int], list[Atom]] = {}
    for atom in condition.atoms:
        at.setdefault(geometry.cell_of(atom, (1, 1)), []).append(atom)
    out = []
    for y in range(1, height + 1):
        for x in range(1, width + 1):
            values = ",".join(("NOT " if a.negated else "") + a.pred for a in at.get((x, y), ()))
            out.append(
                f'<rect x="{num(x0 + (x - 1) * unit)}" y="{num(y0 + (y - 1) * unit)}" width="{num(unit)}" height="{num(unit)}" '
                f'fill="{fill if (x, y) in at else "#f4f4f4"}" stroke="#9a9a9a" stroke-width="0.8" data-bx="{x}" data-by="{y}" data-atoms="{values}"/>'
            )
    for (x, y), atoms in sorted(at.items(), key=lambda item: item[0]):
        radius = unit * (0.36 if len(atoms) == 1 else 0.2)
        for k, atom in enumerate(atoms):
            shift = (k - (len(atoms) - 1) / 2) * radius * 2.2
            out += _glyph(atom, x0 + (x - 0.5) * unit + shift, y0 + (y - 0.5) * unit, radius)
    return out
