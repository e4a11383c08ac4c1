"""Which cells make a win: the goal a finished line of play reached, to show it.

A `.pg` game's first winning set the side owns; on Hex, a shortest chain of
Black cells from the start border to the end border; in a BDDL model, the
cells the first goal that holds names at the first place it holds.  Only for
drawing: whether a side has won is the rules' to say (`GameRules.won`), and
the tests check each set found here against them.
"""

from __future__ import annotations

from collections import deque

from bddl.rules import BLACK, GameRules, Position


def winning_cells(rules: GameRules, position: Position, side: str) -> frozenset[int]:
    """The cells of one goal of `side` that holds in `position` (empty when none holds)."""
    from bddl.game import Game
    from bddl.pg.game import PositionalGame

    game = getattr(rules, "game", None)
    if isinstance(game, PositionalGame):
        return _pg_cells(game, position, side)
    if isinstance(game, Game):
        return _bddl_cells(rules, game, position, side)
    return frozenset()


def _pg_cells(game, position: Position, side: str) -> frozenset[int]:
    mine = position.black if side == BLACK else position.white
    sets = game.black_wins if side == BLACK else game.white_wins
    for cells in sets:
        if all(mine >> c & 1 for c in cells):
            return frozenset(cells)
    if side == BLACK and game.graph is not None and not game.black_wins:
        return _chain(game.graph, mine)
    return frozenset()


def _chain(graph, mine: int) -> frozenset[int]:
    """A shortest chain of `mine` cells joining the start border to the end border (breadth first)."""
    before: dict[int, int | None] = {c: None for c in sorted(graph.start_border) if mine >> c & 1}
    todo = deque(before)
    while todo:
        cell = todo.popleft()
        if cell in graph.end_border:
            chain = []
            at: int | None = cell
            while at is not None:
                chain.append(at)
                at = before[at]
            return frozenset(chain)
        for other in graph.neighbours[cell]:
            if mine >> other & 1 and other not in before:
                before[other] = cell
                todo.append(other)
    return frozenset()


def _bddl_cells(rules: GameRules, game, position: Position, side: str) -> frozenset[int]:
    from bddl.bounds import condition_bounds
    from bddl.game import State, condition_holds_at

    g = game.geometry
    state = State(position.black, position.white)
    index = {c.name: i for i, c in enumerate(rules.cells)}
    for goal in game.rules(side).goals:
        for place in condition_bounds(goal, g.width, g.height).positions():
            if condition_holds_at(g, state, goal, place):
                return frozenset(index["({},{})".format(*g.cell_of(atom, place))] for atom in goal.atoms)
    return frozenset()
