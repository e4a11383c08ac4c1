"""The positional game the QBF encodings of Mayer-Eichberger and Saffidine
compile: the `.pg` game after the rewrites of the polished-encoding paper's
§3.3, shared by COR (`corrective`) and COR+ (`cor_plus`) so that both see the
same game.

* Initial stones are eliminated (§3.3, "Initial positions"): a cell owned
  before play leaves the board; it leaves its owner's winning sets (already
  held) and the opponent's sets that contain it are dropped (never
  completed).  The cells left are renumbered 0..N-1 in the file's order.
* The turn sequence loses the White time points after Black's last one:
  White stones placed after Black's last move cannot make Black win, and
  Black, once it has won, stops the clock before them.  (Table 3's counts
  imply this: Qubic's 64 time points give 63 quantifier blocks.)
* Consecutive time points of one side form one turn (a (p,q) game), which
  the encodings quantify as one block.
* Symmetry cut at the second time point (ours, beside §3.3's first-move
  restriction): `second_point_cuts`.

Why a module of its own: the rewrites are the paper's definitions, and COR
and COR+ must be compared on the same game.  It imports only `bddl.pg`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.pg.geometry import symmetries


@dataclass(frozen=True)
class OpenGame:
    """A positional game with no stones on the board: what the encodings see."""

    source: PositionalGame
    cells: tuple[int, ...]  # cells[v]: the source cell that cell v (0..N-1) is
    sides: tuple[str, ...]  # the mover at each kept time point (trailing White points dropped)
    black_sets: tuple[tuple[int, ...], ...]  # Black's sets still winnable, as cells 0..N-1
    white_sets: tuple[tuple[int, ...], ...]
    first_moves: frozenset[int] | None  # cells the first time point's mover may claim (None: any)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def depth(self) -> int:
        return len(self.sides)

    def turns(self) -> list[tuple[str, range]]:
        """Runs of consecutive time points of one side: (side, time-point indices)."""
        runs: list[tuple[str, range]] = []
        start = 0
        for index in range(1, len(self.sides) + 1):
            if index == len(self.sides) or self.sides[index] != self.sides[start]:
                runs.append((self.sides[start], range(start, index)))
                start = index
        return runs

    def name(self, v: int) -> str:
        return self.source.cells[self.cells[v]]

    def first_cells(self) -> list[int]:
        return list(range(self.size)) if self.first_moves is None else sorted(self.first_moves)


def position_symmetries(game: OpenGame) -> list[tuple[int, ...]]:
    """The board symmetries of the source game (`bddl.pg.geometry`, checked
    against both sides' winning sets) that also fix its initial stones, as
    permutations of the open cells 0..N-1; the identity left out."""
    source = game.source
    number = {c: v for v, c in enumerate(game.cells)}
    found = []
    for perm in symmetries(source)[1:]:
        if {perm[c] for c in source.black_initials} != source.black_initials:
            continue
        if {perm[c] for c in source.white_initials} != source.white_initials:
            continue
        found.append(tuple(number[perm[c]] for c in game.cells))
    return found


def second_point_cuts(game: OpenGame) -> dict[int, tuple[int, ...]]:
    """v -> the first claims r after which a claim of v at the second time
    point is redundant.

    After the first claim r, the position is the initial one plus r, which
    every symmetry f that fixes the initial stones and r leaves unchanged; v
    and f(v) then lead to mirror-image positions of equal value, so the
    mover at the second time point needs one cell per orbit: v is cut when
    some such f maps it to a smaller cell.  For Black the cut forbids v; for
    White its number naming v forces nothing (a pass, which is never better
    for White than the orbit's representative, so the value is unchanged).
    The first claim itself is not cut here: `#firstmoves` is the file's cut
    there, and a second cut on top of it could drop a whole orbit."""
    if game.depth < 2:
        return {}
    perms = position_symmetries(game)
    cuts: dict[int, list[int]] = {}
    for r in game.first_cells():
        fixing = [f for f in perms if f[r] == r]
        if not fixing:
            continue
        for v in range(game.size):
            if v != r and any(f[v] < v for f in fixing):
                cuts.setdefault(v, []).append(r)
    return {v: tuple(rs) for v, rs in sorted(cuts.items())}


def open_game(game: PositionalGame) -> OpenGame:
    """The game with its initial stones eliminated and its useless last White points dropped."""
    stones = game.black_initials | game.white_initials
    cells = tuple(c for c in range(len(game.cells)) if c not in stones)
    number = {c: v for v, c in enumerate(cells)}

    def still_winnable(sets, own, other):
        kept = []
        for winning in sets:
            if winning & other:
                continue  # the opponent holds a cell of it: never completed
            kept.append(tuple(sorted(number[c] for c in winning - own)))
        return tuple(kept)

    sides = list(game.turns)
    while sides and sides[-1] == WHITE:
        sides.pop()
    first = None
    if game.first_moves is not None:
        first = frozenset(number[c] for c in game.first_moves if c in number)
    return OpenGame(
        source=game,
        cells=cells,
        sides=tuple(sides),
        black_sets=still_winnable(game.black_wins, game.black_initials, game.white_initials),
        white_sets=still_winnable(game.white_wins, game.white_initials, game.black_initials),
        first_moves=first,
    )


__all__ = ["BLACK", "WHITE", "OpenGame", "open_game"]
