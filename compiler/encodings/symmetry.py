"""Board symmetries of a game, used to offer each mover one move per orbit.

If a reflection or rotation of the board maps the initial position, every
side's moves and every side's goals onto themselves, then a move and its
image lead to mirror-image games with the same value.  So in a position a
symmetry leaves unchanged, the mover need only be offered one move from each
orbit, which removes most of the first-move branching on an empty board (16
moves become 3 on 4x4 HTTT).  For a position Black loses this matters most:
the solver must refute every first move it is offered.

The encodings cut the first two plies (the initial position, and the position
after a first move that the symmetry maps to itself); how a cut White move is
kept sound is explained in each encoding's `symmetry_cuts`.
"""

from __future__ import annotations

from typing import Callable, Iterable

from bddl.ast import Domain, Problem
from bddl.game import Geometry, state_from_atoms

from .grounding import Cell, GroundMove, ground_goal_sides, ground_sides

Map = Callable[[Cell], Cell]


def board_maps(width: int, height: int) -> list[tuple[str, Map]]:
    """The reflections and rotations that map the board onto itself (not the identity)."""
    w, h = width + 1, height + 1
    maps: list[tuple[str, Map]] = [
        ("flip-x", lambda c: (w - c[0], c[1])),
        ("flip-y", lambda c: (c[0], h - c[1])),
        ("rotate-180", lambda c: (w - c[0], h - c[1])),
    ]
    if width == height:
        maps += [
            ("transpose", lambda c: (c[1], c[0])),
            ("anti-transpose", lambda c: (h - c[1], w - c[0])),
            ("rotate-90", lambda c: (h - c[1], c[0])),
            ("rotate-270", lambda c: (c[1], w - c[0])),
        ]
    return maps


def _mapped(requirements: Iterable[tuple[Cell, object]], f: Map) -> tuple:
    return tuple(sorted((f(cell), value) for cell, value in requirements))


def game_symmetries(domain: Domain, problem: Problem, moves: dict | None = None, goals: dict | None = None) -> list[tuple[str, Map]]:
    """The board maps under which the whole game (position, moves, goals) is
    unchanged.  `moves` and `goals` (side -> `ground_moves` / `ground_goals`)
    save grounding the game again when the caller has done it already."""
    geometry = Geometry(problem.width, problem.height)
    start = state_from_atoms(geometry, problem.init)
    cells = geometry.all_cells()
    if moves is None:
        moves = ground_sides(geometry, domain)
    if goals is None:
        goals = ground_goal_sides(geometry, problem)
    move_keys = {side: {(m.pre, m.effect) for m in ms} for side, ms in moves.items()}
    goals = {side: set(instances) for side, instances in goals.items()}
    found = []
    for name, f in board_maps(problem.width, problem.height):
        if any(start.value(geometry, *cell) != start.value(geometry, *f(cell)) for cell in cells):
            continue
        if any({(_mapped(pre, f), _mapped(effect, f)) for pre, effect in move_keys[side]} != move_keys[side] for side in moves):
            continue
        if any({_mapped(instance, f) for instance in instances} != instances for instances in goals.values()):
            continue
        found.append((name, f))
    return found


def move_images(moves: list[GroundMove], f: Map) -> list[int]:
    """For each move (by list index), the index of its image under the board map f
    (f must be a symmetry of the game, so the image is one of the moves)."""
    index = {(m.pre, m.effect): n for n, m in enumerate(moves)}
    return [index[(_mapped(m.pre, f), _mapped(m.effect, f))] for m in moves]


def fixes_position(move: GroundMove, image: int, number: int) -> bool:
    """The move leaves a position the map fixes still fixed: it is its own
    image and chooses no values (a chosen value could break the symmetry)."""
    return image == number and all(len(values) == 1 for _, values in move.effect)
