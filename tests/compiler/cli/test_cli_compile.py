"""`bddlc DOMAIN PROBLEM [-o OUT]`: the compile command's contract.

Format choice, standard output, the depth override, the self-describing
header, atomic writes (a failure leaves no partial file, no temporary file
and an existing OUT untouched), --version, --help, the exit statuses and the
diagnostics for bad input.  Most tests call `compiler.cli.main` in-process
(fast); a few run the real command as a subprocess, where a traceback or a
stray file would show.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bddl import Game, load_model, search
from compiler.cli import COMMANDS, main
from compiler.formula_files import format_for
from compiler.solving.qbf.solver_programs import run_solver
from conftest import ROOT
from helpers.paper_listings import LISTING_4_POSITIONAL_DOMAIN

DOMINEERING = str(ROOT / "domains" / "domineering.bddl")
DOMINEERING_2x2 = str(ROOT / "problems" / "domineering" / "2x2_d2.bddl")
POSITIONAL = str(ROOT / "domains" / "positional.bddl")

GOOD_DOMAIN = LISTING_4_POSITIONAL_DOMAIN  # the paper's positional game: occupy an open cell

GOOD_PROBLEM = """\
#boardsize 3 1
#init
#depth 3
#blackgoals
(black(?x,?y) black(?x+1,?y))
#whitegoals
(white(?x,?y) white(?x+1,?y))
"""


def compile_to(tmp_path: Path, *args: str) -> int:
    """Run the compiler in-process with the working folder at tmp_path (restored after)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        return main(list(args))


def file_kind(text: str) -> str:
    """Which format a formula text is in, judged by its first line."""
    first = text.splitlines()[0]
    if first.startswith("#QCIR-G14"):
        return "qcir"
    assert first.startswith("c ") or first.startswith("p cnf"), first
    return "qdimacs"


def formula_lines(text: str) -> list[str]:
    """The text without comment lines (they name the input paths)."""
    return [line for line in text.splitlines() if not line.startswith(("#", "c ")) or line.startswith("#QCIR")]


# -- format -------------------------------------------------------------------


@pytest.mark.parametrize(
    "output, requested, expected",
    [
        ("out.qcir", None, "qcir"),
        ("out.qdimacs", None, "qdimacs"),
        ("out.cnf", None, "qdimacs"),
        ("OUT.QDIMACS", None, "qdimacs"),
        ("out.txt", None, "qcir"),
        ("out", None, "qcir"),
        ("out.qcir", "qcir", "qcir"),
        ("out.txt", "qdimacs", "qdimacs"),
        ("out.cnf", "qdimacs", "qdimacs"),
    ],
)
def test_format_from_option_else_suffix_else_qcir(tmp_path, output, requested, expected):
    assert format_for(output, requested) == expected
    extra = ["--format", requested] if requested else []
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "-o", output, *extra) == 0
    assert file_kind((tmp_path / output).read_text()) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == [output]


@pytest.mark.parametrize("output, requested", [("out.qcir", "qdimacs"), ("out.qdimacs", "qcir"), ("out.cnf", "qcir")])
def test_a_format_the_suffix_contradicts_is_a_usage_error(tmp_path, capsys, output, requested):
    with pytest.raises(SystemExit) as exit:
        compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "-o", output, "--format", requested)
    assert exit.value.code == 2
    assert f"--format {requested} does not agree with" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("extra, expected", [([], "qcir"), (["--format", "qdimacs"], "qdimacs"), (["-o", "-"], "qcir")])
def test_no_output_file_means_standard_output(tmp_path, capsys, extra, expected):
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, *extra) == 0
    out = capsys.readouterr().out
    assert file_kind(out) == expected
    assert list(tmp_path.iterdir()) == []  # nothing written beside it


def test_standard_output_equals_the_file(tmp_path, capsys):
    for fmt in ("qcir", "qdimacs"):
        assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "--format", fmt) == 0
        printed = capsys.readouterr().out
        assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "-o", f"f.{fmt}") == 0
        assert printed == (tmp_path / f"f.{fmt}").read_text()


# -- the depth override ---------------------------------------------------------


