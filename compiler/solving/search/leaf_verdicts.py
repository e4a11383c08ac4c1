"""Verdict jobs at the leaves of the parallel proof-number search: QBF (`--leaf-jobs qbf|mixed`), or the
single-process search (`--leaf-jobs search`, `bddl.engines.leaf_search`).

The job-level search of the race-patterns paper's §2.2 with a specialised
solver at the leaves: instead of a bounded df-pn, a job may compile the
leaf position's game (`GameModel.at_position`, for both languages) and run
the QBF route on it (`qbf.route.solve_model`, the route of `bddlc solve`)
with a time slice.  It answers proved, disproved or unknown; the server's
tree (`bddl.engines.pn_tree.PnTree.verdict`) solves the leaf on an answer
and otherwise leaves it to a df-pn job.  Only the solver's verdict is used,
never its numbers, so a leaf verdict is exactly as trustworthy as `bddlc
solve`'s (whose first move is checked by the game engine before it is
believed: a wrong one stops the search with an error).

A verdict job is timed: whether it answers within its slice depends on
the machine's load, so the search's counts (never its verdict) can differ
from run to run even with one worker.

Which leaves get one (`verdict_leaves`):

* `dfpn`: none (the paper's PPN²);
* `qbf`: every leaf but the root (the root's formula is the whole
  question: `bddlc solve` asks it);
* `mixed`: the leaves at least two plies below the root, leaving the
  largest formulas, where QBF is nearly as hard as the whole question, to
  df-pn;
* `search`: every leaf but the root, with the single-process search
  (`bddl.engines.leaf_search`) and a budget of positions instead of QBF.

Measured in docs/scaling.md, which says which is the default and why.
"""

from __future__ import annotations

from collections.abc import Callable

from bddl.engines.pn_job import Position

LEAF_JOBS = ("search", "dfpn", "qbf", "mixed")
DEFAULT_LEAF_JOBS = "search"  # the fastest on every game measured (docs/benchmarks.md); dfpn is the paper's PPN²
DEFAULT_QBF_SLICE = 2.0  # seconds a verdict job may take, compiling included
MIXED_BELOW = 2  # `mixed`: verdict jobs only this many plies or more below the root


def verdict_leaves(kind: str, root_plies: int) -> Callable[[Position], bool] | None:
    """Which leaves get a verdict job first (None: none)."""
    if kind == "dfpn":
        return None
    if kind in ("qbf", "search"):
        return lambda position: position[3] >= 1
    if kind == "mixed":
        return lambda position: 1 <= position[3] <= root_plies - MIXED_BELOW
    raise ValueError(f"unknown leaf jobs {kind!r}; choose from {', '.join(LEAF_JOBS)}")


def leaf_verdict(model, position: Position, seconds: float) -> bool | None:
    """Does Black win from the position (None: not decided within `seconds`)?

    `model` is the root's `GameModel` at the search's depth; the position's
    plies left say how far below the root it is, hence who moves there."""
    from bddl.rules import BLACK, WHITE
    from bddl.rules import Position as Board

    from ..qbf.route import solve_model

    black_to_move, b, w, r = position
    ply = model.depth - r
    if ply < 1 or r < 1:
        raise ValueError(f"a verdict job on {position}, which is no leaf below the root")
    leaf = model.at_position(Board(b, w, ply), plies=r)
    if leaf.rules.to_move(0) != (BLACK if black_to_move else WHITE):
        raise ValueError(f"the leaf {position} has the other side to move in the game's own turn order")
    return solve_model(leaf, timeout=seconds).black_wins
