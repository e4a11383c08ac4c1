"""The builder's fast reading of Black's need after a claim (`pg_model.NeedAfterClaim`) against
the checker's definition (`check.black_need` on the position after it), which it replaces in the
order of a node's moves: equal for every legal play along random lines of random games, Black's
claims and White's, the parent's sets sorted once and reused across its plays."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from conftest import scaled

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "pg"))
from pg_random import random_animal_position, random_game  # noqa: E402

from bddl.rules import BLACK, WHITE, pg_rules  # noqa: E402
from compiler.certificates.check import black_need, black_set_masks  # noqa: E402
from compiler.languages.pg_model import NeedAfterClaim  # noqa: E402


@pytest.mark.parametrize("seed", range(scaled(200)))
def test_the_need_after_each_claim_is_black_need_after_it(seed):
    rng = random.Random(seed)
    game = (random_game if seed % 2 else random_animal_position)(rng)
    if game.graph is not None:
        pytest.skip("Hex: the builder asks black_need itself")
    rules = pg_rules(game)
    need = NeedAfterClaim(black_set_masks(game), len(game.cells) + 1)
    position, compared = rules.initial, 0
    ended = rules.winner_before_play() is not None
    while not ended and position.ply < rules.depth and (plays := rules.plays(position)):
        for play in plays:
            assert need(play) == black_need(game, play.after), (seed, play.text)
            compared += 1
        position = rng.choice(plays).after
        ended = rules.won(position, BLACK) or rules.won(position, WHITE)
    if not compared:
        pytest.skip("the game has no play at its start")


def test_the_random_lines_reach_both_sides_claims():
    """Not only Black's claims: the generator's games give White moves too (the branch that blocks)."""
    sides = set()
    for seed in range(20):
        game = random_animal_position(random.Random(seed))
        rules = pg_rules(game)
        sides |= {play.side for play in rules.plays(rules.initial)}
        after = rules.plays(rules.initial)
        if after:
            sides |= {play.side for play in rules.plays(after[0].after)}
    assert sides == {BLACK, WHITE}
