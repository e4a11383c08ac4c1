"""The parallel proof-number search (PPN², `bddlc search --algorithm ppn2`) on Dask.

The race-patterns paper's job-level PN² (its §2.3): this process holds the
proof-number tree (`bddl.engines.pn_tree`) and hands its most-proving free
leaves to the workers as jobs, each a bounded df-pn (`bddl.engines.pn_job`)
with the game's knowledge inside (race patterns, the positional rules),
after a first job on each leaf below the root that runs the single-process
search within a budget (the paper's §2.2 job-level search with a
specialised program at the leaves; `leaf_jobs`, below).
The cluster is `compiler.solving.processes.cluster`'s: a local one of N worker
processes, or any Dask scheduler.

How results travel, and why:

* A job is one Dask task; its final result is the task's value.  Dask makes
  that reliable: when a worker dies, the scheduler runs the task again on
  another worker (up to `cluster.ALLOWED_FAILURES` times), and the leaf
  stays reserved meanwhile; after that (`KilledWorker`) the leaf is released
  and handed out again.  A task that fails, or returns something no search
  returns (`GarbageResult`), stops the search with an error: never a verdict.
* Partial results (the job's root numbers every `every` descents) are
  worker events (`Worker.log_event`, `Client.subscribe_topic`): one message
  on the worker's existing stream to the scheduler, no client in the
  worker, and no task per message.  They are advice: one lost or late only
  delays information, and one that arrives after its job's final result is
  dropped (the tree ignores jobs that are not out).
* Each worker keeps its df-pn table between jobs (per game), so the jobs a
  worker runs share what it solved before; a lost worker loses only that.
  A job says whether it started a table, so that a worker restarted
  mid-search (the one thing that makes a one-worker run's counts differ
  from the next run's) is reported, not silent.
* Leaves get a verdict job first: with `leaf_jobs` "search" (the default)
  every leaf below the root, a search within a budget of positions on an
  engine the worker keeps between such jobs (`search_task`,
  `bddl.engines.leaf_search`); with "qbf" or "mixed" some leaves, the QBF
  route on the leaf's game (`verdict_task`, `leaf_verdicts`).  The task's
  value is (True, False or None, the positions it expanded).

The driver stops when the root is solved, cancels the jobs still out
(the workers finish their bounded job and are free), and reports the
verdict, Black's first move (a successor the tree or the job proved), and
the tree's statistics.  The local cluster and its workers end with the
search on every exit path (`cluster.connect`, `compiler.solving.processes.processes`).
"""

from __future__ import annotations

import collections
import os
import pickle
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bddl.engines.leaf_search import DEFAULT_LEAF_POSITIONS
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.pn_job import (
    DEFAULT_DESCENTS,
    DEFAULT_PARTIAL_EVERY,
    DfpnSetup,
    JobResult,
    Position,
    run_job,
    run_to_end,
)
from bddl.engines.pn_tree import DEFAULT_MAX_NODES, NODE_BYTES, GarbageResult, PnTree, TreeStatistics, TreeTooLarge

from .leaf_verdicts import DEFAULT_LEAF_JOBS, DEFAULT_QBF_SLICE, verdict_leaves
from .table_news import TableNews, check_news, pinned

WORKER_CAPACITY = 500_000  # df-pn table entries each worker keeps between jobs (about 100 MB)
MAX_LOSSES = 3  # a leaf whose jobs lost their workers this often stops the search (it kills workers)
PROGRESS_EVERY = 2.0  # seconds between progress lines
NEWS_MIN_WORK = 1  # table news carry every entry that cost an expansion (a knowledge verdict costs none: asked again)


class JobFailed(RuntimeError):
    """A job raised an error, or its leaf's jobs kept losing their workers."""


__all__ = ["GarbageResult", "JobFailed", "Ppn2Failed", "Ppn2Options", "Ppn2Statistics", "TreeTooLarge", "max_nodes_for", "search_ppn2"]


@dataclass(frozen=True)
class Ppn2Statistics:
    tree: TreeStatistics
    workers: int  # worker threads when the search ended
    seconds: float
    tables: int = 0  # df-pn tables the workers started: more than `workers` means a worker restarted
    news: int = 0  # table entries the jobs passed on to other workers (`table_news`)

    @property
    def restarted(self) -> bool:
        """Did a worker start its df-pn table afresh mid-search?  (Then the counts are not reproducible.)"""
        return self.tables > self.workers


# --- what the workers search ----------------------------------------------------------


def with_capacity(setup: DfpnSetup) -> DfpnSetup:
    from dataclasses import replace

    return replace(setup, capacity=min(setup.capacity, WORKER_CAPACITY))


# the worker's game and df-pn, kept between jobs: (token, setup, engine)
_worker_search: list = []


