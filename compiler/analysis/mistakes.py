"""Warnings for silent modelling mistakes: models that are valid, solve
without complaint, and answer a question their author did not ask.

Each is a mistake a new model writer makes without noticing:

* Black has actions but no goal it can reach, while White has goals: Black
  can then win only by leaving White without a move (a goal-less game such
  as Domineering says so on both sides, and `False` says it on purpose);
* a goal that can never hold because a cell it needs starts with a stone no
  action can ever change (or can never get the value the goal asks for);
* two goal lines that look like one goal split over two lines (a goal is one
  line; each line is a goal of its own, so the side wins with half a line);
* a goal that adds nothing because another goal of the same side holds
  whenever it does: the other's atoms are a subset of its own, possibly
  shifted (`black(?x+1,?y) black(?x+2,?y)` is `black(?x,?y) black(?x+1,?y)`
  one cell to the right).

All are cheap (no SAT, no search): the goal checks compare atoms, the
reachability check is one pass over the moves' effects.  None fires on the
suite or the corpus (tested).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from bddl.ast import Absolute, Action, Atom, Condition, Domain, Extreme, Problem, Relative
from bddl.bounds import action_bounds
from bddl.errors import Diagnostic, warning
from bddl.game import Geometry, allowed_values, ground_atoms

Cell = tuple[int, int]
SIDES = ("Black", "White")
COLOURS = ("black", "white")


# The largest board (in cells) on which the blocked-goal warnings are computed: 200x200.
REACHABILITY_CELLS = 40_000


def modelling_mistakes(domain: Domain, problem: Problem) -> list[Diagnostic]:
    """Every warning of this module, in a fixed order: each side's goals, then the sides."""
    geometry = Geometry(problem.width, problem.height)
    # The blocked-goal warnings need a fixpoint over every ground move, work of
    # the board's size; compile and check must not grow with the board
    # (docs/benchmarks.md, "Costs that follow the model"), so on boards above
    # REACHABILITY_CELLS they are left out and every goal counts as live.
    values = reachable_values(domain, problem, geometry) if geometry.cells <= REACHABILITY_CELLS else None
    found: list[Diagnostic] = []
    live = {}
    for side, goals, actions in zip(SIDES, (problem.black_goals, problem.white_goals), (domain.black_actions, domain.white_actions)):
        # a side without actions has lint's warning, which says why its goals never hold
        blocked = [goal for goal in goals if values is not None and actions and blocked_goal(goal, geometry, values) is not None]
        found += [blocked_goal_warning(side, goal, problem, geometry, values) for goal in blocked]
        split = split_goals(goals)
        found += [split_goal_warning(side, first, second) for first, second in split]
        in_split = {id(goal) for pair in split for goal in pair}
        found += [
            redundant_goal_warning(side, goal, other, shift)
            for goal, other, shift in redundant_goals(goals)
            if id(goal) not in in_split and id(other) not in in_split  # the split says why
        ]
        live[side] = [goal for goal in goals if all(goal is not b for b in blocked)]
    found += goalless_black(domain, problem, live)
    return found


# -- Black without a goal it can reach ---------------------------------------------------


def goalless_black(domain: Domain, problem: Problem, live: dict[str, list[Condition]]) -> list[Diagnostic]:
    """Black moves but has no goal it can reach, while White has one.

    Only Black: a White without goals is a maker-breaker game, and the
    question bddlc answers is Black's win alone."""
    if not domain.black_actions or live["Black"] or not problem.white_goals or problem.goals_written_false[0]:
        return []
    span = problem.goal_section_spans[0] if problem.goal_section_spans[0].line else problem.span
    if not problem.black_goals:
        message = "Black has actions but no goals: it can win only by leaving White without a move"
    else:
        message = "none of Black's goals can ever hold: Black can win only by leaving White without a move"
    return [warning(message, span, "note: write False under '#blackgoals' if that is meant; else give Black its goals")]


# -- goals that need a value a cell can never have ---------------------------------------


def reachable_values(domain: Domain, problem: Problem, geometry: Geometry) -> dict[Cell, frozenset[str]]:
    """Per cell, every value it can ever have, as a fixpoint over the ground moves.

    A cell starts with its initial value; a move whose precondition each cell
    could meet on its own adds the values its effect writes.  Correlations
    between cells are ignored, so this over-approximates: a goal it rules out
    can truly never hold."""
    values: dict[Cell, set[str]] = {(x, y): {"open"} for x in range(1, geometry.width + 1) for y in range(1, geometry.height + 1)}
    for atom in problem.init:
        values[(_absolute(atom.x, geometry), _absolute(atom.y, geometry))] = {atom.pred}
    moves = [move for action in domain.black_actions + domain.white_actions for move in ground_moves(action, geometry)]
    changed = True
    while changed:
        changed = False
        for pre, effect in moves:
            if all(allowed & values[cell] for cell, allowed in pre):
                for cell, allowed in effect:
                    if not allowed <= values[cell]:
                        values[cell] |= allowed
                        changed = True
    return {cell: frozenset(v) for cell, v in values.items()}


