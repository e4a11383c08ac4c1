"""A BDDL game ground for the compiled core: the flat lists of `BddlSpec` (src/bddlgame.hpp).

The grounding reads the game's own compiled rules (`bddl.game.SideRules`: `outcomes`, the
positions where each action fits with a consistent effect, and `goal_masks`, where each goal
fits), so the core plays the game the Python reference plays, not a third reading of the model.
A ground move is an (action, position) pair of those tables; its precondition is what every
atom asks of the cell it names there (`ground_atoms`, `allowed_values`); a precondition no board
satisfies (two atoms asking for different values of one cell) is left out, as it is never legal.
Where a condition's coordinates are, per axis, all relative or all fixed (`_UniformCondition`), its
cells and their allowed values are worked out once and shifted to each position: the grounding is
the compiled searches' whole-call cost beside the search itself.
A ground goal met twice (one that ignores ?y, say, at every row) is kept once: the side's
goal holds when any does.  The lists are checked here, before the core sees them (the core
checks them again)."""

from __future__ import annotations

from functools import partial

from ...ast import Absolute, Extreme, Relative
from ...game import BLACK, OPEN, VALUES, WHITE, Game, Geometry, SideRules, allowed_values, ground_atoms

# the core's encodings (src/bddlgame.hpp: ALLOW_*, SET_*)
ALLOW = {OPEN: 1, BLACK: 2, WHITE: 4}
SET = {OPEN: 0, BLACK: 1, WHITE: 2}


def _condition(game: Game, atoms, pos: tuple[int, int]) -> list[tuple[int, int]] | None:
    """(cell index, allowed values) per cell the atoms name at `pos`; None where no value of
    some cell satisfies its atoms (the condition never holds)."""
    g = game.geometry
    pairs = []
    for (x, y), on_cell in ground_atoms(g, atoms, pos).items():
        _check_on_board(g, x, y)
        allowed = _allowed_mask(on_cell)
        if not allowed:
            return None
        pairs.append((g.index(x, y), allowed))
    return pairs


def _check_on_board(g: Geometry, x: int, y: int) -> None:
    if not (1 <= x <= g.width and 1 <= y <= g.height):
        raise ValueError(f"a condition names the cell ({x},{y}) off the {g.width}x{g.height} board")


def _allowed_mask(on_cell) -> int:
    """The core's encoding (ALLOW) of the values that satisfy every atom naming one cell."""
    allowed = allowed_values(on_cell)
    return sum(ALLOW[v] for v in VALUES if v in allowed)


class _UniformCondition:
    """A condition whose coordinates are, per axis, all relative (`?x+k`) or all fixed (a
    number, `xmax`), ground at many positions at once: two of its atoms then name one cell at a
    position exactly when their coordinates are equal, so the grouping of its atoms by cell and
    each group's allowed values are the same everywhere and are computed once (the grounding is
    the compiled searches' whole-call overhead: a Hex goal is ground at every cell).  The same
    pairs, in the same order, as `_condition`."""

    def __init__(self, g: Geometry, atoms) -> None:
        groups: dict[tuple[int, int], list] = {}  # by coordinates, in first-mention order (ground_atoms')
        for atom in atoms:
            groups.setdefault((_coordinate(g, atom.x, "x"), _coordinate(g, atom.y, "y")), []).append(atom)
        first = atoms[0] if atoms else None  # per axis, every atom's coordinate is of its kind
        self.relative = (isinstance(first.x, Relative), isinstance(first.y, Relative)) if first else (False, False)
        self.cells = [(x, y, _allowed_mask(on_cell)) for (x, y), on_cell in groups.items()]
        self.fixed = not any(self.relative)  # the same pairs at every position: ground once
        self.fixed_pairs: list[tuple[int, int]] | None = None

    @staticmethod
    def fits(atoms) -> bool:
        kinds = {(isinstance(atom.x, Relative), isinstance(atom.y, Relative)) for atom in atoms}
        return len(kinds) <= 1 and all(isinstance(c, (Relative, Absolute, Extreme)) for atom in atoms for c in (atom.x, atom.y))

    def at(self, g: Geometry, pos: tuple[int, int]) -> list[tuple[int, int]] | None:
        if not self.fixed:
            return self._ground(g, pos)
        if self.fixed_pairs is None:
            pairs = self._ground(g, pos)
            if pairs is None:
                return None
            self.fixed_pairs = pairs
        return list(self.fixed_pairs)

    def _ground(self, g: Geometry, pos: tuple[int, int]) -> list[tuple[int, int]] | None:
        px = pos[0] if self.relative[0] else 0
        py = pos[1] if self.relative[1] else 0
        width, height = g.width, g.height
        pairs = []
        for cx, cy, allowed in self.cells:
            x, y = px + cx, py + cy
            if not (1 <= x <= width and 1 <= y <= height):
                _check_on_board(g, x, y)  # raises
            if not allowed:
                return None
            pairs.append(((y - 1) * width + x - 1, allowed))  # g.index(x, y), inline: the grounding's inner loop
        return pairs


