"""Mutated models through every command, in-process: no traceback, a documented exit status.

A user's first models are broken in every way a text can be: a line lost, a
number mistyped, a section twice, a name from another file.  Each mutation
here is one such accident, applied to a small model of our suite (BDDL) or
one of our `.pg` games, and the result is given to a command with options
that keep it small (a positions budget, a time limit, a small board and
depth limit).  Whatever the input, bddlc must answer with a verdict, a
located error or a usage error: an exception escaping `main` is a bug.

`tests/test_fuzz_commands.py` runs a quick profile in every test run and a
long one with --runslow; `python scripts/fuzz_commands.py --runs N` runs N
and prints the exit statuses seen (the figure issue 26 asks for).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]

# (domain, problem) or (game,): small, and between them every section of both languages
SEEDS: tuple[tuple[str, ...], ...] = (
    ("domains/positional.bddl", "problems/httt/tic_3x3_d5.bddl"),
    ("domains/connect.bddl", "problems/connect/connect3_4x4_d7.bddl"),
    ("domains/domineering.bddl", "problems/domineering/3x3_d4.bddl"),
    ("domains/breakthrough.bddl", "problems/breakthrough/second_2x4_d6.bddl"),
    ("problems/pg/tictactoe_3x3_d5.pg",),
    ("problems/pg/el_4x4_p2q2_white_first.pg",),
    ("problems/pg/tictactoe_3x3_p2q1.pg",),
    ("problems/pg/row4_1x7.pg",),
)

LIMITS = ["--max-board-side", "8", "--max-depth", "12", "--max-memory", "256"]
ENCODINGS = ("auto", "lifted", "paper", "explicit", "corrective", "cor+", "ea", "en", "et", "la", "ln", "sa", "sn")

# Each command as a user might call it, kept small; GAME stands for the model's files.
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("compile", "GAME", "--format", "qcir"),
    ("compile", "GAME", "--format", "qdimacs"),
    *(("compile", "GAME", "--encoding", e, "--format", "qdimacs") for e in ENCODINGS),
    ("search", "GAME", "--max-positions", "20000", "--json"),
    ("search", "GAME", "--algorithm", "pns", "--max-positions", "20000"),
    ("solve", "GAME", "--timeout", "5", "--json"),
    ("depth", "GAME", "--max", "3", "--timeout", "5"),
    ("check", "GAME"),
    ("validate", "GAME", "--timeout", "5", "--max-lines", "3"),
    ("export", "GAME"),
)

# the statuses docs/cli.md documents: ok, bad input, usage, budget, a failing line, QBF true/false
DOCUMENTED = {0, 1, 2, 3, 4, 10, 20}


def existing_seeds() -> tuple[tuple[str, ...], ...]:
    return tuple(seed for seed in SEEDS if all((ROOT / part).is_file() for part in seed))


@st.composite
def mutated_texts(draw, text: str) -> str:
    """The text after one to three accidents."""
    lines = text.split("\n")
    words = sorted(set(re.findall(r"[A-Za-z0-9_#?+-]+", text))) or ["x"]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("drop", "repeat", "swap", "word", "number", "char", "cut", "blank")))
        if not lines:
            lines = [""]
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "drop":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "cut":
            lines = lines[: i + 1]
            lines[-1] = lines[-1][: draw(st.integers(0, len(lines[-1])))]
        elif kind == "blank":
            lines[i] = ""
        else:
            tokens = re.split(r"(\s+|[(),])", lines[i])
            spots = [k for k, tok in enumerate(tokens) if tok.strip() and tok not in "(),"]
            if not spots:
                continue
            k = draw(st.sampled_from(spots))
            if kind == "word":
                tokens[k] = draw(st.sampled_from(words))
            elif kind == "number":
                tokens[k] = str(draw(st.sampled_from((0, 1, 2, 3, 7, -1, 13, 99999))))
            else:
                at = draw(st.integers(0, len(tokens[k])))
                tokens[k] = tokens[k][:at] + draw(st.sampled_from(("(", ")", ",", "?", "x", "9", "#", "%", "é", ""))) + tokens[k][at + 1:]
            lines[i] = "".join(tokens)
    return "\n".join(lines)


@dataclass(frozen=True)
class Case:
    seed: tuple[str, ...]
    which: int  # the file that was mutated
    text: str
    command: tuple[str, ...]


@st.composite
def cases(draw) -> Case:
    seed = draw(st.sampled_from(existing_seeds()))
    which = draw(st.integers(0, len(seed) - 1))
    text = draw(mutated_texts((ROOT / seed[which]).read_text()))
    name = draw(st.sampled_from(sorted({c[0] for c in COMMANDS})))  # each command as often, whatever its variants
    return Case(seed, which, text, draw(st.sampled_from([c for c in COMMANDS if c[0] == name])))


def run_case(case: Case, folder: str | None = None) -> int:
    """The command's exit status on the mutated model; an exception escapes (that is the bug)."""
    with contextlib.ExitStack() as stack:
        where = folder or stack.enter_context(tempfile.TemporaryDirectory(prefix="bddlc-fuzz-"))
        files = []
        for index, part in enumerate(case.seed):
            path = os.path.join(where, f"{index}-{Path(part).name}")
            text = case.text if index == case.which else (ROOT / part).read_text()
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            files.append(path)
        argv = []
        for word in case.command:
            argv.extend(files if word == "GAME" else [word])
        if case.command[0] in ("compile", "export"):
            argv += ["-o", os.path.join(where, "out" + (".qcir" if "qcir" in case.command else ".qdimacs" if case.command[0] == "compile" else ".pg"))]
        argv += LIMITS
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # argparse's usage errors
                status = exc.code if isinstance(exc.code, int) else 2
        assert "Traceback" not in err.getvalue(), err.getvalue()
        return status


def histogram(statuses: Counter) -> str:
    total = sum(statuses.values())
    return ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items())) + f" ({total} runs)"
