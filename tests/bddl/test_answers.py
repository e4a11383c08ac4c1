"""The engine's answers equal the corpus README's table and our suite's manifest."""

from __future__ import annotations

import pytest

from bddl import Game, load_model, search
from helpers.corpus import instances, needs_corpus
from helpers.suite import manifest

ANSWERED = [i for i in instances() if i.black_wins is not None]


@needs_corpus
def test_the_corpus_table_is_complete():
    assert len(ANSWERED) == 56


@needs_corpus
@pytest.mark.parametrize("case", ANSWERED, ids=lambda c: c.id)
def test_engine_agrees_with_the_corpus_table(case):
    model = load_model(case.domain, case.problem)
    assert model.problem.depth == case.depth
    result = search(Game(model.domain, model.problem))
    assert result.black_wins == case.black_wins


def _manifest_params():
    return [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else []) for c in manifest()]


def test_the_manifest_covers_every_suite_problem():
    from helpers.suite import PROBLEMS, suite_problems

    listed = {c.file for c in manifest()}
    on_disk = {str(p.relative_to(PROBLEMS)) for p in suite_problems()}
    assert on_disk and listed == on_disk


@pytest.mark.parametrize("case", _manifest_params())
def test_engine_agrees_with_the_manifest(case):
    model = load_model(case.domain, case.problem)
    assert model.problem.depth == case.depth
    game = Game(model.domain, model.problem)
    if case.engine == "pns-race":
        from bddl.engines.pns import search_pns
        from bddl.engines.race import race_knowledge

        # the whole 3x7 game takes about 70 million positions (an hour)
        assert search_pns(game, max_positions=100_000_000, knowledge=race_knowledge(game)).black_wins == case.black_wins
    else:
        assert case.engine == "minimax"
        assert search(game).black_wins == case.black_wins
