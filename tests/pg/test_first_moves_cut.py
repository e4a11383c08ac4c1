"""`#firstmoves` checked against the board's symmetries (issue 42, item 8): a cut
that leaves out a whole class of symmetric openings answers another question,
so the reader warns, on the section, naming the openings left out, and every
command prints that warning; a symmetry-complete cut (the corpus's, our
generators') gets none, and then the cut game has the uncut game's value."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_random import brute_force, random_game

from bddl.engines.positional import solve
from bddl.pg.animals import animal_game
from bddl.pg.game import PositionalGame
from bddl.pg.geometry import first_moves_left_out
from bddl.pg.reader import load_pg, read_pg_located
from bddl.pg.writer import write_pg
from compiler.cli import COMMANDS, main
from conftest import CORPUS, ROOT
from helpers.suite import suite_games

PG_CORPUS = CORPUS / "pg"
SUITE = ROOT / "problems" / "pg"


def cut(game: PositionalGame, *names: str) -> PositionalGame:
    return replace(game, first_moves=frozenset(game.cells.index(n) for n in names))


def cut_warnings(game: PositionalGame):
    return [d for d in read_pg_located(write_pg(game), "g.pg").warnings if "leaves out" in d.message]


def n_pentomino() -> PositionalGame:
    """The issue's game: the N-pentomino's weak 5x5 game within 6 Black moves, a Black win by c3."""
    return animal_game("N-pentomino", 5, weak=True, moves=6)


def test_the_issue_s_cut_is_warned_of_naming_c3():
    game = n_pentomino()
    text = write_pg(cut(game, "a1", "a2", "b2", "a3", "b3"))
    read = read_pg_located(text, "n.pg")
    [found] = [d for d in read.warnings if "leaves out" in d.message]
    header = text.splitlines().index("#firstmoves") + 1
    assert (found.span.line, found.span.column, found.severity) == (header, 1, "warning")
    assert found.message.startswith("'#firstmoves' leaves out the first move c3, which no symmetry of the board")
    assert "every verdict is for the game with the first move cut to the listed cells" in found.message
    assert found.hint.endswith("add c3, or drop the section to allow every open cell")
    # and it is the question that changed, not the answer to it
    assert solve(game).black_wins and not solve(read.game).black_wins


def test_the_generated_cut_is_complete():
    game = n_pentomino()
    assert game.first_moves is not None and cut_warnings(game) == []
    assert cut_warnings(replace(game, first_moves=None)) == []


def test_several_classes_are_named_with_one_cell_each_in_the_fix():
    game = cut(animal_game("V-tromino", 3), "a1")  # leaves out the edges' class and the centre
    [found] = cut_warnings(game)
    assert "the first moves a2 b1 b3 c2 b2, " in found.message
    assert "add a2 b2," in found.hint
    big = cut(animal_game("I-tetromino", 9), "a1")
    [found] = cut_warnings(big)
    assert "a2 a8 b1 b9 h1 h9 i2 i8 a3 a7 c1 c9 and 65 more," in found.message  # 77 openings left out: 12 named
    assert "add a2 a3 a4 a5 b2 b3 b4 b5 c3 c4 c5 d4 d5 e5," in found.hint  # one cell of each of the 14 classes


def test_only_symmetries_that_keep_the_initial_stones_count():
    """With a White stone on a1 only the a1-c3 diagonal's reflection keeps the position: c3 stands
    for itself, not for a3 (the whole board's symmetries would say it does)."""
    game = replace(load_pg(SUITE / "tictactoe_3x3.pg"), white_initials=frozenset({0}))  # its lines: the 8 symmetries
    assert cut_warnings(cut(game, "a2", "a3", "b2", "b3", "c3")) == []
    [found] = cut_warnings(cut(game, "a2", "b2", "b3", "c3"))
    assert "the first moves a3 c1, " in found.message and "add a3," in found.hint


def test_a_taken_cut_is_said_once():
    """No open first-move cell: the reader's other warning says the game is over; this one would only repeat it."""
    game = replace(cut(animal_game("I-tromino", 3), "a1"), black_initials=frozenset({0}))
    read = read_pg_located(write_pg(game), "g.pg")
    assert [d for d in read.warnings if "leaves out" in d.message] == []
    assert any("the first mover has no move" in d.message for d in read.warnings)


@pytest.mark.skipif(not PG_CORPUS.is_dir(), reason="../shared/corpus/pg is not present")
def test_the_corpus_cuts_are_complete():
    files = sorted(PG_CORPUS.rglob("*.pg"))
    with_cut = 0
    for path in files:
        read = read_pg_located(path.read_text(), str(path))
        with_cut += read.game.first_moves is not None
        assert [d.message for d in read.warnings if "leaves out" in d.message] == [], path
    assert with_cut >= 180  # the 180 GTTT files, Gomoku and Snaky


def test_the_suite_cuts_are_complete():
    for path in suite_games():
        read = read_pg_located(path.read_text(), str(path))
        assert [d.message for d in read.warnings if "leaves out" in d.message] == [], path


@settings(max_examples=300, deadline=None, derandomize=True)
@given(rng=st.randoms(use_true_random=False), keep=st.floats(0.1, 0.9))
def test_a_cut_without_a_warning_keeps_the_value(rng, keep):
    """The reason the warning may stay silent: when every class keeps a cell, the cut game and the
    uncut one have one value (brute force, which knows no symmetry).  And the warning's fix works:
    adding the cells it names leaves no warning."""
    game = random_game(rng)
    taken = game.black_initials | game.white_initials
    openings = [c for c in range(len(game.cells)) if c not in taken]
    if not openings:
        return
    chosen = frozenset(c for c in openings if rng.random() < keep) or frozenset(openings[:1])
    game = replace(game, first_moves=chosen)
    classes = first_moves_left_out(game)
    assert all(c in openings and c not in chosen for orbit in classes for c in orbit)
    if not classes:
        assert brute_force(game) == brute_force(replace(game, first_moves=None))
        assert cut_warnings(game) == []
        return
    [found] = cut_warnings(game)
    assert all(game.cells[orbit[0]] in found.hint for orbit in classes)
    fixed = replace(game, first_moves=chosen | {orbit[0] for orbit in classes})
    assert first_moves_left_out(fixed) == () and cut_warnings(fixed) == []
    assert brute_force(fixed) == brute_force(replace(game, first_moves=None))


# -- every command says it ------------------------------------------------------------------


@pytest.fixture
def cut_game(tmp_path):
    path = tmp_path / "n.pg"
    path.write_text(write_pg(cut(n_pentomino(), "a1", "a2", "b2", "a3", "b3")))
    return path


def _arguments(game: str, folder) -> dict[str, list[str]]:
    certificate = str(folder / "c.json")
    return {
        "compile": ["compile", game, "-o", str(folder / "n.qdimacs")],
        "search": ["search", game, "--certificate", certificate],  # before certify, which reads its file
        "solve": ["solve", game, "--engine", "search"],
        "depth": ["depth", game, "--min", "11", "--engine", "search"],
        "play": ["play", game],
        "validate": ["validate", game, "--engine", "search", "--max-lines", "1"],
        "certify": ["certify", game, certificate],
        "check": ["check", game],
        "show": ["show", game, "-o", str(folder / "n.svg")],
    }


def test_every_command_that_reads_the_game_warns(cut_game, tmp_path, capsys, monkeypatch):
    asked = _arguments(str(cut_game), tmp_path)
    # regress reads a manifest (its entries' games are its own), export refuses a .pg game
    assert set(asked) | {"regress", "export"} == set(COMMANDS)
    for name, argv in asked.items():
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        main(argv)
        out, err = capsys.readouterr()
        said = err if name != "check" else out  # check's report lists its warnings; the others say them on stderr
        assert (out + err).count("warning: '#firstmoves' leaves out the first move c3") == 1, (name, out, err)
        assert "warning: '#firstmoves' leaves out the first move c3" in said and "add c3, or drop the section" in said, name


def test_check_lists_it_in_text_and_json(cut_game, capsys):
    main(["check", str(cut_game)])
    out = capsys.readouterr().out
    assert "warning: '#firstmoves' leaves out the first move c3" in out and out.rstrip().endswith("; 1 warning")
    main(["check", str(cut_game), "--json"])
    [found] = json.loads(capsys.readouterr().out)["warnings"]
    assert found["severity"] == "warning" and "c3" in found["message"]
