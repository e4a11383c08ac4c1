"""`bddlc search` and the command line's error contract."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from compiler.cli import main
from helpers.paper_listings import DOMAINS, PROBLEMS


@pytest.fixture
def files(tmp_path):
    def write(domain: str, problem: str):
        d = tmp_path / "d.bddl"
        p = tmp_path / "p.bddl"
        d.write_text(domain)
        p.write_text(problem)
        return str(d), str(p)

    return write


DOMINEERING_2x2 = PROBLEMS["listing20"].replace("6 6", "2 2").replace("11", "2")


def test_search_text(files, capsys):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    assert main(["search", d, p]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Black wins within 2 moves.\nfirst move: vertical 1 1\n")
    assert "positions:" in out


def test_search_json(files, capsys):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    assert main(["search", d, p, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["black_wins"] is True and result["depth"] == 2
    assert result["first_move"] == {"side": "black", "text": "vertical 1 1"}
    assert result["positions"] >= 1 and result["seconds"] >= 0


def test_search_depth_override_and_no_win(files, capsys):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    assert main(["search", d, p, "--depth", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {**result, "black_wins": False, "depth": 1, "first_move": None}


def test_search_budget_exhausted_exits_3(files, capsys):
    d, p = files(DOMAINS["listing4"], PROBLEMS["listing5"])
    assert main(["search", d, p, "--max-positions", "3"]) == 3
    assert "unknown" in capsys.readouterr().out


def test_bad_model_exits_1_with_located_message(files, capsys):
    d, p = files(DOMAINS["listing19"].replace("open(?x,?y+1)", "opn(?x,?y+1)"), DOMINEERING_2x2)
    assert main(["search", d, p]) == 1
    err = capsys.readouterr().err
    assert f"{d}:4:28: error: unknown predicate 'opn'" in err
    assert "^~~" in err and "Traceback" not in err


def test_usage_error_exits_2(files):
    d, _ = files(DOMAINS["listing19"], DOMINEERING_2x2)
    with pytest.raises(SystemExit) as info:
        main(["search", d])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["search", d, d, "--depth", "0"])
    assert info.value.code == 2


def test_installed_command_reports_without_traceback(files):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2.replace("#depth\n2", "#depth\n-2"))
    run = subprocess.run([sys.executable, "-m", "compiler.cli", "search", d, p], capture_output=True, text=True)
    assert run.returncode == 1
    assert "error:" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("algorithm", ["minimax", "pns"])
def test_both_algorithms_answer_and_keep_the_budget(files, capsys, algorithm):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    assert main(["search", d, p, "--algorithm", algorithm, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["black_wins"] is True and result["algorithm"] == algorithm
    assert main(["search", d, p, "--algorithm", algorithm, "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["black_wins"] is False
    big = PROBLEMS["listing20"].replace("6 6", "4 4").replace("11", "7")
    d, p = files(DOMAINS["listing19"], big)
    assert main(["search", d, p, "--algorithm", algorithm, "--max-positions", "3", "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["positions"] == 4


def test_race_patterns_need_pns_and_a_breakthrough_like_game(files, capsys):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    with pytest.raises(SystemExit) as info:
        main(["search", d, p, "--race-patterns"])
    assert info.value.code == 2 and "needs --algorithm pns" in capsys.readouterr().err
    assert main(["search", d, p, "--race-patterns", "--algorithm", "pns"]) == 0
    captured = capsys.readouterr()
    assert "not a Breakthrough-like game" in captured.err and "Black wins" in captured.out


def test_positional_rules_decide_a_positional_model(capsys):
    from conftest import ROOT

    d, p = str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "hex" / "hex4_b_d9.bddl")
    assert main(["search", d, p, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    for algorithm in ("minimax", "pns"):
        assert main(["search", d, p, "--positional-rules", "--algorithm", algorithm, "--json"]) == 0
        ruled = json.loads(capsys.readouterr().out)
        assert ruled["positional_rules"] and ruled["black_wins"] == plain["black_wins"] is True
        assert ruled["positions"] < plain["positions"] and ruled["first_move"]["text"].startswith("occupy ")
    assert main(["search", d, p, "--positional-rules"]) == 0
    assert "(by the positional rules)" in capsys.readouterr().out
    assert main(["search", d, p, "--positional-rules", "--algorithm", "pns", "--max-positions", "5"]) == 3
    assert "without an answer" in capsys.readouterr().out


def test_positional_rules_step_aside_where_they_do_not_fit(files, capsys):
    d, p = files(DOMAINS["listing19"], DOMINEERING_2x2)
    assert main(["search", d, p, "--positional-rules", "--json"]) == 0
    captured = capsys.readouterr()
    assert "note: not a" in captured.err and "searching without the positional rules" in captured.err
    assert json.loads(captured.out)["positional_rules"] is False
    with pytest.raises(SystemExit) as info:
        main(["search", d, p, "--positional-rules", "--race-patterns", "--algorithm", "pns"])
    assert info.value.code == 2 and "do not go together" in capsys.readouterr().err
