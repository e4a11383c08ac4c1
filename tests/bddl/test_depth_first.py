"""The depth-first minimax without a table (`bddl.engines.depth_first`), registered as
`bddlc search --algorithm depth-first`: the same verdict as the rules' own minimax with a table
(`bddl.rules.black_wins_by_rules`) on random games of both languages, a first move that keeps the
win, and the command on a BDDL model and a `.pg` game."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from conftest import ROOT, scaled
from helpers.strategies import game as random_bddl_game
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).parents[1] / "pg"))  # tests/pg's random games
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.engines.depth_first import search_depth_first  # noqa: E402
from bddl.engines.minimax import SearchBudgetExceeded  # noqa: E402
from bddl.game import Game  # noqa: E402
from bddl.pg.reader import load_pg  # noqa: E402
from bddl.rules import BLACK, bddl_rules, black_wins_by_rules, pg_rules  # noqa: E402
from compiler.cli import main  # noqa: E402

BUDGET = 2_000_000


def assert_agrees(rules) -> None:
    found = search_depth_first(rules, BUDGET)
    assert found.black_wins == black_wins_by_rules(rules)
    if found.first_move is not None:  # Black's first move keeps the win: it wins at once, or the rest is Black's
        after = found.first_move.after
        assert found.first_move.side == BLACK
        assert rules.won(after, BLACK) or black_wins_by_rules(rules, after)
    elif found.black_wins and rules.winner_before_play() is None:
        assert rules.to_move(0) != BLACK or not rules.plays(rules.initial)  # no move to name: White opens, or stuck


@settings(max_examples=scaled(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_bddl_game(max_depth=5))
def test_random_bddl_games_agree_with_the_rules_minimax(case):
    domain, problem = case
    assert_agrees(bddl_rules(Game(domain, problem)))


def test_random_positional_games_agree_with_the_rules_minimax():
    rng = random.Random(11)
    for _ in range(scaled(60)):
        game = random_pg_game(rng)
        if len(game.cells) > 9:
            continue
        assert_agrees(pg_rules(game))


def test_the_budget_is_kept():
    rules = pg_rules(load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg"))
    try:
        search_depth_first(rules, 10)
    except SearchBudgetExceeded as exc:
        assert exc.positions == 10
    else:
        raise AssertionError("ten positions do not decide tic-tac-toe")


def test_the_command_on_both_languages(capsys):
    bddl = [str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "domino_1x3_d3.bddl")]
    pg = [str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")]
    for files in (bddl, pg):
        assert main(["search", *files, "--algorithm", "depth-first", "--json"]) == 0
        by_depth_first = json.loads(capsys.readouterr().out)
        assert main(["search", *files, "--json"]) == 0
        by_minimax = json.loads(capsys.readouterr().out)
        assert by_depth_first["black_wins"] == by_minimax["black_wins"] and by_depth_first["algorithm"] == "depth-first"


def test_a_language_knowledge_with_it_is_a_usage_error(capsys):
    bddl = [str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "domino_1x3_d3.bddl")]
    with pytest.raises(SystemExit) as exit_:
        main(["search", *bddl, "--algorithm", "depth-first", "--positional-rules"])
    assert exit_.value.code == 2
    assert "searches by the rules alone: drop --positional-rules" in capsys.readouterr().err