def test_depth_override_equals_a_problem_file_with_that_depth(tmp_path):
    """--depth N compiles exactly what a problem file saying N compiles."""
    text = Path(DOMINEERING_2x2).read_text()
    assert "#depth\n2\n" in text
    edited = tmp_path / "edited.bddl"
    edited.write_text(text.replace("#depth\n2\n", "#depth\n3\n"))
    for fmt in ("qcir", "qdimacs"):
        assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "--depth", "3", "-o", f"override.{fmt}") == 0
        assert compile_to(tmp_path, DOMINEERING, str(edited), "-o", f"edited.{fmt}") == 0
        override, by_file = (tmp_path / f"override.{fmt}").read_text(), (tmp_path / f"edited.{fmt}").read_text()
        assert "depth: 3" in override
        assert formula_lines(override) == formula_lines(by_file)
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "-o", "file_depth.qcir") == 0
    assert formula_lines((tmp_path / "file_depth.qcir").read_text()) != formula_lines((tmp_path / "override.qcir").read_text())


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_override_changes_the_answer_as_the_engine_says(tmp_path, depth):
    """Domineering 2x2: Black wins in 2 plies, not in 1; the compiled file's
    verdict (DepQBF, exit 10/20) follows the engine at every depth."""
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "--depth", str(depth), "-o", "f.qdimacs") == 0
    model = load_model(DOMINEERING, DOMINEERING_2x2, depth=depth)
    expected = search(Game(model.domain, model.problem)).black_wins
    run = run_solver("depqbf", tmp_path / "f.qdimacs", timeout=60, model=False)
    assert run.status == "solved" and run.verdict is expected
    assert expected is (depth >= 2)


# -- the header -------------------------------------------------------------------


def header_counts(text: str) -> dict[str, int]:
    m = re.search(r"variables: (\d+), gates: (\d+), quantifier blocks: (\d+)", text)
    assert m, "the header names no counts"
    return dict(zip(("variables", "gates", "blocks"), map(int, m.groups())))


@pytest.mark.parametrize("encoding", ["paper", "explicit"])
def test_qcir_header_names_inputs_depth_and_true_counts(tmp_path, encoding):
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "--depth", "3", "--encoding", encoding, "-o", "f.qcir") == 0
    text = (tmp_path / "f.qcir").read_text()
    lines = text.splitlines()
    comments = [line[2:] for line in lines[1:] if line.startswith("# ")]
    assert f"domain: {DOMINEERING}" in comments and f"problem: {DOMINEERING_2x2}" in comments
    assert any("depth: 3" in c for c in comments) and any(f"encoding: {encoding}" in c for c in comments)
    assert all(line.startswith("#") for line in lines[: len(comments) + 1])  # comments come first
    counts = header_counts(text)
    blocks = [line for line in lines if re.fullmatch(r"(exists|forall)\(.*\)", line)]
    assert counts["blocks"] == len(blocks)
    assert counts["variables"] == sum(len(b.split(",")) for b in blocks)
    gate_lines = [line for line in lines if " = " in line]
    output = re.search(r"^output\((\d+)\)$", text, re.M).group(1)
    # The writer adds gates of its own only to give output(...) a positive gate:
    # one to wrap a negated gate or a variable, two for a constant (v or/and -copy).
    added = gate_lines[counts["gates"] :]
    if len(added) == 1:
        assert re.fullmatch(rf"{output} = and\(-?\d+\)", added[0])
    elif added:
        assert counts["gates"] == 0 and len(added) == 2
        assert re.fullmatch(rf"{output} = (and|or)\(1, -\d+\)", added[1])
    assert lines[0] == f"#QCIR-G14 {counts['variables'] + len(gate_lines)}"


@pytest.mark.parametrize(
    "domain, problem, chosen",
    [("positional.bddl", "httt/tic_3x3_d9.bddl", "corrective"), ("domineering.bddl", "domineering/2x2_d2.bddl", "explicit")],
)
def test_the_auto_encoding_header_names_the_encoding_it_chose(tmp_path, domain, problem, chosen):
    """`--encoding auto` writes the file of the encoding it picks, byte for byte."""
    files = ROOT / "domains" / domain, ROOT / "problems" / problem
    assert compile_to(tmp_path, *map(str, files), "--encoding", "auto", "-o", "auto.qcir") == 0
    assert compile_to(tmp_path, *map(str, files), "--encoding", chosen, "-o", "chosen.qcir") == 0
    text = (tmp_path / "auto.qcir").read_text()
    assert f"encoding: {chosen}" in text.splitlines()[1]
    assert text == (tmp_path / "chosen.qcir").read_text()


