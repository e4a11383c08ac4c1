"""The public corpus in ../shared/corpus (read in place, never copied) and its answer table.

The readers are `bench.corpus`'s (the benchmark harness checks verdicts
against the same table); this module binds them to the corpus beside this
checkout and adds the skip marker."""

from __future__ import annotations

import pytest

from bench import corpus as _corpus
from bench.corpus import CorpusInstance
from conftest import CORPUS

SAT2023 = _corpus.models_folder(CORPUS)

PG_CORPUS = CORPUS / "pg"

__all__ = [
    "CorpusInstance", "PG_CORPUS", "SAT2023", "expected_answers", "instances", "corpus_files", "needs_corpus",
    "needs_pg_corpus", "pg_answers",
]


def expected_answers() -> dict[tuple[str, str], bool]:
    return _corpus.expected_answers(CORPUS)


def instances() -> list[CorpusInstance]:
    return _corpus.instances(CORPUS)


def corpus_files():
    return _corpus.corpus_files(CORPUS)


needs_corpus = pytest.mark.skipif(not SAT2023.is_dir(), reason="../shared/corpus is not present")


def pg_answers(prefix: str) -> list[tuple[str, bool]]:
    """The .pg games whose name in answers.tsv starts with `prefix` and that
    the table answers (true or false), in table order: bench.positional's reader."""
    from bench.positional import answers

    return [(name, known) for name, known in answers(PG_CORPUS).items() if name.startswith(prefix) and known is not None]


needs_pg_corpus = pytest.mark.skipif(not PG_CORPUS.is_dir(), reason="../shared/corpus/pg is not present")
