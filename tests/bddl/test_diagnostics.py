"""One test per diagnostic: the message, and the line and column it points at."""

from __future__ import annotations

import pytest

from bddl import BddlError, BddlLimitError, Limits, check_model, load_model, parse_domain, parse_problem
from bddl.errors import BddlSyntaxError
from helpers.paper_listings import LISTING_4_POSITIONAL_DOMAIN

DOMAIN = LISTING_4_POSITIONAL_DOMAIN  # the paper's positional game: occupy an open cell

PROBLEM = """\
#boardsize 3 3
#init
#depth 3
#blackgoals
(black(?x,?y) black(?x+1,?y))
#whitegoals
(white(?x,?y) white(?x,?y+1))
"""


def diagnostics(domain: str = DOMAIN, problem: str = PROBLEM, limits: Limits = Limits()):
    """Every diagnostic for the pair, errors first; [] if the model is fine."""
    try:
        d = parse_domain(domain, "d.bddl")
        p = parse_problem(problem, "p.bddl")
        return check_model(d, p, limits)
    except BddlError as exc:
        return list(exc.diagnostics)


def only_error(domain: str = DOMAIN, problem: str = PROBLEM, limits: Limits = Limits()):
    found = [d for d in diagnostics(domain, problem, limits) if d.severity == "error"]
    assert len(found) == 1, [d.headline() for d in found]
    return found[0]


def where(d):
    return (d.span.file, d.span.line, d.span.column)


def test_the_base_model_is_fine():
    assert diagnostics() == []


# -- syntax ------------------------------------------------------------------


def test_syntax_error_location_and_expected_form():
    d = only_error(problem=PROBLEM.replace("black(?x+1,?y)", "black(?x*1,?y)"))
    assert where(d) == ("p.bddl", 5, 23)
    assert "unexpected character '*'" in d.message
    assert "?x+k" in d.hint


def test_unclosed_parenthesis_is_named():
    d = only_error(problem=PROBLEM.replace("black(?x+1,?y))", "black(?x+1,?y)"))
    assert where(d) == ("p.bddl", 5, 1)  # the '(' itself, not the section the parser reached inside it
    assert d.message == "this '(' is never closed: the goal runs on to the section '#whitegoals' on line 6"
    assert "a ')' to close it, probably at the end of the goal on line 5" in d.hint


def test_missing_domain_section():
    d = only_error(domain=DOMAIN.split("#whiteactions")[0])
    assert "missing section '#whiteactions'" in d.message
    assert d.span.file == "d.bddl"


def test_repeated_domain_section():
    d = only_error(domain=DOMAIN + "#blackactions\n")
    assert "repeated section '#blackactions'" in d.message
    assert where(d) == ("d.bddl", 11, 1)


@pytest.mark.parametrize(
    "section",
    ["#boardsize", "#init", "#depth", "#blackgoals", "#whitegoals"],
)
def test_missing_problem_section(section):
    lines = PROBLEM.splitlines(keepends=True)
    kept = []
    skipping = False
    for line in lines:
        if line.startswith("#"):
            skipping = line.split()[0] == section
        if not skipping:
            kept.append(line)
    d = only_error(problem="".join(kept))
    assert f"missing section '{section}'" in d.message


def test_repeated_problem_section():
    d = only_error(problem=PROBLEM + "#depth 5\n")
    assert "repeated section '#depth'" in d.message
    assert where(d) == ("p.bddl", 8, 1)


def test_blackturn_word():
    d = only_error(problem=PROBLEM + "#blackturn last\n")
    assert where(d) == ("p.bddl", 8, 12)
    assert "'first' or 'second'" in d.message


def test_not_utf8(tmp_path):
    domain = tmp_path / "d.bddl"
    domain.write_text(DOMAIN, encoding="utf-8")
    problem = tmp_path / "p.bddl"
    problem.write_bytes(PROBLEM.encode().replace(b"#depth 3", b"#depth 3 \xe9"))
    with pytest.raises(BddlSyntaxError) as info:
        load_model(domain, problem)
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (3, 10)
    assert "not valid UTF-8" in d.message


