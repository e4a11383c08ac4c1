"""bench.portfolio's summary: the totals, the cross-check of the two single
routes and the racing losses are read from the rows, so a wrong verdict or a
disagreement cannot hide in them."""

from __future__ import annotations

from bench.portfolio import instances, main, summary
from helpers.corpus import needs_pg_corpus


def _row(kind, name, engine, verdict, expected, seconds, status="right"):
    return (kind, name, engine, verdict, expected, seconds, status, "")


def test_the_summary_names_a_disagreement_between_the_routes():
    rows = [
        _row("suite", "x/a.bddl", "qbf", True, True, 1.0),
        _row("suite", "x/a.bddl", "search", True, True, 0.5),
        _row("suite", "x/a.bddl", "auto", True, True, 0.7),
        _row("hein", "hein/b.pg", "qbf", False, None, 2.0),
        _row("hein", "hein/b.pg", "search", True, None, 3.0),
        _row("hein", "hein/c.pg", "qbf", None, None, 30.0, "unknown"),
        _row("hein", "hein/c.pg", "search", True, None, 1.0),
    ]
    text = summary(rows)
    assert "2 instances decided by both, **1 disagreements**: hein/hein/b.pg" in text
    assert "suite/x/a.bddl: +0.20 s" in text
    assert "| hein | qbf | 2 | 1 | 0 | 32.0 |" in text


def test_agreeing_routes_say_so():
    rows = [_row("gttt", "g.pg", e, True, True, 0.1) for e in ("qbf", "search", "auto")]
    assert "1 instances decided by both, no disagreement" in summary(rows)


@needs_pg_corpus
def test_the_sets_find_their_instances_with_answers():
    from bench.positional import CORPUS

    found = instances(["gttt", "hein", "corpus"], CORPUS)
    kinds = {kind for kind, *_ in found}
    assert kinds == {"gttt", "hein", "corpus"}
    assert sum(expected is not None for *_, expected in found) > 200


def test_a_wrong_verdict_fails_the_run(tmp_path, monkeypatch):
    import bench.portfolio as portfolio

    monkeypatch.setattr(portfolio, "instances", lambda sets, corpus: [("suite", "m", ["d", "p"], True)])
    monkeypatch.setattr(portfolio, "decide", lambda paths, engine, limit: (False, 0.1, engine))
    assert main(["--sets", "suite", "--output", str(tmp_path / "rows.tsv")]) == 1
    assert (tmp_path / "rows.tsv").read_text().count("WRONG") == 3


def test_the_cross_check_engine_is_summed_up():
    rows = [
        ("suite", "a", "cross-check", True, True, 1.0, "right", "search: minimax; qbf: auto / depqbf: True"),
        ("suite", "b", "cross-check", True, None, 1.0, "WRONG", "DISAGREE search: minimax: True / qbf: auto / depqbf: False"),
        ("hein", "c", "cross-check", True, None, 1.0, "right", "search: the positional solver; qbf: et / caqe: None"),
    ]
    text = summary(rows)
    assert "--cross-check: 2 of 3 instances decided by both routes, **1 disagreements**: suite/b." in text
    assert "The two routes cross-checked" not in text
