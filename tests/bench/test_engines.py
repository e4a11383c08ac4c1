"""bench.engines: both searches side by side, verdicts checked, ratios per family."""

from __future__ import annotations

import io

from conftest import CORPUS

from bench.engines import measure, report


def test_one_instance_side_by_side():
    rows = measure(CORPUS, 100_000, 60.0, only="breakthrough/2x4_d13", log=io.StringIO())
    assert [r.name for r in rows] == ["breakthrough/2x4_d13.bddl"]
    row = rows[0]
    assert row.kind == "race" and row.rules_minimax is None
    assert row.minimax.verdict is row.pns.verdict is row.knowledge.verdict is False
    assert row.knowledge.positions < row.pns.positions
    text = report(rows, "python -m bench.engines")
    assert text.startswith("# Game engine benchmarks")
    assert "| breakthrough | 1 |" in text and "| breakthrough/2x4_d13.bddl | no win |" in text


def test_a_positional_model_is_also_searched_by_the_positional_rules():
    rows = measure(CORPUS, 100_000, 60.0, only="hex/hex4_b_d9", log=io.StringIO())
    row = rows[0]
    assert row.kind == "rules" and row.minimax.verdict is row.knowledge.verdict is row.rules_minimax.verdict is True
    assert row.knowledge.positions < row.minimax.positions
    text = report(rows, "x")
    assert "| hex | 1 |" in text and "| rules |" in text


def test_a_search_out_of_budget_has_no_verdict():
    rows = measure(CORPUS, 5, 60.0, only="breakthrough/2x5_d17", log=io.StringIO())
    assert rows[0].minimax.verdict is None and rows[0].minimax.note == "budget"
    assert "| breakthrough | 0 |" in report(rows, "x")
