"""Our own game suite (domains/, problems/) and its manifest of expected answers."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DOMAINS = ROOT / "domains"
PROBLEMS = ROOT / "problems"
MANIFEST = PROBLEMS / "expected.toml"


@dataclass(frozen=True)
class SuiteInstance:
    file: str
    domain: Path
    problem: Path
    depth: int
    black_wins: bool
    source: str
    slow: bool

    @property
    def id(self) -> str:
        return self.file


def suite_domains() -> list[Path]:
    return sorted(DOMAINS.glob("*.bddl"))


def suite_problems() -> list[Path]:
    return sorted(PROBLEMS.glob("**/*.bddl"))


def manifest() -> list[SuiteInstance]:
    if not MANIFEST.exists():
        return []
    data = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    return [
        SuiteInstance(
            entry["file"],
            DOMAINS / entry["domain"],
            PROBLEMS / entry["file"],
            int(entry["depth"]),
            bool(entry["black_wins"]),
            entry.get("source", "search"),
            bool(entry.get("slow", False)),
        )
        for entry in data.get("problem", [])
    ]
