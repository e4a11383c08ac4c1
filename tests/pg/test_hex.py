"""Hex boards as graph games: the generator agrees with the Hein files, the
stone notation round-trips, the drawing puts every cell where the file's
neighbours say, and the borders obey the Hex theorem."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import CORPUS

from bddl.pg.hex import (
    HexNotationError,
    draw_hex,
    hex_board,
    hex_coordinates,
    parse_stones,
    stone_notation,
    white_borders,
)
from bddl.pg.prune import black_connected
from bddl.pg.reader import load_pg, read_pg
from bddl.pg.writer import write_pg

HEIN = CORPUS / "pg" / "hein"
needs_hein = pytest.mark.skipif(not HEIN.is_dir(), reason="../shared/corpus/pg/hein is not present")
HEIN_FILES = sorted(HEIN.glob("*.pg")) if HEIN.is_dir() else []


@needs_hein
@pytest.mark.parametrize("path", HEIN_FILES, ids=lambda p: p.stem)
def test_generator_and_notation_rebuild_every_hein_file(path: Path):
    game = load_pg(path)
    size = 1 + max(c for c, _ in hex_coordinates(game))
    rebuilt = hex_board(size, game.depth, stone_notation(game))
    assert rebuilt == game


@needs_hein
def test_hein_files_are_recognised_as_hex_boards():
    assert len(HEIN_FILES) == 40
    for path in HEIN_FILES:
        assert hex_coordinates(load_pg(path)) is not None, path.name


def test_board_round_trips_through_the_pg_writer():
    game = hex_board(4, 7, "x/1o/2x/o")
    assert read_pg(write_pg(game), "hex.pg") == game


def test_notation_round_trip_on_random_positions():
    rng = random.Random(7)
    for _ in range(200):
        columns, rows = rng.randint(1, 7), rng.randint(1, 7)
        marks = {(c, r): rng.choice("xo..") for c in range(columns) for r in range(rows)}
        text = "/".join("".join(marks[(c, r)] for c in range(columns)) for r in range(rows))
        game = hex_board(columns, 3, text, rows=rows)
        where = hex_coordinates(game)
        assert {where[i] for i in game.black_initials} == {xy for xy, m in marks.items() if m == "x"}
        assert {where[i] for i in game.white_initials} == {xy for xy, m in marks.items() if m == "o"}
        assert hex_board(columns, 3, stone_notation(game), rows=rows) == game


def test_notation_runs_and_short_rows():
    black, white = parse_stones("x2o/3x/", 5, 3)
    assert black == {(0, 0), (3, 1)} and white == {(3, 0)}
    assert parse_stones("", 5, 5) == (set(), set())


@pytest.mark.parametrize("text", ["x.o./", "xxxx", "a", "x/x/x/x", "2x2"])
def test_bad_notation_is_refused(text):
    with pytest.raises(HexNotationError):
        parse_stones(text, 3, 3)


def test_neighbours_are_symmetric_and_six_inside():
    game = hex_board(5)
    for v, around in enumerate(game.graph.neighbours):
        assert all(v in game.graph.neighbours[w] for w in around)
    assert len(game.graph.neighbours[game.cells.index("c3")]) == 6
    assert [game.cells[w] for w in game.graph.neighbours[game.cells.index("b2")]] == ["a2", "a3", "b1", "b3", "c1", "c2"]
    assert {game.cells[v] for v in game.graph.start_border} == {"a1", "b1", "c1", "d1", "e1"}
    assert {game.cells[v] for v in game.graph.end_border} == {"a5", "b5", "c5", "d5", "e5"}


def test_hex_theorem_on_random_full_boards():
    """Exactly one side joins its borders on a full board: the borders and
    neighbours are Hex's (what the transversal encoding relies on)."""
    rng = random.Random(3)
    for _ in range(300):
        columns, rows = rng.randint(1, 6), rng.randint(1, 6)
        game = hex_board(columns, rows=rows)
        black = {v for v in range(len(game.cells)) if rng.random() < 0.5}
        white = set(range(len(game.cells))) - black
        white_start, white_end = white_borders(game)
        from bddl.pg.game import BorderGraph

        white_graph = BorderGraph(game.graph.neighbours, white_start, white_end)
        assert black_connected(game.graph, black) != black_connected(white_graph, white)


