"""`bddlc search GAME.pg`: the output, the exit statuses, the usage errors."""

from __future__ import annotations

import json

import pytest

from compiler.cli import main
from conftest import ROOT

GAMES = ROOT / "problems" / "pg"


def test_search_text_draws_the_first_move(capsys):
    assert main(["search", str(GAMES / "tictactoe_3x3_p2q1.pg")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Black wins within 9 moves.\nfirst move: b2\n  1 2 3\na . . .\nb . B .\n")
    assert "positions:" in out


def test_search_json(capsys):
    assert main(["search", str(GAMES / "tictactoe_3x3.pg"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["black_wins"] is False and result["depth"] == 9 and result["first_move"] is None


def test_search_depth_cuts_the_game(capsys):
    assert main(["search", str(GAMES / "tictactoe_3x3_p2q1.pg"), "--depth", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["black_wins"] is False and result["depth"] == 3


def test_search_budget_exhausted_exits_3(capsys):
    assert main(["search", str(GAMES / "tippy_5x5.pg"), "--max-positions", "10"]) == 3
    assert "unknown" in capsys.readouterr().out


def test_bad_game_exits_1_without_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.pg"
    bad.write_text("#times\nt1\n#blackturns\nt2\n#positions\na1\n")
    assert main(["search", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:4:1: error: time point 't2' is not declared in #times" in err and "Traceback" not in err


def test_a_problem_after_a_pg_game_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["search", str(GAMES / "tictactoe_3x3.pg"), str(ROOT / "problems" / "httt" / "tic_3x3_d9.bddl")])
    assert exit_info.value.code == 2 and "stands alone" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["search", str(ROOT / "domains" / "positional.bddl")])
    assert exit_info.value.code == 2
