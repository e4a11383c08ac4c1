"""The harness on Dask: a local cluster of two workers gives the serial run's verdicts row for row,
a worker killed mid-task costs only that task (re-run elsewhere, or recorded as lost), and a
re-run into the same folder resumes instead of measuring again."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from conftest import shell_program
from distributed import WorkerPlugin

from bench import cli, parallel, records
from bench.configs import parse_all
from bench.instances import suite_instances
from bench.progress import Progress
from bench.runner import RunOptions
from compiler.solving.processes import cluster

SMALL = ["--sets", "suite", "--filter", "suite/httt/domino_3x3_d3", "--filter", "suite/domineering/2x3_d4",
         "--filter", "suite/httt/el_3x3_d3", "--config", "default", "--config", "paper-baseline", "--no-plots"]


def same_measurements(rows):
    return [(r.instance, r.config, r.status, r.verdict, r.check) for r in rows]


def test_two_workers_give_the_serial_verdicts_row_for_row(tmp_path):
    assert cli.main(SMALL + ["--output", str(tmp_path / "serial")]) == cli.EXIT_OK
    assert cli.main(SMALL + ["--output", str(tmp_path / "parallel"), "--workers", "2"]) == cli.EXIT_OK
    serial = records.load(tmp_path / "serial" / cli.RESULTS_CSV)
    both = records.load(tmp_path / "parallel" / cli.RESULTS_CSV)
    assert len(serial) == 6 and same_measurements(both) == same_measurements(serial)
    assert all(r.status == records.SOLVED for r in both)
    # honest timing: who measured each row, and how many tasks its machine ran at once
    assert len({r.worker for r in both}) == 2 and {r.tasks_at_once for r in both} == {2}
    assert {r.tasks_at_once for r in serial} == {1} and len({r.worker for r in serial}) == 1


def test_a_rerun_resumes(tmp_path, capsys):
    output = tmp_path / "out"
    first = SMALL[:4] + SMALL[-5:] + ["--output", str(output)]  # domino only
    assert cli.main(first) == cli.EXIT_OK
    before = records.load(output / cli.RESULTS_CSV)
    assert {r.instance for r in before} == {"suite/httt/domino_3x3_d3"}
    capsys.readouterr()
    assert cli.main(SMALL + ["--output", str(output), "--workers", "2"]) == cli.EXIT_OK
    assert "resuming: 2 rows" in capsys.readouterr().err
    after = records.load(output / cli.RESULTS_CSV)
    assert len(after) == 6
    kept = [r for r in after if r.instance == "suite/httt/domino_3x3_d3"]
    assert kept == before  # not measured again: the very same rows, worker and times included
    assert all(r.worker not in {b.worker for b in before} for r in after if r not in kept)
    # --fresh measures everything again
    assert cli.main(SMALL + ["--output", str(output), "--fresh"]) == cli.EXIT_OK
    assert "resuming" not in capsys.readouterr().err
    assert len(records.load(output / cli.RESULTS_CSV)) == 6


def test_an_earlier_runs_times_start_the_longest_tasks_first_and_rows_stay_in_plan_order(tmp_path, monkeypatch):
    output = tmp_path / "out"
    assert cli.main(SMALL + ["--output", str(output)]) == cli.EXIT_OK
    serial = records.load(output / cli.RESULTS_CSV)
    # make the plan's last task the longest of the earlier run
    slowest = serial[-1]
    records.save([dataclasses.replace(r, solve_s=100.0) if r is slowest else r for r in serial], output / cli.RESULTS_CSV)
    seconds = parallel.estimates(records.load(output / cli.RESULTS_CSV))
    assert len(seconds) == 6 and seconds[(slowest.instance, slowest.config)] > 100.0
    started = []
    choose = cluster.longest_first
    monkeypatch.setattr(cluster, "longest_first", lambda items, cost: started.extend(choose(items, cost)) or started)
    assert cli.main(SMALL + ["--output", str(output), "--fresh", "--workers", "2"]) == cli.EXIT_OK
    assert [task.label for task in started][0] == f"{slowest.instance} {slowest.config}"
    assert same_measurements(records.load(output / cli.RESULTS_CSV)) == same_measurements(serial)


def test_more_workers_than_cores_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(SMALL + ["--output", str(tmp_path), "--workers", str(cluster.cores() + 1)])
    assert exc.value.code == 2
    assert "--oversubscribe" in capsys.readouterr().err


class StandInSolver(WorkerPlugin):
    """A Dask worker plugin: every solver is `program` on this worker (and on workers started later)."""

    def __init__(self, program: str) -> None:
        self.program = program

    def setup(self, worker) -> None:
        from compiler.solving.qbf import solver_programs as solvers

        solvers.solver_path = lambda name, program=self.program: Path(program)


def run_in_background(client, tasks, rows):
    def target():
        parallel.run(client, tasks, Progress(len(tasks), stream=open(os.devnull, "w")), {}, rows)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def wait_for(condition, what, deadline=60.0):
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def one_task(config: str = "explicit/pg-early/depqbf"):
    instances = suite_instances(only=("httt/domino_3x3_d3.bddl",))  # Black wins
    return parallel.tasks(instances, parse_all([config]), RunOptions(120.0))


def test_a_worker_killed_mid_task_costs_only_that_task(tmp_path):
    """The first attempt's solver writes its worker's pid and hangs; the test kills that worker.
    Dask runs the task again on a worker that is alive, where the solver answers."""
    marker = tmp_path / "first-attempt"
    hung = tmp_path / "hung-solver"
    program = shell_program(tmp_path, "solver", f'if [ ! -e {marker} ]; then echo $PPID > {marker}.tmp; mv {marker}.tmp {marker}; '
                            f'sleep 600 & echo $! > {hung}; wait; fi\nexit 10')
    with cluster.connect(workers=2) as client:
        client.register_plugin(StandInSolver(str(program)))
        rows: list = []
        thread = run_in_background(client, one_task(), rows)
        wait_for(lambda: marker.exists() and hung.exists(), "the first attempt's solver")
        os.kill(int(marker.read_text()), signal.SIGKILL)
        thread.join(90)
        assert not thread.is_alive(), "the run hung after a worker died"
    assert [(r.status, r.verdict, r.check) for r in rows] == [(records.SOLVED, True, records.CORRECT)]
    wait_for(lambda: not _alive(int(hung.read_text())), "the dead worker's solver to end", 20)


@pytest.mark.slow  # three worker deaths and restarts: 20 s
def test_a_task_that_keeps_killing_its_worker_is_recorded_as_lost(tmp_path):
    program = shell_program(tmp_path, "solver", "kill -9 $PPID\nsleep 600")
    with cluster.connect(workers=2) as client:
        client.register_plugin(StandInSolver(str(program)))
        rows: list = []
        thread = run_in_background(client, one_task(), rows)
        thread.join(180)
        assert not thread.is_alive(), "the run hung on a task that kills its workers"
    assert [(r.status, r.verdict, r.check) for r in rows] == [(records.LOST, None, "")]
    assert "died" in rows[0].note


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.slow  # a cluster of its own for one timeout: the serial tests cover the limit itself
def test_a_solver_is_killed_at_its_limit_inside_a_worker(tmp_path):
    hung = tmp_path / "hung-solver"
    program = shell_program(tmp_path, "solver", f"sleep 600 & echo $! > {hung}\nwait\nexit 10")
    instances = suite_instances(only=("httt/domino_3x3_d3.bddl",))
    pending = parallel.tasks(instances, parse_all(["explicit/pg-early/depqbf"]), RunOptions(1.0))
    with cluster.connect(workers=2) as client:
        client.register_plugin(StandInSolver(str(program)))
        rows: list = []
        thread = run_in_background(client, pending, rows)
        thread.join(60)
        assert not thread.is_alive()
    assert [(r.status, r.verdict) for r in rows] == [(records.TIMEOUT, None)]
    assert 1.0 <= rows[0].solve_s < 30
    wait_for(lambda: not _alive(int(hung.read_text())), "the solver to be killed at its limit", 20)
