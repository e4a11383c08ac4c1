"""`python -m bench --workers N | --scheduler ADDRESS`: the same measurements as tasks on Dask.

One task per (instance, configuration) pair (a compile-only instance: per
instance and encoding), each measured by the serial harness's own code on
a single-threaded worker, so a row means the same whichever way it was
made.  Rows stream back as tasks finish, are put in plan order (so the CSV
of a parallel run lines up with a serial run's, row for row) and are handed
to `after_task`, which saves them: an interrupted or killed run keeps every
finished task, and a re-run skips them.  A task whose worker kept dying is
recorded as `lost` (no verdict), and tried again by the next run.
"""

from __future__ import annotations

import dataclasses
import io
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from compiler.solving.processes import cluster

from .configs import Configuration
from .instances import Instance
from .measure import compile_process
from .progress import Progress
from .records import ERROR, LOST, Row
from .runner import Plan, RunOptions, _row, _run_encoding, _warm_up, row_key, task_key


@dataclass(frozen=True)
class Task:
    index: int  # the place of its rows in a serial run's order
    instance: Instance
    configs: tuple[Configuration, ...]  # one for a solved instance; an encoding's configurations for a compile-only one
    options: RunOptions

    @property
    def encoding(self) -> str:
        return self.configs[0].encoding

    @property
    def label(self) -> str:
        return f"{self.instance.id} {self.configs[0] if self.instance.solve else self.encoding}"


def tasks(instances: list[Instance], configs: list[Configuration], options: RunOptions, done: frozenset = frozenset()) -> list[Task]:
    """The tasks of a run, in the serial harness's order, less those in `done`."""
    plan = Plan(tuple(configs))
    found = []
    for instance in instances:
        for encoding in plan.encodings:
            chosen = [c for c in configs if c.encoding == encoding]
            groups = [(c,) for c in chosen] if instance.solve else [tuple(chosen)]
            # the serial harness orders an encoding's rows by CNF variant, then configuration
            groups.sort(key=lambda g: plan.variants(encoding).index(g[0].tseitin))
            for group in groups:
                if task_key(instance, group[0]) not in done:
                    found.append(Task(len(found), instance, group, options))
    return found


_warmed = False


def measure(task: Task) -> list[Row]:
    """Runs on a worker: the task's rows, measured exactly as the serial harness measures them."""
    global _warmed
    if not _warmed:
        _warm_up(task.instance, task.encoding)
        _warmed = True
    quiet = Progress(1, stream=io.StringIO())
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        return _run_encoding(task.instance, task.encoding, Plan(task.configs), task.options, quiet, Path(folder), compile_process)


def unmeasured_rows(task: Task, status: str, reason: str) -> list[Row]:
    """Rows that say a task was not measured (`lost`, or `error` when the task itself failed): no verdict."""
    return [_row(task.instance, c.encoding, c.tseitin, c if task.instance.solve else None, None, None, None, status, None, None, reason) for c in task.configs]


def estimates(rows: list[Row]) -> dict[tuple[str, str], float]:
    """The seconds each task took in an earlier run (its compiles, once, and its solves), by `task_key`.

    Only the order in which tasks start comes from it (the longest first),
    so any earlier run into the same folder will do, whatever its settings."""
    compiles: dict[tuple[str, str], float] = {}
    solves: dict[tuple[str, str], float] = {}
    for row in rows:
        if row.status == LOST:
            continue
        key = row_key(row)
        compiles[key] = max(compiles.get(key, 0.0), (row.compile_process_s or 0.0) + (row.compile_inprocess_s or 0.0))
        solves[key] = solves.get(key, 0.0) + (row.solve_s or 0.0)
    return {key: compiles[key] + solves[key] for key in compiles}


def run(
    client,
    pending: list[Task],
    progress: Progress,
    loads: dict[str, int],
    rows: list[Row],
    after_task: Callable[[list[Row]], None] | None = None,
    seconds: dict[tuple[str, str], float] | None = None,
) -> list[Row]:
    """Run `pending` on the Dask `client`; rows are added to `rows` in task order as tasks finish.

    `loads` maps a host to the solve tasks it runs side by side (`tasks_at_once` of its rows).
    `seconds` (`estimates` of an earlier run) starts the longest tasks first; tasks it does not
    know keep the plan's order, after them."""
    finished: dict[int, list[Row]] = {}
    earlier = list(rows)

    def cost(task: Task) -> float | None:
        return None if seconds is None else seconds.get(task_key(task.instance, task.configs[0]))

    for outcome in cluster.stream(client, measure, pending, cost):
        task: Task = outcome.item
        if outcome.value is not None:
            worker = outcome.worker
            made = [dataclasses.replace(r, worker=worker.name, tasks_at_once=loads.get(worker.host, worker.tasks_at_once)) for r in outcome.value]
            shown = ", ".join(r.status if r.verdict is None else f"{r.verdict} in {r.solve_s:.2f} s" for r in made if r.solver) or "compiled"
            progress.step(f"{task.label}: {shown} [{worker.name}]")
        else:
            kind = "LOST" if outcome.lost else "FAILED"
            progress.message(f"{kind}: {task.label}: {outcome.error}")
            progress.step(f"{task.label}: {kind.lower()}")
            made = unmeasured_rows(task, LOST if outcome.lost else ERROR, outcome.error or "lost")
        for row in made:
            if row.check == "WRONG":
                progress.message(f"WRONG VERDICT: {row.instance} [{row.config}]: said {row.verdict}, expected {row.expected}")
        finished[task.index] = made
        rows[:] = earlier + [row for index in sorted(finished) for row in finished[index]]
        if after_task is not None:
            after_task(rows)
    progress.close()
    return rows
