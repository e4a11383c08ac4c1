"""The strategy explorer's words (issue 42, items 5 and 7): another game's certificate is named
with the command that opens it; the summary says whose move it is at the start; counts take
their number ("1 position"); a symmetry that does not map a position onto its node is refused.
Run as a user would, from another folder with relative paths; the page itself is driven in
Chromium by tests/test_browser.py."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import ROOT

from compiler.cli import main

PG = ROOT / "problems" / "pg"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A fresh folder holding copies of a few games, the working folder of the commands."""
    for name in ("tictactoe_3x3.pg", "row3_4x4.pg", "tic_5x5_torus.pg"):
        shutil.copy(PG / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def summary(page) -> str:
    return re.search(r'<div id="summary">(.*?)</div>', page.read_text()).group(1)


def test_another_games_certificate_is_named_with_the_command_that_opens_it(folder, capsys):
    assert main(["search", "tictactoe_3x3.pg", "--certificate", "ttt.json"]) == 0
    capsys.readouterr()
    assert main(["show", "row3_4x4.pg", "--certificate", "ttt.json", "-o", "x.html"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ttt.json: error: this is another game's certificate: its cells are not those of row3_4x4.pg; ")
    assert "it was written for tictactoe_3x3.pg (depth 9): bddlc show tictactoe_3x3.pg --certificate ttt.json -o strategy.html" in err
    assert not (folder / "x.html").exists()
    # the command it names works
    assert main(["show", "tictactoe_3x3.pg", "--certificate", "ttt.json", "-o", "strategy.html"]) == 0


def test_a_certificate_of_the_same_board_but_other_files_names_them(folder, capsys):
    """Same cells, other file contents: the sha256 differ, and the message names the files written for."""
    assert main(["search", "tictactoe_3x3.pg", "--certificate", "ttt.json"]) == 0
    shutil.copy("tictactoe_3x3.pg", "other.pg")
    with open("other.pg", "a") as out:
        out.write("\n")
    capsys.readouterr()
    assert main(["show", "other.pg", "--certificate", "ttt.json", "-o", "x.html"]) == 1
    err = capsys.readouterr().err
    assert "the game files other.pg differ from those the certificate was written for" in err
    assert "bddlc show tictactoe_3x3.pg --certificate ttt.json -o strategy.html" in err


@pytest.mark.parametrize("game, first, not_said", [
    ("tictactoe_3x3.pg", "Black moves first: click one of its moves, or the cell it plays, to go on.", "replies"),
    ("row3_4x4.pg", "Black moves first: click its move, or the cell it plays, to go on; where White moves, choose one of its moves.",
     "Click one of White's replies"),
])
def test_the_summary_says_whose_move_it_is_at_the_start(folder, capsys, game, first, not_said):
    """At ply 0 Black moves: a refutation's page does not ask for "one of Black's replies"."""
    assert main(["search", game, "--certificate", "c.json"]) == 0
    assert main(["show", game, "--certificate", "c.json", "-o", "page.html"]) == 0
    text = summary(folder / "page.html")
    assert text.endswith(first) and not_said not in text, text


def test_counts_take_their_number(folder, tmp_path, capsys):
    """A win at once is a one-node certificate: "(1 position)"; a depth of 1, "1 ply"."""
    (folder / "one.pg").write_text("#version\n1.0\n#times\nt1\n#blackturns\nt1\n#positions\na1 a2\n#blackwins\na1\n#whitewins\na2\n")
    assert main(["search", "one.pg", "--certificate", "c.json"]) == 0
    data = json.loads((folder / "c.json").read_text())
    assert len(data["nodes"]) == 1
    assert main(["show", "one.pg", "--certificate", "c.json", "-o", "page.html"]) == 0
    text = summary(folder / "page.html")
    assert "within 1 ply:" in text and "(1 position)." in text, text


def test_a_symmetry_that_does_not_map_the_position_is_refused(folder, capsys):
    """The page maps a stored image back by the symmetry's inverse to show the position played:
    a wrong index would show stones nobody played, so the explorer refuses it."""
    assert main(["search", "tic_5x5_torus.pg", "--certificate", "c.json"]) == 0
    lines = (folder / "c.json").read_text().splitlines()
    data = json.loads("\n".join(lines))
    count = len(data["symmetries"])
    k, line = next((k, line) for k, line in enumerate(lines) if '"symmetry": ' in line)
    lines[k] = re.sub(r'"symmetry": (\d+)', lambda m: f'"symmetry": {(int(m.group(1)) + 1) % count}', line, count=1)
    (folder / "bad.json").write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["show", "tic_5x5_torus.pg", "--certificate", "bad.json", "-o", "page.html"]) == 1
    assert "names symmetry" in capsys.readouterr().err
