"""On random small games, every encoding's QBF answer equals the explicit game search.

This is the main evidence that the compiler is right: the games are drawn
from the whole language (negations, board edges, absolute goal cells, no
goals, several actions of different sizes, either side first, odd and even
depths, boards down to 1x1), and the answer is computed twice independently.
"""

from __future__ import annotations

from conftest import scaled
from hypothesis import given, settings

from bddl import Game, check_model, search
from compiler import applicable_encodings, encode
from helpers.qbf import depqbf, qute
from helpers.strategies import game as random_game


def _engine(domain, problem) -> bool:
    return search(Game(domain, problem)).black_wins


@settings(max_examples=scaled(300))
@given(random_game())
def test_qbf_equals_engine(case):
    domain, problem = case
    check_model(domain, problem)
    expected = _engine(domain, problem)
    for name in applicable_encodings(domain, problem):
        assert depqbf(encode(domain, problem, encoding=name).circuit) == expected, name


@settings(max_examples=scaled(60))
@given(random_game())
def test_polarity_aware_tseitin_and_qute_agree(case):
    domain, problem = case
    expected = _engine(domain, problem)
    for name in applicable_encodings(domain, problem):
        circuit = encode(domain, problem, encoding=name).circuit
        assert depqbf(circuit, polarity=True) == expected, name
        assert qute(circuit) == expected, name
