"""`bddlc export`: a positional BDDL model and its `.pg` game get the same answer
(the BDDL game engine against the positional solver) wherever the two
languages' rules agree, on the suite's positional models and random ones;
where they differ (White to move on a full board), only BDDL gives Black the win."""

from __future__ import annotations

import pytest
from conftest import ROOT, scaled
from hypothesis import given, settings

from bddl import Game, search
from bddl.loader import load_model
from bddl.pg.reader import load_pg, read_pg
from bddl.engines.positional import solve
from bddl.pg.writer import write_pg
from compiler.cli import main
from compiler.encodings.pg_export import NotPositional, positional_game, semantics_differ
from helpers.strategies import positional_game as random_positional_game
from helpers.suite import manifest

POSITIONAL = [e for e in manifest() if e.domain.name == "positional.bddl"]


def agree_or_differ_as_documented(bddl_answer: bool, pg_answer: bool, differ: bool) -> None:
    if differ:
        assert pg_answer <= bddl_answer  # only BDDL counts White's missing move as a Black win
    else:
        assert pg_answer == bddl_answer


def test_suite_positional_models_get_their_answers():
    assert len(POSITIONAL) >= 40
    agreeing = 0
    for entry in POSITIONAL:
        model = load_model(entry.domain, entry.problem)
        game = positional_game(model.domain, model.problem)
        assert read_pg(write_pg(game)) == game
        if entry.slow:
            continue
        differ = semantics_differ(game)
        agree_or_differ_as_documented(entry.black_wins, solve(game).black_wins, differ)
        agreeing += not differ
    assert agreeing >= 40


def test_where_the_rules_differ_the_answers_do():
    """A 1x1 board, two plies: Black cannot complete a domino, White cannot move."""
    model = load_model(ROOT / "domains" / "positional.bddl", ROOT / "problems" / "httt" / "domino_1x1_d2.bddl")
    game = positional_game(model.domain, model.problem)
    assert semantics_differ(game)
    assert search(Game(model.domain, model.problem)).black_wins
    assert not solve(game).black_wins
    assert not semantics_differ(positional_game(model.domain, model.problem, depth=1))


@settings(max_examples=scaled(150))
@given(random_positional_game())
def test_random_positional_models_and_their_export(case):
    domain, problem = case
    game = positional_game(domain, problem)
    assert read_pg(write_pg(game)) == game
    bddl_answer = search(Game(domain, problem)).black_wins
    agree_or_differ_as_documented(bddl_answer, solve(game).black_wins, semantics_differ(game))


def test_cells_are_named_row_letter_column_number():
    model = load_model(ROOT / "domains" / "positional.bddl", ROOT / "problems" / "httt" / "tic_8x1_d7.bddl")
    game = positional_game(model.domain, model.problem)
    assert game.cells[:3] == ("a1", "a2", "a3") and game.coordinates[:2] == ((0,), (1,))


def test_export_command_writes_the_game(tmp_path, capsys):
    out = tmp_path / "tic.pg"
    domain, problem = str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "tic_4x4_d5.bddl")
    assert main(["export", domain, problem, "-o", str(out)]) == 0
    game = load_pg(out)
    assert game.depth == 5 and len(game.cells) == 16 and solve(game).black_wins
    assert main(["export", domain, problem, "--depth", "3"]) == 0
    assert read_pg(capsys.readouterr().out).depth == 3


def test_export_refuses_a_gravity_game_with_a_located_message(tmp_path, capsys):
    out = tmp_path / "c.pg"
    domain, problem = str(ROOT / "domains" / "connect.bddl"), str(ROOT / "problems" / "connect" / "connect3_4x4_d9.bddl")
    assert main(["export", domain, problem, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "connect.bddl:7:1: error: not a positional game" in err and "Traceback" not in err
    assert not out.exists()
    model = load_model(domain, problem)
    with pytest.raises(NotPositional):
        positional_game(model.domain, model.problem)


def test_export_warns_where_the_rules_differ(tmp_path, capsys):
    domain, problem = str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "domino_1x1_d2.bddl")
    assert main(["export", domain, problem, "-o", str(tmp_path / "d.pg")]) == 0
    assert "warning: at ply 2 White would move on a full board" in capsys.readouterr().err
