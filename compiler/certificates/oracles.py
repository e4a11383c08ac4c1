"""Who wins from here?  The explicit engines, asked position by position.

The one module of `compiler.certificates` that knows the engines: each
oracle answers "does Black win from this position with the plies left?"
through the engines' public entry points, keeping one engine (and so its
table) for all the questions about one game, so that asking again about a
position the search has solved costs a lookup.  Keep it small: when the
engines change, this is the file to adjust.

* BDDL: the engine the search route runs on the game (`compiler.solving.routes`:
  df-pn with the race patterns on a Breakthrough-like game, else the
  minimax; on a positional model, the positional solver on its reading as a
  `.pg` game), or the very search that decided it (`bddlc search --certificate`),
  its table read through `known`.  Asked with the verdict known, it decides
  the initial position (one search, as long as the route's), and its table
  then answers the certificate's questions by lookups: the minimax has
  valued every reply of the other side and every move of the strategist it
  tried before the one that keeps the claim, which are the questions the
  builder asks.  (df-pn without patterns, as before, cost 8 to 10 times the
  minimax on the suite's larger games: 24 s where the minimax decided
  Connect-4 5x4 within 19 in 1.6 s.)  Where the minimax's table would pass
  its share of the memory, df-pn, whose table is bounded, takes over
  (`fallback`);
* positional games: the positional solver (`bddl.engines.positional`),
  whose table is keyed by the position alone (the time point is implied), or
  the search that decided the game (the minimax or df-pn on the positional
  rules, `bddl.engines.positional_pns`), its table kept.

Each engine has two implementations where the compiled core is built and takes the game
(`core`: "compiled", the default there, or "python"): the core's searchers kept between
questions (`bddl.engines.compiled.leaf`: `CoreLeafSearch`, the BDDL minimax, with the race
patterns on a Breakthrough-like game; `CorePgLeafSearch`, the positional solver, with its
`decide` and `refutation`) answer the same questions with the same values and, on a `.pg`
game, the same own moves, so the file is the same bytes (docs/certificates.md).  Their tables
are bounded by the memory share and replace entries past it: a replaced entry costs a search
again, never a wrong value.  An engine is one object with the questions its oracle asks
(`black_wins`/`known` on BDDL games, `decide`/`refutation` on positional ones): the core's
df-pn on a `.pg` game (`CorePositionalProofNumberSearch`) is one more such object.

`produced_by` names what made the strategy, not which core answered: "positional solver" (or
"df-pn") where the engine's own moves make it; on a BDDL game, whose moves are the rules' first
that keeps the claim (values only, any exact engine gives the same file), "explicit search".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bddl.budget import MemoryBudgetExceeded, Progress, engine_bytes, max_stored_positions, memory_limit, stored_position_bytes
from bddl.rules import BLACK, GameRules, Position, RulesMinimax

# a positional solver's stored position, all its tables counted: Hein 20 at 15 took 3.0 GB for
# 34,738,383 positions (docs/benchmarks.md), 93 bytes each
PG_ENTRY_BYTES = 100
# the name of a BDDL certificate's maker: the rules' first move that keeps the claim, valued by
# an explicit search (the minimax, df-pn, the positional solver on a positional model's reading,
# in either core: every exact engine gives the same file)
BDDL_STRATEGY = "explicit search"


@dataclass(frozen=True)
class Oracle:
    name: str  # the certificate's "produced_by"
    black_wins: Callable[[Position], bool]
    # the position after the engine's own move for the claim's strategist: Black's winning
    # move (claim True), White's refuting one (claim False); None where it names none
    own_move: Callable[[Position, bool], Position | None] | None = None


def engine_oracle(model, max_bytes: int | None = None, searched=None, core: str | None = None) -> Oracle:
    """The explicit engine of the model's language (`GameModel.certificate_oracle`), its table held
    within `max_bytes`; `searched` (the engine of the search that decided the game, a
    `bddl.engines.result.SearchResult.engine`) is asked instead of a new one, so that its table
    answers and (positional games) its own moves make the strategy.  `core`: "python" keeps
    the Python engines; else the compiled core's where it is built and takes the game."""
    limit = memory_limit() if max_bytes is None else max_bytes
    return model.certificate_oracle(limit, searched, decide=False, core=core)


def core_takes(model, core: str | None, positional: bool = False) -> bool:
    """Do the compiled core's searchers answer this model's certificate (`core` not "python", the
    core built and taking the game; `positional`: the game as the positional solver reads it)?"""
    from bddl.engines import compiled

    if positional:
        return _core_takes_pg(model.pg, core)
    return core != "python" and compiled.available() and compiled.bddl_unsupported(model.rules.game, model.depth) is None


def _core_takes_pg(pg, core: str | None) -> bool:
    """Does the core's positional solver answer about the `.pg` game `pg` (`core` not "python")?"""
    from bddl.engines import compiled

    return core != "python" and compiled.available() and compiled.unsupported(pg) is None


