"""Certificates written from the compiled core against those of the Python engines (issue 41).

Two independent computations of one file: the certificate builder asks the Python engines
(`--core python`: `PositionalSolver`, the BDDL minimax or df-pn) or the core's searchers kept
between questions (`bddl.engines.compiled.leaf`: `CorePgLeafSearch.decide`/`refutation`, the
positional solver's own moves; `CoreLeafSearch.black_wins`, a BDDL game's values, whose moves are
the rules' first that keep the claim).  Where the strategy is the same the bytes must be too,
and the unchanged checker (`compiler.certificates.check`) must accept both.  A tiny table makes
the core replace entries (a re-search, never a wrong value): the file stays the same.  And the
checker is what judges: a core searcher made to lie gives a file it refuses.

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from conftest import ROOT, scaled
from helpers.corpus import PG_CORPUS, instances, needs_corpus, needs_pg_corpus, pg_answers
from helpers.strategies import game as random_bddl_game
from helpers.suite import manifest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "pg"))
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.engines import compiled  # noqa: E402
from bddl.engines.compiled.leaf import CoreLeafSearch, CorePgLeafSearch, decide_bddl, decide_pg  # noqa: E402
from bddl.game import Game  # noqa: E402
from bddl.pg.reader import load_pg  # noqa: E402
from compiler.certificates import build_certificate  # noqa: E402
from compiler.certificates.check import check, file_hashes  # noqa: E402
from compiler.certificates.files import certificate_lines  # noqa: E402
from compiler.certificates.oracles import BDDL_STRATEGY, Oracle, bddl_oracle, positional_oracle  # noqa: E402
from compiler.cli import main  # noqa: E402
from compiler.model import bddl_model, open_model, pg_model  # noqa: E402

pytestmark = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")

PG_SUITE = sorted((ROOT / "problems").rglob("*.pg"))
BDDL_SUITE = [case for case in manifest() if not case.slow and case.engine == "minimax"]


def text(certificate) -> str:
    return "".join(certificate_lines(certificate))


def accepted(model, certificate) -> None:
    verdict = check(model.rules, json.loads(text(certificate)), file_hashes(model.paths), model.checker_game())
    assert verdict.valid, verdict.report()


def both(model, black_wins: bool, **options) -> str:
    """The certificate from each core: the same bytes, accepted by the checker; the text."""
    core = build_certificate(model, black_wins, core="compiled", **options)
    python = build_certificate(model, black_wins, core="python", **options)
    assert text(core) == text(python)
    accepted(model, core)
    return text(core)


def verdict_of(model) -> bool:
    """The game's value by the Python engines (the reference), asked the way a certificate asks."""
    from compiler.certificates.oracles import engine_oracle

    return engine_oracle(model, core="python").black_wins(model.rules.initial)


# -- the suite and the corpus, both languages ----------------------------------------------------


@pytest.mark.parametrize("path", PG_SUITE, ids=lambda p: p.name)
def test_pg_suite_same_bytes_from_both_cores(path):
    model = open_model([str(path)])
    both(model, verdict_of(model))


@pytest.mark.parametrize("case", BDDL_SUITE, ids=lambda c: c.file)
def test_bddl_suite_same_bytes_from_both_cores(case):
    model = open_model([str(case.domain), str(case.problem)])
    if compiled.bddl_unsupported(model.rules.game, model.depth) is not None:
        pytest.skip("the core does not take the game")
    data = json.loads(both(model, case.black_wins))
    assert data["produced_by"] in (BDDL_STRATEGY, "pairing strategy")


GTTT = [name for name, _ in pg_answers("gttt-")][::4]
HEIN = [name for name, _ in pg_answers("hein/") if name.endswith(("3x3-03.pg", "3x3-05.pg", "5x5-11.pg"))]


@needs_pg_corpus
@pytest.mark.parametrize("name", GTTT + HEIN)
def test_pg_corpus_same_bytes_from_both_cores(name):
    answers = dict(pg_answers(""))
    model = open_model([str(PG_CORPUS / name)])
    both(model, answers[name])


SAT2023 = [i for i in instances() if i.game in ("breakthrough", "connect-c", "domineering")
           and i.name in ("2x4_13", "2x5_17", "3x5_11", "3x3_9_connect3", "4x4_9_connect3", "2x5_6", "3x3_4", "4x3_7")]


