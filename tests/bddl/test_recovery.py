"""Every error of a file: real models with one to three syntax errors injected
on separate lines report each of them, where it was made, and nothing else.

The oracle is the injection itself: the lines changed are known.  An error
inside a domain action may surface a few lines later in the same action, and
two errors in one unit (an action, or a goal left open that swallows the next
lines) are one error by design, so a few misses are allowed; spurious errors,
echoes of an error elsewhere, are not."""

from __future__ import annotations

import random
import re

from conftest import ROOT

from bddl import parse_domain, parse_problem
from bddl.errors import BddlError

FILES = sorted(ROOT.glob("domains/*.bddl")) + sorted(ROOT.glob("problems/*/*.bddl"))[::6]


def mutations(line: str) -> list[str]:
    """Ways to break this line: a misspelt header or keyword, a missing ')', a missing ',', a stray '*', `not`."""
    found = []
    stripped = line.strip()
    if stripped.startswith("#"):
        word = stripped.split()[0]
        found.append(line.replace(word, word[:-1] + "x", 1))
    if stripped.startswith(":"):
        word = stripped.split()[0]
        found.append(line.replace(word, word[:3] + word[4:], 1))
    if stripped.startswith("(") and stripped.endswith(")"):
        found.append(line.rstrip()[:-1])
    if re.search(r"\?x,\?y", line):
        found += [line.replace("?x,?y", "?x ?y", 1), line.replace("?x,", "?x*1,", 1)]
    if "NOT(" in line:
        found.append(line.replace("NOT(", "not(", 1))
    return found


def reported_lines(text: str) -> list[int]:
    parse = parse_domain if "#blackactions" in text else parse_problem
    try:
        parse(text, "f.bddl")
    except BddlError as exc:
        return [d.span.line for d in exc.diagnostics]
    return []


def test_injected_errors_are_each_reported_and_nothing_else():
    rng = random.Random(19)
    injected = found = spurious = 0
    for path in FILES:
        lines = path.read_text().split("\n")
        for _ in range(4):
            choices = [(i, new) for i, line in enumerate(lines) if not line.lstrip().startswith("%") for new in mutations(line)]
            rng.shuffle(choices)
            chosen: dict[int, str] = {}
            for i, new in choices:
                if len(chosen) < rng.choice([1, 2, 3]) and all(abs(i - j) > 1 for j in chosen):
                    chosen[i] = new
            broken = [chosen.get(i, line) for i, line in enumerate(lines)]
            made = {i + 1 for i in chosen}
            hit = set()
            for line in reported_lines("\n".join(broken)):
                near = [j for j in made if 0 <= line - j <= 3]
                if near:
                    hit.add(max(near))
                else:
                    spurious += 1
            injected += len(made)
            found += len(hit)
    assert injected >= 150
    assert spurious == 0
    assert found >= 0.95 * injected, (found, injected)
