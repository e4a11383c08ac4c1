"""bench.positional: .pg games under configurations, against an answers table."""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.positional import main

ROOT = Path(__file__).resolve().parents[2]


def corpus(tmp_path: Path, answer: str) -> Path:
    folder = tmp_path / "pg" / "family"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg", folder / "tic5.pg")
    (tmp_path / "pg" / "answers.tsv").write_text(f"# game\tanswer\tsource\nfamily/tic5.pg\t{answer}\thand\n")
    return tmp_path / "pg"


def test_runs_every_configuration_and_reports(tmp_path, capsys):
    pg = corpus(tmp_path, "true")
    out = tmp_path / "results.tsv"
    status = main(["family", "--corpus", str(pg), "--config", "cor+:default", "--config", "corrective:caqe", "-o", str(out)])
    assert status == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert [(r[0], r[1], r[2], r[5]) for r in rows] == [
        ("cor+:default:none", "family/tic5.pg", "True", "right"),
        ("corrective:caqe:none", "family/tic5.pg", "True", "right"),
    ]
    capsys.readouterr()
    assert main(["--report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "| cor+:default:none | family | 1 | 1 | 0 |" in report


def test_a_wrong_answer_fails_the_run(tmp_path, capsys):
    pg = corpus(tmp_path, "false")
    assert main(["family", "--corpus", str(pg)]) == 1
    assert "WRONG" in capsys.readouterr().out
