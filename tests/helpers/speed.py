"""Which cases of the tests on real models are quick: tests/quick.toml, read here only.

Why one file: the quick suite is what CI runs, so which cases it holds is a
decision to make (and measure) in one place, not four.  A parametrized test
asks `marks(group, case)` for each case; cases the file does not list get
pytest's `slow` mark (conftest.py skips those unless --runslow or BDDLC_SLOW=1).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from conftest import ROOT

QUICK_FILE = ROOT / "tests" / "quick.toml"


@lru_cache(maxsize=None)
def quick_cases(group: str) -> frozenset[str]:
    """The cases of `group` (a table of tests/quick.toml) the quick suite runs."""
    data = tomllib.loads(QUICK_FILE.read_text(encoding="utf-8"))
    return frozenset(data[group]["cases"])


def is_quick(group: str, case: str) -> bool:
    return case in quick_cases(group)


def marks(group: str, case: str) -> list:
    """pytest marks for one case: none if it is quick, else `slow`."""
    return [] if is_quick(group, case) else [pytest.mark.slow]
