"""Preprocessing as a pluggable step between the CNF translation and the solver.

Why pluggable: Bloqqer is the lever issue 5 wants measured, but pyqbf's
wrapper can drop quantifiers and flip verdicts (../shared/docs/qbf-tools.md),
so it may only run behind the prefix check that `compiler/preprocess.py`
provides.  Until that module is on this branch the `bloqqer` step reports
itself unavailable and its runs are recorded as such, never as verdicts.

A step takes the formula and the seconds it may use and returns either a
verdict of its own or the formula to solve next.  Whatever a step returns,
the harness checks again that every clause variable is quantified: a step
that breaks that is an error, not a result.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from dataclasses import dataclass
from typing import Callable, Protocol

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
    """Bloqqer through `compiler.preprocess` (with its prefix check), when that module exists.

    The adapter expects `compiler.preprocess.bloqqer(qdimacs, timeout=...)`
    returning True/False (decided), a new `Qdimacs`, or an object with
    `decided`, `formula` and `note` attributes.  If the final API differs,
    this class is the one place to change."""

    name = "bloqqer"
    module_name = "compiler.preprocess"
    function_name = "bloqqer"

    def _function(self) -> Callable | None:
        if importlib.util.find_spec(self.module_name) is None:
            return None
        return getattr(importlib.import_module(self.module_name), self.function_name, None)

    def unavailable(self) -> str | None:
        try:
            function = self._function()
        except ImportError as exc:
            return f"not available: {self.module_name} failed to import ({exc})"
        if function is None:
            if importlib.util.find_spec(self.module_name) is None:
                return "not available: compiler/preprocess.py (Bloqqer with the prefix check) is not on this branch yet"
            return (
                f"not available: {self.module_name} has no {self.function_name}(qdimacs, timeout=...); "
                "adapt bench/preprocessing.py to its API"
            )
        return None

    def __call__(self, formula: Qdimacs, timeout: float) -> Preprocessed:
        function = self._function()
        start = time.perf_counter()
        result = function(formula, timeout=timeout)
        seconds = time.perf_counter() - start
        if isinstance(result, bool):
            return Preprocessed(result, None, seconds, "decided by bloqqer")
        if isinstance(result, Qdimacs):
            return Preprocessed(None, result, seconds)
        decided = getattr(result, "decided", None)
        new_formula = getattr(result, "formula", None)
        return Preprocessed(decided if isinstance(decided, bool) else None, new_formula, seconds, str(getattr(result, "note", "")))


PREPROCESSORS: dict[str, Preprocessor] = {"none": NoPreprocessing(), "bloqqer": Bloqqer()}


def unquantified_variables(formula: Qdimacs) -> set[int]:
    """Clause variables no quantifier line names: solvers take them as outermost
    existentials, which is exactly how a broken preprocessor flips a verdict."""
    quantified = {v for _quant, block in formula.prefix for v in block}
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    return used - quantified
