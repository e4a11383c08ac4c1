"""What the lifted (LA, LN) and stateless (SA, SN) encodings share: the
formula's frame (`encode_symbolic`), moves as cell numbers in binary, the
witness W^0..W^l of Black's cells, and the goal constraints on it (Shaik, Mayer-Eichberger, van de Pol and Saffidine,
"Implicit state and goals in QBF encodings for positional games", sections
3.2-4.4).

These encodings make Black claim an open cell at every ply (BR and the
transitions forbid a pass), where the game may already be over for want of
cells; a board with fewer cells than plies is therefore padded with cells on
no chain and in no set, which change no answer in a Maker-Breaker game (a
claim of one is a pass).  The largest boards, where size matters, never need
padding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bddl.pg.game import BLACK
from circuits import Circuit, equals, equals_const, less_than_const

from .maker_breaker import ImplicitEncoding, Reduced, bits_needed, constant


@dataclass(frozen=True)
class Moves:
    """The move numbers M^1..M^d, quantified in order (Black's existential,
    White's universal), over `cells` numbers (the open cells, then padding)."""

    cells: int
    width: int
    plies: tuple[tuple[str, tuple[int, ...]], ...]  # (mover, bits) per ply

    def black(self) -> list[tuple[int, ...]]:
        return [bits for side, bits in self.plies if side == BLACK]

    def first_black(self) -> tuple[int, ...] | None:
        return self.plies[0][1] if self.plies and self.plies[0][0] == BLACK else None


def quantify_moves(c: Circuit, reduced: Reduced) -> Moves:
    cells = max(reduced.size, len(reduced.turns))
    width = bits_needed(cells)
    plies = []
    for k, side in enumerate(reduced.turns, start=1):
        bits = tuple(c.var(f"M{k}[{j}]") for j in range(width))
        (c.exists if side == BLACK else c.forall)(bits)
        plies.append((side, bits))
    return Moves(cells, width, tuple(plies))


def quantify_witness(c: Circuit, reduced: Reduced, width: int) -> list[tuple[int, ...]]:
    """W^0..W^l: l+1 = Black's number of claims, the most a winning set can need."""
    witness = [tuple(c.var(f"W{i}[{j}]") for j in range(width)) for i in range(reduced.black_moves)]
    c.exists([bit for w in witness for bit in w])
    return witness


def encode_symbolic(name: str, reduced: Reduced, constraints: Callable[..., list[int]], goal) -> ImplicitEncoding:
    """The frame of LA, LN, SA and SN: a constant where the game is decided
    before any move; else the moves M^1..M^d and the witness W^0..W^l
    quantified (in that order), then `constraints(c, reduced, moves, witness,
    goal)` (which quantifies what else it needs), and the formula the
    conjunction of the constraints it lists."""
    if reduced.decided is not None:
        return constant(name, reduced)
    c = Circuit()
    moves = quantify_moves(c, reduced)
    witness = quantify_witness(c, reduced, moves.width)
    c.set_output(c.and_(constraints(c, reduced, moves, witness, goal)))
    return ImplicitEncoding(name, reduced, moves.first_black(), circuit=c)


def bound_restriction(c: Circuit, moves: Moves) -> int:
    """BR(M): Black's moves name cells (White's need no bound: a number
    naming no cell is a pass, which never helps White)."""
    return c.and_([less_than_const(c, bits, moves.cells) for bits in moves.black()])


def is_cell(c: Circuit, bits, v: int) -> int:
    """bin(X, v)."""
    return equals_const(c, list(bits), v)


def same(c: Circuit, xs, ys) -> int:
    """X = Y, bit by bit."""
    return equals(c, list(xs), list(ys))


def chain_edges(reduced: Reduced, cells: int) -> list[tuple[int, ...]]:
    """The neighbour relation the witness walks on: the graph's, with a loop
    on every end-border cell so that a chain shorter than l+1 cells can
    stutter at its end (the paper's stutter steps).  Padding cells have none."""
    graph = reduced.graph
    edges = [tuple(sorted(set(n) | ({v} if v in graph.end_border else set()))) for v, n in enumerate(graph.neighbours)]
    return edges + [()] * (cells - len(edges))


def source_and_target(c: Circuit, reduced: Reduced, witness) -> int:
    """SC and TG (Def. 9): the first witness cell on the start border, the last on the end border."""
    graph = reduced.graph
    source = c.or_([is_cell(c, witness[0], v) for v in sorted(graph.start_border)])
    target = c.or_([is_cell(c, witness[-1], v) for v in sorted(graph.end_border)])
    return c.and_([source, target])


def explicit_sets(c: Circuit, reduced: Reduced, witness) -> int:
    """G_win(W) (Def. 5): the witness lists the cells of some winning set
    (the witness cells beyond a set's size are free)."""
    return c.or_(
        [c.and_([is_cell(c, witness[i], v) for i, v in enumerate(sorted(cells))]) for cells in reduced.board.black_wins]
    )
