"""How much memory the board-sized work of `compiler` will take, estimated before it starts.

Measured on five in a row (`python -m bench.locality`, docs/benchmarks.md),
with a margin: the explicit encoding takes about 4 KB per cell and ply on a
positional game, the corrective one about 9 KB, and the whole-board SAT
check about 10 KB per cell and 2 KB per literal of its goal placements and moves.  Each number
here is counted from the bounds, without grounding anything, so asking costs
nothing whatever the board.  `bddl.budget` holds the limit and refuses.
"""

from __future__ import annotations

from bddl.ast import Domain, Problem
from bddl.bounds import action_bounds, condition_bounds

KB = 1024
PER_CELL_AND_PLY = {"explicit": int(1.5 * KB), "corrective": 3 * KB}


def move_placements(domain: Domain, problem: Problem) -> int:
    """(action, position) pairs of both sides: the ground moves, duplicates included."""
    w, h = problem.width, problem.height
    return sum(len(action_bounds(a, w, h)) for a in domain.black_actions + domain.white_actions)


def encoding_bytes(encoding: str, domain: Domain, problem: Problem, depth: int) -> int:
    """The explicit or corrective encoding: a gate or clause set per cell and
    per ground move at every ply."""
    cells = problem.width * problem.height
    return PER_CELL_AND_PLY[encoding] * (cells + move_placements(domain, problem)) * depth


def guard_encoding(encoding: str, domain: Domain, problem: Problem, depth: int | None) -> None:
    """Refuse an explicit or corrective encoding past the memory limit (`bddl.budget`)."""
    from bddl.budget import require

    if encoding in PER_CELL_AND_PLY:
        depth = problem.depth if depth is None else depth
        require(f"the {encoding} encoding of a {problem.width}x{problem.height} board at depth {depth}", encoding_bytes(encoding, domain, problem, depth))


def guard_grounding(domain: Domain, problem: Problem, purpose: str) -> None:
    """Refuse to ground every move and goal once (telling a claiming game, reading
    a positional model as a `.pg` game) past the memory limit: that grounding is
    about one ply of the explicit encoding, estimated without grounding anything."""
    from bddl.budget import require

    require(f"grounding every move and goal of a {problem.width}x{problem.height} board ({purpose})",
            encoding_bytes("explicit", domain, problem, 1))


def exhaustive_check_bytes(domain: Domain, problem: Problem) -> int:
    """`check --exhaustive`: per side, variables and clauses for every cell,
    every ground move's atoms and every goal placement's atoms."""
    w, h = problem.width, problem.height
    literals = sum(len(action_bounds(a, w, h)) * (len(a.precondition.atoms) + len(a.effect.atoms) + 1) for a in domain.black_actions + domain.white_actions)
    literals += sum(len(condition_bounds(g, w, h)) * (len(g.atoms) + 1) for g in problem.black_goals + problem.white_goals)
    return 10 * KB * w * h + 2 * KB * literals
