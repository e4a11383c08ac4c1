"""Generate the Hex puzzles of the game suite (problems/hex/*.bddl).

Hex is played on an n x n rhombus.  We map it to the BDDL grid with the
neighbours of (x, y) being (x-1, y), (x+1, y), (x, y-1), (x, y+1),
(x+1, y-1) and (x-1, y+1): drawn with every row shifted half a cell to the
right of the row above it, cell (x, y) touches (x, y-1) and (x+1, y-1) above
and (x-1, y+1) and (x, y+1) below.  Black connects the top row (y = 1) to the
bottom row (y = n); White connects the left column (x = 1) to the right
column (x = n).  The moves are those of domains/positional.bddl (claim an
open cell).

BDDL goals are conjunctions, so each side's goal is the list of its winning
sets written out explicitly with absolute coordinates, one goal line per set.
A winning set is an inclusion-minimal set of cells that contains a chain of
neighbours from one of the side's edges to the other; these are exactly the
induced (chordless) paths from an edge cell to an opposite-edge cell whose
inner cells lie on neither edge.  A set that contains a cell the opponent
already holds in `#init` can never be completed, and is left out.

The generator is deterministic: the puzzles are listed in PUZZLES below, the
sets are enumerated by a depth-first search in a fixed order and sorted.
Expected answers are in problems/expected.toml (they come from
`bddlc search`, not from this script).  Run from anywhere:

    python problems/hex/generate.py          # rewrites problems/hex/*.bddl
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (n, black cells, white cells, depth, blackturn second?, description)
PUZZLES = {
    "hex2_d3": (2, [], [], 3, False,
                "empty 2x2 board, Black to move: Black takes (2,1), which touches both bottom cells"),
    "hex3_d3": (3, [], [], 3, False,
                "empty 3x3 board, Black to move: two black stones cannot connect, so Black does not win"),
    "hex3_d5": (3, [], [], 5, False,
                "empty 3x3 board, Black to move: Black takes the centre and wins with its third stone"),
    "hex3_second_d8": (3, [], [], 8, True,
                       "empty 3x3 board, White moves first and takes the centre: Black, the second player, "
                       "does not win (depth 8 is the whole game: the ninth cell would be White's)"),
    "hex4_d7": (4, [], [], 7, False,
                "empty 4x4 board, Black to move: four black stones are not enough against best defence"),
    "hex4_d9": (4, [], [], 9, False,
                "empty 4x4 board, Black to move: Black wins with its fifth stone"),
    "hex4_a_d5": (4, [(2, 2), (4, 3)], [(4, 1), (1, 4)], 5, False,
                  "puzzle, Black to move: three more black stones do not suffice"),
    "hex4_a_d7": (4, [(2, 2), (4, 3)], [(4, 1), (1, 4)], 7, False,
                  "puzzle, Black to move: Black wins with its fourth stone"),
    "hex4_b_d7": (4, [(3, 1), (3, 3)], [(3, 2), (4, 4)], 7, False,
                  "puzzle, Black to move: four more black stones do not suffice"),
    "hex4_b_d9": (4, [(3, 1), (3, 3)], [(3, 2), (4, 4)], 9, False,
                  "puzzle, Black to move: Black wins with its fifth stone"),
    "hex4_c_d3": (4, [(2, 1), (3, 2), (4, 4)], [(4, 1), (2, 4), (3, 4)], 3, False,
                  "puzzle, Black to move: two more black stones do not suffice"),
    "hex4_c_d5": (4, [(2, 1), (3, 2), (4, 4)], [(4, 1), (2, 4), (3, 4)], 5, False,
                  "puzzle, Black to move: Black wins with its third stone"),
    "hex4_lost_d11": (4, [(1, 3), (2, 3), (2, 4)], [(2, 1), (3, 1), (3, 3)], 11, False,
                      "lost puzzle, Black to move: White's stones on the top rows hold, whatever Black does "
                      "(depth 11 is the whole game)"),
    "hex5_d3": (5, [(4, 1), (2, 2), (4, 4), (1, 5), (4, 5)], [(2, 1), (3, 1), (2, 3), (3, 4), (5, 5)], 3, False,
                "puzzle, Black to move: two more black stones do not suffice"),
    "hex5_d5": (5, [(4, 1), (2, 2), (4, 4), (1, 5), (4, 5)], [(2, 1), (3, 1), (2, 3), (3, 4), (5, 5)], 5, False,
                "puzzle, Black to move: Black wins with its third stone"),
}

def neighbours(n: int, x: int, y: int) -> list[tuple[int, int]]:
    cand = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1), (x + 1, y - 1), (x - 1, y + 1)]
    return [(a, b) for a, b in cand if 1 <= a <= n and 1 <= b <= n]


def winning_sets(n: int, side: str) -> list[tuple[tuple[int, int], ...]]:
    """All minimal winning sets of `side` ('black': top-bottom, 'white': left-right)."""
    axis = 1 if side == "black" else 0  # Black joins top and bottom, White left and right

    def start(c):
        return c[axis] == 1

    def goal(c):
        return c[axis] == n

    cells = [(x, y) for y in range(1, n + 1) for x in range(1, n + 1)]
    found: set[frozenset] = set()

    def extend(path: list[tuple[int, int]]) -> None:
        last = path[-1]
        if goal(last):
            found.add(frozenset(path))
            return
        if len(path) > 1 and start(last):
            return
        for nb in neighbours(n, *last):
            if nb in path:
                continue
            # chordless: the new cell may touch only the last cell of the path
            if any(nb in neighbours(n, *c) for c in path[:-1]):
                continue
            path.append(nb)
            extend(path)
            path.pop()

    for c in cells:
        if start(c):
            extend([c])
    return sorted((tuple(sorted(s, key=lambda c: (c[1], c[0]))) for s in found),
                  key=lambda s: (len(s), s))


def picture(n: int, black: list, white: list) -> list[str]:
    rows = []
    for y in range(1, n + 1):
        row = []
        for x in range(1, n + 1):
            row.append("B" if (x, y) in black else "W" if (x, y) in white else ".")
        rows.append(" " * (y - 1) + " ".join(row))
    return rows


def problem(name: str) -> str:
    n, black, white, depth, second, description = PUZZLES[name]
    bsets = [s for s in winning_sets(n, "black") if not set(s) & set(white)]
    wsets = [s for s in winning_sets(n, "white") if not set(s) & set(black)]
    out = [
        f"% Hex on a {n}x{n} rhombus: {description}.",
        "% Black joins the top row to the bottom row, White the left column to the",
        "% right column; the goals are the explicit minimal winning sets (generated by",
        "% problems/hex/generate.py; sets through the opponent's initial stones are",
        f"% left out: {len(bsets)} for Black, {len(wsets)} for White).  Use with domains/positional.bddl.",
        "% The answer stated above was found by bddlc search (see problems/expected.toml).",
        "% The position, with the rows shifted as on a Hex board:",
    ]
    out += ["%   " + r for r in picture(n, black, white)]
    out += ["#boardsize", f"{n} {n}", "#init"]
    atoms = [f"black({x},{y})" for x, y in black] + [f"white({x},{y})" for x, y in white]
    out.append("(" + " ".join(atoms) + ")")
    out += ["#depth", str(depth)]
    if second:
        out += ["#blackturn", "second"]
    out.append("#blackgoals")
    out += ["(" + " ".join(f"black({x},{y})" for x, y in s) + ")" for s in bsets]
    out.append("#whitegoals")
    out += ["(" + " ".join(f"white({x},{y})" for x, y in s) + ")" for s in wsets]
    return "\n".join(out) + "\n"


def main() -> None:
    for name in PUZZLES:
        (HERE / f"{name}.bddl").write_text(problem(name), encoding="utf-8")


if __name__ == "__main__":
    main()
