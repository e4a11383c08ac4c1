"""Harary's animal achievement games as positional games: each animal (a
polyomino of at most five cells) in every distinct orientation at every place
on an n x n board.

Harary's game is the *strong* one (Maker-Maker): both players mark cells and
the first to own a copy of the animal wins.  In the *weak* game
(Maker-Breaker) only the first player, Black, tries to make it; White only
blocks.  The published table (Harary, Gardner's column of April 1979, Winning
Ways vol. 2) gives each winner's board number b (the smallest square board on
which the first player can force the animal) and move number m (the fewest
moves of the first player it takes there); docs/results.md recomputes it.

The games come from `generate.gttt` (so the cell names, the turn order and
the first-move symmetry cut are the GTTT corpus's); only the animals' names
and the weak variant are new here.

    python -m bddl.pg.animals --animal N-pentomino --size 5 --weak --moves 6 -o n5.pg
    python -m bddl.pg.animals --animal N-pentomino --size 5 --weak --moves 6 --bddl -o n5.bddl

(`--bddl` writes the game as a BDDL problem for domains/positional.bddl, so
that the BDDL engines and encodings decide it too.)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Sequence

from .game import PositionalGame
from .generate import gttt, orientations, shape_cells

# (row, column) offsets, as digit pairs (`generate.shape_cells` reads them); the key is the
# name of the polyomino literature, the aliases Harary's own names where he gave one.
ANIMALS: dict[str, str] = {
    "domino": "0001",
    "I-tromino": "000102",
    "V-tromino": "000110",
    "I-tetromino": "00010203",
    "L-tetromino": "00102021",
    "T-tetromino": "00010211",
    "Z-tetromino": "00011112",
    "O-tetromino": "00011011",
    "F-pentomino": "0102101121",
    "I-pentomino": "0001020304",
    "L-pentomino": "0010203031",
    "N-pentomino": "0001111213",
    "P-pentomino": "0001101120",
    "T-pentomino": "0001021121",
    "U-pentomino": "0002101112",
    "V-pentomino": "0010202122",
    "W-pentomino": "0010112122",
    "X-pentomino": "0110111221",
    "Y-pentomino": "0001020311",
    "Z-pentomino": "0001112122",
}
ALIASES = {
    "Domino": "domino",
    "Tic": "I-tromino",
    "El": "V-tromino",
    "L-tromino": "V-tromino",
    "Skinny": "I-tetromino",
    "Elly": "L-tetromino",
    "Knobby": "T-tetromino",
    "Tippy": "Z-tetromino",
    "Fatty": "O-tetromino",
}

# The published table (b, m), None for a loser: Gardner, Scientific American 240:4 (April 1979);
# Berlekamp, Conway and Guy, Winning Ways vol. 2, pp. 684-685; as Wikipedia's
# "Harary's generalized tic-tac-toe" lists it.  m counts the first player's moves.
PUBLISHED: dict[str, tuple[int, int] | None] = {
    "domino": (2, 2),
    "I-tromino": (4, 3),
    "V-tromino": (3, 3),
    "I-tetromino": (7, 8),
    "L-tetromino": (4, 4),
    "T-tetromino": (5, 4),
    "Z-tetromino": (3, 5),
    "O-tetromino": None,
    "F-pentomino": None,
    "I-pentomino": None,
    "L-pentomino": (7, 10),
    "N-pentomino": (6, 6),
    "P-pentomino": None,
    "T-pentomino": None,
    "U-pentomino": None,
    "V-pentomino": None,
    "W-pentomino": None,
    "X-pentomino": None,
    "Y-pentomino": (7, 9),
    "Z-pentomino": None,
}


def animal_name(name: str) -> str:
    """The table's name for `name` (its own, or one of Harary's; case does not matter)."""
    folded = {key.lower(): key for key in ANIMALS} | {alias.lower(): key for alias, key in ALIASES.items()}
    try:
        return folded[name.lower()]
    except KeyError:
        raise ValueError(f"unknown animal {name!r}: one of {', '.join(ANIMALS)} (or Harary's {', '.join(ALIASES)})") from None


def animal_cells(name: str) -> tuple[tuple[int, int], ...]:
    return shape_cells(ANIMALS[animal_name(name)])


def placements(name: str, n: int) -> int:
    """How many winning sets the animal has on an n x n board: each distinct
    orientation with an h x w bounding box fits (n-h+1)(n-w+1) times."""
    count = 0
    for image in orientations(animal_cells(name)):
        h = max(r for r, _ in image) + 1
        w = max(c for _, c in image) + 1
        count += max(0, n - h + 1) * max(0, n - w + 1)
    return count


def animal_game(name: str, n: int, weak: bool = False, moves: int | None = None, symmetry_cut: bool = True) -> PositionalGame:
    """The achievement game of animal `name` on an n x n board, Black first.

    `weak`: only Black has winning sets (Maker-Breaker); otherwise both do (Harary's race).
    `moves`: Black's moves at most (the game is cut after Black's `moves`-th claim,
    2*moves - 1 time points); by default the game goes on until the board is full.
    The first move is cut to the upper-left triangle of the board (the corpus's cut):
    every winning-set family here is closed under the board's eight symmetries."""
    game = gttt(n, ANIMALS[animal_name(name)], symmetry_cut=symmetry_cut)
    if weak:
        game = replace(game, white_wins=())
    if moves is not None:
        if moves < 1:
            raise ValueError(f"moves must be at least 1, not {moves}")
        game = game.with_depth(min(2 * moves - 1, n * n))
    return game


def animal_bddl(name: str, n: int, weak: bool = False, moves: int | None = None) -> str:
    """The same game as a BDDL problem for domains/positional.bddl (each move claims an
    open cell): one goal per orientation, a pattern of relative atoms that BDDL places
    everywhere on the board.  Cell `b3` of the `.pg` game is x = 3, y = 2 here, as
    `bddlc export` reads it back; BDDL has no first-move cut, so every first move is tried."""
    depth = n * n if moves is None else min(2 * moves - 1, n * n)

    def goal(side: str, image: frozenset[tuple[int, int]]) -> str:
        atoms = [f"{side}(?x{_offset(c)},?y{_offset(r)})" for r, c in sorted(image)]
        return "(" + " ".join(atoms) + ")"

    images = orientations(animal_cells(name))
    lines = [f"% {description(name, n, weak, moves)}", "% generated by python -m bddl.pg.animals --bddl"]
    lines += ["#boardsize", f"{n} {n}", "#init", "()", "#depth", str(depth), "#blackgoals"]
    lines += [goal("black", image) for image in images]
    lines += ["#whitegoals"] + ([] if weak else [goal("white", image) for image in images])
    return "\n".join(lines) + "\n"


def _offset(k: int) -> str:
    return f"+{k}" if k else ""


def description(name: str, n: int, weak: bool, moves: int | None) -> str:
    kind = "weak (Maker-Breaker: only Black makes it)" if weak else "strong (both race to make it)"
    length = f"Black's first {moves} moves" if moves is not None else "until the board is full"
    return f"Harary's animal achievement game: {animal_name(name)} on {n}x{n}, {kind}, Black first, {length}"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bddl.pg.animals",
        description="Write Harary's achievement game of an animal on an n x n board (.pg).",
    )
    p.add_argument("--animal", required=True, help=f"{', '.join(ANIMALS)}, or Harary's {', '.join(ALIASES)}")
    p.add_argument("--size", type=int, required=True, metavar="N", help="the board is N x N")
    p.add_argument("--weak", action="store_true", help="only Black has winning sets (Maker-Breaker); default: both (Harary's race)")
    p.add_argument("--moves", type=int, metavar="M", help="Black's moves at most (2M-1 time points); default: until the board is full")
    p.add_argument("--no-symmetry-cut", action="store_true", help="let the first move claim any cell")
    p.add_argument("--bddl", action="store_true", help="write a BDDL problem for domains/positional.bddl instead (no first-move cut)")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from .writer import save_pg

    args = _parser().parse_args(argv)
    try:
        if args.size < 1:
            raise ValueError(f"the board size must be at least 1, not {args.size}")
        game = animal_game(args.animal, args.size, args.weak, args.moves, not args.no_symmetry_cut)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.bddl:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(animal_bddl(args.animal, args.size, args.weak, args.moves))
        return 0
    comments = (description(args.animal, args.size, args.weak, args.moves), "generated by python -m bddl.pg.animals")
    save_pg(game, args.output, comments=comments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