class Packed:
    """A job's argument pickled once by the server.  Dask walks a task's
    arguments looking for futures to wait on; walking the game model's
    dataclasses and a job's table news on every submit took about a third of
    the server's time (measured with py-spy on Breakthrough 4x5), while a
    `Packed` is one opaque object."""

    __slots__ = ("pickled",)

    def __init__(self, value: Any) -> None:
        self.pickled = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def __getstate__(self) -> bytes:
        return self.pickled

    def __setstate__(self, state: bytes) -> None:
        self.pickled = state

    def unpack(self) -> Any:
        return pickle.loads(self.pickled)


def job_task(
    token: str, recipe: Packed, job: int, position: Position, descents: int, every: int, topic: str, news: Packed | None = None
) -> tuple[JobResult, bool, tuple]:
    """One job, on a worker (module level: Dask workers import it): its result,
    whether it began a fresh df-pn table (a worker's first job, or one
    restarted), and the table news it leaves for the other workers
    (`table_news`; `news` are theirs, learnt before the search; None: the
    search shares no tables, and the job leaves no news)."""
    fresh = not _worker_search or _worker_search[0] != token
    if fresh:
        setup = recipe.unpack().build()
        _worker_search[:] = [token, setup, setup.engine()]
    _, setup, engine = _worker_search
    if news is not None:
        engine.learn(news.unpack())
        engine.keep_journal()
    report = None
    try:
        from distributed import get_worker

        worker = get_worker()

        def report(phi: int, delta: int) -> None:
            worker.log_event(topic, [job, phi, delta])
    except (ImportError, ValueError):  # not on a worker: no partial results
        pass
    result = run_to_end(run_job(setup, position, descents, every, engine), report)
    return result, fresh, () if news is None else engine.news(NEWS_MIN_WORK)


def verdict_task(recipe: Packed, position: Position, seconds: float) -> tuple[bool | None, int]:
    """One verdict job, on a worker: the QBF route on the leaf's game (`leaf_verdicts`); no positions."""
    from .leaf_verdicts import leaf_verdict

    return leaf_verdict(recipe.unpack().game_model(), position, seconds), 0


# the worker's single-process engine for search leaf jobs, kept between jobs: (token, LeafSearch)
_worker_leaf_search: list = []


def search_task(token: str, recipe: Packed, position: Position, budget: int) -> tuple[bool | None, int]:
    """One search leaf job, on a worker (`--leaf-jobs search`, `bddl.engines.leaf_search`): Black
    wins, loses or unknown within `budget` positions, and the positions it expanded."""
    if not _worker_leaf_search or _worker_leaf_search[0] != token:
        _worker_leaf_search[:] = [token, recipe.unpack().leaf_search()]
    return _worker_leaf_search[1].verdict(position, budget)


# --- the server -----------------------------------------------------------------------


