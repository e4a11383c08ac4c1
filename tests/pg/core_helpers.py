"""Games that the compiled core's tests (test_compiled_core.py, test_compiled_knowledge.py) both
build (boards of every bitboard width, Hex on a board of six words) and what they both ask of a
search (where its position budget stops it)."""

from __future__ import annotations

import pytest

from bddl.engines.minimax import SearchBudgetExceeded
from bddl.pg.game import BLACK, WHITE, BorderGraph, PositionalGame


def line_game(n: int, depth: int, sets, turns=None, **extra) -> PositionalGame:
    """Cells c0..c{n-1}, Black's goals `sets` (cell indices), Black and White alternating unless
    `turns` says otherwise; `extra` goes to PositionalGame (initial stones, White's goals)."""
    cells = tuple(f"c{i}" for i in range(n))
    turns = turns or tuple(BLACK if t % 2 == 0 else WHITE for t in range(depth))
    return PositionalGame(cells, tuple(f"t{t + 1}" for t in range(depth)), turns,
                          black_wins=tuple(frozenset(s) for s in sets), **extra)


def nearly_full(n: int) -> tuple[list[int], frozenset[int], frozenset[int]]:
    """A board of n cells filled but for a few open cells on the 64-bit words' boundaries:
    (the open cells, ascending; Black's stone at the middle, if not open; White's stones)."""
    open_cells = sorted({0, 1, n - 2, n - 1} | {c for c in (62, 63, 64, 65, 127, 128, 191, 192) if c < n})
    black = frozenset({n // 2} - set(open_cells))
    white = frozenset(range(n)) - set(open_cells) - black
    return open_cells, black, white


def hex_column_game(size: int, gaps, depth: int, white) -> PositionalGame:
    """Hex on size x size, Black joining row 1 to the last row: Black's chain down column 3 but
    for the rows `gaps`, White's stones at the (row, column) cells `white`, `depth` claims left."""
    cells = tuple(f"{chr(ord('a') + c)}{r + 1}" for r in range(size) for c in range(size))
    index = {(r, c): r * size + c for r in range(size) for c in range(size)}
    neighbours = []
    for r in range(size):
        for c in range(size):
            around = [(r - 1, c), (r - 1, c + 1), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c)]
            neighbours.append(tuple(sorted(index[p] for p in around if p in index)))
    graph = BorderGraph(tuple(neighbours), frozenset(index[0, c] for c in range(size)),
                        frozenset(index[size - 1, c] for c in range(size)))
    return PositionalGame(cells, tuple(f"t{t + 1}" for t in range(depth)),
                          tuple(BLACK if t % 2 == 0 else WHITE for t in range(depth)),
                          black_initials=frozenset(index[r, 3] for r in range(size) if r not in gaps),
                          white_initials=frozenset(index[p] for p in white), graph=graph)


def positions_at_budget(*searches) -> list[int]:
    """The positions each search (a callable) had counted when its position budget stopped it."""
    raised = []
    for search in searches:
        with pytest.raises(SearchBudgetExceeded) as info:
            search()
        raised.append(info.value.positions)
    return raised
