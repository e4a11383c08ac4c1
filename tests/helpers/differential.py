"""The real models the differential tests run on, and which of them are quick.

Every suite problem (problems/expected.toml) and every corpus problem
(../shared/corpus) is an `Instance`; each is tried at its file depth and at
one and two plies less.  The engine's answer at a depth is computed once per
process and shared by every test that needs it.

`QUICK` names the (instance, depth, encoding) cases that CI runs; everything
else is marked slow.  The list (the [differential] table of tests/quick.toml)
was measured, not guessed: engine search, compile and DepQBF together took
under 0.08 s for each.  A case on it that stops existing fails `test_quick_list_names_real_cases`,
so the list cannot rot silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bddl import Game, load_model, search
from bddl.engines.minimax import SearchBudgetExceeded
from helpers.corpus import instances as corpus_instances
from helpers.speed import quick_cases
from helpers.suite import manifest

# "The engine decides quickly": at most this many expanded positions (about
# half a minute of search); beyond it an instance counts as too slow for the
# engine and is skipped.
ENGINE_BUDGET = 1_500_000
# The time limit for one DepQBF run; a solver that gives no verdict in time
# is a skip (too slow), never a pass.
SOLVER_LIMIT = 60.0


@dataclass(frozen=True)
class Instance:
    source: str  # "suite" or "corpus"
    name: str  # the problem's path under problems/, or game/name in the corpus
    domain: Path
    problem: Path
    file_depth: int
    expected: bool | None  # the manifest's / the corpus table's answer at file_depth

    @property
    def id(self) -> str:
        return f"{self.source}:{self.name}"

    def depths(self) -> list[int]:
        """The file depth and up to two plies less, smallest first."""
        return [d for d in (self.file_depth - 2, self.file_depth - 1, self.file_depth) if d >= 1]


def instances() -> list[Instance]:
    found = [Instance("suite", c.file, c.domain, c.problem, c.depth, c.black_wins) for c in manifest()]
    found += [Instance("corpus", c.id, c.domain, c.problem, c.depth, c.black_wins) for c in corpus_instances()]
    return found


@lru_cache(maxsize=None)
def load(instance: Instance, depth: int):
    return load_model(instance.domain, instance.problem, depth=depth)


@lru_cache(maxsize=None)
def encodings_for(instance: Instance) -> tuple[str, ...]:
    """The encodings that compile this instance ("corrective" only positional games), sorted."""
    from compiler import applicable_encodings

    model = load(instance, instance.file_depth)
    return tuple(sorted(applicable_encodings(model.domain, model.problem)))


@lru_cache(maxsize=None)
def engine_answer(instance: Instance, depth: int) -> bool | None:
    """Does Black win within `depth` plies (the explicit search)?  None: over budget."""
    model = load(instance, depth)
    try:
        return search(Game(model.domain, model.problem), depth, max_positions=ENGINE_BUDGET).black_wins
    except SearchBudgetExceeded:
        return None


def case_id(instance: Instance, depth: int, encoding: str) -> str:
    return f"{instance.id}@{depth}:{encoding}"


QUICK = quick_cases("differential")
