"""The `.pg` reader: one test per diagnostic (message, line and column, expected
form), the round trip through the writer, and every corpus file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bddl.errors import BddlError
from bddl.pg.game import BLACK, WHITE, BorderGraph, PositionalGame
from bddl.pg.geometry import coordinates_from_names
from bddl.pg.reader import load_pg, read_pg
from bddl.pg.writer import save_pg, write_pg
from conftest import CORPUS

PG_CORPUS = CORPUS / "pg"
needs_pg_corpus = pytest.mark.skipif(not PG_CORPUS.is_dir(), reason="../shared/corpus/pg is not present")

GAME = """\
% a 2x2 board, Black first
#times
t1 t2 t3
#blackturns
t1 t3
#positions
a1 a2 b1 b2
#blackwins
a1 a2
b1 b2
#whitewins
a1 b1
"""


def diagnostics(text: str):
    try:
        read_pg(text, "g.pg")
    except BddlError as exc:
        return list(exc.diagnostics)
    return []


def only_error(text: str):
    found = diagnostics(text)
    assert len(found) == 1, [d.headline() for d in found]
    return found[0]


def where(d):
    return (d.span.line, d.span.column)


def test_the_base_game_reads():
    g = read_pg(GAME, "g.pg")
    assert g.cells == ("a1", "a2", "b1", "b2")
    assert g.turns == (BLACK, WHITE, BLACK)
    assert g.black_wins == (frozenset({0, 1}), frozenset({2, 3}))
    assert g.white_wins == (frozenset({0, 2}),)
    assert g.first_moves is None and g.graph is None
    assert g.coordinates == ((0, 0), (0, 1), (1, 0), (1, 1))


def test_unknown_section_suggests_the_close_one():
    d = only_error(GAME.replace("#whitewins", "#whitewin"))
    assert where(d) == (11, 1)
    assert d.message == "unknown section '#whitewin'; did you mean '#whitewins'?"
    assert "#blackinitials" in d.hint


def test_unknown_section_far_from_all_lists_them():
    d = only_error(GAME.replace("#whitewins", "#zzz"))
    assert "#blackturns" in d.hint and "did you mean" not in d.message


def test_names_before_the_first_section():
    d = only_error("t0\n" + GAME)
    assert where(d) == (1, 1) and "before the first section" in d.message


def test_a_name_with_other_characters():
    d = only_error(GAME.replace("a1 a2\n", "a1 a-2\n"))
    assert where(d) == (9, 4) and "'a-2' is not a name" in d.message


def test_blackturn_not_among_times():
    d = only_error(GAME.replace("t1 t3\n", "t1 t4\n"))
    assert where(d) == (5, 4)
    assert "time point 't4' is not declared in #times" in d.message
    assert "#times" in d.hint


def test_winning_set_naming_an_unknown_cell_suggests_a_cell():
    d = only_error(GAME.replace("b1 b2\n#white", "b1 bb2\n#white"))
    assert where(d) == (10, 4)
    assert d.message == "cell 'bb2' is not declared in #positions; did you mean 'b2'?"
    assert d.hint == "a cell from #positions"


def test_duplicate_cell_in_positions():
    d = only_error(GAME.replace("a1 a2 b1 b2", "a1 a2 b1 b2 a2"))
    assert where(d) == (7, 13) and "cell 'a2' declared twice" in d.message
    assert "line 7, column 4" in d.hint


def test_duplicate_time():
    d = only_error(GAME.replace("t1 t2 t3", "t1 t2 t3 t2"))
    assert where(d) == (3, 10) and "time point 't2' declared twice" in d.message


def test_duplicate_blackturn():
    d = only_error(GAME.replace("t1 t3\n", "t1 t3 t1\n"))
    assert where(d) == (5, 7) and "given twice in '#blackturns'" in d.message


def test_duplicate_cell_in_a_winning_set():
    d = only_error(GAME.replace("a1 a2\n", "a1 a2 a1\n"))
    assert where(d) == (9, 7) and "appears twice in one winning set" in d.message


def test_repeated_section():
    d = only_error(GAME + "#blackturns\nt1\n")
    assert where(d) == (13, 1) and "repeated section '#blackturns'" in d.message
    assert "line 4" in d.hint


def test_cell_owned_by_both_sides():
    d = only_error(GAME + "#blackinitials\na1 b2\n#whiteinitials\nb2\n")
    assert where(d) == (16, 1) and "owned by both sides" in d.message


def test_no_times():
    d = only_error(GAME.replace("t1 t2 t3\n", "").replace("t1 t3\n", ""))
    assert where(d) == (2, 1) and "no time points" in d.message
    assert "'#times' followed by" in d.hint


def test_no_cells():
    text = "#times\nt1\n#blackturns\nt1\n#positions\n#blackwins\n"
    d = only_error(text)
    assert where(d) == (5, 1) and "no cells" in d.message


def test_missing_section():
    d = only_error(GAME.replace("#blackturns\nt1 t3\n", ""))
    assert "missing section '#blackturns'" in d.message and d.span.line > 0


def test_version_other_than_1_0():
    d = only_error("#version\n2.0\n" + GAME)
    assert where(d) == (2, 1) and "unsupported version '2.0'" in d.message and "1.0" in d.hint


def test_version_1_0_reads():
    assert read_pg("#version\n1.0\n" + GAME) == read_pg(GAME)


def test_empty_firstmoves():
    d = only_error(GAME + "#firstmoves\n")
    assert where(d) == (13, 1) and "names no cell" in d.message


def test_firstmove_unknown():
    d = only_error(GAME + "#firstmoves\nc3\n")
    assert where(d) == (14, 1) and "'c3' is not declared" in d.message


HEX = """\
#times
t1 t2 t3
#blackturns
t1 t3
#positions
a1 a2 b1 b2
#blackwins
#neighbours
a1 a2 b1
a2 a1 b1 b2
b1 a1 a2 b2
b2 a2 b1
#startboarder
a1 b1
#endboarder
a2 b2
"""


def test_hex_sections_read_into_a_border_graph():
    g = read_pg(HEX)
    assert g.graph == BorderGraph(((1, 2), (0, 2, 3), (0, 1, 3), (1, 2)), frozenset({0, 2}), frozenset({1, 3}))
    assert g.maker_breaker


def test_hex_without_all_three_sections():
    d = only_error(HEX.replace("#endboarder\na2 b2\n", ""))
    assert where(d) == (8, 1) and "needs '#endboarder' too" in d.message


def test_hex_with_winning_sets():
    d = only_error(HEX.replace("#blackwins\n", "#blackwins\na1 a2\n"))
    assert where(d) == (8, 1) and "cannot have winning sets in '#blackwins'" in d.message


def test_hex_neighbours_not_symmetric():
    d = only_error(HEX.replace("b2 a2 b1\n", "b2 a2\n"))
    assert where(d) == (11, 10) and "'b2' does not list 'b1'" in d.message


def test_hex_cell_twice_in_neighbours():
    found = diagnostics(HEX.replace("b2 a2 b1\n", "b2 a2 b1\na1 a2 b1\n"))
    assert any("'a1' has two lines in '#neighbours'" in x.message and where(x) == (13, 1) for x in found)


def test_hex_own_neighbour():
    found = diagnostics(HEX.replace("a1 a2 b1\n", "a1 a2 b1 a1\n"))
    assert any("its own neighbour" in x.message and where(x) == (9, 10) for x in found)


def test_every_problem_is_reported_at_once():
    found = diagnostics(GAME.replace("t1 t3\n", "t1 t9\n").replace("b1 b2\n#white", "b1 zz\n#white"))
    assert [d.span.line for d in found] == [5, 10]


def test_rendering_has_the_line_and_a_caret():
    try:
        read_pg(GAME.replace("b1 b2\n#white", "b1 bb2\n#white"), "g.pg")
    except BddlError as exc:
        text = exc.render({"g.pg": GAME.replace("b1 b2\n#white", "b1 bb2\n#white")})
    assert text.splitlines()[:3] == [
        "g.pg:10:4: error: cell 'bb2' is not declared in #positions; did you mean 'b2'?",
        "   10 | b1 bb2",
        "      |    ^~~",
    ]


def test_comments_blank_lines_crlf_bom_and_header_line_names():
    text = "\ufeff" + GAME.replace("\n", "\r\n").replace("#times\r\n", "#times % the clock\r\n\r\n")
    assert read_pg(text) == read_pg(GAME)
    assert read_pg(GAME.replace("#times\nt1 t2 t3", "#times t1 t2 t3")) == read_pg(GAME)


def test_missing_file_is_a_diagnostic(tmp_path):
    with pytest.raises(BddlError, match="no such file"):
        load_pg(tmp_path / "absent.pg")


# -- the writer -----------------------------------------------------------------


def test_round_trip_of_every_feature():
    g = read_pg(GAME + "#blackinitials\na1\n#whiteinitials\nb2\n#firstmoves\na2 b1\n")
    text = write_pg(g)
    assert read_pg(text) == g
    assert write_pg(read_pg(text)) == text
    hexgame = read_pg(HEX)
    assert read_pg(write_pg(hexgame)) == hexgame


def test_writer_is_deterministic_and_ordered():
    g = read_pg(GAME)
    assert write_pg(g) == write_pg(read_pg(GAME))
    assert write_pg(g).startswith("#version\n1.0\n#times\nt1 t2 t3\n#blackturns\nt1 t3\n")


def test_save_writes_the_whole_file(tmp_path):
    g = read_pg(GAME)
    save_pg(g, tmp_path / "g.pg", comments=("made by a test",))
    assert load_pg(tmp_path / "g.pg") == g
    assert [p.name for p in tmp_path.iterdir()] == ["g.pg"]


def test_a_game_built_by_hand_round_trips():
    g = PositionalGame(
        cells=("x", "y", "z"),
        times=("1", "2"),
        turns=(WHITE, BLACK),
        black_wins=(frozenset({0, 1}),),
        black_initials=frozenset({2}),
        coordinates=coordinates_from_names(("x", "y", "z")),
    )
    assert read_pg(write_pg(g)) == g


# -- the published files ----------------------------------------------------------


def corpus_pg_files() -> list[Path]:
    return sorted(PG_CORPUS.glob("**/*.pg")) if PG_CORPUS.is_dir() else []


@needs_pg_corpus
def test_every_corpus_file_reads_and_round_trips():
    files = corpus_pg_files()
    assert len(files) == 224
    for path in files:
        g = load_pg(path)
        assert read_pg(write_pg(g)) == g, path
        if "hein" in path.parts[-2]:
            assert g.graph is not None and g.maker_breaker
        else:
            assert g.graph is None and g.black_wins
