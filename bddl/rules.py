"""The rules of a game, asked the same way of both languages: the referee.

bddlc answers one question, "does Black win within d plies?", of games
written in two languages: BDDL models (`bddl.game`) and positional games
(`bddl.pg.game`).  Every part that only needs the rules (playing, validating
a strategy, checking a certificate, drawing a position, a property test)
asks them through `GameRules`, so it is written once.  An adapter per
language answers with that language's own semantics, word for word, and
this is where the two differ:

* who moves: BDDL alternates from the side `#blackturn` names; a `.pg` game
  follows its list of time points, so one side may move several times in a
  row ((p,q) turns), and its `#firstmoves` limit the first claim;
* a mover with no legal move: in BDDL it loses (Def 10: so Black wins when
  White is stuck); in a `.pg` game the game is over and Black has not won
  (`stuck_winner`);
* a move wins for its mover when the mover's goal holds afterwards (the
  opponent's goal is not looked at: that is what the sanity conditions of
  `bddlc check` are about); when the plies run out Black has lost.

A position is the two sides' cells (bitmasks, cell i is bit i in both
languages) and the number of plies played, which fixes whose turn it is.
The engines keep their own faster representations; this interface is for
what must be obviously right, not for what must be fast, and it shares no
code with the encodings or the engines.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Protocol

from .game import BLACK, WHITE, Game, State, opponent
from .pg.game import around, flood

__all__ = ["BLACK", "WHITE", "Cell", "GameRules", "Play", "Position", "RulesMinimax", "bddl_rules", "pg_rules",
           "black_wins_by_rules"]


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """The board (each side's cells as a bitmask) after `ply` plies."""

    black: int
    white: int
    ply: int


@dataclass(frozen=True, slots=True)
class Play:
    """A legal move: who plays it, how people write it, and the position after it.

    `move` is the language's own value: a `bddl.game.Move`, or the index of
    the claimed cell of a positional game."""

    side: str
    text: str
    after: Position
    move: object


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell as drawings place it: its name, and its row and column counted
    from 0 (None when the game gives no grid).  In Hex, rows go down and each
    row is shifted half a cell to the right of the one above."""

    name: str
    row: int | None
    column: int | None


class GameRules(Protocol):
    """What every language answers about its games (see the module docstring)."""

    language: str  # "bddl" or "pg"
    axes_numbered: bool  # the rows and columns are numbered from 1 (BDDL's y and x), else named by the cells' names
    depth: int  # plies Black has to win in
    initial: Position
    layout: str  # "grid", "hex" or "cells" (no geometry: draw the cells as a list)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Cell i is bit i of a position's masks (read-only: a language may build it when first asked)."""
        ...

    def to_move(self, ply: int) -> str:
        """The side that plays ply `ply` (counted from 0)."""
        ...

    def plays(self, position: Position) -> list[Play]:
        """The mover's legal moves, one per distinct position after it, in a fixed order.
        The plies left are not looked at: callers stop at the depth."""
        ...

    def won(self, position: Position, side: str) -> bool:
        """Does `side`'s goal hold in this position?"""
        ...

    def win_at_once(self, position: Position) -> Play | None:
        """The first of the mover's `plays`, in their order, after which its goal holds (None: none does).
        A language may answer faster than trying each play; the answer is the same."""
        ...

    def stuck_winner(self, side: str) -> str | None:
        """Who has won when `side` is to move and has no legal move (None: nobody)."""
        ...

    def winner_before_play(self) -> str | None:
        """Who has won in the initial position, before any move (None: nobody)."""
        ...

    def render(self, position: Position, last: Play | None = None) -> str:
        """The position as text, the way the commands print it."""
        ...

    def parse_play(self, position: Position, text: str) -> Play:
        """The mover's legal move that `text` names; `bddl.notation.MoveInputError` with what to type otherwise."""
        ...


class RulesMinimax:
    """A plain minimax over the rules alone, one table keyed by the whole position for every
    question asked of it: the slowest and plainest answer there is, for tests of everything
    faster, and the one both `black_wins_by_rules` and the certificates' test oracle
    (`compiler.certificates.oracles.rules_oracle`) ask, so that they cannot disagree."""

    def __init__(self, rules: GameRules, max_positions: int | None = None):
        self.rules = rules
        self.max_positions = max_positions  # None: as many as the questions need
        self.table: dict[Position, bool] = {}

    def black_wins(self, position: Position) -> bool:
        """Does Black win from `position` with the plies left?  RuntimeError past `max_positions` positions."""
        rules = self.rules
        if position.ply >= rules.depth:
            return False
        known = self.table.get(position)
        if known is not None:
            return known
        if self.max_positions is not None and len(self.table) >= self.max_positions:
            raise RuntimeError(f"more than {self.max_positions} positions")
        side = rules.to_move(position.ply)
        plays = rules.plays(position)
        if not plays:
            result = rules.stuck_winner(side) == BLACK
        elif side == BLACK:
            result = any(rules.won(q.after, BLACK) or self.black_wins(q.after) for q in plays)
        else:
            result = all(not rules.won(q.after, WHITE) and self.black_wins(q.after) for q in plays)
        self.table[position] = result
        return result


def first_winning_play(rules: GameRules, position: Position) -> Play | None:
    """`GameRules.win_at_once` by trying each play in order: the answer every language's faster way must give."""
    side = rules.to_move(position.ply)
    return next((play for play in rules.plays(position) if rules.won(play.after, side)), None)


def black_wins_by_rules(rules: GameRules, position: Position | None = None, max_positions: int = 2_000_000) -> bool:
    """Does Black win from `position` (the initial one by default, where a goal holding before
    the first move decides) within the depth?  A fresh `RulesMinimax`: raises RuntimeError
    past `max_positions` positions."""
    if position is None:
        before = rules.winner_before_play()
        if before is not None:
            return before == BLACK
        position = rules.initial
    return RulesMinimax(rules, max_positions).black_wins(position)


# -- BDDL -----------------------------------------------------------------


class BddlRules:
    """A BDDL game (domain and problem) through `GameRules`; moves are written `ACTION X Y`."""

    language = "bddl"
    axes_numbered = True
    layout = "grid"

    def __init__(self, game: Game, depth: int | None = None):
        self.game = game
        self.depth = game.problem.depth if depth is None else depth
        g = game.geometry
        self.initial = Position(game.initial.black, game.initial.white, 0)
        self.rows, self.columns = g.height, g.width

    @functools.cached_property
    def cells(self) -> tuple[Cell, ...]:
        # built when drawn, not when opened: opening a 1000x1000 board must not walk its million cells
        return tuple(Cell(f"({x},{y})", y - 1, x - 1) for x, y in self.game.geometry.all_cells())

    def to_move(self, ply: int) -> str:
        return BLACK if (ply % 2 == 0) == self.game.black_first else WHITE

    def plays(self, position: Position) -> list[Play]:
        from .notation import legal_moves

        side = self.to_move(position.ply)
        state = State(position.black, position.white)
        return [
            Play(side, named.text, Position(named.move.state.black, named.move.state.white, position.ply + 1), named.move)
            for named in legal_moves(self.game, state, side)
        ]

    def won(self, position: Position, side: str) -> bool:
        return self.game.won(State(position.black, position.white), side)

    def win_at_once(self, position: Position) -> Play | None:
        return first_winning_play(self, position)

    def stuck_winner(self, side: str) -> str | None:
        return opponent(side)

    def winner_before_play(self) -> str | None:
        # a model whose initial state a goal holds in is refused (Def 9, condition 1),
        # except by `bddlc check`, which reports it; the engines then play on regardless
        return None

    def render(self, position: Position, last: Play | None = None) -> str:
        return self.game.render(State(position.black, position.white))

    def parse_play(self, position: Position, text: str) -> Play:
        from .notation import describe_move, parse_move

        side = self.to_move(position.ply)
        state = State(position.black, position.white)
        move = parse_move(self.game, state, side, text)
        return Play(side, describe_move(self.game, state, move), Position(move.state.black, move.state.white, position.ply + 1), move)


def bddl_rules(game: Game, depth: int | None = None) -> BddlRules:
    return BddlRules(game, depth)


# -- positional games -------------------------------------------------------


class PgRules:
    """A positional game through `GameRules`; a move is the name of the claimed cell."""

    language = "pg"
    axes_numbered = False

    def __init__(self, game, depth: int | None = None):
        from .pg.game import PositionalGame

        assert isinstance(game, PositionalGame)
        self.game = game if depth is None or depth == game.depth else game.with_depth(depth)
        self.depth = self.game.depth
        self.initial = Position(game.mask(game.black_initials), game.mask(game.white_initials), 0)
        self._full = (1 << len(game.cells)) - 1
        self._first = self._full if game.first_moves is None else game.mask(game.first_moves)
        self._black_sets = tuple(game.mask(s) for s in game.black_wins)
        self._white_sets = tuple(game.mask(s) for s in game.white_wins)
        self._index = {name.lower(): i for i, name in enumerate(game.cells)}
        self.layout, self.cells = _pg_cells(game)
        graph = self.game.graph  # Hex: each cell's neighbours and the borders, as masks (`_joining`)
        self._touching = () if graph is None else tuple(sum(1 << other for other in near) for near in graph.neighbours)
        self._borders = (0, 0) if graph is None else (game.mask(graph.start_border), game.mask(graph.end_border))

    def to_move(self, ply: int) -> str:
        turns = self.game.turns
        if ply < len(turns):
            return turns[ply]
        return self.game.with_depth(ply + 1).turns[ply]

    def _open(self, position: Position) -> int:
        allowed = self._first if position.ply == 0 else self._full
        return allowed & ~(position.black | position.white)

    def plays(self, position: Position) -> list[Play]:
        side = self.to_move(position.ply)
        open_cells = self._open(position)
        result = []
        for cell in range(len(self.game.cells)):
            if open_cells >> cell & 1:
                bit = 1 << cell
                after = (
                    Position(position.black | bit, position.white, position.ply + 1)
                    if side == BLACK
                    else Position(position.black, position.white | bit, position.ply + 1)
                )
                result.append(Play(side, self.game.cells[cell], after, cell))
        return result

    def won(self, position: Position, side: str) -> bool:
        if side == WHITE:
            return any(position.white & s == s for s in self._white_sets)
        graph = self.game.graph
        if graph is not None and not self._black_sets:
            from .pg.prune import black_connected

            return black_connected(graph, {c for c in range(len(self.game.cells)) if position.black >> c & 1})
        return any(position.black & s == s for s in self._black_sets)

    def win_at_once(self, position: Position) -> Play | None:
        """With winning sets, by masks: a play wins at once exactly when it claims the one cell
        a set of the mover's still lacks (a set with a stone of the other side cannot be owned),
        so the first such open cell in the cells' order, the order of `plays`, is the answer.
        A certificate's checker asks this for every reply a node leaves out (millions on the
        L-pentomino's 7x7 race), where trying each play costs a goal test per open cell."""
        side = self.to_move(position.ply)
        open_cells = self._open(position)
        if not open_cells:
            return None
        if side == BLACK and self.game.graph is not None and not self._black_sets:  # Hex: a connection, not sets
            return self._play_on(position, side, self._joining(position.black) & open_cells)
        own, other = (position.black, position.white) if side == BLACK else (position.white, position.black)
        lacking = 0
        for cells in self._black_sets if side == BLACK else self._white_sets:
            missing = cells & ~own
            if cells & other or missing & (missing - 1):
                continue
            if not missing:  # owned already: any play keeps it
                lacking = open_cells
                break
            lacking |= missing
        return self._play_on(position, side, lacking & open_cells)

    def _play_on(self, position: Position, side: str, cells: int) -> Play | None:
        """The side's play on the first of `cells` (open cells) in the cells' order, the order of `plays`."""
        if not cells:
            return None
        cell = (cells & -cells).bit_length() - 1
        bit = 1 << cell
        after = (Position(position.black | bit, position.white, position.ply + 1) if side == BLACK
                 else Position(position.black, position.white | bit, position.ply + 1))
        return Play(side, self.game.cells[cell], after, cell)

    def _joining(self, black: int) -> int:
        """Hex: the cells whose Black stone would join the borders (every cell where Black's
        stones join them already), by two floods instead of one per open cell: a stone joins
        them exactly when it touches (or lies on) the start border or a Black group reaching it,
        and likewise the end border."""
        start, end = self._borders
        touching = self._touching
        from_start, from_end = flood(touching, black & start, black), flood(touching, black & end, black)
        if from_start & end:
            return self._full  # joined already: any stone keeps it
        return (start | around(touching, from_start)) & (end | around(touching, from_end))

    def stuck_winner(self, side: str) -> str | None:
        return None

    def winner_before_play(self) -> str | None:
        # White's set counts first: Black wins before play only if White owns none (docs/positional.md)
        for side in (WHITE, BLACK):
            if self.won(self.initial, side):
                return side
        return None

    def render(self, position: Position, last: Play | None = None) -> str:
        from .pg.draw import draw

        mark = last.move if last is not None and isinstance(last.move, int) else None
        drawn = draw(self.game, position.black, position.white, mark)
        if drawn is not None:
            return drawn
        names = self.game.cells

        def listed(mask: int) -> str:
            return " ".join(names[c] for c in range(len(names)) if mask >> c & 1) or "-"

        return f"black: {listed(position.black)}\nwhite: {listed(position.white)}"

    def parse_play(self, position: Position, text: str) -> Play:
        from .notation import MoveInputError
        from .suggest import did_you_mean

        words = text.split()
        side = self.to_move(position.ply)
        if len(words) != 1:
            raise MoveInputError("a move is the name of one open cell, e.g. " + (self.plays(position)[0].text if self.plays(position) else "a1"))
        cell = self._index.get(words[0].lower())
        if cell is None and words[0].isdigit():  # a number past the list `play` shows (those in it are read there)
            count = len(self.plays(position))
            raise MoveInputError(f"there is no move number {words[0]}; the list goes from 1 to {count}, or type a cell's name"
                                 if count else f"there is no cell named '{words[0]}'")
        if cell is None:
            raise MoveInputError(f"there is no cell named '{words[0]}'{did_you_mean(words[0], self.game.cells)}")
        for play in self.plays(position):
            if play.move == cell:
                return play
        why = "is not open" if (position.black | position.white) >> cell & 1 else "is not one of the game's first moves"
        raise MoveInputError(f"{side.capitalize()} cannot claim {self.game.cells[cell]}: it {why}")


def _pg_cells(game) -> tuple[str, tuple[Cell, ...]]:
    """The layout and the cells' places: Hex's rhombus, a grid the names
    give (the first axis down the rows, as `bddl.pg.draw` draws), or a list."""
    from .pg.geometry import name_axes
    from .pg.hex import hex_coordinates

    hexes = hex_coordinates(game)
    if hexes is not None:
        return "hex", tuple(Cell(name, row, column) for name, (column, row) in zip(game.cells, hexes))
    axes = name_axes(game.cells)
    if axes is not None and len(axes) <= 2:
        if len(axes) == 1:
            return "grid", tuple(Cell(name, 0, rank) for name, rank in zip(game.cells, axes[0][0]))
        return "grid", tuple(Cell(name, r, c) for name, r, c in zip(game.cells, axes[0][0], axes[1][0]))
    return "cells", tuple(Cell(name, None, None) for name in game.cells)


def pg_rules(game, depth: int | None = None) -> PgRules:
    return PgRules(game, depth)
