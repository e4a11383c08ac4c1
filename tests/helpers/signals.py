"""A child process started by a test gets the signals a terminal would give it.

A process inherits ignored signals and the signal mask, and Python does not
install its Ctrl-C handler when SIGINT arrives ignored (as for a background
job of a script, which should not see Ctrl-C).  Something in a whole pytest
run (not one of our modules: none ignores or blocks SIGINT) has left the
test process that way, twice in CI for the no-orphans tests and on
2026-11-29 for the core's Ctrl-C tests, whose child then rightly ignored the
SIGINT it raised: a search ran to its end (or past the timeout) instead of
stopping.  So every test that sends a child a signal starts it with this."""

from __future__ import annotations

import signal

ENDINGS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def as_from_a_terminal() -> None:
    """In the child before exec (`preexec_fn`): the signals under test at their defaults and unblocked."""
    for number in ENDINGS:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDINGS)
