"""The public corpus in ../shared/corpus (read in place, never copied) and its answer table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import CORPUS

SAT2023 = CORPUS / "sat2023"


@dataclass(frozen=True)
class CorpusInstance:
    game: str
    name: str
    domain: Path
    problem: Path
    black_wins: bool | None  # None: the README gives no answer

    @property
    def id(self) -> str:
        return f"{self.game}/{self.name}"

    @property
    def depth(self) -> int:
        return int(self.name.split("_")[1])


def expected_answers() -> dict[tuple[str, str], bool]:
    """Parse the README's table: game -> (true list, false list)."""
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    answers: dict[tuple[str, str], bool] = {}
    for line in readme.splitlines():
        m = re.match(r"\| ([\w-]+) \| (.*) \| (.*) \|$", line)
        if not m or m.group(1) == "game":
            continue
        for column, value in ((2, True), (3, False)):
            for name in re.findall(r"\d+x\d+_\d+(?:_\w+)?", m.group(column)):
                answers[(m.group(1), name)] = value
    return answers


def instances() -> list[CorpusInstance]:
    if not SAT2023.is_dir():
        return []
    answers = expected_answers()
    found = []
    for domain in sorted(SAT2023.glob("*/domain.ig")):
        game = domain.parent.name
        for problem in sorted(domain.parent.glob("*.ig")):
            if problem.name == "domain.ig":
                continue
            name = problem.stem
            answer = answers.get((game, name), answers.get((game, re.sub(r"_connect\d$", "", name))))
            found.append(CorpusInstance(game, name, domain, problem, answer))
    return found


def corpus_files() -> list[Path]:
    return sorted(SAT2023.glob("*/*.ig")) if SAT2023.is_dir() else []


needs_corpus = pytest.mark.skipif(not SAT2023.is_dir(), reason="../shared/corpus is not present")