def test_unreadable_file(tmp_path):
    with pytest.raises(BddlSyntaxError) as info:
        load_model(tmp_path / "missing.bddl", tmp_path)
    messages = [d.message for d in info.value.diagnostics]
    assert messages == ["no such file", "is a folder, not a game file"]


# -- domain checks -------------------------------------------------------------


def test_unknown_predicate():
    d = only_error(domain=DOMAIN.replace("(open(?x,?y))", "(empty(?x,?y))", 1))
    assert where(d) == ("d.bddl", 4, 16)
    assert "unknown predicate 'empty'" in d.message
    assert "open(e1,e2)" in d.hint


def test_unknown_predicate_under_not():
    d = only_error(domain=DOMAIN.replace("(open(?x,?y))", "(NOT(empty(?x,?y)))", 1))
    assert where(d) == ("d.bddl", 4, 20)


def test_coordinate_that_is_not_a_form():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?x,top))"))
    assert where(d) == ("d.bddl", 5, 19)
    assert "'top' is not a coordinate" in d.message


def test_unknown_variable():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?x,?z))"))
    assert where(d) == ("d.bddl", 5, 19)
    assert d.message == "unknown variable '?z' (the y position takes ?y)"


def test_y_in_the_x_slot():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?y,?y))"))
    assert where(d) == ("d.bddl", 5, 16)
    assert d.message == "?y cannot stand in the x position of an atom (the x position takes ?x)"


def test_extreme_in_the_wrong_slot():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?x,xmax))"))
    assert where(d) == ("d.bddl", 5, 19)
    assert d.message == "'xmax' cannot stand in the y position of an atom (did you mean 'ymax'?)"


def test_absolute_integer_in_domain():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(2,?y))"))
    assert where(d) == ("d.bddl", 5, 16)
    assert "absolute coordinates are not allowed in a domain file" in d.message


def test_duplicate_action_name():
    extra = ":action occupy\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n:effect (black(?x,?y))\n"
    d = only_error(domain=DOMAIN.replace("#whiteactions\n", extra + "#whiteactions\n"))
    assert where(d) == ("d.bddl", 6, 9)
    assert "Black already has an action named 'occupy' (line 2)" in d.message


def test_same_name_on_both_sides_is_fine():
    assert diagnostics() == []


def test_wrong_parameters():
    d = only_error(domain=DOMAIN.replace("(?x,?y)", "(?x)", 1))
    assert where(d) == ("d.bddl", 2, 9)
    assert "parameters (?x)" in d.message


def test_empty_bounds_is_a_warning():
    domain = DOMAIN.replace("(black(?x,?y))", "(black(?x+5,?y))")
    found = diagnostics(domain=domain)
    assert [d.severity for d in found] == ["warning"]
    assert where(found[0]) == ("d.bddl", 2, 9)
    assert "fits nowhere on the 3x3 board" in found[0].message


# -- problem checks ------------------------------------------------------------


@pytest.mark.parametrize("size, column", [("0 3", 12), ("3 0", 12)])
def test_board_size_below_one(size, column):
    d = only_error(problem=PROBLEM.replace("#boardsize 3 3", f"#boardsize {size}"))
    assert where(d) == ("p.bddl", 1, column)
    assert "must be at least 1" in d.message


def test_depth_below_one():
    d = only_error(problem=PROBLEM.replace("#depth 3", "#depth 0"))
    assert where(d) == ("p.bddl", 3, 8)
    assert "the depth must be at least 1" in d.message


def test_absurd_board_names_the_limit_and_can_be_raised():
    problem = PROBLEM.replace("#boardsize 3 3", "#boardsize 3 5000")
    d = only_error(problem=problem)
    assert "beyond the limit of 1000" in d.message and "--max-board-side" in d.hint
    with pytest.raises(BddlLimitError):
        check_model(parse_domain(DOMAIN), parse_problem(problem))
    assert diagnostics(problem=problem, limits=Limits(max_board_side=5000)) == []


def test_absurd_depth_names_the_limit_and_can_be_raised():
    problem = PROBLEM.replace("#depth 3", "#depth 20001")
    d = only_error(problem=problem)
    assert where(d) == ("p.bddl", 3, 8)
    assert "beyond the limit of 10000" in d.message and "--max-depth" in d.hint
    assert diagnostics(problem=problem, limits=Limits(max_depth=30000)) == []


