"""Whatever text arrives, the front end answers with a model or our own error."""

from __future__ import annotations

from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import BddlError, check_model, parse_domain, parse_problem
from helpers.corpus import corpus_files
from helpers.paper_listings import DOMAINS, PROBLEMS

TOKENS = [
    "#blackactions", "#whiteactions", ":action", ":parameters", ":precondition", ":effect",
    "#boardsize", "#init", "#depth", "#blackgoals", "#whitegoal", "#blackturn", "first", "second",
    "(", ")", ",", "?x", "?y", "?z", "+", "-", "0", "1", "2", "3", "99999999999999999999", "xmin", "ymax",
    "open", "black", "white", "NOT", "False", "occupy", "%", "\n", " ", "\t", "\r\n", "é", "*",
]

SEEDS = list(DOMAINS.values()) + list(PROBLEMS.values()) + [p.read_text() for p in corpus_files()]


def front_end(text: str) -> None:
    """Parse `text` both ways and validate what parses; only BddlError may escape."""
    domain = problem = None
    for parse in (parse_domain, parse_problem):
        try:
            result = parse(text, "fuzz.bddl")
        except BddlError as exc:
            assert exc.diagnostics and exc.diagnostics[0].headline().startswith("fuzz.bddl")
            exc.render({"fuzz.bddl": text})
            continue
        if parse is parse_domain:
            domain = result
        else:
            problem = result
    if domain is not None or problem is not None:
        try:
            check_model(domain or parse_domain(DOMAINS["listing4"]), problem or parse_problem(PROBLEMS["listing5"]))
        except BddlError as exc:
            exc.render({"fuzz.bddl": text})


@settings(max_examples=scaled(300))
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_token_soup(text):
    front_end(text)


@settings(max_examples=scaled(100))
@given(st.text(max_size=200))
def test_arbitrary_text(text):
    front_end(text)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + draw(st.sampled_from(TOKENS + [""])) + text[j:]
    return text


@settings(max_examples=scaled(300))
@given(mutated())
def test_mutated_models(text):
    front_end(text)
