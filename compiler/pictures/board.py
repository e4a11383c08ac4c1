"""A board drawn in SVG: where each cell sits, and a position's stones on it.

The layout follows the rules' cells (`GameRules.cells`, `.layout`): a square
grid (row 0 on top, column 0 on the left, as the text drawings), Hex's
rhombus (each row half a cell right of the one above, Black's borders on top
and bottom, White's on the left and right, as `bddl.pg.hex` draws it), or,
for a game with no geometry, its cells in reading order with their names.

Each cell is one `<g class="cell">` whose attributes say which cell it is
and what is on it (`data-cell`, `data-name`, `data-state`: open, black or
white), so a program can read a drawing back (the tests do) and the strategy
explorer's script can set a cell's stone without redrawing the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bddl.game import Game, Move
from bddl.rules import BLACK, WHITE, GameRules, Play, Position

from .svg import attr, document, label, num

UNIT = 40.0  # a cell's width in the full-size drawing
OPEN = "open"
GROUND, GROUND_EDGE = "#ead9b0", "#7a6a4a"
# a stone's fill, outline and visibility per state; the explorer's script uses the same table
STONES = {
    BLACK: ("#161616", "#000000", "visible"),
    WHITE: ("#ffffff", "#161616", "visible"),
    OPEN: ("none", "none", "hidden"),
}
LAST = "#d62728"  # the marker of the cells the last move changed
WON = "#f2b134"  # the ground of the cells of the goal the last move reached
BLACK_BORDER, WHITE_BORDER = "#161616", "#b8b8b8"


@dataclass(frozen=True, slots=True)
class Place:
    """Where cell `index` sits: its centre and the SVG element of its ground (without fill)."""

    index: int
    x: float
    y: float
    ground: str


@dataclass(frozen=True, slots=True)
class Layout:
    """A board's geometry at full size, its top-left corner at (0, 0)."""

    width: float
    height: float
    places: tuple[Place, ...]
    stone_radius: float
    decorations: tuple[str, ...]  # axis labels, Hex borders, cell names


def state_of(position: Position, cell: int) -> str:
    if position.black >> cell & 1:
        return BLACK
    if position.white >> cell & 1:
        return WHITE
    return OPEN


def position_string(position: Position, cells: int) -> str:
    """The position as certificates write it: one of `.`, `B`, `W` per cell in bit order."""
    return "".join({BLACK: "B", WHITE: "W", OPEN: "."}[state_of(position, i)] for i in range(cells))


def axis_labels(rules: GameRules) -> tuple[list[str] | None, list[str] | None]:
    """The rows' and the columns' labels: BDDL's y and x (from 1), or what the
    cell names of a positional game give (`a`..`e`, `1`..`5`); None where the names give none."""
    rows = 1 + max((c.row for c in rules.cells if c.row is not None), default=-1)
    columns = 1 + max((c.column for c in rules.cells if c.column is not None), default=-1)
    if rules.axes_numbered:
        return [str(r + 1) for r in range(rows)], [str(c + 1) for c in range(columns)]
    from bddl.pg.geometry import name_axes

    row_labels = column_labels = None
    for ranks, names in name_axes([c.name for c in rules.cells]) or []:
        if ranks == [c.row for c in rules.cells] and len(names) == rows:
            row_labels = names
        elif ranks == [c.column for c in rules.cells] and len(names) == columns:
            column_labels = names
    return row_labels, column_labels


def layout(rules: GameRules, labels: bool = True) -> Layout:
    """The board's geometry (with its axis labels unless `labels` is false)."""
    if rules.layout == "hex":
        return _hex_layout(rules, labels)
    if rules.layout == "grid" and all(c.row is not None and c.column is not None for c in rules.cells):
        return _grid_layout(rules, labels)
    return _list_layout(rules, labels)


def _grid_layout(rules: GameRules, labels: bool) -> Layout:
    row_labels, column_labels = axis_labels(rules) if labels else (None, None)
    left = UNIT * 0.6 if row_labels else UNIT * 0.15
    top = UNIT * 0.6 if column_labels else UNIT * 0.15
    rows = 1 + max(c.row or 0 for c in rules.cells)
    columns = 1 + max(c.column or 0 for c in rules.cells)
    places = []
    for i, cell in enumerate(rules.cells):
        x0, y0 = left + (cell.column or 0) * UNIT, top + (cell.row or 0) * UNIT
        ground = f'<rect x="{num(x0)}" y="{num(y0)}" width="{num(UNIT)}" height="{num(UNIT)}"'
        places.append(Place(i, x0 + UNIT / 2, y0 + UNIT / 2, ground))
    decorations = []
    for r, text in enumerate(row_labels or []):
        decorations.append(label(left / 2, top + (r + 0.5) * UNIT, text, 13, extra=' fill="#555555"'))
    for c, text in enumerate(column_labels or []):
        decorations.append(label(left + (c + 0.5) * UNIT, top / 2, text, 13, extra=' fill="#555555"'))
    return Layout(left + columns * UNIT + UNIT * 0.15, top + rows * UNIT + UNIT * 0.15, tuple(places), UNIT * 0.4, tuple(decorations))


