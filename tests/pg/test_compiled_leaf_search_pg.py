"""PPN²'s search leaf jobs on `.pg` games in the compiled core (bddl/engines/compiled/leaf.py's
CorePgLeafSearch, src/pgcore.cpp's PgSearcher) against their Python reference,
bddl.engines.leaf_search.pg_leaf_search: the positional solver's engine asked leaf after leaf,
its table (and its carriers) kept between questions.

The core's searcher is `solve_full`'s search (the same tree in the same order as the Python
solver's, tests/pg/test_compiled_knowledge.py) asked from any time point, so asked the same
sequence of questions it gives the same verdicts and counts the same positions per question,
budgets spent included, wherever its table replaced nothing and no carrier was dropped (checked
in each case).  The symmetries switch on once SYMMETRY_AFTER positions were expanded over all
questions, in both engines, so the later questions meet canonical keys in both.  With a tiny
table the core replaces entries (the Python table never forgets below LEAF_CAPACITY): the search
order is the same, the table is not, so only the verdicts are compared there.

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_random import random_animal_position, random_game

from bddl.engines import compiled
from bddl.engines.compiled.leaf import CorePgLeafSearch
from bddl.engines.leaf_search import LeafSearch, pg_leaf_search
from bddl.engines.pn_job import pg_root, pg_setup
from bddl.pg.reader import load_pg

ROOT = Path(__file__).resolve().parents[2]
SUITE = sorted((ROOT / "problems").rglob("*.pg"))
HEIN = ROOT.parent / "shared" / "corpus" / "pg" / "hein"

pytestmark = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")


def _leaves(game, count: int, seed: int) -> list[tuple[bool, int, int, int]]:
    """Leaf questions as PPN²'s tree asks them: positions a few plies below the root along the
    tree's own successors (`pg_setup`), with the plies left; repeats and ancestors included."""
    root = pg_root(game)
    if isinstance(root, bool):
        return []
    setup, rules = pg_setup(game)
    sides = {True: setup.black, False: setup.white}
    rng = random.Random(seed)
    leaves = []
    for _ in range(count):
        mover, b, w, r = root
        for _ in range(rng.randrange(0, 5)):
            children = sides[mover].successors(b, w)
            if r <= 1 or not children:
                break
            b, w = rng.choice(children)
            r -= 1
            mover = rules.turns[rules.depth - r]
        leaves.append((mover, b, w, r))
    return leaves


def _both(game, leaves, budgets, table_mb: float = 64):
    python: LeafSearch = pg_leaf_search(game)
    core = CorePgLeafSearch(game, table_mb=table_mb)
    answers = [(python.verdict(leaf, n), core.verdict(leaf, n)) for leaf, n in zip(leaves, budgets)]
    return [p for p, _ in answers], [c for _, c in answers], core


def _same(game, count: int = 12, budget: int = 2_000, seed: int = 0):
    leaves = _leaves(game, count, seed)
    budgets = [budget * (1 + k % 3) for k in range(len(leaves))]
    python, core, searcher = _both(game, leaves, budgets)
    totals = searcher.totals()
    assert totals["replacements"] == 0 and totals["carriers_dropped"] == 0
    assert core == python
    return core, totals


@pytest.mark.parametrize("path", SUITE, ids=lambda p: str(p.relative_to(ROOT)))
def test_suite_leaf_sequences(path):
    _same(load_pg(path), seed=len(path.name))


@pytest.mark.skipif(not HEIN.is_dir(), reason=f"no corpus at {HEIN}")
@pytest.mark.parametrize("name", ["hein_02_5x5-13", "hein_05_6x6-13", "hein_08_5x5-11", "hein_20_6x6-13"])
def test_hein_leaf_sequences(name):
    """Hein's puzzles: the symmetries switch on within the sequence (SYMMETRY_AFTER positions)."""
    _, totals = _same(load_pg(HEIN / f"{name}.pg"), count=15, budget=4_000, seed=11)
    assert totals["symmetries_on"]


def test_budgets_that_run_out():
    """Budgets of 1 to 120 positions: many questions run out at the same count in both, and what
    was decided before each stop serves the later questions alike."""
    game = load_pg(ROOT / "problems" / "pg" / "tippy_5x5.pg")
    leaves = _leaves(game, 40, 3)
    budgets = [1 + (37 * k) % 120 for k in range(len(leaves))]
    python, core, _ = _both(game, leaves, budgets)
    assert core == python
    assert sum(v is None for v, _ in core) > len(core) // 4


def test_a_tiny_table_replaces_and_keeps_the_verdicts():
    game = load_pg(ROOT / "problems" / "pg" / "tippy_5x5.pg")
    leaves = _leaves(game, 15, 5)
    python, core, searcher = _both(game, leaves, [10_000_000] * len(leaves), table_mb=0.01)
    assert searcher.totals()["replacements"] > 0
    assert [v for v, _ in core] == [v for v, _ in python]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_games(seed):
    """Random hypergraphs, symmetric grids, Hex-like border games, (p,q) turns."""
    _same(random_game(random.Random(seed)), count=6, budget=500, seed=seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_animal_positions(seed):
    """Animal positions with few plies: White's pairings within the depth."""
    _same(random_animal_position(random.Random(seed)), count=6, budget=500, seed=seed)


def test_a_leaf_off_the_turns_is_refused():
    game = load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")
    core = CorePgLeafSearch(game, table_mb=1)
    with pytest.raises(ValueError, match="does not fit the game's turns"):
        core.verdict((False, 0, 0, game.depth), 10)  # Black moves first
    with pytest.raises(ValueError):
        core.verdict((True, 1 << 64, 0, game.depth), 10)  # off the board's words, and its turns


def test_the_recipe_uses_the_core_unless_told_not_to():
    from compiler.languages.pg_model import PgRecipe

    game = load_pg(ROOT / "problems" / "pg" / "tippy_5x5.pg")
    assert isinstance(PgRecipe(game).leaf_search(), CorePgLeafSearch)
    assert isinstance(PgRecipe(game, core="python").leaf_search(), LeafSearch)


def _ppn2(capsys, path: Path, core: str) -> dict:
    from compiler.cli import main

    code = main(["search", str(path), "--algorithm", "ppn2", "--workers", "2", "--core", core, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_ppn2_end_to_end_with_both_cores(capsys):
    """`bddlc search --algorithm ppn2` with a local 2-worker cluster on a .pg game: the same
    verdict with the leaf jobs in the core and in Python."""
    path = ROOT / "problems" / "pg" / "tippy_5x5.pg"
    assert _ppn2(capsys, path, "compiled")["black_wins"] == _ppn2(capsys, path, "python")["black_wins"]
