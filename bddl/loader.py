"""From two file names to a checked model: the front door every command uses."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

from .ast import Domain, Problem
from .errors import BddlError, BddlSyntaxError, Diagnostic
from .parser import parse_domain, parse_problem, read_source
from .validate import Limits, check_model


@dataclass(frozen=True)
class Model:
    """A domain and a problem that passed every check, with the warnings they raised."""

    domain: Domain
    problem: Problem
    warnings: tuple[Diagnostic, ...]
    domain_path: str
    problem_path: str


def load_model(
    domain_path: str | Path,
    problem_path: str | Path,
    *,
    depth: int | None = None,
    default_depth: int | None = None,
    limits: Limits = Limits(),
    initial_state: bool = True,
) -> Model:
    """Read, parse and validate a domain/problem pair.

    `depth` overrides the problem's depth (before the checks, so the limit
    applies to it), and stands in for a missing `#depth`, as `default_depth`
    does without overriding one (`bddlc depth --max`).  Syntax errors in both files are reported together.
    `initial_state=False` accepts an initial state that a goal already holds
    in (for `bddlc check`, which reports it as a failed sanity condition).
    Raises `BddlError` (a subclass of it) on any error."""
    parsed = []
    problems: list[Diagnostic] = []
    for path, parse in ((domain_path, parse_domain), (problem_path, functools.partial(parse_problem, default_depth=depth or default_depth))):
        try:
            parsed.append(parse(read_source(path), str(path)))
        except BddlError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise BddlSyntaxError(_swapped(problems, str(domain_path), str(problem_path)) or problems)
    domain, problem = parsed
    assert isinstance(domain, Domain) and isinstance(problem, Problem)
    if depth is not None:
        problem = dataclasses.replace(problem, depth=depth)
    warnings = check_model(domain, problem, limits, initial_state)
    return Model(domain, problem, tuple(warnings), str(domain_path), str(problem_path))


def _swapped(problems: list[Diagnostic], domain_path: str, problem_path: str) -> list[Diagnostic]:
    """One diagnostic for a problem given where the domain goes and the domain after it, in place of
    one per section of each file; [] when the files are not simply swapped."""
    from .errors import error

    def only(path: str, kind: str) -> bool:
        mine = [d for d in problems if d.span.file == path]
        return bool(mine) and all(f"is a section of a {kind} file, not of" in d.message for d in mine)

    if len({d.span.file for d in problems} - {domain_path, problem_path}) or not (
            only(domain_path, "problem") and only(problem_path, "domain")):
        return []
    first = next(d for d in problems if d.span.file == domain_path)
    return [error(f"the files are swapped: {domain_path} is a problem and {problem_path} a domain", first.span,
                  f"note: give the domain first, then the problem: {problem_path} {domain_path}")]
