"""The game graph of a BDDL model (paper Defs 5-8), executable and fast.

A state is a pair of bitmasks (black cells, white cells); every other cell is
open.  Cell (x, y) is bit (y-1)*width + (x-1).  This module is the project's
reference semantics: the QBF encodings are tested against the search built on
it, so it follows the definitions literally and documents each choice:

* an action may be played at a position of its implicit bounds (Def 7) where
  its precondition holds;
* after the move every cell the effect names satisfies the effect's atoms on
  that cell, and every cell the effect does not name is unchanged (the frame
  rule of the paper's encoding).  A negated effect atom `NOT(p(c))` leaves c
  with any value but p, so such an action can have several successors, and
  the mover picks one;
* where the effect's atoms contradict each other on one cell (say
  `black(?x,?y) white(xmin,?y)` at x = 1) the move has no successor and is
  therefore not legal there;
* a condition holds in a state if it holds at some position of its bounds
  (Def 8).

Legality of all positions of an action is computed at once by shifting the
board masks (one shift per atom), which is what makes the explicit search
fast enough to serve as a test oracle.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Iterator, Sequence

from .ast import Absolute, Action, Atom, Condition, Coord, Domain, Extreme, Problem, Relative
from .bounds import Box, action_bounds, condition_bounds

OPEN, BLACK, WHITE = "open", "black", "white"
VALUES = (OPEN, BLACK, WHITE)


def opponent(side: str) -> str:
    return WHITE if side == BLACK else BLACK


@dataclass(frozen=True, slots=True)
class Geometry:
    width: int
    height: int

    @property
    def cells(self) -> int:
        """How many cells (`all_cells` lists them)."""
        return self.width * self.height

    def all_cells(self) -> list[tuple[int, int]]:
        """Every cell (x, y), row by row: the order of the bit indices."""
        return [(x, y) for y in range(1, self.height + 1) for x in range(1, self.width + 1)]

    @property
    def full(self) -> int:
        return (1 << self.cells) - 1

    def bit(self, x: int, y: int) -> int:
        return 1 << ((y - 1) * self.width + (x - 1))

    def index(self, x: int, y: int) -> int:
        return (y - 1) * self.width + (x - 1)

    def position(self, index: int) -> tuple[int, int]:
        return index % self.width + 1, index // self.width + 1

    def box_mask(self, box: Box) -> int:
        if box.empty:
            return 0
        row = ((1 << (box.x_hi - box.x_lo + 1)) - 1) << (box.x_lo - 1)
        mask = 0
        for y in range(box.y_lo, box.y_hi + 1):
            mask |= row << ((y - 1) * self.width)
        return mask

    def resolve(self, coord: Coord, axis: str, pos: tuple[int, int]) -> int:
        """The board index a coordinate names when the action/goal sits at `pos`."""
        if isinstance(coord, Relative):
            return (pos[0] if axis == "x" else pos[1]) + coord.offset
        if isinstance(coord, Absolute):
            return coord.value
        if isinstance(coord, Extreme):
            return {"xmin": 1, "ymin": 1, "xmax": self.width, "ymax": self.height}[coord.name]
        raise ValueError(f"cannot resolve coordinate {coord!r}; validate the model first")

    def cell_of(self, atom: Atom, pos: tuple[int, int]) -> tuple[int, int]:
        return self.resolve(atom.x, "x", pos), self.resolve(atom.y, "y", pos)


@dataclass(frozen=True, slots=True)
class State:
    """A board: the set of black cells and the set of white cells, as bitmasks."""

    black: int
    white: int

    def value(self, geometry: Geometry, x: int, y: int) -> str:
        b = geometry.bit(x, y)
        if self.black & b:
            return BLACK
        if self.white & b:
            return WHITE
        return OPEN


def state_from_atoms(geometry: Geometry, atoms: Sequence[Atom]) -> State:
    """s0 of Def 5 (the atoms are assumed validated: on the board, each cell once)."""
    black = white = 0
    for atom in atoms:
        b = geometry.bit(geometry.resolve(atom.x, "x", (0, 0)), geometry.resolve(atom.y, "y", (0, 0)))
        if atom.pred == BLACK:
            black |= b
        else:
            white |= b
    return State(black, white)


def allowed_values(atoms: Sequence[Atom]) -> frozenset[str]:
    """The cell values that satisfy every atom of a list (all naming one cell)."""
    allowed = set(VALUES)
    for atom in atoms:
        if atom.negated:
            allowed.discard(atom.pred)
        else:
            allowed &= {atom.pred}
    return frozenset(allowed)


def ground_atoms(geometry: Geometry, atoms: Sequence[Atom], pos: tuple[int, int]) -> dict[tuple[int, int], list[Atom]]:
    """Group a condition's atoms by the cell they name at `pos` (in first-mention order)."""
    cells: dict[tuple[int, int], list[Atom]] = {}
    for atom in atoms:
        cells.setdefault(geometry.cell_of(atom, pos), []).append(atom)
    return cells


