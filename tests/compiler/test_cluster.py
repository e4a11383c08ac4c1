"""compiler.solving.cluster on a real local Dask cluster: `depth --scheduler` finds the sequential
search's answer, and a stopped task's solve is killed on its worker rather than left to run."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("distributed")

from distributed import LocalCluster
from helpers.suite import DOMAINS, PROBLEMS

from compiler.cli import main
from compiler.solving.cluster import DaskRunner, connect, machine_load

DOMINEERING = [str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering/4x4_d8.bddl")]


@pytest.fixture(scope="module")
def scheduler():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_depth_on_a_dask_scheduler_finds_the_sequential_answer(scheduler, capsys):
    assert main(["depth", *DOMINEERING, "--json"]) == 10
    sequential = json.loads(capsys.readouterr().out)
    assert main(["depth", *DOMINEERING, "--json", "--scheduler", scheduler]) == 10
    on_dask = json.loads(capsys.readouterr().out)
    for key in ("critical_depth", "first_win", "refuted_before", "monotonicity"):
        assert on_dask[key] == sequential[key]


def wait_for_stop(seconds: float, stop=None) -> str:
    """A task that runs `seconds` unless stopped."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if stop():
            return "stopped"
        time.sleep(0.01)
    return "ran out"


def test_a_cancelled_dask_task_is_stopped_on_its_worker(scheduler):
    with connect(scheduler=scheduler) as client:
        assert [load.tasks_at_once for load in machine_load(client)] == [2]
        with DaskRunner(client) as runner:
            runner.submit("long", wait_for_stop, 60.0)
            runner.submit("short", wait_for_stop, 0.2)
            assert runner.done() == ("short", "ran out")
            future = runner.futures["long"]
            runner.cancel("long")
            assert runner.done() is None  # nothing left that was not cancelled
            start = time.monotonic()
            assert future.result(timeout=20) == "stopped"  # the task saw the event and returned
            assert time.monotonic() - start < 20
