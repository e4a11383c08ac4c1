"""What every explicit engine answers: one result type for both languages' engines.

The minimax and df-pn on BDDL games, the positional solver and df-pn on its rules, the plain
minimax and PPN² all return a `SearchResult`; only `first_move` is the language's own value (a
`bddl.game.Move`, or a positional game's cell index), which the language's adapter turns into a
`bddl.rules.Play` (`compiler.languages`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SearchResult:
    black_wins: bool
    depth: int  # plies (a positional game's time points)
    first_move: Any  # Black's winning first move, when Black moves first and wins: a Move, or a cell
    positions: int  # positions expanded
    seconds: float
    symmetries: int = 1  # the size of the symmetry group used (1: none)
    # the search and its table (a `Minimax`, df-pn, a `PositionalSolver`...), to be asked about other
    # positions of the game: a certificate's strategist then costs lookups, not a search again
    engine: Any = field(default=None, compare=False, repr=False)

    @property
    def solver(self) -> Any:
        """The engine, by the name the positional engines gave it."""
        return self.engine