Requirement = tuple[tuple[Cell, frozenset[str]], ...]


def ground_moves(action: Action, geometry: Geometry) -> Iterator[tuple[Requirement, Requirement]]:
    """(precondition, effect) per position the action fits and does not contradict itself."""
    positions = action_bounds(action, geometry.width, geometry.height).positions()
    if not positions:
        return
    atoms = action.precondition.atoms + action.effect.atoms
    if all(isinstance(a.x, Relative) and isinstance(a.y, Relative) for a in atoms):
        x0, y0 = positions[0]
        move = _move_at(action, geometry, (x0, y0))
        if move is None:
            return
        pre, effect = move
        for x, y in positions:
            yield _moved(pre, x - x0, y - y0), _moved(effect, x - x0, y - y0)
        return
    for pos in positions:
        move = _move_at(action, geometry, pos)
        if move is not None:
            yield move


def _moved(part: Requirement, dx: int, dy: int) -> Requirement:
    return tuple(((cx + dx, cy + dy), allowed) for (cx, cy), allowed in part)


def _move_at(action: Action, geometry: Geometry, pos: Cell) -> tuple[Requirement, Requirement] | None:
    parts = []
    for condition in (action.precondition, action.effect):
        part = tuple((cell, allowed_values(group)) for cell, group in ground_atoms(geometry, condition.atoms, pos).items())
        if not all(allowed for _, allowed in part):
            return None
        parts.append(part)
    return parts[0], parts[1]


@dataclass(frozen=True)
class Blocked:
    """Why a goal never holds: at every placement some cell can never have the value it needs."""

    cell: Cell
    needs: frozenset[str]
    has: frozenset[str]
    placements: int


def blocked_goal(goal: Condition, geometry: Geometry, values: dict[Cell, frozenset[str]]) -> Blocked | None:
    """The first placement's blocked cell when no placement of the goal can ever hold, else None.

    Goals that fit nowhere or contradict themselves are `compiler.lint`'s
    warnings already, so they are not blocked here."""
    from bddl.bounds import condition_bounds

    positions = condition_bounds(goal, geometry.width, geometry.height).positions()
    if not any(isinstance(c, Relative) for atom in goal.atoms for c in (atom.x, atom.y)):
        positions = positions[:1]  # absolute cells and board edges only: the same cells everywhere
    first: Blocked | None = None
    seen: set[frozenset] = set()
    for pos in positions:
        needs = {cell: allowed_values(group) for cell, group in ground_atoms(geometry, goal.atoms, pos).items()}
        if not all(needs.values()) or frozenset(needs.items()) in seen:
            continue
        seen.add(frozenset(needs.items()))
        stuck = next((cell for cell, allowed in needs.items() if not allowed & values[cell]), None)
        if stuck is None:
            return None
        if first is None:
            first = Blocked(stuck, needs[stuck], values[stuck], 0)
    if first is None:
        return None
    return Blocked(first.cell, first.needs, first.has, len(seen))


def blocked_goal_warning(side: str, goal: Condition, problem: Problem, geometry: Geometry, values) -> Diagnostic:
    blocked = blocked_goal(goal, geometry, values)
    assert blocked is not None
    x, y = blocked.cell
    needs = " or ".join(sorted(blocked.needs))
    has = " or ".join(sorted(blocked.has))
    cell = f"({x},{y}) must be {needs} but is only ever {has}"
    if blocked.placements == 1:
        message = f"this goal of {side} can never hold: {cell}"
    else:
        message = f"this goal of {side} can never hold: each of its {blocked.placements} placements needs a value some cell never has (e.g. {cell})"
    stone = any((_absolute(a.x, geometry), _absolute(a.y, geometry)) == blocked.cell for a in problem.init)
    if stone:
        hint = f"note: the '#init' stone at ({x},{y}) stays for the whole game: no action can move or remove it"
    else:
        hint = f"note: no action can make ({x},{y}) {needs}"
    return warning(message, goal.span, hint)


def _absolute(coord, geometry: Geometry) -> int:
    if isinstance(coord, Absolute):
        return coord.value
    assert isinstance(coord, Extreme)
    return {"xmin": 1, "ymin": 1, "xmax": geometry.width, "ymax": geometry.height}[coord.name]


# -- goals split over lines, and goals that add nothing ------------------------------------

Key = tuple  # an atom as comparable data: (pred, negated, x form, y form)


def atom_key(atom: Atom, dx: int = 0, dy: int = 0) -> Key:
    return (atom.pred, atom.negated, _coord_key(atom.x, dx), _coord_key(atom.y, dy))


