"""The stateless encodings SA and SN of Shaik, Mayer-Eichberger, van de Pol
and Saffidine, "Implicit state and goals in QBF encodings for positional
games" (sections 3.3 and 4.4), as circuits (QCIR).

No state at all, as in causal planning: Black's claims are valid when they
differ from every earlier move, White's are never checked (a claim of an
occupied cell is ignored), and the witness W^0..W^l must be among Black's
moves (G_wb).  Prefix: exists M^1 forall M^2 ... exists M^d exists W^0..W^l;
the size grows with d^2 lg(eta).
"""

from __future__ import annotations

from bddl.pg.game import BLACK
from circuits import Circuit

from .maker_breaker import ImplicitEncoding, Reduced, reduce_for_chains, reduce_for_sets
from .symbolic import Moves, bound_restriction, chain_edges, encode_symbolic, explicit_sets, is_cell, same, source_and_target


def _constraints(c: Circuit, reduced: Reduced, moves: Moves, witness, goal) -> list[int]:
    parts = [goal(c, reduced, witness, moves.cells), bound_restriction(c, moves)]
    black = moves.black()
    # G_wb (Def. 8): every witness cell is one of Black's moves
    parts.extend(c.or_([same(c, cell, move) for move in black]) for cell in witness)
    # Black never claims a cell claimed before
    for k, (side, bits) in enumerate(moves.plies):
        if side == BLACK:
            parts.extend(-same(c, bits, earlier) for _, earlier in moves.plies[:k])
    return parts


def _sets_goal(c: Circuit, reduced: Reduced, witness, cells: int) -> int:
    return explicit_sets(c, reduced, witness)  # SA: G_win


def _neighbour_goal(c: Circuit, reduced: Reduced, witness, cells: int) -> int:
    """SN: SC and TG, and each witness cell a neighbour of the one before (or the same end-border cell)."""
    parts = [source_and_target(c, reduced, witness)]
    edges = chain_edges(reduced, cells)
    for i in range(len(witness) - 1):
        for v, around in enumerate(edges):
            parts.append(c.implies(is_cell(c, witness[i], v), c.or_([is_cell(c, witness[i + 1], w) for w in around])))
    return c.and_(parts)


def encode_sa(game, depth: int | None = None) -> ImplicitEncoding:
    return encode_symbolic("SA", reduce_for_sets(game, depth), _constraints, _sets_goal)


def encode_sn(game, depth: int | None = None) -> ImplicitEncoding:
    return encode_symbolic("SN", reduce_for_chains(game, depth), _constraints, _neighbour_goal)
