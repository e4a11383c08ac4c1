"""White's pairings within the depth as a cut of the searches (`PositionalRules.compute_cuts`):
a position where White pairs every winning set Black could still complete is lost for Black.

Two ways: on random animal positions (few plies, so the cut applies often) the minimax and
df-pn, with the cut, give the brute force's value (tests/pg/pg_random.py, which knows no
pairing), and the cut did fire in many of them (a reach guard); without the cut they give
the same values with more positions.
"""

from __future__ import annotations

import random

import pytest
from conftest import scaled
from pg_random import brute_force, random_animal_position

from bddl.engines.positional import solve
from bddl.engines.positional_pns import solve_pns
from bddl.engines.positional_rules import PositionalRules
from bddl.pg.animals import animal_game
from bddl.pg.pairing import PairingFinder

GAMES = scaled(300)


@pytest.fixture
def fired(monkeypatch) -> list[int]:
    """How many positions the rules' pairing cut decided (a list of one count)."""
    count = [0]
    exists = PairingFinder.exists

    def counted(self, black, white, ply=None):
        found = exists(self, black, white, ply)
        count[0] += found
        return found

    monkeypatch.setattr(PairingFinder, "exists", counted)
    return count


def test_exists_agrees_with_find():
    """The search's cheaper question gives `find`'s answer (found or not) on random positions."""
    rng = random.Random(31)
    agreed = found = 0
    for _ in range(scaled(300)):
        game = random_animal_position(rng)
        finder = PairingFinder(game, within_depth=True)
        b, w = game.mask(game.black_initials), game.mask(game.white_initials)
        for ply in range(game.depth):
            assert finder.exists(b, w, ply) == (finder.find(b, w, ply) is not None), (game, ply)
            agreed += 1
            found += finder.exists(b, w, ply)
    assert 0 < found < agreed


def test_the_searches_with_pairings_agree_with_the_brute_force(fired):
    rng = random.Random(29)
    games_cut = 0
    for number in range(GAMES):
        game = random_animal_position(rng)
        expected = brute_force(game)
        before = fired[0]
        assert solve(game).black_wins == expected, (number, game)
        assert solve_pns(game).black_wins == expected, (number, game)
        games_cut += fired[0] > before
    assert games_cut >= GAMES // 8, f"the pairing cut fired in only {games_cut} of {GAMES} games"


def test_without_pairings_the_same_values_with_more_positions():
    rng = random.Random(30)
    fewer = 0
    for _ in range(scaled(100)):
        game = random_animal_position(rng)
        with_cut, without = solve(game), solve(game, pairings=False)
        assert with_cut.black_wins == without.black_wins
        fewer += with_cut.positions < without.positions
    assert fewer >= scaled(100) // 10


def test_the_cut_is_asked_only_where_white_answers_every_black_move():
    """A (1,2) game: Black claims twice in a row from the second turn, so no pairing applies."""
    from dataclasses import replace

    from bddl.pg.game import BLACK, WHITE

    game = animal_game("I-tetromino", 5, weak=True, moves=3)
    two = replace(game, turns=(BLACK, WHITE, BLACK, BLACK, WHITE)[: game.depth])
    rules = PositionalRules(two)
    assert rules.pairable[:3] == (False, False, False) and rules.pairings is not None
    assert PositionalRules(animal_game("I-tetromino", 5, weak=True, moves=3)).pairable == (True,) * 5


def test_hex_has_no_pairing_cut():
    """On Hex the short paths would be enumerated at every position: too dear, so not asked."""
    from bddl.pg.hex import hex_board

    assert PositionalRules(hex_board(4, 7)).pairings is None
