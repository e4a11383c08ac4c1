"""Console examples in the Markdown docs: find them, run them, compare their output.

The docs show commands with their real output, and `tests/test_docs.py` keeps
it real.  A fenced block whose first line starts with `$ ` is a console
session: each `$ COMMAND` line is one command, and the lines up to the next
`$ ` line are what it prints (standard output and standard error together,
as a terminal shows them).  Commands run in bash, from a scratch folder that
sees the repository's `domains/`, `problems/` and `docs/` (so a file a
command writes lands there, not in the repository), with `bddlc` meaning this
checkout's `python -m compiler.cli`.  `$?` is the previous command's status,
so `$ echo $?` shows an exit status.

Outputs are compared line by line after masking the only things that vary
from run to run, times ("0.12 s") and the `"seconds"` of JSON output.  A line
holding only `...` stands for any number of lines (a long transcript
shortened in the text).  Trailing spaces and trailing blank lines are ignored.

A block that cannot be compared is marked just before its opening fence:

    <!-- docs-test: skip (why) -->   never run; reported as skipped, with why
    <!-- docs-test: slow (why) -->   run only with --runslow or BDDLC_SLOW=1

and a block that shows a repository file (a model the reader copies) says
which, so the test can hold the two equal:

    <!-- docs-test: file docs/tutorial/connect3.bddl -->

`python tests/helpers/docs_examples.py FILE...` prints every block of the files with
what it prints today, to write or update a doc (read the diff before
committing it).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # tests/helpers/ -> the repository
# What a command may read: the repository folders the docs refer to.
VISIBLE = ("domains", "problems", "docs")
COMMAND_TIMEOUT = 300  # seconds; a hung command fails its block instead of the whole run

FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")
MARKER = re.compile(r"^<!--\s*docs-test:\s*(?:(skip|slow)\s*\((.+)\)|file\s+(\S+))\s*-->\s*$")
ELLIPSIS = "..."
MASKS = (
    (re.compile(r"\b\d+\.\d+ s\b"), "<time> s"),
    (re.compile(r'("seconds": )-?\d+(\.\d+)?([eE][-+]?\d+)?'), r"\1<time>"),
)


class DocFormatError(ValueError):
    """A console block the test cannot read (the message says where and why)."""


@dataclass(frozen=True)
class Step:
    command: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Listing:
    """A fenced block that shows the repository file `target` (relative to ROOT)."""

    path: Path
    line: int
    target: str
    text: str


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    steps: tuple[Step, ...]
    mark: str | None = None  # "skip", "slow" or None
    reason: str | None = None

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"


def console_blocks(path: Path) -> list[Block]:
    """The console sessions of one Markdown file, in order."""
    return [b for b in read_blocks(path) if isinstance(b, Block)]


def file_listings(path: Path) -> list[Listing]:
    """The blocks of one Markdown file that show a repository file."""
    return [b for b in read_blocks(path) if isinstance(b, Listing)]


@dataclass(frozen=True)
class Marker:
    """A `<!-- docs-test: ... -->` comment: skip or slow (with why), or file (with the file)."""

    kind: str
    detail: str
    line: int

    @classmethod
    def read(cls, text: str, line: int) -> "Marker | None":
        found = MARKER.match(text.strip())
        if not found:
            return None
        if found.group(3):
            return cls("file", found.group(3), line)
        return cls(found.group(1), found.group(2), line)


def read_blocks(path: Path) -> list[Block | Listing]:
    """The console sessions and file listings of one Markdown file, in order.
    A block whose first line is not a `$ ` command is not a session (a usage
    synopsis, a model, Python); a session with output before its first
    command is an error, as is a docs-test marker that no block of its kind
    follows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block | Listing] = []
    marker: Marker | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if found := Marker.read(line, i):
            marker = found
            continue
        fence = FENCE.match(line)
        if not fence:
            if line.strip() and marker:
                raise DocFormatError(f"{path}:{marker.line}: a docs-test marker must stand just before its block")
            continue
        start = i  # the fence's line number
        body = []
        while i < len(lines) and not lines[i].startswith(fence.group(1)):
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        is_session = bool(body) and body[0].startswith("$ ")
        if marker and marker.kind == "file":
            blocks.append(Listing(path, start, marker.detail, "".join(b + "\n" for b in body)))
        elif is_session:
            blocks.append(Block(path, start, parse_session(body), *((marker.kind, marker.detail) if marker else ())))
        elif marker:
            raise DocFormatError(f"{path}:{marker.line}: a docs-test {marker.kind} marker must stand just before a console block")
        elif any(b.startswith("$ ") for b in body):
            raise DocFormatError(f"{path}:{start}: a console block must start with a `$ ` command")
        marker = None
    return blocks


