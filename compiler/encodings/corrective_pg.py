"""COR, the corrective encoding (Mayer-Eichberger and Saffidine, SAT 2020), on
a `.pg` positional game: the encoding core of `corrective` (the one BDDL's
claiming games use) given the game as the polished-encoding paper's §3.3
rewrites it (`positional.open_game`), so that COR and COR+ are compared on
the same game.

A positional game is the claiming game whose claims require nothing: every
open cell can be claimed by either side at any time, and each cell is a
lane of its own (White's number names a cell).  Two things come from the
`.pg` semantics rather than BDDL's: a full board ends the game with Black
not having won (BDDL: White stuck is a Black win), and the first ply's mover
may claim only the `#firstmoves` cells.  Each time point is a ply of its
own, also inside a (p,q) turn: the ladder keeps each ply to one stone (the
paper's implementation merges a turn with a cardinality constraint instead).
The core's symmetry cuts get the board symmetries that fix the initial
stones (`positional.position_symmetries`): one first claim per orbit when the
file has no `#firstmoves`, and at the second ply one claim per orbit of the
first claim's stabiliser, as COR+ does (`positional.second_point_cuts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.pg.game import PositionalGame
from circuits import Circuit, Qdimacs, numbering, to_qdimacs

from .corrective import Claim, ClaimingGame, CorrectiveCore, CorrectiveStep
from .grounding import Cell
from .positional import OpenGame, open_game, position_symmetries

NAME = "corrective"


def _cell(v: int) -> Cell:
    """Cell v as the core's cells are written (BDDL's are (x, y))."""
    return (v, 0)


class _PositionalCorrective(CorrectiveCore):
    def __init__(self, game: OpenGame):
        cells = tuple(_cell(v) for v in range(game.size))
        claims = {side: {cell: (Claim(0, cell[0], 0, ()),) for cell in cells} for side in ("black", "white")}
        claiming = ClaimingGame(
            open_cells=cells,
            black_stones=frozenset(),
            white_stones=frozenset(),
            black_sets=tuple(frozenset(map(_cell, e)) for e in game.black_sets),
            white_sets=tuple(frozenset(map(_cell, e)) for e in game.white_sets),
            claims=claims,
            lanes=tuple((cell,) for cell in cells),
        )
        # the board symmetries that fix the initial stones, for the core's cuts in the first two plies
        symmetries = [lambda cell, f=f: _cell(f[cell[0]]) for f in position_symmetries(game)]
        first = None if game.first_moves is None else frozenset(map(_cell, game.first_moves))
        super().__init__(claiming, game.depth, symmetries=symmetries, stuck_white_loses=False, first_moves=first)
        self.open = game

    def side_of(self, i: int) -> str:
        return self.open.sides[i - 1]

    def label(self, v) -> str:
        return f"({self.open.name(v[0])})"

    def result(self, steps: list[CorrectiveStep]) -> "CorrectiveFormula":
        return CorrectiveFormula(self.c, self.open, tuple(steps))


@dataclass(frozen=True)
class CorrectiveFormula:
    """COR's circuit (clauses over quantified variables) for a positional game."""

    name = NAME
    circuit: Circuit
    game: OpenGame
    steps: tuple[CorrectiveStep, ...]

    def qdimacs(self, **tseitin) -> Qdimacs:
        return to_qdimacs(self.circuit, **tseitin)

    @property
    def first_side(self) -> str | None:
        return self.steps[0].side if self.steps else None

    def first_move(self, value) -> int | None:
        """The cell (0..N-1) the first ply's mover claims, for `value(file id) -> bool`
        over the QDIMACS/QCIR numbering (the ladder makes it exactly one)."""
        if not self.steps:
            return None
        number = numbering(self.circuit)
        moves = self.steps[0].moves
        claimed = [cell[0] for cell, var in sorted(moves.items()) if value(number.lit(var))]
        if len(claimed) == 1:
            return claimed[0]
        return min(moves)[0] if moves else None


def encode(game: PositionalGame) -> CorrectiveFormula:
    """COR: true iff Black wins the game (within its time points)."""
    from .cor_plus import NotExplicit

    if game.graph is not None and not game.black_wins:
        raise NotExplicit("COR needs Black's winning sets; this game's goal is a border-to-border chain (Hex)")
    return _PositionalCorrective(open_game(game)).encode()
