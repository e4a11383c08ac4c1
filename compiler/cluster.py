"""Running many independent solves at once: on a Dask cluster, or on local threads.

The benchmark harness, `bddlc regress` and `bddlc depth --scheduler` hand
this module a function and a list of items; it runs one task per item and
yields each outcome as soon as it arrives, with the worker that ran it.
We do not build a task system: Dask's `distributed` scheduler runs locally
with no set-up (a `LocalCluster` of worker processes) and the same code runs
on any Dask cluster, or on a batch system through `dask-jobqueue`
(docs/scaling.md).  `distributed` is the optional extra `bddlc[cluster]`;
without it, only the local thread pool (`depth --jobs`, `solve --solver
auto`) is available.

Workers are single-threaded: a task is a solve, whose time is only
meaningful when no other solver shares its core, so each worker runs one
task at a time and `machine_load` tells when a machine has more workers
than cores.

A lost worker (killed, out of memory) costs only its task: Dask re-runs
the task on another worker, up to `ALLOWED_FAILURES` times, and after that
the outcome is reported as `lost`, never as a verdict.  Solver children
inside a worker die with it (`compiler.processes`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

INSTALL_HINT = "pip install 'bddlc[cluster]' (Dask's distributed)"
ALLOWED_FAILURES = 2  # re-runs of a task whose worker died, before it counts as lost


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached."""


def unavailable() -> str | None:
    """Why Dask cannot be used here (None: it can)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return f"Dask is not installed: {INSTALL_HINT}"
    return None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class WorkerInfo:
    """Where a task ran: `name` is host:pid; `tasks_at_once` the tasks its worker runs side by side."""

    name: str
    host: str
    tasks_at_once: int
    cores: int


@dataclass(frozen=True)
class Outcome:
    """One task's result: `value`, or `error` (the task failed) or `lost` (its worker kept dying)."""

    item: Any
    value: Any = None
    error: str | None = None
    lost: bool = False
    worker: WorkerInfo | None = None


@dataclass(frozen=True)
class HostLoad:
    host: str
    cores: int
    workers: int
    tasks_at_once: int  # the tasks the host's workers run side by side, all together

    @property
    def oversubscribed(self) -> bool:
        return self.tasks_at_once > self.cores


def this_worker() -> WorkerInfo:
    """The worker running the calling task (a plain process when not on Dask)."""
    host, tasks = socket.gethostname(), 1
    try:
        from distributed import get_worker

        worker = get_worker()
        host, tasks = worker.ip, worker.state.nthreads  # the host as the scheduler names it (`machine_load`)
    except (ImportError, ValueError, AttributeError):
        pass
    return WorkerInfo(f"{host}:{os.getpid()}", host, tasks, cores())


def _call(function: Callable, item) -> tuple[Any, WorkerInfo]:
    return function(item), this_worker()


@contextlib.contextmanager
def connect(workers: int | None = None, scheduler: str | None = None):
    """A Dask client: connected to `scheduler` (an address), or on a new local
    cluster of `workers` single-threaded worker processes (default one per core).
    The local cluster and its workers end with the block."""
    reason = unavailable()
    if reason:
        raise ClusterUnavailable(reason)
    import logging

    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                          "distributed.worker.daemon": False}):
        if scheduler is not None:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as exc:
                raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            with client:
                yield client
            return
        cluster = LocalCluster(
            n_workers=workers or cores(),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        )
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()


def machine_load(client) -> list[HostLoad]:
    """Each host of the cluster: its cores (as its workers see them) and the tasks its workers run at once."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    reported = client.run(cores)  # worker address -> cores
    hosts: dict[str, list[int]] = {}  # host -> [cores, workers, tasks at once]
    for address, info in workers.items():
        load = hosts.setdefault(info.get("host", address), [0, 0, 0])
        load[0] = max(load[0], reported.get(address, 1))
        load[1] += 1
        load[2] += info.get("nthreads", 1)
    return [HostLoad(host, *load) for host, load in sorted(hosts.items())]


def stream(client, function: Callable, items: Iterable) -> Iterator[Outcome]:
    """Run `function(item)` for every item on the cluster; yield each outcome as it arrives.

    `function` must be importable on the workers (a module-level function).
    Closing the generator early cancels every task not yet finished."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    items = list(items)
    futures = {}
    for item in items:
        future = client.submit(_call, function, item, pure=False)
        futures[future.key] = (future, item)
    pending = as_completed([f for f, _ in futures.values()])
    try:
        for future in pending:
            _, item = futures[future.key]
            if future.status == "finished":
                value, worker = future.result()
                yield Outcome(item, value, worker=worker)
                continue
            try:
                exception = future.exception()
            except Exception as exc:  # cancelled
                exception = exc
            if isinstance(exception, KilledWorker):
                yield Outcome(item, lost=True, error=f"its worker died {ALLOWED_FAILURES + 1} times running it")
            else:
                yield Outcome(item, error=f"{type(exception).__name__}: {exception}")
    finally:
        client.cancel([f for f, _ in futures.values() if not f.done()], force=True)


# --- local threads ---------------------------------------------------------------

class Stop:
    """A flag a running task polls to learn that its answer is no longer wanted."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def __call__(self) -> bool:
        return self._event.is_set()


def race_threads(tasks: Iterable[tuple[Any, Callable[[Stop], Any]]], jobs: int) -> "Race":
    """Run `task(stop)` for each (key, task) on `jobs` threads; see `Race`."""
    return Race(list(tasks), jobs)


class Race:
    """Tasks on a pool of threads, each given its own `Stop`.

    Suited to solves: the work happens in solver child processes, which a
    task kills as soon as its `Stop` is set.  Iterate to get (key, value or
    exception) as tasks finish; `cancel(key)` stops a task (a task not yet
    started never starts); leaving the `with` block stops all that remain."""

    def __init__(self, tasks: list[tuple[Any, Callable[[Stop], Any]]], jobs: int) -> None:
        self.stops = {key: Stop() for key, _ in tasks}
        self.tasks = tasks
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="bddlc-race")
        self.futures = {}
        for key, task in tasks:
            self.futures[self.pool.submit(self._guarded, key, task)] = key

    def _guarded(self, key, task):
        if self.stops[key]():
            return _CANCELLED
        return task(self.stops[key])

    def cancel(self, key) -> None:
        self.stops[key].set()

    def cancelled(self, key) -> bool:
        return self.stops[key]()

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        remaining = set(self.futures)
        while remaining:
            done, remaining = wait(remaining, return_when=FIRST_COMPLETED, timeout=0.5)
            for future in sorted(done, key=lambda f: str(self.futures[f])):
                key = self.futures[future]
                exception = future.exception()
                value = exception if exception is not None else future.result()
                if value is _CANCELLED:
                    continue
                yield key, value

    def __enter__(self) -> "Race":
        return self

    def __exit__(self, *exc) -> None:
        for stop in self.stops.values():
            stop.set()
        self.pool.shutdown(wait=True, cancel_futures=True)


_CANCELLED = object()


def throttled(check: Callable[[], bool], every: float = 0.25) -> Callable[[], bool]:
    """`check` asked at most every `every` seconds (a Dask Event costs a round trip); True stays True."""
    state = {"next": 0.0, "value": False}

    def ask() -> bool:
        now = time.monotonic()
        if not state["value"] and now >= state["next"]:
            state["value"] = bool(check())
            state["next"] = now + every
        return state["value"]

    return ask
