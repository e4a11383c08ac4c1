"""Hex as a positional game on a graph: boards, positions in a compact notation, and the drawing.

Cells are named as in the Hein puzzles of the positional-games corpus (Q-sage's
Hex form): a column letter then a row number, `a1` .. `e5`.  Cell (column c,
row r) touches (c-1, r), (c+1, r), (c, r-1), (c, r+1), (c-1, r+1) and
(c+1, r-1).  Black joins row 1 (the start border) to the last row (the end
border); White joins column a to the last column, which only the transversal
goal (the Hex theorem) uses.

Stone notation: the rows from 1 down, separated by `/`; in a row, `x` is a
Black stone, `o` a White one, `.` an open cell and a number that many open
cells (so an empty 19x19 board is `19/19/...` or simply the empty string, and
a row may stop early: the rest is open).  Hein's puzzle 4 on 3x3, Black on a1
and White on b1 and c2, is `xo/2o`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .game import BLACK, WHITE, BorderGraph, PositionalGame
from .geometry import coordinates_from_names

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CELL = re.compile(r"([a-z])([1-9][0-9]*)\Z")


class HexNotationError(ValueError):
    """A stone notation that does not describe a position on the board."""


def cell_name(column: int, row: int) -> str:
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def hex_neighbours(column: int, row: int, columns: int, rows: int) -> list[tuple[int, int]]:
    """The cells touching (column, row) on a columns x rows Hex board, in Q-sage's order."""
    around = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, 1), (1, -1)]
    return [
        (column + dc, row + dr)
        for dc, dr in around
        if 0 <= column + dc < columns and 0 <= row + dr < rows
    ]


def hex_board(size: int, depth: int | None = None, stones: str = "", rows: int | None = None) -> PositionalGame:
    """A size x size (or size columns x `rows`) Hex board with the stones of
    `stones` (the notation above), Black to move, `depth` plies (default: every
    open cell gets claimed)."""
    columns, rows = size, size if rows is None else rows
    if not 1 <= columns <= len(COLUMN_LETTERS) or rows < 1:
        raise ValueError(f"a Hex board has 1 to {len(COLUMN_LETTERS)} columns and at least one row")
    coordinates = tuple((c, r) for c in range(columns) for r in range(rows))  # column-major, as the Hein files
    index = {xy: i for i, xy in enumerate(coordinates)}
    black, white = parse_stones(stones, columns, rows)
    open_cells = len(coordinates) - len(black) - len(white)
    plies = open_cells if depth is None else depth
    times = tuple(f"t{k}" for k in range(1, plies + 1))
    turns = tuple(BLACK if k % 2 == 0 else WHITE for k in range(plies))
    graph = BorderGraph(
        neighbours=tuple(tuple(sorted(index[n] for n in hex_neighbours(c, r, columns, rows))) for c, r in coordinates),
        start_border=frozenset(index[(c, 0)] for c in range(columns)),
        end_border=frozenset(index[(c, rows - 1)] for c in range(columns)),
    )
    cells = tuple(cell_name(c, r) for c, r in coordinates)
    return PositionalGame(
        cells=cells,
        times=times,
        turns=turns,
        black_initials=frozenset(index[xy] for xy in black),
        white_initials=frozenset(index[xy] for xy in white),
        graph=graph,
        coordinates=coordinates_from_names(cells),  # what the .pg reader gives the same names
    )