def test_qdimacs_header_names_inputs_depth_and_true_counts(tmp_path):
    assert compile_to(tmp_path, DOMINEERING, DOMINEERING_2x2, "-o", "f.qdimacs") == 0
    text = (tmp_path / "f.qdimacs").read_text()
    lines = text.splitlines()
    comments = [line[2:] for line in lines if line.startswith("c ")]
    assert lines[: len(comments)] == [f"c {c}" for c in comments]  # comments first
    assert f"domain: {DOMINEERING}" in comments and f"problem: {DOMINEERING_2x2}" in comments
    assert any("depth: 2" in c for c in comments)
    counts = header_counts(text)
    num_vars, num_clauses = map(int, re.search(r"^p cnf (\d+) (\d+)$", text, re.M).groups())
    assert f"Tseitin: {num_vars} variables, {num_clauses} clauses" in comments
    prefix = [line for line in lines if line[:2] in ("e ", "a ")]
    assert len([line for line in lines if line and line[0] in "-0123456789"]) == num_clauses
    # the circuit's variables open the prefix; the gates' Tseitin variables
    # follow, all but those of a conjunction at the output, whose conjuncts
    # are written as clauses of their own
    quantified = [int(v) for line in prefix for v in line.split()[1:-1]]
    assert quantified[: counts["variables"]] == list(range(1, counts["variables"] + 1))
    assert quantified == sorted(set(quantified)) and quantified[-1] <= num_vars
    used = {abs(int(v)) for line in lines if line and line[0] in "-0123456789" for v in line.split()[:-1]}
    assert used <= set(quantified)
    assert counts["variables"] + counts["gates"] == num_vars
    assert counts["blocks"] in (len(prefix), len(prefix) - 1)


# -- atomic writes ------------------------------------------------------------------


@pytest.fixture
def bad_model(tmp_path):
    domain = tmp_path / "bad_domain.bddl"
    domain.write_text(GOOD_DOMAIN.replace("open(?x,?y))\n:effect (white", "opn(?x,?y))\n:effect (white"))
    problem = tmp_path / "problem.bddl"
    problem.write_text(GOOD_PROBLEM)
    return str(domain), str(problem)


def test_a_bad_model_leaves_an_existing_output_untouched(tmp_path, bad_model, capsys):
    out = tmp_path / "out" / "f.qcir"
    out.parent.mkdir()
    out.write_text("precious\n")
    os.utime(out, (1, 1))
    assert main([*bad_model, "-o", str(out)]) == 1
    assert out.read_text() == "precious\n" and out.stat().st_mtime == 1
    assert [p.name for p in out.parent.iterdir()] == ["f.qcir"]  # no temporary file left
    assert "unknown predicate 'opn'" in capsys.readouterr().err


def test_a_missing_output_folder_is_an_input_error(tmp_path, capsys):
    out = tmp_path / "no" / "such" / "f.qcir"
    assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{out}: error: cannot write the output") and "Traceback" not in err
    assert "no such folder" in err.lower()
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_a_folder_is_an_input_error(tmp_path, capsys):
    folder = tmp_path / "f.qcir"
    folder.mkdir()
    (folder / "inside").write_text("kept\n")
    assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{folder}: error: cannot write the output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.qcir"]
    assert [p.name for p in folder.iterdir()] == ["inside"]


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_removes_its_temporary_file(tmp_path, monkeypatch, capsys, failure):
    """A write that fails half-way (disk full, Ctrl-C) leaves OUT as it was and no temporary file."""
    import compiler.formula_files as output

    out = tmp_path / "f.qcir"
    out.write_text("precious\n")

    def failing_replace(src, dst):
        assert Path(src).exists() and Path(src).parent == tmp_path  # written beside OUT, then renamed
        raise failure

    monkeypatch.setattr(output.os, "replace", failing_replace)
    status = main([DOMINEERING, DOMINEERING_2x2, "-o", str(out)])
    assert status == (1 if isinstance(failure, OSError) else 130)
    assert out.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.qcir"]
    if isinstance(failure, OSError):
        assert "No space left on device" in capsys.readouterr().err


def test_the_output_file_gets_ordinary_permissions(tmp_path):
    """The temporary file is private (0600) while written; the result follows the umask like any new file."""
    old = os.umask(0o022)
    try:
        assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(tmp_path / "f.qcir")]) == 0
        os.umask(0o027)
        assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(tmp_path / "g.qcir")]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "f.qcir").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "g.qcir").stat().st_mode & 0o777 == 0o640


def test_a_successful_write_replaces_the_whole_file(tmp_path):
    out = tmp_path / "f.qcir"
    out.write_text("x" * 1_000_000)
    assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("#QCIR-G14") and "x" * 100 not in text
    assert [p.name for p in tmp_path.iterdir()] == ["f.qcir"]


# -- --version, --help, exit statuses -------------------------------------------------


