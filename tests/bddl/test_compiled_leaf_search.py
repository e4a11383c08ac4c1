"""PPN²'s search leaf jobs in the compiled core (bddl/engines/compiled/leaf.py, src/bddlcore.cpp's
BddlSearcher) against their Python reference, bddl.engines.leaf_search.LeafSearch: one engine
asked question after question, its table kept between them.

The core's searcher is the Python `Minimax` (with the race patterns as knowledge where on) in the
same order on the same kind of table, so asked the same sequence of leaf questions it gives the
same verdicts and counts the same positions per question, budgets spent included, wherever its
table replaced nothing (`totals()["replacements"]` 0; every sequence here stays far below the
Python LeafSearch's LEAF_CAPACITY, so the Python table never restarts either).  With a tiny
table the core replaces entries (the Python table never forgets within its capacity), so there
the search order is the same but the table is not: only the verdicts are compared.

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from conftest import ROOT
from helpers.strategies import game as random_game
from helpers.suite import manifest
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import Game, load_model
from bddl.ast import Absolute, Atom
from bddl.engines import compiled
from bddl.engines.compiled.leaf import CoreLeafSearch
from bddl.engines.leaf_search import LeafSearch, bddl_leaf_search
from bddl.engines.minimax import game_sides
from bddl.engines.race import race_knowledge

needs_core = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
pytestmark = needs_core

BREAKTHROUGH = ROOT / "domains" / "breakthrough.bddl"


def _game(domain, problem) -> Game:
    model = load_model(domain, problem)
    return Game(model.domain, model.problem)


def _leaves(game: Game, depth: int, count: int, seed: int) -> list[tuple[bool, int, int, int]]:
    """Leaf questions as PPN²'s tree asks them: positions a few random plies below the root
    (the sides alternating, as the tree's), with the plies left; repeats and ancestors of later
    leaves included, as a worker meets them."""
    rng = random.Random(seed)
    sides = dict(zip((True, False), game_sides(game)))
    black_to_move = game.problem.black_first
    root = (black_to_move, game.initial.black, game.initial.white, depth)
    leaves = []
    for _ in range(count):
        mover, b, w, r = root
        for _ in range(rng.randrange(0, 6)):
            children = sides[mover].successors(b, w)
            if r <= 1 or not children or any(sides[mover].won(*c) for c in children):
                break
            b, w = rng.choice(children)
            mover, r = not mover, r - 1
        leaves.append((mover, b, w, r))
    return leaves


def _answers(search, leaves, budgets) -> list[tuple[bool | None, int]]:
    return [search.verdict(leaf, budget) for leaf, budget in zip(leaves, budgets)]


def _both(game: Game, leaves, budgets, race: bool, table_mb: float = 64):
    knowledge = race_knowledge(game) if race else None
    python: LeafSearch = bddl_leaf_search(game, knowledge)
    core = CoreLeafSearch(game, race_patterns=race, table_mb=table_mb)
    return _answers(python, leaves, budgets), _answers(core, leaves, budgets), core


def _same(game: Game, depth: int, count: int = 12, budget: int = 20_000, race: bool = False, seed: int = 0):
    leaves = _leaves(game, depth, count, seed)
    budgets = [budget * (1 + k % 3) for k in range(len(leaves))]
    python, core, searcher = _both(game, leaves, budgets, race)
    assert searcher.totals()["replacements"] == 0
    assert core == python
    return python


# -- the suite ----------------------------------------------------------------------------------

SUITE = [case for case in manifest() if case.domain.stem in ("breakthrough", "knightthrough", "connect")
         or "hex" in str(case.problem)]


@pytest.mark.parametrize("case", SUITE, ids=lambda c: c.file)
def test_suite_leaf_sequences(case):
    """Breakthrough, Knightthrough, Connect and Hex problems of the suite: sequences of leaf
    questions, with the race patterns where the game is Breakthrough-like; a root question
    decided within the budget gives the suite's answer."""
    game = _game(case.domain, case.problem)
    race = race_knowledge(game) is not None
    answers = _same(game, game.problem.depth, count=10, budget=5_000, race=race, seed=len(case.file))
    root = CoreLeafSearch(game, race_patterns=race, table_mb=16)
    wins, _ = root.verdict((game.problem.black_first, game.initial.black, game.initial.white, game.problem.depth), 20_000)
    assert wins is None or wins == case.black_wins
    assert answers  # the sequence was asked


@pytest.mark.parametrize("problem", ["2x6_d15", "3x4_d19", "second_3x5_d12", "second_4x4_d14", "second_3x5_d18",
                                     "second_4x5_d41"])
@pytest.mark.parametrize("race", [True, False])
def test_breakthrough_sequences(problem, race):
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / f"{problem}.bddl")
    answers = _same(game, game.problem.depth, count=20, budget=8_000, race=race, seed=7)
    assert any(v is not None for v, _ in answers)


def test_budgets_that_run_out():
    """Budgets of 1 to 200 positions: most questions run out (None), at the same count in both, and
    what was searched before the stop is kept for the next questions alike."""
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_4x5_d41.bddl")
    leaves = _leaves(game, game.problem.depth, 40, 3)
    budgets = [1 + (37 * k) % 200 for k in range(len(leaves))]
    for race in (False, True):
        python, core, _ = _both(game, leaves, budgets, race)
        assert core == python
        assert sum(v is None for v, _ in core) > len(core) // 4
        assert all(n <= budget + 1 for (_, n), budget in zip(core, budgets))