def core_table_mb(limit: int) -> float:
    """The core searcher's table within the oracle's share `limit` (bytes): half of it, the other
    half for what the search keeps beside (the positional solver's carriers, bounded alike)."""
    from bddl.budget import MB

    return max(limit / 2 / MB, 1 / 16)


def bddl_oracle(model, limit: int, searched=None, core: str | None = None) -> Oracle:
    """A BDDL game's: the search that decided it (a minimax, either core's), or the model read as a
    positional game, or the search route's engine (the core's where `core_takes`)."""
    from bddl.engines.compiled.leaf import CoreLeafSearch
    from bddl.engines.minimax import Minimax

    if isinstance(searched, (Minimax, CoreLeafSearch)):
        return _bddl(model, limit, searched)
    if core_takes(model, core):
        return _read_as_positional(model, limit, core) or _bddl(model, limit, _core_minimax(model, limit))
    return _read_as_positional(model, limit) or _bddl(model, limit, _route_engine(model, limit))


def fallback(model, max_bytes: int | None = None) -> Oracle:
    """df-pn without knowledge, its table bounded by `max_bytes` (garbage collected): for a
    BDDL game whose minimax table would not fit (`engine_oracle`'s would raise
    `MemoryBudgetExceeded`)."""
    limit = memory_limit() if max_bytes is None else max_bytes
    return _bddl(model, limit, _dfpn_engine(model, limit))