def _coord_key(coord, delta: int) -> tuple:
    if isinstance(coord, Relative):
        return ("rel", coord.offset + delta)
    if isinstance(coord, Absolute):
        return ("abs", coord.value)
    return ("edge", coord.name)


def _keys(condition: Condition) -> frozenset[Key]:
    return frozenset(atom_key(a) for a in condition.atoms)


def implied_by(small: Condition, large: Condition, keys: dict[int, frozenset[Key]] | None = None) -> tuple[int, int] | None:
    """A shift d such that `small` holds at p + d whenever `large` holds at p, or None.

    That is the case when `small`'s atoms, shifted by d, are among `large`'s:
    `large` holding at p puts every cell `small` names at p + d on the board
    with the value `small` asks."""
    if len(small.atoms) > len(large.atoms):
        return None
    small_keys = keys[id(small)] if keys else _keys(small)
    large_keys = keys[id(large)] if keys else _keys(large)
    relative = [(a, a.x.offset, a.y.offset) for a in small.atoms if isinstance(a.x, Relative) and isinstance(a.y, Relative)]
    if not relative:
        return (0, 0) if small_keys <= large_keys else None
    anchor, ax, ay = relative[0]
    shifts = {
        (bx - ax, by - ay)
        for b in large.atoms
        if (b.pred, b.negated) == (anchor.pred, anchor.negated)
        for bx, by in [_offsets(b)]
        if bx is not None and by is not None
    }
    for dx, dy in sorted(shifts):
        if all(atom_key(a, dx, dy) in large_keys for a in small.atoms):
            return dx, dy
    return None


def _offsets(atom: Atom) -> tuple[int | None, int | None]:
    """The atom's ?x and ?y offsets; None for a coordinate that is not relative."""
    x = atom.x.offset if isinstance(atom.x, Relative) else None
    y = atom.y.offset if isinstance(atom.y, Relative) else None
    return x, y


def redundant_goals(goals: tuple[Condition, ...]) -> list[tuple[Condition, Condition, tuple[int, int]]]:
    """(goal, other, shift): `goal` adds nothing since `other` holds whenever it does.

    Of two goals equal up to a shift, the later one is the redundant one."""
    found = []
    keys = {id(goal): _keys(goal) for goal in goals}
    for i, goal in enumerate(goals):
        for j, other in enumerate(goals):
            if i == j or not other.atoms:
                continue
            shift = implied_by(other, goal, keys)
            if shift is None:
                continue
            same = implied_by(goal, other, keys) is not None
            if same and j > i:
                continue  # equal up to a shift: blame the later one
            found.append((goal, other, shift))
            break
    return found


def redundant_goal_warning(side: str, goal: Condition, other: Condition, shift: tuple[int, int]) -> Diagnostic:
    same = implied_by(goal, other) is not None
    moved = "" if shift == (0, 0) else f" moved by ({shift[0]:+d},{shift[1]:+d})"
    if same:
        message = f"this goal of {side} is the goal on line {other.span.line}{moved}, so it adds nothing"
    else:
        message = f"this goal of {side} adds nothing: whenever it holds, the goal on line {other.span.line} holds too"
    return warning(message, goal.span, "note: a side wins when any one of its goals holds; drop this line or make it say what you meant")


def parenthesised(goal: Condition) -> bool:
    """Whether the goal line was written inside parentheses (its span starts before its first atom)."""
    first = goal.atoms[0].span if goal.atoms else goal.span
    return (goal.span.line, goal.span.column) != (first.line, first.column)


def split_goals(goals: tuple[Condition, ...]) -> list[tuple[Condition, Condition]]:
    """Pairs of adjacent goal lines, both without parentheses, that look like one goal on two lines.

    They look so when together they have as many atoms as another goal of
    the side that each has fewer than, or when one adds nothing to the
    other (`redundant_goals`): pieces of one line of stones."""
    found = []
    sizes = [len(g.atoms) for g in goals]
    for i in range(len(goals) - 1):
        first, second = goals[i], goals[i + 1]
        if parenthesised(first) or parenthesised(second) or not first.atoms or not second.atoms:
            continue
        if first.span.line == 0 or second.span.line != max(a.span.end_line for a in first.atoms) + 1:
            continue
        together = len(first.atoms) + len(second.atoms)
        others = sizes[:i] + sizes[i + 2 :]
        if together in others or implied_by(first, second) is not None or implied_by(second, first) is not None:
            found.append((first, second))
    return found


def split_goal_warning(side: str, first: Condition, second: Condition) -> Diagnostic:
    return warning(
        f"goal lines {first.span.line} and {second.span.line} of {side} look like one goal split over two lines: "
        "each line is a goal of its own",
        first.span,
        "note: write the goal on one line, or inside one pair of parentheses, which may span lines",
    )
