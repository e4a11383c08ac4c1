"""The public corpus in ../shared/corpus (read in place, never copied) and its answer table.

Why it lives here: the tests and the benchmark harness both hold solver
verdicts against the corpus README's table, so the table is parsed one way
only.  The corpus is optional: every function answers "nothing" when the
folder is absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from compiler.model import file_kind

from .suite import REPOSITORY

CORPUS = REPOSITORY.parent / "shared" / "corpus"


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
        """The depth the file name states (`<cols>x<rows>_<depth>[_<name>]`)."""
        return int(self.name.split("_")[1])


def models_folder(corpus: Path = CORPUS) -> Path:
    return corpus / "sat2023"


def expected_answers(corpus: Path = CORPUS) -> dict[tuple[str, str], bool]:
    """Parse the README's table (`| game | true list | false list |`) into (game, name) -> answer.

    Names in the table may leave off a variant suffix the file carries
    (`4x4_9 (connect3)` for `4x4_9_connect3.ig`); `instances` handles that."""
    readme = corpus / "README.md"
    if not readme.exists():
        return {}
    answers: dict[tuple[str, str], bool] = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| ([\w-]+) \| (.*) \| (.*) \|$", line)
        if not m or m.group(1) == "game":
            continue
        for column, value in ((2, True), (3, False)):
            for name in re.findall(r"\d+x\d+_\d+(?:_\w+)?", m.group(column)):
                answers[(m.group(1), name)] = value
    return answers


def instances(corpus: Path = CORPUS) -> list[CorpusInstance]:
    """Every problem file beside a `domain.ig`, sorted, with the README's answer where it gives one."""
    folder = models_folder(corpus)
    if not folder.is_dir():
        return []
    answers = expected_answers(corpus)
    found = []
    for domain in sorted(folder.glob("*/domain.ig")):
        game = domain.parent.name
        for problem in _problems_beside(domain):
            name = problem.stem
            answer = answers.get((game, name), answers.get((game, re.sub(r"_connect\d$", "", name))))
            found.append(CorpusInstance(game, name, domain, problem, answer))
    return found


def _problems_beside(domain: Path) -> list[Path]:
    """The BDDL problems in the domain's folder: `*.ig`, and `*.pg` files whose sections are a BDDL
    problem's (the paper's benchmark set names its Hex problems so), read as bddlc reads them."""
    candidates = [*domain.parent.glob("*.ig"), *domain.parent.glob("*.pg")]
    return sorted(p for p in candidates if p != domain and (p.suffix == ".ig" or file_kind(p) == "problem"))


def corpus_files(corpus: Path = CORPUS) -> list[Path]:
    folder = models_folder(corpus)
    if not folder.is_dir():
        return []
    return sorted(path for domain in folder.glob("*/domain.ig") for path in [domain, *_problems_beside(domain)])