def test_drawing_of_hein_4():
    game = hex_board(3, 5, "xo/2o")
    assert draw_hex(game) == "\n".join(
        [
            "   a b c",
            "1  B W .  1",
            " 2  . . W  2",
            "  3  . . .  3",
            "     a b c",
        ]
    )
    b2 = game.cells.index("b2")
    assert draw_hex(game, black=[b2], mark=b2).splitlines()[2] == " 2  .[B]W  2"


def test_drawing_places_neighbours_next_to_each_other():
    """Every pair of neighbours is drawn one row apart and one column apart,
    or side by side: the rhombus is the graph."""
    game = hex_board(6, rows=4)
    lines = draw_hex(game).splitlines()[1:-1]
    where = {}
    for v in range(len(game.cells)):
        drawing = draw_hex(game, black=[v]).splitlines()[1:-1]
        (row,) = [r for r in range(len(lines)) if drawing[r] != lines[r]]
        where[v] = (row, drawing[row].index("B"))
    for v, around in enumerate(game.graph.neighbours):
        for w in around:
            (r1, x1), (r2, x2) = where[v], where[w]
            assert (abs(r1 - r2), abs(x1 - x2)) in {(0, 2), (1, 1)}, (game.cells[v], game.cells[w])


def test_not_a_hex_board():
    game = hex_board(3)
    from dataclasses import replace

    from bddl.pg.game import BorderGraph

    shuffled = replace(game, graph=BorderGraph(game.graph.neighbours, game.graph.end_border, game.graph.start_border))
    assert hex_coordinates(shuffled) is None
    with pytest.raises(ValueError):
        draw_hex(shuffled)


def test_every_drawing_of_a_hex_position_is_the_rhombus():
    from bddl.pg.draw import draw

    game = hex_board(3, 5, "xo/2o")
    b2 = game.cells.index("b2")
    drawn = draw(game, game.mask(game.black_initials | {b2}), game.mask(game.white_initials), b2)
    assert drawn == draw_hex(game, black=[b2], mark=b2)


def test_generate_writes_a_hex_position(tmp_path):
    from bddl.pg.generate import main

    out = tmp_path / "h.pg"
    assert main(["hex", "--size", "3", "--stones", "xo/2o", "--depth", "5", "-o", str(out)]) == 0
    assert load_pg(out) == hex_board(3, 5, "xo/2o")
    assert main(["hex", "--size", "3", "--stones", "q", "-o", str(tmp_path / "bad.pg")]) == 1
    assert not (tmp_path / "bad.pg").exists()


@needs_hein
def test_solve_a_hein_puzzle_from_the_command_line(capsys):
    from compiler.cli import main

    status = main(["solve", str(HEIN / "hein_09_4x4-07.pg"), "--engine", "qbf"])
    out = capsys.readouterr().out
    assert status == 10
    assert "encoding: et" in out and "solver: caqe" in out
    assert "first move:" in out and "(checked by the explicit solver)" in out
    assert " 2  " in out and "[B]" in out  # the rhombus, the first move marked
    status = main(["solve", str(HEIN / "hein_09_4x4-05.pg"), "--encoding", "ln", "--solver", "depqbf"])
    assert status == 20
    status = main(["solve", str(HEIN / "hein_09_4x4-07.pg")])  # the default race
    out = capsys.readouterr().out
    assert status == 10 and "answered by " in out and "first move:" in out


@needs_hein
def test_play_and_validate_referee_the_hex_goal(capsys, monkeypatch):
    """bddlc validate and play judge a Hex game by its chain (there are no
    winning sets to own): Hein's puzzle 4 is valid, and a played game ends
    with Black's chain."""
    import io

    from bddl.rules import Position, pg_rules
    from compiler.cli import main

    game = load_pg(HEIN / "hein_04_3x3-05.pg")
    rules = pg_rules(game)

    def black_has_won(stones):
        return rules.won(Position(game.mask(frozenset(game.cells.index(c) for c in stones)), 0, len(stones)), "black")

    assert black_has_won(("c1", "b2", "b3"))
    assert not black_has_won(("a1", "b2"))
    assert main(["validate", str(HEIN / "hein_04_3x3-05.pg")]) == 0
    assert "valid: Black wins all" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n"))
    assert main(["play", str(HEIN / "hein_04_3x3-05.pg")]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Black reaches its goal: Black wins.") and "[B]" in out
