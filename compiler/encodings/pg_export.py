"""A positional BDDL model as a positional game (`bddl.pg`): `bddlc export`.

Which BDDL models are positional games is the corrective encoding's question
(`compiler.corrective.claiming_game` reads a claiming game off the model, or
says where it is not one); this module only asks, in addition, that every
claim of either side waits for nothing (no gravity), and then writes the
game down: one cell per board square, named row letter and column number
(`a1` is x = 1, y = 1; `b3` is x = 3, y = 2), so that positions draw as
bddlc draws BDDL boards; the plies as time points t1 .. t<depth>, alternating
from the side `#blackturn` names; the winning sets the model's goals ground
to (those the opponent's initial stones already spoil are left out, as the
corrective encoding leaves them out); the initial stones.

The two languages differ in one rule: in BDDL a side with no legal move
loses, in a `.pg` game the game is then over and Black has not won.  For a
positional model that happens only to a side to move on a full board, so the
answers agree unless White is to move on a full board within the depth
(`semantics_differ`), where BDDL gives Black the win and the `.pg` game does
not.
"""

from __future__ import annotations

import dataclasses

from bddl.ast import Domain, Problem
from bddl.errors import BddlSemanticError, Diagnostic, error, warning
from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.pg.generate import cell_name
from bddl.pg.geometry import coordinates_from_names

from .corrective import NotClaiming, claiming_game

HINT = (
    "note: a positional game lets each side claim any open cell at any time, as domains/positional.bddl does;"
    " games whose claims wait for other cells (Connect-4's gravity) cannot be written as .pg"
)


class NotPositional(BddlSemanticError):
    """A claiming game whose claims wait for other cells, or a side that cannot claim every open cell."""


def board_cell_name(x: int, y: int) -> str:
    return cell_name((y - 1, x - 1))


def positional_game(domain: Domain, problem: Problem, depth: int | None = None) -> PositionalGame:
    """The model as a positional game; raises `NotPositional`
    (located diagnostics) for a model that is not one."""
    try:
        claiming = claiming_game(domain, problem)
    except NotClaiming as exc:  # the corrective encoding's hint names an --encoding, which export has not
        raise NotPositional([dataclasses.replace(d, hint=HINT) for d in exc.diagnostics]) from None
    for side, actions, header in (
        (BLACK, domain.black_actions, domain.black_span),
        (WHITE, domain.white_actions, domain.white_span),
    ):
        claims = claiming.claims[side]
        for cell in claiming.open_cells:
            options = claims.get(cell, ())
            if not options:
                raise NotPositional(
                    error(f"not a positional game: {side} can never claim the cell ({cell[0]},{cell[1]})", header, HINT)
                )
            if all(claim.requires for claim in options):
                action = actions[options[0].action]
                raise NotPositional(
                    error(
                        f"not a positional game: {side}'s action '{action.name}' claims ({cell[0]},{cell[1]}) only once other cells are owned",
                        action.span,
                        HINT,
                    )
                )
    squares = [(x, y) for y in range(1, problem.height + 1) for x in range(1, problem.width + 1)]
    names = tuple(board_cell_name(x, y) for x, y in squares)
    index = {square: i for i, square in enumerate(squares)}
    depth = problem.depth if depth is None else depth
    first, second = (BLACK, WHITE) if problem.black_first else (WHITE, BLACK)
    return PositionalGame(
        cells=names,
        times=tuple(f"t{t}" for t in range(1, depth + 1)),
        turns=tuple(first if t % 2 == 0 else second for t in range(depth)),
        black_wins=tuple(frozenset(index[c] for c in s) for s in claiming.black_sets),
        white_wins=tuple(frozenset(index[c] for c in s) for s in claiming.white_sets),
        black_initials=frozenset(index[c] for c in claiming.black_stones),
        white_initials=frozenset(index[c] for c in claiming.white_stones),
        coordinates=coordinates_from_names(names),
    )


def semantics_differ(game: PositionalGame) -> bool:
    """Would BDDL's "no legal move loses" decide a line of this game differently?
    Only when White is to move on a full board within the time points."""
    full_at = len(game.cells) - len(game.black_initials) - len(game.white_initials)
    return full_at < game.depth and game.turns[full_at] == WHITE


def difference_warning(game: PositionalGame, problem: Problem) -> Diagnostic | None:
    if not semantics_differ(game):
        return None
    full_at = len(game.cells) - len(game.black_initials) - len(game.white_initials)
    return warning(
        f"at ply {full_at + 1} White would move on a full board: BDDL counts that as a Black win, "
        "the .pg game ends there without one",
        problem.depth_span,
        f"note: a depth of at most {full_at} {'ply' if full_at == 1 else 'plies'} means the same in both languages",
    )