def run_cli(*args: str, cwd: Path | str = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert re.fullmatch(r"bddlc \S+\ncompiled core: (built|not built) \(.*\)\n", capsys.readouterr().out)


@pytest.mark.parametrize("argv", [["--help"], ["compile", "--help"], ["a.bddl", "b.bddl", "--help"]])
def test_help_shows_examples(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "bddlc domains/" in out


def help_examples() -> list[list[str]]:
    """Every compile example line of both help texts, as argument lists."""
    import io
    from contextlib import redirect_stdout

    found = []
    for argv in (["--help"], ["compile", "--help"]):
        buf = io.StringIO()
        with redirect_stdout(buf), pytest.raises(SystemExit):
            main(argv)
        for line in buf.getvalue().splitlines():
            if line.strip().startswith("bddlc "):
                words = shlex.split(line)
                if words[1] not in COMMANDS or words[1] == "compile":  # the other commands' examples are theirs
                    found.append(words[1:])
    return found


def test_the_help_examples_work(tmp_path, capsys):
    """The examples in --help name real files and compile (redirections become -o)."""
    examples = help_examples()
    assert len(examples) >= 2
    for words in examples:
        if ">" in words:
            at = words.index(">")
            words = words[:at] + ["-o", words[at + 1]]
        words = [str(ROOT / w) if w.startswith(("domains/", "problems/")) else w for w in words]
        assert compile_to(tmp_path, *words) == 0, words
    capsys.readouterr()


def test_exit_statuses_as_a_subprocess(tmp_path, bad_model):
    ok = run_cli(DOMINEERING, DOMINEERING_2x2, "-o", str(tmp_path / "f.qdimacs"))
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")
    assert (tmp_path / "f.qdimacs").read_text().startswith("c bddlc")
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("bddlc ")
    bad = run_cli(*bad_model, "-o", str(tmp_path / "g.qcir"))
    assert bad.returncode == 1 and bad.stdout == ""
    assert re.match(rf"{re.escape(bad_model[0])}:9:16: error: unknown predicate 'opn' \(did you mean 'open'\?\)\n", bad.stderr)
    assert "^~~" in bad.stderr and "expected:" in bad.stderr and "Traceback" not in bad.stderr
    nowhere = run_cli(DOMINEERING, DOMINEERING_2x2, "-o", str(tmp_path / "missing" / "f.qcir"))
    assert nowhere.returncode == 1 and "Traceback" not in nowhere.stderr and "error: cannot write" in nowhere.stderr
    usage = run_cli(DOMINEERING)
    assert usage.returncode == 2 and "usage: bddlc" in usage.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad_domain.bddl", "f.qdimacs", "problem.bddl"]


@pytest.mark.parametrize(
    "argv",
    [
        [DOMINEERING],
        [DOMINEERING, DOMINEERING_2x2, "--format", "aiger"],
        [DOMINEERING, DOMINEERING_2x2, "--depth", "0"],
        [DOMINEERING, DOMINEERING_2x2, "--depth", "two"],
        [DOMINEERING, DOMINEERING_2x2, "--encoding", "magic"],
        [DOMINEERING, DOMINEERING_2x2, "--no-such-option"],
        [DOMINEERING, DOMINEERING_2x2, "-o"],
    ],
)
def test_usage_errors_exit_2(tmp_path, capsys, argv):
    with pytest.raises(SystemExit) as info:
        compile_to(tmp_path, *argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: bddlc" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_no_arguments_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "usage: bddlc" in capsys.readouterr().err


# -- bad input: located, explained, no traceback ----------------------------------------

# (domain text, problem text, file the error is in, line, column, words in the message)
BAD_INPUTS = {
    "domain syntax": (GOOD_DOMAIN.replace(":effect (black", ":efect (black"), GOOD_PROBLEM, "d", 5, 1, "efect"),
    "unknown predicate": (GOOD_DOMAIN.replace("(black(?x,?y))", "(blak(?x,?y))"), GOOD_PROBLEM, "d", 5, 10, "unknown predicate 'blak'"),
    "unknown variable": (GOOD_DOMAIN.replace("(open(?x,?y))", "(open(?z,?y))", 1), GOOD_PROBLEM, "d", 4, 21, "?z"),
    "absolute index in an action": (GOOD_DOMAIN.replace("(open(?x,?y))", "(open(1,?y))", 1), GOOD_PROBLEM, "d", 4, 21, "absolute coordinates are not allowed"),
    "duplicate action": (GOOD_DOMAIN.replace("#whiteactions", GOOD_DOMAIN.splitlines()[1] + "\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n:effect (black(?x,?y))\n#whiteactions"), GOOD_PROBLEM, "d", 6, 9, "already has an action named 'occupy'"),
    "missing domain section": (GOOD_DOMAIN.split("#whiteactions")[0], GOOD_PROBLEM, "d", 0, 0, "missing section '#whiteactions'"),
    "problem syntax": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#boardsize 3 1", "#boardsize 3"), "p", 2, 1, ""),
    "zero board": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#boardsize 3 1", "#boardsize 0 1"), "p", 1, 12, "width must be at least 1"),
    "zero depth": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#depth 3", "#depth 0"), "p", 3, 8, "depth must be at least 1"),
    "init off the board": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#init", "#init\nblack(4,1)"), "p", 3, 7, "off the 3x1 board"),
    "init twice": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#init", "#init\nblack(1,1) white(1,1)"), "p", 3, 12, "listed twice"),
    "relative init": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#init", "#init\nblack(?x,1)"), "p", 3, 7, "absolute coordinates"),
    "goal off the board": (GOOD_DOMAIN, GOOD_PROBLEM.replace("(white(?x,?y) white(?x+1,?y))", "(white(5,1))"), "p", 7, 8, "off the 3x1 board"),
    "goal holds initially": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#init", "#init\nblack(1,1) black(2,1)"), "p", 6, 1, "already holds"),
    "bad blackturn": (GOOD_DOMAIN, GOOD_PROBLEM + "#blackturn third\n", "p", 8, 12, "'first' or 'second'"),
    "repeated section": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#depth 3", "#depth 3\n#depth 4"), "p", 4, 1, "repeated section '#depth'"),
    "depth beyond the limit": (GOOD_DOMAIN, GOOD_PROBLEM.replace("#depth 3", "#depth 20000"), "p", 3, 8, "beyond the limit"),
}


def located(rendered: str, file: str, line: int, column: int) -> bool:
    first = rendered.splitlines()[0]
    if line == 0:  # the end of the file, or the file as a whole
        return re.match(rf"{re.escape(file)}(:\d+:\d+)?: error: ", first) is not None
    return first.startswith(f"{file}:{line}:{column}: error: ")


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_located_explained_and_exits_1(tmp_path, capsys, name):
    domain_text, problem_text, where, line, column, words = BAD_INPUTS[name]
    domain, problem = tmp_path / "d.bddl", tmp_path / "p.bddl"
    domain.write_text(domain_text)
    problem.write_text(problem_text)
    out = tmp_path / "f.qcir"
    assert main([str(domain), str(problem), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    err = captured.err
    assert captured.out == "" and "Traceback" not in err
    assert located(err, str(tmp_path / f"{where}.bddl"), line, column), err
    assert re.search(r"^ +\d+ \| .*\n +\| +\^~*$", err, re.M), f"no caret under the source line:\n{err}"
    assert re.search(r"^(expected: |note: )\S", err, re.M), f"no hint:\n{err}"
    assert words in err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["d.bddl", "p.bddl"]


@pytest.mark.parametrize("which", ["domain", "problem"])
def test_unreadable_files_are_named(tmp_path, capsys, which):
    good = tmp_path / "good.bddl"
    good.write_text(GOOD_DOMAIN if which == "problem" else GOOD_PROBLEM)
    missing = tmp_path / "missing.bddl"
    argv = [str(missing), str(good)] if which == "domain" else [str(good), str(missing)]
    assert main(argv) == 1
    assert capsys.readouterr().err.startswith(f"{missing}: error: no such file")
    folder = tmp_path / "folder.bddl"
    folder.mkdir()
    argv = [str(folder), str(good)] if which == "domain" else [str(good), str(folder)]
    assert main(argv) == 1
    assert capsys.readouterr().err.startswith(f"{folder}: error: is a folder, not a game file")


def test_non_utf8_input_is_located(tmp_path, capsys):
    domain, problem = tmp_path / "d.bddl", tmp_path / "p.bddl"
    domain.write_bytes(GOOD_DOMAIN.replace("occupy", "occ\xfepy", 1).encode("latin-1"))
    problem.write_text(GOOD_PROBLEM)
    assert main([str(domain), str(problem)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{domain}:2:12: error: the file is not valid UTF-8") and "expected:" in err


def test_corpus_dialect_compiles(tmp_path):
    """The reference tool's dialect (corpus .ig files) compiles like ours, when the corpus is there."""
    from helpers.corpus import SAT2023

    domain, problem = SAT2023 / "domineering" / "domain.ig", SAT2023 / "domineering" / "2x2_2.ig"
    if not problem.exists():
        pytest.skip("../shared/corpus is not present")
    assert main([str(domain), str(problem), "-o", str(tmp_path / "f.qcir")]) == 0
    ours = tmp_path / "ours.qcir"
    assert main([DOMINEERING, DOMINEERING_2x2, "-o", str(ours)]) == 0
    assert formula_lines((tmp_path / "f.qcir").read_text()) == formula_lines(ours.read_text())
