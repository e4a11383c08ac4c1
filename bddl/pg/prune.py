"""The preprocessing of Maker-Breaker positional games for a depth-d question
(Shaik, Mayer-Eichberger, van de Pol and Saffidine, "Implicit state and goals
in QBF encodings for positional games", section 4.1).

Every step maps a game to a game with the same answer to "does Black win
within d plies?", so each is tested on its own against the explicit solver.
Black makes at most `black_moves(game, d)` claims, which bounds the winning
sets worth keeping:

* `drop_long_sets`: sets with more open cells than Black can claim;
* `drop_non_minimal`: sets that contain another set;
* `useless_to_white`: cells in no remaining set go to White (Maker-Breaker
  only: in a Maker-Maker game White might need them);
* `claimed_cells`: sets with a White cell go, Black cells leave the sets;
* `contract` (Generalised Hex, after Bonnet et al.): White's cells are
  deleted, each Black cell is deleted and its neighbours made a clique (a
  Black cell on a border puts its neighbours on that border), so that no
  stone is left and a winning chain is only cells Black must claim;
* `far_cells_to_white`: on a graph, cells no chain of at most that many open
  cells can pass through go to White (the graph form of `useless_to_white`);
* `transversal`: the Hex-theorem form (figure 1d): White's stones become
  cliques instead and Black's are deleted, and the goal becomes "the cells
  Black does not own do not join White's borders".

A step never renumbers the cells it keeps out of order, and the turns are the
first d of the game's, so the names in the result are the game's names.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from .game import BLACK, BorderGraph, PositionalGame


def black_moves(game: PositionalGame, depth: int | None = None) -> int:
    """How many cells Black claims at most within `depth` plies."""
    return game.turns[: game.depth if depth is None else depth].count(BLACK)


def at_depth(game: PositionalGame, depth: int | None) -> PositionalGame:
    """The game cut to its first `depth` plies (the question bddlc asks is "within depth")."""
    if depth is None or depth == game.depth:
        return game
    return game.with_depth(depth)


def _require_maker_breaker(game: PositionalGame, step: str) -> None:
    if not game.maker_breaker:
        raise ValueError(f"{step} holds for Maker-Breaker games only (White has winning sets here)")


# --------------------------------------------------------------- explicit winning sets


def drop_long_sets(game: PositionalGame, depth: int | None = None) -> PositionalGame:
    """Black's sets that need more claims than Black has left can never be completed."""
    moves = black_moves(game, depth)
    keep = tuple(s for s in game.black_wins if len(s - game.black_initials) <= moves)
    return replace(game, black_wins=keep)


def drop_non_minimal(game: PositionalGame) -> PositionalGame:
    """A set that contains another of the same side is won only after that one is."""
    sets = list(dict.fromkeys(game.black_wins))
    keep = tuple(s for s in sets if not any(o < s for o in sets))
    return replace(game, black_wins=keep)


def useless_to_white(game: PositionalGame) -> PositionalGame:
    """In Maker-Breaker, a cell in no winning set is worth nothing to Black,
    so it may as well be White's from the start."""
    _require_maker_breaker(game, "giving White the cells in no winning set")
    if game.graph is not None:
        raise ValueError("a Hex game's winning sets are implicit: use far_cells_to_white")
    used = frozenset().union(*game.black_wins) if game.black_wins else frozenset()
    useless = frozenset(range(len(game.cells))) - used - game.black_initials
    return replace(game, white_initials=game.white_initials | useless)


def claimed_cells(game: PositionalGame) -> PositionalGame:
    """Stones leave the sets: a set with a White stone is lost to Black, and a
    Black stone is a claim already made.  The stones stay on the board (their
    cells are not open), so the cells keep their numbers."""
    _require_maker_breaker(game, "removing claimed cells from the sets")
    sets = tuple(dict.fromkeys(s - game.black_initials for s in game.black_wins if not s & game.white_initials))
    return replace(game, black_wins=sets)


def prune_sets(game: PositionalGame, depth: int | None = None) -> PositionalGame:
    """Every set step, in the order that lets each help the next."""
    game = at_depth(game, depth)
    game = claimed_cells(game)
    game = drop_long_sets(game)
    game = drop_non_minimal(game)
    return useless_to_white(game)


# --------------------------------------------------------------- Hex: graphs with two borders


