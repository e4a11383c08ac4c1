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

Why a module of its own: the rewrites are the paper's definitions, and COR
and COR+ must be compared on the same game.  It imports only `bddl.pg`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.pg.game import BLACK, WHITE, PositionalGame


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
