"""White's pairing strategies: the oldest argument that Black cannot win a positional game.

A *pairing* is a set of disjoint pairs of open cells such that every Black
winning set that White has not yet blocked holds both cells of some pair.
White then answers each Black claim of a paired cell with its partner (and
plays anywhere otherwise), so Black never owns both cells of a pair, hence
never a whole winning set: Black cannot win, whatever the depth.  This is
the Hales-Jewett pairing strategy (Berlekamp, Conway and Guy, *Winning
Ways*, vol. 3, "Harary's generalized tic-tac-toe"; Beck, *Combinatorial
Games: Tic-Tac-Toe Theory*, §4), with which Harary's losing animals (the
O-tetromino and most pentominoes) are proved losers on every board.

The argument needs White to move after each Black move, before Black's next
one (`pairing_applies`): in a (2,1) game Black claims both cells of a pair
in one turn.  It says nothing about a Hex goal (a chain, not listed sets).

Finding a pairing is a small SAT problem (python-sat): a variable per pair
of open cells that share a live winning set, at most one chosen pair per
cell, and at least one chosen pair inside each live set.  Checking one is
simple counting, which the independent certificate checker does on its own
(`compiler.certificates.check`); this module only finds them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .game import BLACK, PositionalGame

Pairing = tuple[tuple[int, int], ...]


def pairing_applies(turns: Sequence[str], ply: int) -> bool:
    """White moves between any two Black moves from `ply` on (no Black turn follows a Black turn)."""
    return not any(a == BLACK and b == BLACK for a, b in zip(turns[ply:], turns[ply + 1:]))


class PairingFinder:
    """Finds pairings in positions of one game (its live winning sets read as bitmasks)."""

    def __init__(self, game: PositionalGame):
        self.game = game
        self.usable = bool(game.black_wins) and game.graph is None
        self.sets = tuple(sorted({game.mask(s) for s in game.black_wins}))

    def find(self, black: int, white: int, ply: int | None = None) -> Pairing | None:
        """A pairing of the open cells that blocks every live Black winning set, pairs
        ascending (the same position gives the same pairing), or None when there is none
        or the argument does not apply (`ply`: the time point to move, when known)."""
        if not self.usable or (ply is not None and not pairing_applies(self.game.turns, ply)):
            return None
        occupied = black | white
        live = []
        for s in self.sets:
            if s & white:
                continue
            open_cells = s & ~occupied
            if open_cells & (open_cells - 1) == 0:  # fewer than two open cells: no pair fits in it
                return None
            live.append(open_cells)
        if not live:
            return ()
        from pysat.card import CardEnc, EncType  # loaded only where a pairing may exist
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        pool = IDPool()
        by_cell: dict[int, list[int]] = {}
        clauses: list[list[int]] = []
        for open_cells in live:
            cells = [i for i in range(open_cells.bit_length()) if open_cells >> i & 1]
            clause = []
            for a, b in combinations(cells, 2):
                known = pool.obj2id.get((a, b))
                var = pool.id((a, b))
                if known is None:
                    by_cell.setdefault(a, []).append(var)
                    by_cell.setdefault(b, []).append(var)
                clause.append(var)
            clauses.append(clause)
        for cell in sorted(by_cell):
            if len(by_cell[cell]) > 1:
                clauses.extend(CardEnc.atmost(by_cell[cell], 1, vpool=pool, encoding=EncType.seqcounter).clauses)
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            if not solver.solve():
                return None
            model = solver.get_model()
        chosen = {v for v in model if v > 0}
        return tuple(sorted(pair for pair, var in pool.obj2id.items() if isinstance(pair, tuple) and var in chosen))
