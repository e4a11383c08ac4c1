"""Breakthrough's race patterns as the compiled core's arrays (src/race.hpp).

Why this module exists: the core's verdict must be `RaceKnowledge.__call__`'s, so it is built
from a `RaceKnowledge` itself (its placements, rows and the pattern file's order tables), never
from the patterns again: the windows, their placement on the board and the tables have one
definition each, in `bddl.engines.race`, and this only writes them out as flat integer lists.
"""

from __future__ import annotations

from ..race.knowledge import RaceKnowledge
from ..race.patterns import order_table
from ..race.restricted import Window

WINDOW_BITS = 9  # src/race.hpp's RACE_WINDOW_BITS: a 3x3 window's masks
TABLE = 1 << (2 * WINDOW_BITS)


def _index(bit: int) -> int:
    assert bit > 0 and bit & (bit - 1) == 0, bit
    return bit.bit_length() - 1


def _side(knowledge: RaceKnowledge, side: str, shapes: dict[Window, int]) -> dict:
    tables: list[int] = []
    offsets, cells, bits = [0], [], []
    for window, pairs in knowledge.placements.get(side, ()):
        tables.append(shapes.setdefault(window, len(shapes)))
        for board_bit, window_bit in pairs:
            cells.append(_index(board_bit))
            bits.append(_index(window_bit))
        offsets.append(len(cells))
    distances: list[int] = []
    row_offsets: list[int] = [0]
    row_cells: list[int] = []
    for distance, row in knowledge.rows.get(side, ()):
        distances.append(distance)
        row_cells.extend(c for c in range(row.bit_length()) if row >> c & 1)
        row_offsets.append(len(row_cells))
    return {
        "placement_table": tables, "placement_offsets": offsets, "placement_cells": cells, "placement_bits": bits,
        "row_distance": distances, "row_offsets": row_offsets, "row_cells": row_cells,
    }


def flatten_race(knowledge: RaceKnowledge | None, cells: int) -> dict:
    """The knowledge as src/race.hpp's RaceSpec (a dict of its fields); `on` False for None."""
    if knowledge is None:
        return {"on": False, "height": 0, "shapes": 0, "orders": b"", "black": _empty(), "white": _empty()}
    shapes: dict[Window, int] = {}
    black = _side(knowledge, "black", shapes)
    white = _side(knowledge, "white", shapes)
    orders = bytearray(len(shapes) * 2 * TABLE)
    for window, shape in shapes.items():
        assert window.width * window.height <= WINDOW_BITS, window
        for first in (False, True):
            base = (shape * 2 + first) * TABLE
            for (a, d), order in order_table(window, first).items():
                assert 0 < order < 256 and not a & d, (a, d, order)
                orders[base + (a << WINDOW_BITS | d)] = order
    for side in (black, white):
        assert all(0 <= c < cells for c in side["placement_cells"] + side["row_cells"])
    return {"on": True, "height": knowledge.height, "shapes": len(shapes), "orders": bytes(orders), "black": black, "white": white}


def _empty() -> dict:
    return {"placement_table": [], "placement_offsets": [0], "placement_cells": [], "placement_bits": [],
            "row_distance": [], "row_offsets": [0], "row_cells": []}