def max_nodes_for(megabytes: int) -> int:
    """The tree's node bound under a memory budget."""
    return max(1, min(DEFAULT_MAX_NODES * 100, megabytes * 1_000_000 // NODE_BYTES))


def run_ppn2(
    client,
    recipe,
    root: Position,
    descents: int = DEFAULT_DESCENTS,
    every: int = DEFAULT_PARTIAL_EVERY,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_positions: int | None = None,
    progress: Callable[[str], None] | None = None,
    spread: bool = True,
    leaf_jobs: str = DEFAULT_LEAF_JOBS,
    qbf_slice: float = DEFAULT_QBF_SLICE,
    share_tables: bool = True,
    leaf_positions: int = DEFAULT_LEAF_POSITIONS,
) -> tuple[PnTree, Ppn2Statistics]:
    """Algorithm 1 on the client's cluster: the solved tree and the statistics.

    `share_tables`: each job is pinned to a worker and carries the table news
    of the other workers' jobs (`table_news`).  Raises `SearchBudgetExceeded`
    once the jobs have expanded more than `max_positions` positions,
    `TreeTooLarge`, `GarbageResult` and `JobFailed`."""
    from distributed import wait
    from distributed.scheduler import KilledWorker

    start = time.perf_counter()
    tree = PnTree(root, max_nodes, spread=spread, qbf_at=verdict_leaves(leaf_jobs, root[3]))
    packed = Packed(recipe)
    tables = 0  # df-pn tables the workers started (one per worker, more when one restarted)
    token = f"{os.getpid()}-{time.monotonic_ns()}"
    topic = f"bddlc-ppn2-{token}"
    partials: collections.deque = collections.deque()
    client.subscribe_topic(topic, lambda event: partials.append(event[1]))
    futures: dict[Any, int] = {}  # future -> job
    where: dict[Any, str | None] = {}  # future -> the worker it is pinned to
    busy: collections.Counter = collections.Counter()  # worker -> jobs pinned to it and out
    news = TableNews() if share_tables else None
    losses: dict[Position | None, int] = {}
    workers, slots_read = _workers(client), time.monotonic()
    slots = sum(threads for _, threads in workers)
    last_progress = time.monotonic()
    try:
        while not tree.done:
            if time.monotonic() - slots_read > 1.0:
                workers, slots_read = _workers(client), time.monotonic()
                slots = sum(threads for _, threads in workers)
            while len(futures) < max(slots, 1):
                worker = pinned(workers, busy)
                picked = tree.next_job()
                if picked is None:
                    break
                job, position = picked
                place = {} if worker is None else {"workers": [worker], "allow_other_workers": True}
                if tree.is_verdict_job(job) and leaf_jobs == "search":
                    # (a leaf search never runs past what is left of --max-positions)
                    budget = leaf_positions if max_positions is None else max(1, min(leaf_positions, max_positions - tree.positions + 1))
                    future = client.submit(search_task, token, packed, position, budget, pure=False, **place)
                elif tree.is_verdict_job(job):
                    future = client.submit(verdict_task, packed, position, qbf_slice, pure=False, **place)
                else:
                    sent = None if news is None else Packed(news.for_worker(worker, (w for w, _ in workers)) if worker else ())
                    future = client.submit(job_task, token, packed, job, position, descents, every, topic, sent, pure=False, **place)
                futures[future] = job
                where[future] = worker
                busy[worker] += 1
            if not futures:
                raise JobFailed("no leaf to search and no job out: the tree is stuck (a bug)")
            if progress is not None and time.monotonic() - last_progress >= PROGRESS_EVERY:
                last_progress = time.monotonic()
                progress(_progress_line(tree, len(futures), time.perf_counter() - start))
            if not any(f.done() for f in futures):
                try:
                    wait(list(futures), timeout=0.05, return_when="FIRST_COMPLETED")
                except TimeoutError:  # (partial results may have come meanwhile)
                    pass
            finished = sorted((f for f in futures if f.done()), key=futures.__getitem__)
            while partials:
                message = partials.popleft()
                if not (isinstance(message, (list, tuple)) and len(message) == 3):
                    raise GarbageResult(f"a partial result {message!r} is not [job, phi, delta]")
                job, phi, delta = message
                tree.partial(job, phi, delta)
            for future in finished:
                job = futures.pop(future)
                worker = where.pop(future)
                busy[worker] -= 1
                leaf = tree.out.get(job)
                if future.status == "finished":
                    if tree.is_verdict_job(job):
                        answer = future.result()
                        if not (isinstance(answer, tuple) and len(answer) == 2):
                            raise GarbageResult(f"leaf job {job} returned {answer!r}, not (verdict, positions)")
                        tree.verdict(job, *answer)  # (which refuses a verdict or a count of the wrong kind)
                        continue
                    answer = future.result()
                    if not (isinstance(answer, tuple) and len(answer) == 3 and type(answer[1]) is bool):
                        raise GarbageResult(f"job {job} returned {type(answer).__name__}, not (JobResult, fresh table, news)")
                    tree.final(job, answer[0])
                    tables += answer[1]
                    if news is not None:
                        news.add(worker, check_news(job, answer[2]))
                    continue
                exception = _exception(future)
                if isinstance(exception, KilledWorker) or future.status == "cancelled":
                    lost_at = None if leaf is None else leaf.position
                    losses[lost_at] = losses.get(lost_at, 0) + 1
                    if losses[lost_at] >= MAX_LOSSES:
                        raise JobFailed(f"the jobs on one position lost their workers {MAX_LOSSES} times")
                    tree.lost(job)
                    continue
                raise JobFailed(f"job {job} failed: {type(exception).__name__}: {exception}")
            if max_positions is not None and tree.positions > max_positions:
                raise SearchBudgetExceeded(tree.positions)
    finally:
        client.unsubscribe_topic(topic)
        outstanding = [f for f in futures if not f.done()]
        if outstanding:
            client.cancel(outstanding, force=True)
    return tree, Ppn2Statistics(tree.statistics(), slots, time.perf_counter() - start, tables, 0 if news is None else news.sent)


def _exception(future) -> BaseException | None:
    try:
        return future.exception(timeout=1)
    except Exception as exc:  # cancelled
        return exc


def _workers(client) -> list[tuple[str, int]]:
    """The cluster's workers now, with their threads (jobs run one per thread), in address order."""
    return sorted(client.nthreads().items())


def _progress_line(tree: PnTree, out: int, seconds: float) -> str:
    s = tree.statistics()
    return (f"ppn2: {seconds:.0f} s, tree {s.touched:,} nodes ({s.expanded:,} expanded), {out} jobs out, "
            f"{s.jobs:,} jobs, {s.positions:,} positions, root pn {_number(tree.root.pn)} dn {_number(tree.root.dn)}")


def _number(n: int) -> str:
    from bddl.engines.pns import INF

    return "inf" if n >= INF else f"{n:,}"


def stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def in_process_job(recipe, position: Position, descents: int = DEFAULT_DESCENTS, every: int = DEFAULT_PARTIAL_EVERY) -> JobResult:
    """One job without Dask (the tests' reference for `job_task`)."""
    return run_to_end(run_job(recipe.build(), position, descents, every))


# --- one search, as `bddlc search --algorithm ppn2` and the API ask it ---------------------------------


class Ppn2Failed(RuntimeError):
    """The parallel search could not give an answer (the message says why): exit status 1."""


@dataclass(frozen=True)
class Ppn2Options:
    """PPN²'s options (`bddlc search`'s --workers ... --share-tables; None: the default).  `report`
    gets the progress and statistics lines (the command line's: stderr)."""

    workers: int | None = None
    scheduler: str | None = None
    job_descents: int | None = None
    partial_every: int | None = None
    leaf_jobs: str | None = None
    qbf_slice: float | None = None
    leaf_positions: int | None = None
    share_tables: bool | None = None
    max_memory: int = 2048
    report: Callable[[str], None] = stderr_progress


def leaf_table_mb(options: Ppn2Options) -> float:
    """A worker's share of --max-memory for the core's leaf searcher's table: the core's share of
    the memory (`core.table_mb_for`, a quarter) split between the local cluster's workers (each
    a process on this machine), at most the core's default.  On a scheduler's cluster the
    workers are other processes, maybe other machines: each gets the whole quarter."""
    from bddl.engines.compiled import DEFAULT_TABLE_MB

    from ..processes.cluster import cores
    from .core import table_mb_for

    workers = 1 if options.scheduler else options.workers or cores()
    return min(DEFAULT_TABLE_MB, table_mb_for(options.max_memory) / max(1, workers))


def search_ppn2(recipe, options: Ppn2Options | None, max_positions: int):
    """The recipe's game searched by PPN² on a local cluster or the scheduler the options name:
    the engines' `SearchResult`; the statistics go to `options.report` after the progress lines.
    The recipe's core leaf searchers get their share of --max-memory (`leaf_table_mb`).
    Raises `SearchBudgetExceeded` (exit 3) and `Ppn2Failed` (exit 1)."""
    import dataclasses

    from ..processes.cluster import ClusterUnavailable, connect

    options = options or Ppn2Options()
    if hasattr(recipe, "table_mb"):  # (`BddlRecipe`, `PgRecipe`: frozen dataclasses)
        recipe = dataclasses.replace(recipe, table_mb=leaf_table_mb(options))
    leaf_jobs = options.leaf_jobs or DEFAULT_LEAF_JOBS
    run = {
        "descents": options.job_descents or DEFAULT_DESCENTS,
        "every": options.partial_every or DEFAULT_PARTIAL_EVERY,
        "max_nodes": max_nodes_for(options.max_memory),
        "max_positions": max_positions,
        "progress": options.report,
        "leaf_jobs": leaf_jobs,
        "qbf_slice": options.qbf_slice or DEFAULT_QBF_SLICE,
        "leaf_positions": options.leaf_positions or DEFAULT_LEAF_POSITIONS,
        "share_tables": options.share_tables is not False,
    }
    try:
        with warnings.catch_warnings():
            # (another cluster on the machine holds Dask's HTTP port: nothing of ours uses it)
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            with connect(options.workers, options.scheduler) as client:
                result, stats = recipe.search(client, **run)
    except (ClusterUnavailable, TreeTooLarge, GarbageResult, JobFailed) as exc:
        raise Ppn2Failed(str(exc)) from None
    for line in statistics_lines(stats, leaf_jobs):
        options.report(line)
    return result


def statistics_lines(stats: Ppn2Statistics | None, leaf_jobs: str) -> list[str]:
    """What a search's statistics say, a line each."""
    if stats is None:
        return []
    s = stats.tree
    lines = [f"ppn2: {stats.workers} workers, {s.jobs:,} jobs ({s.partials:,} partial results), "
             f"tree {s.touched:,} nodes ({s.expanded:,} expanded), {s.positions:,} positions by the jobs"]
    if stats.news:
        lines.append(f"ppn2: {stats.news:,} table entries shared between the workers")
    if s.verdict_jobs:
        kind = "search" if leaf_jobs == "search" else "QBF"
        lines.append(f"ppn2: {s.verdict_jobs:,} {kind} leaf jobs, {s.verdicts:,} solved their leaf")
    if stats.restarted:
        lines.append(f"ppn2: a worker restarted ({stats.tables} df-pn tables for {stats.workers} workers): "
                     "the counts above differ from a run without it")
    return lines