def _coordinate(g: Geometry, coord, axis: str) -> int:
    """A relative coordinate's offset, or the index a fixed one names."""
    return coord.offset if isinstance(coord, Relative) else g.resolve(coord, axis, (0, 0))


def _grounder(game: Game, atoms):
    """The condition's grounding at a position: `_condition`, or its faster equal where it fits
    (a partial: a Python call per position fewer than a lambda, in the grounding's loops)."""
    if _UniformCondition.fits(atoms):
        return partial(_UniformCondition(game.geometry, atoms).at, game.geometry)
    return partial(_condition, game, atoms)


def _side(game: Game, rules: SideRules) -> dict:
    """One side's ground moves, outcomes and goals (`BddlSideSpec`)."""
    g = game.geometry
    move_action: list[int] = []
    move_position: list[int] = []
    pre_offsets, pre_cells, pre_allowed = [0], [], []
    out_offsets, out_cell_offsets, out_cells, out_values = [0], [0], [], []
    width = g.width
    for a, (action, table) in enumerate(zip(rules.actions, rules.outcomes)):
        precondition = _grounder(game, action.precondition.atoms)
        for p in sorted(table):
            pre = precondition((p % width + 1, p // width + 1))  # g.position(p)
            if pre is None:
                continue
            move_action.append(a)
            move_position.append(p)
            for cell, allowed in pre:
                pre_cells.append(cell)
                pre_allowed.append(allowed)
            pre_offsets.append(len(pre_cells))
            for names, add_b, add_w in table[p]:
                while names:
                    low = names & -names
                    names ^= low
                    out_cells.append(low.bit_length() - 1)
                    out_values.append(SET[BLACK] if add_b & low else SET[WHITE] if add_w & low else SET[OPEN])
                out_cell_offsets.append(len(out_cells))
            out_offsets.append(len(out_cell_offsets) - 1)
    goal_offsets, goal_cells, goal_allowed = [0], [], []
    seen: set[tuple[tuple[int, int], ...]] = set()  # a goal that ignores ?y, say, is the same at every row
    for goal, mask in zip(rules.goals, rules.goal_masks):
        ground_goal = _grounder(game, goal.atoms)
        mask &= g.full
        while mask:  # the positions of the mask, ascending
            low = mask & -mask
            mask ^= low
            p = low.bit_length() - 1
            pairs = ground_goal((p % width + 1, p // width + 1))  # g.position(p)
            if pairs is None:
                continue
            key = tuple(sorted(pairs))
            if key in seen:
                continue
            seen.add(key)
            for cell, allowed in pairs:
                goal_cells.append(cell)
                goal_allowed.append(allowed)
            goal_offsets.append(len(goal_cells))
    return {
        "move_action": move_action, "move_position": move_position,
        "pre_offsets": pre_offsets, "pre_cells": pre_cells, "pre_allowed": pre_allowed,
        "out_offsets": out_offsets, "out_cell_offsets": out_cell_offsets, "out_cells": out_cells, "out_values": out_values,
        "goal_offsets": goal_offsets, "goal_cells": goal_cells, "goal_allowed": goal_allowed,
    }


def _check_side(side: dict, cells: int) -> None:
    """The invariants the core relies on (it checks them again, as cheaply)."""
    moves = len(side["move_action"])
    assert len(side["move_position"]) == moves
    for offsets, items, lists in (
        (side["pre_offsets"], side["pre_cells"], moves),
        (side["out_offsets"], None, moves),
        (side["out_cell_offsets"], side["out_cells"], len(side["out_cell_offsets"]) - 1),
        (side["goal_offsets"], side["goal_cells"], len(side["goal_offsets"]) - 1),
    ):
        assert len(offsets) == lists + 1 and offsets[0] == 0
        assert offsets == sorted(offsets)  # ascending (sorted, not a loop in Python: the whole call's cost)
        if items is not None:
            assert offsets[-1] == len(items)
    out_offsets = side["out_offsets"]
    assert len(set(out_offsets)) == len(out_offsets), "a ground move without an outcome"  # ascending, so strictly
    for key in ("move_position", "pre_cells", "out_cells", "goal_cells"):
        assert _within(side[key], 0, cells - 1), key
    assert _within(side["pre_allowed"], 1, 7) and _within(side["goal_allowed"], 1, 7)
    assert _within(side["out_values"], 0, 2)


def _within(items: list[int], low: int, high: int) -> bool:
    return not items or (min(items) >= low and max(items) <= high)


def flatten_bddl(game: Game) -> dict:
    """The game as `BddlSpec`'s lists: the board, who moves first, the initial stones, and per
    side its ground moves (in `SideRules.successors`' order) and ground goals."""
    g = game.geometry
    state = game.initial
    black_initials = [c for c in range(g.cells) if state.black >> c & 1]
    white_initials = [c for c in range(g.cells) if state.white >> c & 1]
    assert not state.black & state.white, "a cell with two stones"
    black, white = _side(game, game.black), _side(game, game.white)
    _check_side(black, g.cells)
    _check_side(white, g.cells)
    return {
        "cells": g.cells,
        "width": g.width,
        "black_first": game.black_first,
        "black_initials": black_initials,
        "white_initials": white_initials,
        "black": black,
        "white": white,
    }
