"""bench.engines: both searches side by side, verdicts checked, ratios per family."""

from __future__ import annotations

import io

from conftest import CORPUS

from bench.engines import measure, report


def test_one_instance_side_by_side():
    rows = measure(CORPUS, 100_000, 60.0, only="breakthrough/2x4_d13", log=io.StringIO())
    assert [r.name for r in rows] == ["breakthrough/2x4_d13.bddl"]
    row = rows[0]
    assert row.minimax.verdict is row.pns.verdict is row.race.verdict is False
    assert row.race.positions < row.pns.positions
    text = report(rows, "python -m bench.engines")
    assert text.startswith("# Game engine benchmarks")
    assert "| breakthrough | 1 |" in text and "| breakthrough/2x4_d13.bddl | no win |" in text


def test_a_search_out_of_budget_has_no_verdict():
    rows = measure(CORPUS, 5, 60.0, only="breakthrough/2x5_d17", log=io.StringIO())
    assert rows[0].minimax.verdict is None and rows[0].minimax.note == "budget"
    assert "| breakthrough | 0 |" in report(rows, "x")
