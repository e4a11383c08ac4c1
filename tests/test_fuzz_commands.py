"""Mutated BDDL models and .pg games through every command: never a traceback,
always a documented exit status (issue 26, item 5; tests/helpers/fuzzing.py
says what is mutated and how)."""

from __future__ import annotations

import os

import pytest
from helpers.fuzzing import DOCUMENTED, cases, existing_seeds, run_case
from hypothesis import HealthCheck, given, settings

QUICK = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=int(os.environ.get("BDDLC_FUZZ_RUNS", "2000")), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_both_languages_are_seeded():
    seeds = existing_seeds()
    assert any(len(s) == 2 for s in seeds) and any(len(s) == 1 for s in seeds)


@QUICK
@given(cases())
def test_a_mutated_model_gets_a_documented_status(case):
    assert run_case(case) in DOCUMENTED


@pytest.mark.slow
@LONG
@given(cases())
def test_a_mutated_model_gets_a_documented_status_long(case):
    assert run_case(case) in DOCUMENTED
