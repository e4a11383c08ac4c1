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

A local cluster's workers are forked from bddlc on Linux (a second each
to start and stop otherwise, more than a quick run's work), and each takes
back the signal handlers and the solver watchdog a fresh process would have.
Tasks with an estimated cost start longest first.

A lost worker (killed, out of memory) costs only its task: Dask re-runs
the task on another worker, up to `ALLOWED_FAILURES` times, and after that
the outcome is reported as `lost`, never as a verdict.  Solver children
inside a worker die with it (`compiler.solving.processes.processes`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

INSTALL_HINT = "pip install 'bddlc[cluster]' (Dask's distributed)"
ALLOWED_FAILURES = 2  # re-runs of a task whose worker died, before it counts as lost
# How a local cluster's nannies start their worker processes.  Forking (Linux)
# starts two workers in 0.3 s and closes them in 0.02 s, against 1.9 s and
# 0.5 s for Dask's default, spawn, which starts a fresh interpreter that
# imports Dask and bddlc again (measured on the 2-core machine, load 2.4).
# The forked worker resets what it inherited from bddlc (`_after_fork_in_worker`).
LOCAL_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"


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
    """The worker running the calling task (a plain process when not on Dask).  A Dask worker has
    imported `distributed` before it runs a task; a plain process has not, and importing it just to
    learn that (0.3-0.7 s) was a sixth of `regress`'s time on the suite."""
    host, tasks = socket.gethostname(), 1
    if "distributed" not in sys.modules:
        return WorkerInfo(f"{host}:{os.getpid()}", host, tasks, cores())
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
                          "distributed.worker.daemon": False,
                          "distributed.worker.multiprocessing-method": LOCAL_START_METHOD}):
        if scheduler is not None:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as exc:
                raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            with client:
                yield client
            return
        _forking_workers(True)
        try:
            cluster = LocalCluster(
                n_workers=workers or cores(),
                threads_per_worker=1,
                processes=True,  # a worker killed (or out of memory) costs only its task: its nanny starts another
                dashboard_address=None,  # nobody looks at it, and starting it costs 0.2 s
                silence_logs=logging.CRITICAL,
            )
            try:
                with Client(cluster) as client:
                    yield client
            finally:
                cluster.close()
        finally:
            _forking_workers(False)


# --- forked local workers ------------------------------------------------------------

_fork_state: dict[str, Any] = {"registered": False, "workers": False, "parent": 0}  # (at-fork hooks take no arguments)


def _forking_workers(on: bool) -> None:
    """While a local cluster runs, a fork of this process is a worker (started, or restarted by its nanny)."""
    if not _fork_state["registered"]:
        os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_worker)
        _fork_state["registered"] = True
    _fork_state["workers"] = on


def _before_fork() -> None:
    """The nanny forks from one of its threads while others may be logging (Dask's own, a
    caller's): a fork in the middle of a handler's write leaves the stream's buffer locked in
    the child, whose first log line then waits for ever (seen: a worker stuck in
    `StreamHandler.flush` under pytest, whose file handler every record reaches).  Holding every
    handler's lock across the fork keeps the streams between writes; logging itself gives the
    child fresh handler locks."""
    _fork_state["parent"] = os.getpid()
    if _fork_state["workers"]:
        held = _logging_handlers()
        for handler in held:
            handler.acquire()
        _fork_state["held"] = held


def _after_fork_in_parent() -> None:
    for handler in reversed(_fork_state.pop("held", [])):
        handler.release()


def _logging_handlers() -> list:
    """Every handler of every logger, each once, in a fixed order."""
    import logging

    loggers = [logging.getLogger()] + [item for item in list(logging.Logger.manager.loggerDict.values())
                                       if isinstance(item, logging.Logger)]
    seen: dict[int, logging.Handler] = {}
    for logger in loggers:
        for handler in list(logger.handlers):
            seen.setdefault(id(handler), handler)
    return list(seen.values())


def _after_fork_in_worker() -> None:
    """In a forked worker: what it inherited from bddlc that a fresh process would not have.

    It dies with bddlc (the parent-death signal), drops bddlc's end of the
    solver watchdog's pipe (it starts its own for its solvers), and takes
    the default handlers back for SIGTERM and SIGHUP (bddlc's turn them into
    an interruption of bddlc's own work)."""
    _fork_state.pop("held", None)  # (logging gave the child fresh handler locks)
    if not _fork_state["workers"]:
        return
    _fork_state["workers"] = False  # a fork inside the worker (Bloqqer's) is not a worker
    from .processes import TERMINATIONS, in_forked_child

    in_forked_child(_fork_state["parent"])
    for number in TERMINATIONS:
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)


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


