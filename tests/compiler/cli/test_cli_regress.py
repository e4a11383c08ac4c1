"""`bddlc regress`: a manifest of expected answers checked; mismatches named and failing the run,
undecided entries a status of their own, JUnit XML, located errors in a bad manifest."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers.suite import DOMAINS, PROBLEMS

from compiler.cli import main
from compiler.cli import regress_run as regress

ENTRY = """
[[problem]]
file = "{file}"
domain = "{domain}"
black_wins = {answer}
"""


def manifest(tmp_path: Path, *entries: tuple[str, str, bool], extra: str = "") -> Path:
    """A manifest in tmp_path that points at the suite's folders."""
    text = f'domains = "{DOMAINS}"\nproblems = "{PROBLEMS}"\n' + extra
    for file, domain, answer in entries:
        text += ENTRY.format(file=file, domain=domain, answer="true" if answer else "false")
    path = tmp_path / "expected.toml"
    path.write_text(text)
    return path


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


GOOD = [("httt/domino_3x3_d3.bddl", "positional.bddl", True), ("domineering/2x3_d4.bddl", "domineering.bddl", True),
        ("httt/el_3x3_d3.bddl", "positional.bddl", False)]


@pytest.mark.parametrize("method", ["solve", "search", "both"])
def test_every_entry_agrees(tmp_path, capsys, method):
    status, out, _ = run(capsys, "regress", str(manifest(tmp_path, *GOOD)), "--method", method)
    assert status == 0, out
    assert out.splitlines()[-1] == "3 entries: 3 agree, 0 mismatch, 0 undecided"
    rows = [line for line in out.splitlines() if line.startswith(("httt", "domineering"))]
    assert len(rows) == 3 and all(" agree " in row for row in rows)
    assert all(("solve@" in row) == (method != "search") and ("search@" in row) == (method != "solve") for row in rows)


@pytest.mark.parametrize("method", ["solve", "search"])
def test_a_wrong_entry_fails_the_run_and_is_named(tmp_path, capsys, method):
    wrong = GOOD[:2] + [("httt/el_3x3_d3.bddl", "positional.bddl", True)]  # el 3x3 at depth 3: no win
    junit = tmp_path / "regress.xml"
    status, out, err = run(capsys, "regress", str(manifest(tmp_path, *wrong)), "--method", method, "--junit", str(junit))
    assert status == 4
    assert "MISMATCH: httt/el_3x3_d3.bddl" in err and f"{method} at depth 3: no win, expected Black wins" in err
    assert out.splitlines()[-1] == "3 entries: 2 agree, 1 mismatch, 0 undecided"
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("3", "1", "0")
    failed = [case.get("name") for case in suite if case.find("failure") is not None]
    assert failed == ["httt/el_3x3_d3.bddl"]


def test_an_entry_without_a_verdict_is_undecided(tmp_path, capsys):
    junit = tmp_path / "regress.xml"
    status, out, _ = run(capsys, "regress", str(manifest(tmp_path, *GOOD)), "--timeout", "0.000001", "--junit", str(junit))
    assert status == 3
    assert out.splitlines()[-1] == "3 entries: 0 agree, 0 mismatch, 3 undecided"
    assert ET.parse(junit).getroot().get("skipped") == "3"


def test_critical_depth_is_checked(tmp_path, capsys):
    extra_entry = '\n[[problem]]\nfile = "httt/domino_3x3_d3.bddl"\ndomain = "positional.bddl"\nblack_wins = true\ncritical_depth = {}\n'
    for critical, expected_status in ((3, 0), (1, 4)):
        path = manifest(tmp_path)
        path.write_text(path.read_text() + extra_entry.format(critical))
        status, out, err = run(capsys, "regress", str(path))
        assert status == expected_status, out
    assert "solve at depth 1: no win, expected Black wins" in err


