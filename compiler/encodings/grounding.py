"""Grounding a game on its board: the one place every encoding, `bddlc check`
and the symmetry search take moves, goals, turns and move numbers from.

Why one place: the encodings are held to the same game by the differential
tests, and the symmetry cuts compare moves and goal instances across
encodings by value (`GroundMove.key`); grounding them twice, even the same
way, would let the two drift apart.  This module builds no formula.

* `ground_moves` / `ground_sides`: the distinct moves (action, position) of a
  side that fit on the board, as per-cell requirements and effects;
* `ground_goals` / `ground_goal_sides`: every placement of every goal, as
  per-cell requirements;
* `mover`, `actions_of`, `goals_of`: whose turn a ply is, and that side's rules;
* `bits_for`: how many bits number a list of moves (or anything) from 0;
* `VALUES`: the values a cell can hold, in the order every encoding lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.ast import Action, Condition, Domain, Problem
from bddl.bounds import action_bounds, condition_bounds
from bddl.game import BLACK, VALUES, WHITE, Geometry, allowed_values, ground_atoms

__all__ = [
    "VALUES",
    "Cell",
    "GroundMove",
    "GoalInstance",
    "actions_of",
    "bits_for",
    "goals_of",
    "ground_goal_sides",
    "ground_goals",
    "ground_moves",
    "ground_sides",
    "mover",
]

Cell = tuple[int, int]
GoalInstance = tuple[tuple[Cell, frozenset[str]], ...]  # (cell, allowed values), sorted by cell


@dataclass(frozen=True)
class GroundMove:
    """One distinct move of one side: where its conditions and effects fall."""

    action: int
    x: int
    y: int
    pre: tuple[tuple[Cell, frozenset[str]], ...]
    effect: tuple[tuple[Cell, tuple[str, ...]], ...]  # one value, or two (a choice)

    @property
    def key(self):
        return (self.pre, self.effect)


def bits_for(count: int) -> int:
    """ceil(log2(count)): bits to number `count` things from 0 (0 bits for one thing)."""
    return max(count - 1, 0).bit_length()


def mover(ply: int, black_first: bool) -> str:
    """The side that makes move `ply` (1-based): Black on odd plies when Black moves first."""
    return BLACK if (ply % 2 == 1) == black_first else WHITE


def actions_of(domain: Domain, side: str) -> tuple[Action, ...]:
    return domain.black_actions if side == BLACK else domain.white_actions


def goals_of(problem: Problem, side: str) -> tuple[Condition, ...]:
    return problem.black_goals if side == BLACK else problem.white_goals


def ground_moves(geometry: Geometry, actions) -> list[GroundMove]:
    """The side's moves on this board, in action then position order, without
    duplicates (an action that ignores ?y is one move per column, not per cell)
    and without moves that can never be legal."""
    moves: list[GroundMove] = []
    seen = set()
    for index, action in enumerate(actions):
        for pos in action_bounds(action, geometry.width, geometry.height).positions():
            pre = _requirements(geometry, action.precondition.atoms, pos)
            effect = None if pre is None else _effect(geometry, action.effect.atoms, pos)
            if pre is None or effect is None:
                continue  # can never be legal
            move = GroundMove(index, pos[0], pos[1], pre, effect)
            if move.key not in seen:
                seen.add(move.key)
                moves.append(move)
    return moves


def _requirements(geometry: Geometry, atoms, pos) -> GoalInstance | None:
    """What the atoms ask of each cell at this position, sorted by cell (cells
    that may hold anything left out); None when they contradict each other."""
    need = []
    for cell, on_cell in ground_atoms(geometry, atoms, pos).items():
        allowed = allowed_values(on_cell)
        if not allowed:
            return None
        if len(allowed) < 3:
            need.append((cell, allowed))
    return tuple(sorted(need))


def _effect(geometry: Geometry, atoms, pos) -> tuple[tuple[Cell, tuple[str, ...]], ...] | None:
    """The values an effect leaves each cell it names (one, or two to choose
    from), sorted by cell; None when it contradicts itself."""
    effect = []
    for cell, on_cell in ground_atoms(geometry, atoms, pos).items():
        values = tuple(v for v in VALUES if v in allowed_values(on_cell))
        if not values:
            return None
        effect.append((cell, values))
    return tuple(sorted(effect))


def ground_sides(geometry: Geometry, domain: Domain) -> dict[str, list[GroundMove]]:
    """Both sides' `ground_moves`, by side name."""
    return {side: ground_moves(geometry, actions_of(domain, side)) for side in (BLACK, WHITE)}


def ground_goals(geometry: Geometry, goals) -> list[GoalInstance]:
    """Every placement of every goal, as cell requirements; contradictory ones dropped."""
    instances = []
    seen = set()
    for goal in goals:
        for pos in condition_bounds(goal, geometry.width, geometry.height).positions():
            need = _requirements(geometry, goal.atoms, pos)
            if need is not None and need not in seen:
                seen.add(need)
                instances.append(need)
    return instances


def ground_goal_sides(geometry: Geometry, problem: Problem) -> dict[str, list[GoalInstance]]:
    """Both sides' `ground_goals`, by side name."""
    return {side: ground_goals(geometry, goals_of(problem, side)) for side in (BLACK, WHITE)}
