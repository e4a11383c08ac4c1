"""The encodings bddlc offers, by name.

Each takes (domain, problem, depth) and returns an `Encoding` whose circuit
is true iff Black has a winning strategy of at most `depth` plies.  Every
encoding is held to the explicit game semantics by the same differential
tests, so adding one here is enough to have it checked.
"""

from __future__ import annotations

import importlib
from typing import Callable

from bddl.ast import Domain, Problem


def _lazy(module: str, function: str) -> Callable:
    """An encoder that imports its module on first use, so that a compile
    loads only the encoding it runs (start-up time is most of a compile)."""

    def build(domain: Domain, problem: Problem, depth: int | None = None):
        from .memory_estimates import guard_encoding

        guard_encoding(module, domain, problem, depth)  # the board-sized ones refuse past the memory limit
        return getattr(importlib.import_module(f".{module}", __package__), function)(domain, problem, depth)

    build.__name__ = function
    return build


# The encoding named "auto" picks one of the others by the kind of game.  Not
# to be confused with the solver portfolio of the same name
# (`compiler.solving.qbf.solver_programs.RACING_PORTFOLIO`), which runs two solvers.
AUTO_ENCODING = "auto"


def _encode_by_game_kind(domain: Domain, problem: Problem, depth: int | None = None):
    """The encoding solvers finish most often on this game: the corrective
    encoding for a claiming game (positional games, Connect-4), the explicit
    one for anything else."""
    return ENCODINGS[auto_choice(domain, problem)](domain, problem, depth)


def auto_choice(domain: Domain, problem: Problem) -> str:
    """The encoding "auto" stands for on this game.  Asked before any encoding
    work, so that the memory guard names the encoding that would be built.

    Telling a claiming game grounds every move and goal once, which on a
    board far past the memory limit is itself too much: that grounding (the
    size of one ply of the explicit encoding) is estimated first and refused
    past the limit (`MemoryBudgetExceeded`, exit status 3) without starting.
    Otherwise the encoding chosen is the one the guard names when it is built."""
    from .corrective import applicable
    from .memory_estimates import guard_grounding

    guard_grounding(domain, problem, "to choose the encoding auto stands for")
    return "corrective" if applicable(domain, problem) else "explicit"


ENCODINGS: dict[str, Callable] = {
    "lifted": _lazy("lifted", "encode_compact"),
    "paper": _lazy("lifted", "encode"),
    "explicit": _lazy("explicit", "encode"),
    "corrective": _lazy("corrective", "encode"),
    AUTO_ENCODING: _encode_by_game_kind,
}
DEFAULT_ENCODING = "lifted"
# What `bddlc solve` (and everything built on it) uses unless told otherwise:
# the configuration that decides the most benchmark instances in the time
# limit (docs/benchmarks.md has the measurements behind this choice).
SOLVE_ENCODING = AUTO_ENCODING
SOLVE_TSEITIN = {"polarity": True, "placement": "early"}

DESCRIPTIONS = {
    "lifted": "the paper's lifted encoding made smaller (0-based indices, shared offsets, ...)",
    "paper": "the lifted encoding exactly as in the BDDL paper (section 4)",
    "explicit": "explicit board: ground moves in binary, the board as gates per cell and step",
    "corrective": "claiming games only (a move claims an open cell, perhaps once given cells are taken): clauses after Mayer-Eichberger and Saffidine",
    AUTO_ENCODING: "corrective for claiming games, explicit for the rest (what bddlc solve uses)",
}


def applicable_encodings(domain: Domain, problem: Problem) -> list[str]:
    """The encodings that can compile this game, "auto" left out (it is one
    of the others): everything but "corrective" for a game that is not a claiming game."""
    from .corrective import applicable

    return [name for name in ENCODINGS if name != AUTO_ENCODING and (name != "corrective" or applicable(domain, problem))]


def encoding_name(compiled, requested: str) -> str:
    """The encoding a compiled formula really is ("auto" resolves to one of the others)."""
    return getattr(compiled, "name", requested)


def encode(domain: Domain, problem: Problem, depth: int | None = None, encoding: str = DEFAULT_ENCODING):
    try:
        build = ENCODINGS[encoding]
    except KeyError:
        raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}") from None
    return build(domain, problem, depth)


# ------------------------------------------------------------------ Maker-Breaker positional games (Hex)
# The implicit-state encodings of Shaik, Mayer-Eichberger, van de Pol and
# Saffidine: each takes (game, depth) for a bddl.pg PositionalGame and returns
# an ImplicitEncoding (compiler/encodings/maker_breaker.py).  E*: explicit
# board (QDIMACS), L*: lifted board, S*: stateless (QCIR); *A: the winning
# sets listed, *N: a chain along the neighbour relation, ET: the transversal.
IMPLICIT_ENCODINGS: dict[str, tuple[str, str]] = {
    "ea": ("explicit_board", "encode_ea"),
    "en": ("explicit_board", "encode_en"),
    "et": ("explicit_board", "encode_et"),
    "la": ("lifted_board", "encode_la"),
    "ln": ("lifted_board", "encode_ln"),
    "sa": ("stateless", "encode_sa"),
    "sn": ("stateless", "encode_sn"),
}
IMPLICIT_DESCRIPTIONS = {
    "ea": "Maker-Breaker: explicit board, the winning sets listed (Hex: every minimal chain)",
    "en": "Maker-Breaker with borders (Hex): explicit board, a witness chain along the neighbours",
    "et": "Hex: explicit board, the transversal goal (White's borders stay apart)",
    "la": "Maker-Breaker: lifted board (a universal symbolic cell), the winning sets listed",
    "ln": "Maker-Breaker with borders (Hex): lifted board, a witness chain along the neighbours",
    "sa": "Maker-Breaker: stateless (moves only), the winning sets listed",
    "sn": "Maker-Breaker with borders (Hex): stateless, a witness chain along the neighbours",
}


