"""Cheap warnings about a game model: parts of it that can never matter.

A model can be valid and still say less than its author meant: an action
whose atoms contradict each other wherever it fits is never played, a goal
that asks one cell to be two things never holds, a side without actions
loses at its first turn, a cell no action reaches is decoration.  Such a
model compiles and solves without complaint and answers a question its
author did not ask, so these findings are warnings (errors under
`bddlc --strict`).

Every finding is exact for the given board, over all boards (reachable or
not), and decided by grounding: at one position a condition is a
conjunction of per-cell requirements, satisfiable iff no cell is asked for
two values (`bddl.game.allowed_values`).

Compiling runs these checks on every call, so they must cost milliseconds
even on large boards: a condition written only with ?x/?y offsets looks the
same at every position, so it is grounded once and translated, and only
conditions that mention board edges or absolute cells are grounded position
by position.  No SAT solver here (that is `compiler.analysis.sanity_sat`, used by
`bddlc check` alone).  The validator's own warnings (actions and goals that
fit nowhere) are not repeated.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from bddl.ast import Action, Atom, Condition, Domain, Problem, Relative
from bddl.bounds import Box, action_bounds, condition_bounds
from bddl.errors import Diagnostic, warning
from bddl.game import VALUES, Geometry, allowed_values, ground_atoms
from bddl.situations import representative_positions

from .mistakes import modelling_mistakes

Cell = tuple[int, int]
Requirements = dict[Cell, frozenset[str]]
SIDES = ("Black", "White")


def lint(domain: Domain, problem: Problem) -> list[Diagnostic]:
    """Every warning, in a fixed order: sides, actions, goals, then cells.

    Assumes a model that passed `bddl.validate.check_model`."""
    geometry = Geometry(problem.width, problem.height)
    return (
        sides_without_actions(domain)
        + dead_actions(domain, geometry)
        + dead_goals(problem, geometry)
        + constant_cells(domain, problem, geometry)
        + modelling_mistakes(domain, problem)
    )


# -- grounding -----------------------------------------------------------------


def requirements(geometry: Geometry, atoms: Sequence[Atom], pos: Cell) -> Requirements | None:
    """What the atoms ask of each cell they name at `pos`; None if they contradict."""
    found = {}
    for cell, group in ground_atoms(geometry, atoms, pos).items():
        allowed = allowed_values(group)
        if not allowed:
            return None
        found[cell] = allowed
    return found


def translation_invariant(atoms: Sequence[Atom]) -> bool:
    """Only ?x/?y offsets: the condition looks the same at every position."""
    return all(isinstance(atom.x, Relative) and isinstance(atom.y, Relative) for atom in atoms)


def move_at(geometry: Geometry, action: Action, pos: Cell) -> tuple[Requirements, Requirements] | None:
    """The action's precondition and effect requirements at `pos`, None if it cannot be played there."""
    pre = requirements(geometry, action.precondition.atoms, pos)
    if pre is None:
        return None
    effect = requirements(geometry, action.effect.atoms, pos)
    if effect is None:
        return None
    return pre, effect


def first_move(geometry: Geometry, action: Action) -> Cell | None:
    """A position where the action can be played on some board, or None.
    Only the positions where its atoms can group into cells differently are
    tried (`bddl.situations`), so a large board costs nothing extra."""
    box = action_bounds(action, geometry.width, geometry.height)
    atoms = action.precondition.atoms + action.effect.atoms
    for pos in representative_positions(atoms, box, geometry.width, geometry.height):
        if move_at(geometry, action, pos) is not None:
            return pos
    return None


def goal_placements(geometry: Geometry, goal: Condition) -> Iterator[Requirements]:
    """The goal's consistent placements, lazily (callers usually stop at the first)."""
    positions = condition_bounds(goal, geometry.width, geometry.height).positions()
    if translation_invariant(goal.atoms) and positions:
        first = requirements(geometry, goal.atoms, positions[0])
        if first is None:
            return
        offsets = [((cx - positions[0][0], cy - positions[0][1]), allowed) for (cx, cy), allowed in first.items()]
        for x, y in positions:
            yield {(x + dx, y + dy): allowed for (dx, dy), allowed in offsets}
        return
    for pos in positions if any(isinstance(c, Relative) for a in goal.atoms for c in (a.x, a.y)) else positions[:1]:
        found = requirements(geometry, goal.atoms, pos)
        if found is not None:
            yield found


def changed_cells(pre: Requirements, effect: Requirements) -> list[Cell]:
    """The cells a move can change on some board: those whose effect allows a
    value other than one the precondition lets the cell have before."""
    return [
        cell
        for cell, after in effect.items()
        if len(after) > 1 or pre.get(cell, frozenset(VALUES)) - after
    ]


def changeable_cells(geometry: Geometry, action: Action) -> set[Cell]:
    """Every cell some move of the action changes on some board."""
    positions = action_bounds(action, geometry.width, geometry.height).positions()
    if not positions:
        return set()
    if translation_invariant(action.precondition.atoms + action.effect.atoms):
        x0, y0 = positions[0]
        move = move_at(geometry, action, (x0, y0))
        if move is None:
            return set()
        offsets = [(cx - x0, cy - y0) for cx, cy in changed_cells(*move)]
        return {(x + dx, y + dy) for x, y in positions for dx, dy in offsets}
    found: set[Cell] = set()
    for pos in positions:
        move = move_at(geometry, action, pos)
        if move is not None:
            found.update(changed_cells(*move))
    return found


# -- the cells no action changes, without visiting the board cell by cell ----------------
# An action whose atoms are, per axis, all relative or all fixed groups them
# into cells the same way at every position, so the cells it can change are
# one box per changed cell of one grounding: the action's bounds shifted by
# the cell's offset on a relative axis, the fixed index on the other.  The
# frozen cells are the board minus the union of those boxes, counted row by
# row over intervals.  Other actions (a condition mixing `?x` and `xmin`) are
# grounded position by position (`changeable_cells`).


