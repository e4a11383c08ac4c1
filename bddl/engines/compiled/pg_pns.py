"""df-pn on a `.pg` game in the compiled core: `bddl.engines.positional_pns` compiled.

Why: the frontier's races (issue 41: the L-pentomino's 7x7 race) are decided by df-pn alone,
and the Python search expands a few hundred positions a second there.  The core's searcher
(`_core.PgPnsCore`, src/pgpns.cpp) is `PositionalProofNumberSearch` on the rules the core's
positional solver reads (src/pgrules.hpp): the same claims in the same order, the same verdicts,
initial numbers, thresholds and collections, so the same positions wherever its table never had
to collect before its capacity (`forced_collections` 0: the memory bound held the capacity).
It answers the Python engine's two questions, `decide` and `refutation`, on one table kept
between them, so that a certificate's strategist asks it what its search proved.

What stays in Python: the rules' tables (`flatten_full`: the static order, the pairings'
sets, the board's symmetries) and `PositionalRules.decided_at_once` (a side owning a goal
before play, White's pairing from the start: one SAT call).
"""

from __future__ import annotations

import time

from ...pg.game import PositionalGame
from ..minimax import DEFAULT_MAX_POSITIONS, SearchBudgetExceeded
from ..pns import DEFAULT_CAPACITY
from ..positional_pns import PG_EPSILON, PG_LEAF_PLIES
from ..positional_rules import PositionalRules
from ..result import SearchResult
from . import DEFAULT_TABLE_MB, _core, flatten_full, table_bytes_for, unsupported, why_unavailable


class CorePositionalProofNumberSearch:
    """`PositionalProofNumberSearch`'s face on the core's searcher: the same options (and
    `table_mb`, the table's memory bound), the same `decide` and `refutation`, `positions`, and
    `max_positions` (the bound on every question's total, which a caller may raise).

    The questions are positions of the game, up to its end: past a side's win (a position no
    play reaches) the Python engine's answer comes from its generic test of the children's
    boards, which the core leaves out (src/pgpns.cpp says why), so the two may differ there."""

    def __init__(
        self,
        game: PositionalGame,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        capacity: int = DEFAULT_CAPACITY,
        relevance: bool = True,
        initial_numbers: bool = True,
        use_symmetries: bool = True,
        epsilon: float = PG_EPSILON,
        leaf_plies: int = PG_LEAF_PLIES,
        pairings: bool = True,
        table_mb: float = DEFAULT_TABLE_MB,
    ):
        why = why_unavailable() or unsupported(game)
        if why is not None:
            raise ValueError(why)
        self.game = game
        self.rules = PositionalRules(game, use_symmetries=use_symmetries, relevance=relevance, pairings=pairings)
        self.rules.set_up_symmetries()  # (the group's size for the result; the core gets the same permutations)
        flat = flatten_full(game, use_symmetries=use_symmetries, relevance=relevance, carriers=False, pairings=pairings,
                            rules=self.rules)
        options = {"capacity": max(capacity, 16), "epsilon": float(epsilon), "leaf_plies": leaf_plies,
                   "initial_numbers": initial_numbers}
        self.max_positions = max_positions
        self.core = _core.PgPnsCore(flat, options, table_bytes_for(table_mb))

    @property
    def positions(self) -> int:
        return self.core.totals()["positions"]

    def totals(self) -> dict:
        """The core's report: positions, knowledge hits, collections (forced ones too), the table."""
        return self.core.totals()

    def decide(self, b: int, w: int) -> tuple[bool, int | None]:
        """`PositionalProofNumberSearch.decide`: does Black win from (b, w), and Black's winning
        claim when it is to move and wins; raises `SearchBudgetExceeded` past `max_positions`."""
        at_once = self.rules.decided_at_once(b, w)
        if at_once is not None:
            return at_once, None
        status, wins, cell, no_claim = self.core.decide(b, w, self.max_positions)
        self._check(status, no_claim, "df-pn proved a win but no claim wins")
        return wins, cell

    def refutation(self, b: int, w: int) -> int | None:
        """`PositionalProofNumberSearch.refutation`: White to move at (b, w), a claim after which
        Black does not win (None where Black wins or the rules cut the position)."""
        status, _, cell, no_claim = self.core.refutation(b, w, self.max_positions)
        self._check(status, no_claim, "df-pn refuted Black but no claim refutes")
        return cell

    def _check(self, status: int, no_claim: bool, why: str) -> None:
        if status == 1:
            raise SearchBudgetExceeded(self.positions)
        if status:
            raise RuntimeError(f"the compiled core's df-pn stopped (status {status})")
        if no_claim:
            raise AssertionError(why)


def solve_pns(game: PositionalGame, **options) -> SearchResult:
    """`bddl.engines.positional_pns.solve_pns` by the core: decide the game from its initial
    position; the same verdict, first move and positions (see the module).  `options` are
    `CorePositionalProofNumberSearch`'s; raises `SearchBudgetExceeded`, and ValueError for a game
    the core does not take.  The result's `solver` is the searcher, its table kept."""
    start = time.perf_counter()
    solver = CorePositionalProofNumberSearch(game, **options)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    wins, first_move = solver.decide(b, w)
    return SearchResult(wins, game.depth, first_move, solver.positions, time.perf_counter() - start,
                        len(solver.rules.perms), solver)