def encode_implicit(game, depth: int | None = None, encoding: str = "et"):
    """The positional game `game` (bddl.pg) in one of the implicit-state encodings."""
    try:
        module, function = IMPLICIT_ENCODINGS[encoding.lower()]
    except KeyError:
        raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(IMPLICIT_ENCODINGS)}") from None
    return getattr(importlib.import_module(f"compiler.encodings.{module}"), function)(game, depth)


# The encodings of `.pg` positional games: each takes a `bddl.pg.game.PositionalGame`
# (docs/encoding.md, "Positional games"); "corplus" is another name for "cor+".
POSITIONAL_ENCODINGS = {
    "cor+": "cor_plus",
    "corplus": "cor_plus",
    "corrective": "corrective_pg",
    **{name: module for name, (module, _) in IMPLICIT_ENCODINGS.items()},
}
POSITIONAL_ENCODING = "cor+"  # what `bddlc GAME.pg` and `bddlc solve GAME.pg` use (docs/benchmarks.md)
POSITIONAL_DESCRIPTIONS = {
    "cor+": ".pg games only: COR+, the polished encoding of Mayer-Eichberger and Saffidine, clauses (1)-(13) (also: corplus)",
    "corrective": "on a .pg game: COR, the corrective encoding above through the same core",
    **IMPLICIT_DESCRIPTIONS,
}


# -- one registry over both languages -----------------------------------------
# The names above, by the language they compile; "corrective" is in both (COR
# is the corrective encoding through the same core).  `compiler.model.GameModel`
# asks these what fits a game.

PG_ALIASES = {"corplus": "cor+"}


def bddl_encoding_names() -> list[str]:
    """The encodings of BDDL models, "auto" left out."""
    return [name for name in ENCODINGS if name != AUTO_ENCODING]


def pg_encoding_names() -> list[str]:
    """The encodings of positional games, the aliases left out."""
    return [name for name in POSITIONAL_ENCODINGS if name not in PG_ALIASES]


def all_encoding_names() -> list[str]:
    """Every name --encoding takes (both languages, the aliases and "auto")."""
    return sorted(set(ENCODINGS) | set(POSITIONAL_ENCODINGS))


def canonical_encoding(name: str) -> str:
    return PG_ALIASES.get(name, name)


def encoding_language(name: str, preferred: str) -> str | None:
    """The language `name` compiles ("bddl" or "pg"; `preferred` when both), None for no encoding."""
    languages = [language for language, table in (("bddl", ENCODINGS), ("pg", POSITIONAL_ENCODINGS)) if name in table]
    if not languages:
        return None
    return preferred if preferred in languages else languages[0]


def pg_encoding_misfit(game, name: str) -> str | None:
    """Why the positional encoding `name` cannot compile `game` (None: it can).
    Cheap: the same conditions the encodings raise on, asked before any work."""
    hex_goal = game.graph is not None and not game.black_wins
    if name in ("cor+", "corrective"):
        return "it needs Black's winning sets, and this game's goal is a border-to-border chain (Hex)" if hex_goal else None
    if not game.maker_breaker:
        return "it is for Maker-Breaker games, and White has winning sets here"
    if game.first_moves is not None:
        return "it does not take a #firstmoves restriction"
    if name in ("en", "ln", "sn", "et") and game.graph is None:
        return "it needs a graph with two borders (#neighbours)"
    if name == "et":
        from bddl.pg.hex import white_borders

        try:
            white_borders(game)
        except ValueError:
            return "it needs a whole Hex board (cells a1.. with Hex neighbours): White's borders come from it"
    return None


def pg_solve_encoding(game) -> str:
    """The encoding `bddlc solve` (and `bddlc GAME.pg`) uses for a positional game when not told:
    COR+ for a game of winning sets, ET on a Hex board, EN on another graph with borders
    (measured: docs/benchmarks.md, "Positional games" and "Hex")."""
    if game.graph is None or game.black_wins:
        return POSITIONAL_ENCODING
    from bddl.pg.hex import hex_coordinates

    return "et" if hex_coordinates(game) is not None else "en"


def encode_positional(game, encoding: str = POSITIONAL_ENCODING):
    """A positional game's formula: `cnf`/`qdimacs()`, `circuit` (None for COR+), `first_move`."""
    if encoding in IMPLICIT_ENCODINGS:
        return encode_implicit(game, encoding=encoding)
    try:
        module = POSITIONAL_ENCODINGS[encoding]
    except KeyError:
        raise ValueError(f"encoding {encoding!r} does not compile .pg games; choose from {', '.join(POSITIONAL_ENCODINGS)}") from None
    return importlib.import_module(f".{module}", __package__).encode(game)
