"""Recognising a Breakthrough-like game from its rules.

Why this module exists: the race patterns hold only for pawns that move as
Breakthrough's do (one row forward, straight onto an open cell or diagonally
onto a cell not their own, capturing) in a game won by reaching the far row.
A game is recognised by comparing its actions and goals, normalised to
relative offsets, with those rules, whatever its files or actions are called,
so a renamed or rewritten Breakthrough gets the patterns and a game that
merely looks like one (knights, other goals) does not.
"""

from __future__ import annotations

from ...ast import Absolute, Domain, Extreme, Problem, Relative
from ...game import BLACK, WHITE


def _relative(coord, var: str) -> int | None:
    return coord.offset if isinstance(coord, Relative) and coord.var == var else None


def _normal_atoms(condition) -> frozenset | None:
    atoms = set()
    for atom in condition.atoms:
        dx, dy = _relative(atom.x, "x"), _relative(atom.y, "y")
        if dx is None or dy is None:
            return None
        atoms.add((atom.pred, atom.negated, dx, dy))
    return frozenset(atoms)


def _pawn_rules(side: str, dy: int) -> frozenset:
    """Breakthrough's three moves for a pawn of `side` moving dy rows per step."""
    here_open = ("open", False, 0, 0)
    me = (side, False, 0, 0)
    return frozenset(
        {
            (frozenset({me, ("open", False, 0, dy)}), frozenset({here_open, (side, False, 0, dy)})),
            (frozenset({me, (side, True, -1, dy)}), frozenset({here_open, (side, False, -1, dy)})),
            (frozenset({me, (side, True, 1, dy)}), frozenset({here_open, (side, False, 1, dy)})),
        }
    )


def _direction(actions, side: str) -> int | None:
    normal = []
    for action in actions:
        pre, eff = _normal_atoms(action.precondition), _normal_atoms(action.effect)
        if pre is None or eff is None:
            return None
        normal.append((pre, eff))
    if len(normal) != 3:
        return None
    for dy in (1, -1):
        if frozenset(normal) == _pawn_rules(side, dy):
            return dy
    return None


def _far_row_goal(goals, side: str, dy: int, height: int) -> bool:
    """Is the only goal `side(?x, far row)`, the row the pawns move towards?"""
    if len(goals) != 1 or len(goals[0].atoms) != 1:
        return False
    atom = goals[0].atoms[0]
    if atom.pred != side or atom.negated or _relative(atom.x, "x") != 0:
        return False
    far = height if dy > 0 else 1
    y = atom.y
    if isinstance(y, Extreme):
        return y.name == ("ymax" if dy > 0 else "ymin")
    return isinstance(y, Absolute) and y.value == far


def breakthrough_directions(domain: Domain, problem: Problem) -> dict[str, int] | None:
    """Each side's row step if the game is Breakthrough-like (pawns moving
    forward, straight onto open cells or diagonally capturing; the only goal
    reaching the far row), else None.  Recognised from the rules, whatever
    the files or actions are called."""
    black = _direction(domain.black_actions, BLACK)
    white = _direction(domain.white_actions, WHITE)
    if black is None or white is None or black == white:
        return None
    if not _far_row_goal(problem.black_goals, BLACK, black, problem.height):
        return None
    if not _far_row_goal(problem.white_goals, WHITE, white, problem.height):
        return None
    return {BLACK: black, WHITE: white}
