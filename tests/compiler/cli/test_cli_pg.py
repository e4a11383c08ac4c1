"""The commands on a `.pg` positional game in place of DOMAIN PROBLEM:
compile, solve, depth, play and validate (search: tests/pg)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bddl.pg.reader import load_pg
from compiler.cli import main
from helpers.positional_games import black_wins

ROOT = Path(__file__).resolve().parents[3]
PG = ROOT / "problems" / "pg"
TIC = str(PG / "tictactoe_3x3.pg")  # the whole game: a draw
TIC5 = str(PG / "tictactoe_3x3_d5.pg")  # Black 1 stone, White 2, Black 2: Black wins


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_compile_writes_cor_plus_qdimacs_by_default(tmp_path, capsys):
    out = tmp_path / "tic.qdimacs"
    assert run(capsys, TIC, "-o", str(out))[0] == 0
    text = out.read_text()
    assert text.startswith("c bddlc") and "encoding: cor+" in text and "\np cnf " in text
    again = tmp_path / "again.qdimacs"
    main([TIC, "-o", str(again)])
    assert again.read_bytes() == out.read_bytes()
    status, stdout, _ = run(capsys, TIC, "--encoding", "corplus")
    assert status == 0 and stdout == text


def test_compile_cor_as_qcir_and_cor_plus_refuses_qcir(tmp_path, capsys):
    status, stdout, _ = run(capsys, TIC, "--encoding", "corrective", "--format", "qcir")
    assert status == 0 and stdout.startswith("#QCIR-G14") and "encoding: corrective" in stdout
    with pytest.raises(SystemExit) as info:
        main([TIC, "--format", "qcir", "-o", str(tmp_path / "x.qcir")])
    assert info.value.code == 2
    assert not (tmp_path / "x.qcir").exists()
    with pytest.raises(SystemExit) as info:
        main([TIC, "--encoding", "lifted"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main([TIC, str(PG / "row4_1x7.pg")])  # a PROBLEM after a .pg game
    assert info.value.code == 2


def test_a_bad_pg_file_is_a_located_error_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.pg"
    bad.write_text("#times\nt1 t2\n#blackturns\nt1 t3\n#positions\na1 a2\n")
    out = tmp_path / "out.qdimacs"
    status, stdout, err = run(capsys, str(bad), "-o", str(out))
    assert status == 1 and stdout == "" and not out.exists()
    assert f"{bad}:4:4: error" in err and "Traceback" not in err


@pytest.mark.parametrize("encoding", ["cor+", "corrective"])
def test_solve_reports_the_verdict_and_a_checked_first_move(capsys, encoding):
    status, stdout, _ = run(capsys, "solve", TIC5, "--encoding", encoding, "--engine", "qbf")
    assert status == 10 and stdout.startswith("Black wins within 5 moves.\n")
    assert "(checked by the explicit solver)" in stdout and f"encoding: {encoding}" in stdout
    status, stdout, _ = run(capsys, "solve", TIC, "--encoding", encoding, "--engine", "qbf", "--json")
    data = json.loads(stdout)
    assert status == 20 and data["black_wins"] is False and data["encoding"]["name"] == encoding
    assert black_wins(load_pg(TIC)) is False


def test_solve_json_first_move_is_a_cell(capsys):
    status, stdout, _ = run(capsys, "solve", TIC5, "--engine", "qbf", "--json")
    data = json.loads(stdout)
    assert status == 10 and data["first_move"]["text"] in load_pg(TIC5).cells and data["move_source"] == "checked"


def test_depth_continues_the_turn_pattern(capsys):
    status, stdout, _ = run(capsys, "depth", str(PG / "row4_1x7.pg"), "--json")
    data = json.loads(stdout)
    game = load_pg(PG / "row4_1x7.pg")
    expected = next((d for d in range(1, game.depth + 1) if black_wins(game.with_depth(d))), None)
    assert data["critical_depth"] == expected
    assert status == (10 if expected else 20)
    status, stdout, _ = run(capsys, "depth", TIC5, "--max", "7")
    assert status == 10 and "critical depth: 5" in stdout


def test_play_scripted(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("a1\nc3\n"))
    status, stdout, _ = run(capsys, "play", TIC5, "--engine", "qbf")  # White's scripted moves answer the QBF route's
    assert status == 0 and "Black reaches its goal: Black wins." in stdout
    status, stdout, _ = run(capsys, "play", TIC)
    assert status == 20 and "no winning strategy" in stdout


def test_validate_checks_every_white_reply(capsys):
    status, stdout, _ = run(capsys, "validate", TIC5, "--json")
    data = json.loads(stdout)
    assert status == 0 and data["valid"] and data["complete"] and data["lines"] > 10
    status, _, _ = run(capsys, "validate", TIC)
    assert status == 20
