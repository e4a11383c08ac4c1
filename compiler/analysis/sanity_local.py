"""Sanity conditions 2 and 3 (BDDL paper, Def 9) decided by locality.

A move changes only the cells its effect names, so a goal placement of the
opponent that the move newly completes contains one of them; and a move's
precondition and effect are written relative to its position.  So whether
action a, played at position p, can create an opponent win is a question
about a small window of cells around p:

* W: the cells of the move (precondition and effect) and of every opponent
  placement containing a cell the move changes (the *targets*);
* the step: a state s1 on W where the precondition holds, a state s2 on W
  that the effect allows and that keeps every other cell, some target that
  holds in s2, and no opponent placement lying inside W that holds in s1.

This *relaxed* question drops the opponent placements that reach outside W
(they too must fail in s1), so when it is unsatisfiable the condition holds
at p: every whole-board violation at p restricted to W satisfies it.  When it
is satisfiable, its model is extended to the whole board by filling every
cell outside W with one value that no relative opponent goal accepts on all
of its cells (open, usually), and checked: every opponent placement touching
W, and every placement with absolute cells only, must fail in s1.  A
placement that still holds joins W with its "does not hold" constraint and
the question is asked again (a short counterexample-guided loop), so a step
this module reports is a real step on the real board.  When the loop gives up
(a goal every fill satisfies, a window that keeps growing), the action is
decided by the whole-board method instead (`compiler.analysis.sanity_sat`).

Positions p are grouped into *situations*: two positions ask the same
question, translated, when every cell of their windows has the same on-board
status (same clipping by every edge the window reaches) and neither is near
a fixed coordinate (an absolute cell or a board edge an atom names, `xmax`
say); a position near a fixed coordinate is a situation of its own.  One
relaxed question per situation, so the work follows the model (its offsets)
and not the board: 81 situations per action for five in a row on any board
of side 9 or more.

The argument needs every condition to be *separable*: per axis, either all
of its atoms are relative (?x+k) or none is.  A goal like
`(black(?x,?y) black(?x,ymin))` couples a relative cell with a whole row, so
its placements are not local; models with such a condition are decided by
the whole-board method.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable, Sequence

from bddl.ast import Absolute, Action, Atom, Condition, Extreme, Relative
from bddl.bounds import Box, action_bounds, condition_bounds
from bddl.game import BLACK, OPEN, VALUES, WHITE, Geometry, allowed_values

from .lint import requirements

Cell = tuple[int, int]
Placement = tuple[tuple[Cell, frozenset[str]], ...]
"""A ground goal: (cell, allowed values) pairs, sorted by cell."""

AXES = ("x", "y")
MAX_ROUNDS = 32
MAX_WINDOW = 4096


@dataclass(frozen=True)
class Placed:
    """One placement of one goal: which goal, where, and what it asks of each cell."""

    index: int
    pos: Cell
    placement: Placement

    @property
    def order(self) -> tuple[int, int, int]:
        """Source order of goals, then the positions row by row (`check.goal_hit`'s order)."""
        return (self.index, self.pos[1], self.pos[0])


@dataclass(frozen=True)
class LocalStep:
    """A violating step found locally: the mover plays action `action_index`
    at (x, y); `before` and `after` give the cells of the window (every other
    cell holds `fill` in both states)."""

    action_index: int
    x: int
    y: int
    before: dict[Cell, str]
    after: dict[Cell, str]
    fill: str
    goal: Placed | None = None  # the opponent's first placement that holds after (goal order, then position)


class Undecided(Exception):
    """The local method cannot decide this action; the caller falls back to the whole board."""


# -- the shape of a condition -----------------------------------------------------


def _coord(atom: Atom, axis: str):
    return atom.x if axis == "x" else atom.y


def relative_on(atoms: Sequence[Atom], axis: str) -> bool | None:
    """True when every atom is relative on `axis`, False when none is, None when mixed."""
    kinds = {isinstance(_coord(a, axis), Relative) for a in atoms}
    if len(kinds) > 1:
        return None
    return kinds == {True}


def separable(conditions: Iterable[Sequence[Atom]]) -> bool:
    """Every condition is relative on each axis either everywhere or nowhere (module docstring)."""
    return all(relative_on(atoms, axis) is not None for atoms in conditions for axis in AXES)


def _offsets(atoms: Sequence[Atom], axis: str) -> list[int]:
    return [_coord(a, axis).offset for a in atoms if isinstance(_coord(a, axis), Relative)]


def _fixed(atoms: Sequence[Atom], axis: str, geometry: Geometry) -> set[int]:
    found = set()
    for atom in atoms:
        coord = _coord(atom, axis)
        if isinstance(coord, (Absolute, Extreme)):
            found.add(geometry.resolve(coord, axis, (0, 0)))
    return found


# -- the opponent's goals, placed lazily -------------------------------------------------


@dataclass(frozen=True)
class _Goal:
    index: int  # in the side's goals, source order
    atoms: tuple[Atom, ...]
    box: Box
    relative: tuple[bool, bool]  # per axis

    def position_for(self, atom: Atom, cell: Cell, geometry: Geometry) -> Cell | None:
        """The position at which `atom` names `cell`, None if it never does.
        An axis the goal is not relative on does not move the goal, so any
        position on it will do: the box's first."""
        pos = []
        for i, axis in enumerate(AXES):
            coord = _coord(atom, axis)
            if isinstance(coord, Relative):
                pos.append(cell[i] - coord.offset)
            elif geometry.resolve(coord, axis, (0, 0)) != cell[i]:
                return None
            else:
                pos.append(self.box.x_lo if axis == "x" else self.box.y_lo)
        return (pos[0], pos[1])


class OpponentGoals:
    """The placements of one side's goals that touch given cells, each grounded once."""

    def __init__(self, geometry: Geometry, goals: Sequence[Condition]):
        self.geometry = geometry
        self.goals = []
        for index, goal in enumerate(goals):
            box = condition_bounds(goal, geometry.width, geometry.height)
            if box.empty:
                continue
            rel = (bool(relative_on(goal.atoms, "x")), bool(relative_on(goal.atoms, "y")))
            self.goals.append(_Goal(index, goal.atoms, box, rel))
        self._touching: dict[Cell, tuple[Placed, ...]] = {}
        self._templates: dict[int, tuple | None] = {}

    def placed(self, goal: _Goal, pos: Cell) -> Placed | None:
        template = self._template(goal)
        if template is None:
            return None  # asks one cell for two values: never holds
        x, y = pos
        cells = tuple(((x + dx if rx else dx, y + dy if ry else dy), allowed) for (dx, dy), allowed in template for rx, ry in (goal.relative,))
        return Placed(goal.index, pos, cells)

    def _template(self, goal: _Goal):
        """The goal's cells as offsets on its relative axes and board indices on
        the others, with what each asks, in cell order.  A separable goal
        groups its atoms into cells the same way at every position, and
        translation keeps the order, so each goal is grounded once."""
        if goal.index not in self._templates:
            cells: dict[Cell, list[Atom]] = {}
            for atom in goal.atoms:
                x, y = (
                    _coord(atom, axis).offset if rel else self.geometry.resolve(_coord(atom, axis), axis, (0, 0))
                    for axis, rel in zip(AXES, goal.relative)
                )
                cells.setdefault((x, y), []).append(atom)
            found = [(key, allowed_values(atoms)) for key, atoms in sorted(cells.items())]
            self._templates[goal.index] = None if any(not allowed for _, allowed in found) else tuple(found)
        return self._templates[goal.index]

    def touching(self, cell: Cell) -> tuple[Placed, ...]:
        """Every consistent placement that names `cell`, in goal then position order."""
        if cell not in self._touching:
            found = {}
            for goal in self.goals:
                for atom in goal.atoms:
                    pos = goal.position_for(atom, cell, self.geometry)
                    if pos is not None and pos in goal.box and (goal.index, pos) not in found:
                        p = self.placed(goal, pos)
                        if p is not None:
                            found[(goal.index, pos)] = p
            self._touching[cell] = tuple(sorted(found.values(), key=lambda p: p.order))
        return self._touching[cell]

    @cached_property
    def absolute(self) -> tuple[Placed, ...]:
        """The placements of goals relative on no axis: one each, wherever it lies."""
        found = []
        for goal in self.goals:
            if not any(goal.relative):
                p = self.placed(goal, (goal.box.x_lo, goal.box.y_lo))
                if p is not None:
                    found.append(p)
        return tuple(found)

    def fill(self) -> str | None:
        """A value for the cells outside a window under which no placement of a
        relative goal can lie wholly outside it and hold: open if it can be,
        None if every value completes some relative goal."""
        for value in (OPEN, BLACK, WHITE):
            if not any(
                any(goal.relative) and all(value in allowed_values([a]) for a in goal.atoms) for goal in self.goals
            ):
                return value
        return None

    def holding(self, state: dict[Cell, str], fill: str) -> list[Placed]:
        """The placements that hold in a state given on some cells (every other
        cell holding `fill`, a value `fill()` chose), in goal then position order."""
        candidates = {p for cell in state for p in self.touching(cell)} | set(self.absolute)
        return sorted((p for p in candidates if _holds(p.placement, state, fill)), key=lambda p: p.order)


# -- situations ------------------------------------------------------------------------------


def _reach(action: Action, goals: OpponentGoals, axis: str) -> tuple[int, int]:
    """How far left and right of the move's position (on `axis`) the relaxed
    question looks: the move's cells, the targets' cells and positions, and
    the positions of every placement inside that window (Def 4 asks a
    goal's position itself to be on the board, even where no atom names it)."""
    window = [0] + _offsets(action.precondition.atoms + action.effect.atoms, axis)
    effect = _offsets(action.effect.atoms, axis)
    spans = []
    for goal in goals.goals:
        if goal.relative[AXES.index(axis)]:
            g = _offsets(goal.atoms, axis)
            spans.append((min(g), max(g)))
            window += [e - max(g) + min(min(g), 0) for e in effect] + [e - min(g) + max(max(g), 0) for e in effect]
    low, high = min(window), max(window)
    for g_low, g_high in spans:  # positions of the placements lying inside the window
        if g_low <= 0 <= g_high:
            continue  # the position lies between two of its cells, so it is on the board when they are
        low, high = min(low, min(window) - g_high), max(high, max(window) - g_low)
    return max(0, -low), max(0, high)


def axis_situations(lo: int, hi: int, side: int, reach: tuple[int, int], fixed: set[int], relative: bool) -> list[int]:
    """One representative coordinate per situation on one axis, in increasing order.

    Two coordinates share a situation when every cell offset in [-left,
    right] from them is on or off the board alike and neither is within
    reach of a fixed coordinate (such a one is its own situation)."""
    if lo > hi:
        return []
    if not relative:
        return [lo]  # the move does not depend on this coordinate
    left, right = reach
    near = max(left, right) + 1
    seen: dict[tuple, int] = {}
    for v in range(lo, hi + 1):
        if any(abs(v - c) <= near for c in fixed):
            key: tuple = ("near", v)
        else:
            key = ("far", min(v - 1, left), min(side - v, right))
        seen.setdefault(key, v)
    return sorted(seen.values())


def situations(action: Action, goals: OpponentGoals, geometry: Geometry) -> list[Cell]:
    """Representative positions of the action, row by row (module docstring)."""
    box = action_bounds(action, geometry.width, geometry.height)
    atoms = action.precondition.atoms + action.effect.atoms
    reps = []
    for axis, lo, hi, side in (("x", box.x_lo, box.x_hi, geometry.width), ("y", box.y_lo, box.y_hi, geometry.height)):
        fixed = set()
        for goal in goals.goals:
            fixed |= _fixed(goal.atoms, axis, geometry)
        reps.append(axis_situations(lo, hi, side, _reach(action, goals, axis), fixed, bool(relative_on(atoms, axis))))
    return [(x, y) for y in reps[1] for x in reps[0]]


# -- one position -------------------------------------------------------------------------------


class _Query:
    """The relaxed question at one position, as a growing SAT instance."""

    def __init__(self, pre: dict, effect: dict):
        from bddl.sat import IDPool

        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.cells: set[Cell] = set()
        self.effect = effect
        for cell in list(pre) + list(effect):
            self.add_cell(cell)
        for cell, allowed in pre.items():
            self.clauses.append([self.allows(1, cell, allowed)])
        for cell, allowed in effect.items():
            self.clauses.append([self.allows(2, cell, allowed)])

    def var(self, *name) -> int:
        return self.pool.id(name)

    def add_cell(self, cell: Cell) -> None:
        if cell in self.cells:
            return
        self.cells.add(cell)
        for stage in (1, 2) if cell in self.effect else (1,):
            self.clauses.append([-self.var(BLACK, stage, cell), -self.var(WHITE, stage, cell)])

    def value(self, stage: int, cell: Cell, value: str) -> int:
        if stage == 2 and cell not in self.effect:
            stage = 1  # the frame rule: a cell the effect does not name keeps its value
        if value != OPEN:
            return self.var(value, stage, cell)
        o = self.var(OPEN, stage, cell)
        b, w = self.var(BLACK, stage, cell), self.var(WHITE, stage, cell)
        self.clauses += [[o, b, w], [-o, -b], [-o, -w]]
        return o

    def allows(self, stage: int, cell: Cell, allowed: frozenset[str]) -> int:
        if len(allowed) == 1:
            (only,) = allowed
            return self.value(stage, cell, only)
        if len(allowed) == 2:
            (excluded,) = set(VALUES) - allowed
            return -self.value(stage, cell, excluded)
        t = self.var("true")
        self.clauses.append([t])
        return t

    def fails_before(self, placement: Placement) -> None:
        for cell, _ in placement:
            self.add_cell(cell)
        self.clauses.append([-self.allows(1, cell, allowed) for cell, allowed in placement])

    def some_holds_after(self, placements: Sequence[Placement]) -> None:
        reached = []
        for k, placement in enumerate(placements):
            for cell, _ in placement:
                self.add_cell(cell)
            t = self.var("target", k)
            reached.append(t)
            self.clauses += [[-t, self.allows(2, cell, allowed)] for cell, allowed in placement]
        self.clauses.append(reached)

    def values(self, true: set[int], stage: int) -> dict[Cell, str]:
        def value(cell):
            s = stage if cell in self.effect else 1
            for v in (BLACK, WHITE):
                if self.pool.obj2id.get((v, s, cell)) in true:
                    return v
            return OPEN

        return {cell: value(cell) for cell in sorted(self.cells)}


def _holds(placement: Placement, state: dict[Cell, str], fill: str) -> bool:
    return all(state.get(cell, fill) in allowed for cell, allowed in placement)


def _move(geometry: Geometry, action: Action, pos: Cell):
    pre = requirements(geometry, action.precondition.atoms, pos)
    effect = requirements(geometry, action.effect.atoms, pos)
    if pre is None or effect is None:
        return None  # never legal here
    return pre, effect


def step_at(geometry: Geometry, action: Action, action_index: int, pos: Cell, goals: OpponentGoals, fill: str | None) -> LocalStep | None:
    """A violating step of the action at `pos`, None when the relaxed question
    is unsatisfiable (then no state of the board has one).  Raises
    `Undecided` when a relaxed model cannot be turned into a real step."""
    from bddl.sat import Solver

    from .sanity_sat import SOLVER

    move = _move(geometry, action, pos)
    if move is None:
        return None
    pre, effect = move
    changed = [c for c, after in effect.items() if len(after) > 1 or pre.get(c, frozenset(VALUES)) - after]
    targets = list(dict.fromkeys(p.placement for cell in changed for p in goals.touching(cell)))
    if not targets:
        return None
    query = _Query(pre, effect)
    query.some_holds_after(targets)
    constrained: set[Placement] = set()
    for cell in sorted(query.cells):
        for p in goals.touching(cell):
            if p.placement not in constrained and all(c in query.cells for c, _ in p.placement):
                constrained.add(p.placement)
                query.fails_before(p.placement)
    with Solver(name=SOLVER, bootstrap_with=query.clauses) as solver:
        for round_ in range(MAX_ROUNDS):
            if not solver.solve():
                if round_:
                    raise Undecided("the window grew before the question became unsatisfiable")
                return None  # the relaxed question: no step at this position on any board state
            if fill is None:
                raise Undecided("every value completes a relative goal of the opponent")
            true = {lit for lit in solver.get_model() if lit > 0}
            before, after = query.values(true, 1), query.values(true, 2)
            holding = [p.placement for p in goals.holding(before, fill) if p.placement not in constrained]
            if not holding:
                return simplified(geometry, action, LocalStep(action_index, pos[0], pos[1], before, after, fill), goals)
            start = len(query.clauses)
            for placement in dict.fromkeys(holding):
                constrained.add(placement)
                query.fails_before(placement)
            if len(query.cells) > MAX_WINDOW:
                raise Undecided("the window keeps growing")
            for clause in query.clauses[start:]:
                solver.add_clause(clause)
    raise Undecided("no real step after many rounds")


def is_local_step(geometry: Geometry, action: Action, step: LocalStep, goals: OpponentGoals) -> bool:
    """Whether the step is a violating step of the whole board: the move is
    legal before, leads to after (frame rule included), the opponent has not
    won before and has won after.  Cells outside the window hold `fill`."""
    move = _move(geometry, action, (step.x, step.y))
    if move is None:
        return False
    pre, effect = move
    fill = step.fill
    if not all(step.before.get(c, fill) in allowed for c, allowed in pre.items()):
        return False
    if not all(step.after.get(c, fill) in allowed for c, allowed in effect.items()):
        return False
    if any(step.before.get(c, fill) != step.after.get(c, fill) for c in set(step.before) | set(step.after) if c not in effect):
        return False
    return not goals.holding(step.before, fill) and bool(goals.holding(step.after, fill))


def simplified(geometry: Geometry, action: Action, step: LocalStep, goals: OpponentGoals) -> LocalStep:
    """The step with as many window cells set to the fill value (open, usually)
    as keep it a violating step: a reader sees what matters.  Greedy, cell by
    cell in board order, so deterministic (`check.simplified`'s rule, on the
    window only)."""
    for cell in sorted(step.before, key=lambda c: (c[1], c[0])):
        if step.before[cell] == step.fill or step.before[cell] != step.after[cell]:
            continue
        before = dict(step.before)
        after = dict(step.after)
        before[cell] = after[cell] = step.fill
        candidate = LocalStep(step.action_index, step.x, step.y, before, after, step.fill)
        if is_local_step(geometry, action, candidate, goals):
            step = candidate
    return step


def violating_steps(geometry: Geometry, actions: Sequence[Action], opponent_goals: Sequence[Condition]) -> dict[int, LocalStep]:
    """For each action that can create a win of the opponent, one step (keyed
    by action index, the first situation in board order that has one).
    Raises `Undecided` when the model is not separable or a situation cannot
    be decided locally."""
    if not separable([a.precondition.atoms + a.effect.atoms for a in actions] + [g.atoms for g in opponent_goals]):
        raise Undecided("a condition mixes relative and fixed coordinates on one axis")
    goals = OpponentGoals(geometry, opponent_goals)
    if not goals.goals:
        return {}
    fill = goals.fill()
    found = {}
    for a, action in enumerate(actions):
        for pos in situations(action, goals, geometry):
            step = step_at(geometry, action, a, pos, goals, fill)
            if step is not None:
                assert is_local_step(geometry, action, step, goals), "a local step that is not a step"
                found[a] = replace(step, goal=goals.holding(step.after, step.fill)[0])
                break
    return found
