"""On real models, every encoding's QBF answer equals the game engine's.

For every problem of our suite and of the public corpus, at the file depth
and at one and two plies less (where >= 1), DepQBF's verdict on the QDIMACS
of each encoding in `compiler.ENCODINGS` must equal the explicit game search
(`bddl.engines.minimax`), and the engine's answer at the file depth must equal the
manifest / the corpus table.  So every answer is computed two independent
ways and, at the file depth, checked against a third, published one.

CI runs the quick cases (`differential.QUICK`); `--runslow` runs them all, with
DepQBF limited to `SOLVER_LIMIT` seconds.  A case the engine cannot decide
within its budget, or DepQBF not within the limit, is skipped with the reason
(too slow), never passed.  Depths run smallest first, and once DepQBF has run
out of time on an (instance, encoding) the larger depths of that pair are
skipped too ("BDDLC_TRY_ALL_DEPTHS=1" tries them anyway): a deeper formula of
the same game is larger, and waiting out the limit again and again would
multiply the slow run's time without adding a verdict.
"""

from __future__ import annotations

import os

import pytest

from compiler import ENCODINGS, encode
from compiler.solving.qbf.solver_programs import run_solver_on_text
from helpers.speed import marks as speed_marks
from helpers.differential import QUICK, SOLVER_LIMIT, case_id, encodings_for, engine_answer, instances, load
from helpers.qbf import qdimacs_text

TRY_ALL_DEPTHS = os.environ.get("BDDLC_TRY_ALL_DEPTHS") == "1"

# (instance id, encoding) -> the smallest depth at which DepQBF ran out of time
_timed_out: dict[tuple[str, str], int] = {}


def _cases():
    params = []
    for instance in instances():
        for depth in instance.depths():
            for encoding in encodings_for(instance):
                key = case_id(instance, depth, encoding)
                marks = speed_marks("differential", key)
                params.append(pytest.param(instance, depth, encoding, id=key, marks=marks))
    return params


CASES = _cases()


@pytest.mark.parametrize("instance, depth, encoding", CASES)
def test_qbf_answer_equals_engine(instance, depth, encoding):
    expected = engine_answer(instance, depth)
    if expected is None:
        pytest.skip("too slow for the engine (search budget exhausted)")
    if depth == instance.file_depth and instance.expected is not None:
        assert expected == instance.expected, "the engine disagrees with the manifest / corpus table"
    earlier = _timed_out.get((instance.id, encoding))
    if earlier is not None and earlier < depth and not TRY_ALL_DEPTHS:
        pytest.skip(f"too slow for DepQBF (no verdict in {SOLVER_LIMIT:g} s at depth {earlier} already)")
    model = load(instance, depth)
    text = qdimacs_text(encode(model.domain, model.problem, depth, encoding).circuit)
    run = run_solver_on_text("depqbf", text, ".qdimacs", SOLVER_LIMIT, model=False)
    if run.status == "timeout":
        _timed_out.setdefault((instance.id, encoding), depth)
        pytest.skip(f"too slow for DepQBF (no verdict in {SOLVER_LIMIT:g} s)")
    assert run.status == "solved", f"DepQBF failed:\n{run.output[-2000:]}"
    assert run.verdict == expected


def test_quick_list_names_real_cases():
    """Every quick case exists, so the CI selection cannot silently shrink
    (corpus cases only count where the corpus is present)."""
    from helpers.corpus import SAT2023

    known = {p.id for p in CASES}
    missing = [key for key in QUICK if key not in known and (key.startswith("suite:") or SAT2023.is_dir())]
    assert missing == []


def test_quick_cases_cover_both_answers_every_encoding_and_both_sources():
    """A constant solver, or one encoding left out of CI, could not pass."""
    quick = [p.values for p in CASES if p.id in QUICK]
    compiled = set(ENCODINGS) - {"auto"}  # "auto" is one of the others
    assert {encoding for _, _, encoding in quick} == compiled
    assert {instance.source for instance, _, _ in quick} == {i.source for i in instances()}
    answers = {(encoding, engine_answer(instance, depth)) for instance, depth, encoding in quick}
    assert {(e, a) for e in compiled for a in (True, False)} <= answers


def test_the_solver_says_false_and_true():
    """A known-false and a known-true formula: a solver call that ignores its
    input (pyqbf's DepQBF(formula) does) cannot pass these tests."""
    from circuits import Circuit

    for outer, inner, truth in (("exists", "forall", False), ("forall", "exists", True)):
        c = Circuit()
        x, y = c.var("x"), c.var("y")
        getattr(c, outer)([x])
        getattr(c, inner)([y])
        c.set_output(c.iff(x, y))  # ∃x ∀y: x ⇔ y is false, ∀x ∃y: x ⇔ y is true
        run = run_solver_on_text("depqbf", qdimacs_text(c), ".qdimacs", SOLVER_LIMIT, model=False)
        assert run.verdict is truth