def stream(client, function: Callable, items: Iterable, cost: Callable[[Any], float | None] | None = None) -> Iterator[Outcome]:
    """Run `function(item)` for every item on the cluster; yield each outcome as it arrives.

    `function` must be importable on the workers (a module-level function).
    `cost(item)` estimates an item's seconds (None: unknown): the longest
    tasks start first, so that the run does not end waiting on one long
    task started last; items of unknown cost keep their order, after those
    of known cost.  Closing the generator early cancels every task not yet finished."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    items = longest_first(list(items), cost)
    futures = {}
    for rank, item in enumerate(items):
        # submitted in that order, and the scheduler told so: a higher priority runs first
        future = client.submit(_call, function, item, pure=False, priority=len(items) - rank)
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


def longest_first(items: list, cost: Callable[[Any], float | None] | None) -> list:
    """The items by decreasing estimated cost; those without an estimate after them, in their order."""
    if cost is None:
        return list(items)
    estimates = [cost(item) for item in items]
    order = sorted(range(len(items)), key=lambda i: (estimates[i] is None, -(estimates[i] or 0.0), i))
    return [items[i] for i in order]


# --- local threads ---------------------------------------------------------------

class Stop:
    """A flag a running task polls to learn that its answer is no longer wanted."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def __call__(self) -> bool:
        return self._event.is_set()


class LocalRunner:
    """Tasks on a pool of `jobs` threads, each given its own `Stop`: `depth --jobs`, `solve --solver auto`.

    Threads suffice because the work happens in solver child processes,
    which a task kills as soon as its `Stop` is set.  `submit(key, fn, *args)`
    runs `fn(*args, stop=...)`; `done()` waits for the next finished task and
    returns (key, value or exception), skipping cancelled ones; `cancel(key)`
    stops a task (one not yet started never starts).  Leaving the `with`
    block stops every task and waits for its thread (its solver is killed)."""

    def __init__(self, jobs: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="bddlc-task")
        self.stops: dict[Any, Stop] = {}
        self.futures: dict[Any, Any] = {}

    def submit(self, key, function: Callable, *args) -> None:
        stop = self.stops[key] = Stop()
        self.futures[self.pool.submit(_unless_stopped, stop, function, *args)] = key

    def cancel(self, key) -> None:
        if key in self.stops:
            self.stops[key].set()

    def done(self) -> tuple[Any, Any] | None:
        """The next task to finish that was not cancelled: (key, its value or exception); None when none is left."""
        while True:
            live = [f for f, key in self.futures.items() if not self.stops[key]()]
            if not live:
                return None
            finished, _ = wait(live, return_when=FIRST_COMPLETED)
            future = min(finished, key=lambda f: str(self.futures[f]))
            key = self.futures.pop(future)
            if self.stops[key]():
                continue
            exception = future.exception()
            return key, exception if exception is not None else future.result()

    def __enter__(self) -> LocalRunner:
        return self

    def __exit__(self, *exc) -> None:
        for stop in self.stops.values():
            stop.set()
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskRunner:
    """`LocalRunner`'s interface on a Dask cluster (`depth --scheduler`).

    A task is stopped through a Dask `Event` that its solve polls (at most
    every quarter second), so a pointless solve on a remote worker is killed
    too, not just forgotten."""

    def __init__(self, client) -> None:
        from distributed import as_completed

        self.client = client
        self.prefix = f"bddlc-stop-{os.getpid()}-{time.monotonic_ns()}"
        self.futures: dict[Any, Any] = {}  # key -> future
        self.keys: dict[str, Any] = {}  # future key -> our key
        self.live: set = set()  # submitted, neither cancelled nor returned by `done`
        self.finished = as_completed([], with_results=False)

    def _event(self, key):
        from distributed import Event

        return Event(f"{self.prefix}-{key}", client=self.client)

    def submit(self, key, function: Callable, *args) -> None:
        future = self.client.submit(_stoppable_on_dask, f"{self.prefix}-{key}", function, *args, pure=False)
        self.futures[key] = future
        self.keys[future.key] = key
        self.live.add(key)
        self.finished.add(future)

    def cancel(self, key) -> None:
        if key in self.live:
            self.live.discard(key)
            self._event(key).set()

    def done(self) -> tuple[Any, Any] | None:
        while self.live:
            future = next(self.finished)
            key = self.keys[future.key]
            if key not in self.live:
                continue
            self.live.discard(key)
            try:
                return key, future.result()
            except Exception as exc:  # the task failed, or its worker kept dying
                return key, exc
        return None

    def __enter__(self) -> DaskRunner:
        return self

    def __exit__(self, *exc) -> None:
        for key in list(self.live):
            self.cancel(key)
        self.client.cancel(list(self.futures.values()), force=True)


def _stoppable_on_dask(event_name: str, function: Callable, *args):
    """Runs on a Dask worker: `function(*args, stop=...)`, stop asking the cluster's Event."""
    from distributed import Event

    event = Event(event_name)
    return function(*args, stop=throttled(event.is_set))


def _unless_stopped(stop: Stop, function: Callable, *args):
    return None if stop() else function(*args, stop=stop)


def throttled(check: Callable[[], bool], every: float = 0.25) -> Callable[[], bool]:
    """`check` asked at most every `every` seconds (a Dask Event costs a round trip); True stays True."""
    answered = False
    next_time = 0.0

    def ask() -> bool:
        nonlocal answered, next_time
        now = time.monotonic()
        if not answered and now >= next_time:
            answered = bool(check())
            next_time = now + every
        return answered

    return ask
