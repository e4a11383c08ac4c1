"""The explicit-board encodings EA, EN and ET of Shaik, Mayer-Eichberger, van
de Pol and Saffidine, "Implicit state and goals in QBF encodings for
positional games" (sections 3.1, 4.2 and 4.5), as clauses (QDIMACS).

The board is stored only after Black's plies: b_v^t (Black owns v) and
w_v^t (White owns v), and every move is a cell number in binary, Black's
existential, White's universal.  A move naming no open cell is a pass, which
never helps the mover in a Maker-Breaker game, so neither side needs a
legality check.  Black's goal is read on the final board:

* EA: one of the explicit minimal winning sets is all Black;
* EN: a witness chain p_v^i of at most l+1 Black cells from the start
  border to the end border (the neighbour relation, no sets);
* ET: the transversal goal: the cells reachable r_v from White's start
  border through cells Black does not own miss White's end border.

The clauses are written as they are, variables numbered in prefix order
(no circuit in between: the 19x19 board at depth 361 has 785k clauses).
"""

from __future__ import annotations

from bddl.pg.game import WHITE
from circuits.clauses import ClauseBuilder

from .maker_breaker import (
    ImplicitEncoding,
    Reduced,
    binary,
    bits_needed,
    constant,
    reduce_for_chains,
    reduce_for_sets,
    reduce_for_transversal,
)

FALSE = 0  # a literal the clause builder leaves out (nothing is Black before the first ply)


def _board(c: ClauseBuilder, clauses: ClauseBuilder, reduced: Reduced) -> tuple[list[int], tuple[int, ...] | None]:
    """The moves and the board after each of Black's plies, (1)-(6); returns
    Black's final cells b_v^d and the bits of Black's first move."""
    names = reduced.board.cells
    n, width = reduced.size, bits_needed(reduced.size)
    black = [FALSE] * n  # b_v^{t-2}; nothing is Black before the first ply
    white: list[int] | None = None  # w_v^{t-2}; None while White has not moved
    pending: list[list[int]] = []  # White's moves since Black's last ply
    first: tuple[int, ...] | None = None
    for k, side in enumerate(reduced.turns, start=1):
        move = [c.var(f"m{k}[{j}]") for j in range(width)]  # (1) M^t
        if side == WHITE:
            c.forall(move)
            pending.append(move)
            continue
        c.exists(move)
        if k == 1:
            first = tuple(move)
        now_black = [c.var(f"b{k}({names[v]})") for v in range(n)]  # (1) P^t
        now_white = [c.var(f"w{k}({names[v]})") for v in range(n)] if white is not None or pending else None
        c.exists(now_black + (now_white or []))
        for v in range(n):
            if now_white is not None:
                if white is not None:
                    clauses.add(-white[v], now_white[v])  # (2) White's cells stay White's
                for reply in pending:  # (3) White's move claims v unless v is Black
                    clauses.add(*(-lit for lit in binary(reply, v)), black[v], now_white[v])
                clauses.add(-now_white[v], -now_black[v])  # (4) one owner
            for j, bit in enumerate(move):
                # (5) and (6): a bit of Black's move that differs from v leaves a non-Black v non-Black
                clauses.add(-bit if v >> j & 1 == 0 else bit, black[v], -now_black[v])
        black, white, pending = now_black, now_white, []
    return black, first


def _encode(name: str, reduced: Reduced, goal) -> ImplicitEncoding:
    if reduced.decided is not None:
        return constant(name, reduced)
    c = ClauseBuilder()
    black, first = _board(c, c, reduced)
    goal(c, c, reduced, black)
    return ImplicitEncoding(name, reduced, first, formula=c.formula())


def _all_paths_goal(c: ClauseBuilder, clauses: ClauseBuilder, reduced: Reduced, black: list[int]) -> None:
    """EA: some winning set is all Black."""
    chosen = [c.var(f"h{i}") for i in range(len(reduced.board.black_wins))]  # (7)
    c.exists(chosen)
    clauses.add(*chosen)  # (8)
    for h, cells in zip(chosen, reduced.board.black_wins):
        for v in sorted(cells):
            clauses.add(-h, black[v])  # (9)


def _neighbour_goal(c: ClauseBuilder, clauses: ClauseBuilder, reduced: Reduced, black: list[int]) -> None:
    """EN: a chain of Black cells p^0 .. p^l joins the borders."""
    graph, names = reduced.graph, reduced.board.cells
    n, last = reduced.size, reduced.black_moves - 1
    path = [[c.var(f"p{i}({names[v]})") for v in range(n)] for i in range(last + 1)]  # (10)
    c.exists([p for step in path for p in step])
    for step in path:
        for v in range(n):
            clauses.add(-step[v], black[v])  # (11)
    clauses.add(*(path[0][v] for v in sorted(graph.start_border)))  # (12)
    for v in range(n):
        if v in graph.end_border:
            continue
        for i in range(last):
            clauses.add(-path[i][v], *(path[i + 1][w] for w in graph.neighbours[v]))  # (13)
        clauses.add(-path[last][v])  # (14)


def _transversal_goal(c: ClauseBuilder, clauses: ClauseBuilder, reduced: Reduced, black: list[int]) -> None:
    """ET: White's start border does not reach White's end border through cells Black does not own."""
    graph, names = reduced.graph, reduced.board.cells
    n = reduced.size
    reach = [c.var(f"r({names[v]})") for v in range(n)]  # (15)
    c.exists(reach)
    for v in sorted(graph.start_border):
        clauses.add(black[v], reach[v])  # (16)
    for v in range(n):
        for w in graph.neighbours[v]:
            clauses.add(-reach[v], black[w], reach[w])  # (17), lost in the paper's text: r_v, (v,w) and w not Black give r_w
    for v in sorted(graph.end_border):
        clauses.add(-reach[v])  # (18)


def encode_ea(game, depth: int | None = None) -> ImplicitEncoding:
    return _encode("EA", reduce_for_sets(game, depth), _all_paths_goal)


def encode_en(game, depth: int | None = None) -> ImplicitEncoding:
    return _encode("EN", reduce_for_chains(game, depth), _neighbour_goal)


def encode_et(game, depth: int | None = None) -> ImplicitEncoding:
    return _encode("ET", reduce_for_transversal(game, depth), _transversal_goal)
