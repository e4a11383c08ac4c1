"""What a solve tells, whichever the language: one result type and one error.

`compiler.solving.qbf.route.solve_model` answers with a `SolveResult` for a
BDDL model and a `.pg` game alike; the first move is a `bddl.rules.Play` of
the game's rules (who plays it, its text, the position after it, and the
language's own move), so every command reports it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.rules import Play


class MoveCheckError(RuntimeError):
    """A first move read from a solver's assignment is not legal in the game,
    or the explicit solver refutes it: a bug in an encoding, in the decoding
    or in the solver, never a user error."""


@dataclass(frozen=True)
class EncodingSize:
    vars: int  # quantified variables of the formula
    gates: int | None  # circuit gates reachable from the output (None: built as clauses)
    clauses: int  # clauses of the QDIMACS the solver got (before any preprocessing)


@dataclass(frozen=True)
class SolveResult:
    """What bddlc knows about one game at one depth.

    `black_wins` is None when no solver gave a verdict (`reason` says why).
    `first_move` is Black's first move, checked legal and winning, or None
    with `reason` saying why there is none.  `move_source` says how it was
    found: "solver" (read from the solver's assignment, checked legal),
    "proved" (a candidate proved winning by a second solve), "checked" (read
    from the assignment and confirmed by the explicit solver) or
    "unchecked" (read from the assignment; the explicit solver ran out of
    positions, as `reason` says).  `depth_solved` is the depth of the
    formula that decided it (a `.pg` game's deepening may stop short)."""

    black_wins: bool | None
    depth: int
    solver: str
    seconds: float
    size: EncodingSize
    first_move: Play | None = None
    reason: str | None = None
    encoding: str = "auto"
    preprocess: str = "none"
    preprocess_note: str | None = None
    black_first: bool = True
    move_source: str | None = None
    answered_by: str | None = None  # the program that gave the verdict (a portfolio's member)
    depth_solved: int | None = None
    positions: int | None = None  # the explicit search's expanded positions, when the search answered
