"""The generators make the published games: every GTTT file of the corpus and
the four milestones, compared by everything that decides the answer."""

from __future__ import annotations

import re

import pytest

from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.pg.generate import SHAPES, gttt, k_in_a_row, main, orientations, shape_cells, turn_sequence
from bddl.pg.reader import load_pg, read_pg
from bddl.pg.writer import write_pg
from conftest import CORPUS

PG_CORPUS = CORPUS / "pg"
needs_pg_corpus = pytest.mark.skipif(not PG_CORPUS.is_dir(), reason="../shared/corpus/pg is not present")
GTTT_NAME = re.compile(r"gttt_(\d)_(\d)_(\d+)_(\d+)x\4(_torus)?_([bw])\.pg")


def content(game: PositionalGame):
    """What decides the answer, by cell name: cells, the movers in order, both
    sides' winning sets (as sets), the initial stones and the first-move set."""

    def named(cells):
        return frozenset(game.cells[i] for i in cells)

    return {
        "cells": frozenset(game.cells),
        "turns": game.turns,
        "black_wins": frozenset(named(s) for s in game.black_wins),
        "white_wins": frozenset(named(s) for s in game.white_wins),
        "black_initials": named(game.black_initials),
        "white_initials": named(game.white_initials),
        "first_moves": None if game.first_moves is None else named(game.first_moves),
    }


def test_turn_sequences():
    assert turn_sequence(5) == (BLACK, WHITE, BLACK, WHITE, BLACK)
    assert turn_sequence(5, 2, 1) == (BLACK, WHITE, WHITE, BLACK, BLACK)
    assert turn_sequence(5, 2, 2, black_first=False) == (WHITE, WHITE, BLACK, BLACK, WHITE)


def test_shapes_and_orientations():
    assert len(orientations(shape_cells("Domino"))) == 2
    assert len(orientations(shape_cells("El"))) == 4
    assert len(orientations(shape_cells("Fatty"))) == 1
    assert len(orientations(shape_cells("Snaky"))) == 8
    with pytest.raises(ValueError):
        shape_cells("Wiggly")


def test_domino_3x3_by_hand():
    g = gttt(3, "Domino")
    assert len(g.black_wins) == 12 and g.black_wins == g.white_wins
    assert {g.cells[i] for i in g.first_moves} == {"a1", "a2", "b2"}
    torus = gttt(3, "Domino", torus=True)
    assert len(torus.black_wins) == 18 and {torus.cells[i] for i in torus.first_moves} == {"a1"}


def test_k_in_a_row_counts():
    assert len(k_in_a_row((3, 3), 3).black_wins) == 8  # tic-tac-toe
    assert len(k_in_a_row((4, 4, 4), 4).black_wins) == 76  # Qubic
    assert len(k_in_a_row((1, 5), 5).black_wins) == 1
    assert k_in_a_row((4, 4, 4), 4).first_moves is None


def test_generated_games_round_trip():
    for game in (gttt(4, "Tippy", 2, 1, torus=True), k_in_a_row((3, 3, 2), 2, black_first=False)):
        assert read_pg(write_pg(game)) == game


def test_the_command_writes_a_file(tmp_path):
    out = tmp_path / "qubic.pg"
    assert main(["row", "--box", "4", "4", "4", "--k", "4", "-o", str(out)]) == 0
    assert content(load_pg(out)) == content(k_in_a_row((4, 4, 4), 4))
    assert main(["gttt", "--size", "3", "--shape", "Nope", "-o", str(tmp_path / "x.pg")]) == 1
    assert not (tmp_path / "x.pg").exists()


@needs_pg_corpus
def test_every_corpus_gttt_file_is_generated():
    files = sorted(PG_CORPUS.glob("gttt-*/*.pg"))
    assert len(files) == 180
    codes = set(SHAPES.values())
    for path in files:
        m = GTTT_NAME.fullmatch(path.name)
        assert m, path.name
        p, q, code, n, torus, first = m.groups()
        assert code in codes, code
        game = gttt(int(n), code, int(p), int(q), torus=bool(torus), black_first=first == "b")
        assert content(game) == content(load_pg(path)), path.name


@needs_pg_corpus
def test_the_milestones_are_generated():
    milestones = PG_CORPUS / "milestones"
    made = {
        "qubic_1_1_4x4x4.pg": k_in_a_row((4, 4, 4), 4),
        "gomoku_1_1_15x15_connect5.pg": k_in_a_row((15, 15), 5),
        "gttt_1_1_9x9_snaky.pg": gttt(9, "Snaky"),
        "mickey_mouse_1_2_19x19_connect6.pg": k_in_a_row((19, 19), 6, 2, 1, opening=("j10", "i12", "k12", "k11", "j12")),
    }
    for name, game in made.items():
        published = load_pg(milestones / name)
        assert content(game) == content(published), name
        assert game.times == published.times, name


def test_with_depth_cuts_or_continues_the_turn_pattern():
    game = gttt(3, "Domino", p=2, q=1)  # B WW BB WW BB
    assert game.with_depth(3).turns == (BLACK, WHITE, WHITE)
    longer = game.with_depth(13)
    assert longer.turns == turn_sequence(13, 2, 1)
    assert longer.times[-4:] == ("t10", "t11", "t12", "t13")
    assert read_pg(write_pg(longer)) == longer
    assert game.turn_blocks() == ((BLACK, 1), (WHITE, 2), (BLACK, 2), (WHITE, 2), (BLACK, 2))
