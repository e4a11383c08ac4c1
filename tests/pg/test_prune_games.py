"""Each preprocessing step of section 4.1 keeps the answer: the explicit
solver decides the game before and after, on random Hex positions, random
graphs with borders and random winning sets, at odd and even depths."""

from __future__ import annotations

import random

import pytest
from helpers.hexgames import random_graph, random_hex, random_sets
from hypothesis import given, settings
from hypothesis import strategies as st

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


# Hypothesis draws the generators' random choices, so a failing game shrinks
# to a small one; derandomized, so that every run tries the same games.
PROPERTY = settings(max_examples=120, deadline=None, derandomize=True)
randoms = st.randoms(use_true_random=False)


def _graph_game(rng: random.Random, kind: str):
    return random_hex(rng, 4, 9) if kind == "hex" else random_graph(rng, 9, 9)


@pytest.mark.parametrize("step", GRAPH_STEPS)
@pytest.mark.parametrize("kind", ["hex", "graph"])
@PROPERTY
@given(rng=randoms)
def test_graph_step_keeps_the_answer(step, kind, rng):
    game = _graph_game(rng, kind)
    assert _black_wins(GRAPH_STEPS[step](game)) == _black_wins(game)


@pytest.mark.parametrize("step", SET_STEPS)
@PROPERTY
@given(rng=randoms)
def test_set_step_keeps_the_answer(step, rng):
    game = random_sets(rng, 9, 9)
    assert _black_wins(SET_STEPS[step](game)) == _black_wins(game)


@pytest.mark.parametrize("kind", ["hex", "graph", "sets"])
def test_the_random_games_are_worth_pruning(kind):
    """The properties above mean something only if the games have both answers and the steps change them."""
    rng = random.Random(kind)
    games = [random_sets(rng, 9, 9) if kind == "sets" else _graph_game(rng, kind) for _ in range(120)]
    assert {_black_wins(g) for g in games} == {True, False}
    steps = SET_STEPS if kind == "sets" else GRAPH_STEPS
    for name, step in steps.items():
        assert sum(step(g) != g for g in games) >= 30, name


def test_maker_maker_games_are_refused():
    rng = random.Random(5)
    game = random_sets(rng)
    from dataclasses import replace

    maker_maker = replace(game, white_wins=(frozenset({0}),))
    for step in (useless_to_white, claimed_cells):
        with pytest.raises(ValueError, match="Maker-Breaker"):
            step(maker_maker)
