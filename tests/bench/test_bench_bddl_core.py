"""`python -m bench.bddl_core` on a few families' small games: it runs, both cores agree, and its table has a row."""

from __future__ import annotations

import pytest

from bddl.engines import compiled


@pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
def test_bench_bddl_core(capsys):
    from bench.bddl_core import main

    assert main(["--families", "connect", "domineering", "--repeat", "1", "--python-cap", "3000", "--core-budget", "200000"]) == 0
    out, err = capsys.readouterr()
    assert "DISAGREEMENT" not in err
    assert "| connect | " in out and "| domineering | " in out
