"""The lifted-board encodings LA and LN of Shaik, Mayer-Eichberger, van de
Pol and Saffidine, "Implicit state and goals in QBF encodings for positional
games" (sections 3.2 and 4.3), as circuits (QCIR).

No board variables: one universal symbolic position P stands for every cell,
and S^t = (o^t, w^t) says whether P is occupied, and White's, before ply t.
The prefix is

    exists M^1 forall M^2 ... exists M^d  exists W^0..W^l  forall P  exists N  exists S^1..S^(d+1)

one alternation more than the explicit board, for a formula whose size grows
with d lg(eta) instead of d eta.  LA's goal lists the winning sets (G_win);
LN's walks the witness along the neighbour relation with the help of N, a
neighbour of P.
"""

from __future__ import annotations

from bddl.pg.game import BLACK
from circuits import Circuit

from .maker_breaker import ImplicitEncoding, Reduced, reduce_for_chains, reduce_for_sets
from .symbolic import Moves, bound_restriction, chain_edges, encode_symbolic, explicit_sets, is_cell, same, source_and_target


def _constraints(c: Circuit, reduced: Reduced, moves: Moves, witness, goal) -> list[int]:
    position = tuple(c.var(f"P[{j}]") for j in range(moves.width))
    c.forall(position)
    neighbour = tuple(c.var(f"N[{j}]") for j in range(moves.width)) if goal is _neighbour_goal else ()
    c.exists(neighbour)
    occupied = [c.var(f"o{k}") for k in range(1, len(moves.plies) + 2)]
    white = [c.var(f"w{k}") for k in range(1, len(moves.plies) + 2)]
    c.exists([lit for pair in zip(occupied, white) for lit in pair])

    parts = [-occupied[0], bound_restriction(c, moves)]  # the board starts empty: not o^1
    for k, (side, bits) in enumerate(moves.plies):
        here = same(c, position, bits)  # P = M^t
        o, w, o_next, w_next = occupied[k], white[k], occupied[k + 1], white[k + 1]
        copy = c.and_([c.iff(o, o_next), c.iff(w, w_next)])
        if side == BLACK:  # T_b (Def. 6): Black claims an open cell
            parts.append(c.implies(here, c.and_([-o, -w_next, o_next])))
            parts.append(c.implies(-here, copy))
        else:  # T_w (Def. 7): White's claim of an occupied cell is a pass
            claims = c.and_([here, -o])
            parts.append(c.implies(claims, c.and_([w_next, o_next])))
            parts.append(c.implies(-claims, copy))
    # G_sb: every witness cell is Black at the end
    on_witness = c.or_([same(c, position, cell) for cell in witness])
    parts.append(c.implies(on_witness, c.and_([occupied[-1], -white[-1]])))
    parts.append(goal(c, reduced, witness, position, neighbour, moves.cells))
    return parts


def _sets_goal(c: Circuit, reduced: Reduced, witness, position, neighbour, cells: int) -> int:
    return explicit_sets(c, reduced, witness)  # LA: G_win


def _neighbour_goal(c: Circuit, reduced: Reduced, witness, position, neighbour, cells: int) -> int:
    """LN: SC and TG; N is a neighbour of P; the witness cell after P is N."""
    parts = [source_and_target(c, reduced, witness)]
    walks_on = c.or_([same(c, position, cell) for cell in witness[:-1]])
    for v, around in enumerate(chain_edges(reduced, cells)):
        at_v = is_cell(c, position, v)
        if around:
            parts.append(c.implies(at_v, c.or_([is_cell(c, neighbour, w) for w in around])))
        else:  # a cell with no neighbour (the paper's graphs have none): the walk cannot pass it
            parts.append(c.implies(at_v, -walks_on))
    for i in range(len(witness) - 1):
        parts.append(c.implies(same(c, witness[i], position), same(c, witness[i + 1], neighbour)))
    return c.and_(parts)


def encode_la(game, depth: int | None = None) -> ImplicitEncoding:
    return encode_symbolic("LA", reduce_for_sets(game, depth), _constraints, _sets_goal)


def encode_ln(game, depth: int | None = None) -> ImplicitEncoding:
    return encode_symbolic("LN", reduce_for_chains(game, depth), _constraints, _neighbour_goal)
