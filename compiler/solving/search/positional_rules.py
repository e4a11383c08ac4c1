"""A positional BDDL model searched by the positional games' rules: `bddlc search --positional-rules`.

The BDDL engines (`bddl.engines.minimax`, `bddl.engines.pns`) know nothing of a game but its
moves and goal tests, so on a positional model (Harary's tic-tac-toe, Hex
with explicit winning sets) they look at every claim.  The positional solver
(`bddl.engines.positional`, and df-pn on it, `bddl.engines.positional_pns`) knows the rules' cuts: a
completing claim is played at once, a lone threat must be blocked, two
threats win, a position where Black cannot complete a goal with the claims it
has left is lost, only the cells relevant to Black's goals are claimed in a
Maker-Breaker game, and symmetric positions are one.  This module reads the
model as a positional game (`compiler.encodings.pg_export`, the same reading
as `bddlc export`) and lets that solver decide it, as race patterns are
df-pn's knowledge for Breakthrough.

It is used only where the two languages' rules give the same answer: a model
that is not a positional game, or where White would move on a full board
within the depth (BDDL gives Black the win there, the `.pg` game does not),
is left to the BDDL engines.  The answer is then the BDDL game's, which the
tests check against the minimax on the suite's positional models and random
ones; Black's first claim is reported as the BDDL move that makes it.
"""

from __future__ import annotations

from bddl.ast import Domain, Problem
from bddl.errors import BddlSemanticError
from bddl.game import BLACK, Game, Move
from bddl.pg.game import PositionalGame
from bddl.engines.minimax import DEFAULT_MAX_POSITIONS, SearchResult

from ...encodings.pg_export import positional_game, semantics_differ


class RulesDoNotFit(ValueError):
    """The positional rules cannot decide this model; the message says why."""


def not_searchable(domain: Domain, problem: Problem, depth: int) -> str | None:
    """Why the positional rules cannot decide this model (None: they can)."""
    found = reading(domain, problem, depth)
    return found if isinstance(found, str) else None


def reading(domain: Domain, problem: Problem, depth: int) -> PositionalGame | str:
    """The model as a positional game with BDDL's answer, or why there is none.

    Reading it grounds every move and goal once, as choosing the encoding
    `auto` stands for does, so it is refused past the memory limit by the same
    estimate (`MemoryBudgetExceeded`) before anything is grounded: a
    1000x1000 board would otherwise keep a search member busy for minutes."""
    from ...encodings.memory_estimates import guard_grounding

    guard_grounding(domain, problem, "to read it as a positional game")
    try:
        game = positional_game(domain, problem, depth)
    except BddlSemanticError as exc:
        return exc.diagnostics[0].message
    if semantics_differ(game):
        return "White would move on a full board within the depth, which BDDL counts as a Black win and the positional rules do not"
    return game


def positional_reading(game: Game, depth: int) -> PositionalGame | None:
    """The BDDL game read as a positional game at `depth`, or None where the rules do not fit."""
    pg = reading(game.domain, game.problem, depth)
    return None if isinstance(pg, str) else pg


def search_positional(
    game: Game, depth: int | None = None, algorithm: str = "minimax", max_positions: int = DEFAULT_MAX_POSITIONS,
    core: str | None = None, table_mb: float | None = None,
) -> SearchResult:
    """Decide the BDDL game by the positional solver (`algorithm`: "minimax", its
    depth-first search, or "pns", df-pn); raises `SearchBudgetExceeded`, and
    `RulesDoNotFit` where `not_searchable` gives a reason.  The minimax is the compiled core's
    (`.core.search_full`: the same search, verdict and positions as the Python solver's) wherever
    it is built and takes the game, unless `core` is "python"; so is df-pn (`.core.search_pg_pns`)."""
    from bddl.engines.positional_pns import solve_pns
    from bddl.engines.positional import solve

    from .core import compiled_can_search, search_full, search_pg_pns

    depth = game.problem.depth if depth is None else depth
    pg = reading(game.domain, game.problem, depth)
    if isinstance(pg, str):
        raise RulesDoNotFit(pg)
    if algorithm == "pns" and core != "python" and compiled_can_search(pg):
        result = search_pg_pns(pg, max_positions=max_positions, table_mb=table_mb)
    elif algorithm == "pns":
        result = solve_pns(pg, max_positions=max_positions)
    elif core != "python" and compiled_can_search(pg):
        result = search_full(pg, max_positions=max_positions, table_mb=table_mb)
    else:
        result = solve(pg, max_positions=max_positions)
    first_move = None
    if result.black_wins and game.black_first:
        first_move = bddl_move(game, result.first_move)
    return SearchResult(result.black_wins, depth, first_move, result.positions, result.seconds)


def bddl_move(game: Game, claim: int | None) -> Move:
    """Black's first move in BDDL terms: the move that claims the cell, or,
    where Black owns a winning set before play and the solver names no claim,
    the first move after which Black's goal holds."""
    moves = game.moves(game.initial, BLACK)
    if claim is not None:
        bit = 1 << claim  # the export numbers the cells row by row, as the engine numbers its bits
        for move in moves:
            if move.state.black == game.initial.black | bit and move.state.white == game.initial.white:
                return move
    for move in moves:
        if game.won(move.state, BLACK):
            return move
    raise AssertionError(f"the positional solver's first claim {claim} is no BDDL move of Black's")
