"""The compiled core's BDDL minimax (bddl/engines/compiled: bddl_spec.py, src/bddlgame.hpp,
src/bddlcore.cpp) against its Python reference, bddl.engines.minimax.search: the same tree in the
same order, so on every game the verdict, Black's first move and the positions counted are equal
(the table evicts nothing at these sizes; where it must, the verdicts still are).

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import ROOT
from helpers.corpus import instances, needs_corpus
from helpers.strategies import game as random_game
from helpers.suite import manifest
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import Game, load_model
from bddl.engines import compiled, minimax
from bddl.engines.compiled.bddl_spec import _condition, _grounder, flatten_bddl
from bddl.engines.minimax import SearchBudgetExceeded

needs_core = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
pytestmark = needs_core

# the Python minimax expands about 15,000 positions a second: each case stays under 2 s
BUDGET = 20_000


def _answer(search, game: Game, depth: int | None, budget: int):
    """(verdict, first move, positions), or ("budget", positions) where the budget ran out."""
    try:
        found = search(game, depth, budget)
    except SearchBudgetExceeded as exc:
        return ("budget", exc.positions)
    return (found.black_wins, found.first_move, found.positions)


def _both(game: Game, depth: int | None = None, budget: int = BUDGET):
    python = _answer(lambda g, d, n: minimax.search(g, d, max_positions=n), game, depth, budget)
    core = _answer(lambda g, d, n: compiled.solve_bddl(g, d, max_positions=n), game, depth, budget)
    return python, core


def _game(domain, problem) -> Game:
    model = load_model(domain, problem)
    return Game(model.domain, model.problem)


SUITE = manifest()


@pytest.mark.parametrize("case", SUITE, ids=lambda c: c.file)
def test_suite(case):
    """Every suite problem: the same answer and count as the Python minimax, or the budget spent
    at the same position (the same tree, in the same order)."""
    python, core = _both(_game(case.domain, case.problem))
    assert core == python
    if python[0] != "budget":
        assert python[0] == case.black_wins


@needs_corpus
@pytest.mark.parametrize("case", instances(), ids=lambda c: c.id)
def test_corpus(case):
    python, core = _both(_game(case.domain, case.problem))
    assert core == python
    if python[0] != "budget" and case.black_wins is not None:
        assert python[0] == case.black_wins


LARGE_BUDGET = 300_000


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in SUITE if c.engine == "minimax"] + instances(), ids=lambda c: c.id)
def test_larger_searches(case):
    """The suite's minimax entries and the corpus within 300,000 positions (about 20 s each in
    Python at most): the searches `test_suite` and `test_corpus` cut short."""
    python, core = _both(_game(case.domain, case.problem), None, LARGE_BUDGET)
    assert core == python
    if python[0] != "budget" and case.black_wins is not None:
        assert python[0] == case.black_wins


@settings(max_examples=300, deadline=None)
@given(random_game(), st.integers(0, 7))
def test_random_games(pair, depth):
    """Random models (negated atoms, several outcomes per move, absolute and extreme
    coordinates, either side first) at random depths."""
    domain, problem = pair
    python, core = _both(Game(domain, problem), depth, 5_000)
    assert core == python


@settings(max_examples=300, deadline=None)
@given(random_game())
def test_grounding_shortcut(pair):
    """bddl_spec's grounder (a condition's cells ground once where its coordinates are, per axis,
    all relative or all fixed) gives `_condition`'s pairs, in its order, at every position."""
    domain, problem = pair
    game = Game(domain, problem)
    g = game.geometry
    for rules in (game.black, game.white):
        conditions = [action.precondition.atoms for action in rules.actions] + [goal.atoms for goal in rules.goals]
        for atoms in conditions:
            ground = _grounder(game, atoms)
            for p in range(g.cells):
                pos = g.position(p)
                try:
                    expected = _condition(game, atoms, pos)
                except ValueError:
                    with pytest.raises(ValueError):
                        ground(pos)
                    continue
                assert ground(pos) == expected


@settings(max_examples=60, deadline=None)
@given(random_game(max_width=14, max_height=12, max_depth=3), st.integers(1, 3))
def test_random_games_on_wide_boards(pair, depth):
    """Boards of up to 168 cells: the ground masks over 1, 2 or 3 words."""
    domain, problem = pair
    python, core = _both(Game(domain, problem), depth, 5_000)
    assert core == python


def _knowledge(black_to_move: bool, b: int, w: int, r: int) -> bool | None:
    """An oracle that knows nothing of the game: a verdict on about one board in five, the same
    for both engines (knowledge need not be sound for the two to walk the same tree)."""
    mixed = (b * 0x9E3779B97F4A7C15 ^ w * 0xC2B2AE3D27D4EB4F ^ r * 0x165667B19E3779F9 ^ black_to_move) % 10
    return None if mixed > 1 else bool(mixed)