def test_the_table_is_kept_between_questions():
    """The same question twice: the second is answered from the table (no position counted)."""
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")
    leaf = (game.problem.black_first, game.initial.black, game.initial.white, game.problem.depth)
    core = CoreLeafSearch(game)
    first = core.verdict(leaf, 1_000_000)
    assert first[0] is not None and first[1] > 0
    assert core.verdict(leaf, 1_000_000) == (first[0], 0)
    assert core.totals()["positions"] == first[1]


def test_a_tiny_table_replaces_and_keeps_the_verdicts():
    """A table of a few kilobytes replaces entries (the Python table does not, so the counts may
    differ): the verdicts of decided questions stay the Python engine's."""
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")
    leaves = _leaves(game, game.problem.depth, 15, 5)
    budgets = [10_000_000] * len(leaves)
    python, core, searcher = _both(game, leaves, budgets, True, table_mb=0.01)
    assert searcher.totals()["replacements"] > 0
    assert searcher.totals()["table_bytes"] <= 0.01 * 1024 * 1024
    assert [v for v, _ in core] == [v for v, _ in python]


@settings(max_examples=150, deadline=None)
@given(random_game(), st.integers(1, 9), st.integers(0, 1000))
def test_random_games(pair, depth, seed):
    """Random models (negated atoms, several outcomes per move, either side first) and random
    leaf sequences on them."""
    domain, problem = pair
    _same(Game(domain, problem), depth, count=6, budget=2_000, seed=seed)


@st.composite
def _breakthrough_positions(draw):
    """Breakthrough on boards of 2x4 to 5x6 with random pawns, either side first, random depths."""
    width, height = draw(st.integers(2, 5)), draw(st.integers(4, 6))
    base = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "3x4_d19.bddl")
    owner = draw(st.lists(st.sampled_from((0, 0, 1, 2)), min_size=width * height, max_size=width * height))
    init = []
    for c, o in enumerate(owner):
        x, y = c % width + 1, c // width + 1
        if o and not (o == 1 and y == 1) and not (o == 2 and y == height):  # no goal held at the start
            init.append(Atom("black" if o == 1 else "white", Absolute(x), Absolute(y)))
    problem = replace(base.problem, width=width, height=height, init=tuple(init), black_first=draw(st.booleans()))
    return Game(base.domain, problem), draw(st.integers(1, 25))


@settings(max_examples=100, deadline=None)
@given(_breakthrough_positions(), st.booleans(), st.integers(0, 1000))
def test_random_breakthrough_positions(case, race, seed):
    game, depth = case
    _same(game, depth, count=6, budget=3_000, race=race, seed=seed)


def test_bad_questions_are_refused():
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")
    core = CoreLeafSearch(game, table_mb=1)
    with pytest.raises(ValueError):
        core.verdict((True, 1 << 64, 0, 5), 10)  # off a one-word board
    with pytest.raises(ValueError):
        core.verdict((True, 0, 0, compiled.MAX_BDDL_DEPTH + 1), 10)
    assert core.verdict((True, game.initial.black, game.initial.white, 0), 10) == (False, 0)


# -- the leaf jobs' engine, and PPN² end to end -----------------------------------------------


def test_the_recipe_uses_the_core_unless_told_not_to():
    from compiler.languages.bddl_model import BddlRecipe

    model = load_model(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")
    assert isinstance(BddlRecipe(model.domain, model.problem, True).leaf_search(), CoreLeafSearch)
    assert isinstance(BddlRecipe(model.domain, model.problem, True, core="python").leaf_search(), LeafSearch)


def _ppn2(capsys, core: str) -> dict:
    from compiler.cli import main

    code = main(["search", str(BREAKTHROUGH), str(ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl"),
                 "--algorithm", "ppn2", "--workers", "2", "--core", core, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_ppn2_end_to_end_with_both_cores(capsys):
    """`bddlc search --algorithm ppn2` on a small Breakthrough problem with a local 2-worker
    cluster: the same verdict by leaf jobs in the core and in Python."""
    compiled_run, python_run = _ppn2(capsys, "compiled"), _ppn2(capsys, "python")
    assert compiled_run["black_wins"] == python_run["black_wins"]


def test_the_core_choice_for_ppn2(capsys):
    """--core compiled is accepted with ppn2 (its search leaf jobs), refused with QBF leaf jobs
    (nothing would run in the core), on a BDDL model and on a .pg game."""
    from compiler.cli import main

    model = [str(BREAKTHROUGH), str(ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")]
    for argv, message in (([*model, "--leaf-jobs", "qbf"], "needs --leaf-jobs search"),
                          ([str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg"), "--leaf-jobs", "mixed"], "needs --leaf-jobs search")):
        with pytest.raises(SystemExit) as exc:
            main(["search", *argv, "--algorithm", "ppn2", "--workers", "1", "--core", "compiled"])
        assert exc.value.code == 2 and message in capsys.readouterr().err
