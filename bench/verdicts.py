"""Holding every verdict to the known answer, and configurations to each other.

A wrong verdict is the one result a benchmark must never quietly average
away: the run fails, naming the instance and the configuration.  Where the
answer is unknown, two configurations that disagree prove one of them wrong,
so that fails the run too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from .records import COMPILE_ERROR, CORRECT, SOLVED, UNCHECKED, WRONG, Row


def check(expected: bool | None, status: str, verdict: bool | None) -> str:
    """`correct`, `WRONG` or `unchecked` for a verdict; "" when there is none to check.

    Only a `solved` status carries a verdict: a timeout or an error never
    counts as an answer, whatever value may be lying around."""
    if status != SOLVED or verdict is None:
        return ""
    if expected is None:
        return UNCHECKED
    return CORRECT if verdict == expected else WRONG


@dataclass(frozen=True)
class Failure:
    instance: str
    config: str
    message: str

    def __str__(self) -> str:
        where = f"{self.instance} [{self.config}]" if self.config else self.instance
        return f"{where}: {self.message}"


def _answer(value: bool | None) -> str:
    return {True: "Black wins", False: "Black does not win", None: "unknown"}[value]


def failures(rows: Iterable[Row]) -> list[Failure]:
    """Everything that makes a run fail: wrong verdicts, disagreements, instances that did not compile."""
    rows = list(rows)
    found: list[Failure] = []
    verdicts: dict[str, dict[bool, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.check == WRONG:
            found.append(
                Failure(row.instance, row.config, f"WRONG VERDICT: {_answer(row.verdict)}, expected {_answer(row.expected)}")
            )
        if row.status == COMPILE_ERROR:
            found.append(Failure(row.instance, f"encoding {row.encoding}", f"did not compile: {row.note}"))
        if row.status == SOLVED and row.verdict is not None:
            verdicts[row.instance][row.verdict].append(row.config)
    for instance, by_value in verdicts.items():
        if len(by_value) > 1:
            found.append(
                Failure(
                    instance,
                    "",
                    "configurations DISAGREE: true from "
                    + ", ".join(by_value[True])
                    + "; false from "
                    + ", ".join(by_value[False]),
                )
            )
    return list(dict.fromkeys(found))
