"""A child process started by a test gets the signals a terminal would give it.

A process inherits ignored signals and the signal mask, and Python does not
install its Ctrl-C handler when SIGINT arrives ignored.  A shell script
starts a background job (`python -m pytest &`) with SIGINT ignored, so that
Ctrl-C at the terminal does not reach it: a test run started so (twice in
CI for the no-orphans tests; on 2026-11-29 a full run on a fresh clone,
where the core's two Ctrl-C tests failed, their child ignoring the SIGINT it
raised) hands that on to every child.  So every test that sends a child a
signal starts it with this."""

from __future__ import annotations

import signal

ENDINGS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def as_from_a_terminal() -> None:
    """In the child before exec (`preexec_fn`): the signals under test at their defaults and unblocked."""
    for number in ENDINGS:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDINGS)