def _relative(action: Action, axis: str) -> bool | None:
    atoms = action.precondition.atoms + action.effect.atoms
    kinds = {isinstance(a.x if axis == "x" else a.y, Relative) for a in atoms}
    return None if len(kinds) > 1 else kinds == {True}


def changeable_boxes(action: Action, geometry: Geometry) -> list[Box] | None:
    """Boxes whose union is every cell some move of the action changes on some
    board; None when the action is not separable (see module docstring)."""
    rel = (_relative(action, "x"), _relative(action, "y"))
    if None in rel:
        return None
    box = action_bounds(action, geometry.width, geometry.height)
    atoms = action.precondition.atoms + action.effect.atoms
    positions = representative_positions(atoms, box, geometry.width, geometry.height)
    if not positions:
        return []
    x0, y0 = positions[0]
    move = move_at(geometry, action, (x0, y0))
    if move is None:
        return []
    found = []
    for cx, cy in changed_cells(*move):
        xs = (box.x_lo + cx - x0, box.x_hi + cx - x0) if rel[0] else (cx, cx)
        ys = (box.y_lo + cy - y0, box.y_hi + cy - y0) if rel[1] else (cy, cy)
        found.append(Box(xs[0], xs[1], ys[0], ys[1]))
    return found


def frozen_cells(actions: Sequence[Action], geometry: Geometry, shown: int) -> tuple[list[Cell], int]:
    """The first `shown` cells (row by row) that no action changes, and how many there are."""
    boxes: list[Box] = []
    cells: set[Cell] = set()
    for action in actions:
        found = changeable_boxes(action, geometry)
        if found is None:
            cells |= changeable_cells(geometry, action)
        else:
            boxes += found
    by_row: dict[int, list[tuple[int, int]]] = {}
    for x, y in cells:
        by_row.setdefault(y, []).append((x, x))
    first: list[Cell] = []
    count = 0
    for y in range(1, geometry.height + 1):
        spans = sorted([(b.x_lo, b.x_hi) for b in boxes if b.y_lo <= y <= b.y_hi] + by_row.get(y, []))
        x = 1  # the first column not yet known to be covered
        for lo, hi in spans + [(geometry.width + 1, geometry.width + 1)]:
            if lo > x:
                gap = range(x, min(lo, geometry.width + 1))
                count += len(gap)
                first += [(v, y) for v in gap[: max(0, shown - len(first))]]
            x = max(x, hi + 1)
    return first, count


# -- the warnings -------------------------------------------------------------


def sides_without_actions(domain: Domain) -> list[Diagnostic]:
    found = []
    for name, actions, span in zip(SIDES, (domain.black_actions, domain.white_actions), (domain.black_span, domain.white_span)):
        if not actions:
            found.append(
                warning(
                    f"{name} has no actions, so {name} loses as soon as it is {name}'s turn",
                    span,
                    f"note: intended only if {name} is meant never to move",
                )
            )
    return found


def dead_actions(domain: Domain, geometry: Geometry) -> list[Diagnostic]:
    """Actions that fit on the board but contradict themselves wherever they fit."""
    found = []
    for name, actions in zip(SIDES, (domain.black_actions, domain.white_actions)):
        for action in actions:
            box = action_bounds(action, geometry.width, geometry.height)
            if box.empty or first_move(geometry, action) is not None:
                continue  # fitting nowhere is the validator's warning
            pre = action.precondition.atoms
            pre_ok = any(requirements(geometry, pre, pos) is not None for pos in representative_positions(pre, box, geometry.width, geometry.height))
            found.append(
                warning(
                    f"{name}'s action '{action.name}' can never be played on the {geometry.width}x{geometry.height} board: "
                    f"its {'effect' if pre_ok else 'precondition'} asks for two values of one cell wherever "
                    f"{'its precondition can hold' if pre_ok else 'it fits'}",
                    action.name_span,
                    "note: a cell is exactly one of open, black and white",
                )
            )
    return found


def dead_goals(problem: Problem, geometry: Geometry) -> list[Diagnostic]:
    """Goals that fit on the board but ask one cell for two values wherever they fit."""
    found = []
    for name, goals in zip(SIDES, (problem.black_goals, problem.white_goals)):
        for goal in goals:
            box = condition_bounds(goal, geometry.width, geometry.height)
            if box.empty:
                continue  # the validator's warning
            if all(requirements(geometry, goal.atoms, pos) is None for pos in representative_positions(goal.atoms, box, geometry.width, geometry.height)):
                found.append(
                    warning(
                        f"this goal of {name} can never hold on the {geometry.width}x{geometry.height} board: "
                        "it asks for two values of one cell wherever it fits",
                        goal.span,
                        "note: a cell is exactly one of open, black and white",
                    )
                )
    return found


def constant_cells(domain: Domain, problem: Problem, geometry: Geometry) -> list[Diagnostic]:
    """One warning listing the cells that no action of either side can change."""
    frozen, count = frozen_cells(domain.black_actions + domain.white_actions, geometry, shown=12)
    if not count:
        return []
    shown = ", ".join(f"({x},{y})" for x, y in frozen) + (f" and {count - 12} more" if count > 12 else "")
    whole = " (the whole board)" if count == geometry.cells else ""
    cells = "1 cell" if count == 1 else f"{count} cells"
    return [
        warning(
            f"no action can ever change {cells} of the {geometry.width}x{geometry.height} board{whole}: {shown}",
            problem.size_span,
            "note: they keep their initial value in every play",
        )
    ]