def _hex_corner(x: float, y: float, radius: float, angle: int) -> tuple[float, float]:
    return x + radius * math.cos(math.radians(angle)), y + radius * math.sin(math.radians(angle))


def _hex_layout(rules: GameRules, labels: bool) -> Layout:
    row_labels, column_labels = axis_labels(rules) if labels else (None, None)
    radius = UNIT / math.sqrt(3)  # centre to corner; UNIT is the width across the flat sides
    rows = 1 + max(c.row or 0 for c in rules.cells)
    columns = 1 + max(c.column or 0 for c in rules.cells)
    left = UNIT * (0.75 if row_labels else 0.25)
    top = UNIT * (0.75 if column_labels else 0.25)

    def centre(row: int, column: int) -> tuple[float, float]:
        return left + UNIT / 2 + column * UNIT + row * UNIT / 2, top + radius + row * 1.5 * radius

    places = []
    for i, cell in enumerate(rules.cells):
        x, y = centre(cell.row or 0, cell.column or 0)
        corners = " ".join(f"{num(px)},{num(py)}" for px, py in (_hex_corner(x, y, radius, a) for a in (-90, -30, 30, 90, 150, 210)))
        places.append(Place(i, x, y, f'<polygon points="{corners}"'))
    decorations = []

    def border(cells: list[tuple[int, int]], angles: tuple[int, ...], colour: str) -> None:
        for row, column in cells:
            x, y = centre(row, column)
            points = " ".join(f"{num(px)},{num(py)}" for px, py in (_hex_corner(x, y, radius, a) for a in angles))
            decorations.append(f'<polyline class="border" points="{points}" fill="none" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>')

    # Black joins the top row to the bottom one, White the left column to the right one (bddl/pg/hex.py)
    border([(0, c) for c in range(columns)], (210, 270, 330), BLACK_BORDER)
    border([(rows - 1, c) for c in range(columns)], (30, 90, 150), BLACK_BORDER)
    border([(r, 0) for r in range(rows)], (210, 150, 90), WHITE_BORDER)
    border([(r, columns - 1) for r in range(rows)], (270, 330, 30), WHITE_BORDER)
    for c, text in enumerate(column_labels or []):
        x, y = centre(0, c)
        decorations.append(label(x, y - radius - UNIT * 0.35, text, 13, extra=' fill="#555555"'))
    for r, text in enumerate(row_labels or []):
        x, y = centre(r, 0)
        decorations.append(label(x - UNIT * 0.85, y, text, 13, extra=' fill="#555555"'))
    width = left + columns * UNIT + (rows - 1) * UNIT / 2 + UNIT * 0.25
    height = top + 2 * radius + (rows - 1) * 1.5 * radius + UNIT * 0.25
    return Layout(width, height, tuple(places), UNIT * 0.36, tuple(decorations))