def test_init_off_the_board():
    d = only_error(problem=PROBLEM.replace("#init\n", "#init\nblack(1,4)\n"))
    assert where(d) == ("p.bddl", 3, 9)
    assert "y = 4, off the 3x3 board" in d.message


def test_init_repeated_cell():
    d = only_error(problem=PROBLEM.replace("#init\n", "#init\nblack(1,1) white(1,1)\n"))
    assert where(d) == ("p.bddl", 3, 12)
    assert "cell (1,1) is listed twice" in d.message


def test_init_open():
    d = only_error(problem=PROBLEM.replace("#init\n", "#init\nopen(1,1)\n"))
    assert where(d) == ("p.bddl", 3, 1)
    assert "'open' cannot be listed in '#init'" in d.message


def test_init_relative():
    d = only_error(problem=PROBLEM.replace("#init\n", "#init\nblack(?x,1)\n"))
    assert where(d) == ("p.bddl", 3, 7)
    assert "absolute coordinates" in d.message


def test_init_negated():
    d = only_error(problem=PROBLEM.replace("#init\n", "#init\nNOT(black(1,1))\n"))
    assert where(d) == ("p.bddl", 3, 1)


def test_goal_off_the_board():
    d = only_error(problem=PROBLEM.replace("(white(?x,?y) white(?x,?y+1))", "(white(4,1))"))
    assert where(d) == ("p.bddl", 7, 8)
    assert "White's goal refers to x = 4" in d.message


def test_goal_true_initially_is_an_error():
    problem = PROBLEM.replace("#init\n", "#init\nblack(1,1) black(2,1)\n")
    d = only_error(problem=problem)
    assert where(d) == ("p.bddl", 6, 1)
    assert "Black's goal already holds in the initial state" in d.message


def test_goal_that_fits_nowhere_is_a_warning():
    found = diagnostics(problem=PROBLEM.replace("(white(?x,?y) white(?x,?y+1))", "(white(?x,?y) white(?x,?y+3))"))
    assert [d.severity for d in found] == ["warning"]
    assert where(found[0]) == ("p.bddl", 7, 1)


def test_several_problems_are_reported_together():
    domain = DOMAIN.replace("(open(?x,?y))", "(empty(?x,?y))", 1).replace("(white(?x,?y))", "(white(1,?y))")
    found = diagnostics(domain=domain)
    assert [(d.span.line, d.severity) for d in found] == [(4, "error"), (10, "error")]


def test_rendering_has_line_caret_and_hint():
    d = only_error(domain=DOMAIN.replace("(open(?x,?y))", "(empty(?x,?y))", 1))
    text = d.render(DOMAIN.replace("(open(?x,?y))", "(empty(?x,?y))", 1))
    lines = text.splitlines()
    assert lines[0] == "d.bddl:4:16: error: unknown predicate 'empty'"
    assert lines[1].endswith(":precondition (empty(?x,?y))")
    assert lines[2].index("^") == lines[1].index("empty")
    assert lines[2].count("~") == len("empty") - 1
    assert lines[3].startswith("expected: ")


# -- errors that name their fix --------------------------------------------------


def syntax_errors(domain: str = DOMAIN, problem: str = PROBLEM):
    found = diagnostics(domain, problem)
    assert found and all(d.severity == "error" for d in found), [d.headline() for d in found]
    return found


@pytest.mark.parametrize(
    "written, meant",
    [
        ("#board 3 3", "'#boardsize'"),
        ("#boardsiz 3 3", "'#boardsize'"),
        ("#Boardsize 3 3", "'#boardsize'"),
    ],
)
def test_unknown_section_names_the_nearest(written, meant):
    d = only_error(problem=PROBLEM.replace("#boardsize 3 3", written))
    assert where(d) == ("p.bddl", 1, 1)
    assert d.message == f"unknown section '{written.split()[0]}' (did you mean {meant}?)"
    assert d.hint == "the sections of a problem file: #boardsize, #init, #depth, #blackgoals, #whitegoals and #blackturn (#blackturn is optional)"
    assert (d.span.end_column - d.span.column) == len(written.split()[0])  # the caret covers the word