def parse_session(body: list[str]) -> tuple[Step, ...]:
    steps: list[Step] = []
    for line in body:
        if line.startswith("$ "):
            steps.append(Step(line[2:].strip(), ()))
        else:
            steps[-1] = Step(steps[-1].command, steps[-1].expected + (line,))
    return tuple(steps)


def mask(text: str) -> str:
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def normalise(lines) -> list[str]:
    out = [mask(line.rstrip()) for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def matches(expected, actual) -> bool:
    """Whether the output matches the text shown, masks and `...` lines applied."""
    want, got = normalise(expected), normalise(actual)
    if ELLIPSIS not in (w.strip() for w in want):
        return want == got
    parts = []
    for w in want:
        parts.append(r"(?:[^\n]*\n)*?" if w.strip() == ELLIPSIS else re.escape(w) + r"\n")
    return re.fullmatch("".join(parts), "".join(g + "\n" for g in got)) is not None


@dataclass
class Workspace:
    """A scratch folder with the repository's visible folders linked in and a
    `bddlc` (and `python`) on PATH that run this checkout's code."""

    folder: Path

    @classmethod
    def create(cls, folder: Path) -> "Workspace":
        for name in VISIBLE:
            (folder / name).symlink_to(ROOT / name, target_is_directory=True)
        bin_dir = folder / ".bin"
        bin_dir.mkdir()
        # Scripts that exec this interpreter by its path, not symlinks to it: a
        # symlink to a virtual environment's python, placed outside the
        # environment, finds no pyvenv.cfg beside it and starts the base
        # interpreter, which has none of the environment's packages.
        for name, args in (("bddlc", ' -m compiler.cli "$@"'), ("python", ' "$@"')):
            shim = bin_dir / name
            shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)}{args}\n")
            shim.chmod(0o755)
        return cls(folder)

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PATH"] = f"{self.folder / '.bin'}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleave as on a terminal
        env["COLUMNS"] = "80"  # argparse's help width
        env.pop("PYTHONHASHSEED", None)
        return env

    def run(self, block: Block) -> list[tuple[Step, list[str], int]]:
        """Each step's output lines and exit status."""
        results = []
        status = 0
        env = self.environment()
        for step in block.steps:
            proc = subprocess.run(
                ["bash", "-c", f"(exit {status}); {step.command}"],
                cwd=self.folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=COMMAND_TIMEOUT,
            )
            status = proc.returncode
            results.append((step, proc.stdout.splitlines(), status))
        return results


def mismatches(block: Block, results) -> list[str]:
    """A readable report of every step whose output differs from the doc's."""
    report = []
    for step, actual, status in results:
        if not matches(step.expected, actual):
            report.append(
                f"{block.name}: `$ {step.command}` (exit status {status}) printed:\n"
                + "\n".join("    " + line for line in actual)
                + "\n  but the doc shows:\n"
                + "\n".join("    " + line for line in step.expected)
            )
    return report


def transcript(block: Block, results) -> str:
    lines = []
    for step, actual, _ in results:
        lines.append(f"$ {step.command}")
        lines.extend(line.rstrip() for line in actual)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    for name in argv:
        for block in console_blocks(Path(name).resolve()):
            with tempfile.TemporaryDirectory() as tmp:
                results = Workspace.create(Path(tmp)).run(block)
            ok = not mismatches(block, results)
            state = "matches" if ok else "DIFFERS"
            print(f"--- {block.name} ({state}{', marked ' + block.mark if block.mark else ''})")
            print(transcript(block, results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


# -- the examples of the --help texts ------------------------------------------------------------

HELP_EXAMPLE_HEAD = re.compile(r"^examples?:$")


def help_examples(help_text: str) -> list[str]:
    """The command lines under a help text's `example:`/`examples:` heading, up to the next blank line."""
    found: list[str] = []
    inside = False
    for line in help_text.splitlines():
        if HELP_EXAMPLE_HEAD.match(line):
            inside = True
        elif inside and not line.strip():
            inside = False
        elif inside:
            found.append(line.strip())
    return found


# -- the refusals the docs promise ----------------------------------------------------------------

REFUSAL = re.compile(r"refus|usage error|bad input|stops the command")
STATUS = re.compile(r"exit(?: status)? \d")


def refusal_claims(path: Path) -> list[str]:
    """The sentences (and table cells) of one Markdown file that promise a refusal
    with an exit status: what `tests/test_docs_refusals.py` holds the commands to.
    Code blocks are left out (their output is compared as it is); lines are
    joined, so a claim is found however the text is wrapped."""
    text = re.sub(r"^(```+|~~~+).*?^\1", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    flat = re.sub(r"\s*\n\s*", " ", text)
    pieces = re.split(r"(?<=[.!?])\s+(?=[A-Z`(\[])|\|", flat)
    return [piece.strip() for piece in pieces if REFUSAL.search(piece) and STATUS.search(piece)]