def black_connected(graph: BorderGraph, black: frozenset[int] | set[int]) -> bool:
    """Black's cells join the start border to the end border."""
    return _joined(graph.neighbours, graph.start_border, graph.end_border, black)


def _joined(neighbours, start, end, through) -> bool:
    seen = {v for v in start if v in through}
    todo = list(seen)
    while todo:
        v = todo.pop()
        if v in end:
            return True
        for w in neighbours[v]:
            if w in through and w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def contract(game: PositionalGame) -> PositionalGame:
    """The Generalised-Hex contraction: a game with no stones whose open
    cells are the game's.  Left as it is when Black has already joined the
    borders (there is nothing to contract into)."""
    graph = _require_graph(game)
    _require_maker_breaker(game, "the Generalised-Hex contraction")
    if black_connected(graph, game.black_initials):
        return game
    neighbours, start, end = _contract(
        graph.neighbours, graph.start_border, graph.end_border, game.black_initials, game.white_initials
    )
    return _keep_open(game, neighbours, start, end, game.black_initials | game.white_initials)


def _contract(neighbours, start, end, cliques, deleted):
    """Delete `deleted`; delete each cell of `cliques`, joining its neighbours
    pairwise and passing its borders on to them.  One cell at a time, so a
    chain of stones becomes one clique of all the cells around it."""
    adjacent = [set(n) for n in neighbours]
    start, end = set(start), set(end)
    for v in sorted(deleted):
        for w in adjacent[v]:
            adjacent[w].discard(v)
        adjacent[v] = set()
        start.discard(v)
        end.discard(v)
    for v in sorted(cliques):
        around = adjacent[v]
        for w in around:
            adjacent[w].discard(v)
            adjacent[w] |= around - {w}
            if v in start:
                start.add(w)
            if v in end:
                end.add(w)
        adjacent[v] = set()
        start.discard(v)
        end.discard(v)
    return adjacent, start, end


def _keep_open(game: PositionalGame, adjacent, start, end, gone) -> PositionalGame:
    """The game on the cells not in `gone`, renumbered in their old order."""
    kept = [v for v in range(len(game.cells)) if v not in gone]
    new = {v: i for i, v in enumerate(kept)}
    graph = BorderGraph(
        neighbours=tuple(tuple(sorted(new[w] for w in adjacent[v])) for v in kept),
        start_border=frozenset(new[v] for v in start),
        end_border=frozenset(new[v] for v in end),
    )
    first = None if game.first_moves is None else frozenset(new[v] for v in game.first_moves if v in new)
    return replace(
        game,
        cells=tuple(game.cells[v] for v in kept),
        black_wins=(),
        white_wins=(),
        black_initials=frozenset(),
        white_initials=frozenset(),
        first_moves=first,
        graph=graph,
        coordinates=None if game.coordinates is None else tuple(game.coordinates[v] for v in kept),
    )


def _require_graph(game: PositionalGame) -> BorderGraph:
    if game.graph is None:
        raise ValueError("this step is for games whose goal is a chain between two borders (Hex)")
    return game.graph


def distances(game: PositionalGame, sources) -> list[float]:
    """Per cell, the fewest open cells on a chain from `sources` to it (both
    ends counted): Black's stones cost nothing, White's cannot be passed."""
    graph = _require_graph(game)
    black, white = game.black_initials, game.white_initials
    inf = float("inf")
    dist = [inf] * len(game.cells)
    todo: deque[int] = deque()
    for v in sources:
        if v not in white:
            dist[v] = 0 if v in black else 1
            (todo.appendleft if v in black else todo.append)(v)
    while todo:
        v = todo.popleft()
        for w in graph.neighbours[v]:
            if w in white:
                continue
            d = dist[v] + (0 if w in black else 1)
            if d < dist[w]:
                dist[w] = d
                (todo.appendleft if w in black else todo.append)(w)
    return dist


def far_cells_to_white(game: PositionalGame, depth: int | None = None) -> PositionalGame:
    """Cells on no chain of at most Black's number of claims go to White:
    such a cell is in no minimal winning set Black can complete in time
    (section 4.1's "cells in no set", for sets given by a graph)."""
    _require_maker_breaker(game, "giving White the cells out of reach")
    moves = black_moves(game, depth)
    graph = _require_graph(game)
    from_start = distances(game, graph.start_border)
    to_end = distances(game, graph.end_border)
    far = frozenset(
        v
        for v in range(len(game.cells))
        if v not in game.black_initials and v not in game.white_initials and from_start[v] + to_end[v] - 1 > moves
    )
    return replace(game, white_initials=game.white_initials | far)


