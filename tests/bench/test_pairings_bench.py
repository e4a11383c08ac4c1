"""`python -m bench.pairings`: both runs of each game agree, and bad input is refused plainly."""

from __future__ import annotations

from pathlib import Path

from bddl.pg.animals import animal_game
from bddl.pg.writer import save_pg
from bench.pairings import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_compares_the_searches_with_and_without_pairings(tmp_path, capsys):
    save_pg(animal_game("I-tetromino", 5, weak=True, moves=4), str(tmp_path / "i4.pg"))
    assert main([str(ROOT / "problems/pg/tictactoe_3x3.pg"), str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in lines[2:]}
    assert set(rows) == {"tictactoe_3x3.pg", "i4.pg", "all 2"}
    assert rows["tictactoe_3x3.pg"][1] == "no win" and rows["i4.pg"][1] == "no win"
    with_cut, without = (int(n.replace(",", "")) for n in rows["i4.pg"][2].split(" / "))
    assert with_cut < without  # the cut ends lines where White pairs Black's sets
    assert main([str(tmp_path / "i4.pg"), "--algorithm", "pns"]) == 0


def test_bad_input_is_refused_without_a_traceback(tmp_path, capsys):
    assert main([str(ROOT / "domains/connect.bddl")]) == 1
    assert "a .pg game is needed" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.pg")]) == 1
    err = capsys.readouterr().err
    assert "no such file" in err and "Traceback" not in err
