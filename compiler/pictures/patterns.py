"""BDDL conditions drawn as small patterns: the cells a goal or an action
names, placed relative to its position (?x, ?y), with each atom's value.

A goal like `black(?x,?y) black(?x+1,?y) black(?x+2,?y)` becomes three cells
in a row, each with a Black stone; the anchor (?x, ?y) is outlined in red.
`open` is a dashed ring, a negated atom its value struck through in red.
Atoms at board edges or absolute cells (`xmax`, `3`) have no place in a
relative pattern: they are written below it instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.ast import Atom, Condition, Relative
from bddl.printer import format_atom

from .svg import label, num

PATTERN_UNIT = 22.0
LAST_RED = "#d62728"


@dataclass(frozen=True, slots=True)
class Frame:
    """The offsets a set of conditions spans: columns dx_min..dx_max, rows dy_min..dy_max."""

    dx: tuple[int, int]
    dy: tuple[int, int]

    @property
    def width(self) -> float:
        return (self.dx[1] - self.dx[0] + 1) * PATTERN_UNIT

    @property
    def height(self) -> float:
        return (self.dy[1] - self.dy[0] + 1) * PATTERN_UNIT


def offset(atom: Atom) -> tuple[int, int] | None:
    """(dx, dy) of an atom written relative to (?x, ?y) in both coordinates, else None."""
    if isinstance(atom.x, Relative) and isinstance(atom.y, Relative) and atom.x.var == "x" and atom.y.var == "y":
        return atom.x.offset, atom.y.offset
    return None


def frame(conditions: list[Condition]) -> Frame:
    """The smallest frame that holds the anchor and every relative cell of the conditions."""
    xs, ys = [0], [0]
    for condition in conditions:
        for atom in condition.atoms:
            place = offset(atom)
            if place is not None:
                xs.append(place[0])
                ys.append(place[1])
    return Frame((min(xs), max(xs)), (min(ys), max(ys)))


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


def pattern(condition: Condition, box: Frame, x0: float, y0: float, fill: str) -> tuple[list[str], list[str]]:
    """The condition drawn in `box` with its top-left corner at (x0, y0): the
    SVG elements, and the atoms that have no relative place (written out)."""
    out = []
    at: dict[tuple[int, int], list[Atom]] = {}
    elsewhere = []
    for atom in condition.atoms:
        place = offset(atom)
        if place is None:
            elsewhere.append(format_atom(atom))
        else:
            at.setdefault(place, []).append(atom)
    for dy in range(box.dy[0], box.dy[1] + 1):
        for dx in range(box.dx[0], box.dx[1] + 1):
            x = x0 + (dx - box.dx[0]) * PATTERN_UNIT
            y = y0 + (dy - box.dy[0]) * PATTERN_UNIT
            named = (dx, dy) in at
            values = ",".join(("NOT " if a.negated else "") + a.pred for a in at.get((dx, dy), ()))
            out.append(
                f'<rect x="{num(x)}" y="{num(y)}" width="{num(PATTERN_UNIT)}" height="{num(PATTERN_UNIT)}" '
                f'fill="{fill if named else "#f4f4f4"}" stroke="#9a9a9a" stroke-width="0.8" data-dx="{dx}" data-dy="{dy}" data-atoms="{values}"/>'
            )
    for (dx, dy), atoms in sorted(at.items(), key=lambda item: item[0]):
        cx = x0 + (dx - box.dx[0] + 0.5) * PATTERN_UNIT
        cy = y0 + (dy - box.dy[0] + 0.5) * PATTERN_UNIT
        radius = PATTERN_UNIT * (0.36 if len(atoms) == 1 else 0.2)
        for k, atom in enumerate(atoms):
            shift = (k - (len(atoms) - 1) / 2) * radius * 2.2
            out += _glyph(atom, cx + shift, cy, radius)
    ax = x0 + (0 - box.dx[0]) * PATTERN_UNIT
    ay = y0 + (0 - box.dy[0]) * PATTERN_UNIT
    out.append(
        f'<rect x="{num(ax + 1)}" y="{num(ay + 1)}" width="{num(PATTERN_UNIT - 2)}" height="{num(PATTERN_UNIT - 2)}" '
        f'fill="none" stroke="{LAST_RED}" stroke-width="1.5" stroke-dasharray="3,2"/>'
    )
    return out, elsewhere


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