def _python_with_knowledge(game: Game, depth: int, knowledge, budget: int):
    """`minimax.search`'s question by a Minimax that asks `knowledge`: (verdict, first move,
    positions, knowledge hits)."""
    black, white = minimax.game_sides(game)
    engine = minimax.Minimax(black, white, budget, knowledge=knowledge)
    first = None
    if game.black_first:
        first = minimax.first_winning_move(game, lambda s: engine.black_wins(False, s.black, s.white, depth - 1))
        wins = first is not None
    else:
        wins = engine.black_wins(False, game.initial.black, game.initial.white, depth)
    return wins, first, engine.positions, engine.knowledge_hits


@pytest.mark.parametrize("domain, problem", [("breakthrough", "2x6_d15"), ("breakthrough", "second_3x5_d12"),
                                             ("domineering", "4x4_d8"), ("connect", "connect3_5x4_d9")])
def test_the_knowledge_hook(domain, problem):
    """A knowledge asked before a position is counted (`BddlKnowledge`; here a Python callable
    through the binding): the same verdicts, first move, positions and hits as `Minimax`'s."""
    from bddl.engines.compiled import _core

    game = _game(ROOT / "domains" / f"{domain}.bddl", ROOT / "problems" / domain / f"{problem}.bddl")
    depth = game.problem.depth
    python = _python_with_knowledge(game, depth, _knowledge, 1_000_000)
    report = _core.solve_bddl_flat(flatten_bddl(game), depth, 1_000_000, 1 << 24, knowledge=_knowledge)
    first = None if report["first_move"] is None else game.moves(game.initial, "black")[report["first_move"]]
    assert (report["black_wins"], first, report["positions"], report["knowledge_hits"]) == python
    assert python[3] > 0


def test_the_knowledge_hook_on_wide_boards():
    """The hook reads boards of 2, 3 and 6 words whole."""
    from bddl.engines.compiled import _core

    base = _game(ROOT / "domains" / "domineering.bddl", ROOT / "problems" / "domineering" / "4x4_d8.bddl")
    for width, height in ((9, 8), (13, 13), (20, 19)):
        game = Game(base.domain, replace(base.problem, width=width, height=height))
        python = _python_with_knowledge(game, 3, _knowledge, 1_000_000)
        report = _core.solve_bddl_flat(flatten_bddl(game), 3, 1_000_000, 1 << 24, knowledge=_knowledge)
        first = None if report["first_move"] is None else game.moves(game.initial, "black")[report["first_move"]]
        assert (report["black_wins"], first, report["positions"], report["knowledge_hits"]) == python


def test_a_knowledge_that_raises_stops_the_search():
    from bddl.engines.compiled import _core

    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")

    def broken(black_to_move, b, w, r):
        raise RuntimeError("the knowledge broke")

    with pytest.raises(RuntimeError, match="the knowledge broke"):
        _core.solve_bddl_flat(flatten_bddl(game), 15, 1_000_000, 1 << 24, knowledge=broken)


def test_at_every_depth_of_a_suite_game():
    """Breakthrough 2x6 from 0 to 15 plies: the answer turns at its critical depth, on both cores."""
    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    verdicts = []
    for depth in range(16):
        python, core = _both(game, depth)
        assert core == python
        verdicts.append(python[0])
    assert verdicts[-1] is True and verdicts[0] is False


def test_white_first():
    """White moving first: the question from the initial position with White to move, no first move."""
    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    second = Game(game.domain, replace(game.problem, black_first=False))
    for depth in (5, 9, 14):
        python, core = _both(second, depth)
        assert core == python and (python[0] == "budget" or python[1] is None)


def test_a_tiny_table_still_decides():
    """A table of a few kilobytes must replace entries (positions are counted again), and the
    verdicts and first moves stay those of the Python minimax."""
    cases = [("breakthrough", "2x6_d15"), ("breakthrough", "3x4_d19"), ("knightthrough", "3x5_d7"), ("domineering", "4x4_d8")]
    replaced = 0
    for domain, problem in cases:
        game = _game(ROOT / "domains" / f"{domain}.bddl", ROOT / "problems" / domain / f"{problem}.bddl")
        python = minimax.search(game, max_positions=2_000_000)
        small = compiled.solve_bddl(game, table_mb=0.004, max_positions=50_000_000)
        assert (small.black_wins, small.first_move) == (python.black_wins, python.first_move)
        assert small.positions >= python.positions
        replaced += small.engine.replacements
    assert replaced > 0


def test_a_search_is_deterministic():
    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "3x4_d19.bddl")
    runs = {(r.black_wins, r.first_move, r.positions, r.engine.replacements)
            for r in (compiled.solve_bddl(game, table_mb=0.01) for _ in range(3))}
    assert len(runs) == 1


def test_the_budget():
    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    with pytest.raises(SearchBudgetExceeded) as info:
        compiled.solve_bddl(game, max_positions=100)
    assert info.value.positions == 101
    assert compiled.solve_bddl(game, max_positions=9963).positions == 9963  # the whole search, exactly


