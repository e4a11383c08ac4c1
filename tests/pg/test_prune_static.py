"""The contractions of section 4.1 change how the goal is written, not the
game: the open cells and the turns stay, so a contraction is right iff every
final set of Black cells wins before it exactly when it wins after.  Checked
here over every such set on random positions (the depth-dependent steps are
checked against the explicit solver in test_prune_games.py)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from helpers.hexgames import random_graph, random_hex

from bddl.pg.game import BLACK
from bddl.pg.hex import hex_board, white_borders
from bddl.pg.prune import black_connected, contract, transversal, winning_paths


def _open(game):
    return [v for v in range(len(game.cells)) if v not in game.black_initials | game.white_initials]


def _subsets(cells, rng, most=256):
    if len(cells) <= 8:
        for k in range(len(cells) + 1):
            yield from itertools.combinations(cells, k)
    else:
        for _ in range(most):
            yield tuple(v for v in cells if rng.random() < 0.5)


@pytest.mark.parametrize("kind", ["hex", "graph"])
def test_contraction_keeps_every_final_position(kind):
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        game = random_hex(rng, 5) if kind == "hex" else random_graph(rng, 9)
        if black_connected(game.graph, game.black_initials):
            assert contract(game) is game
            continue
        small = contract(game)
        assert not small.black_initials and not small.white_initials
        new = {name: i for i, name in enumerate(small.cells)}
        assert set(new) == {game.cells[v] for v in _open(game)}
        for black in _subsets(_open(game), rng):
            before = black_connected(game.graph, game.black_initials | set(black))
            after = black_connected(small.graph, {new[game.cells[v]] for v in black})
            assert before == after, (game, black)
            checked += 1
    assert checked > 5000


def test_transversal_keeps_every_final_position():
    """Black joins its borders iff the cells it does not own do not join
    White's in the contracted transversal graph (the Hex theorem)."""
    rng = random.Random(12)
    checked = lost = 0
    for _ in range(150):
        game = random_hex(rng, 5)
        plies = len(game.cells)  # as many claims as cells: no cell is out of reach, the goal alone is rewritten
        unbounded = replace(game, times=tuple(f"t{k}" for k in range(plies)), turns=(BLACK,) * plies)
        reduced_all = transversal(unbounded, *white_borders(game))
        new = {name: i for i, name in enumerate(reduced_all.game.cells)}
        lost += reduced_all.lost
        for black in _subsets(_open(game), rng):
            if not all(game.cells[v] in new for v in black):
                continue
            before = black_connected(game.graph, game.black_initials | set(black))
            after = reduced_all.black_wins_with({new[game.cells[v]] for v in black})
            assert before == after, (game, black)
            checked += 1
    assert checked > 5000 and lost > 0


def test_transversal_of_a_board_white_has_already_joined():
    game = hex_board(3, 5, "ooo")  # White's row 1 joins columns a and c
    reduced = transversal(game, *white_borders(game))
    assert reduced.lost and not reduced.black_wins_with(set(range(len(reduced.game.cells))))


def test_winning_paths_are_the_minimal_winning_sets():
    rng = random.Random(13)
    checked = 0
    for _ in range(120):
        game = random_graph(rng, 8)
        game = replace(game, black_initials=frozenset(), white_initials=frozenset())
        n = len(game.cells)
        paths = winning_paths(game, n)
        assert len(set(paths)) == len(paths)
        for path in paths:
            assert black_connected(game.graph, path)
            assert not any(black_connected(game.graph, path - {v}) for v in path)  # minimal
        for black in _subsets(list(range(n)), rng):
            assert black_connected(game.graph, set(black)) == any(p <= set(black) for p in paths)
            checked += 1
        shorter = winning_paths(game, 2)
        assert set(shorter) == {p for p in paths if len(p) <= 2}
    assert checked > 5000
