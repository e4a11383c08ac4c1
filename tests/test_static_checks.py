"""The static checks run with the tests: ruff, mypy and import-linter.

Why here: the README's test command is what CI runs, so a check that is not
in it is a check nobody runs.  Each tool is configured in pyproject.toml and
installed by the `test` extra; a missing tool fails (it is part of the test
set-up), it is not skipped.  The caches live in .cache/ (git ignores it), so
a second run costs a few seconds.

* ruff: pyflakes (unused imports and names, undefined names), pycodestyle's
  error classes, bugbear;
* mypy over bddl, circuits and compiler: every annotation names a type that
  exists and annotated code agrees with it (not --strict);
* import-linter: the layers (bench on compiler on bddl and circuits, which do
  not import each other) and no import cycle between the modules of any package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

CACHE = ROOT / ".cache"


def _run(command: list[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _program(name: str) -> str:
    """The tool's command beside this interpreter (or on PATH)."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    found = beside if os.path.exists(beside) else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: python -m pip install -e '.[test]'")
    return found


@pytest.mark.parametrize(
    "command",
    [
        pytest.param([sys.executable, "-m", "ruff", "check", "--no-fix", "."], id="ruff"),
        pytest.param([sys.executable, "-m", "mypy"], id="mypy"),
        pytest.param(["lint-imports", "--no-logo", "--cache-dir", str(CACHE / "import-linter")], id="import-linter"),
    ],
)
def test_static_check_passes(command):
    if command[0] == "lint-imports":
        command = [_program("lint-imports"), *command[1:]]
    done = _run(command)
    assert done.returncode == 0, f"{' '.join(command[:4])} failed:\n{done.stdout}\n{done.stderr}"