def effect_outcomes(geometry: Geometry, effect: Condition, pos: tuple[int, int]) -> tuple[tuple[int, int, int], ...]:
    """Every way the effect can leave the board, as (cells it names, black bits, white bits).

    Empty when the effect contradicts itself at this position."""
    cells = ground_atoms(geometry, effect.atoms, pos)
    names = 0
    choices = []
    for (x, y), atoms in cells.items():
        names |= geometry.bit(x, y)
        values = [v for v in VALUES if v in allowed_values(atoms)]
        if not values:
            return ()
        choices.append([(geometry.bit(x, y), v) for v in values])
    outcomes = []
    for combo in product(*choices):
        black = sum(b for b, v in combo if v == BLACK)
        white = sum(b for b, v in combo if v == WHITE)
        outcomes.append((names, black, white))
    return tuple(outcomes)


def condition_holds_at(geometry: Geometry, state: State, condition: Condition, pos: tuple[int, int]) -> bool:
    """s, (i, j) |= C of Def 6, by direct lookup (the slow, obviously right way)."""
    for atom in condition.atoms:
        x, y = geometry.cell_of(atom, pos)
        if (state.value(geometry, x, y) == atom.pred) == atom.negated:
            return False
    return True


# ---------------------------------------------------------------------------
# Compiled conditions: the positions where a condition holds, as one bitmask.


def _atom_expression(geometry: Geometry, atom: Atom) -> str:
    """A Python expression over B, W, O, NB, NW, NO (value masks and their
    complements) whose bit p is set iff the atom holds when the condition sits
    at position p.  Bits outside the condition's bounds are garbage; the caller
    masks them off."""
    m = geometry.width
    value = {BLACK: "B", WHITE: "W", OPEN: "O"}[atom.pred]
    if atom.negated:
        value = "N" + value
    x_rel = atom.x if isinstance(atom.x, Relative) else None
    y_rel = atom.y if isinstance(atom.y, Relative) else None
    if x_rel is not None and y_rel is not None:
        shift = x_rel.offset + y_rel.offset * m
        if shift > 0:
            return f"({value} >> {shift})"
        if shift < 0:
            return f"({value} << {-shift})"
        return value
    if x_rel is not None:  # a fixed row, shifted sideways, copied to every row
        row_index = geometry.resolve(atom.y, "y", (0, 0)) - 1
        row_mask = (1 << m) - 1
        dx = x_rel.offset
        row = f"(({value} >> {row_index * m}) & {row_mask:#x})"
        if dx > 0:
            row = f"({row} >> {dx})"
        elif dx < 0:
            row = f"(({row} << {-dx}) & {row_mask:#x})"
        every_row = sum(1 << (j * m) for j in range(geometry.height))
        return f"({row} * {every_row:#x})"
    if y_rel is not None:  # a fixed column, shifted up or down, copied to every column
        col_index = geometry.resolve(atom.x, "x", (0, 0)) - 1
        column0 = sum(1 << (j * m) for j in range(geometry.height))
        dy = y_rel.offset
        col = f"(({value} >> {col_index}) & {column0:#x})"
        if dy > 0:
            col = f"({col} >> {dy * m})"
        elif dy < 0:
            col = f"(({col} << {-dy * m}) & {column0:#x})"
        return f"({col} * {(1 << m) - 1:#x})"
    x, y = geometry.resolve(atom.x, "x", (0, 0)), geometry.resolve(atom.y, "y", (0, 0))
    return f"({geometry.full:#x} if {value} & {geometry.bit(x, y):#x} else 0)"


def condition_expression(geometry: Geometry, condition: Condition, positions: int) -> str:
    if not positions:
        return "0"  # also keeps absurd offsets from turning into absurd shifts
    parts = [_atom_expression(geometry, a) for a in condition.atoms]
    parts.append(f"{positions:#x}")
    return " & ".join(parts)


def compile_positions(geometry: Geometry, conditions: Sequence[tuple[Condition, int]]):
    """One function `f(B, W) -> tuple[int, ...]`: for each (condition, allowed
    positions) pair, the mask of allowed positions where the condition holds."""
    full = geometry.full
    body = ", ".join(condition_expression(geometry, c, p) for c, p in conditions)
    source = (
        "def positions(B, W):\n"
        f"    O = {full:#x} ^ (B | W)\n"
        f"    NB = {full:#x} ^ B\n"
        f"    NW = {full:#x} ^ W\n"
        f"    NO = B | W\n"
        f"    return ({body}{',' if len(conditions) == 1 else ''})\n"
    )
    namespace: dict = {}
    exec(compile(source, "<bddl-compiled-conditions>", "exec"), namespace)
    return namespace["positions"]


