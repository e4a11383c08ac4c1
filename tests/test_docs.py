"""The docs cannot go stale: their console examples are run, their option tables
match the parsers, their links lead somewhere.

How console blocks are found, run and compared (and marked skip or slow):
`tests/helpers/docs_examples.py`.  docs/benchmarks.md is left out: `python -m bench
--report` writes it from a measured run, so its figures are measurements,
not examples to re-run (and it shows no console blocks).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import re
import subprocess
from pathlib import Path

import pytest

from helpers.docs_examples import (
    ROOT,
    Block,
    DocFormatError,
    Step,
    Workspace,
    console_blocks,
    file_listings,
    help_examples,
    matches,
    mismatches,
)

GENERATED = {ROOT / "docs" / "benchmarks.md", ROOT / "docs" / "benchmarks-default.md"}
DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p not in GENERATED)


def all_blocks() -> list[Block]:
    return [block for path in DOCS if path.exists() for block in console_blocks(path)]


BLOCKS = all_blocks()


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    return Workspace.create(tmp_path)


def _param(block: Block):
    marks = [pytest.mark.slow] if block.mark == "slow" else []
    return pytest.param(block, id=block.name, marks=marks)


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_console_block_prints_what_the_doc_shows(block: Block, workspace: Workspace):
    if block.mark == "skip":
        pytest.skip(f"docs-test: skip ({block.reason})")
    report = mismatches(block, workspace.run(block))
    for _ in range(2):
        if not report or not all(raced(line) for line in report):
            break
        # `solve`'s race names the route that answered first; on a loaded machine the other one can
        # win it now and then (docs/solving.md says so): such a block gets two more runs
        report = mismatches(block, workspace.run(block))
    assert not report, "\n\n".join(report)


def raced(report: str) -> bool:
    """Does a mismatch report involve a line that names the route that answered a race?"""
    return any(word in report for word in ("answered by ", "solver: ", "encoding: "))


@pytest.mark.parametrize(
    "listing", [pytest.param(x, id=f"{x.path.name}:{x.line}") for p in DOCS if p.exists() for x in file_listings(p)]
)
def test_a_listed_file_is_shown_as_it_is(listing):
    assert (ROOT / listing.target).read_text(encoding="utf-8") == listing.text, (
        f"{listing.path.name}:{listing.line} no longer shows {listing.target} as it is"
    )


def test_the_tutorial_shows_every_tutorial_file():
    shown = {x.target for x in file_listings(ROOT / "docs" / "tutorial.md")}
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "tutorial").iterdir()}
    assert files and shown == files


def test_the_docs_exist_and_show_examples():
    for name in ("README.md", "docs/tutorial.md", "docs/cli.md", "docs/language.md", "docs/solving.md"):
        assert (ROOT / name).exists(), name
    per_file = {p.name: sum(1 for b in BLOCKS if b.path == p) for p in DOCS}
    for name in ("README.md", "tutorial.md", "cli.md", "solving.md", "language.md"):
        assert per_file.get(name, 0) >= 1, f"{name} has no console example"


def test_skipped_blocks_are_few_and_say_why():
    skipped = [b for b in BLOCKS if b.mark == "skip"]
    for block in skipped:
        assert len(block.reason.strip()) >= 10, f"{block.name}: say why the block is skipped"
    # Skipping is the exception: most examples must be compared.
    assert len(skipped) * 5 <= len(BLOCKS), [b.name for b in skipped]


# -- the README's set-up commands ---------------------------------------------------------------


def setup_commands() -> list[str]:
    """The README's ```sh blocks: the set-up lines a reader pastes (installing, so not run here)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S) for line in block.splitlines() if line]


TEST_COMMAND = "python -m pip install -e '.[test]' && python -m pytest"
VENV = "python -m venv .venv && . .venv/bin/activate"


def test_readme_test_command_is_what_ci_runs():
    """CI runs the README's test line as a user would: in the fresh virtual
    environment the README shows how to make."""
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith(("python -m pip", "python -m venv"))]
    assert ci == [VENV, TEST_COMMAND]
    assert setup_commands()[1:] == [TEST_COMMAND, VENV]


def test_the_workspace_python_is_the_interpreter_running_the_tests(workspace: Workspace):
    """The docs' `python` must see the packages this interpreter sees: a
    symlink to a virtual environment's python from outside the environment
    starts the base interpreter instead (no lark, no pyqbf there)."""
    import sys

    done = subprocess.run(
        ["python", "-c", "import sys; print(sys.prefix)"], cwd=workspace.folder, env=workspace.environment(),
        capture_output=True, text=True, timeout=60,
    )
    assert done.stdout.strip() == sys.prefix, done.stderr


INSTALL = "python -m pip install -e . && "


def first_command_after_install() -> str:
    """The README's first set-up line without its install step, exactly as written."""
    first = setup_commands()[0]
    assert first.startswith(INSTALL), f"README.md: the first command does not start with `{INSTALL}`"
    return first[len(INSTALL) :]


