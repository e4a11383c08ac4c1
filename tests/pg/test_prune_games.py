"""Each preprocessing step of section 4.1 keeps the answer: the explicit
solver decides the game before and after, on random Hex positions, random
graphs with borders and random winning sets, at odd and even depths."""

from __future__ import annotations

import random

import pytest
from helpers.hexgames import random_graph, random_hex, random_sets

from bddl.pg.prune import (
    as_set_game,
    claimed_cells,
    contract,
    drop_long_sets,
    drop_non_minimal,
    far_cells_to_white,
    prune_graph,
    prune_sets,
    useless_to_white,
)
from bddl.engines.positional import solve

GRAPH_STEPS = {
    "far_cells_to_white": far_cells_to_white,
    "contract": contract,
    "prune_graph": prune_graph,
    "as_set_game": as_set_game,
}
SET_STEPS = {
    "claimed_cells": claimed_cells,
    "drop_long_sets": drop_long_sets,
    "drop_non_minimal": drop_non_minimal,
    "useless_to_white": useless_to_white,
    "prune_sets": prune_sets,
}


def _black_wins(game) -> bool:
    return solve(game).black_wins


@pytest.mark.parametrize("step", GRAPH_STEPS)
@pytest.mark.parametrize("kind", ["hex", "graph"])
def test_graph_step_keeps_the_answer(step, kind):
    rng = random.Random(hash((step, kind)) % 1000)
    answers, changed = set(), 0
    for _ in range(120):
        game = random_hex(rng, 4, 9) if kind == "hex" else random_graph(rng, 9, 9)
        after = GRAPH_STEPS[step](game)
        assert _black_wins(after) == _black_wins(game), (step, game)
        answers.add(_black_wins(game))
        changed += after != game
    assert answers == {True, False} and changed >= 30


@pytest.mark.parametrize("step", SET_STEPS)
def test_set_step_keeps_the_answer(step):
    rng = random.Random(len(step))
    answers, changed = set(), 0
    for _ in range(150):
        game = random_sets(rng, 9, 9)
        after = SET_STEPS[step](game)
        assert _black_wins(after) == _black_wins(game), (step, game)
        answers.add(_black_wins(game))
        changed += after != game
    assert answers == {True, False} and changed >= 30


def test_maker_maker_games_are_refused():
    rng = random.Random(5)
    game = random_sets(rng)
    from dataclasses import replace

    maker_maker = replace(game, white_wins=(frozenset({0}),))
    for step in (useless_to_white, claimed_cells):
        with pytest.raises(ValueError, match="Maker-Breaker"):
            step(maker_maker)
