"""Child processes that never outlive bddlc, however bddlc ends.

Every solver, compiler or preprocessing process bddlc starts goes through
`spawn` (or, for a forked Python child, `in_forked_child`).  Three things
make sure none of them is left running:

* Signals.  `terminations_interrupt` turns SIGTERM and SIGHUP (what
  `timeout`, SLURM's scancel, supervisors and a closed terminal send) into
  `Terminated`, a KeyboardInterrupt, so the code that kills a child's
  process group on Ctrl-C runs for them too; the command line then exits
  with the conventional status 128 + the signal's number.
* The parent-death signal.  On Linux each child asks the kernel, before it
  execs, to be sent SIGKILL when its parent goes (prctl PR_SET_PDEATHSIG),
  which covers even a SIGKILL of bddlc, where no handler runs.
* A watchdog.  The parent-death signal reaches only the direct child: a
  solver that is a wrapper script starting the real program, or a solver
  that forks, would leave a grandchild behind.  So each child starts a new
  process group, which the child registers, before it execs, with one
  small watchdog process per bddlc process, which holds the reading end of a pipe whose
  writing end only bddlc holds.  When bddlc ends in any way, the pipe
  closes and the watchdog kills every group still registered.  (It ignores
  SIGINT, SIGTERM and SIGHUP and lives in its own session, so it outlives
  bddlc long enough to do that.)

A process killed outright runs no clean-up of its own, so a temporary
folder it made would stay.  The solvers' formula folders are therefore
registered with the watchdog too (`temporary_folder`), and a forked member
writes its temporary files in a folder its parent made for it
(`member_folder`), which the parent removes once the member has ended
(`remove_folder`) and the watchdog removes if bddlc ends first.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

PR_SET_PDEATHSIG = 1

# The watchdog: reads "+PGID" / "-PGID" lines and "dFOLDER" / "fFOLDER" lines; at end of
# input (bddlc is gone), kills every process group still registered, then removes every
# folder still registered.
_WATCHDOG = r"""
import os, shutil, signal, sys
for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, signal.SIG_IGN)
groups = set()
folders = set()
for line in sys.stdin:
    word = line.rstrip("\n")
    if word[:1] == "+":
        groups.add(int(word[1:]))
    elif word[:1] == "-":
        groups.discard(int(word[1:]))
    elif word[:1] == "d":
        folders.add(word[1:])
    elif word[:1] == "f":
        folders.discard(word[1:])
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
for folder in folders:
    shutil.rmtree(folder, ignore_errors=True)
"""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C, then exit with 128 + `signal_number`."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """The conventional exit status after an interruption: 128 + the signal's number (130 for Ctrl-C)."""
    return 128 + getattr(interrupt, "signal_number", signal.SIGINT)


TERMINATIONS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class terminations_interrupt:
    """Within the block, SIGTERM and SIGHUP raise `Terminated` (only in the main thread; elsewhere a no-op)."""

    def __enter__(self):
        self.previous = {}
        if threading.current_thread() is threading.main_thread():
            self.previous = {number: signal.signal(number, _raise_terminated) for number in TERMINATIONS}
        return self

    def __exit__(self, *exc):
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def _raise_terminated(number, frame):
    raise Terminated(number)


# --- the parent-death signal -------------------------------------------------

def _load_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


_prctl = _load_prctl()  # looked up before any fork: the child only calls it


