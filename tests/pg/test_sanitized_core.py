"""The compiled core's differential tests once more, against a core built with AddressSanitizer
and UndefinedBehaviorSanitizer (scripts/sanitize_core.sh builds it in a scratch copy): a memory
error or undefined behaviour in the core aborts the run, where an optimised build might give a
wrong verdict silently.  Slow (a separate build, tests run 2-3 times slower), so only when
BDDLC_SANITIZE=1, which CI sets."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "sanitize_core.sh"


@pytest.mark.skipif(os.environ.get("BDDLC_SANITIZE") != "1", reason="set BDDLC_SANITIZE=1 (CI does) for the sanitizer build")
def test_the_core_under_the_sanitizers():
    done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert " passed" in done.stdout and " failed" not in done.stdout