def test_refusals():
    """A board past the core's bitboards, or a depth past its recursion, is refused with the reason."""
    big = _game(ROOT / "domains" / "domineering.bddl", ROOT / "problems" / "domineering" / "4x4_d8.bddl")
    wide = Game(big.domain, replace(big.problem, width=20, height=20))
    assert "400 cells" in compiled.bddl_unsupported(wide)
    with pytest.raises(ValueError, match="at most 384"):
        compiled.solve_bddl(wide)
    assert "at most 4096 plies" in compiled.bddl_unsupported(big, 5000)
    assert compiled.bddl_unsupported(big, 4096) is None
    from bddl.engines.compiled import _core

    assert _core.MAX_BDDL_DEPTH == compiled.MAX_BDDL_DEPTH


def test_a_wide_board_uses_more_words():
    """Boards of 65-384 cells take 2, 3 or 6 words; the answers are those of the Python minimax."""
    base = _game(ROOT / "domains" / "domineering.bddl", ROOT / "problems" / "domineering" / "4x4_d8.bddl")
    for width, height in ((9, 8), (13, 13), (20, 19)):
        game = Game(base.domain, replace(base.problem, width=width, height=height))
        for depth in (1, 2, 3):
            python, core = _both(game, depth)
            assert core == python


def test_the_core_checks_the_spec():
    """Bad input never reaches the search: the core's own check refuses it."""
    from bddl.engines.compiled import _core

    game = _game(ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    flat = flatten_bddl(game)
    bad = {**flat, "black": {**flat["black"], "pre_cells": [99] + flat["black"]["pre_cells"][1:]}}
    with pytest.raises(ValueError, match="off the board"):
        _core.solve_bddl_flat(bad, 5, 1000, 1 << 20)
    bad = {**flat, "white_initials": flat["black_initials"][:1] + flat["white_initials"]}
    with pytest.raises(ValueError, match="two initial stones"):
        _core.solve_bddl_flat(bad, 5, 1000, 1 << 20)
    bad = {**flat, "black": {**flat["black"], "out_offsets": flat["black"]["out_offsets"][:-1]}}
    with pytest.raises(ValueError, match="outcomes"):
        _core.solve_bddl_flat(bad, 5, 1000, 1 << 20)


def test_a_million_positions_fit_in_64_mb():
    """An entry up to 192 cells takes at most 56 bytes: the 7/8 of a 64 MB bound the table reaches
    holds a million of them."""
    from bddl.engines.compiled import _core

    for cells, size in ((64, 24), (128, 40), (192, 56), (384, 104)):
        assert _core.bddl_entry_bytes(cells) == size
    assert 64 * 2**20 * 7 // 8 // _core.bddl_entry_bytes(192) >= 1_000_000


# -- bddlc search --core --------------------------------------------------------------------------

MODEL = [str(ROOT / "domains" / "breakthrough.bddl"), str(ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")]


def _cli(capsys, *args):
    from compiler.cli import main

    try:
        code = main(["search", *MODEL, *args])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_both_cores_say_the_same(capsys):
    answers = []
    for core in ("compiled", "python"):
        code, out, err = _cli(capsys, "--core", core, "--json")
        assert code == 0 and err == ""
        answer = json.loads(out)
        answer.pop("seconds")
        answers.append(answer)
    assert answers[0] == answers[1]
    assert answers[0]["positions"] == 9963 and answers[0]["first_move"]["text"] == "forward 1 5"


def test_cli_refuses_what_the_core_cannot_do(capsys, tmp_path):
    code, _, err = _cli(capsys, "--core", "compiled", "--algorithm", "depth-first")
    assert code == 2 and "not --algorithm depth-first" in err
    # (df-pn on the positional rules is the core's too now: tests/pg/test_compiled_pg_pns.py)
    runs = [_cli(capsys, "--core", core, "--positional-rules", "--algorithm", "pns", "--json") for core in ("compiled", "python")]
    assert [code for code, _, _ in runs] == [0, 0]
    assert [json.loads(out)["positions"] for _, out, _ in runs] == [json.loads(runs[1][1])["positions"]] * 2
    code, _, err = _cli(capsys, "--core", "compiled", "--algorithm", "ppn2", "--leaf-jobs", "mixed")
    assert code == 2 and "--leaf-jobs search" in err
    # a certificate is the core's too now (tests/test_core_certificates.py holds it to the Python one's bytes)
    code, _, err = _cli(capsys, "--core", "compiled", "--certificate", str(tmp_path / "c.json"))
    assert code == 0 and json.loads((tmp_path / "c.json").read_text())["produced_by"] == "explicit search"
    code, _, err = _cli(capsys, "--core", "compiled", "--max-positions", "100", "--json")
    assert code == 3 and json.loads(_cli(capsys, "--core", "python", "--max-positions", "100", "--json")[1])["positions"] == 101


def test_the_default_core_is_compiled(capsys, monkeypatch):
    """Without --core, the plain minimax on a BDDL model is the compiled core's."""
    called = []
    real = compiled.solve_bddl
    monkeypatch.setattr(compiled, "solve_bddl", lambda *a, **k: called.append(1) or real(*a, **k))
    code, out, _ = _cli(capsys, "--json")
    assert code == 0 and called and json.loads(out)["positions"] == 9963
    called.clear()
    code, out, _ = _cli(capsys, "--json", "--core", "python")
    assert code == 0 and not called and json.loads(out)["positions"] == 9963
