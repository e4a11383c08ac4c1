"""`python -m bench` end to end: the quick profile CI runs, the report command, and a run
that must fail loudly.  The quick profile compiles real models in real processes and runs
the real solvers; the test checks that the outputs exist and parse, and that every verdict
was checked against the manifest, never how fast anything was."""

from __future__ import annotations

import json
import os
import signal

import pytest

from bench import cli, records
from bench.configs import DEFAULT, PAPER_BASELINE
from bench.instances import QUICK_SCALING, QUICK_SUITE
from bench.records import COMPILED, CORRECT, SOLVED
from compiler.solving.qbf import solver_programs as solvers
from conftest import shell_program

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench-quick")
    status = cli.main(["--profile", "quick", "--output", str(folder)])
    return status, folder


def test_the_quick_profile_runs_clean(quick_run):
    status, folder = quick_run
    assert status == cli.EXIT_OK
    rows = records.load(folder / cli.RESULTS_CSV)
    solved = [r for r in rows if r.solver]
    assert {r.config for r in solved} == {DEFAULT.name, PAPER_BASELINE.name}
    assert len(solved) == 2 * len(QUICK_SUITE)
    assert all(r.status == SOLVED and r.check == CORRECT for r in solved), [(r.instance, r.config, r.status) for r in solved]
    compiled = [r for r in rows if r.status == COMPILED]
    assert len(compiled) == 2 * len(QUICK_SCALING.boards())
    for row in rows:
        assert row.compile_process_s > 0 and row.compile_inprocess_s > 0 and row.qcir_bytes > 0
        reads_qcir = row.tseitin == "qcir" or row.note.startswith("ran ") and "/qcir/" in row.note
        assert (row.qdimacs_clauses is None) == reads_qcir  # CNF only where a solver reads it
        assert reads_qcir or row.qdimacs_clauses > 0


def test_the_quick_profile_writes_its_metadata_table_and_plots(quick_run):
    from matplotlib.image import imread

    _, folder = quick_run
    meta = json.loads((folder / cli.RUN_JSON).read_text())
    assert meta["profile"] == "quick" and meta["time_limit"] == 10.0 and meta["failures"] == []
    assert meta["machine"]["cores"] and meta["configurations"] == [DEFAULT.name, PAPER_BASELINE.name]
    markdown = (folder / cli.RESULTS_MD).read_text()
    assert "## Verdicts" in markdown and f"| {DEFAULT.name} | suite | {len(QUICK_SUITE)} | {len(QUICK_SUITE)} / {len(QUICK_SUITE)} | 0 |" in markdown
    for name in ("cactus.png", "scaling_side.png", "scaling_depth.png"):
        path = folder / name
        assert path.read_bytes()[:8] == PNG_SIGNATURE
        image = imread(path)
        assert image.shape[0] > 100 and image.shape[1] > 100
        assert f"![{name}]({name})" in markdown


def test_the_report_command_writes_a_document_with_its_plots(quick_run, tmp_path):
    _, folder = quick_run
    target = tmp_path / "docs" / "benchmarks.md"
    assert cli.main(["--report", str(target), "--output", str(folder)]) == cli.EXIT_OK
    text = target.read_text()
    assert text.startswith("# bddlc benchmarks") and "time limit: 10.0 s per solve" in text
    assert "machine:" in text and "date:" in text and f"`{DEFAULT.name}`" in text
    for name in ("cactus.png", "scaling_side.png", "scaling_depth.png"):
        assert (tmp_path / "docs" / "benchmarks" / name).read_bytes()[:8] == PNG_SIGNATURE
        assert f"(benchmarks/{name})" in text


def test_the_report_command_reports_several_runs_together(quick_run, tmp_path):
    _, quick = quick_run
    other = tmp_path / "other"
    config = "explicit/pg-early/depqbf/none"
    argv = ["--sets", "suite", "--filter", "suite/httt/el_3x3_d3", "--config", config, "--time-limit", "10", "--output", str(other), "--no-plots"]
    assert cli.main(argv) == cli.EXIT_OK
    target = tmp_path / "docs" / "benchmarks.md"
    assert cli.main(["--report", str(target), "--output", str(quick), "--output", str(other)]) == cli.EXIT_OK
    text = target.read_text()
    assert "from the results of 2 runs" in text and "time limit: 10.0 s per solve" in text
    verdicts = text.split("## Per instance")[1]
    assert f"`{config}`" in text and f"`{DEFAULT.name}`" in text and config in verdicts and DEFAULT.name in verdicts
    for name in ("cactus.png", "scaling_side.png", "scaling_depth.png"):
        assert (tmp_path / "docs" / "benchmarks" / name).read_bytes()[:8] == PNG_SIGNATURE

    meta = json.loads((other / cli.RUN_JSON).read_text())
    (other / cli.RUN_JSON).write_text(json.dumps(dict(meta, time_limit=60.0)))  # runs with different limits
    assert cli.main(["--report", str(target), "--output", str(quick), "--output", str(other)]) == cli.EXIT_OK
    text = target.read_text()
    assert "different in each run" in text and "not judged: the runs used different limits" in text