@needs_corpus
@pytest.mark.parametrize("instance", SAT2023, ids=lambda i: f"{i.game}/{i.name}")
def test_sat2023_same_bytes_from_both_cores(instance):
    model = open_model([str(instance.domain), str(instance.problem)])
    both(model, instance.black_wins)


# -- random games ------------------------------------------------------------------------------


@settings(max_examples=scaled(60), deadline=None)
@given(st.integers(0, 10**9))
def test_random_pg_games_same_bytes(seed):
    game = random_pg_game(random.Random(seed))
    if compiled.unsupported(game) is not None:
        return
    model = pg_model(game)
    both(model, verdict_of(model))


@settings(max_examples=scaled(60), deadline=None)
@given(random_bddl_game(max_depth=6))
def test_random_bddl_games_same_bytes(case):
    domain, problem = case
    model = bddl_model(domain, problem)
    if compiled.bddl_unsupported(model.rules.game, model.depth) is not None:
        return
    both(model, verdict_of(model))


# -- the search's own table, and a table that replaces -----------------------------------------


@pytest.mark.parametrize("path", PG_SUITE, ids=lambda p: p.name)
def test_the_kept_search_is_solve_full(path):
    """`search --certificate` runs the search on the searcher the certificate then asks: the
    same verdict, first move and positions as the core's one-call search."""
    game = load_pg(path)
    kept, once = decide_pg(game, 10**8, 64), compiled.solve_full(game, 10**8, 64)
    if once.positions == 0:  # settled before any search (the wrapper's start)
        assert kept.black_wins == once.black_wins
        return
    assert (kept.black_wins, kept.first_move, kept.positions) == (once.black_wins, once.first_move, once.positions)
    assert isinstance(kept.engine, CorePgLeafSearch)


@pytest.mark.parametrize("case", [c for c in BDDL_SUITE if c.domain.stem in ("breakthrough", "connect", "domineering")][:12],
                         ids=lambda c: c.file)
def test_the_kept_bddl_search_is_solve_bddl(case):
    parsed = _parsed(case)
    game = Game(parsed.domain, parsed.problem)
    kept, once = decide_bddl(game, None, 10**8, 64), compiled.solve_bddl(game, None, 10**8, 64)
    assert (kept.black_wins, kept.first_move, kept.positions) == (once.black_wins, once.first_move, once.positions)


def _parsed(case):
    from bddl import load_model

    return load_model(case.domain, case.problem)


@pytest.mark.parametrize("name, args", [("pg", ["problems/pg/tic_5x5_torus.pg"]),
                                        ("bddl", ["domains/connect.bddl", "problems/connect/connect3_4x4_d9.bddl"])])
