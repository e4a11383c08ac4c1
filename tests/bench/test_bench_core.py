"""`python -m bench.core` on the suite's small games: it runs, both cores agree, and its table has a row."""

from __future__ import annotations

import pytest

from bddl.engines import compiled


@pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
def test_bench_core_on_the_suite(capsys):
    from bench.core import main

    assert main(["--sets", "suite", "--repeat", "1", "--python-cap", "2000", "--core-budget", "200000",
                 "--yardstick-timeout", "1"]) == 0
    out, err = capsys.readouterr()
    assert "DISAGREEMENT" not in err
    assert "| suite | " in out


@pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
def test_bench_core_with_the_positional_solver(capsys):
    """`--knowledge full`: the core's positional solver against the Python one, equal counts."""
    from bench.core import main

    assert main(["--sets", "suite", "--repeat", "1", "--knowledge", "full", "--core-budget", "200000"]) == 0
    out, err = capsys.readouterr()
    assert "DISAGREEMENT" not in err and "no yardstick" not in err
    assert "| suite | " in out
