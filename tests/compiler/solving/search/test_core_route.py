"""The compiled core beneath the search route: `search_model` (what `bddlc search`, the race's search
member, depth, validate, play and regress ask) runs the core's positional solver on a `.pg` game
wherever the core is built, and answers what the Python solver answers: the verdict, the first move,
the positions and the notes, on every suite game and a sample of the corpus's GTTT games."""

from __future__ import annotations

import glob

import pytest
from conftest import ROOT

from bddl.engines import compiled
from compiler.model import open_model
from compiler.solving.routes import answer, search_plan
from compiler.solving.search.outcome import search_model

needs_core = pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built")
SUITE = sorted(glob.glob(str(ROOT / "problems" / "**" / "*.pg"), recursive=True))
GTTT = sorted(glob.glob(str(ROOT.parent / "shared" / "corpus" / "pg" / "gttt-*" / "*.pg")))[::6]


def outcome(found) -> tuple:
    return found.black_wins, found.positions, None if found.first_move is None else found.first_move.text, found.notes


@needs_core
@pytest.mark.parametrize("path", SUITE + GTTT, ids=lambda p: p.split("/pg/")[-1])
def test_the_search_route_by_the_core_answers_as_the_python_solver(path, monkeypatch):
    model = open_model([path])
    if compiled.unsupported(model.pg) is not None:
        pytest.skip("beyond the core's bitboards")
    by_python = search_model(model, core="python", max_positions=2_000_000)
    calls = []
    real = compiled.solve_full
    monkeypatch.setattr(compiled, "solve_full", lambda *a, **k: calls.append(1) or real(*a, **k))
    by_default = search_model(model, max_positions=2_000_000)
    assert calls, "the search route did not ask the compiled core"
    assert outcome(by_default) == outcome(by_python)


@needs_core
def test_the_race_answers_by_the_core_and_without_it_by_python(monkeypatch):
    """`solve`'s search member: the same answer with the core and without it (an install without a
    compiler), the member named the same."""
    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")])
    with_core = answer(model, engine="search").result
    monkeypatch.setattr(compiled, "_core", None)
    without = answer(model, engine="search").result
    assert (with_core.black_wins, with_core.positions, with_core.answered_by) == \
        (without.black_wins, without.positions, without.answered_by) == (False, 72, search_plan(model)[0])
