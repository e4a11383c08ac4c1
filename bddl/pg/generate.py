"""The classic positional-game families, generated: GTTT(p,q) polyomino games on
n x n boards (plain or torus) and k-in-a-row on any box (Gomoku, Connect6,
Qubic).

The games come out as the published `.pg` files have them (the corpus under
../shared/corpus/pg is checked against this module by tests/pg): cells named
row letter, column number (and a layer letter for a third axis: Qubic's
`a1x`), time points t1 t2 ..., both sides with the same winning sets
(Maker-Maker), and the symmetry cut of the papers on the first move (the
upper-left triangle of a square board, one cell on a torus).

Run as a program to write files:

    python -m bddl.pg.generate gttt --size 4 --shape El --p 2 --q 1 -o el.pg
    python -m bddl.pg.generate row --box 4 4 4 --k 4 -o qubic.pg

(`--depth N` keeps the first N time points; `--help` lists the options.)
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from typing import Iterable, Sequence

from .game import BLACK, WHITE, PositionalGame
from .geometry import coordinates_from_names

# The polyominoes of the GTTT literature, as the corpus names them: the digit
# pairs are (row, column) offsets of the shape's cells.
SHAPES = {
    "Domino": "0010",
    "Tic": "001020",
    "El": "000111",
    "Skinny": "00102030",
    "Elly": "00011020",
    "Fatty": "00011011",
    "Knobby": "00101120",
    "Tippy": "00101121",
    "Snaky": "011011203040",
}

LAYER_LETTERS = "xyzwvutsrqponmlkjihgfedcba"  # a third axis, as Qubic's file names its layers

Cell = tuple[int, ...]


def shape_cells(shape: str) -> tuple[tuple[int, int], ...]:
    """A shape by name (`SHAPES`) or as its digit-pair code, as (row, column) offsets."""
    code = SHAPES.get(shape, shape)
    if not code or len(code) % 2 or not code.isdigit():
        raise ValueError(f"unknown shape {shape!r}: a name ({', '.join(SHAPES)}) or digit pairs like 0010")
    return tuple((int(code[i]), int(code[i + 1])) for i in range(0, len(code), 2))


def orientations(cells: Iterable[tuple[int, int]]) -> tuple[frozenset[tuple[int, int]], ...]:
    """The shape's distinct rotations and reflections, each moved to the origin."""
    found = []
    for transpose, flip_r, flip_c in itertools.product((False, True), repeat=3):
        moved = []
        for r, c in cells:
            if transpose:
                r, c = c, r
            moved.append((-r if flip_r else r, -c if flip_c else c))
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)
        image = frozenset((r - r0, c - c0) for r, c in moved)
        if image not in found:
            found.append(image)
    return tuple(found)


def cell_name(cell: Cell) -> str:
    """`a1` for row 0, column 0; a third coordinate is a layer letter (`a1x`)."""
    name = _letters(cell[0]) + str(cell[1] + 1) if len(cell) >= 2 else "a" + str(cell[0] + 1)
    for extra in cell[2:]:
        name += LAYER_LETTERS[extra]
    return name


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def turn_sequence(count: int, p: int = 1, q: int = 1, black_first: bool = True) -> tuple[str, ...]:
    """GTTT(p,q)'s movers: the first player claims q cells, then each turn p cells."""
    first, second = (BLACK, WHITE) if black_first else (WHITE, BLACK)
    turns: list[str] = [first] * q
    side = second
    while len(turns) < count:
        turns += [side] * p
        side = first if side == second else second
    return tuple(turns[:count])


def triangle(n: int) -> frozenset[Cell]:
    """The papers' first-move cut on an n x n board: (i, j) with i <= j < ceil(n/2)."""
    half = math.ceil(n / 2)
    return frozenset((i, j) for i in range(half) for j in range(i, half))


def gttt(
    n: int,
    shape: str,
    p: int = 1,
    q: int = 1,
    torus: bool = False,
    black_first: bool = True,
    symmetry_cut: bool = True,
    opening: Sequence[str] = (),
) -> PositionalGame:
    """GTTT(p,q) with `shape` on an n x n board: every placement of every
    orientation is a winning set of both sides (on a torus, placements wrap)."""
    sets = []
    for image in orientations(shape_cells(shape)):
        height = max(r for r, _ in image) + 1
        width = max(c for _, c in image) + 1
        if not torus and (height > n or width > n):
            continue
        rows = range(n) if torus else range(n - height + 1)
        cols = range(n) if torus else range(n - width + 1)
        for r0, c0 in itertools.product(rows, cols):
            sets.append(frozenset(((r0 + r) % n, (c0 + c) % n) for r, c in image))
    cut = None
    if symmetry_cut and not opening:
        cut = frozenset({(0, 0)}) if torus else triangle(n)
    return _game((n, n), sets, p, q, black_first, cut, opening)


