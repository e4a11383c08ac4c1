"""Issue 26's reproductions: one command per job for both languages, and
every mismatch between a game and an option a clean usage error (exit 2)
with a sentence, never a traceback or a silently ignored option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bddl.pg.hex import hex_board
from bddl.pg.writer import write_pg
from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
PG = ROOT / "problems" / "pg"
TIC = str(PG / "tictactoe_3x3.pg")  # White has winning sets: not Maker-Breaker
DOMAIN = str(ROOT / "domains" / "positional.bddl")
TIC_BDDL = str(ROOT / "problems" / "httt" / "tic_3x3_d9.bddl")
DOMINEERING = (str(ROOT / "domains" / "domineering.bddl"), str(ROOT / "problems" / "domineering" / "3x3_d4.bddl"))
BREAKTHROUGH = (str(ROOT / "domains" / "breakthrough.bddl"), str(ROOT / "problems" / "breakthrough" / "second_3x5_d18.bddl"))
MAKER_BREAKER = ("ea", "en", "et", "la", "ln", "sa", "sn")


@pytest.fixture
def hex_file(tmp_path) -> str:
    path = tmp_path / "hex3.pg"
    path.write_text(write_pg(hex_board(3, 5)))
    return str(path)


def usage_error(capsys, *argv: str) -> str:
    """Run bddlc; it must stop with exit status 2 (argparse's) and no traceback: its stderr."""
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    assert info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("command", ["compile", "depth"])
@pytest.mark.parametrize("encoding", ["et", "en", "ea", "ln", "sn"])
def test_a_maker_breaker_encoding_on_a_game_with_white_sets_names_those_that_fit(capsys, command, encoding):
    err = usage_error(capsys, command, TIC, "--encoding", encoding)
    assert "White has winning sets here" in err and "the encodings that do: cor+, corrective" in err


@pytest.mark.parametrize("command", ["compile", "solve", "depth"])
@pytest.mark.parametrize("encoding", ["cor+", "corplus", "corrective"])
def test_cor_on_hex_names_the_encodings_that_fit(capsys, hex_file, command, encoding):
    err = usage_error(capsys, command, hex_file, "--encoding", encoding)
    assert "border-to-border chain (Hex)" in err and "the encodings that do: " + ", ".join(MAKER_BREAKER) in err


def test_an_encoding_of_the_other_language_is_refused(capsys):
    assert "it compiles .pg positional games" in usage_error(capsys, DOMAIN, TIC_BDDL, "--encoding", "et")
    assert "it compiles BDDL models" in usage_error(capsys, TIC, "--encoding", "lifted")
    err = usage_error(capsys, *DOMINEERING, "--encoding", "corrective")
    assert "not a claiming game" in err and "the encodings that do: lifted, paper, explicit" in err


def test_a_clausal_formula_is_not_written_into_a_qcir_file(tmp_path, capsys, hex_file):
    out = tmp_path / "x.qcir"
    err = usage_error(capsys, TIC, "-o", str(out))
    assert "cor+ is built as clauses: it is written as QDIMACS only" in err and not out.exists()
    err = usage_error(capsys, hex_file, "--format", "qcir")
    assert "ET is built as clauses" in err and "COR+" not in err
    assert main([TIC, "--encoding", "corrective", "-o", str(out)]) == 0  # COR is a circuit: QCIR it is
    assert out.read_text().startswith("#QCIR-G14")


@pytest.mark.parametrize("command", ["compile", "search", "solve", "depth", "play", "validate"])
def test_a_pg_game_after_a_domain_stands_alone(capsys, command):
    err = usage_error(capsys, command, DOMAIN, TIC)
    assert f"a positional game ({TIC}) stands alone" in err and "syntax" not in err


def test_compile_json_describes_the_file_for_both_languages(tmp_path, capsys):
    keys = None
    for game, out in (([TIC], "tic.qdimacs"), ([DOMAIN, TIC_BDDL], "tic.qcir")):
        assert main(["compile", *game, "-o", str(tmp_path / out), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["output"] == str(tmp_path / out) and data["variables"] > 0 and data["schema"] == 1
        assert keys is None or set(data) == keys
        keys = set(data)
    assert data["language"] == "bddl" and data["encoding"] == "lifted" and data["format"] == "qcir"


def test_max_memory_names_the_encoding_solve_would_use(capsys):
    # the QBF route's refusal (under --engine auto the search would answer instead); not a claiming game: auto is explicit
    assert main(["solve", *BREAKTHROUGH, "--max-memory", "1", "--engine", "qbf"]) == 3
    err = capsys.readouterr().err
    assert "explicit encoding" in err and "corrective" not in err


def test_race_patterns_on_a_pg_game_is_refused_with_the_reason(capsys):
    err = usage_error(capsys, "search", TIC, "--race-patterns", "--algorithm", "pns")
    assert "--race-patterns applies to Breakthrough-like BDDL games" in err


def test_max_depth_holds_for_a_pg_game(capsys):
    assert main(["search", TIC, "--max-depth", "3"]) == 1
    assert "a depth of 9 is beyond the limit of 3" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["search", "solve"])
def test_json_has_the_same_keys_for_both_languages(capsys, command):
    keys = []
    for game in ([TIC], [DOMAIN, TIC_BDDL]):
        assert main([command, *game, "--depth", "3", "--json"]) in (0, 10, 20)
        data = json.loads(capsys.readouterr().out)
        keys.append(set(data))
        assert data["first_move"] is None or set(data["first_move"]) == {"side", "text"}
    assert keys[0] == keys[1]


TIC5 = str(PG / "tictactoe_3x3_d5.pg")  # Black 1 stone, White 2, Black 2: Black wins at 5


def test_depth_jobs_and_time_budget_work_on_a_pg_game(capsys):
    assert main(["depth", TIC5, "--max", "7", "--jobs", "2", "--json"]) == 10
    data = json.loads(capsys.readouterr().out)
    assert data["critical_depth"] == 5 and data["monotonicity"] == "consistent"
    assert main(["depth", TIC5, "--max", "7", "--time-budget", "0.000001", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["budget_spent"] is True and data["critical_depth"] is None


def test_validate_time_budget_works_on_a_pg_game(capsys):
    assert main(["validate", TIC5, "--time-budget", "0.000001"]) == 3
    assert "the time budget of 1e-06 s is spent" in capsys.readouterr().out


def test_play_json_is_the_game_record(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("a1\nc3\n"))
    assert main(["play", TIC5, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "Black wins" and [m["side"] for m in data["moves"]] == ["black", "white", "white", "black", "black"]
    assert [m["text"] for m in data["moves"]][1:3] == ["a1", "c3"]


def test_export_says_what_export_can_do(capsys):
    assert main(["export", *DOMINEERING]) == 1
    err = capsys.readouterr().err
    assert "not a claiming game" in err and "--encoding" not in err
    assert "is a positional game already" in usage_error(capsys, "export", TIC)


def test_check_refuses_bddl_only_options_on_a_pg_game_with_a_sentence(capsys):
    assert "hold by construction" in usage_error(capsys, "check", TIC, "--reachable")


def test_polarity_on_a_formula_built_as_clauses_is_refused(capsys):
    assert "--polarity chooses the Tseitin transformation" in usage_error(capsys, TIC, "--polarity")
    assert main([TIC, "--encoding", "corrective", "--format", "qdimacs", "--polarity"]) == 0  # COR is a circuit


@pytest.mark.parametrize("game, encoding", [
    ([TIC5], "cor+"), ([TIC5], "corrective"),
    ([DOMAIN, str(ROOT / "problems" / "httt" / "tic_4x4_d5.bddl")], "corrective"),
    ([DOMAIN, str(ROOT / "problems" / "httt" / "tic_4x4_d5.bddl")], "lifted"),
])
def test_a_formulas_first_move_decodes_to_a_winning_move(game, encoding):
    """GameModel.formula's decoding, held to the rules' own minimax: the
    solver's first move is a legal move after which Black still wins."""
    import io

    from bddl.rules import black_wins_by_rules
    from circuits import write_qdimacs
    from compiler.model import open_model
    from compiler.solving.qbf.solver_programs import run_solver_on_text

    model = open_model(game)
    formula = model.formula(encoding)
    text = io.StringIO()
    write_qdimacs(formula.qdimacs(), text)
    run = run_solver_on_text("depqbf", text.getvalue(), ".qdimacs", timeout=60)
    assert run.verdict is True and run.model
    play = formula.decode_first_move(lambda var: run.model.get(var, False))
    assert play is not None and play in model.rules.plays(model.rules.initial)
    assert model.rules.won(play.after, "black") or black_wins_by_rules(model.rules, play.after)


@pytest.mark.parametrize("command", ["search", "solve", "compile", "check", "depth"])
def test_max_board_side_is_refused_for_a_pg_game_not_ignored(capsys, command):
    """Issue 26, repro 4: an option accepted and silently ignored on .pg."""
    assert "a .pg game has cells, not sides" in usage_error(capsys, *([command] if command != "compile" else []), TIC, "--max-board-side", "5")
