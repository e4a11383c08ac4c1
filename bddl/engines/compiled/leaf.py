"""PPN²'s search leaf jobs in the compiled core: one BDDL minimax, or one positional solver's
search on a `.pg` game, kept on a worker between jobs.

Why: a worker's leaf jobs (`bddl.engines.leaf_search`) ask one engine about leaf after leaf, and
its table is what makes the later ones cheap (a subtree proved for one leaf is not searched again
for the next).  The core's other entry points are one call per search, their table dying with the
call; this keeps the core's searcher, and its table, alive between questions
(`_core.BddlLeafSearcher`, `_core.PgLeafSearcher`).  It answers as `LeafSearch.verdict` does: the same verdicts as the
Python `Minimax` asked the same questions in the same order, and the same positions wherever the
core's table replaced nothing.  Its table is bounded (`table_mb`) and replaces entries past the
bound, where the Python `LeafSearch` starts its table afresh past `LEAF_CAPACITY` entries.
"""

from __future__ import annotations

from ...game import Game
from ...pg.game import PositionalGame
from . import DEFAULT_TABLE_MB, MAX_BDDL_DEPTH, _core, bddl_unsupported, table_bytes_for, unsupported, why_unavailable

# (black to move, black cells, white cells, plies left): the tree's position (`pn_job.Position`)
Position = tuple[bool, int, int, int]


class CoreLeafSearch:
    """One worker's core minimax on a BDDL game, asked about leaf after leaf (`LeafSearch`'s
    `verdict`), with the game's race patterns as its knowledge where `race_patterns`."""

    def __init__(self, game: Game, race_patterns: bool = False, table_mb: float = DEFAULT_TABLE_MB):
        from ..race import race_knowledge
        from .bddl_spec import flatten_bddl
        from .race_spec import flatten_race

        why = why_unavailable() or bddl_unsupported(game)
        if why is not None:
            raise ValueError(why)
        knowledge = race_knowledge(game) if race_patterns else None
        cells = game.geometry.cells
        self.searcher = _core.BddlLeafSearcher(flatten_bddl(game), flatten_race(knowledge, cells), table_bytes_for(table_mb))

    def verdict(self, position: Position, budget: int) -> tuple[bool | None, int]:
        """Does Black win from the position (None: not within `budget` positions), and the
        positions this question counted.  Raises ValueError past MAX_BDDL_DEPTH plies."""
        black_to_move, b, w, r = position
        if r > MAX_BDDL_DEPTH:
            raise ValueError(f"the compiled core searches at most {MAX_BDDL_DEPTH} plies, not {r}")
        status, wins, positions = self.searcher.ask(bool(black_to_move), b, w, r, max(budget, 0))
        assert status in (0, 1), status
        return (None if status == 1 else bool(wins)), positions

    def totals(self) -> dict:
        """The positions, hits and table of every question so far (`table_entries`, `replacements`...)."""
        return self.searcher.totals()


class CorePgLeafSearch:
    """One worker's core positional solver on a `.pg` game, asked about leaf after leaf: the
    search of `pg_leaf_search` (the Python `PositionalSolver`'s engine with its default switches:
    relevance, carriers, pairings, symmetries once SYMMETRY_AFTER positions are expanded, counted
    over every question, as the Python engine counts them)."""

    def __init__(self, game: PositionalGame, table_mb: float = DEFAULT_TABLE_MB):
        from ..positional_rules import PositionalRules
        from . import flatten_full

        why = why_unavailable() or unsupported(game)
        if why is not None:
            raise ValueError(why)
        self.rules = rules = PositionalRules(game, use_symmetries=False)
        flat = flatten_full(game, lazy=True, rules=rules)
        self.searcher = _core.PgLeafSearcher(flat, table_bytes_for(table_mb))

    def verdict(self, position: Position, budget: int) -> tuple[bool | None, int]:
        """As `CoreLeafSearch.verdict`; a ValueError for a leaf that does not fit the game's turns
        (as `pg_leaf_search`'s)."""
        black_to_move, b, w, r = position
        rules = self.rules
        t = rules.depth - r
        if not 0 <= t < rules.depth or rules.time_of(b, w) != t or rules.turns[t] != black_to_move:
            raise ValueError(f"the leaf {position} does not fit the game's turns: {r} plies left with "
                             f"{rules.time_of(b, w)} stones claimed")
        status, wins, positions = self.searcher.ask(b, w, t, max(budget, 0))
        assert status in (0, 1), status
        return (None if status == 1 else bool(wins)), positions

    def totals(self) -> dict:
        return self.searcher.totals()