def k_in_a_row(
    box: Sequence[int],
    k: int,
    p: int = 1,
    q: int = 1,
    black_first: bool = True,
    symmetry_cut: bool = True,
    opening: Sequence[str] = (),
) -> PositionalGame:
    """k cells in a straight line (along an axis or any diagonal) on a box of
    any dimension: Gomoku is (15, 15) with k = 5, Qubic (4, 4, 4) with k = 4.
    The first-move cut is made on square two-dimensional boards only."""
    box = tuple(box)
    directions = [d for d in itertools.product((-1, 0, 1), repeat=len(box)) if any(d)]
    directions = [d for d in directions if next(x for x in d if x) > 0]  # one of each pair +d, -d
    sets = []
    for start in itertools.product(*(range(s) for s in box)):
        for d in directions:
            end = tuple(a + (k - 1) * x for a, x in zip(start, d))
            if all(0 <= e < s for e, s in zip(end, box)):
                sets.append(frozenset(tuple(a + i * x for a, x in zip(start, d)) for i in range(k)))
    square = len(box) == 2 and box[0] == box[1]
    cut = triangle(box[0]) if symmetry_cut and square and not opening else None
    return _game(box, sets, p, q, black_first, cut, opening)


def _game(box, sets, p, q, black_first, cut, opening) -> PositionalGame:
    places = list(itertools.product(*(range(s) for s in box)))
    names = tuple(cell_name(c) for c in places)
    index = {c: i for i, c in enumerate(places)}
    wins = tuple(dict.fromkeys(frozenset(index[c] for c in s) for s in sets))
    count = len(places)
    turns = turn_sequence(count, p, q, black_first)
    by_name = {name: i for i, name in enumerate(names)}
    black: set[int] = set()
    white: set[int] = set()
    for t, name in enumerate(opening):
        if name not in by_name or by_name[name] in black | white:
            raise ValueError(f"opening move {name!r} is not an open cell of the board")
        (black if turns[t] == BLACK else white).add(by_name[name])
    played = len(opening)
    return PositionalGame(
        cells=names,
        times=tuple(f"t{t + 1}" for t in range(played, count)),
        turns=turns[played:],
        black_wins=wins,
        white_wins=wins,
        black_initials=frozenset(black),
        white_initials=frozenset(white),
        first_moves=None if cut is None else frozenset(index[c] for c in sorted(cut)),
        coordinates=coordinates_from_names(names),
    )


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bddl.pg.generate",
        description="Write a positional game (.pg): GTTT(p,q) with a polyomino, or k-in-a-row on a box.",
    )
    kinds = p.add_subparsers(dest="kind", required=True)
    g = kinds.add_parser("gttt", help="generalised tic-tac-toe with a polyomino shape on an n x n board")
    g.add_argument("--size", type=int, required=True, metavar="N")
    g.add_argument("--shape", required=True, help=f"{', '.join(SHAPES)}, or digit pairs (row, column) like 0010")
    g.add_argument("--torus", action="store_true", help="placements wrap around the edges")
    r = kinds.add_parser("row", help="k in a row (along any axis or diagonal) on a box")
    r.add_argument("--box", type=int, nargs="+", required=True, metavar="SIDE", help="the box's sides, e.g. 4 4 4")
    r.add_argument("--k", type=int, required=True)
    for sub in (g, r):
        sub.add_argument("--p", type=int, default=1, help="cells per turn (default 1)")
        sub.add_argument("--q", type=int, default=1, help="cells of the first turn (default 1)")
        sub.add_argument("--white-first", action="store_true", help="White makes the first turn")
        sub.add_argument("--no-symmetry-cut", action="store_true", help="let the first move claim any cell")
        sub.add_argument("--opening", nargs="*", default=(), metavar="CELL", help="cells claimed by the first turns")
        sub.add_argument("--depth", type=int, metavar="N", help="keep only the first N time points (default: until the board is full)")
        sub.add_argument("-o", "--output", required=True, metavar="FILE")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from .writer import save_pg

    args = _parser().parse_args(argv)
    common = dict(p=args.p, q=args.q, black_first=not args.white_first, symmetry_cut=not args.no_symmetry_cut, opening=args.opening)
    try:
        if args.kind == "gttt":
            game = gttt(args.size, args.shape, torus=args.torus, **common)
            what = f"size:{args.size}x{args.size} GTTT({args.p},{args.q}) torus:{str(args.torus).lower()} shape:{args.shape}"
        else:
            game = k_in_a_row(args.box, args.k, **common)
            what = f"box:{'x'.join(map(str, args.box))} {args.k} in a row GTTT({args.p},{args.q})"
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.depth is not None:
        game = game.with_depth(args.depth)
    first = "Black" if not args.white_first else "White"
    save_pg(game, args.output, comments=(f"{what}, {first} first", "generated by python -m bddl.pg.generate"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
