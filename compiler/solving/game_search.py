"""The explicit engines on a game of either language: what `bddlc search` runs.

A BDDL model is searched by the BDDL engines (`bddl.engines.minimax`, df-pn
in `bddl.engines.pns`), with race patterns for a Breakthrough-like game or
the positional rules for a positional model when asked; a `.pg` game by the
positional solver (`bddl.engines.positional`, df-pn in
`bddl.engines.positional_pns`), whose rules are the positional rules.  The
answer comes back as one `SearchOutcome`, its first move a `bddl.rules.Play`:
a win at once where Black has one, whatever the engine named (`bddl.at_once`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from bddl.at_once import soonest
from bddl.engines.minimax import DEFAULT_MAX_POSITIONS
from bddl.rules import Play

from ..model import GameModel, play_of_cell, play_of_move

ALGORITHMS = ("minimax", "pns", "ppn2")


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


def refusal(model: GameModel, *, algorithm: str, race_patterns: bool, positional_rules: bool) -> str | None:
    """Why these options cannot go together on this game (None: they can)."""
    if race_patterns and model.pg is not None:
        return "--race-patterns applies to Breakthrough-like BDDL games; a .pg game is searched with the positional rules: drop --race-patterns"
    if race_patterns and algorithm not in ("pns", "ppn2"):
        return "--race-patterns needs --algorithm pns or ppn2"
    if race_patterns and positional_rules:
        return "--race-patterns and --positional-rules do not go together"
    return None


def search_model(
    model: GameModel,
    *,
    algorithm: str = "minimax",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    race_patterns: bool = False,
    positional_rules: bool = False,
    parallel=None,
) -> SearchOutcome:
    """Decide the game by explicit search; raises `SearchBudgetExceeded`, and
    `KnowledgeDoesNotApply` for options `refusal` names.  `parallel` (the
    command line's arguments) carries PPN²'s options for `algorithm="ppn2"`
    (`compiler.solving.ppn2`; raises its `Ppn2Failed`)."""
    why = refusal(model, algorithm=algorithm, race_patterns=race_patterns, positional_rules=positional_rules)
    if why is not None:
        raise KnowledgeDoesNotApply(why)
    found = _search(model, algorithm, max_positions, race_patterns, positional_rules, parallel)
    if found.black_wins and model.black_first:
        return dataclasses.replace(found, first_move=soonest(model.rules, model.rules.initial, found.first_move))
    return found


def _search(model: GameModel, algorithm: str, max_positions: int, race_patterns: bool, positional_rules: bool,
            parallel) -> SearchOutcome:
    """`search_model`'s answer with the engine's own first move."""
    if model.pg is not None:
        from bddl.engines.positional import solve
        from bddl.engines.positional_pns import solve_pns

        if algorithm == "ppn2":
            from .ppn2 import search_from_args

            found = search_from_args(_parallel(parallel, max_positions), pg_game=model.pg)
        else:
            found = (solve_pns if algorithm == "pns" else solve)(model.pg, max_positions=max_positions)
        first = None if found.first_move is None else play_of_cell(model, found.first_move)
        notes = () if found.black_wins or found.positions else pairing_note(model.pg)
        return SearchOutcome(found.black_wins, model.depth, first, found.positions, found.seconds, True, False, notes,
                             found.solver)
    return _search_bddl(model, algorithm, max_positions, race_patterns, positional_rules, parallel)


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


def _parallel(parallel, max_positions: int):
    """PPN²'s options: the command line's, or its defaults (one worker per core) for a caller without one."""
    from types import SimpleNamespace

    from .ppn2 import PPN2_OPTIONS

    given = {name: getattr(parallel, name, None) for name in PPN2_OPTIONS}
    return SimpleNamespace(**given, max_memory=getattr(parallel, "max_memory", 2048), max_positions=max_positions)


def _search_bddl(model: GameModel, algorithm: str, max_positions: int, race_patterns: bool, positional_rules: bool,
                 parallel=None) -> SearchOutcome:
    from bddl.engines.minimax import search
    from bddl.engines.pns import search_pns

    from .positional_search import RulesDoNotFit, search_positional

    game = model.rules.game  # type: ignore[attr-defined]
    depth = model.depth
    notes: list[str] = []
    knowledge = None
    if race_patterns:
        from bddl.engines.race import race_knowledge

        knowledge = race_knowledge(game)
        if knowledge is None:
            notes.append("not a Breakthrough-like game; searching without race patterns")
    result = None
    if positional_rules:
        try:
            if algorithm == "ppn2":
                from .ppn2 import search_positional_from_args

                result = search_positional_from_args(_parallel(parallel, max_positions), game, depth)
            else:
                result = search_positional(game, depth, algorithm, max_positions)
        except RulesDoNotFit as exc:
            notes.append(f"{exc}; searching without the positional rules")
    by_rules = result is not None
    if result is not None and not result.black_wins and not result.positions:
        from .positional_search import positional_reading

        pg = positional_reading(game, depth)
        if pg is not None:
            notes.extend(pairing_note(pg))
    if result is None and algorithm == "ppn2":
        from .ppn2 import search_from_args

        result = search_from_args(_parallel(parallel, max_positions), bddl_game=game, depth=depth, knowledge=knowledge is not None)
    elif result is None and algorithm == "pns":
        result = search_pns(game, depth, max_positions=max_positions, knowledge=knowledge)
    elif result is None:
        result = search(game, depth, max_positions=max_positions)
    first = None if result.first_move is None else play_of_move(model, result.first_move)
    return SearchOutcome(result.black_wins, depth, first, result.positions, result.seconds, by_rules, knowledge is not None, tuple(notes),
                         result.engine)