def test_unknown_section_that_is_ambiguous_names_both():
    d = only_error(problem=PROBLEM.replace("#blackgoals", "#goals"))
    assert where(d) == ("p.bddl", 4, 1)
    assert "(did you mean '#blackgoals' or '#whitegoals'?)" in d.message


def test_a_section_keyword_is_a_whole_word():
    d = only_error(problem=PROBLEM.replace("#init", "#initial"))
    assert where(d) == ("p.bddl", 2, 1)
    assert d.message == "unknown section '#initial' (did you mean '#init'?)"


def test_unknown_domain_section():
    d = only_error(domain=DOMAIN.replace("#blackactions", "#blackmoves"))
    assert where(d) == ("d.bddl", 1, 1)
    assert d.message == "unknown section '#blackmoves' (did you mean '#blackactions'?)"
    assert d.hint == "the sections of a domain file: #blackactions and #whiteactions"


def test_a_section_of_the_other_file_kind_says_the_files_may_be_swapped():
    d = syntax_errors(problem=DOMAIN)[0]
    assert where(d) == ("p.bddl", 1, 1)
    assert "'#blackactions' is a section of a domain file, not of a problem file (are the two files swapped?)" == d.message


def test_section_without_its_hash():
    d = only_error(problem=PROBLEM.replace("#boardsize 3 3", "boardsize 3 3"))
    assert where(d) == ("p.bddl", 1, 1)
    assert d.message == "unexpected 'boardsize' (did you mean the section '#boardsize'?)"


def test_unknown_action_keyword():
    d = only_error(domain=DOMAIN.replace(":precondition", ":precondtion", 1))
    assert where(d) == ("d.bddl", 4, 1)
    assert d.message == "unknown keyword ':precondtion' (did you mean ':precondition'?)"
    assert d.hint.startswith(":action NAME :parameters (?x,?y)")


def test_lower_case_not_names_NOT():
    d = only_error(domain=DOMAIN.replace("(open(?x,?y))", "(not(black(?x,?y)))", 1))
    assert where(d) == ("d.bddl", 4, 16)
    assert d.message == "'not' is not a keyword: negation is written NOT(...)"
    assert "NOT(...)" in d.hint


def test_misspelt_predicate_names_the_nearest():
    d = only_error(problem=PROBLEM.replace("(black(?x,?y) black(?x+1,?y))", "(black(?x,?y) balck(?x+1,?y))"))
    assert where(d) == ("p.bddl", 5, 15)
    assert d.message == "unknown predicate 'balck' (did you mean 'black'?)"


def test_predicate_in_the_wrong_case_names_the_right_one():
    d = only_error(domain=DOMAIN.replace("(open(?x,?y))", "(Open(?x,?y))", 1))
    assert where(d) == ("d.bddl", 4, 16)
    assert d.message == "unknown predicate 'Open' (did you mean 'open'?)"


def test_misspelt_variable_and_edge_name_the_nearest():
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?X,?y))"))
    assert where(d) == ("d.bddl", 5, 16) and d.message == "unknown variable '?X' (the x position takes ?x)"
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?x,ymx))"))
    assert where(d) == ("d.bddl", 5, 19) and d.message == "'ymx' is not a coordinate (did you mean 'ymax'?)"


def test_blackturn_word_names_the_nearest():
    d = only_error(problem=PROBLEM + "#blackturn frist\n")
    assert where(d) == ("p.bddl", 8, 12)
    assert d.message.endswith("not 'frist' (did you mean 'first'?)")


def test_missing_close_at_the_end_of_a_goal_points_at_the_open_parenthesis():
    problem = PROBLEM.replace("(black(?x,?y) black(?x+1,?y))", "(black(?x,?y) black(?x+1,?y)")
    d = only_error(problem=problem)
    assert where(d) == ("p.bddl", 5, 1)
    assert "never closed" in d.message and "'#whitegoals' on line 6" in d.message
    assert "end of the goal on line 5" in d.hint
    assert ":action" not in d.hint  # a problem file's error shows no domain form


