"""Solving configurations: which encoding, which CNF translation, which solver, which preprocessing.

A configuration is written `ENCODING/TSEITIN/SOLVER[/PREPROCESS]`, e.g.
`explicit/pg-early/depqbf/none`.  TSEITIN is `full` (two-way Tseitin) or `pg`
(Plaisted-Greenbaum, polarity-aware), joined by `-` to where the gate
variables are quantified: `innermost` (the textbook form) or `early` (each
gate in the first existential block after its inputs); `qcir` hands the
circuit itself to Qute, the one solver here that reads QCIR.  Any field may
be a comma-separated list or `*`, which spells the cross product; `default`
is what `bddlc solve` uses, `paper-baseline` the paper's encoding through a
plain Tseitin pass and DepQBF (the yardstick of issue 5).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from compiler.encodings import DEFAULT_ENCODING, ENCODINGS, SOLVE_ENCODING, SOLVE_TSEITIN
from compiler.solving.qbf.solver_programs import DEFAULT_SOLVER, FORMATS, PORTFOLIOS, SOLVER_CHOICES, default_solver

from .preprocessing import PREPROCESSORS

TSEITIN_VARIANTS = ("full-innermost", "full-early", "pg-innermost", "pg-early", "qcir", "auto")
# "auto" goes with the solver "default": what `bddlc solve` gives the solver
# that `default` picks for the encoding (QCIR to Qute, SOLVE_TSEITIN to the others).
QCIR_SOLVERS = ("qute",)


@dataclass(frozen=True, order=True)
class Configuration:
    encoding: str
    tseitin: str
    solver: str
    preprocess: str = "none"

    @property
    def name(self) -> str:
        return f"{self.encoding}/{self.tseitin}/{self.solver}/{self.preprocess}"

    @property
    def is_qcir(self) -> bool:
        return self.tseitin == "qcir"

    @property
    def polarity(self) -> bool:
        return self.tseitin.startswith("pg-")

    @property
    def placement(self) -> str:
        return self.tseitin.split("-", 1)[1]

    def __str__(self) -> str:
        return self.name


def tseitin_name(polarity: bool, placement: str) -> str:
    return f"{'pg' if polarity else 'full'}-{placement}"


def _as_solve_runs(encoding: str, solver: str) -> Configuration:
    """The configuration `bddlc solve --encoding E --solver S` amounts to: a
    solver that reads QCIR gets QCIR, the others the default Tseitin variant;
    the default solver, chosen per encoding, gets what it reads ("auto")."""
    if solver == DEFAULT_SOLVER:
        return Configuration(encoding, "auto", solver)
    if FORMATS.get(solver) == "qcir":
        return Configuration(encoding, "qcir", solver)
    return Configuration(encoding, tseitin_name(bool(SOLVE_TSEITIN.get("polarity")), SOLVE_TSEITIN.get("placement", "innermost")), solver)


def resolve_default(encoding: str) -> Configuration:
    """What the default solver runs on a formula of `encoding` (a resolved
    name such as "explicit" or "corrective", not "auto")."""
    return _as_solve_runs(encoding, default_solver(encoding))


DEFAULT = _as_solve_runs(SOLVE_ENCODING, DEFAULT_SOLVER)
PAPER_BASELINE = Configuration("paper", "full-innermost", "depqbf")
# the encoding `bddlc DOMAIN PROBLEM` writes, solved the default way: the
# compile-speed and formula-size targets are about this encoding
COMPILE_DEFAULT = _as_solve_runs(DEFAULT_ENCODING, DEFAULT_SOLVER)
ALIASES = {"default": (DEFAULT,), "paper-baseline": (PAPER_BASELINE,), "compile-default": (COMPILE_DEFAULT,)}


class ConfigurationError(ValueError):
    """A configuration spec that names nothing or something impossible (a usage error)."""


def _choices(field: str, text: str, allowed: tuple[str, ...]) -> list[str]:
    if text == "*":
        return list(allowed)
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    if not chosen:
        raise ConfigurationError(f"empty {field} in the configuration")
    for value in chosen:
        if value not in allowed:
            raise ConfigurationError(f"unknown {field} {value!r}; choose from {', '.join(allowed)} or *")
    return chosen


def parse_configurations(spec: str) -> list[Configuration]:
    """The configurations a spec names, without the impossible combinations of a `*` or list.

    A fully explicit impossible configuration (QCIR to a QDIMACS-only solver,
    Bloqqer on QCIR) is an error; one produced by a cross product is just left out."""
    spec = spec.strip()
    if spec in ALIASES:
        return list(ALIASES[spec])
    fields = spec.split("/")
    if len(fields) == 3:
        fields.append("none")
    if len(fields) != 4:
        raise ConfigurationError(
            f"bad configuration {spec!r}: expected ENCODING/TSEITIN/SOLVER[/PREPROCESS] or one of {', '.join(ALIASES)}"
        )
    encodings = _choices("encoding", fields[0], tuple(ENCODINGS))
    variants = _choices("Tseitin variant", fields[1], TSEITIN_VARIANTS)
    solvers = _choices("solver", fields[2], SOLVER_CHOICES)
    preprocessors = _choices("preprocessing", fields[3], tuple(PREPROCESSORS))
    product = [Configuration(*combo) for combo in itertools.product(encodings, variants, solvers, preprocessors)]
    possible = [c for c in product if impossibility(c) is None]
    if not possible:
        raise ConfigurationError(f"configuration {spec!r} is impossible: {impossibility(product[0])}")
    return possible


def impossibility(config: Configuration) -> str | None:
    """Why a configuration cannot run, or None."""
    if (config.tseitin == "auto") != (config.solver == DEFAULT_SOLVER):
        return f"the {DEFAULT_SOLVER} solver picks its own input, and only it: write ENCODING/auto/{DEFAULT_SOLVER}"
    if config.tseitin == "auto" and config.preprocess != "none":
        return f"the {DEFAULT_SOLVER} solver runs without preprocessing, as bddlc solve does"
    if config.solver in PORTFOLIOS and config.is_qcir:
        return f"{config.solver} is a portfolio: name the QDIMACS translation its CNF solvers get (its QCIR solvers get QCIR)"
    if config.is_qcir and config.solver not in QCIR_SOLVERS:
        return f"{config.solver} does not read QCIR (only {', '.join(QCIR_SOLVERS)} does)"
    if config.is_qcir and config.preprocess != "none":
        return "preprocessing works on QDIMACS, not on QCIR"
    return None


def parse_all(specs: list[str]) -> list[Configuration]:
    """The union of several specs, in first-mention order, without repeats."""
    seen: dict[Configuration, None] = {}
    for spec in specs:
        for config in parse_configurations(spec):
            seen.setdefault(config, None)
    return list(seen)
