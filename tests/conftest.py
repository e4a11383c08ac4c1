"""Shared test configuration.

Slow tests (marked `@pytest.mark.slow`) run only with `--runslow` or
BDDLC_SLOW=1, so the README's test command stays inside CI's time budget.
Which cases of the tests on real models are quick is said in one place,
tests/quick.toml (read by `helpers.speed`); the shared helpers live in
tests/helpers/.
Hypothesis runs derandomized with a fixed example budget ("ci" profile) unless
HYPOTHESIS_PROFILE says otherwise ("dev": more examples, "thorough": many).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("BDDLC_CORPUS", ROOT.parent / "shared" / "corpus"))  # a worktree elsewhere names it

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or os.environ.get("BDDLC_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or BDDLC_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def scaled(examples: int) -> int:
    """A test's hypothesis example count, times BDDLC_EXAMPLES_SCALE (default 1).

    Tests set their own counts (what CI runs); a long local profile runs the
    same tests with, say, BDDLC_EXAMPLES_SCALE=10."""
    return max(1, int(examples * float(os.environ.get("BDDLC_EXAMPLES_SCALE", "1"))))


class Reach:
    """How many examples of a property test get past its filter to the assertion.

    A property that asserts only inside an `if` passes without checking
    anything when the filter lets nothing through (a changed generator, a
    changed filter).  Run the property as an inner @given function that calls
    `tried()` on every example and `reached()` before the assertion, then
    `check()`: it fails when fewer than `share` of the examples (and fewer
    than one) reached the assertion."""

    def __init__(self, share: float):
        self.share, self.examples, self.asserted = share, 0, 0

    def tried(self) -> None:
        self.examples += 1

    def reached(self) -> None:
        self.asserted += 1

    def check(self) -> None:
        assert self.asserted >= max(1.0, self.share * self.examples), (
            f"only {self.asserted} of {self.examples} examples reached the assertion (at least {self.share:.0%} must)"
        )


def shell_program(folder: Path, name: str, body: str) -> Path:
    """An executable `#!/bin/sh` script: a stand-in solver whose exit code and output a test chooses."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path