def test_slow_entries_wait_for_the_flag(tmp_path, capsys):
    path = manifest(tmp_path, *GOOD[:1])
    path.write_text(path.read_text() + "slow = true\n")
    status, out, _ = run(capsys, "regress", str(path))
    assert status == 0 and "0 entries" in out and "1 slow entry not checked" in out


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("[[problem]]\nfile = \n", ":4:8:", "Invalid value"),
        ('[[problem]]\nfile = "httt/domino_3x3_d3.bddl"\nblack_wins = true\n', ":3:1:", "needs its `domain`"),
        ('[[problem]]\nfile = "nowhere.bddl"\ndomain = "positional.bddl"\nblack_wins = true\n', ":4:1:", "no problem file"),
        ('[[problem]]\nfile = "httt/domino_3x3_d3.bddl"\ndomain = "positional.bddl"\nblack_wins = "yes"\n', ":6:1:", "`black_wins` is true or false, not \"yes\""),
        ('[[problem]]\nfile = "pg/row4_1x7.pg"\ndomain = "positional.bddl"\nblack_wins = true\n', ":5:1:", "a .pg game stands alone"),
        ('[[problem]]\nfile = "pg/nowhere.pg"\nblack_wins = true\n', ":4:1:", "no problem file"),
        ("# nothing\n", ":1:1:", "no [[problem]] entries"),
        ('[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\nseconds = "long"\n', ":6:1:", "`seconds` must be a number"),
        # a misspelt key would drop its check without a word: an error naming the key meant
        ('[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\ncritcal_depth = 7\n', ":6:1:",
         "unknown key `critcal_depth` (did you mean 'critical_depth'?)"),
        # ... before the key it stands for is found missing
        ('[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_win = false\n', ":5:1:", "unknown key `black_win` (did you mean 'black_wins'?)"),
        ('[[problem]]\nfile = "httt/domino_3x3_d3.bddl"\ndomian = "positional.bddl"\nblack_wins = true\n', ":5:1:",
         "unknown key `domian` (did you mean 'domain'?)"),
        ('[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\nslow = "yes"\n', ":6:1:", "`slow` must be true or false"),
        ('[[problme]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\n', ":3:3:", "unknown key `problme` (did you mean 'problem'?)"),
    ],
)
def test_a_bad_manifest_is_located(tmp_path, capsys, text, where, message):
    path = tmp_path / "bad.toml"
    # two lines of folder keys first (top-level keys come before the tables): `where` counts them
    path.write_text(f'domains = "{DOMAINS}"\nproblems = "{PROBLEMS}"\n' + text)
    status, out, err = run(capsys, "regress", str(path))
    assert status == 1 and out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{path}{where} error:") and message in first, err
    assert "Traceback" not in err