def test_a_compile_only_run_refreshes_the_compile_times_of_the_solving_runs(quick_run, tmp_path):
    _, quick = quick_run
    timing = tmp_path / "timing"
    argv = ["--sets", "suite", "--filter", "suite/httt/el_3x3_d3", "--config", "default", "--compile-only", "--output", str(timing), "--no-plots"]
    assert cli.main(argv) == cli.EXIT_OK
    (quiet,) = records.load(timing / cli.RESULTS_CSV)
    assert quiet.status == COMPILED and quiet.solver == "" and quiet.compile_process_s > 0
    target = tmp_path / "report.md"
    assert cli.main(["--report", str(target), "--output", str(quick), "--output", str(timing)]) == cli.EXIT_OK
    text = target.read_text()
    assert "taken from a compile-only run" in text and "## Verdicts" in text
    solved = [r for r in records.load(quick / cli.RESULTS_CSV) if r.instance == quiet.instance and r.encoding == quiet.encoding]
    assert solved
    refreshed = cli.refresh_compile_times(solved, [quiet])
    assert len(refreshed) == len(solved) and all(r.compile_process_s == quiet.compile_process_s for r in refreshed)
    assert all(r.verdict == s.verdict and r.qcir_gates == s.qcir_gates for r, s in zip(refreshed, solved))
    other = records.load(quick / cli.RESULTS_CSV)[0]
    assert cli.refresh_compile_times([], [other]) == [other]  # a timing with no solving row is kept


def test_merged_runs_with_different_limits_are_not_judged_against_the_targets():
    meta = cli.merge_meta([{"time_limit": 60.0, "configurations": ["a"]}, {"time_limit": 10.0, "configurations": ["b", "a"]}])
    assert meta["time_limit"] is None and meta["configurations"] == ["a", "b"] and meta["runs"] == 2


def test_a_terminated_run_keeps_what_it_measured(quick_run, tmp_path, monkeypatch):
    """A run of hours killed by SIGTERM (or a closed session's SIGHUP) still leaves its rows:
    they are saved after every instance, and the signal ends the run as Ctrl-C does."""
    _, quick = quick_run
    measured = records.load(quick / cli.RESULTS_CSV)[:3]
    output = tmp_path / "out"

    def run_then_get_killed(instances, configs, options, progress, rows, after_instance, done):
        rows.extend(measured)
        after_instance(rows)
        assert records.load(output / cli.RESULTS_CSV) == measured  # on disk before the end
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("SIGTERM did not end the run")

    monkeypatch.setattr(cli, "run", run_then_get_killed)
    argv = ["--sets", "suite", "--filter", "suite/httt/el_3x3_d3", "--config", "default", "--output", str(output), "--no-plots"]
    assert cli.main(argv) == 128 + signal.SIGTERM
    assert set(records.load(output / cli.RESULTS_CSV)) == set(measured)  # put in plan order on the way out
    assert json.loads((output / cli.RUN_JSON).read_text())["interrupted"] is True
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # the handler is put back


def test_report_without_results_is_an_error(tmp_path, capsys):
    assert cli.main(["--report", str(tmp_path / "out.md"), "--output", str(tmp_path / "nothing")]) == cli.EXIT_FAILED
    assert "cannot report" in capsys.readouterr().err
    assert not (tmp_path / "out.md").exists()


def test_a_wrong_verdict_fails_the_whole_run_loudly(tmp_path, monkeypatch, capsys):
    liar = shell_program(tmp_path, "liar", "exit 10")  # "Black wins", whatever the formula
    monkeypatch.setattr(solvers, "solver_path", lambda name: liar)
    argv = ["--sets", "suite", "--filter", "suite/httt/el_3x3_d3", "--config", "paper-baseline", "--output", str(tmp_path / "out"), "--no-plots"]
    assert cli.main(argv) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert f"WRONG VERDICT: suite/httt/el_3x3_d3 [{PAPER_BASELINE.name}]" in err
    assert "the run FAILED" in err
    (row,) = records.load(tmp_path / "out" / cli.RESULTS_CSV)  # the evidence is kept
    assert row.check == "WRONG"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--sets", "nosuch"], "unknown instance set"),
        (["--config", "paper/qcir/depqbf"], "does not read QCIR"),
        (["--time-limit", "0"], "positive"),
        (["--output", "a", "--output", "b"], "give --output once"),
    ],
)
def test_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv + ["--list"])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_list_runs_nothing(tmp_path, capsys):
    assert cli.main(["--list", "--output", str(tmp_path / "out")]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert "suite/httt/el_3x3_d3\tfalse" in out and f"config {DEFAULT.name}" in out
    assert not (tmp_path / "out").exists()


def test_a_report_quotes_the_command_without_the_results_folder():
    """The folder is a path of the measuring machine; the reader sees FOLDER."""
    assert cli.command_as_run(["--sets", "corpus", "--output", "/work/meas/x"]) == "python -m bench --sets corpus --output FOLDER"
    assert cli.command_as_run(["--output=/tmp/y", "--repeat", "3"]) == "python -m bench --output=FOLDER --repeat 3"
