"""One game, whichever language it is written in: what every command opens.

`open_model` is the only place that looks at a file's suffix: a `.pg` file
is a positional game and stands alone; anything else is a BDDL domain
followed by its problem.  The `GameModel` it returns carries the game's rules
(`bddl.rules.GameRules`: moves, turns, goals, drawing, move notation, the
same for both languages) beside the language's own parsed form, which the
encodings and the engines of that language need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from bddl.rules import GameRules, bddl_rules, pg_rules
from bddl.validate import Limits

if TYPE_CHECKING:
    from bddl.errors import Diagnostic
    from bddl.loader import Model
    from bddl.pg.game import PositionalGame

BDDL, PG = "bddl", "pg"
PG_SUFFIX = ".pg"


class ModelPathsError(ValueError):
    """The paths name no game (a usage error, exit 2): the message says what to give instead."""


def language_of(paths: Sequence[str]) -> str:
    """"pg" for one `.pg` file, "bddl" for a domain and a problem; ModelPathsError otherwise."""
    pg = [p for p in paths if str(p).lower().endswith(PG_SUFFIX)]
    if pg:
        if len(paths) != 1:
            other = next(p for p in paths if p != pg[0])
            raise ModelPathsError(f"a positional game ({pg[0]}) stands alone: give it without {other}")
        return PG
    if len(paths) != 2:
        raise ModelPathsError("give a DOMAIN and a PROBLEM file, or a positional game GAME.pg")
    return BDDL


@dataclass(frozen=True)
class GameModel:
    """A game opened from the command line's paths.

    Exactly one of `bddl` (a validated domain and problem) and `pg` (a
    positional game) is set, as `language` says.  `depth` is the depth asked
    about (the file's, or the one given instead)."""

    language: str
    paths: tuple[str, ...]
    rules: GameRules
    bddl: Model | None = None
    pg: PositionalGame | None = None
    warnings: tuple[Diagnostic, ...] = ()

    @property
    def depth(self) -> int:
        return self.rules.depth

    @property
    def black_first(self) -> bool:
        return self.rules.to_move(0) == "black"


def open_model(
    paths: Sequence[str],
    *,
    depth: int | None = None,
    default_depth: int | None = None,
    limits: Limits = Limits(),
    initial_state: bool = True,
) -> GameModel:
    """Read and check the game the paths name.

    `depth` overrides the file's depth, `default_depth` stands in for a
    missing one (BDDL's `#depth`).  Raises ModelPathsError when the paths
    name no game, `bddl.errors.BddlError` (file:line:col diagnostics) when a
    file is wrong."""
    paths = tuple(str(p) for p in paths)
    if language_of(paths) == PG:
        from bddl.ast import Span
        from bddl.errors import BddlLimitError, error
        from bddl.pg.reader import load_pg_located

        read = load_pg_located(paths[0])
        game = read.game
        asked = game.depth if depth is None else depth
        if asked > limits.max_depth:
            raise BddlLimitError(error(f"a depth of {asked} is beyond the limit of {limits.max_depth}", Span(paths[0], 0, 0, 0, 0),
                                       f"a smaller depth, or raise the limit with --max-depth {asked}", code="limit"))
        rules = pg_rules(game, depth)
        return GameModel(PG, paths, rules, pg=rules.game, warnings=read.warnings)
    from bddl.game import Game
    from bddl.loader import load_model

    model = load_model(paths[0], paths[1], depth=depth, default_depth=default_depth, limits=limits, initial_state=initial_state)
    return GameModel(BDDL, paths, bddl_rules(Game(model.domain, model.problem)), bddl=model, warnings=model.warnings)