def _list_layout(rules: GameRules, labels: bool) -> Layout:
    """No geometry: the cells in bit order, in rows, each a disc with its name below (unless `labels` is false)."""
    count = len(rules.cells)
    per_row = max(1, math.ceil(math.sqrt(count)))
    step_x, step_y = UNIT * 1.5, UNIT * 1.6
    places, decorations = [], []
    for i, cell in enumerate(rules.cells):
        x = UNIT * 0.9 + (i % per_row) * step_x
        y = UNIT * 0.7 + (i // per_row) * step_y
        places.append(Place(i, x, y, f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(UNIT * 0.5)}"'))
        if labels:
            decorations.append(label(x, y + UNIT * 0.72, cell.name, 11, extra=' fill="#333333"'))
    rows = math.ceil(count / per_row) if count else 1
    return Layout(UNIT * 0.3 + per_row * step_x, UNIT * 0.2 + rows * step_y, tuple(places), UNIT * 0.4, tuple(decorations))


def board_elements(
    rules: GameRules,
    board: Layout,
    position: Position | None,
    *,
    last: frozenset[int] = frozenset(),
    fills: dict[int, str] | None = None,
    ids: bool = True,
) -> list[str]:
    """The board's cells (with the position's stones, `last` marked, `fills`
    colouring some cells' ground) and its decorations, at full size.

    With `ids`, each cell carries `id="cN"` and its data attributes: a page
    holds one such board (the explorer's); small multiples leave them out."""
    out = []
    fills = fills or {}
    for place in board.places:
        cell = rules.cells[place.index]
        state = OPEN if position is None else state_of(position, place.index)
        fill, stroke, shown = STONES[state]
        if ids:
            data = (
                f' id="c{place.index}" data-cell="{place.index}" data-name={attr(cell.name)} data-state="{state}"'
                f' data-x="{num(place.x)}" data-y="{num(place.y)}"'
            )
            if cell.row is not None:
                data += f' data-row="{cell.row}" data-column="{cell.column}"'
            out.append(f'<g class="cell"{data}><title>{attr(cell.name)[1:-1]}</title>')
        else:
            out.append("<g>")
        out.append(f'{place.ground} class="ground" fill="{fills.get(place.index, GROUND)}" stroke="{GROUND_EDGE}" stroke-width="1"/>')
        if ids or state != OPEN:
            out.append(
                f'<circle class="stone" cx="{num(place.x)}" cy="{num(place.y)}" r="{num(board.stone_radius)}" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="1.5" visibility="{shown}"/>'
            )
        if ids or place.index in last:
            shown = "visible" if place.index in last else "hidden"
            out.append(f'<circle class="last" cx="{num(place.x)}" cy="{num(place.y)}" r="{num(board.stone_radius * 0.35)}" fill="{LAST}" visibility="{shown}"/>')
        out.append("</g>")
    return out + list(board.decorations)


def changed_cells(before: Position, after: Position, cells: int) -> frozenset[int]:
    """The cells whose state a move changed."""
    return frozenset(i for i in range(cells) if state_of(before, i) != state_of(after, i))


def marked_cells(rules: GameRules, last: Play | None, before: Position | None) -> frozenset[int]:
    """The cells to mark for the move just played: those it changed when the
    position before it is known, else those it names: a claimed cell, or the
    cells a BDDL action's effect names at its (x, y) (only those can change,
    by the frame rule; Connect-4's `occupyBottom 2 1` lands lower down)."""
    if last is None:
        return frozenset()
    if before is not None:
        return changed_cells(before, last.after, len(rules.cells))
    if isinstance(last.move, int):
        return frozenset({last.move})
    game = getattr(rules, "game", None)
    if not isinstance(last.move, Move) or not isinstance(game, Game):
        return frozenset()
    action = game.rules(last.move.side).actions[last.move.action_index]
    names = {"({},{})".format(*game.geometry.cell_of(atom, (last.move.x, last.move.y))) for atom in action.effect.atoms}
    return frozenset(i for i, c in enumerate(rules.cells) if c.name in names)


def caption(rules: GameRules, position: Position, last: Play | None = None) -> str:
    """What the picture shows, in words: the ply, who is to move or who has won, the last move."""
    words = [f"after {position.ply} {'ply' if position.ply == 1 else 'plies'}"]
    if last is not None:
        words.append(f"last move: {last.text} ({last.side})")
    if last is not None and rules.won(position, last.side):
        words.append(f"{last.side.capitalize()} has won")
    elif position.ply >= rules.depth:
        words.append("no plies left")
    else:
        words.append(f"{rules.to_move(position.ply).capitalize()} to move")
    return " · ".join(words)


def position_svg(rules: GameRules, position: Position, last: Play | None = None, before: Position | None = None, title: str = "") -> str:
    """The position as a standalone SVG file, the cells `last` changed marked
    (those it names when `before` is not given), the goal it reached (if it
    won) on gold ground, a caption below."""
    from .goals import winning_cells

    board = layout(rules)
    line = caption(rules, position, last)
    width = max(board.width, 7.0 * len(line) + 20)
    won = winning_cells(rules, position, last.side) if last is not None and rules.won(position, last.side) else frozenset()
    body = [f'<g transform="translate({num((width - board.width) / 2)},0)">']
    body += board_elements(rules, board, position, last=marked_cells(rules, last, before), fills={c: WON for c in won})
    body.append("</g>")
    body.append(label(width / 2, board.height + 14, line, 12, extra=' fill="#222222"'))
    return document(width, board.height + 28, body, title or line)
