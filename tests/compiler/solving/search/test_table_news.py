"""The server's routing of table news between PPN² workers (`compiler.solving.search.table_news`),
without Dask: who is sent what, once, and what the server may forget."""

from __future__ import annotations

import collections

import pytest

from bddl.engines.pn_tree import GarbageResult
from bddl.engines.pns import INF
from compiler.solving.search.table_news import TableNews, check_news, pinned

A, B, C = "tcp://a", "tcp://b", "tcp://c"
LIVE = (A, B, C)


def entry(n: int) -> tuple[int, ...]:
    return (1, n, 0, 3, 1, 1)  # a solved board: Black wins with 3 plies left or more


def test_each_worker_is_sent_the_others_news_once():
    news = TableNews()
    for worker in LIVE:  # each worker's first job: nothing yet
        assert news.for_worker(worker, LIVE) == ()
    news.add(A, (entry(1), entry(2)))
    news.add(B, (entry(3),))
    assert news.for_worker(A, LIVE) == (entry(3),)  # not its own
    assert news.for_worker(C, LIVE) == (entry(1), entry(2), entry(3))
    assert news.for_worker(C, LIVE) == ()  # once
    assert news.for_worker(B, LIVE) == (entry(1), entry(2))
    assert news.sent == 6


def test_a_worker_that_joins_late_gets_only_what_comes_after():
    news = TableNews()
    news.for_worker(A, (A,))
    news.add(A, (entry(1),))
    assert news.for_worker(B, (A, B)) == ()
    news.add(A, (entry(2),))
    assert news.for_worker(B, (A, B)) == (entry(2),)


def test_batches_every_live_worker_has_are_forgotten():
    news = TableNews()
    for worker in (A, B):
        news.for_worker(worker, (A, B))
    news.add(A, (entry(1),))
    news.add(B, (entry(2),))
    assert len(news._batches) == 2
    news.for_worker(A, (A, B))
    assert len(news._batches) == 2  # B has not read them yet
    news.for_worker(B, (A, B))
    assert len(news._batches) == 0
    news.add(A, (entry(3),))
    news.for_worker(A, (A,))  # B died: its place no longer holds the log
    assert len(news._batches) == 0


def test_a_job_from_an_unpinned_worker_reaches_everyone():
    news = TableNews()
    news.for_worker(A, LIVE)
    news.add(None, (entry(7),))
    assert news.for_worker(A, LIVE) == (entry(7),)


@pytest.mark.parametrize(
    "bad",
    [
        [entry(1)],  # a list, not a tuple
        (entry(1)[:5],),  # too short
        ((1, 2, 3, 4, 5, "6"),),  # not an integer
        ((1, 2, 3, 3, 3, 1),),  # wins and loses with 3 plies left
        ((1, 2, 3, 4, 0, INF, 1),),  # an "unsolved" entry with a solved number
        ((1, 2, 3, 0, 1, 1, 1),),  # no plies left
        ((1, -2, 3, 4, 1, 1),),
    ],
)
def test_news_no_table_could_hold_are_garbage(bad):
    with pytest.raises(GarbageResult, match="job 4"):
        check_news(4, bad)


def test_news_a_table_holds_pass():
    good = ((1, 2, 3, INF, 4, 0), (0, 2, 3, 5, 1, INF - 1, 9), (True, 0, 0, 1, 0, 2))
    assert check_news(4, good) == good


def test_jobs_go_to_a_worker_with_a_free_thread():
    workers = [(A, 1), (B, 2)]
    busy: collections.Counter = collections.Counter()
    assert pinned(workers, busy) == A
    busy[A] = 1
    assert pinned(workers, busy) == B
    busy[B] = 1
    assert pinned(workers, busy) == B
    busy[B] = 2
    assert pinned(workers, busy) is None
