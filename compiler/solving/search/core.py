"""Which core searches a game, and the plain minimax on either (`bddlc search --core --knowledge`).

Two implementations of the search exist for `.pg` games: the Python engines
(`bddl.engines.positional`, with all of the positional rules' knowledge, and
`bddl.engines.positional_plain`, with none) and the compiled core (`bddl.engines.compiled`: the
same two searches, the same trees in the same order; docs/engines-core.md).  On BDDL games the
minimax has both (`bddl.engines.minimax.search`, the core's `solve_bddl`).  The compiled core is
the default wherever it is built and can do what was asked (the race's search member too); where
it cannot, the Python engines answer, and a note says why when the compiled core was a candidate.
Asked for explicitly where it cannot answer, it is refused: a usage error that says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.engines.minimax import DEFAULT_MAX_POSITIONS

CORES = ("compiled", "python")
KNOWLEDGE = ("full", "threats", "none")


@dataclass(frozen=True)
class CoreChoice:
    core: str  # "compiled" or "python"
    refusal: str | None = None  # why --core compiled cannot be had (a usage error)
    note: str | None = None  # why the Python core answers where the compiled one was a candidate


def choose_core(model, *, asked: str | None, knowledge: str, algorithm: str,
                positional_rules: bool = False) -> CoreChoice:
    """The core that searches `model` (a `compiler.game_model.GameModel`) with these options.  A
    certificate adds no refusal: the same core writes it (`compiler.certificates.oracles`: the
    core's searchers wherever the core takes the game)."""
    from bddl.engines import compiled

    why = compiled.why_unavailable()
    if why is None:
        why = model.core_refusal(positional_rules=positional_rules)
    if why is None and algorithm not in model.core_algorithms:
        has = " and ".join({"minimax": "the minimax", "pns": "df-pn", "ppn2": "PPN²'s search leaf jobs"}[a] for a in model.core_algorithms)
        why = f"the compiled core has only {has} so far, not --algorithm {algorithm}"
    if why is None and positional_rules and algorithm not in ("minimax", "pns", "ppn2"):  # ppn2: its search leaf jobs
        why = f"the compiled core runs the positional rules' minimax and df-pn only, not --algorithm {algorithm}"
    if why is None:
        return CoreChoice("python") if asked == "python" else CoreChoice("compiled")
    if asked == "compiled":
        return CoreChoice("python", refusal=f"--core compiled: {why}")
    candidate = knowledge != "full" and asked is None
    return CoreChoice("python", note=f"searched by the Python core: {why}" if candidate else None)


def knowledge_refusal(model, *, knowledge: str, algorithm: str) -> str | None:
    """Why --knowledge threats or none cannot go with these options (None: it can)."""
    if knowledge == "full":
        return None
    return model.knowledge_refusal(knowledge=knowledge, algorithm=algorithm)


def table_mb_for(max_memory_mb: float) -> float:
    """The compiled core's table bound under --max-memory: a quarter of it, so that the rest of
    the process (the model, the Python side) keeps its room."""
    return max_memory_mb / 4


def search_plain(game, *, core: str, knowledge: str = "none", max_positions: int = DEFAULT_MAX_POSITIONS,
                 table_mb: float | None = None):
    """The plain minimax on the `.pg` game by `core` (with the one-move threats where `knowledge`
    is "threats"): a `PgSearchResult`-like answer (black_wins, depth, first_move, positions,
    seconds, solver); raises `SearchBudgetExceeded`."""
    threats = knowledge == "threats"
    if core == "compiled":
        from bddl.engines import compiled

        return compiled.solve_plain(game, max_positions, compiled.DEFAULT_TABLE_MB if table_mb is None else table_mb, threats)
    from bddl.engines.positional_plain import solve_plain

    return solve_plain(game, max_positions, threats)


def compiled_can_search(game) -> bool:
    """Can the compiled core run the positional solver's search on this `.pg` game?  (Built, and
    the game within its bitboards.)"""
    from bddl.engines import compiled

    return compiled.available() and compiled.unsupported(game) is None


def default_table_mb(table_mb: float | None) -> float:
    """The core's table bound for a search: the one asked, else a quarter of the process's memory
    limit (`table_mb_for`), at most the core's default."""
    from bddl.budget import MB, memory_limit
    from bddl.engines import compiled

    return min(compiled.DEFAULT_TABLE_MB, table_mb_for(memory_limit() / MB)) if table_mb is None else table_mb


def search_full(game, *, max_positions: int = DEFAULT_MAX_POSITIONS, table_mb: float | None = None, keep: bool = False):
    """The positional solver's search (all its knowledge) by the compiled core, its table within
    `table_mb` (default: a quarter of the process's memory limit, at most the core's default).
    `keep`: on a searcher kept for the certificate's questions (`compiled.leaf.decide_pg`: the
    same search, the searcher the result's solver)."""
    from bddl.engines import compiled

    table_mb = default_table_mb(table_mb)
    if keep:
        from bddl.engines.compiled.leaf import decide_pg

        return decide_pg(game, max_positions, table_mb)
    return compiled.solve_full(game, max_positions, table_mb)


def search_pg_pns(game, *, max_positions: int = DEFAULT_MAX_POSITIONS, table_mb: float | None = None):
    """df-pn on the positional rules (`bddl.engines.positional_pns.solve_pns`) by the compiled
    core: the same verdict, first move and positions wherever its table held its capacity
    (docs/engines-core.md), its table within `table_mb` (default: a quarter of the process's
    memory limit, at most the core's default).  The result's `solver` answers a certificate's
    questions from the table (`decide`, `refutation`)."""
    from bddl.engines.compiled.pg_pns import solve_pns

    table_mb = default_table_mb(table_mb)
    return solve_pns(game, max_positions=max_positions, table_mb=table_mb)


def bddl_compiled_can_search(game, depth: int) -> bool:
    """Can the compiled core run the minimax on this BDDL game (a `bddl.game.Game`) to `depth`
    plies?  (Built, and the board within its bitboards.)"""
    from bddl.engines import compiled

    return compiled.available() and compiled.bddl_unsupported(game, depth) is None


def search_bddl(game, depth: int, *, max_positions: int = DEFAULT_MAX_POSITIONS, table_mb: float | None = None,
                keep: bool = False):
    """`bddl.engines.minimax.search` by the compiled core: the same verdict, first move and
    positions (docs/engines-core.md), its table within `table_mb` (default: a quarter of the
    process's memory limit, at most the core's default).  `keep`: on a searcher kept for the
    certificate's questions (`compiled.leaf.decide_bddl`, the result's engine)."""
    from bddl.engines import compiled

    table_mb = default_table_mb(table_mb)
    if keep:
        from bddl.engines.compiled.leaf import decide_bddl

        return decide_bddl(game, depth, max_positions, table_mb)
    return compiled.solve_bddl(game, depth, max_positions, table_mb)


def search_bddl_pns(game, depth: int, *, max_positions: int = DEFAULT_MAX_POSITIONS, table_mb: float | None = None,
                    race_patterns: bool = False):
    """`bddl.engines.pns.search_pns` by the compiled core (with the race patterns where
    `race_patterns`): the same verdict, first move and positions (docs/engines-core.md), its table
    within `table_mb` (default: a quarter of the process's memory limit, at most the core's
    default)."""
    from bddl.engines import compiled

    table_mb = default_table_mb(table_mb)
    return compiled.solve_bddl_pns(game, depth, max_positions, table_mb, race_patterns=race_patterns)


def search_with_core(model, *, core: str, knowledge: str = "full", table_mb: float | None = None,
                     algorithm: str = "minimax", max_positions: int = DEFAULT_MAX_POSITIONS,
                     race_patterns: bool = False, positional_rules: bool = False, parallel=None, keep: bool = False):
    """`compiler.solving.search.outcome.search_model` with the choice of knowledge and core made by
    `choose_core`: the plain minimax (knowledge "threats" or "none", which `knowledge_refusal`
    let through) by that core, anything else by `search_model` on that core."""
    from .outcome import search_model

    if knowledge != "full":
        return model.search_plain(core=core, knowledge=knowledge, max_positions=max_positions, table_mb=table_mb)
    return search_model(model, algorithm=algorithm, max_positions=max_positions, race_patterns=race_patterns,
                        positional_rules=positional_rules, parallel=parallel, core=core, table_mb=table_mb, keep=keep)
