"""Random small Maker-Breaker games for the differential tests of the Hex
preprocessing and encodings: Hex boards with stones, random graphs with two
borders, and random winning sets."""

from __future__ import annotations

import random

from bddl.pg.game import BLACK, WHITE, BorderGraph, PositionalGame
from bddl.pg.hex import hex_board


def turns(depth: int, white_first: bool = False) -> tuple[str, ...]:
    first, second = (WHITE, BLACK) if white_first else (BLACK, WHITE)
    return tuple(first if k % 2 == 0 else second for k in range(depth))


def random_stones(rng: random.Random, cells: int, black: float = 0.15, white: float = 0.15):
    roll = [rng.random() for _ in range(cells)]
    return (
        frozenset(v for v, x in enumerate(roll) if x < black),
        frozenset(v for v, x in enumerate(roll) if black <= x < black + white),
    )


def random_hex(rng: random.Random, largest: int = 4, deepest: int = 7) -> PositionalGame:
    """A Hex board of 1..largest columns and rows with random stones, at a random depth."""
    columns, rows = rng.randint(1, largest), rng.randint(1, largest)
    marks = {(c, r): rng.choices("xo.", weights=(15, 15, 70))[0] for c in range(columns) for r in range(rows)}
    text = "/".join("".join(marks[(c, r)] for c in range(columns)) for r in range(rows))
    open_cells = sum(m == "." for m in marks.values())
    return hex_board(columns, rng.randint(0, min(open_cells + 1, deepest)), text, rows=rows)


def random_graph(rng: random.Random, largest: int = 8, deepest: int = 7) -> PositionalGame:
    """A random graph with two non-empty borders, random stones and depth (odd or even)."""
    n = rng.randint(2, largest)
    p = rng.uniform(0.2, 0.6)
    adjacent = [set() for _ in range(n)]
    for v in range(n):
        for w in range(v + 1, n):
            if rng.random() < p:
                adjacent[v].add(w)
                adjacent[w].add(v)
    start = frozenset(rng.sample(range(n), rng.randint(1, max(1, n // 3))))
    end = frozenset(rng.sample(range(n), rng.randint(1, max(1, n // 3))))
    black, white = random_stones(rng, n)
    depth = rng.randint(0, deepest)
    return PositionalGame(
        cells=tuple(f"v{i}" for i in range(n)),
        times=tuple(f"t{k}" for k in range(1, depth + 1)),
        turns=turns(depth, white_first=rng.random() < 0.1),
        black_initials=black,
        white_initials=white,
        graph=BorderGraph(tuple(tuple(sorted(a)) for a in adjacent), start, end),
    )


def random_sets(rng: random.Random, largest: int = 8, deepest: int = 7) -> PositionalGame:
    """A Maker-Breaker game with random winning sets of 1..4 cells."""
    n = rng.randint(2, largest)
    sets = tuple(
        frozenset(rng.sample(range(n), rng.randint(1, min(4, n)))) for _ in range(rng.randint(1, 6))
    )
    black, white = random_stones(rng, n, 0.1, 0.15)
    black = frozenset(v for v in black if not any(s <= black for s in sets))  # not already won
    depth = rng.randint(0, deepest)
    return PositionalGame(
        cells=tuple(f"c{i}" for i in range(n)),
        times=tuple(f"t{k}" for k in range(1, depth + 1)),
        turns=turns(depth),
        black_wins=sets,
        black_initials=black - white,
        white_initials=white,
    )
