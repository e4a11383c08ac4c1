"""`compiler.solving.processes.portfolio.race`: the first verdict wins, the others are
stopped at once and leave no process behind; failures and non-verdicts never
win; a cross-check runs everyone and names a disagreement."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler.solving.processes.portfolio import Member, race


@dataclass(frozen=True)
class Answer:
    black_wins: bool | None
    pid: int = 0


def after(seconds: float, black_wins: bool | None):
    def run():
        time.sleep(seconds)
        return Answer(black_wins, os.getpid())

    return run


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_the_first_verdict_wins_and_the_others_are_stopped():
    result = race([Member("slow", after(30, False)), Member("fast", after(0.05, True))])
    assert result.winner.name == "fast" and result.black_wins is True
    slow = result.finishes[0]
    assert slow.name == "slow" and slow.stopped and slow.result is None
    assert result.seconds < 10


def test_no_verdict_and_failures_never_win():
    def broken():
        raise ValueError("no such encoding")

    result = race([Member("unknown", after(0.01, None)), Member("broken", broken), Member("late", after(0.3, False))])
    assert result.winner.name == "late" and result.black_wins is False
    unknown, failed, _ = result.finishes
    assert unknown.result is not None and unknown.black_wins is None and not unknown.stopped
    assert failed.error == "ValueError: no such encoding"


def test_a_member_that_dies_is_a_failure_not_a_verdict():
    def dies():
        os._exit(3)

    result = race([Member("dies", dies)])
    assert result.winner is None and "status 3" in result.finishes[0].error


def test_the_time_limit_stops_everyone():
    result = race([Member("a", after(30, True)), Member("b", after(30, False))], timeout=0.3)
    assert result.winner is None and all(f.stopped for f in result.finishes)


def test_a_cross_check_runs_every_member_and_names_a_disagreement():
    result = race([Member("a", after(0.01, True)), Member("b", after(0.2, False)), Member("c", after(0.1, True))], cross_check=True)
    assert result.winner.name == "a"
    assert [f.black_wins for f in result.finishes] == [True, False, True]
    first, second = result.disagreement
    assert {first.name, second.name} == {"a", "b"}
    agreeing = race([Member("a", after(0.01, True)), Member("c", after(0.05, True))], cross_check=True)
    assert agreeing.disagreement is None


def test_a_stopped_member_leaves_nothing_behind(tmp_path):
    """The member starts a grandchild (as the QBF route starts a solver program); both end."""
    import subprocess

    marker = tmp_path / "pids"

    def starts_a_program():
        proc = subprocess.Popen(["sleep", "600"])
        marker.write_text(f"{os.getpid()} {proc.pid}")
        proc.wait()
        return Answer(False)

    result = race([Member("program", starts_a_program), Member("answer", after(0.5, True))])
    assert result.winner.name == "answer"
    pids = [int(p) for p in marker.read_text().split()]
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def test_a_stopped_member_leaves_no_temporary_files(tmp_path, monkeypatch):
    """Killed, a member cleans up nothing itself: its temporary folders (the QBF route's formula)
    are made inside one its parent made for it and removes once it has ended; so are a
    finished member's."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    marker = tmp_path / "made"

    def writes_then_waits():
        made = tempfile.mkdtemp(prefix="bddlc-")
        (Path(made) / "formula.qcir").write_text("#QCIR-G14\n")
        marker.write_text(made)
        time.sleep(600)
        return Answer(False)

    def writes_and_answers():
        time.sleep(0.5)
        Path(tempfile.mkdtemp(prefix="bddlc-"), "formula.qcir").write_text("#QCIR-G14\n")
        return Answer(True)

    result = race([Member("writer", writes_then_waits), Member("answer", writes_and_answers)])
    assert result.winner.name == "answer"
    made = Path(marker.read_text())
    assert made.parent.parent == tmp_path and made.parent.name.startswith("bddlc-member-")
    assert list(tmp_path.iterdir()) == [marker]


def test_progress_is_reported_while_no_verdict_is_in():
    seen = []
    race([Member("a", after(0.35, True)), Member("b", after(30, True))], on_wait=seen.append, wait_step=0.1)
    assert seen and {name for name, _ in seen[0]} == {"a", "b"}
    assert all(seconds >= 0 for name, seconds in seen[-1])


@dataclass(frozen=True)
class Large:
    black_wins: bool
    payload: tuple


@pytest.mark.parametrize("big", [10, 300_000])
def test_large_answers_come_through(big):
    result = race([Member("large", lambda: Large(True, tuple(range(big))))])
    assert result.black_wins is True and len(result.winner.result.payload) == big