def compile_any(geometry: Geometry, conditions: Sequence[tuple[Condition, int]]):
    """One function `f(B, W) -> bool`: does some condition hold at some allowed position?"""
    if not conditions:
        return lambda B, W: False
    full = geometry.full
    body = " or ".join(f"({condition_expression(geometry, c, p)})" for c, p in conditions)
    source = (
        "def holds(B, W):\n"
        f"    O = {full:#x} ^ (B | W)\n"
        f"    NB = {full:#x} ^ B\n"
        f"    NW = {full:#x} ^ W\n"
        f"    NO = B | W\n"
        f"    return bool({body})\n"
    )
    namespace: dict = {}
    exec(compile(source, "<bddl-compiled-goals>", "exec"), namespace)
    return namespace["holds"]


# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A legal move: which side played which action where, and the resulting state."""

    side: str
    action: str
    action_index: int
    x: int
    y: int
    state: State


class SideRules:
    """One side's actions and goals, compiled for one board.

    Compilation is lazy: validating a model needs only the goal test, and on
    a large board grounding every action at every position is the expensive
    part."""

    def __init__(self, geometry: Geometry, side: str, actions: Sequence[Action], goals: Sequence[Condition]):
        self.geometry = geometry
        self.side = side
        self.actions = tuple(actions)
        self.goals = tuple(goals)

    @cached_property
    def boxes(self) -> tuple[Box, ...]:
        return tuple(action_bounds(a, self.geometry.width, self.geometry.height) for a in self.actions)

    @cached_property
    def outcomes(self) -> tuple[dict[int, tuple[tuple[int, int, int], ...]], ...]:
        """outcomes[a][p]: the ways action a played at position index p can leave the board."""
        tables = []
        for action, box in zip(self.actions, self.boxes):
            table = {}
            for pos in box.positions():
                outs = effect_outcomes(self.geometry, action.effect, pos)
                if outs:
                    table[self.geometry.index(*pos)] = outs
            tables.append(table)
        return tuple(tables)

    @cached_property
    def position_masks(self) -> tuple[int, ...]:
        """Per action, the positions where it fits and its effect is consistent."""
        return tuple(sum(1 << p for p in table) for table in self.outcomes)

    @cached_property
    def _legal(self):
        if not self.actions:
            return lambda B, W: ()
        return compile_positions(self.geometry, list(zip((a.precondition for a in self.actions), self.position_masks)))

    @cached_property
    def goal_masks(self) -> tuple[int, ...]:
        g = self.geometry
        return tuple(g.box_mask(condition_bounds(goal, g.width, g.height)) for goal in self.goals)

    @cached_property
    def won(self):
        """`won(black, white) -> bool`: does one of this side's goals hold?"""
        return compile_any(self.geometry, [(g, m) for g, m in zip(self.goals, self.goal_masks) if m])

    def legal_masks(self, black: int, white: int) -> tuple[int, ...]:
        """Per action, the bitmask of positions where it may be played now."""
        return self._legal(black, white)

    def successors(self, black: int, white: int) -> Iterator[tuple[int, int, int, int]]:
        """Every (action index, position index, black', white') reachable by one move."""
        outcomes = self.outcomes
        for a, mask in enumerate(self._legal(black, white)):
            table = outcomes[a]
            while mask:
                low = mask & -mask
                p = low.bit_length() - 1
                mask ^= low
                for names, add_b, add_w in table[p]:
                    keep = ~names
                    yield a, p, (black & keep) | add_b, (white & keep) | add_w

    def has_move(self, black: int, white: int) -> bool:
        return any(self._legal(black, white))


class Game:
    """The game graph of Defs 5-8 for one domain and one problem."""

    def __init__(self, domain: Domain, problem: Problem):
        self.domain = domain
        self.problem = problem
        self.geometry = Geometry(problem.width, problem.height)
        self.initial = state_from_atoms(self.geometry, problem.init)
        self.black = SideRules(self.geometry, BLACK, domain.black_actions, problem.black_goals)
        self.white = SideRules(self.geometry, WHITE, domain.white_actions, problem.white_goals)
        self.black_first = problem.black_first

    def rules(self, side: str) -> SideRules:
        return self.black if side == BLACK else self.white

    def moves(self, state: State, side: str) -> list[Move]:
        """All legal moves of `side` in `state`, in action order then position order."""
        rules = self.rules(side)
        result = []
        for a, p, b2, w2 in rules.successors(state.black, state.white):
            x, y = self.geometry.position(p)
            result.append(Move(side, rules.actions[a].name, a, x, y, State(b2, w2)))
        return result

    def won(self, state: State, side: str) -> bool:
        """Def 8: some goal condition of `side` holds at some position."""
        return self.rules(side).won(state.black, state.white)

    def render(self, state: State) -> str:
        """The board as text, x to the right and y downward, as the paper draws it."""
        g = self.geometry
        symbol = {OPEN: ".", BLACK: "B", WHITE: "W"}
        width = len(str(g.width))
        header = " " * (len(str(g.height)) + 1) + " ".join(f"{x:>{width}}" for x in range(1, g.width + 1))
        rows = [header]
        for y in range(1, g.height + 1):
            cells = " ".join(f"{symbol[state.value(g, x, y)]:>{width}}" for x in range(1, g.width + 1))
            rows.append(f"{y:>{len(str(g.height))}} {cells}")
        return "\n".join(rows)