def test_readme_first_command_installs_then_runs_commands_the_docs_test_runs():
    commands = [part.strip() for part in first_command_after_install().split(";")]
    shown = {step.command for block in BLOCKS if block.path.name == "README.md" and not block.mark for step in block.steps}
    for command in commands:
        assert command in shown, f"README.md: the set-up command `{command}` is not run in a console block"


def test_readme_first_command_writes_the_formula_whatever_solve_says(workspace: Workspace):
    """Run literally, after the install, the first line solves (exit status 10:
    Black wins) and still writes connect3.qcir, a QCIR file we can read back."""
    from circuits import read_qcir

    done = subprocess.run(
        ["sh", "-c", first_command_after_install()], cwd=workspace.folder, env=workspace.environment(),
        capture_output=True, text=True, timeout=600,
    )
    written = workspace.folder / "connect3.qcir"
    assert written.exists(), f"the README's first command wrote no connect3.qcir:\n{done.stdout}\n{done.stderr}"
    text = written.read_text()
    assert text.startswith("#QCIR-G14 ") and "# problem: problems/connect/connect3_4x4_d9.bddl" in text
    assert read_qcir(text).output is not None
    assert "Black wins within 9 moves." in done.stdout


# -- the comparison itself must be able to fail --------------------------------------------------


def test_comparison_is_exact_but_for_times():
    shown = ["Black wins within 9 moves.", "solver: qute, time: 0.19 s", '{"seconds": 0.1937, "positions": 394}']
    assert matches(shown, ["Black wins within 9 moves.", "solver: qute, time: 12.07 s", '{"seconds": 3e-05, "positions": 394}'])
    assert matches(shown, shown + ["", ""])  # trailing blank lines
    assert not matches(shown, ["Black wins within 7 moves."] + shown[1:])  # one character
    assert not matches(shown, shown[:2] + ['{"seconds": 0.1937, "positions": 395}'])  # counts are compared
    assert not matches(shown, shown[:2])
    assert not matches(shown, shown + ["extra"])


def test_an_ellipsis_line_stands_for_any_lines_and_nothing_else():
    shown = ["first", "...", "last"]
    assert matches(shown, ["first", "last"])
    assert matches(shown, ["first", "a", "b", "last"])
    assert not matches(shown, ["first", "a", "b"])
    assert not matches(shown, ["frist", "a", "last"])
    assert not matches(["a ... b"], ["a x b"])  # only a line of its own elides


def test_a_changed_output_character_fails_the_block(tmp_path, workspace: Workspace):
    block = Block(tmp_path / "x.md", 1, (Step("bddlc --version", ("bddlc 0.0.0-not-this",)),))
    assert mismatches(block, workspace.run(block))


def test_exit_status_carries_to_the_next_command(tmp_path, workspace: Workspace):
    block = Block(tmp_path / "x.md", 1, (Step("bddlc", ()), Step("echo $?", ("2",))))
    [(_, usage, status), (_, echoed, _)] = workspace.run(block)
    assert status == 2 and echoed == ["2"] and "usage: bddlc" in usage[0]


