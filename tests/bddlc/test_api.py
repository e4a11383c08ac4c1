"""`import bddlc` (docs/api.md): the commands' work from Python, both languages, same answers."""

from __future__ import annotations

import pytest
from helpers.suite import DOMAINS, PROBLEMS

import bddlc

TIC = (DOMAINS / "positional.bddl", PROBLEMS / "httt" / "tic_4x4_d5.bddl")
PG = (PROBLEMS / "pg" / "tictactoe_3x3_d5.pg",)


@pytest.mark.parametrize("paths", [TIC, PG], ids=["bddl", "pg"])
def test_solve_and_search_agree_with_the_rules(paths):
    game = bddlc.open_model(*paths)
    solved, found = bddlc.solve(game), bddlc.search(game)
    assert solved.black_wins is found.black_wins is bddlc.black_wins_by_rules(game.rules) is True
    for move in (solved.first_move, found.first_move):
        assert game.rules.won(move.after, bddlc.BLACK) or bddlc.black_wins_by_rules(game.rules, move.after)


def test_open_text_reads_both_languages_and_names_the_texts_in_errors():
    domain, problem = (p.read_text() for p in TIC)
    assert bddlc.search(bddlc.open_text(domain=domain, problem=problem)).black_wins is True
    with pytest.raises(bddlc.BddlError) as error:
        bddlc.open_text(domain=domain, problem=problem.replace("#depth", "#dpeth"))
    assert error.value.render().startswith("<problem.bddl>:")
    with pytest.raises(bddlc.ModelPathsError):
        bddlc.open_text(domain=domain)


def test_compile_certify_and_the_critical_depth(tmp_path):
    game = bddlc.open_model(*TIC)
    assert bddlc.compile(game).startswith("#QCIR-G14")
    assert bddlc.compile(game, format="qdimacs").startswith("c ")
    with pytest.raises(bddlc.EncodingDoesNotFit):
        bddlc.compile(game, encoding="cor+")
    assert bddlc.critical_depth(game, 1, 5).critical_depth == 5
    path = tmp_path / "c.json"
    bddlc.write_certificate(game, True, path)
    assert bddlc.certify(game, path).valid
    every = tmp_path / "every.json"  # every reply listed: a file an older checker reads
    written = bddlc.write_certificate(game, True, every, at_once=False)
    assert bddlc.certify(game, every).valid and written.at_once == 0 and '"version": 4' not in every.read_text()


def test_bench_is_not_installed_and_bddlc_is():
    import tomllib

    from conftest import ROOT

    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    assert "bddlc" in found and not any(name.startswith("bench") for name in found)
