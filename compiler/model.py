"""Which language a game is written in, and opening it: the one place that decides.

`open_model` reads the paths and returns the language's adapter (`compiler.languages`:
`BddlModel` or `PgModel`), a `compiler.game_model.GameModel` that every route and command asks
the same questions.  A positional game stands alone; anything else is a BDDL domain followed by
its problem.  The file's sections decide (`file_kind`), its suffix only where they do not: public
benchmark sets name BDDL Hex problems `*.pg`, and a positional game may be saved under any name.
Nothing else in bddlc asks which language a game is (tests/test_language_seam.py counts).
"""

from __future__ import annotations

import os
import re
from typing import Sequence

from bddl.pg.reader import SECTIONS as PG_READER_SECTIONS
from bddl.validate import Limits

from .game_model import EncodingDoesNotFit, Formula, GameModel, ModelPathsError
from .languages import BddlModel, PgModel, bddl_model, game_at, pg_model, play_of_cell, play_of_move, problem_at

__all__ = ["BDDL", "PG", "BddlModel", "EncodingDoesNotFit", "Formula", "GameModel",
           "ModelPathsError", "PgModel", "bddl_model", "file_kind", "game_at", "is_positional_game", "language_of",
           "open_model", "pg_model", "play_of_cell", "play_of_move", "problem_at", "require_files", "sections_of"]

BDDL, PG = "bddl", "pg"
PG_SUFFIX = ".pg"


# The sections of each kind of file (bddl/grammar.lark, bddl/pg/reader.py); no name is in two.
PG_SECTIONS = frozenset(PG_READER_SECTIONS)
PROBLEM_SECTIONS = frozenset(("boardsize", "init", "depth", "blackgoals", "whitegoals"))
DOMAIN_SECTIONS = frozenset(("blackactions", "whiteactions"))
_SECTION = re.compile(r"(?:^|\s)#([A-Za-z_]+)")


def sections_of(path) -> tuple[str, ...]:
    """The `#section` names the file uses, in order, comments ('%' to the end of the line) left out;
    () when the file cannot be read (the reader then says why, with its own diagnostic)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return ()
    found: list[str] = []
    for line in text.splitlines():
        found.extend(name.lower() for name in _SECTION.findall(line.split("%", 1)[0]))
    return tuple(dict.fromkeys(found))


def file_kind(path) -> str | None:
    """"pg", "problem" or "domain" when the file's sections are those of one kind only; None otherwise
    (no sections, unknown ones, or a mix), where the suffix decides and the reader reports what is wrong."""
    found = set(sections_of(path))
    kinds = [kind for kind, names in ((PG, PG_SECTIONS), ("problem", PROBLEM_SECTIONS), ("domain", DOMAIN_SECTIONS))
             if found & names]
    return kinds[0] if len(kinds) == 1 and found <= PG_SECTIONS | PROBLEM_SECTIONS | DOMAIN_SECTIONS else None


def is_positional_game(path) -> bool:
    """Is the file a positional game?  Its sections say so, or, where they say nothing clear, a `.pg` suffix."""
    kind = file_kind(path)
    return kind == PG if kind is not None else str(path).lower().endswith(PG_SUFFIX)


def _neither(path) -> str:
    found = sections_of(path)
    listed = ", ".join(f"#{name}" for name in found) if found else "no #sections"
    return (f"{path} is neither a positional game nor a BDDL problem (it has {listed}): a positional game has "
            "#times, #blackturns and #positions; a BDDL problem #boardsize, #init, #depth, #blackgoals and #whitegoals")


def language_of(paths: Sequence[str]) -> str:
    """"pg" for one positional game, "bddl" for a domain and a problem; ModelPathsError otherwise."""
    pg = [p for p in paths if is_positional_game(p)]
    if pg:
        if len(paths) != 1:
            other = next(p for p in paths if p != pg[0])
            if file_kind(pg[0]) is None:  # named .pg, but its sections are neither language's
                raise ModelPathsError(_neither(pg[0]))
            raise ModelPathsError(f"a positional game ({pg[0]}) stands alone: give it without {other}")
        return PG
    if len(paths) == 1:
        kind = file_kind(paths[0])
        if kind == "problem":
            raise ModelPathsError(f"{paths[0]} is a BDDL problem: give a DOMAIN and a PROBLEM file, its domain first")
        if kind == "domain":
            raise ModelPathsError(f"{paths[0]} is a BDDL domain: give a DOMAIN and a PROBLEM file, a problem after it")
        if sections_of(paths[0]):
            raise ModelPathsError(_neither(paths[0]))
    if len(paths) != 2:
        raise ModelPathsError("give a DOMAIN and a PROBLEM file, or a positional game GAME.pg")
    return BDDL



def require_files(paths: Sequence[str]) -> None:
    """A path that is no file gets the reader's own diagnostic (exit 1): no such file, with the file
    meant, or a folder, with the games in it; before the paths are classified, which would only
    say that they name no game."""
    from bddl.parser import read_source

    for path in paths:
        if not os.path.isfile(path):
            read_source(path)


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
    require_files(paths)
    if language_of(paths) == PG:
        return PgModel.open(paths[0], depth=depth, limits=limits)
    return BddlModel.open(paths[0], paths[1], depth=depth, default_depth=default_depth, limits=limits,
                          initial_state=initial_state)
