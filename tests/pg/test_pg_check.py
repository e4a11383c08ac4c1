"""`compiler.analysis.pg_check` and the reader's first-move warning: each
likely mistake in a positional game is found, on the line that causes it,
and a clean game gets no warning."""

from __future__ import annotations

from textwrap import dedent

import pytest

from compiler.analysis.pg_check import check_pg
from bddl.pg.reader import read_pg_located
from helpers.suite import suite_games

GAME = """\
#times
t1 t2 t3 t4 t5
#blackturns
t1 t3 t5
#positions
a1 a2 a3 b1 b2 b3
#blackwins
a1 a2 a3
b1 b2 b3
#whitewins
a1 b1
a2 b2
"""
# lines: 8 and 9 are Black's sets, 11-12 White's (13 the third, added by each test)


def findings(text: str) -> list[tuple[int, str]]:
    report = check_pg(read_pg_located(dedent(text), "g.pg"))
    return [(d.span.line, d.message) for d in report.warnings]


def test_a_clean_game_has_no_warning():
    assert findings(GAME + "a3 b3\n") == []


def test_every_suite_game_is_read_with_its_places():
    for path in suite_games():
        read = read_pg_located(path.read_text(), str(path))
        assert len(read.set_spans.get("blackwins", ())) == len(read.game.black_wins)
        check_pg(read)  # no exception


@pytest.mark.parametrize(
    "extra, words",
    [
        ("a1 a2 a3\n", "this Black winning set repeats the one on line 8"),
        ("a1 a2 a3 b1\n", "this Black winning set contains the one on line 8"),
    ],
)
def test_repeated_and_larger_black_sets(extra, words):
    text = GAME.replace("b1 b2 b3\n#whitewins", "b1 b2 b3\n" + extra + "#whitewins") + "a3 b3\n"
    assert (10, words) in [(line, message.split(",")[0]) for line, message in findings(text)], findings(text)


def test_a_set_the_other_side_holds_a_cell_of_is_dead():
    text = GAME + "a3 b3\n#whiteinitials\nb2\n"
    assert (9, "this Black winning set can never be completed: White owns b2 before play") in findings(text)


def test_a_set_longer_than_the_side_s_claims():
    assert not any("needs" in m for _, m in findings(GAME + "a3 b3\n"))
    short = (GAME + "a3 b3\n").replace("t1 t2 t3 t4 t5", "t1 t2 t3 t4").replace("t1 t3 t5", "t1 t3")
    assert (7, "Black has no winning set it can complete within the depth, so Black cannot win: each needs at least 3 more cells "
               "and Black claims 2 within the depth of 4") in findings(short)
    assert not any("needs 3 more cells" in m for _, m in findings(short))  # one warning for the side, not one per set
    some = short.replace("b1 b2 b3\n#whitewins", "b1 b2\n#whitewins")
    assert [line for line, m in findings(some) if "needs 3 more cells but Black claims only 2 within the depth of 4" in m] == [8]


def test_idle_cells_are_listed():
    text = GAME.replace("a1 a2 a3 b1 b2 b3\n#blackwins", "a1 a2 a3 b1 b2 b3 c1 c2\n#blackwins") + "a3 b3\n"
    assert (5, "2 cells are in no winning set of either side, so claiming them never matters: c1, c2") in findings(text)


def test_a_taken_first_move_cell_is_warned_of_when_the_game_is_read():
    text = GAME + "a3 b3\n#blackinitials\nb3\n#firstmoves\nb3 a1\n"
    read = read_pg_located(dedent(text), "g.pg")
    assert [(d.span.line, d.span.column, d.message.split(",")[0]) for d in read.warnings] == [
        (17, 1, "first-move cell 'b3' is owned by Black before play"),
        # and with Black on b3 only the exchange of columns 1 and 2 keeps the position: a1 stands for a2 alone
        (16, 1, "'#firstmoves' leaves out the first moves a3 b1 b2"),
    ]
    alone = read_pg_located(dedent(GAME + "a3 b3\n#blackinitials\nb3\n#firstmoves\nb3\n"), "g.pg")
    assert any("the first mover has no move" in d.message for d in alone.warnings)


def test_hex_cells_cut_off_from_a_border():
    from bddl.pg.hex import hex_board
    from bddl.pg.writer import write_pg

    text = write_pg(hex_board(3, 5, "2o/ooo"))
    found = findings(text)
    assert any("on no chain of cells between Black's two borders" in m for _, m in found), found