def prune_graph(game: PositionalGame, depth: int | None = None) -> PositionalGame:
    """The depth-d Generalised-Hex instance of a Hex game: the far cells given
    to White, then the contraction; no stones are left."""
    game = at_depth(game, depth)
    return contract(far_cells_to_white(game))


# --------------------------------------------------------------- the transversal game


@dataclass(frozen=True, slots=True)
class Transversal:
    """The transversal form of a Hex game: Black wins iff, once play is over,
    the cells Black does not own do not join White's two borders (the Hex
    theorem).  `game` carries the open cells and the turns; its graph has
    White's borders, with White's stones contracted into cliques and Black's
    deleted.  `lost`: White's stones already join White's borders, so Black
    cannot win (the contraction would not say so: it has no stone left)."""

    game: PositionalGame
    lost: bool = False

    @property
    def graph(self) -> BorderGraph:
        """The open cells' neighbours, with White's borders."""
        return _require_graph(self.game)

    @property
    def white_start(self) -> frozenset[int]:
        return self.graph.start_border

    @property
    def white_end(self) -> frozenset[int]:
        return self.graph.end_border

    def black_wins_with(self, black: frozenset[int] | set[int]) -> bool:
        """Black, owning `black` of the open cells at the end, has won."""
        if self.lost:
            return False
        open_to_white = set(range(len(self.game.cells))) - set(black)
        graph = self.graph
        return not _joined(graph.neighbours, graph.start_border, graph.end_border, open_to_white)


def transversal(game: PositionalGame, white_start, white_end, depth: int | None = None) -> Transversal:
    """The transversal instance of figure 1d: far cells filled for White, then
    the contraction with the roles swapped (White's stones cliques, Black's
    deleted).  `white_start`/`white_end` are White's borders on the game's
    board (bddl.pg.hex.white_borders)."""
    game = far_cells_to_white(at_depth(game, depth))
    graph = _require_graph(game)
    lost = _joined(graph.neighbours, white_start, white_end, game.white_initials)
    neighbours, start, end = _contract(graph.neighbours, white_start, white_end, game.white_initials, game.black_initials)
    return Transversal(_keep_open(game, neighbours, start, end, game.black_initials | game.white_initials), lost)


# --------------------------------------------------------------- explicit sets from a graph


def winning_paths(game: PositionalGame, longest: int) -> tuple[frozenset[int], ...]:
    """The minimal winning sets of a stone-free graph game with at most
    `longest` cells: chordless chains whose first cell alone is on the start
    border and last cell alone on the end border (a chain with a chord, or
    with another border cell, contains a shorter winning set)."""
    graph = _require_graph(game)
    if game.black_initials or game.white_initials:
        raise ValueError("contract the stones away first")
    adjacent = [frozenset(n) for n in graph.neighbours]
    start, end = graph.start_border, graph.end_border
    found: dict[frozenset[int], None] = {}

    def extend(path: list[int], cells: set[int]) -> None:
        last = path[-1]
        if last in end:
            found[frozenset(path)] = None
            return
        if len(path) == longest:
            return
        for w in sorted(adjacent[last]):
            if w in cells or w in start:
                continue
            if any(u in adjacent[w] for u in path[:-1]):
                continue  # a chord: a shorter chain exists
            path.append(w)
            cells.add(w)
            extend(path, cells)
            path.pop()
            cells.discard(w)

    if longest >= 1:
        for v in sorted(start):
            extend([v], {v})
    return tuple(found)


def as_set_game(game: PositionalGame, depth: int | None = None) -> PositionalGame:
    """A Hex game given by its explicit minimal winning sets for a depth-d
    question (what EA, LA and SA need): pruned and contracted, then every
    chordless chain Black can still complete."""
    pruned = prune_graph(game, depth)
    if pruned.black_initials or pruned.white_initials:  # Black had already won: one empty set says so
        return replace(pruned, graph=None, black_wins=(frozenset(),))
    paths = winning_paths(pruned, black_moves(pruned))
    return replace(pruned, graph=None, black_wins=paths)
