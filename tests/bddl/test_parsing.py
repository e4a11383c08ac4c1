"""The grammar accepts the paper's listings, the corpus dialect and our suite,
and builds the trees we expect from them."""

from __future__ import annotations

from textwrap import dedent

import pytest

from bddl import (
    Absolute,
    Atom,
    Condition,
    Extreme,
    Relative,
    format_domain,
    format_problem,
    load_domain,
    load_problem,
    parse_domain,
    parse_problem,
)
from helpers.corpus import corpus_files, needs_corpus
from helpers.paper_listings import DOMAINS, PROBLEMS
from helpers.suite import suite_domains, suite_problems


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_paper_domain_listing_parses(name):
    domain = parse_domain(DOMAINS[name], name)
    assert domain.black_actions, "every listing gives Black at least one action"


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_paper_problem_listing_parses(name):
    problem = parse_problem(PROBLEMS[name], name)
    assert problem.width >= 1 and problem.height >= 1 and problem.depth >= 1


def test_listing_5_tree():
    problem = parse_problem(PROBLEMS["listing5"])
    assert (problem.width, problem.height, problem.depth) == (5, 4, 5)
    assert problem.init == (
        Atom("black", Absolute(1), Absolute(3)),
        Atom("white", Absolute(2), Absolute(4)),
    )
    assert problem.black_goals[0] == Condition(
        (
            Atom("black", Relative("x"), Relative("y")),
            Atom("black", Relative("x"), Relative("y", 1)),
            Atom("black", Relative("x"), Relative("y", 2)),
        )
    )
    assert len(problem.white_goals) == 2 and problem.black_first


def test_listing_6_multiline_condition_and_extremes():
    domain = parse_domain(DOMAINS["listing6"])
    on_top, bottom = domain.black_actions
    assert on_top.precondition.atoms[1] == Atom("open", Relative("x"), Relative("y", 1), negated=True)
    assert bottom.effect.atoms == (Atom("black", Relative("x"), Extreme("ymax")),)
    assert domain.white_actions == ()


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_file_parses_unchanged(path):
    if path.name == "domain.ig":
        assert load_domain(path).black_actions
    else:
        assert load_problem(path).depth >= 1


DIALECT_PROBLEM = """\
% the reference tool's dialect, all at once
#boardsize
3 3

#init
black(1,1) (white(2,2))
#depth
4   % an even depth
#blackturn
second
#blackgoals
black(?x,?y) black(?x+1,?y)
(black(?x,?y) (black(?x,?y+1)))
% a comment line between goals

#whitegoal
False
"""


def test_reference_dialect():
    problem = parse_problem(DIALECT_PROBLEM)
    assert not problem.black_first
    assert problem.depth == 4
    assert problem.init == (Atom("black", Absolute(1), Absolute(1)), Atom("white", Absolute(2), Absolute(2)))
    assert [len(g.atoms) for g in problem.black_goals] == [2, 2]
    assert problem.white_goals == ()


def test_nested_parentheses_and_spaced_parameters():
    domain = parse_domain(
        dedent(
            """\
            #blackactions
            :action occupy
            :parameters (?x, ?y)
            :precondition (open(?x,?y) (NOT(open(?x, ?y + 1))))
            :effect (black(?x,?y))
            #whiteactions
            """
        )
    )
    (action,) = domain.black_actions
    assert action.parameters == ("x", "y")
    assert action.precondition.atoms[1] == Atom("open", Relative("x"), Relative("y", 1), negated=True)


def test_sections_in_any_order_and_blank_lines_anywhere():
    domain = parse_domain("\n\n#whiteactions\n\n#blackactions\n\n")
    assert domain.black_actions == () and domain.white_actions == ()
    problem = parse_problem("#depth 1\n#whitegoals\n#blackgoals\n(black(1,1))\n#init\n\n#boardsize 2 1\n")
    assert (problem.width, problem.height, problem.depth) == (2, 1, 1)


def test_blackturn_first_is_the_default():
    base = "#boardsize 1 1\n#init\n#depth 1\n#blackgoals\n#whitegoals\n"
    assert parse_problem(base).black_first
    assert parse_problem(base + "#blackturn first\n").black_first
    assert not parse_problem(base + "#blackturn second\n").black_first


def test_spans_point_into_the_source():
    problem = parse_problem("#boardsize 3 3\n#init\n#depth 3\n#blackgoals\n  (black(?x,?y))\n#whitegoals\n", "p.bddl")
    atom = problem.black_goals[0].atoms[0]
    assert (atom.span.file, atom.span.line, atom.span.column) == ("p.bddl", 5, 4)
    assert problem.depth_span.line == 3


def test_equality_ignores_positions():
    a = parse_problem("#boardsize 3 3\n#init\n#depth 3\n#blackgoals\n(black(?x,?y))\n#whitegoals\n")
    b = parse_problem("\n\n#boardsize\n3 3\n#init\n#depth\n3\n#blackgoals\n   black(?x,?y)\n#whitegoals\n")
    assert a == b and hash(a) == hash(b)


# -- printer round trip ------------------------------------------------------


def _round_trip_domain(domain):
    again = parse_domain(format_domain(domain))
    assert again == domain
    assert format_domain(again) == format_domain(domain)


def _round_trip_problem(problem):
    again = parse_problem(format_problem(problem))
    assert again == problem
    assert format_problem(again) == format_problem(problem)


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_round_trip_paper_domains(name):
    _round_trip_domain(parse_domain(DOMAINS[name]))


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_round_trip_paper_problems(name):
    _round_trip_problem(parse_problem(PROBLEMS[name]))


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_round_trip_corpus(path):
    if path.name == "domain.ig":
        _round_trip_domain(load_domain(path))
    else:
        _round_trip_problem(load_problem(path))


@pytest.mark.parametrize("path", suite_domains(), ids=lambda p: p.name)
def test_round_trip_suite_domains(path):
    _round_trip_domain(load_domain(path))


@pytest.mark.parametrize("path", suite_problems(), ids=lambda p: str(p.relative_to(p.parents[1])))
def test_round_trip_suite_problems(path):
    _round_trip_problem(load_problem(path))


def test_round_trip_keeps_second_player_and_negative_offsets():
    problem = parse_problem(DIALECT_PROBLEM)
    text = format_problem(problem)
    assert "#blackturn" in text
    _round_trip_problem(problem)
    _round_trip_domain(parse_domain(DOMAINS["listing13"]))