def test_never_closed_is_said_only_of_a_parenthesis_that_is_never_closed():
    d = only_error(problem=PROBLEM.replace("black(?x,?y) black(?x+1,?y)", "black(?x,?y),black(?x+1,?y)"))
    assert where(d) == ("p.bddl", 5, 14)
    assert d.message == "unexpected ',' (atoms are separated by spaces, not commas)"
    d = only_error(problem=PROBLEM.replace("(black(?x,?y) black(?x+1,?y))", "(black(?x,?y black(?x+1,?y)"))
    assert where(d) == ("p.bddl", 5, 14)
    assert d.message == "unexpected 'black' (the '(' at column 7 is never closed)"


@pytest.mark.parametrize(
    "before, after, line, hint",
    [
        ("#boardsize 3 3", "#boardsize 3 x", 1, "#boardsize W H: two whole numbers"),
        ("#depth 3", "#depth three", 3, "#depth D: one whole number"),
        ("#init\n", "#init\nblack(1 1)\n", 3, "the cells taken at the start"),
        ("(white(?x,?y) white(?x,?y+1))", "False (white(?x,?y) white(?x,?y+1))", 7, "one goal per line"),
        ("(white(?x,?y) white(?x,?y+1))", "(white(?x,?y) white(?x,?y+))", 7, "a coordinate: ?x, ?x+k, ?x-k, ?y, ?y+k, ?y-k, an integer"),
        ("#init\n", "#init\nblack(1,+)\n", 3, "a coordinate of '#init': an integer from 1"),
    ],
)
def test_the_expected_form_is_that_of_the_section(before, after, line, hint):
    d = only_error(problem=PROBLEM.replace(before, after))
    assert d.span.line == line
    assert d.hint.startswith(hint), d.hint


def test_the_expected_form_in_a_domain_is_that_of_the_action_part():
    d = only_error(domain=DOMAIN.replace(":parameters (?x,?y)", ":parameters ?x ?y", 1))
    assert where(d) == ("d.bddl", 3, 13) and d.hint == ":parameters (?x,?y)"
    d = only_error(domain=DOMAIN.replace("(black(?x,?y))", "(black(?x,?y+))"))
    assert where(d) == ("d.bddl", 5, 22) and d.hint.startswith("a coordinate: ?x, ?x+k") and "integer" not in d.hint


# -- every error of a file -----------------------------------------------------------


def test_every_syntax_error_of_a_file_is_reported():
    problem = (
        PROBLEM.replace("#boardsize 3 3", "#board 3 3")
        .replace("(black(?x,?y) black(?x+1,?y))", "(black(?x,?y) black(?x+1,?y)")
        .replace("white(?x,?y+1)", "white(?x,,?y+1)")
    )
    found = syntax_errors(problem=problem)
    assert [(d.span.line, d.span.column) for d in found] == [(1, 1), (5, 1), (7, 24)]
    assert "'#boardsize'" in found[0].message and "never closed" in found[1].message


def test_every_broken_action_is_reported():
    domain = DOMAIN.replace("(open(?x,?y))", "(open(?x,?y)", 1).replace(":effect (white(?x,?y))", ":effct (white(?x,?y))")
    found = syntax_errors(domain=domain)
    assert [d.span.line for d in found] == [4, 10]
    assert "(did you mean ':effect'?)" in found[1].message


def test_the_count_of_errors_is_capped():
    from bddl.syntax_errors import MAX_ERRORS

    problem = PROBLEM.replace("#init\n", "#init\n" + "black(1 1)\n" * (MAX_ERRORS + 5))
    assert len(syntax_errors(problem=problem)) == MAX_ERRORS


def test_errors_of_both_files_are_reported_together(tmp_path):
    (tmp_path / "d.bddl").write_text(DOMAIN.replace("#whiteactions", "#whiteaction"))
    (tmp_path / "p.bddl").write_text(PROBLEM.replace("#depth 3", "#dpeth 3"))
    with pytest.raises(BddlSyntaxError) as info:
        load_model(tmp_path / "d.bddl", tmp_path / "p.bddl")
    found = info.value.diagnostics
    assert [(d.span.file.rsplit("/", 1)[1], d.span.line) for d in found] == [("d.bddl", 6), ("p.bddl", 3)]
    assert "'#whiteactions'" in found[0].message and "'#depth'" in found[1].message


# -- what editors write ---------------------------------------------------------------


