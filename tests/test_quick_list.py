"""tests/quick.toml, the one list of quick cases, names real cases.

A renamed or removed problem would otherwise drop out of the quick suite
without a word.  (The differential cases are checked against the cases the
differential tests generate, in tests/compiler/encodings/test_differential_models.py.)"""

from __future__ import annotations

import pytest

from helpers.speed import QUICK_FILE, quick_cases
from helpers.suite import manifest


@pytest.mark.parametrize("group", ["solving", "validation"])
def test_quick_cases_are_suite_problems(group):
    problems = {entry.file for entry in manifest()}
    listed = quick_cases(group)
    assert listed, f"{QUICK_FILE.name} lists no {group} cases"
    assert sorted(listed - problems) == []


def test_the_quick_list_has_exactly_the_groups_the_tests_use():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    groups = set(tomllib.loads(QUICK_FILE.read_text(encoding="utf-8")))
    assert groups == {"differential", "solving", "validation"}