def test_block_reading_rules(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text(
        "```\n$ echo hi\nhi\n$ echo $?\n0\n```\n\n"
        "```\nbddlc solve DOMAIN PROBLEM\n```\n\n"
        "<!-- docs-test: skip (the output differs from run to run) -->\n"
        "```console\n$ date\nMon\n```\n"
    )
    first, second = console_blocks(doc)
    assert first.steps == (Step("echo hi", ("hi",)), Step("echo $?", ("0",))) and first.mark is None
    assert (second.line, second.mark, second.reason) == (13, "skip", "the output differs from run to run")
    doc.write_text("```\noutput first\n$ echo hi\n```\n")
    with pytest.raises(DocFormatError, match="must start with"):
        console_blocks(doc)
    doc.write_text("<!-- docs-test: skip (no block follows) -->\nSome text.\n")
    with pytest.raises(DocFormatError, match="marker"):
        console_blocks(doc)
    doc.write_text("<!-- docs-test: file docs/tutorial/connect3.bddl -->\n```\n#blackactions\n```\n")
    [listing] = file_listings(doc)
    assert (listing.target, listing.text, console_blocks(doc)) == ("docs/tutorial/connect3.bddl", "#blackactions\n", [])


# -- links ---------------------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")


def anchors(doc: Path) -> set[str]:
    """The fragment GitHub gives each heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", text, re.M)}


def test_readme_links_every_doc():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {(ROOT / target).resolve() for target, _ in LINK.findall(readme) if target}
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert doc.resolve() in linked, f"README.md does not link {doc.relative_to(ROOT)}"


@pytest.mark.parametrize("doc", [pytest.param(p, id=p.name) for p in DOCS if p.exists()])
def test_relative_links_lead_to_files_and_headings(doc: Path):
    for target, fragment in LINK.findall(doc.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        linked = (doc.parent / target) if target else doc
        assert linked.exists(), f"{doc.name}: broken link {target}"
        if fragment and linked.suffix == ".md":
            assert fragment in anchors(linked), f"{doc.name}: {target}#{fragment} names no heading"


# -- docs/cli.md against the argument parsers ----------------------------------------------------

CLI_DOC = ROOT / "docs" / "cli.md"
HEADING = re.compile(r"^## (.*)$", re.M)
COMMAND_HEADING = re.compile(r"^`(bddlc(?: [a-z]+)?|python -m bench)[` ]")
OPTION_ROW = re.compile(r"^\|\s*`(-[^`]*)`\s*\|")


@functools.cache
def parsers() -> dict[str, argparse.ArgumentParser]:
    """Every parser cli.md documents, by the command line that reaches it."""
    from compiler import cli

    found = {"bddlc": cli._top_parser()}
    for name, (module, _) in cli.COMMANDS.items():
        found[f"bddlc {name}"] = importlib.import_module(f"compiler.cli.{module}").build_parser()
    found["python -m bench"] = importlib.import_module("bench.cli").build_parser()
    return found


def invocation(action: argparse.Action) -> str:
    """How cli.md writes an option: its spellings, then its argument."""
    names = ", ".join(action.option_strings)
    if action.nargs == 0:
        return names
    if action.choices:
        return f"{names} {{{','.join(map(str, action.choices))}}}"
    return f"{names} {action.metavar or action.dest.upper()}"


def documented_sections() -> dict[str, str]:
    """cli.md's `## `bddlc solve` ...` sections by command, each up to the next `##` heading."""
    text = CLI_DOC.read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    sections = {}
    for i, head in enumerate(heads):
        command = COMMAND_HEADING.match(head.group(1))
        if command:
            assert command.group(1) not in sections, f"cli.md: two sections for {command.group(1)}"
            sections[command.group(1)] = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
    return sections


def test_cli_md_has_a_section_per_command():
    assert set(documented_sections()) == set(parsers())


@pytest.mark.parametrize("command", sorted(parsers()))
def test_cli_md_lists_exactly_the_options_of_each_command(command: str):
    section = documented_sections()[command]
    rows = {m.group(1): line for line in section.splitlines() for m in [OPTION_ROW.match(line)] if m}
    actions = [a for a in parsers()[command]._actions if a.option_strings and "--help" not in a.option_strings]
    expected = {invocation(a): a for a in actions}
    assert set(rows) == set(expected), (
        f"cli.md, {command}: undocumented {sorted(set(expected) - set(rows))}, stale {sorted(set(rows) - set(expected))}"
    )
    for text, action in expected.items():
        default = action.default
        if default in (None, False, argparse.SUPPRESS):
            continue
        forms = {str(default), f"{default:,}" if isinstance(default, int) else str(default)}
        if isinstance(default, Path) and default.is_relative_to(ROOT):
            forms.add(str(default.relative_to(ROOT)))
        assert any(form in rows[text] for form in forms), f"cli.md, {command} {text}: the default {default!r} is not mentioned"
    positionals = [a.metavar or a.dest for a in parsers()[command]._actions
                   if not a.option_strings and a.help != argparse.SUPPRESS]  # a hidden one catches a mistake (regress's games)
    for name in positionals:
        assert name in section, f"cli.md, {command}: the argument {name} is not shown"


# -- the examples of every --help text run -------------------------------------------------------


def bddlc_help_examples() -> list[tuple[str, str]]:
    """(command, example) for every example line of every bddlc help text.

    `python -m bench`'s examples are left out: they run benchmarks for
    minutes and `--report` rewrites docs/benchmarks.md."""
    return [
        (command, example)
        for command, parser in parsers().items()
        if command.startswith("bddlc")
        for example in help_examples(parser.format_help())
    ]


def test_help_examples_are_found():
    found = bddlc_help_examples()
    commands = {command for command, _ in found}
    assert {"bddlc", "bddlc solve", "bddlc depth", "bddlc validate", "bddlc play"} <= commands, commands
    assert all(example.split()[0] in ("bddlc", "printf") for _, example in found), found
    assert help_examples("usage: x\n\nexample:\n  bddlc a\n  bddlc b\n\nmore text\n") == ["bddlc a", "bddlc b"]


@pytest.mark.parametrize("command, example", [pytest.param(c, e, id=f"{c}: {e}") for c, e in bddlc_help_examples()])
def test_help_example_runs(command: str, example: str, workspace: Workspace):
    [(_, output, status)] = workspace.run(Block(ROOT / "help", 1, (Step(example, ()),)))
    text = "\n".join(output)
    assert status not in (1, 2) and "Traceback" not in text and "error:" not in text, (
        f"`{command} --help` shows `{example}`, which exits with status {status}:\n{text}"
    )
