"""`python -m bench.ppn2`: configurations run one at a time as `bddlc search` processes, their verdicts compared."""

from __future__ import annotations

import pytest
from conftest import ROOT

from bench import ppn2 as bench_ppn2

pytest.importorskip("distributed")


def test_configurations_run_and_agree(capsys):
    games = [f"{ROOT / 'domains/breakthrough.bddl'},{ROOT / 'problems/breakthrough/second_3x4_d12.bddl'}",
             str(ROOT / "problems/pg/tictactoe_3x3.pg")]
    assert bench_ppn2.main([*games, "--configs", "pns,ppn2:search:1", "--time-limit", "120"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines[2:] if line.startswith("| ")]
    assert len(rows) == 4
    assert [row.split(" | ")[1] for row in rows] == ["pns", "ppn2:search:1"] * 2
    assert rows[0].endswith("| Black wins |") and rows[1].endswith("| Black wins |")  # Breakthrough 3x4: the second player wins
    assert rows[2].endswith("| no win |") and rows[3].endswith("| no win |")  # tic-tac-toe is a draw
    assert " | 1.00 | " in rows[0] and " | 1.00 | " in rows[2]  # each game's first configuration is its reference


def test_a_disagreement_fails_the_run(monkeypatch, capsys):
    answers = iter([True, False])
    monkeypatch.setattr(bench_ppn2, "run", lambda game, config, extra, limit: bench_ppn2.Run(" ".join(game), config, next(answers), 1, 0.1))
    assert bench_ppn2.main(["x.pg", "--configs", "pns,minimax"]) == 1
    assert "verdicts disagree on x.pg" in capsys.readouterr().err


def test_a_configuration_that_is_no_search_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        bench_ppn2.main(["x.pg", "--configs", "ppn2:search"])
    assert exit_.value.code == 2 and "ppn2:LEAF_JOBS:WORKERS" in capsys.readouterr().err


def test_a_game_that_cannot_be_read_fails_the_run(tmp_path, capsys):
    assert bench_ppn2.main([str(tmp_path / "nothere.pg"), "--configs", "pns"]) == 1
    captured = capsys.readouterr()
    assert "exit 1:" in captured.out and "no such file" in captured.out
    assert "bddlc search failed on " in captured.err
