"""df-pn on positional games (`bddl.pg.pns`) against the brute force and the
explicit solver: random games of every kind, the first claim it reports, and
the budget contract."""

from __future__ import annotations

import random

import pytest
from conftest import scaled
from pg_random import brute_force, random_game

from bddl.pg.pns import solve_pns
from bddl.pg.solver import PositionalSolver, SearchBudgetExceeded

RANDOM_GAMES = scaled(600)


def test_dfpn_agrees_with_brute_force_on_random_games():
    rng = random.Random(16)
    kinds = {"maker-maker": 0, "maker-breaker": 0, "border": 0, "true": 0, "false": 0, "pq": 0}
    for number in range(RANDOM_GAMES):
        game = random_game(rng)
        expected = brute_force(game)
        result = solve_pns(game)
        assert result.black_wins == expected, (number, game)
        if result.first_move is not None:
            solver = PositionalSolver(game)
            b = game.mask(game.black_initials) | 1 << result.first_move
            won_at_once = solver.black_won(b)
            assert won_at_once or solver.black_wins(b, game.mask(game.white_initials)), (number, "first claim does not win")
        kinds["border" if game.graph else "maker-breaker" if game.maker_breaker else "maker-maker"] += 1
        kinds["true" if expected else "false"] += 1
        kinds["pq"] += any(a == b for a, b in zip(game.turns, game.turns[1:]))
    # every kind of game was met often enough for the agreement to mean something
    assert min(kinds.values()) >= RANDOM_GAMES // 20, kinds


def test_dfpn_keeps_the_budget():
    rng = random.Random(3)
    game = max((random_game(rng) for _ in range(40)), key=lambda g: solve_pns(g).positions)
    needed = solve_pns(game).positions
    assert needed >= 10
    with pytest.raises(SearchBudgetExceeded):
        solve_pns(game, max_positions=needed // 2)
    assert solve_pns(game, max_positions=needed).positions == needed


def test_search_command_runs_dfpn_on_a_pg_file(capsys):
    import json

    from conftest import ROOT

    from compiler.cli import main

    path = str(ROOT / "problems" / "pg" / "el_4x4_p2q2_white_first.pg")
    answers = []
    for algorithm in ("minimax", "pns"):
        assert main(["search", path, "--algorithm", algorithm, "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out)["black_wins"])
    assert answers[0] is answers[1] is False