def parse_stones(text: str, columns: int, rows: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Black's and White's stones, as (column, row), from the notation of the module docstring."""
    black: set[tuple[int, int]] = set()
    white: set[tuple[int, int]] = set()
    text = text.strip()
    lines = text.split("/") if text else []
    if len(lines) > rows:
        raise HexNotationError(f"{len(lines)} rows given for a board of {rows}")
    for r, line in enumerate(lines):
        c = 0
        for run in re.finditer(r"[0-9]+|.", line.strip()):
            token = run.group()
            if token.isdigit():
                c += int(token)
                continue
            if token not in "xo.":
                raise HexNotationError(f"row {r + 1}: {token!r} is not x, o, . or a number")
            if token == "x":
                black.add((c, r))
            elif token == "o":
                white.add((c, r))
            c += 1
        if c > columns:
            raise HexNotationError(f"row {r + 1} has {c} cells on a board of {columns} columns")
    return black, white


def _position(game: PositionalGame, black: Iterable[int], white: Iterable[int]):
    """What notation and drawing both need: the cells' (column, row), the board's size, the cell at each
    (column, row), and the Black and White cells once `black` and `white` are added."""
    coordinates = hex_coordinates(game)
    if coordinates is None:
        raise ValueError("not a Hex board")
    columns = 1 + max(c for c, _ in coordinates)
    rows = 1 + max(r for _, r in coordinates)
    at = {xy: i for i, xy in enumerate(coordinates)}
    return coordinates, columns, rows, at, set(game.black_initials) | set(black), set(game.white_initials) | set(white)


def stone_notation(game: PositionalGame, black: Iterable[int] = (), white: Iterable[int] = ()) -> str:
    """The notation of the game's position with `black` and `white` cells added (the inverse of `parse_stones`)."""
    coordinates, columns, rows, at, blacks, whites = _position(game, black, white)
    lines = []
    for r in range(rows):
        marks = ["x" if at[(c, r)] in blacks else "o" if at[(c, r)] in whites else "." for c in range(columns)]
        lines.append(re.sub(r"\.+", lambda m: str(len(m.group())), "".join(marks).rstrip(".")))
    return "/".join(lines).rstrip("/")


def hex_coordinates(game: PositionalGame) -> tuple[tuple[int, int], ...] | None:
    """(column, row) of every cell when the game is a whole Hex board named as
    above (as the Hein files are), else None.  Recognised from the names and
    checked against the neighbour relation and the borders, so a drawing
    never misplaces a cell."""
    graph = game.graph
    if graph is None:
        return None
    coordinates = []
    for name in game.cells:
        match = _CELL.match(name)
        if match is None:
            return None
        coordinates.append((COLUMN_LETTERS.index(match.group(1)), int(match.group(2)) - 1))
    columns = 1 + max(c for c, _ in coordinates)
    rows = 1 + max(r for _, r in coordinates)
    if len(set(coordinates)) != len(coordinates) or len(coordinates) != columns * rows:
        return None
    index = {xy: i for i, xy in enumerate(coordinates)}
    for i, (c, r) in enumerate(coordinates):
        if graph.neighbours[i] != tuple(sorted(index[n] for n in hex_neighbours(c, r, columns, rows))):
            return None
    if graph.start_border != {index[(c, 0)] for c in range(columns)}:
        return None
    if graph.end_border != {index[(c, rows - 1)] for c in range(columns)}:
        return None
    return tuple(coordinates)


def white_borders(game: PositionalGame) -> tuple[frozenset[int], frozenset[int]]:
    """White's two borders (the first and the last column) of a Hex board."""
    coordinates = hex_coordinates(game)
    if coordinates is None:
        raise ValueError("White's borders are known only on a Hex board")
    last = max(c for c, _ in coordinates)
    return (
        frozenset(i for i, (c, _) in enumerate(coordinates) if c == 0),
        frozenset(i for i, (c, _) in enumerate(coordinates) if c == last),
    )


def draw_hex(game: PositionalGame, black: Iterable[int] = (), white: Iterable[int] = (), mark: int | None = None) -> str:
    """The position as the usual rhombus: row 1 on top, each row half a cell to
    the right of the one above, so every cell touches the two below it to its
    left and right.  `B` Black, `W` White, `.` open (as bddl.pg.draw's grids); `mark` (a cell) is drawn
    in brackets, for the move just played.  Black joins top and bottom, White
    left and right.

           a b c
        1  B W .  1
         2  . . W  2
          3  . . .  3
             a b c
    """
    coordinates, columns, rows, at, blacks, whites = _position(game, black, white)
    width = len(str(rows))
    letters = " ".join(COLUMN_LETTERS[c] for c in range(columns))
    lines = [" " * (width + 2) + letters]
    for r in range(rows):
        marked = coordinates[mark][0] if mark is not None and coordinates[mark][1] == r else None
        text = []
        for c in range(columns):
            i = at[(c, r)]
            text.append("[" if c == marked else "]" if marked is not None and c == marked + 1 else " ")
            text.append("B" if i in blacks else "W" if i in whites else ".")
        text.append("]" if marked == columns - 1 else " ")
        label = str(r + 1).rjust(width)
        lines.append(" " * r + label + " " + "".join(text) + " " + str(r + 1))
    lines.append(" " * (rows + width + 1) + letters)
    return "\n".join(line.rstrip() for line in lines)
