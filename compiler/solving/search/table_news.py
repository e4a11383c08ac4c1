"""What one PPN² worker's df-pn table learnt, passed on to the others (table news).

Each worker keeps its df-pn table between jobs (`ppn2.job_task`), but two
workers searching nearby leaves meet the same positions, and without this
each solves them again: on Breakthrough 4x5 two workers expanded 1.5 times
the positions of one.  So a job returns the entries its search stored
(`ProofNumberSearch.news`: solved boards, and unsolved positions with their
proof numbers and work), and the server hands them to every other worker
with that worker's next job (`ProofNumberSearch.learn`), which makes the
tables of all workers converge on what any one of them found, one job late.

Routing needs to know which worker runs a job, so the server pins each job
to a worker with a free thread (Dask's `workers=` with
`allow_other_workers=True`: if that worker dies the job runs elsewhere, and
the news it carried are merely delivered to the wrong table, where they are
as true).  News are facts of the same search (the job's token) or guidance,
never a verdict of their own: a worker that missed some only searches more.

The server keeps the news a live worker has not been sent yet, and drops a
batch once every live worker has it, so its memory follows the slowest
worker's lag, not the length of the search.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence

from bddl.engines.pn_tree import GarbageResult
from bddl.engines.pns import INF

# A flat entry: (black to move, b, w, smallest winning r, largest losing r, work) for a
# solved board; (black to move, b, w, r, phi, delta, work) for an unsolved position.
Entry = tuple[int, ...]


class TableNews:
    """The server's log of news, with a read position per worker."""

    def __init__(self) -> None:
        self._batches: collections.deque[tuple[str | None, tuple[Entry, ...]]] = collections.deque()
        self._dropped = 0  # batches already dropped from the front of the log
        self._sent: dict[str, int] = {}  # worker -> index of the first batch it has not been sent
        self.sent = 0  # entries handed to workers in all

    def add(self, producer: str | None, news: tuple[Entry, ...]) -> None:
        """A finished job's news; `producer` is the worker it was pinned to (which has them)."""
        if news:
            self._batches.append((producer, news))

    def for_worker(self, worker: str, live: Iterable[str]) -> tuple[Entry, ...]:
        """The news `worker` has not been sent, less its own; marks them sent.
        A worker first seen gets only what comes from now on (it starts with an
        empty table, and the leaves it is given say what to search)."""
        end = self._dropped + len(self._batches)
        start = self._sent.get(worker, end)
        self._sent[worker] = end
        found: list[Entry] = []
        for producer, news in list(self._batches)[start - self._dropped:]:
            if producer != worker:
                found.extend(news)
        self._trim(set(live) | {worker})
        self.sent += len(found)
        return tuple(found)

    def _trim(self, live: set[str]) -> None:
        for gone in [w for w in self._sent if w not in live]:
            del self._sent[gone]
        oldest = min(self._sent.values(), default=self._dropped + len(self._batches))
        while self._dropped < oldest and self._batches:
            self._batches.popleft()
            self._dropped += 1


def check_news(job: int, news: object) -> tuple[Entry, ...]:
    """A job's news as the server takes them: a tuple of flat entries of integers whose
    numbers a df-pn table can hold; anything else is `GarbageResult` (an error, never
    guidance: a wrong solved entry would be a wrong verdict)."""
    if not isinstance(news, tuple):
        raise GarbageResult(f"job {job}'s table news are a {type(news).__name__}, not a tuple")
    for entry in news:
        if not isinstance(entry, tuple) or len(entry) not in (6, 7) or any(type(x) not in (int, bool) for x in entry):
            raise GarbageResult(f"job {job}'s table news hold {entry!r}, not an entry")
        if len(entry) == 6:
            _, b, w, win, loss, work = entry
            if not (0 <= loss < win <= INF and b >= 0 and w >= 0 and work >= 0):
                raise GarbageResult(f"job {job}'s table news hold a solved entry {entry!r} no table holds")
        else:
            _, b, w, r, phi, delta, work = entry
            if not (r >= 1 and 1 <= phi < INF and 1 <= delta < INF and b >= 0 and w >= 0 and work >= 0):
                raise GarbageResult(f"job {job}'s table news hold an unsolved entry {entry!r} no table holds")
    return news


def pinned(workers: Sequence[tuple[str, int]], busy: collections.Counter) -> str | None:
    """A worker with a free thread (the first in the cluster's order), or None.
    (One job a worker thread, as in the paper: a second job queued behind each
    was measured 8-12% faster but made one worker's runs differ from run to run,
    docs/benchmarks.md.)"""
    for worker, threads in workers:
        if busy[worker] < threads:
            return worker
    return None
