"""The carrier pruning of the positional minimax (`Minimax.use_carriers`):
White's replies outside the carrier of a Black win already found are skipped.

Held to a brute force that knows nothing of it, two ways: the searches'
answers on random Maker-Breaker games (graphs, Hex boards, winning sets,
(p,q) turns, first-move sets), and the lemma itself: every carrier the
search keeps holds every claim of some Black win, so moving any White stone
of that board to an open cell outside the carrier leaves Black winning."""

from __future__ import annotations

import random

from conftest import scaled
from pg_random import brute_force
from test_relevance import maker_breaker_games

from bddl.engines.positional import PositionalSolver, solve
from compiler.model import game_at
from bddl.pg.game import PositionalGame
from bddl.pg.hex import hex_board


def _wins_after(game: PositionalGame, cell: int) -> bool:
    """Black claims `cell` first: does it win (at once, or by the brute force)?"""
    after = game_at(game, game.mask(game.black_initials) | 1 << cell, game.mask(game.white_initials), 1)
    return PositionalSolver(after).rules.black_won(after.mask(after.black_initials)) or brute_force(after)


def test_the_carriers_keep_every_answer():
    rng = random.Random(27)
    games = maker_breaker_games(rng)
    kinds = {"true": 0, "false": 0, "pruned": 0}
    count = scaled(500)
    for number in range(count):
        game = next(games)
        expected = brute_force(game)
        plain = solve(game, carriers=False, use_symmetries=False)
        pruned = solve(game, symmetry_after=0)
        assert plain.black_wins == pruned.black_wins == expected, (number, game)
        if pruned.first_move is not None:
            assert _wins_after(game, pruned.first_move), (number, game)
        kinds["true" if expected else "false"] += 1
        kinds["pruned"] += pruned.positions < plain.positions
    assert kinds.pop("pruned") >= 3, kinds  # small games: the next test is the one that prunes
    assert min(kinds.values()) >= count // 10, kinds


def _hex_4x4(rng: random.Random) -> PositionalGame:
    """A 4x4 Hex board with a few random stones, at depth 7 or 9."""
    marks = [rng.choices("xo.", weights=(12, 12, 76))[0] for _ in range(16)]
    text = "/".join("".join(marks[4 * r: 4 * r + 4]) for r in range(4))
    return hex_board(4, rng.choice((7, 9)), text)


def test_deeper_hex_positions_keep_their_answers_and_are_pruned():
    """4x4 Hex boards at depths where the carriers cut whole replies."""
    rng = random.Random(4)
    pruned_somewhere = 0
    count = scaled(30)
    for number in range(count):
        game = _hex_4x4(rng)
        expected = brute_force(game)
        plain = solve(game, carriers=False, use_symmetries=False)
        pruned = solve(game, use_symmetries=False)
        assert plain.black_wins == pruned.black_wins == expected, (number, game)
        if pruned.first_move is not None:
            assert _wins_after(game, pruned.first_move), (number, game)
        pruned_somewhere += pruned.positions < plain.positions
    assert pruned_somewhere >= count // 4


def test_every_kept_carrier_holds_the_claims_of_a_win():
    """The lemma: a Black-win board with carrier C stays a Black win when a
    White stone moves to an open cell outside C (same time point)."""
    rng = random.Random(9)
    games = maker_breaker_games(rng)
    checked = 0
    count = scaled(150)
    for number in range(count):
        game = _hex_4x4(rng) if number % 3 == 0 else next(games)
        solver = PositionalSolver(game, use_symmetries=False)
        solver.black_wins(game.mask(game.black_initials), game.mask(game.white_initials))
        carriers = solver.engine.carriers
        assert carriers is not None
        n = len(game.cells)
        for raw, carrier in list(carriers.items())[:12]:
            b, w = raw >> n, raw & ((1 << n) - 1)
            t = solver.rules.time_of(b, w)
            open_ = ((1 << n) - 1) & ~(b | w)
            assert brute_force(game_at(game, b, w, t)) or solver.rules.black_won(b), (game, b, w)
            for y in (c for c in range(n) if w >> c & 1):
                for x in (c for c in range(n) if open_ >> c & 1 and not carrier >> c & 1):
                    moved = (w & ~(1 << y)) | 1 << x
                    assert solver.rules.black_won(b) or brute_force(game_at(game, b, moved, t)), (game, b, w, y, x)
                    checked += 1
    assert checked >= count
