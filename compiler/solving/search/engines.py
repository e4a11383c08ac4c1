"""The engines written over the rules alone (`bddl.rules.GameRules`), the same for every language.

An engine that asks a game only what every language's rules answer (the plays from a position, who
has won, whose turn it is, the stuck rule) needs no adapter: it is registered here once, by name,
and `bddlc search --algorithm NAME`, the Python API and every language get it (docs/architecture.md,
"A new engine").  Engines that use a language's own knowledge (race patterns, the positional rules'
cuts) are run by that language's adapter instead (`GameModel.search`).

Each entry takes the rules and a budget of positions and returns the engines' one
`bddl.engines.result.SearchResult`, its `first_move` a `bddl.rules.Play` (Black's winning first
move, when Black moves first and wins); it raises `SearchBudgetExceeded` past the budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from bddl.engines.result import SearchResult
    from bddl.rules import GameRules


def _engines() -> dict[str, Callable[[GameRules, int], SearchResult]]:
    """Name -> engine (imported when asked for: a search loads only the engine it runs)."""
    from bddl.engines.depth_first import search_depth_first

    return {"depth-first": search_depth_first}


# Name -> what `bddlc search --help` says of it (one entry per engine of `_engines`).
DESCRIPTIONS: dict[str, str] = {
    "depth-first": "a plain depth-first minimax over the rules, without a table: exponential, a referee for small games",
}
RULES_ENGINES: tuple[str, ...] = tuple(DESCRIPTIONS)


def search_by_rules(rules: GameRules, algorithm: str, max_positions: int) -> SearchResult:
    """The rules engine `algorithm` on the rules."""
    return _engines()[algorithm](rules, max_positions)
