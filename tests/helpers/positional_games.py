"""Random small positional games and a brute-force oracle for them.

The oracle is a plain minimax over (Black's cells, White's cells, time
point), written from the `.pg` semantics (bddl/pg/game.py's docstring) and
nothing else, so that it shares no code with the encodings it judges: at
each time point the mover claims one open cell (the first time point only
from `first_moves`, when given); the first side to own a whole winning set
of its own wins; when the time points run out, or the mover has no open
cell, the game is over and Black has not won.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache

from bddl.pg.game import BLACK, WHITE, PositionalGame


def owns_set(stones: int, sets: tuple[int, ...]) -> bool:
    return any(stones & s == s for s in sets)


def black_wins(game: PositionalGame) -> bool:
    """Does Black win, by exhaustive search (small games only)."""
    full = (1 << len(game.cells)) - 1
    black_sets = tuple(game.mask(s) for s in game.black_wins)
    white_sets = tuple(game.mask(s) for s in game.white_wins)
    first = None if game.first_moves is None else game.mask(game.first_moves)

    @lru_cache(maxsize=None)
    def value(black: int, white: int, t: int) -> bool:
        if owns_set(black, black_sets):
            return True
        if owns_set(white, white_sets) or t == len(game.turns):
            return False
        open_cells = full & ~black & ~white
        if t == 0 and first is not None:
            open_cells &= first
        if not open_cells:
            return False
        cells = [1 << c for c in range(len(game.cells)) if open_cells >> c & 1]
        if game.turns[t] == BLACK:
            return any(value(black | c, white, t + 1) for c in cells)
        return all(value(black, white | c, t + 1) for c in cells)

    return value(game.mask(game.black_initials), game.mask(game.white_initials), 0)


def winning_first_moves(game: PositionalGame) -> set[int]:
    """The cells whose claim at the first time point (Black's) keeps Black winning."""
    assert game.turns and game.turns[0] == BLACK
    allowed = set(range(len(game.cells))) - game.black_initials - game.white_initials
    if game.first_moves is not None:
        allowed &= game.first_moves
    found = set()
    for cell in allowed:
        after = PositionalGame(
            game.cells, game.times[1:], game.turns[1:], game.black_wins, game.white_wins,
            game.black_initials | {cell}, game.white_initials,
        )
        if black_wins(after):
            found.add(cell)
    return found


def turn_sequence(rng: random.Random, length: int) -> tuple[str, ...]:
    """Alternating single stones, a (p,q) pattern, or any sequence at all."""
    first, second = (BLACK, WHITE) if rng.random() < 0.7 else (WHITE, BLACK)
    kind = rng.choice(["alternate", "pq", "pq", "any"])
    if kind == "any":
        return tuple(rng.choice((BLACK, WHITE)) for _ in range(length))
    q, p = (1, 1) if kind == "alternate" else (rng.choice((1, 2)), 2)
    sides: list[str] = [first] * q
    mover = second
    while len(sides) < length:
        sides += [mover] * p
        mover = first if mover == second else second
    return tuple(sides[:length])


def _some_sets(rng: random.Random, n: int) -> tuple[frozenset[int], ...]:
    """Up to 8 random sets of 2-3 cells (1-3 now and then) among n."""

    def size() -> int:
        return rng.randint(1, min(3, n)) if rng.random() < 0.2 else rng.randint(min(2, n), min(3, n))

    return tuple(frozenset(rng.sample(range(n), size())) for _ in range(rng.randint(1, 8)))


def random_game(rng: random.Random, max_cells: int = 7) -> PositionalGame:
    """A small positional game: random winning sets (Maker-Maker or
    Maker-Breaker), turns, initial stones and first-move set.  No side owns
    a set before play (the sanity condition of the papers)."""
    while True:
        n = rng.randint(2, max_cells) if rng.random() < 0.3 else rng.randint(max_cells - 2, max_cells)
        cells = tuple(f"c{i}" for i in range(n))

        black_sets = _some_sets(rng, n)
        kind = rng.random()  # the same sets for both (as in GTTT), sets of White's own, or Maker-Breaker
        white_sets = black_sets if kind < 0.4 else _some_sets(rng, n) if kind < 0.7 else ()
        stones = rng.sample(range(n), rng.randint(0, min(2, n - 1)))
        black_initials = frozenset(stones[: rng.randint(0, len(stones))])
        white_initials = frozenset(stones) - black_initials
        open_cells = sorted(set(range(n)) - set(stones))
        length = rng.randint(max(1, len(open_cells) - 2), len(open_cells) + 3)
        turns = turn_sequence(rng, length)
        first = None
        if rng.random() < 0.3:
            first = frozenset(rng.sample(open_cells, rng.randint(1, len(open_cells))))
        game = PositionalGame(
            cells, tuple(f"t{i + 1}" for i in range(length)), turns, black_sets, white_sets,
            black_initials, white_initials, first,
        )
        black, white = game.mask(black_initials), game.mask(white_initials)
        if not owns_set(black, tuple(game.mask(s) for s in black_sets)) and not owns_set(
            white, tuple(game.mask(s) for s in white_sets)
        ):
            return game


def shape_sets(shape: set[tuple[int, int]], rows: int, cols: int, torus: bool) -> tuple[frozenset[int], ...]:
    """Every placement of every rotation and reflection of `shape` on the board (GTTT's winning sets)."""
    variants = set()
    for flip in (False, True):
        for turn in range(4):
            cells = {(c, r) if flip else (r, c) for r, c in shape}
            for _ in range(turn):
                cells = {(c, -r) for r, c in cells}
            low_r, low_c = min(r for r, _ in cells), min(c for _, c in cells)
            variants.add(frozenset((r - low_r, c - low_c) for r, c in cells))
    sets = set()
    for variant in variants:
        for dr in range(rows):
            for dc in range(cols):
                placed = [(r + dr, c + dc) for r, c in variant]
                if torus:
                    placed = [(r % rows, c % cols) for r, c in placed]
                elif any(r >= rows or c >= cols for r, c in placed):
                    continue
                if len(set(placed)) == len(placed):
                    sets.add(frozenset(r * cols + c for r, c in placed))
    return tuple(sorted(sets, key=sorted))


def random_grid_game(rng: random.Random) -> PositionalGame:
    """A GTTT-like game on a small grid named a1.. (so it has board symmetries):
    a random shape in all its orientations, on a plain board or a torus, for
    both sides or Black only, with random turns and sometimes initial stones
    (which may break the symmetry)."""
    from bddl.pg.geometry import coordinates_from_names

    while True:
        rows, cols = rng.choice([(3, 3), (3, 3), (2, 3), (2, 4)])
        torus = rng.random() < 0.3
        size = rng.randint(2, 3)
        shape = {(0, 0)}
        while len(shape) < size:
            r, c = rng.choice(sorted(shape))
            shape.add(rng.choice([(r + 1, c), (r, c + 1), (r + 1, c + 1)]))
        sets = shape_sets(shape, rows, cols, torus)
        if not sets:
            continue
        cells = tuple(f"{'abcd'[r]}{c + 1}" for r in range(rows) for c in range(cols))
        n = len(cells)
        stones = rng.sample(range(n), rng.choice([0, 0, 1, 2]))
        black_initials = frozenset(stones[: rng.randint(0, len(stones))])
        white_initials = frozenset(stones) - black_initials
        open_cells = n - len(stones)
        turns = turn_sequence(rng, rng.randint(max(1, open_cells - 3), open_cells + 1))
        game = PositionalGame(
            cells, tuple(f"t{i + 1}" for i in range(len(turns))), turns, sets,
            sets if rng.random() < 0.7 else (), black_initials, white_initials,
            coordinates=coordinates_from_names(cells),
        )
        if not owns_set(game.mask(black_initials), tuple(map(game.mask, sets))) and not owns_set(
            game.mask(white_initials), tuple(map(game.mask, game.white_wins))
        ):
            return game


def random_games(seed: int, count: int, max_cells: int = 7) -> list[PositionalGame]:
    rng = random.Random(seed)
    return [random_game(rng, max_cells) for _ in range(count)]


def white_sets_decide(game: PositionalGame) -> bool:
    """White's winning sets change the answer (the game is not the same as its Maker-Breaker twin)."""
    return bool(game.white_wins) and black_wins(game) != black_wins(replace(game, white_wins=()))


def differential_sample(seed: int, count: int, max_cells: int = 7) -> list[PositionalGame]:
    """`count` random games, a quarter of them chosen where White's sets
    decide the answer: about one random game in thirty is such a game, and
    without them an encoding that ignored White's goals would pass."""
    rng = random.Random(seed)
    decided, others = [], []
    while len(decided) < count // 4 or len(others) < count - count // 4:
        game = random_game(rng, max_cells)
        (decided if white_sets_decide(game) else others).append(game)
    games = decided[: count // 4] + others[: count - count // 4]
    rng.shuffle(games)
    return games


__all__ = ["BLACK", "WHITE", "black_wins", "random_game", "random_games", "random_grid_game", "differential_sample", "white_sets_decide", "winning_first_moves", "turn_sequence"]