def die_with_parent(parent: int) -> None:
    """In a new child: be killed when `parent` (the pid that started us) ends.

    The check of getppid after the prctl closes the race where the parent
    died before the request was made."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


# --- the watchdog -------------------------------------------------------------

_lock = threading.Lock()
_watchdog: subprocess.Popen | None = None


def _watchdog_pipe():
    """The running watchdog's stdin (started on first use, again after a fork)."""
    global _watchdog
    if _watchdog is None or _watchdog.pid is None or getattr(_watchdog, "_owner", None) != os.getpid():
        parent = os.getpid()
        _watchdog = subprocess.Popen(
            [sys.executable, "-S", "-c", _WATCHDOG],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        _watchdog._owner = parent
    return _watchdog.stdin


def _watchdog_fd() -> int | None:
    """The file descriptor of the watchdog's pipe (None: no watchdog could be started)."""
    try:
        return _watchdog_pipe().fileno()
    except (OSError, ValueError):
        return None


def watchdog_pid() -> int | None:
    """The watchdog's process id, once one runs (for tests)."""
    return None if _watchdog is None else _watchdog.pid


def _tell_watchdog(line: str) -> None:
    with _lock:
        try:
            pipe = _watchdog_pipe()
            pipe.write(line + "\n")
            pipe.flush()
        except (OSError, ValueError):
            pass  # no watchdog: the parent-death signal still covers the direct child


def forget_group(group: int) -> None:
    _tell_watchdog(f"-{group}")


@contextmanager
def temporary_folder() -> Iterator[str]:
    """A temporary folder for the formula a solver reads: removed at the end of the block, or
    by the watchdog if bddlc is killed inside it (where no clean-up of its own runs)."""
    folder = _watched_folder("bddlc-")
    try:
        yield folder
    finally:
        remove_folder(folder)


def member_folder() -> str:
    """A new temporary folder for a forked member's files (`in_member_folder` in the
    member), which the parent removes once the member has ended (`remove_folder`), and
    the watchdog if bddlc ends first."""
    return _watched_folder("bddlc-member-")


def in_member_folder(folder: str) -> None:
    """In the member: its temporary files, and those of the programs it starts, go into `folder`."""
    tempfile.tempdir = folder
    os.environ["TMPDIR"] = folder


def _watched_folder(prefix: str) -> str:
    folder = tempfile.mkdtemp(prefix=prefix)
    if "\n" not in folder:  # (the watchdog reads lines)
        _tell_watchdog(f"d{folder}")
    return folder


def remove_folder(folder: str) -> None:
    """Remove a folder of `temporary_folder` or `member_folder`, whatever is in it (its
    processes have ended), and unregister it from the watchdog."""
    shutil.rmtree(folder, ignore_errors=True)
    if "\n" not in folder:
        _tell_watchdog(f"f{folder}")


def close_watchdog_in_child() -> None:
    """In a forked child: drop our copy of the watchdog's pipe, so that the
    watchdog sees the end of input when the parent dies, whatever the child does."""
    if _watchdog is not None and _watchdog.stdin is not None:
        try:
            os.close(_watchdog.stdin.fileno())
        except OSError:
            pass


def in_forked_child(parent: int) -> None:
    """The first thing a forked Python child (Bloqqer's, a local Dask worker) does.

    The lock is made anew: another thread of the parent may have held it
    at the fork, and that thread does not exist in the child."""
    global _lock
    _lock = threading.Lock()
    die_with_parent(parent)
    close_watchdog_in_child()


# --- children -----------------------------------------------------------------

class Child(subprocess.Popen):
    """A `subprocess.Popen` in its own process group, which dies with bddlc.

    `kill_group` kills the child and everything it started; `wait`ing the
    child out (or killing it) unregisters its group from the watchdog."""

    def __init__(self, command: Sequence[str], **options) -> None:
        parent = os.getpid()
        with _lock:
            watchdog = _watchdog_fd()

        def prepare() -> None:  # in the child, before exec
            die_with_parent(parent)
            if watchdog is not None:  # registered before the program runs: no window where bddlc's death leaves it
                os.write(watchdog, f"+{os.getpid()}\n".encode())

        super().__init__(list(command), start_new_session=True, preexec_fn=prepare, **options)
        self._registered = True

    def kill_group(self) -> None:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _forget(self) -> None:
        """Once the child has ended: kill what it may have left in its group, then unregister the group."""
        if self._registered and self.returncode is not None:
            self._registered = False
            self.kill_group()
            forget_group(self.pid)

    def wait(self, timeout=None):
        try:
            return super().wait(timeout)
        finally:
            self._forget()

    def poll(self):
        result = super().poll()
        self._forget()
        return result


def spawn(command: Sequence[str], **options) -> Child:
    """Start `command` as a `Child` (keyword arguments as for `subprocess.Popen`)."""
    return Child(command, **options)
