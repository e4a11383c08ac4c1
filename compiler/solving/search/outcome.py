"""The explicit engines on a game of either language: what `bddlc search` runs.

`search_model` asks the model's adapter (`GameModel.search`), which runs the engine of its
language that was asked for (a BDDL model: the minimax, df-pn with race patterns, the
positional rules on a positional model; a `.pg` game: the positional solver, df-pn on its
rules; either: PPN²).  Every engine answers a `bddl.engines.result.SearchResult`; the adapter
turns it into one `SearchOutcome`, its first move a `bddl.rules.Play`: a win at once where Black
has one, whatever the engine named (`bddl.at_once`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bddl.at_once import soonest
from bddl.engines.minimax import DEFAULT_MAX_POSITIONS
from bddl.rules import Play

from .engines import RULES_ENGINES

if TYPE_CHECKING:
    from ...game_model import GameModel

# the languages' own engines (each adapter runs its language's), then those written over the rules alone
ALGORITHMS = ("minimax", "pns", "ppn2", *RULES_ENGINES)


class KnowledgeDoesNotApply(ValueError):
    """An engine's knowledge asked for where it cannot apply (a usage error): the message says why."""


@dataclass(frozen=True)
class SearchOutcome:
    black_wins: bool
    depth: int
    first_move: Play | None  # Black's winning first move, when Black moves first and wins
    positions: int
    seconds: float
    positional_rules: bool  # the positional solver decided it
    race_patterns: bool  # df-pn used race patterns
    notes: tuple[str, ...] = ()  # why a knowledge asked for was not used
    # the engine that answered, with its table, where a certificate can ask it more (`bddlc search
    # --certificate`: the strategist's moves are then the ones this search proved; on a BDDL game, the
    # minimax's or df-pn's, not the positional rules' nor PPN2's, whose positions are not the game's)
    solver: object = field(default=None, compare=False, repr=False)
    decided_by: str = ""  # what the report adds after the time: " (by the positional rules)" on a BDDL model


def refusal(model: GameModel, *, algorithm: str, race_patterns: bool, positional_rules: bool) -> str | None:
    """Why these options cannot go together on this game (None: they can)."""
    if algorithm in RULES_ENGINES and (race_patterns or positional_rules):
        option = "--race-patterns" if race_patterns else "--positional-rules"
        return f"{option} is a language's knowledge; --algorithm {algorithm} searches by the rules alone: drop {option}"
    return model.search_refusal(algorithm=algorithm, race_patterns=race_patterns, positional_rules=positional_rules)


def search_model(
    model: GameModel,
    *,
    algorithm: str = "minimax",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    race_patterns: bool = False,
    positional_rules: bool = False,
    parallel=None,
    core: str | None = None,
    table_mb: float | None = None,
    keep: bool = False,
) -> SearchOutcome:
    """Decide the game by explicit search; raises `SearchBudgetExceeded`, and
    `KnowledgeDoesNotApply` for options `refusal` names.  `parallel` (a `ppn2.Ppn2Options`, or
    None for its defaults) carries PPN²'s options for `algorithm="ppn2"` (raises its `Ppn2Failed`).
    `keep`: a certificate will ask the search more (`GameModel.search`)."""
    why = refusal(model, algorithm=algorithm, race_patterns=race_patterns, positional_rules=positional_rules)
    if why is not None:
        raise KnowledgeDoesNotApply(why)
    if algorithm in RULES_ENGINES:
        from .engines import search_by_rules

        ran = search_by_rules(model.rules, algorithm, max_positions)
        found = SearchOutcome(ran.black_wins, model.depth, ran.first_move, ran.positions, ran.seconds, False, False,
                              solver=ran.engine)
    else:
        found = model.search(algorithm=algorithm, max_positions=max_positions, race_patterns=race_patterns,
                             positional_rules=positional_rules, parallel=parallel, core=core, table_mb=table_mb, keep=keep)
    if found.black_wins and model.black_first:
        return dataclasses.replace(found, first_move=soonest(model.rules, model.rules.initial, found.first_move))
    return found


def pairing_note(game) -> tuple[str, ...]:
    """Say so when White's pairing strategy decided the positional game before any search
    (asked only where no position was searched, so the pairing is looked for again at most once)."""
    from bddl.engines.positional_rules import PositionalRules

    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    rules = PositionalRules(game, use_symmetries=False)
    if rules.white_won(w) or rules.black_won(b):
        return ()
    pairs = rules.pairing_at_start(b, w)
    if pairs is None:
        return ()
    return (f"White has a pairing strategy ({len(pairs)} pairs of open cells, every winning set of Black's holding one; "
            "White answers a claim of a paired cell with its partner): Black cannot win, whatever the depth, "
            "and no position was searched",)
