"""Several engines on one question at once: the first verdict wins.

Which route answers "does Black win within d?" fastest differs by orders of
magnitude from game to game (docs/benchmarks.md): the explicit search decides
GTTT 4x4 in milliseconds where a QBF solver takes seconds, and the QBF route
decides Connect-4 and deep Breakthrough where the search would take hours.
So `race` runs each member (a function that answers the question its own
way) in a forked child and returns the first verdict; the others are killed
at once.

Why forked children: neither a QBF solve nor the explicit search can be
stopped from inside Python (the search holds the interpreter; a solver is a
child process the pipeline waits on), so each member gets a process of its
own, forked after the model is loaded, so that starting it costs
milliseconds, not an interpreter start.  Each child leads a process group
registered with the watchdog of `processes` and asks for the parent-death
signal, so a member and whatever it started (a solver program) end with
bddlc however bddlc ends: a verdict, the time limit, Ctrl-C, SIGTERM,
SIGHUP or a SIGKILL of bddlc itself.

A member returns any picklable object with a `black_wins` attribute (True,
False, or None for no verdict: a time limit or a budget); an exception in a
member is reported as that member's failure, never as a verdict.  With
`cross_check`, every member runs to its end and `RaceResult.disagreement`
names two that contradict each other.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import processes


WAIT_STEP = 0.5  # seconds between two calls of a waiting race's `on_wait` (and of one route's: `routes.answer`)


@dataclass(frozen=True)
class Member:
    """One way to answer: `name` says it to users ("search: minimax", "qbf: cor+ / depqbf")."""

    name: str
    run: Callable[[], object]


@dataclass(frozen=True)
class Finish:
    """What one member gave: its result (None if it failed or was stopped), or why not."""

    name: str
    result: object | None
    seconds: float
    error: str | None = None  # the member raised: "ValueError: ...", or it died ("killed by signal 9")
    stopped: bool = False  # killed because another member answered first, or at the time limit

    @property
    def black_wins(self) -> bool | None:
        return None if self.result is None else getattr(self.result, "black_wins", None)


@dataclass(frozen=True)
class RaceResult:
    winner: Finish | None  # the first member with a verdict (None: no verdict from anyone)
    finishes: tuple[Finish, ...]  # every member, in the order given
    seconds: float

    @property
    def black_wins(self) -> bool | None:
        return None if self.winner is None else self.winner.black_wins

    @property
    def disagreement(self) -> tuple[Finish, Finish] | None:
        """Two members whose verdicts contradict each other (only meaningful after a cross-check)."""
        decided = [f for f in self.finishes if f.black_wins is not None]
        for finish in decided[1:]:
            if finish.black_wins != decided[0].black_wins:
                return decided[0], finish
        return None


@dataclass
class _Running:
    member: Member
    pid: int
    fd: int
    started: float
    data: bytearray
    folder: str  # its temporary files (`processes.member_folder`)


def race(
    members: Sequence[Member],
    timeout: float | None = None,
    cross_check: bool = False,
    on_wait: Callable[[list[tuple[str, float]]], None] | None = None,
    wait_step: float = WAIT_STEP,
    stop: Callable[[], bool] | None = None,
) -> RaceResult:
    """Run the members side by side; the first verdict wins unless `cross_check`.

    `timeout` bounds the whole race (members still running then are
    stopped).  `on_wait` is called about every `wait_step` seconds while no
    verdict is in, with the members still running and how long each has
    run (the progress line of `solve` and `depth`).  `stop()`, polled as
    often, True stops everyone (`depth --jobs`: the answer is no longer wanted)."""
    start = time.perf_counter()
    running: dict[int, _Running] = {}
    finishes: dict[str, Finish] = {}
    winner: Finish | None = None
    selector = selectors.DefaultSelector()
    try:
        for member in members:
            child = _fork(member)
            running[child.fd] = child
            selector.register(child.fd, selectors.EVENT_READ)
        while running:
            left = None if timeout is None else timeout - (time.perf_counter() - start)
            if (left is not None and left <= 0) or (stop is not None and stop()):
                break
            step = wait_step if left is None else min(wait_step, left)
            for key, _ in selector.select(step):
                child = running[key.fd]
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    child.data.extend(chunk)
                    continue
                selector.unregister(key.fd)
                del running[key.fd]
                finish = _collect(child)
                finishes[child.member.name] = finish
                if winner is None and finish.black_wins is not None:
                    winner = finish
                    if not cross_check:
                        running_now = list(running.values())
                        for other in running_now:
                            selector.unregister(other.fd)
                            del running[other.fd]
                            finishes[other.member.name] = _stop(other)
                        break
            if running and winner is None and on_wait is not None:
                now = time.perf_counter()
                on_wait([(c.member.name, now - c.started) for c in running.values()])
    finally:
        for child in running.values():
            finishes[child.member.name] = _stop(child)
        selector.close()
    ordered = tuple(finishes[m.name] for m in members if m.name in finishes)
    return RaceResult(winner, ordered, time.perf_counter() - start)


def _fork(member: Member) -> _Running:
    # the member's temporary files go into a folder of ours: killed, it cleans up nothing itself
    folder = processes.member_folder()
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the member
        status = 0
        try:
            os.close(read_end)
            os.setpgid(0, 0)
            processes.in_forked_child(parent)
            processes.in_member_folder(folder)
            for number in processes.TERMINATIONS + (signal.SIGINT,):
                signal.signal(number, signal.SIG_DFL)  # the parent stops us with SIGKILL; nothing to unwind
            _quiet()
            try:
                payload = pickle.dumps(("ok", member.run()))
            except BaseException as exc:  # reported to the parent as this member's failure
                payload = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"))
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view):]
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        os.setpgid(pid, pid)  # also done by the child: whichever runs first, the group exists before we register it
    except (ProcessLookupError, PermissionError):
        pass
    processes._tell_watchdog(f"+{pid}")
    return _Running(member, pid, read_end, time.perf_counter(), bytearray(), folder)


def _quiet() -> None:
    """A member says nothing (its progress lines would interleave with the
    parent's): its standard output and error go to /dev/null, through new file
    objects, since a thread of the parent may have held the old ones' locks at the fork."""
    import sys

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = open(os.devnull, "w")
    sys.stderr = open(os.devnull, "w")


def _reap(child: _Running) -> int:
    _, status = os.waitpid(child.pid, 0)
    try:
        os.killpg(child.pid, signal.SIGKILL)  # anything the member started and left behind
    except (ProcessLookupError, PermissionError):
        pass
    processes.forget_group(child.pid)
    processes.remove_folder(child.folder)
    os.close(child.fd)
    return status


def _collect(child: _Running) -> Finish:
    status = _reap(child)
    seconds = time.perf_counter() - child.started
    try:
        kind, value = pickle.loads(bytes(child.data))
    except Exception:
        why = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"ended with status {os.waitstatus_to_exitcode(status)} and no answer"
        return Finish(child.member.name, None, seconds, error=why)
    if kind == "error":
        return Finish(child.member.name, None, seconds, error=value)
    if not hasattr(value, "black_wins") or value.black_wins not in (True, False, None):
        return Finish(child.member.name, None, seconds, error=f"an answer without a verdict: {value!r}"[:300])
    return Finish(child.member.name, value, seconds)


def _stop(child: _Running) -> Finish:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _reap(child)
    return Finish(child.member.name, None, time.perf_counter() - child.started, stopped=True)