def test_a_misspelt_top_level_key_is_located(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(f'domians = "{DOMAINS}"\nproblems = "{PROBLEMS}"\n[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\n')
    status, out, err = run(capsys, "regress", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"{path}:1:1: error: unknown key `domians` (did you mean 'domains'?)"), err
    assert "1 | domians" in err  # the line, with its caret


def test_notes_and_the_benchmarks_keys_are_not_mistakes(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text(f'problems = "{PROBLEMS}"\n[[problem]]\nfile = "pg/row4_1x7.pg"\nblack_wins = false\n'
                    'source = "by hand"\nnote = "a row"\nengine = "minimax"\n')
    assert [e.name for e in regress.read_manifest(path)] == ["pg/row4_1x7.pg"]


@pytest.mark.parametrize("junit", ["nowhere/j.xml", "."])
def test_an_unwritable_junit_file_is_refused_before_any_entry_runs(tmp_path, capsys, monkeypatch, junit):
    """A run of many minutes must not end in a traceback because the report's folder is missing."""
    checked = []
    monkeypatch.setattr(regress, "check_entry", lambda entry, options: checked.append(entry))
    status, out, err = run(capsys, "regress", str(manifest(tmp_path, *GOOD)), "--junit", str(tmp_path / junit))
    assert status == 1 and out == "" and checked == []
    assert "error: cannot write the output" in err and "Traceback" not in err


def test_our_manifest_reads_as_a_regress_manifest():
    entries = regress.read_manifest(PROBLEMS / "expected.toml")
    assert len(entries) >= 100
    assert all(e.domain is not None and e.domain.is_file() and e.problem.is_file() for e in entries)


def test_two_dask_workers_check_the_entries(tmp_path, capsys):
    pytest.importorskip("distributed")
    wrong = GOOD[:2] + [("httt/el_3x3_d3.bddl", "positional.bddl", True)]
    status, out, err = run(capsys, "regress", str(manifest(tmp_path, *wrong)), "--workers", "2")
    assert status == 4 and "MISMATCH: httt/el_3x3_d3.bddl" in err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[1:4]] == [name for name, _, _ in wrong]  # manifest order


def test_on_dask_the_entries_the_manifest_says_are_longest_start_first(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    from compiler.solving.processes import cluster

    path = manifest(tmp_path, *GOOD)
    text = path.read_text().split("[[problem]]")
    seconds = ["", "seconds = 0.5\n", "", "seconds = 3\n"]  # domino 0.5 s, domineering unknown, el 3 s
    path.write_text("[[problem]]".join(part.rstrip("\n") + "\n" + extra for part, extra in zip(text, seconds)))
    started = []
    choose = cluster.longest_first
    monkeypatch.setattr(cluster, "longest_first", lambda items, cost: started.extend(choose(items, cost)) or started)
    status, out, _ = run(capsys, "regress", str(path), "--workers", "2")
    assert status == 0, out
    assert [item[1].name for item in started] == ["httt/el_3x3_d3.bddl", "httt/domino_3x3_d3.bddl", "domineering/2x3_d4.bddl"]
    assert [line.split()[0] for line in out.splitlines()[1:4]] == [name for name, _, _ in GOOD]  # manifest order


def test_a_model_that_does_not_load_fails_its_entry_only(tmp_path, capsys):
    broken = tmp_path / "broken.bddl"
    broken.write_text((PROBLEMS / "httt/domino_3x3_d3.bddl").read_text().replace("#depth", "#dpth"))
    path = manifest(tmp_path, *GOOD[:1])
    path.write_text(path.read_text() + ENTRY.format(file=broken, domain="positional.bddl", answer="true"))
    status, out, err = run(capsys, "regress", str(path))
    assert status == 4 and out.splitlines()[-1] == "2 entries: 1 agree, 1 mismatch, 0 undecided"
    assert f"MISMATCH: {broken}: the model does not load: {broken}:" in err


# --- positional games (.pg): no domain; solved by the QBF route, searched by the explicit positional solver ---

PG_ENTRY = """
[[problem]]
file = "{file}"
black_wins = {answer}
"""


def pg_manifest(tmp_path: Path, *entries: tuple[str, bool], extra: str = "") -> Path:
    text = f'problems = "{PROBLEMS}"\n'
    for file, answer in entries:
        text += PG_ENTRY.format(file=file, answer="true" if answer else "false")
    path = tmp_path / "positional.toml"
    path.write_text(text + extra)
    return path


PG_GOOD = [("pg/tictactoe_3x3_d5.pg", True), ("pg/row4_1x7.pg", False), ("pg/tictactoe_3x3.pg", False)]


@pytest.mark.parametrize("method", ["solve", "search", "both"])
def test_pg_entries_agree(tmp_path, capsys, method):
    status, out, _ = run(capsys, "regress", str(pg_manifest(tmp_path, *PG_GOOD)), "--method", method)
    assert status == 0, out
    assert out.splitlines()[-1] == "3 entries: 3 agree, 0 mismatch, 0 undecided"
    rows = [line for line in out.splitlines() if line.startswith("pg/")]
    assert [row.split()[:2] for row in rows] == [["pg/tictactoe_3x3_d5.pg", "5"], ["pg/row4_1x7.pg", "7"], ["pg/tictactoe_3x3.pg", "9"]]
    assert all(("solve@" in row) == (method != "search") and ("search@" in row) == (method != "solve") for row in rows)


@pytest.mark.parametrize("method", ["solve", "search"])
def test_a_wrong_pg_entry_fails_the_run_and_is_named(tmp_path, capsys, method):
    wrong = PG_GOOD[:2] + [("pg/tictactoe_3x3.pg", True)]  # tic-tac-toe is a draw
    status, out, err = run(capsys, "regress", str(pg_manifest(tmp_path, *wrong)), "--method", method)
    assert status == 4
    assert f"MISMATCH: pg/tictactoe_3x3.pg: {method} at depth 9: no win, expected Black wins" in err
    assert out.splitlines()[-1] == "3 entries: 2 agree, 1 mismatch, 0 undecided"


@pytest.mark.parametrize("method", ["solve", "search"])
def test_a_pg_entry_depth_cuts_the_game(tmp_path, capsys, method):
    # Black's third cell comes at time point 5 of tictactoe_3x3_d5: no win within 3
    for answer, expected_status in ((False, 0), (True, 4)):
        path = pg_manifest(tmp_path, ("pg/tictactoe_3x3_d5.pg", answer), extra="depth = 3\n")
        status, out, err = run(capsys, "regress", str(path), "--method", method)
        assert status == expected_status, out
        assert out.splitlines()[1].split()[:2] == ["pg/tictactoe_3x3_d5.pg", "3"]
    assert f"{method} at depth 3: no win, expected Black wins" in err


@pytest.mark.parametrize("method", ["solve", "search"])
def test_critical_depth_of_a_pg_entry_is_checked(tmp_path, capsys, method):
    # the entry's depth (5), a win at the critical depth, no win one less: 5 then 4 for 5; 5, 4 then 3 for 4
    for critical, expected_status, asked in ((5, 0, (5, 4)), (4, 4, (5, 4, 3))):
        path = pg_manifest(tmp_path, ("pg/tictactoe_3x3_d5.pg", True), extra=f"critical_depth = {critical}\n")
        status, out, err = run(capsys, "regress", str(path), "--method", method)
        assert status == expected_status, out
        depths = re.findall(r"(\w+@\d+):", out.splitlines()[1])
        assert depths == [f"{method}@{depth}" for depth in asked]
    assert f"{method} at depth 4: no win, expected Black wins" in err


@pytest.mark.parametrize("method", ["solve", "search"])
def test_a_pg_game_that_does_not_load_fails_its_entry_only(tmp_path, capsys, method):
    broken = tmp_path / "broken.pg"
    broken.write_text((PROBLEMS / "pg/row4_1x7.pg").read_text().replace("#positions", "#postions"))
    path = pg_manifest(tmp_path, PG_GOOD[1], (str(broken), False))
    status, out, err = run(capsys, "regress", str(path), "--method", method)
    assert status == 4 and out.splitlines()[-1] == "2 entries: 1 agree, 1 mismatch, 0 undecided"
    assert f"MISMATCH: {broken}: the model does not load: {broken}:" in err and "error:" in err
    assert "Traceback" not in err


def test_our_positional_manifest_reads_as_a_regress_manifest():
    entries = regress.read_manifest(PROBLEMS / "positional.toml")
    assert len(entries) >= 8
    assert all(e.positional and e.domain is None and e.problem.is_file() for e in entries)


@pytest.mark.parametrize("method", ["search", "both"])
def test_a_relative_manifest_is_read_from_where_bddlc_runs(tmp_path, capsys, monkeypatch, method):
    """Issue 26, repro 1: the search child ran in the repository's folder with the
    manifest's relative paths, found no file, and called a wrong answer undecided."""
    import shutil

    folder = tmp_path / "suite"
    shutil.copytree(DOMAINS, folder / "rules")
    shutil.copytree(PROBLEMS / "httt", folder / "models" / "httt")
    wrong = GOOD[:1] + [("httt/el_3x3_d3.bddl", "positional.bddl", True)]  # el 3x3 at depth 3: no win
    text = 'domains = "rules"\nproblems = "models"\n'
    for file, domain, answer in wrong:
        text += ENTRY.format(file=file, domain=domain, answer="true" if answer else "false")
    (folder / "expected.toml").write_text(text)
    monkeypatch.chdir(folder)
    status, out, err = run(capsys, "regress", "expected.toml", "--method", method)
    assert status == 4, out + err
    assert out.splitlines()[-1] == "2 entries: 1 agree, 1 mismatch, 0 undecided"
    assert "search at depth 3: no win, expected Black wins" in err


def test_a_model_the_search_child_refuses_is_a_mismatch_not_undecided(tmp_path, capsys):
    broken = tmp_path / "broken.bddl"
    broken.write_text((PROBLEMS / "httt/el_3x3_d3.bddl").read_text().replace("#depth", "#dpeth"))
    text = f'domains = "{DOMAINS}"\nproblems = "{tmp_path}"\n' + ENTRY.format(file="broken.bddl", domain="positional.bddl", answer="false")
    path = tmp_path / "expected.toml"
    path.write_text(text.replace("black_wins = false", "black_wins = false\ndepth = 3"))
    status, out, err = run(capsys, "regress", str(path), "--method", "search")
    assert status == 4, out + err
    assert "the model does not load" in err


def test_a_refuted_first_move_is_a_mismatch(tmp_path, monkeypatch):
    """Issue 26, repro 7: only the positional MoveCheckError was caught; the BDDL one escaped.
    Both adapters now raise the one `compiler.solving.results.MoveCheckError`."""
    from compiler.solving.results import MoveCheckError as error

    def refuted(entry, depth, options, model):
        raise error("the game engine refutes the first move")

    monkeypatch.setattr(regress, "_solve", refuted)
    entry = regress.read_manifest(manifest(tmp_path, GOOD[0]))[0]
    verdict = regress.check_entry(entry, regress.Options(method="solve"))
    assert verdict.status == regress.MISMATCH
    assert "first move is refuted" in verdict.problems[0]


def test_a_first_move_cut_that_changes_the_question_is_warned_of_under_its_entry(tmp_path, capsys):
    """regress prints the model's warnings as every other command does: a #firstmoves that leaves out
    openings (here tic-tac-toe cut to the corner) makes the verdict the cut game's."""
    game = tmp_path / "corner.pg"
    game.write_text((PROBLEMS / "pg" / "tictactoe_3x3.pg").read_text().replace("#firstmoves\na1 a2 b2", "#firstmoves\na1"))
    whole = tmp_path / "whole.pg"
    whole.write_text((PROBLEMS / "pg" / "tictactoe_3x3.pg").read_text())
    path = tmp_path / "m.toml"
    path.write_text(f'problems = "{tmp_path}"\n[[problem]]\nfile = "corner.pg"\nblack_wins = false\n'
                    '[[problem]]\nfile = "whole.pg"\nblack_wins = false\n')
    status, out, _ = run(capsys, "regress", str(path), "--method", "search")
    assert status == 0, out
    lines = out.splitlines()
    corner = next(i for i, line in enumerate(lines) if line.startswith("corner.pg"))
    assert "warning: '#firstmoves' leaves out the first moves" in lines[corner + 1] and "b2" in lines[corner + 1]
    assert sum("warning:" in line for line in lines) == 1  # the whole game's cut leaves nothing out
