"""The compiled core's searchers kept between questions: one BDDL minimax, or one positional
solver's search on a `.pg` game, for PPN²'s search leaf jobs (kept on a worker between jobs) and
for the certificates' questions (`compiler.certificates.oracles`: the search that decided the
game, asked again about the positions of its strategy).

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
from ..minimax import SearchBudgetExceeded
from . import DEFAULT_TABLE_MB, MAX_BDDL_DEPTH, _core, bddl_unsupported, table_bytes_for, unsupported, why_unavailable

# (black to move, black cells, white cells, plies left): the tree's position (`pn_job.Position`)
Position = tuple[bool, int, int, int]

# a question without a budget of positions (the table's bound holds its memory)
UNBOUNDED = (1 << 64) - 1


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

    # -- the certificates' questions: `Minimax.black_wins` and `known` ----------------------------

    def black_wins(self, black_to_move: bool, b: int, w: int, r: int, budget: int = UNBOUNDED) -> bool:
        """`Minimax.black_wins`: does Black win with r plies left?  Raises `SearchBudgetExceeded`
        (the positions of every question so far) past `budget` more positions."""
        if r < 1:
            return False
        if r > MAX_BDDL_DEPTH:
            raise ValueError(f"the compiled core searches at most {MAX_BDDL_DEPTH} plies, not {r}")
        status, wins, _ = self.searcher.ask(bool(black_to_move), b, w, r, min(max(budget, 0), UNBOUNDED))
        if status == 1:
            raise SearchBudgetExceeded(self.positions)
        assert status == 0, status
        return bool(wins)

    def known(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        """`Minimax.known`: the core's table is not read from Python, so nothing is known
        without asking (asking a solved position costs one probe in the core)."""
        return None

    @property
    def positions(self) -> int:
        return self.searcher.totals()["positions"]


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

    # -- the certificates' questions: the Python `PositionalSolver`'s `decide` and `refutation` ----

    def decide(self, b: int, w: int, budget: int = UNBOUNDED) -> tuple[bool, int | None]:
        """`PositionalSolver.decide`: does Black win from (b, w) (the time point is implied), and
        Black's first winning claim in the search's order where Black moves and wins.  Raises
        `SearchBudgetExceeded` (the positions of every question so far) past `budget` more
        positions."""
        rules = self.rules
        at_once = rules.decided_at_once(b, w)
        if at_once is not None:
            return at_once, None
        status, wins, _, move = self.searcher.decide(b, w, rules.time_of(b, w), min(max(budget, 0), UNBOUNDED))
        self._check(status)
        return bool(wins), (move if wins and move >= 0 else None)

    def black_wins(self, b: int, w: int) -> bool:
        return self.decide(b, w)[0]

    def refutation(self, b: int, w: int) -> int | None:
        """`PositionalSolver.refutation`: White to move at (b, w), its first claim in the search's
        order after which Black does not win; None where Black wins, or where the rules cut the
        position."""
        rules = self.rules
        t = rules.time_of(b, w)
        if t >= rules.depth or rules.turns[t]:
            return None
        status, _, _, move = self.searcher.refute(b, w, t, UNBOUNDED)
        self._check(status)
        return move if move >= 0 else None

    @property
    def positions(self) -> int:
        return self.searcher.totals()["positions"]

    def _check(self, status: int) -> None:
        if status == 1:
            raise SearchBudgetExceeded(self.positions)
        assert status == 0, status


def decide_pg(game: PositionalGame, max_positions: int, table_mb: float = DEFAULT_TABLE_MB):
    """`compiled.solve_full` on a searcher kept for more questions: the same search (its root is
    `decide` at the start, the claims tried uncounted), verdict, first move and positions, the
    searcher the result's engine, its table alive for a certificate's questions.  Raises
    `SearchBudgetExceeded` past `max_positions` positions."""
    import time

    from ...pg.geometry import symmetries as board_symmetries
    from ..result import SearchResult

    start = time.perf_counter()
    searcher = CorePgLeafSearch(game, table_mb)
    wins, move = searcher.decide(game.mask(game.black_initials), game.mask(game.white_initials), max_positions)
    symmetries = len(board_symmetries(game)) if searcher.totals()["symmetries_on"] else 1
    return SearchResult(wins, game.depth, move, searcher.positions, time.perf_counter() - start, symmetries, searcher)


def decide_bddl(game: Game, depth: int | None, max_positions: int, table_mb: float = DEFAULT_TABLE_MB):
    """`compiled.solve_bddl` (`bddl.engines.minimax.search`) on a searcher kept for more
    questions: the same first-move loop on one table, so the same verdict, first move and
    positions wherever the table replaced nothing; the searcher is the result's engine.  Raises
    `SearchBudgetExceeded` past `max_positions` positions."""
    import time

    from ..minimax import first_winning_move
    from ..result import SearchResult
    from . import _bddl_depth

    depth = _bddl_depth(game, depth)
    start = time.perf_counter()
    searcher = CoreLeafSearch(game, table_mb=table_mb)
    state, first_move = game.initial, None

    def black_wins(black_to_move: bool, b: int, w: int, r: int) -> bool:
        return searcher.black_wins(black_to_move, b, w, r, max_positions - searcher.positions)

    if depth < 1:
        wins = False
    elif game.black_first:
        first_move = first_winning_move(game, lambda s: black_wins(False, s.black, s.white, depth - 1))
        wins = first_move is not None
    else:
        wins = black_wins(False, state.black, state.white, depth)
    return SearchResult(wins, depth, first_move, searcher.positions, time.perf_counter() - start, engine=searcher)