def test_byte_order_mark_is_accepted(tmp_path):
    (tmp_path / "d.bddl").write_bytes(b"\xef\xbb\xbf" + DOMAIN.encode())
    (tmp_path / "p.bddl").write_bytes(b"\xef\xbb\xbf" + PROBLEM.encode())
    model = load_model(tmp_path / "d.bddl", tmp_path / "p.bddl")
    assert model.problem == parse_problem(PROBLEM) and model.domain == parse_domain(DOMAIN)


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_windows_and_old_mac_line_endings_are_accepted(tmp_path, newline):
    (tmp_path / "d.bddl").write_bytes(DOMAIN.replace("\n", newline).encode())
    (tmp_path / "p.bddl").write_bytes(PROBLEM.replace("\n", newline).encode())
    model = load_model(tmp_path / "d.bddl", tmp_path / "p.bddl")
    assert model.problem == parse_problem(PROBLEM) and model.domain == parse_domain(DOMAIN)
    assert model.problem.black_goals[0].span.line == 5  # a line is a line, whatever ends it


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_positions_stay_right_with_other_line_endings(newline):
    problem = PROBLEM.replace("black(?x+1,?y)", "balck(?x+1,?y)").replace("\n", newline)
    d = only_error(problem=problem)
    assert where(d) == ("p.bddl", 5, 15)


def test_tabs_are_accepted():
    problem = PROBLEM.replace("#boardsize 3 3", "#boardsize\t3\t3").replace(") ", ")\t")
    assert parse_problem(problem) == parse_problem(PROBLEM)
    d = only_error(problem=problem.replace("black(?x+1,?y)", "balck(?x+1,?y)"))
    assert where(d) == ("p.bddl", 5, 15)
    assert d.render(problem.replace("black(?x+1,?y)", "balck(?x+1,?y)")).splitlines()[2].index("^") == d.render(
        problem.replace("black(?x+1,?y)", "balck(?x+1,?y)")
    ).splitlines()[1].index("balck")


def test_missing_depth_is_filled_by_the_command_line_depth():
    problem = PROBLEM.replace("#depth 3\n", "")
    assert parse_problem(problem, default_depth=5).depth == 5
    assert parse_problem(PROBLEM, default_depth=5).depth == 3  # the file's own #depth wins in the parser
    d = only_error(problem=problem)
    assert d.message == "missing section '#depth'" and "--depth D" in d.hint


def test_errors_inside_a_misspelt_section_are_reported_too():
    # the reader goes on as if '#boardsiz' were '#boardsize', so the bad width is reported at its own column
    problem = PROBLEM.replace("#boardsize 3 3", "#boardsiz x 3").replace("#depth 3", "#dpth 3")
    found = syntax_errors(problem=problem)
    assert [(d.span.line, d.span.column) for d in found] == [(1, 1), (1, 11), (3, 1)]
    assert found[1].message == "unexpected 'x'" and found[1].hint.startswith("#boardsize W H")


def test_consecutive_misspelt_sections_are_each_reported():
    problem = PROBLEM.replace("#depth 3", "#deptx 3").replace("#blackgoals", "#blackgoalx")
    found = syntax_errors(problem=problem)
    assert [(d.span.line, d.message.split(" (")[0]) for d in found] == [
        (3, "unknown section '#deptx'"),
        (4, "unknown section '#blackgoalx'"),
    ]


def test_an_unclosed_parenthesis_at_the_end_does_not_hide_earlier_errors():
    problem = PROBLEM.replace("(black(?x,?y) black(?x+1,?y))", "(black(?x,?y) black(?x+1,?y)").replace(
        "(white(?x,?y) white(?x,?y+1))", "(white(?x,?y) white(?x,?y+1)"
    )
    found = syntax_errors(problem=problem)
    assert [(d.span.line, d.span.column) for d in found] == [(5, 1), (7, 1)]
    assert "runs on to the end of the file" in found[1].message


def test_misspelt_predicates_are_reported_with_the_syntax_errors():
    problem = PROBLEM.replace("#boardsize 3 3", "#board 3 3").replace("black(?x+1,?y)", "balck(?x+1,?y)")
    found = syntax_errors(problem=problem)
    assert [(d.span.line, d.span.column, d.message.split(" (")[0]) for d in found] == [
        (1, 1, "unknown section '#board'"),
        (5, 15, "unknown predicate 'balck'"),
    ]
