"""Our own game suite (domains/, problems/) and its manifest of expected answers.

The manifest reader is `bench.suite`'s (the benchmark harness checks verdicts
against the same file); this module adds the globs the tests need."""

from __future__ import annotations

from pathlib import Path

from bench.suite import PositionalSuiteInstance, SuiteInstance, read_manifest, read_positional_manifest
from conftest import ROOT

DOMAINS = ROOT / "domains"
PROBLEMS = ROOT / "problems"
MANIFEST = PROBLEMS / "expected.toml"

__all__ = ["PositionalSuiteInstance", "positional_manifest", "suite_games", "SuiteInstance", "DOMAINS", "PROBLEMS", "MANIFEST", "suite_domains", "suite_problems", "manifest"]


def suite_domains() -> list[Path]:
    return sorted(DOMAINS.glob("*.bddl"))


def suite_problems() -> list[Path]:
    return sorted(PROBLEMS.glob("**/*.bddl"))


def manifest() -> list[SuiteInstance]:
    return read_manifest(ROOT)


def suite_games() -> list[Path]:
    """Our positional games (`.pg`), listed in problems/positional.toml."""
    return sorted(PROBLEMS.glob("**/*.pg"))


def positional_manifest() -> list[PositionalSuiteInstance]:
    return read_positional_manifest(ROOT)
