"""Preprocessing as a pluggable step between the CNF translation and the solver.

Why pluggable: Bloqqer is the lever issue 5 wants measured, but pyqbf's
wrapper can drop quantifiers and flip verdicts (docs/qbf-solvers.md §3),
so it runs only through `compiler.solving.qbf.preprocessing.bloqqer`, the prefix check and
repair that `bddlc solve --preprocess bloqqer` uses.

A step takes the formula and the seconds it may use and returns either a
verdict of its own or the formula to solve next.  Whatever a step returns,
the harness checks again that every clause variable is quantified: a step
that breaks that is an error, not a result.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Protocol

from circuits import Qdimacs


@dataclass(frozen=True)
class Preprocessed:
    decided: bool | None  # the step's own verdict, when it found one
    formula: Qdimacs | None  # what to solve next (None when decided)
    seconds: float
    note: str = ""  # what the step did: "prefix repaired", "fell back to the original", ...


class Preprocessor(Protocol):
    name: str

    def unavailable(self) -> str | None:
        """Why the step cannot run here, or None when it can."""

    def __call__(self, formula: Qdimacs, timeout: float) -> Preprocessed: ...


class NoPreprocessing:
    name = "none"

    def unavailable(self) -> str | None:
        return None

    def __call__(self, formula: Qdimacs, timeout: float) -> Preprocessed:
        return Preprocessed(None, formula, 0.0)


class Bloqqer:
    """Bloqqer as `bddlc solve --preprocess bloqqer` runs it: in a killable child, its prefix
    checked and repaired; a result it cannot trust falls back to the original formula."""

    name = "bloqqer"
    module_name = "pyqbf.process"  # pyqbf's Bloqqer

    def unavailable(self) -> str | None:
        if importlib.util.find_spec(self.module_name.split(".")[0]) is None or importlib.util.find_spec(self.module_name) is None:
            return f"not available: {self.module_name} (pyqbf's Bloqqer) cannot be imported"
        return None

    def __call__(self, formula: Qdimacs, timeout: float) -> Preprocessed:
        from compiler.solving.qbf.preprocessing import bloqqer

        result = bloqqer(formula, timeout=timeout)
        if result.status == "decided":
            return Preprocessed(result.verdict, None, result.seconds, result.note)
        # "complete" and "repaired" carry the checked formula; "fallback", "timeout"
        # and "error" leave the original to the solver, as `bddlc solve` does
        return Preprocessed(None, result.formula or formula, result.seconds, result.note)


PREPROCESSORS: dict[str, Preprocessor] = {"none": NoPreprocessing(), "bloqqer": Bloqqer()}
