"""Implicit bounds: where on the board a condition or an action can be placed.

A condition written relative to `(?x, ?y)` only makes sense at positions
where every cell it names is on the board; the paper calls that set of
positions BD (Def 4, with its typo fixed: the y range is [1+l_y, n-u_y]).
An action may be played only where both its precondition and its effect fit
(Def 7).  Both the explicit engine and the QBF encoding restrict positions to
these boxes, so they are computed once, here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ast import Action, Atom, Condition, Relative


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned set of positions `[x_lo, x_hi] x [y_lo, y_hi]` (inclusive, 1-based)."""

    x_lo: int
    x_hi: int
    y_lo: int
    y_hi: int

    @property
    def empty(self) -> bool:
        return self.x_lo > self.x_hi or self.y_lo > self.y_hi

    def __and__(self, other: "Box") -> "Box":
        return Box(
            max(self.x_lo, other.x_lo),
            min(self.x_hi, other.x_hi),
            max(self.y_lo, other.y_lo),
            min(self.y_hi, other.y_hi),
        )

    def __contains__(self, pos: tuple[int, int]) -> bool:
        x, y = pos
        return self.x_lo <= x <= self.x_hi and self.y_lo <= y <= self.y_hi

    def positions(self) -> list[tuple[int, int]]:
        """Row by row, then column by column: the order every consumer enumerates in."""
        return [(x, y) for y in range(self.y_lo, self.y_hi + 1) for x in range(self.x_lo, self.x_hi + 1)]

    def __len__(self) -> int:
        if self.empty:
            return 0
        return (self.x_hi - self.x_lo + 1) * (self.y_hi - self.y_lo + 1)


def board_box(width: int, height: int) -> Box:
    """Ind of Def 4: every position of an m x n board."""
    return Box(1, width, 1, height)


def atom_bounds(atom: Atom, width: int, height: int) -> Box:
    """BD(c) of Def 4.

    Postcondition: for every position (i, j) in the result, the cell the atom
    names (its relative coordinates evaluated at (i, j)) lies on the board.
    Absolute coordinates and board edges do not restrict the position.
    """
    box = board_box(width, height)
    if isinstance(atom.x, Relative):
        box &= Box(1 - atom.x.offset, width - atom.x.offset, 1, height)
    if isinstance(atom.y, Relative):
        box &= Box(1, width, 1 - atom.y.offset, height - atom.y.offset)
    return box


def condition_bounds(condition: Condition, width: int, height: int) -> Box:
    """BD(C) of Def 4: the intersection over the condition's atoms.

    Postcondition: every position in the result places every atom of the
    condition on the board; the empty condition is placeable everywhere."""
    box = board_box(width, height)
    for atom in condition.atoms:
        box &= atom_bounds(atom, width, height)
    return box


def action_bounds(action: Action, width: int, height: int) -> Box:
    """I_a of Def 7: BD(pre(a)) intersected with BD(eff(a)).

    Postcondition: the positions where the action may be played at all."""
    return condition_bounds(action.precondition, width, height) & condition_bounds(action.effect, width, height)
