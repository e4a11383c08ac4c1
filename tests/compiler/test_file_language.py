"""Issue 40's first fix: a file's language is read from its sections, its
suffix only where they say nothing clear.  The BDDL paper's public benchmark
set names its Hex problems `*.pg` (they are BDDL problems); a positional game
may be saved under any name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.model import BDDL, PG, ModelPathsError, file_kind, language_of, open_model
from compiler.cli.regress_run import read_manifest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = str(ROOT / "domains" / "positional.bddl")
HEX_PROBLEM = ROOT / "problems" / "hex" / "hex3_d3.bddl"
TIC_PG = ROOT / "problems" / "pg" / "tictactoe_3x3.pg"


@pytest.fixture
def bddl_named_pg(tmp_path) -> str:
    path = tmp_path / "hex3_d3.pg"
    shutil.copy(HEX_PROBLEM, path)
    return str(path)


@pytest.fixture
def pg_named_txt(tmp_path) -> str:
    path = tmp_path / "tictactoe.txt"
    shutil.copy(TIC_PG, path)
    return str(path)


def test_the_sections_decide_the_kind(bddl_named_pg, pg_named_txt):
    assert file_kind(bddl_named_pg) == "problem"
    assert file_kind(pg_named_txt) == PG
    assert file_kind(DOMAIN) == "domain"
    assert language_of([DOMAIN, bddl_named_pg]) == BDDL
    assert language_of([pg_named_txt]) == PG


def test_a_bddl_problem_named_pg_opens_as_the_same_game(bddl_named_pg):
    named = open_model([DOMAIN, bddl_named_pg])
    plain = open_model([DOMAIN, str(HEX_PROBLEM)])
    assert named.language == BDDL and named.bddl is not None
    assert named.rules.initial == plain.rules.initial and named.depth == plain.depth


@pytest.mark.parametrize("command", [["search"], ["solve", "--engine", "search"], ["check"], ["depth", "--engine", "search"],
                                     ["validate", "--engine", "search"], ["compile"]])
def test_every_command_reads_a_bddl_problem_named_pg(tmp_path, capsys, bddl_named_pg, command):
    extra = ["-o", str(tmp_path / "x.qcir")] if command == ["compile"] else []
    code = main([*command, DOMAIN, bddl_named_pg, *extra])
    captured = capsys.readouterr()
    assert code in (0, 10, 20), captured.err
    assert "stands alone" not in captured.err


def test_search_json_of_a_bddl_problem_named_pg_equals_its_bddl_twin(capsys, bddl_named_pg):
    answers = []
    for problem in (bddl_named_pg, str(HEX_PROBLEM)):
        main(["search", DOMAIN, problem, "--json"])
        data = json.loads(capsys.readouterr().out)
        answers.append((data["black_wins"], data["language"]))
    assert answers[0] == answers[1] and answers[0][1] == "bddl"


def test_a_positional_game_named_otherwise_stands_alone_and_is_solved(capsys, pg_named_txt):
    assert main(["search", pg_named_txt, "--json"]) in (0, 10, 20)
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "pg" and data["black_wins"] is False  # tic-tac-toe is a draw


def test_a_positional_game_after_a_domain_is_still_refused(capsys, pg_named_txt):
    for game in (str(TIC_PG), pg_named_txt):
        with pytest.raises(SystemExit) as info:
            main(["search", DOMAIN, game])
        assert info.value.code == 2
        assert f"a positional game ({game}) stands alone" in capsys.readouterr().err


def test_a_file_of_neither_language_names_the_sections_it_has(tmp_path, capsys):
    odd = tmp_path / "odd.pg"
    odd.write_text("% something else\n#players 2\n#rounds 3\n")
    with pytest.raises(ModelPathsError, match=r"odd.pg is neither a positional game nor a BDDL problem \(it has #players, #rounds\)"):
        language_of([DOMAIN, str(odd)])
    alone = tmp_path / "odd.txt"
    alone.write_text("#players 2\n")
    with pytest.raises(SystemExit) as info:
        main(["search", str(alone)])
    assert info.value.code == 2 and "(it has #players)" in capsys.readouterr().err


def test_a_lone_bddl_file_is_told_what_it_lacks(bddl_named_pg):
    with pytest.raises(ModelPathsError, match="is a BDDL problem: give a DOMAIN and a PROBLEM file, its domain first"):
        language_of([bddl_named_pg])
    with pytest.raises(ModelPathsError, match="is a BDDL domain: give a DOMAIN and a PROBLEM file, a problem after it"):
        language_of([DOMAIN])


def test_a_misspelt_pg_section_still_gets_the_readers_diagnostic(tmp_path, capsys):
    # a .pg file whose sections say nothing clear is left to the .pg reader, which names the fix
    game = tmp_path / "g.pg"
    game.write_text(TIC_PG.read_text().replace("#times", "#tims"))
    assert main(["check", str(game)]) == 1
    assert "unknown section '#tims'" in capsys.readouterr().err


def test_regress_reads_a_bddl_problem_named_pg_as_bddl(tmp_path, bddl_named_pg, pg_named_txt):
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'domains = "{ROOT / "domains"}"\nproblems = "{tmp_path}"\n'
        '[[problem]]\nfile = "hex3_d3.pg"\ndomain = "positional.bddl"\nblack_wins = false\n'
        '[[problem]]\nfile = "tictactoe.txt"\nblack_wins = false\n'
    )
    entries = read_manifest(manifest)
    assert [entry.positional for entry in entries] == [False, True]
