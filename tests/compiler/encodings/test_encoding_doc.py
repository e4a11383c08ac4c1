"""docs/encoding.md's worked example is the compiler's real output, and its
variable table names the variables the compiler numbers that way.

The page explains a QCIR file line by line; if the encoder changes, this test
fails and the page gets rewritten instead of silently going stale.
"""

from __future__ import annotations

import re

from bddl import Game, load_model, search
from circuits import numbering
from compiler.cli import main
from compiler.encodings.lifted import encode
from conftest import ROOT
from helpers.qbf import depqbf, qute

PAGE = ROOT / "docs" / "encoding.md"


def block(marker: str) -> str:
    """The fenced code block that follows `<!-- marker -->` on the page."""
    m = re.search(rf"<!-- {marker} -->\n```\n(.*?)```\n", PAGE.read_text(encoding="utf-8"), re.S)
    assert m, f"no {marker} block in {PAGE}"
    return m.group(1)


def write_example(folder):
    (folder / "domain.bddl").write_text(block("example-domain"))
    (folder / "problem.bddl").write_text(block("example-problem"))


def test_the_example_is_the_compilers_output(tmp_path, capsys, monkeypatch):
    write_example(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["domain.bddl", "problem.bddl", "--encoding", "paper"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = block("example-qcir").splitlines()
    version = re.compile(r"# bddlc \S+, ")  # the version line may move on
    assert [version.sub("# bddlc V, ", line) for line in printed] == [version.sub("# bddlc V, ", line) for line in shown]


def test_the_variable_table_names_the_numbered_variables(tmp_path):
    write_example(tmp_path)
    model = load_model(tmp_path / "domain.bddl", tmp_path / "problem.bddl")
    names = numbering(encode(model.domain, model.problem).circuit).names
    page = PAGE.read_text(encoding="utf-8")
    table = page[page.index("| id | variable |") : page.index("`exists(1, 2, 3, 4)` is")]
    rows = re.findall(r"\| (\d+) \| `([^`]+)`", table)
    assert len(rows) == len(names) == 10
    assert {name: int(fid) for fid, name in rows} == names


def test_the_example_answer(tmp_path):
    write_example(tmp_path)
    model = load_model(tmp_path / "domain.bddl", tmp_path / "problem.bddl")
    circuit = encode(model.domain, model.problem).circuit
    assert search(Game(model.domain, model.problem)).black_wins is True
    assert depqbf(circuit) is True and qute(circuit) is True
