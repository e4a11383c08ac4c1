"""Our own game suite (domains/, problems/) and its manifest of expected answers.

Why it lives here: both the tests and the benchmark harness check verdicts
against `problems/expected.toml`, and the manifest must be read one way only.
`bench` sits above every other package, so the tests may import it, never the
other way round.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPOSITORY = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class SuiteInstance:
    """One manifest entry: a problem of our suite and the answer it must get."""

    file: str  # relative to problems/, the entry's key
    domain: Path
    problem: Path
    depth: int
    black_wins: bool
    source: str
    slow: bool
    # which engine decides it in the tests: "minimax" (bddl.engines.minimax), or "pns-race"
    # (df-pn with race patterns) for games the minimax cannot finish in hours
    engine: str = "minimax"

    @property
    def id(self) -> str:
        return self.file


def domains_folder(root: Path = REPOSITORY) -> Path:
    return root / "domains"


def problems_folder(root: Path = REPOSITORY) -> Path:
    return root / "problems"


def manifest_path(root: Path = REPOSITORY) -> Path:
    return problems_folder(root) / "expected.toml"


def read_manifest(root: Path = REPOSITORY) -> list[SuiteInstance]:
    """Every `[[problem]]` entry of the manifest, in file order ([] when there is none)."""
    path = manifest_path(root)
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        SuiteInstance(
            entry["file"],
            domains_folder(root) / entry["domain"],
            problems_folder(root) / entry["file"],
            int(entry["depth"]),
            bool(entry["black_wins"]),
            entry.get("source", "search"),
            bool(entry.get("slow", False)),
            entry.get("engine", "minimax"),
        )
        for entry in data.get("problem", [])
    ]


@dataclass(frozen=True)
class PositionalSuiteInstance:
    """One positional game of our suite (a `.pg` file under problems/) and its answer."""

    file: str  # relative to problems/, the entry's key
    game: Path
    depth: int
    black_wins: bool
    source: str
    slow: bool

    @property
    def id(self) -> str:
        return self.file


def positional_manifest_path(root: Path = REPOSITORY) -> Path:
    """The `.pg` games' manifest, beside expected.toml: its entries name no domain."""
    return problems_folder(root) / "positional.toml"


def read_positional_manifest(root: Path = REPOSITORY) -> list[PositionalSuiteInstance]:
    """Every `[[problem]]` entry of problems/positional.toml, in file order ([] when there is none)."""
    path = positional_manifest_path(root)
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        PositionalSuiteInstance(
            entry["file"],
            problems_folder(root) / entry["file"],
            int(entry["depth"]),
            bool(entry["black_wins"]),
            entry.get("source", "search"),
            bool(entry.get("slow", False)),
        )
        for entry in data.get("problem", [])
    ]
