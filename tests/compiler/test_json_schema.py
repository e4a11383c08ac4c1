"""Every command's --json against the one documented schema (compiler/schema.py,
shown in docs/cli.md): the same keys, in the same order, for a BDDL model and
a `.pg` game, on every path (a verdict, no verdict, a spent budget)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.schema import COMMAND_KEYS, SCHEMA_VERSION, markdown_table

ROOT = Path(__file__).resolve().parents[2]
BDDL = [str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "tic_3x3_d9.bddl")]
PG = [str(ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg")]
GAMES = {"bddl": BDDL, "pg": PG}


def test_docs_show_the_schema():
    assert markdown_table() in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def objects(capsys, argv) -> list[dict]:
    main(argv)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]


def assert_documented(data: dict, command: str, language: str) -> None:
    assert list(data) == list(COMMAND_KEYS[command]), command
    assert data["schema"] == SCHEMA_VERSION and data["command"] == command and data["language"] == language
    for key in ("first_move", "reply_to", "reply"):
        if data.get(key) is not None:
            assert set(data[key]) == {"side", "text"}


RUNS = {
    "solve": [["--json"], ["--json", "--depth", "1"], ["--json", "--timeout", "0.000001"]],
    "search": [["--json"], ["--json", "--max-positions", "1"]],
    "depth": [["--json", "--max", "5"], ["--json", "--max", "5", "--time-budget", "0.000001"]],
    "validate": [["--json", "--max-lines", "3"], ["--json", "--depth", "1"]],
}


@pytest.mark.parametrize("language", GAMES)
@pytest.mark.parametrize("command", RUNS)
def test_every_path_of_a_command_prints_the_documented_keys(capsys, command, language):
    for extra in RUNS[command]:
        [data] = objects(capsys, [command, *GAMES[language], *extra])
        assert_documented(data, command, language)


@pytest.mark.parametrize("language", GAMES)
def test_compile_and_play(tmp_path, capsys, monkeypatch, language):
    out = tmp_path / ("x.qdimacs" if language == "pg" else "x.qcir")
    [data] = objects(capsys, ["compile", *GAMES[language], "-o", str(out), "--json"])
    assert_documented(data, "compile", language)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    [data] = objects(capsys, ["play", *GAMES[language], "--json"])
    assert_documented(data, "play", language)


def test_regress_prints_one_object_per_entry(tmp_path, capsys):
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'[[problem]]\nfile = "{BDDL[1]}"\ndomain = "{BDDL[0]}"\ndepth = 3\nblack_wins = false\n\n'
        f'[[problem]]\nfile = "{PG[0]}"\nblack_wins = true\n'
    )
    found = objects(capsys, ["regress", str(manifest), "--json", "--method", "both"])
    assert [d["language"] for d in found] == ["bddl", "pg"] and all(d["status"] == "agree" for d in found)
    for data in found:
        assert_documented(data, "regress", data["language"])


@pytest.mark.parametrize("language", GAMES)
def test_check(capsys, language):
    [data] = objects(capsys, ["check", *GAMES[language], "--json"])
    assert_documented(data, "check", language)
    assert data["ok"] is True and [c["number"] for c in data["conditions"]] == [1, 2, 3]


def test_check_out_of_budget(capsys):
    [data] = objects(capsys, ["check", *GAMES["bddl"], "--json", "--reachable", "--max-positions", "1"])
    assert_documented(data, "check", "bddl")
    assert data["ok"] is None and "too big for --reachable" in data["error"]


@pytest.mark.parametrize("language", GAMES)
def test_certify(tmp_path, capsys, language):
    path = tmp_path / "c.json"
    objects(capsys, ["search", *GAMES[language], "--certificate", str(path), "--json"])
    [data] = objects(capsys, ["certify", *GAMES[language], str(path), "--json"])
    assert_documented(data, "certify", language)
    assert data["valid"] is True