def _read_as_positional(model, limit: int, core: str | None = "python") -> Oracle | None:
    """A positional BDDL model (every move claims an open cell, goals are sets of cells) read as
    a `.pg` game, as the search route decides it (`compiler.solving.search.positional_rules`): the
    positional solver values its positions, which are the model's (the reading numbers the cells
    as the model's bits, and one stone is one ply).  None where the rules do not fit.  Only its
    values are asked, not its moves: the certificate's moves stay the rules' first that keep the
    claim, the same file as any engine's.  The core's solver where `core` is not "python" and
    the core takes the reading."""
    from bddl.engines.positional import PositionalSolver, SearchBudgetExceeded

    from ..solving.search.positional_rules import positional_reading

    pg = positional_reading(model.rules.game, model.depth)
    if pg is None:
        return None
    cap = max(1, limit // PG_ENTRY_BYTES)
    solver: object
    if _core_takes_pg(pg, core):
        from bddl.engines.compiled.leaf import CorePgLeafSearch

        solver = CorePgLeafSearch(pg, core_table_mb(limit))
    else:
        solver = PositionalSolver(pg, max_positions=cap)
    depth = model.rules.depth

    def black_wins(position: Position) -> bool:
        if position.ply >= depth:
            return False
        try:
            return solver.decide(position.black, position.white)[0]
        except SearchBudgetExceeded:
            raise MemoryBudgetExceeded(f"the positional solver's table of more than {cap:,} positions", cap * PG_ENTRY_BYTES,
                                       limit) from None

    return Oracle(BDDL_STRATEGY, black_wins)


def _placements(game) -> int:
    return sum(len(box) for side in (game.black, game.white) for box in side.boxes)


def _route_engine(model, limit: int):
    """The engine `bddlc solve`'s search route runs on this BDDL game (`compiler.solving.routes.search_plan`,
    without the positional rules, which answer another language's positions): df-pn with the
    race patterns on a Breakthrough-like game, else the minimax, its table guarded by `limit`."""
    from bddl.engines.minimax import Minimax, game_sides
    from bddl.engines.race import race_knowledge

    game = model.rules.game
    knowledge = race_knowledge(game)
    if knowledge is not None:
        return _dfpn_engine(model, limit, knowledge)
    cells, placements = game.geometry.cells, _placements(game)
    cap = max_stored_positions(cells, placements, limit)

    def watch(positions: int) -> int:
        stored = len(engine.solved)
        if stored > cap:
            raise MemoryBudgetExceeded(f"the minimax's table of more than {cap:,} positions",
                                       engine_bytes(cells, placements) + stored * stored_position_bytes(cells), limit)
        if not positions & 0xFFFF:
            progress(f"{positions:,} positions expanded")
        return (positions | 0xFFFF) + 1

    progress = Progress("certificate's search")
    black, white = game_sides(game)
    engine = Minimax(black, white, 1 << 62, watch=watch)
    return engine


def _dfpn_engine(model, limit: int, knowledge=None):
    from bddl.engines.pns import ProofNumberSearch, game_sides, mobility_numbers

    game = model.rules.game
    capacity = max_stored_positions(game.geometry.cells, _placements(game), limit)
    black, white = game_sides(game)
    return ProofNumberSearch(black, white, max_positions=1 << 62, capacity=max(capacity, 16), knowledge=knowledge,
                             initial=mobility_numbers(black, white))


def _core_minimax(model, limit: int):
    """The compiled core's minimax kept between questions (`CoreLeafSearch`), with the race
    patterns on a Breakthrough-like game (the knowledge the route's df-pn has: the values, all
    the certificate asks of a BDDL engine, are the game's), its table within `limit`."""
    from bddl.engines.compiled.leaf import CoreLeafSearch
    from bddl.engines.race import race_knowledge

    game = model.rules.game
    return CoreLeafSearch(game, race_patterns=race_knowledge(game) is not None, table_mb=core_table_mb(limit))


def _bddl(model, limit: int, engine) -> Oracle:
    """The oracle of a BDDL engine (the minimax or df-pn, either core's), its table kept for every question."""
    from bddl.engines.minimax import SearchBudgetExceeded

    rules: GameRules = model.rules
    if hasattr(engine, "max_positions"):  # the Python engines: memory, not a count, bounds the questions to come
        engine.max_positions = 1 << 62  # (a search's own budget is spent)
    depth = rules.depth

    def black_wins(position: Position) -> bool:
        to_move = rules.to_move(position.ply) == BLACK
        left = depth - position.ply
        known = engine.known(to_move, position.black, position.white, left)
        if known is not None:
            return known
        try:
            return engine.black_wins(to_move, position.black, position.white, left)
        except SearchBudgetExceeded as exc:  # not reached: the budget is unbounded, memory is bounded by the capacity
            raise MemoryBudgetExceeded("df-pn", exc.positions, limit) from None

    return Oracle(BDDL_STRATEGY, black_wins)


def positional_oracle(model, limit: int, searched=None, core: str | None = None) -> Oracle:
    """The positional solver (the minimax, `PositionalSolver`, or the core's `CorePgLeafSearch`
    where `core_takes`) or df-pn on the positional rules (`PositionalProofNumberSearch`, or the
    core's `CorePositionalProofNumberSearch` that decided the game): the same two questions,
    `decide` and `refutation`, each answered in the search's own order."""
    from bddl.engines.compiled.leaf import CorePgLeafSearch
    from bddl.engines.compiled.pg_pns import CorePositionalProofNumberSearch
    from bddl.engines.positional import PositionalSolver, SearchBudgetExceeded
    from bddl.engines.positional_pns import PositionalProofNumberSearch

    cap = max(1, limit // PG_ENTRY_BYTES)
    solver: PositionalSolver | PositionalProofNumberSearch | CorePgLeafSearch | CorePositionalProofNumberSearch
    if isinstance(searched, (PositionalSolver, PositionalProofNumberSearch)):
        solver = searched
        # the questions to come may add `cap` positions to what the search stored
        solver.engine.max_positions = solver.positions + cap
    elif isinstance(searched, CorePositionalProofNumberSearch):
        # the core's df-pn, its table the Python df-pn's wherever no collection was forced: the
        # certificate is the Python route's, byte for byte
        solver = searched
        solver.max_positions = solver.positions + cap
    elif isinstance(searched, CorePgLeafSearch):
        solver = searched  # its table bounded by the search's share, replacing past it
    elif core_takes(model, core, positional=True):
        solver = CorePgLeafSearch(model.pg, core_table_mb(limit))
    else:
        solver = PositionalSolver(model.pg, max_positions=cap)
    name = "df-pn" if isinstance(solver, (PositionalProofNumberSearch, CorePositionalProofNumberSearch)) else "positional solver"

    def asked(question, *args):
        try:
            return question(*args)
        except SearchBudgetExceeded:
            raise MemoryBudgetExceeded(f"the {name}'s table of more than {cap:,} positions", cap * PG_ENTRY_BYTES, limit) from None

    def own_move(position: Position, black_wins: bool) -> Position | None:
        """The solver's own move, the first in its order of claims that keeps the claim:
        its search has refuted the claims before it, so this costs table lookups where
        another order would cost a search per move tried and rejected."""
        if black_wins:
            wins, cell = asked(solver.decide, position.black, position.white)
            return None if not wins or cell is None else Position(position.black | 1 << cell, position.white, position.ply + 1)
        cell = asked(solver.refutation, position.black, position.white)
        return None if cell is None else Position(position.black, position.white | 1 << cell, position.ply + 1)

    return Oracle(name, lambda position: asked(solver.decide, position.black, position.white)[0], own_move)


def qbf_chooser(model, solver: str = "default", timeout: float | None = None):
    """Black's moves from the QBF route, a solve per position Black reaches (as
    `bddlc validate` plays them): `compiler.solving.strategy.SolverStrategy`,
    one for both languages.  A solve without a verdict raises its StrategyUnknown."""
    from ..solving.strategy import SolverStrategy

    from .produce import Play

    rules: GameRules = model.rules
    strategy = SolverStrategy(model, solver=solver, timeout=timeout)

    def choose(position: Position, plays: list[Play]) -> Play | None:
        move = strategy(position, rules.depth - position.ply)
        if move is None:
            return None
        return next((p for p in plays if (p.after.black, p.after.white) == (move.after.black, move.after.white)), None)

    return choose


def rules_oracle(rules: GameRules) -> Oracle:
    """The rules' own plain minimax (`bddl.rules.RulesMinimax`), one table for every question (small games, tests)."""
    return Oracle("rules minimax", RulesMinimax(rules).black_wins)
