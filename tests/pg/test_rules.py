"""The rules interface (bddl.rules) against the engines, on both languages.

`black_wins_by_rules` is a plain minimax over `GameRules` alone; where it
agrees with the BDDL minimax, the positional solver and the brute force of
the .pg tests, every adapter method it uses (turns, moves, goals, the stuck
rule, first moves, wins before play) is right for the answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_random import brute_force, random_game

from bddl.game import Game
from bddl.loader import load_model
from bddl.notation import MoveInputError
from bddl.pg.reader import load_pg
from bddl.rules import BLACK, WHITE, Position, bddl_rules, black_wins_by_rules, pg_rules
from helpers.suite import DOMAINS, PROBLEMS, manifest, suite_games


def test_bddl_rules_give_the_manifest_answers():
    decided = []
    for entry in manifest():
        if entry.slow:
            continue
        model = load_model(entry.domain, entry.problem)
        try:
            answer = black_wins_by_rules(bddl_rules(Game(model.domain, model.problem)), max_positions=20_000)
        except RuntimeError:  # too big for the plain minimax
            continue
        assert answer == entry.black_wins, entry.file
        decided.append(answer)
    assert len(decided) >= 60 and set(decided) == {True, False}


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rng=st.randoms(use_true_random=False))
def test_pg_rules_agree_with_the_brute_force(rng):
    game = random_game(rng)
    assert black_wins_by_rules(pg_rules(game)) == brute_force(game)


@pytest.mark.parametrize("path", [p for p in suite_games() if len(load_pg(p).cells) <= 9], ids=lambda p: p.name)
def test_pg_rules_agree_with_the_positional_solver(path):
    from bddl.engines.positional import solve

    game = load_pg(path)
    assert black_wins_by_rules(pg_rules(game)) == solve(game).black_wins


def test_a_stuck_mover_loses_in_bddl_and_ends_a_pg_game():
    model = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect" / "connect3_4x4_d9.bddl")
    rules = bddl_rules(Game(model.domain, model.problem))
    assert rules.stuck_winner(WHITE) == BLACK and rules.stuck_winner(BLACK) == WHITE
    game = load_pg(suite_games()[0])
    assert pg_rules(game).stuck_winner(WHITE) is None and pg_rules(game).stuck_winner(BLACK) is None


def test_pg_moves_are_cell_names_and_taken_cells_are_refused():
    game = load_pg(suite_games()[0])
    rules = pg_rules(game)
    first = rules.plays(rules.initial)[0]
    assert rules.parse_play(rules.initial, first.text) == first
    assert rules.parse_play(rules.initial, first.text.upper()).after == first.after
    with pytest.raises(MoveInputError, match="not open"):
        rules.parse_play(Position(first.after.black, first.after.white | 0, 1) if first.side == BLACK else first.after, first.text)
    with pytest.raises(MoveInputError, match="no cell named"):
        rules.parse_play(rules.initial, "zz99")


def test_bddl_moves_read_back_as_the_same_play():
    model = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect" / "connect3_4x4_d9.bddl")
    rules = bddl_rules(Game(model.domain, model.problem))
    for play in rules.plays(rules.initial):
        assert rules.parse_play(rules.initial, play.text) == play
        assert play.after.ply == 1 and rules.to_move(1) == WHITE
