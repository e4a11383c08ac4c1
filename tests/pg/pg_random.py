"""Random small positional games, and a brute-force minimax written from the
rules alone (no table, no pruning, no symmetry): the oracle's oracle.

The generator covers what the solver must get right: random hypergraphs for
either side (Maker-Maker and Maker-Breaker), turn sequences with runs of one
side ((p,q) turns), more time points than cells (the mover runs out of open
cells), initial stones (sometimes already a winning set), first-move sets,
Hex-like border graphs, and grids whose winning sets are closed under the
board's symmetries (so that the solver's symmetry reduction is exercised)."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from itertools import product

from bddl.pg.animals import animal_game
from bddl.pg.game import BLACK, WHITE, BorderGraph, PositionalGame
from bddl.pg.geometry import coordinates_from_names


def brute_force(game: PositionalGame) -> bool:
    """Does Black win?  Straight from docs/positional.md's rules (remembering
    positions already valued, so that nine-cell games stay quick)."""
    n = len(game.cells)

    def black_goal(black: frozenset[int]) -> bool:
        if game.graph is None:
            return any(s <= black for s in game.black_wins)
        seen = {c for c in game.graph.start_border if c in black}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for d in game.graph.neighbours[c]:
                if d in black and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return bool(seen & game.graph.end_border)

    def white_goal(white: frozenset[int]) -> bool:
        return any(s <= white for s in game.white_wins)

    @functools.cache
    def value(black: frozenset[int], white: frozenset[int], t: int) -> bool:
        if t == len(game.times):
            return False
        options = [
            c
            for c in range(n)
            if c not in black and c not in white and (t > 0 or game.first_moves is None or c in game.first_moves)
        ]
        if not options:
            return False
        if game.turns[t] == BLACK:
            return any(black_goal(black | {c}) or value(black | {c}, white, t + 1) for c in options)
        return all(not white_goal(white | {c}) and value(black, white | {c}, t + 1) for c in options)

    if white_goal(game.white_initials):
        return False
    if black_goal(game.black_initials):
        return True
    return value(game.black_initials, game.white_initials, 0)


def grid_names(rows: int, cols: int) -> tuple[str, ...]:
    return tuple(f"{chr(ord('a') + r)}{c + 1}" for r in range(rows) for c in range(cols))


def random_turns(rng: random.Random, depth: int) -> tuple[str, ...]:
    kind = rng.random()
    if kind < 0.4:  # alternate, either side first
        first = rng.choice((BLACK, WHITE))
        other = WHITE if first == BLACK else BLACK
        return tuple(first if t % 2 == 0 else other for t in range(depth))
    if kind < 0.7:  # (p,q): a first turn of q stones, then turns of p stones
        p, q = rng.choice(((2, 1), (2, 2), (1, 2), (3, 1)))
        first = rng.choice((BLACK, WHITE))
        other = WHITE if first == BLACK else BLACK
        turns, side, size = [], first, q
        while len(turns) < depth:
            turns += [side] * size
            side, size = (other if side == first else first), p
        return tuple(turns[:depth])
    return tuple(rng.choice((BLACK, WHITE)) for _ in range(depth))


def random_sets(rng: random.Random, n: int, count: int, largest: int) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(rng.sample(range(n), rng.randint(1, min(largest, n)))) for _ in range(count))


def random_game(rng: random.Random) -> PositionalGame:
    shape = rng.random()
    if shape < 0.6:
        return _random_hypergraph_game(rng)
    if shape < 0.8:
        return _random_symmetric_grid_game(rng)
    return _random_border_game(rng)


def _stones(rng: random.Random, n: int) -> tuple[frozenset[int], frozenset[int]]:
    if rng.random() < 0.6:
        return frozenset(), frozenset()
    cells = list(range(n))
    rng.shuffle(cells)
    k = rng.randint(0, min(2, n - 1))
    j = rng.randint(0, min(2, n - 1 - k))
    return frozenset(cells[:k]), frozenset(cells[k : k + j])


def _first_moves(rng: random.Random, n: int) -> frozenset[int] | None:
    if rng.random() < 0.75:
        return None
    return frozenset(rng.sample(range(n), rng.randint(1, n)))


def _build(rng, cells, turns, black_wins, white_wins, graph=None) -> PositionalGame:
    n = len(cells)
    black_init, white_init = _stones(rng, n)
    return PositionalGame(
        cells=cells,
        times=tuple(f"t{i + 1}" for i in range(len(turns))),
        turns=turns,
        black_wins=black_wins,
        white_wins=white_wins,
        black_initials=black_init,
        white_initials=white_init,
        first_moves=_first_moves(rng, n),
        graph=graph,
        coordinates=coordinates_from_names(cells),
    )


def _random_hypergraph_game(rng: random.Random) -> PositionalGame:
    if rng.random() < 0.5:  # cells named as a grid, so that symmetries are looked for (and mostly refused)
        rows, cols = rng.choice(((2, 2), (2, 3), (3, 3), (2, 4), (1, 5)))
        cells = grid_names(rows, cols)
        n = len(cells)
    else:
        n = rng.randint(2, 9)
        cells = tuple(f"v{i}" for i in range(n))
    depth = rng.randint(1, n + 2)
    black_wins = random_sets(rng, n, rng.randint(1, 8), 4)
    white_wins = () if rng.random() < 0.35 else random_sets(rng, n, rng.randint(1, 6), 4)
    return _build(rng, cells, random_turns(rng, depth), black_wins, white_wins)


def _random_symmetric_grid_game(rng: random.Random) -> PositionalGame:
    rows, cols = rng.choice(((2, 2), (2, 3), (3, 3), (1, 4), (2, 4)))
    cells = grid_names(rows, cols)
    n = len(cells)
    coords = [(r, c) for r in range(rows) for c in range(cols)]
    where = {xy: i for i, xy in enumerate(coords)}
    maps = [lambda r, c: (r, c), lambda r, c: (rows - 1 - r, c), lambda r, c: (r, cols - 1 - c)]
    maps.append(lambda r, c: (rows - 1 - r, cols - 1 - c))
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
        maps += [lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r)]

    def closed(sets):
        out = {frozenset(where[f(*coords[i])] for i in s) for s in sets for f in maps}
        return tuple(sorted(out, key=sorted))

    black_wins = closed(random_sets(rng, n, rng.randint(1, 2), 4))
    white_wins = () if rng.random() < 0.3 else closed(random_sets(rng, n, rng.randint(1, 2), 4))
    depth = rng.randint(n // 2, n + 1)
    return _build(rng, cells, random_turns(rng, depth), black_wins, white_wins)


def _random_border_game(rng: random.Random) -> PositionalGame:
    rows, cols = rng.choice(((2, 2), (2, 3), (3, 3), (3, 2)))
    cells = grid_names(rows, cols)
    n = len(cells)
    index = {(r, c): r * cols + c for r, c in product(range(rows), range(cols))}
    adjacent: dict[int, set[int]] = {i: set() for i in range(n)}
    for (r, c), i in index.items():  # a hex grid's six directions, some edges dropped at random
        for dr, dc in ((0, 1), (1, 0), (1, -1)):
            j = index.get((r + dr, c + dc))
            if j is not None and rng.random() < 0.85:
                adjacent[i].add(j)
                adjacent[j].add(i)
    graph = BorderGraph(
        neighbours=tuple(tuple(sorted(adjacent[i])) for i in range(n)),
        start_border=frozenset(index[(r, 0)] for r in range(rows)),
        end_border=frozenset(index[(r, cols - 1)] for r in range(rows)),
    )
    depth = rng.randint(1, n + 1)
    return _build(rng, cells, random_turns(rng, depth), (), (), graph)


def random_animal_position(rng: random.Random) -> PositionalGame:
    """An animal game on 3x3 or 4x4 (sets of 3 and 4 cells, weak or strong) with a few random
    stones and few plies, so that Black's moves left bound which sets it can complete: where
    White's pairings within the depth (`bddl.pg.pairing`) are met."""
    n = rng.choice((3, 4, 4))
    game = animal_game(rng.choice(("I-tromino", "V-tromino", "I-tetromino", "L-tetromino", "T-tetromino")), n,
                       weak=rng.random() < 0.5, symmetry_cut=False)
    cells = list(range(n * n))
    rng.shuffle(cells)
    black, white = rng.randint(0, 3), rng.randint(0, 3)
    game = replace(game, black_initials=frozenset(cells[:black]), white_initials=frozenset(cells[black:black + white]))
    return game.with_depth(min(rng.randint(2, 7), n * n - black - white))