def test_search_certificate_from_its_own_table_same_bytes_as_python(name, args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for core in ("compiled", "python"):
        assert main(["search", *args, "--core", core, "--certificate", str(tmp_path / f"{core}.json")]) == 0
    assert (tmp_path / "compiled.json").read_bytes() == (tmp_path / "python.json").read_bytes()
    assert main(["certify", *args, str(tmp_path / "compiled.json")]) == 0


def test_the_search_s_searcher_answers_the_certificate(monkeypatch):
    """One search: the searcher that decided the game is the one asked (no new one is built)."""
    from compiler.solving.search.core import search_with_core

    model = open_model([str(ROOT / "problems" / "pg" / "tic_5x5_torus.pg")])
    found = search_with_core(model, core="compiled", keep=True)
    assert isinstance(found.solver, CorePgLeafSearch)
    before = found.solver.positions

    def no_new_searcher(*args, **kwargs):
        raise AssertionError("a second searcher was built")

    monkeypatch.setattr(CorePgLeafSearch, "__init__", no_new_searcher)
    certificate = build_certificate(model, found.black_wins, searched=found.solver)
    accepted(model, certificate)
    assert found.solver.positions >= before


@pytest.mark.parametrize("path", [ROOT / "problems" / "pg" / "tic_5x5_torus.pg", ROOT / "problems" / "pg" / "tippy_5x5.pg"],
                         ids=lambda p: p.name)
def test_a_tiny_pg_table_replaces_and_writes_the_same_file(path):
    model = open_model([str(path)])
    wins = verdict_of(model)
    searcher = CorePgLeafSearch(model.pg, table_mb=0.002)
    oracle = positional_oracle(model, 1 << 20, searcher)
    tiny = build_certificate(model, wins, oracle=oracle)
    assert searcher.totals()["replacements"] > 0
    assert text(tiny) == text(build_certificate(model, wins, core="python"))
    accepted(model, tiny)


def test_a_tiny_bddl_table_replaces_and_writes_the_same_file():
    model = open_model([str(ROOT / "domains" / "breakthrough.bddl"), str(ROOT / "problems" / "breakthrough" / "2x5_d17.bddl")])
    searcher = CoreLeafSearch(model.rules.game, race_patterns=True, table_mb=0.002)
    tiny = build_certificate(model, False, oracle=bddl_oracle(model, 1 << 20, searcher))
    assert searcher.totals()["replacements"] > 0
    assert text(tiny) == text(build_certificate(model, False, core="python"))
    accepted(model, tiny)


def test_max_memory_bounds_the_core_s_table():
    """The oracle's share of --max-memory bounds the core's table (which replaces past it): half
    of it, the rest for the carriers the positional solver keeps beside."""
    from compiler.certificates.oracles import core_table_mb

    model = open_model([str(ROOT / "problems" / "pg" / "tippy_5x5.pg")])
    share = 8 << 20
    searcher = CorePgLeafSearch(model.pg, core_table_mb(share))
    searcher.decide(model.pg.mask(model.pg.black_initials), model.pg.mask(model.pg.white_initials))
    assert 0 < searcher.totals()["table_bound_bytes"] <= share / 2


# -- the checker judges: a core that lies is caught ----------------------------------------------


def test_a_lying_core_pg_oracle_makes_a_certificate_the_checker_refuses():
    """The core's own moves, but White's refutations replaced by the last claim in its order:
    the file names moves the solver never proved, and the checker refuses it."""
    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")])
    assert not verdict_of(model)
    searcher = CorePgLeafSearch(model.pg)
    honest = positional_oracle(model, 1 << 24, searcher)

    def lying_move(position, black_wins):
        if black_wins:
            return honest.own_move(position, True)
        n = len(model.pg.cells)
        open_cells = [c for c in range(n) if not (position.black | position.white) >> c & 1]
        if not open_cells:
            return None
        from bddl.rules import Position

        return Position(position.black, position.white | 1 << open_cells[-1], position.ply + 1)

    liar = Oracle("positional solver", honest.black_wins, lying_move)
    certificate = build_certificate(model, False, oracle=liar, pairings=False)  # the named moves are taken unasked
    verdict = check(model.rules, json.loads(text(certificate)), file_hashes(model.paths), model.checker_game())
    assert not verdict.valid


def test_a_wrong_core_verdict_never_gives_an_accepted_certificate():
    """A BDDL core searcher that says Black wins everywhere past the first move: the rules' first
    moves are taken as winning, and either the builder runs out of moves at the horizon (where
    the rules, not the oracle, say who won) or the checker refuses the file."""
    from compiler.certificates.produce import StrategyNotFound

    model = open_model([str(ROOT / "domains" / "connect.bddl"), str(ROOT / "problems" / "connect" / "connect3_4x4_d9.bddl")])
    honest = bddl_oracle(model, 1 << 24, core="compiled")
    liar = Oracle(honest.name, lambda position: True if position.ply >= 2 else honest.black_wins(position))
    try:
        certificate = build_certificate(model, True, oracle=liar)
    except StrategyNotFound:
        return
    verdict = check(model.rules, json.loads(text(certificate)), file_hashes(model.paths), model.checker_game())
    assert not verdict.valid, "the checker must refuse a strategy built on wrong values"


# -- the command line ------------------------------------------------------------------------------


def test_solve_writes_the_core_s_certificate_by_default(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    game = ["domains/positional.bddl", "problems/httt/tic_3x3_d9.bddl"]
    main(["solve", *game, "--engine", "search", "--certificate", str(tmp_path / "solve.json")])
    main(["search", *game, "--core", "python", "--certificate", str(tmp_path / "python.json")])
    assert (tmp_path / "solve.json").read_bytes() == (tmp_path / "python.json").read_bytes()
    assert main(["certify", *game, str(tmp_path / "solve.json")]) == 0
