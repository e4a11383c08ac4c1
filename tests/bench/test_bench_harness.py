"""The benchmark harness's own logic: configurations, solver-result classification, time limits,
verdict checking, preprocessing as a step, CSV and markdown writing.  No timing assertions: a
time limit being honoured is checked with a wide margin, never a speed."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

from bench import configs, measure, preprocessing, records, report, runner, verdicts
from bench.configs import DEFAULT, PAPER_BASELINE, Configuration, ConfigurationError, parse_all, parse_configurations, resolve_default
from bench.instances import QUICK_SCALING, QUICK_SUITE, Instance, ScalingPlan, five_in_a_row_problem, instances_for, scaling_instances
from bench.measure import ProcessCompile
from compiler.solving.qbf.preprocessing import check_prefix
from bench.plots import scaling_series, solved_times
from bench.progress import Progress
from bench.records import COMPILE_ERROR, COMPILED, CORRECT, ERROR, SOLVED, TIMEOUT, UNAVAILABLE, UNCHECKED, WRONG, Row
from circuits import Qdimacs
from compiler.solving.qbf import solver_programs as solvers
from compiler.encodings import SOLVE_ENCODING, SOLVE_TSEITIN
from conftest import ROOT, shell_program

EL_3X3_D3 = ROOT / "problems" / "httt" / "el_3x3_d3.bddl"  # Black does not win
DOMINO_3X3_D3 = ROOT / "problems" / "httt" / "domino_3x3_d3.bddl"  # Black wins
POSITIONAL = ROOT / "domains" / "positional.bddl"


# --- layering ---------------------------------------------------------------


def test_no_lower_package_imports_bench():
    for package in ("bddl", "circuits", "compiler"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                assert not any(n == "bench" or n.startswith("bench.") for n in names), f"{path} imports bench"


# --- configurations ---------------------------------------------------------


def test_default_configuration_is_what_bddlc_solve_uses():
    (default,) = parse_configurations("default")
    assert default.encoding == SOLVE_ENCODING
    assert default.solver == solvers.DEFAULT_SOLVER and default.preprocess == "none"
    assert default.tseitin == "auto"
    # resolved per encoding as bddlc solve does: a QCIR reader gets the circuit itself
    for encoding in ("explicit", "corrective"):
        resolved = resolve_default(encoding)
        assert resolved.solver == solvers.default_solver(encoding)
        if solvers.FORMATS[resolved.solver] == "qcir":
            assert resolved.is_qcir
        else:
            assert resolved.polarity == bool(SOLVE_TSEITIN["polarity"])
            assert resolved.placement == SOLVE_TSEITIN["placement"]


def test_the_default_solver_is_not_mixed_with_other_inputs():
    with pytest.raises(ConfigurationError):
        parse_configurations("explicit/qcir/default")
    with pytest.raises(ConfigurationError):
        parse_configurations("explicit/auto/depqbf")


def test_configuration_names_round_trip():
    for config in parse_configurations("*/*/depqbf,caqe/*"):
        assert parse_configurations(config.name) == [config]


def test_cross_products_leave_out_impossible_combinations():
    found = parse_configurations("paper/*/*")
    assert Configuration("paper", "qcir", "qute") in found
    assert not [c for c in found if c.is_qcir and c.solver != "qute"]
    assert Configuration("paper", "pg-early", "caqe") in found


@pytest.mark.parametrize(
    "spec, message",
    [
        ("paper/qcir/depqbf", "does not read QCIR"),
        ("paper/qcir/qute/bloqqer", "QDIMACS"),
        ("paper/full/depqbf", "unknown Tseitin variant"),
        ("nosuch/full-innermost/depqbf", "unknown encoding"),
        ("paper/full-innermost/minisat", "unknown solver"),
        ("paper/full-innermost", "expected ENCODING/TSEITIN/SOLVER"),
        ("paper//depqbf", "empty Tseitin variant"),
    ],
)
def test_bad_configurations_are_usage_errors(spec, message):
    with pytest.raises(ConfigurationError, match=message):
        parse_configurations(spec)


def test_parse_all_keeps_first_mention_order_without_repeats():
    found = parse_all(["paper-baseline", "default", "paper/full-innermost/depqbf"])
    assert found == [configs.PAPER_BASELINE, configs.DEFAULT]


# --- solver results, time limits (through fake solver programs) ---------------


@pytest.fixture
def fake_solver(tmp_path, monkeypatch):
    """Make every solver name run a shell script with the given body."""

    def install(body: str) -> None:
        program = shell_program(tmp_path, f"solver{len(list(tmp_path.glob('solver*')))}", body)
        monkeypatch.setattr(solvers, "solver_path", lambda name: program)

    return install


def _formula_file(tmp_path: Path) -> tuple[Qdimacs, Path]:
    formula = Qdimacs(1, (("exists", (1,)),), ((1,),))
    path = tmp_path / "f.qdimacs"
    path.write_text("p cnf 1 1\ne 1 0\n1 0\n")
    return formula, path


DEPQBF = Configuration("paper", "full-innermost", "depqbf")


@pytest.mark.parametrize(
    "body, status, verdict",
    [
        ("echo 's cnf 1 1 1'; exit 10", SOLVED, True),
        ("echo 's cnf 0 1 1'; exit 20", SOLVED, False),
        ("echo UNKNOWN; exit 0", ERROR, None),  # DepQBF's own limit: no verdict, whatever it printed
        ("echo 'Segmentation fault'; exit 139", ERROR, None),
        ("kill -9 $$", ERROR, None),
    ],
)
def test_only_exit_codes_10_and_20_are_verdicts(tmp_path, fake_solver, body, status, verdict):
    fake_solver(body)
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(DEPQBF, formula, path, limit=30.0)
    assert (solved.status, solved.verdict) == (status, verdict)


def test_a_run_killed_at_the_limit_is_a_timeout_never_a_verdict(tmp_path, fake_solver):
    # would answer "true" after 30 s; the limit is 0.5 s
    fake_solver("sleep 30\nexit 10")
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(DEPQBF, formula, path, limit=0.5)
    assert solved.status == TIMEOUT and solved.verdict is None
    assert solved.seconds < 20  # killed, not waited for (a generous margin, not a speed claim)
    assert verdicts.check(True, solved.status, solved.verdict) == ""


def test_check_classifies_verdicts():
    assert verdicts.check(True, SOLVED, True) == CORRECT
    assert verdicts.check(False, SOLVED, True) == WRONG
    assert verdicts.check(None, SOLVED, False) == UNCHECKED
    for status in (TIMEOUT, ERROR, UNAVAILABLE, COMPILE_ERROR):
        assert verdicts.check(True, status, True) == ""  # a stray value is never an answer


# --- preprocessing as a step --------------------------------------------------


class _Fake:
    name = "fake"

    def __init__(self, result):
        self.result = result

    def unavailable(self):
        return None

    def __call__(self, formula, timeout):
        return self.result


@pytest.fixture
def fake_preprocessor(monkeypatch):
    def install(result):
        monkeypatch.setitem(preprocessing.PREPROCESSORS, "bloqqer", _Fake(result))

    return install


BLOQQER = Configuration("paper", "full-innermost", "depqbf", "bloqqer")


def test_bloqqer_is_unavailable_until_its_module_exists(tmp_path, monkeypatch):
    monkeypatch.setattr(preprocessing.Bloqqer, "module_name", "compiler.no_such_preprocess_module")
    reason = preprocessing.Bloqqer().unavailable()
    assert reason and reason.startswith("not available")
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(BLOQQER, formula, path, limit=5.0)
    assert solved.status == UNAVAILABLE and solved.verdict is None and "not available" in solved.note


def test_a_preprocessor_verdict_counts(tmp_path, fake_preprocessor):
    fake_preprocessor(preprocessing.Preprocessed(False, None, 0.01, "decided"))
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(BLOQQER, formula, path, limit=5.0)
    assert (solved.status, solved.verdict) == (SOLVED, False)


def test_a_preprocessed_formula_with_unquantified_variables_is_an_error(tmp_path, fake_preprocessor, fake_solver):
    fake_solver("exit 10")
    broken = Qdimacs(3, (("exists", (1,)),), ((1, 2), (-3,)))  # 2 and 3 are in no quantifier line
    assert check_prefix(broken) == [2, 3]
    fake_preprocessor(preprocessing.Preprocessed(None, broken, 0.01))
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(BLOQQER, formula, path, limit=5.0)
    assert solved.status == ERROR and solved.verdict is None and "unquantified" in solved.note


@pytest.mark.parametrize(
    "status, verdict, solver_sees_clause, expected",
    [
        ("decided", True, None, True),  # Bloqqer's own verdict
        ("repaired", None, True, False),  # the checked formula goes to the solver
        ("fallback", None, False, True),  # an untrusted result: the original goes to the solver
    ],
)
def test_bloqqer_results_are_read_as_bddlc_solve_reads_them(tmp_path, monkeypatch, fake_solver, status, verdict, solver_sees_clause, expected):
    import compiler.solving.qbf.preprocessing

    fake_solver('for f; do :; done; grep -q "^-1 0" "$f" && exit 20; exit 10')
    preprocessed = Qdimacs(1, (("exists", (1,)),), ((-1,),)) if solver_sees_clause else None
    monkeypatch.setattr(
        compiler.solving.qbf.preprocessing, "bloqqer", lambda formula, timeout: compiler.solving.qbf.preprocessing.Preprocessed(status, verdict, preprocessed, 0.01, status)
    )
    formula, path = _formula_file(tmp_path)
    solved = measure.solve(BLOQQER, formula, path, limit=5.0)
    assert (solved.status, solved.verdict, solved.note) == (SOLVED, expected, status)


def test_a_preprocessed_formula_goes_to_the_solver(tmp_path, fake_preprocessor, fake_solver):
    # the fake solver reads the file it is given (its last argument): false iff it holds
    # the preprocessed clause "-1", true on the original
    fake_solver('for f; do :; done; grep -q "^-1 0" "$f" && exit 20; exit 10')
    formula, path = _formula_file(tmp_path)
    fake_preprocessor(preprocessing.Preprocessed(None, Qdimacs(1, (("exists", (1,)),), ((-1,),)), 0.01))
    solved = measure.solve(BLOQQER, formula, path, limit=5.0)
    assert (solved.status, solved.verdict) == (SOLVED, False)


# --- the run loop and the failures it must report ----------------------------


def _fast_compile(domain, problem, encoding, repeat=1):
    return ProcessCompile(0.5, 30.0)


def _instance(problem: Path, expected, solve=True, set_name="suite") -> Instance:
    return Instance(set_name, f"{set_name}/{problem.stem}", POSITIONAL, problem, expected, solve)


def _quiet() -> Progress:
    return Progress(1, io.StringIO())


def test_a_wrong_verdict_fails_the_run_naming_instance_and_configuration(fake_solver):
    fake_solver("exit 10")  # says "Black wins" to everything
    rows = runner.run(
        [_instance(DOMINO_3X3_D3, True), _instance(EL_3X3_D3, False)],
        [DEPQBF],
        runner.RunOptions(5.0),
        _quiet(),
        compile_process_fn=_fast_compile,
    )
    assert [r.check for r in rows] == [CORRECT, WRONG]
    (failure,) = verdicts.failures(rows)
    assert failure.instance == "suite/el_3x3_d3" and failure.config == DEPQBF.name
    assert "WRONG VERDICT" in str(failure)


def test_disagreeing_configurations_fail_the_run_even_without_an_answer(fake_solver, tmp_path):
    fake_solver('case "$*" in *pg-early*) exit 20;; esac; exit 10')
    other = Configuration("paper", "pg-early", "depqbf")
    rows = runner.run([_instance(EL_3X3_D3, None)], [DEPQBF, other], runner.RunOptions(5.0), _quiet(), compile_process_fn=_fast_compile)
    assert {r.check for r in rows} == {UNCHECKED}
    (failure,) = verdicts.failures(rows)
    assert "DISAGREE" in failure.message and DEPQBF.name in failure.message and other.name in failure.message


def test_an_instance_that_does_not_compile_fails_the_run(tmp_path):
    bad = tmp_path / "bad.bddl"
    bad.write_text("#boardsize\n3 3\n#init\n(\n")
    rows = runner.run([_instance(bad, True)], [DEPQBF], runner.RunOptions(5.0), _quiet(), compile_process_fn=_fast_compile)
    assert [r.status for r in rows] == [COMPILE_ERROR]
    (failure,) = verdicts.failures(rows)
    assert "did not compile" in failure.message and "bad.bddl" in failure.message


def test_correct_runs_have_no_failures_and_real_sizes(fake_solver):
    fake_solver("exit 20")
    rows = runner.run([_instance(EL_3X3_D3, False)], [DEPQBF], runner.RunOptions(5.0), _quiet(), compile_process_fn=_fast_compile)
    (row,) = rows
    assert verdicts.failures(rows) == []
    assert (row.width, row.height, row.depth) == (3, 3, 3)
    assert row.qcir_gates > 0 and row.qdimacs_clauses > 0 and row.qdimacs_vars >= row.qcir_vars


def test_compile_only_instances_are_not_solved(tmp_path, fake_solver):
    fake_solver("exit 99")  # would be an error if it ran
    plan = ScalingPlan(sides=(5,), side_depth=3, depths=(3,), depth_side=5)
    assert plan.boards() == [(5, 3)]  # each board once
    (instance,) = scaling_instances(tmp_path, plan)
    assert instance.problem.parent == tmp_path and not instance.solve
    rows = runner.run([instance], [DEPQBF, configs.DEFAULT], runner.RunOptions(5.0), _quiet(), compile_process_fn=_fast_compile)
    assert [r.status for r in rows] == [COMPILED, COMPILED]
    assert all(r.solver == "" and r.verdict is None for r in rows)


def test_the_real_compile_process_is_measured():
    measured = measure.compile_process(POSITIONAL, EL_3X3_D3, "paper")
    assert measured.seconds > 0 and measured.peak_mb > 1


def test_the_compile_process_reports_the_compilers_diagnostic(tmp_path):
    bad = tmp_path / "bad.bddl"
    bad.write_text("#boardsize\n3 3\n#init\n(\n")
    with pytest.raises(measure.CompileFailed, match="bad.bddl"):
        measure.compile_process(POSITIONAL, bad, "paper")


# --- instance sets ------------------------------------------------------------


def test_generated_five_in_a_row_models_compile(tmp_path):
    from bddl.loader import load_model

    path = tmp_path / "g.bddl"
    path.write_text(five_in_a_row_problem(7, 4))
    model = load_model(POSITIONAL, path)
    assert (model.problem.width, model.problem.height, model.problem.depth) == (7, 7, 4)
    assert len(model.problem.black_goals) == 4 and len(model.problem.white_goals) == 4


def test_the_quick_set_is_small_answered_and_has_both_answers(tmp_path):
    found = instances_for(["quick"], tmp_path, QUICK_SCALING)
    solved = [i for i in found if i.solve]
    assert [i.id for i in solved] == [f"suite/{f.removesuffix('.bddl')}" for f in QUICK_SUITE]
    assert {i.expected for i in solved} == {True, False}
    assert len(found) == len(solved) + len(QUICK_SCALING.boards())
    assert all(p.exists() for i in found for p in (i.domain, i.problem))


def test_sets_are_unioned_without_repeats(tmp_path):
    found = instances_for(["quick", "suite"], tmp_path, QUICK_SCALING)
    ids = [i.id for i in found]
    assert len(ids) == len(set(ids))
    assert len([i for i in found if i.set == "suite"]) == len(instances_for(["suite"], tmp_path, QUICK_SCALING))


# --- CSV, markdown, plots' data, progress --------------------------------------


def _row(**changes) -> Row:
    base = dict(
        set="suite", instance="suite/x", width=3, height=3, depth=5, expected=True, encoding="paper",
        tseitin="full-innermost", solver="depqbf", preprocess="none", compile_process_s=0.25,
        compile_peak_mb=31.5, compile_inprocess_s=0.0123, qcir_vars=10, qcir_gates=20, qcir_blocks=3,
        qcir_bytes=400, tseitin_s=0.001, qdimacs_vars=30, qdimacs_clauses=60, qdimacs_bytes=900,
        status=SOLVED, verdict=True, solve_s=1.5, check=CORRECT, note="a, \"quoted\" note",
    )
    base.update(changes)
    return Row(**base)


def test_csv_round_trips_every_kind_of_value():
    rows = [
        _row(),
        _row(instance="suite/y", status=TIMEOUT, verdict=None, solve_s=10.0, check="", note=""),
        _row(instance="scaling/z", set="scaling", solver="", preprocess="", expected=None, status=COMPILED, verdict=None, solve_s=None, check="", tseitin="qcir", qdimacs_vars=None, qdimacs_clauses=None, qdimacs_bytes=None, tseitin_s=None),
    ]
    buffer = io.StringIO()
    records.write_csv(rows, buffer)
    assert records.read_csv(io.StringIO(buffer.getvalue())) == rows
    assert buffer.getvalue().splitlines()[0] == ",".join(records.FIELDS)


def test_csv_reader_rejects_other_files():
    with pytest.raises(ValueError, match="not a bench results CSV"):
        records.read_csv(io.StringIO("a,b\n1,2\n"))
    buffer = io.StringIO()
    records.write_csv([_row()], buffer)
    with pytest.raises(ValueError, match="columns"):
        records.read_csv(io.StringIO(buffer.getvalue() + "1,2\n"))


def test_row_config_names_the_configuration():
    assert _row().config == "paper/full-innermost/depqbf/none"
    assert _row(solver="", preprocess="").config == "paper/full-innermost"


def test_markdown_table_shape():
    text = report.table(["a", "b"], [["1", "x|y"]], "lr")
    assert text.splitlines() == ["| a | b |", "| --- | ---: |", "| 1 | x\\|y |"]


def test_summary_counts_per_configuration():
    rows = [
        _row(),
        _row(instance="suite/w", verdict=False, check=WRONG),
        _row(instance="suite/t", status=TIMEOUT, verdict=None, solve_s=10.0, check=""),
        _row(instance="suite/u", expected=None, check=UNCHECKED),
    ]
    line = report.summary(rows).splitlines()[2]
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[:9] == ["paper/full-innermost/depqbf/none", "suite", "4", "1 / 3", "1", "1", "1", "0", "0"]


def test_document_states_setup_and_failures():
    meta = {"time_limit": 7.5, "profile": "quick", "machine": {"cpu": "TestCPU", "cores": "2"}, "failures": ["suite/w [c]: WRONG VERDICT"]}
    rows = [_row(), _row(instance="suite/w", verdict=False, check=WRONG)]
    text = report.document(rows, meta, ["cactus.png"])
    assert "7.5 s per solve" in text and "TestCPU" in text and "![cactus.png](cactus.png)" in text
    assert "This run FAILED" in text and "**WRONG** false" in text


def test_cactus_counts_only_verdicts_that_are_not_wrong():
    rows = [_row(solve_s=2.0), _row(instance="b", solve_s=1.0), _row(instance="c", check=WRONG), _row(instance="d", status=TIMEOUT, verdict=None, check="")]
    assert solved_times(rows) == {"paper/full-innermost/depqbf/none": [1.0, 2.0]}


def test_scaling_series_picks_the_fuller_sweep():
    rows = [_row(set="scaling", status=COMPILED, solver="", width=n, height=n, depth=d) for n, d in [(3, 9), (5, 9), (7, 9), (7, 1), (7, 3)]]
    rows.append(_row(set="corpus", status=COMPILED, solver="", width=4, height=4, depth=9))  # a compile-only corpus row is no sweep
    fixed, series = scaling_series(rows, "side")
    assert fixed == 9 and [r.width for r in series] == [3, 5, 7]
    fixed, series = scaling_series(rows, "depth")
    assert fixed == 7 and [r.depth for r in series] == [1, 3, 9]


def test_progress_writes_one_line_per_step_off_a_terminal():
    stream = io.StringIO()
    progress = Progress(4, stream)
    progress.step("first")
    progress.message("WRONG VERDICT: x")
    progress.step("second")
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("[") and "1/4" in lines[0] and lines[0].endswith("first")
    assert lines[1] == "WRONG VERDICT: x" and "2/4" in lines[2]


def test_targets_compare_measurements_with_issue_5s_goals():
    """Judged on what users get by default; the paper's baseline is shown only for comparison."""
    solve_default = dict(encoding=DEFAULT.encoding, tseitin=DEFAULT.tseitin, solver=DEFAULT.solver, qdimacs_vars=None, qdimacs_clauses=None, qdimacs_bytes=None)
    rows = [_row(set="corpus", instance=f"corpus/g/{k}", compile_process_s=0.2, **solve_default) for k in range(51)]
    rows.append(_row(set="corpus", instance="corpus/g/0", compile_process_s=0.2))  # paper-baseline: 1 decided
    rows.append(_row(set="corpus", instance="corpus/connect-c/4x4_15_connect4", qcir_gates=900, compile_process_s=0.4, encoding="lifted"))
    rows.append(_row(set="scaling", instance="scaling/big", encoding="lifted", solver="", preprocess="", status=COMPILED, check="",
                     width=19, height=19, depth=101, compile_process_s=0.5, compile_peak_mb=250.0))
    lines = report.targets(rows, 60.0).splitlines()[2:]
    cells = {tuple(c.strip() for c in line.strip("|").split("|")[:2]): [c.strip() for c in line.strip("|").split("|")] for line in lines}
    assert cells[("decided, corpus", DEFAULT.name)][2:] == ["51 of 51", ">= 51 within 60 s", "met"]
    assert cells[("decided, corpus", PAPER_BASELINE.name)][2:] == ["1 of 1", ">= 51 within 60 s", "for comparison (outside the goal)"]
    assert cells[("size, corpus/connect-c/4x4_15_connect4", "lifted")][4] == "met"  # 900 <= 0.7 x 1350
    assert cells[("compile, every corpus instance", "lifted")][2:] == ["worst 0.40 s", "<= 0.3 s", "**not met**"]
    assert cells[("compile, 19x19 depth 101", "lifted")][2:4] == ["0.50 s, 250 MB", "< 1 s, < 200 MB"]
    assert cells[("compile, 19x19 depth 101", "lifted")][4] == "**not met**"  # fast, but over 200 MB
    assert "not judged" in report.targets(rows, 10.0)
