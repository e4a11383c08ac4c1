"""The compiled core's df-pn on BDDL games and its race patterns (bddl/engines/compiled: race_spec.py,
src/race.hpp, src/bddlpns.cpp) against their Python references, bddl.engines.pns.search_pns and
bddl.engines.race.RaceKnowledge: the same numbers, child order, leaf minimax and collections, so
on every game the verdict, Black's first move and the positions counted are equal, even where the
table collects (SmallTreeGC keeps the entries whose work is above the median, whatever the order).

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
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
from bddl.engines.compiled.race_spec import flatten_race
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.pns import search_pns
from bddl.engines.race import race_knowledge

needs_core = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
pytestmark = needs_core

# the Python df-pn expands about 15,000-25,000 positions a second: each case stays under a second
BUDGET = 10_000
BREAKTHROUGH = ROOT / "domains" / "breakthrough.bddl"


def _game(domain, problem) -> Game:
    model = load_model(domain, problem)
    return Game(model.domain, model.problem)


def _answer(search, game: Game, depth: int | None, budget: int):
    """(verdict, first move, positions), or ("budget", positions) where the budget ran out."""
    try:
        found = search(game, depth, budget)
    except SearchBudgetExceeded as exc:
        return ("budget", exc.positions)
    return (found.black_wins, found.first_move, found.positions)


def _both(game: Game, depth: int | None = None, budget: int = BUDGET, race: bool = False, **options):
    """The Python df-pn and the core's, with the same switches (`capacity`, `mobility`)."""
    knowledge = race_knowledge(game) if race else None

    def python(g, d, n):
        return search_pns(g, d, max_positions=n, knowledge=knowledge, **options)

    def core(g, d, n):
        return compiled.solve_bddl_pns(g, d, max_positions=n, race_patterns=race, **options)

    return _answer(python, game, depth, budget), _answer(core, game, depth, budget)


# -- the race patterns ------------------------------------------------------------------------


def _breakthrough(width: int, height: int, black_first: bool = True) -> Game:
    base = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "3x4_d19.bddl")
    # the pawns of the two home rows of each side, on this board
    init = tuple(Atom(side, Absolute(x), Absolute(y)) for x in range(1, width + 1)
                 for side, ys in (("white", (1, 2)), ("black", (height - 1, height))) for y in ys if height >= 4)
    return Game(base.domain, replace(base.problem, width=width, height=height, init=init, black_first=black_first))


@st.composite
def _positions(draw):
    """A Breakthrough board of 1x2 to 9x9 cells (one or two words) and positions on it: any two
    disjoint sets of pawns, either side to move, 1-30 plies left."""
    width, height = draw(st.integers(1, 9)), draw(st.integers(2, 9))
    cells = width * height
    positions = []
    for _ in range(draw(st.integers(1, 40))):
        owner = draw(st.lists(st.sampled_from((0, 0, 0, 1, 2)), min_size=cells, max_size=cells))
        b = sum(1 << c for c, o in enumerate(owner) if o == 1)
        w = sum(1 << c for c, o in enumerate(owner) if o == 2)
        positions.append((draw(st.booleans()), b, w, draw(st.integers(1, 30))))
    return width, height, positions


@settings(max_examples=200, deadline=None)
@given(_positions())
def test_the_race_verdicts_are_the_python_knowledges(case):
    """RaceKnowledge.__call__ and the core's verdict on random boards of several sizes, both
    movers, various plies left: equal, position by position."""
    from bddl.engines.compiled import _core

    width, height, positions = case
    game = _breakthrough(width, height)
    knowledge = race_knowledge(game)
    assert knowledge is not None
    expected = [knowledge(*p) for p in positions]
    assert _core.race_verdicts_flat(flatten_race(knowledge, width * height), width * height, positions) == expected


def test_the_race_verdicts_decide_real_positions():
    """Positions of real play on 4x5 and 5x5, where the patterns decide many: the same verdicts,
    and enough of them decided for the comparison to mean something."""
    import random

    from bddl.engines.compiled import _core

    for width, height in ((4, 5), (5, 5), (3, 7)):
        game = _breakthrough(width, height)
        knowledge = race_knowledge(game)
        rng = random.Random(f"{width}x{height}")
        positions = []
        for _ in range(300):
            state, black = game.initial, True
            for _ply in range(rng.randrange(1, 3 * width * height)):
                moves = game.moves(state, "black" if black else "white")
                if not moves or game.won(state, "white" if black else "black"):
                    break
                state, black = rng.choice(moves).state, not black
            positions.append((black, state.black, state.white, rng.randrange(1, 12)))
        expected = [knowledge(*p) for p in positions]
        assert _core.race_verdicts_flat(flatten_race(knowledge, width * height), width * height, positions) == expected
        assert sum(v is not None for v in expected) >= 30


def test_the_race_spec_is_checked():
    from bddl.engines.compiled import _core

    game = _breakthrough(4, 5)
    race = flatten_race(race_knowledge(game), 20)
    bad = {**race, "black": {**race["black"], "placement_cells": [25] + race["black"]["placement_cells"][1:]}}
    with pytest.raises(ValueError, match="off the board"):
        _core.race_verdicts_flat(bad, 20, [(True, 0, 0, 1)])
    with pytest.raises(ValueError, match="order tables"):
        _core.race_verdicts_flat({**race, "orders": race["orders"][:-1]}, 20, [(True, 0, 0, 1)])


# -- df-pn against search_pns ---------------------------------------------------------------------

SUITE = manifest()


@pytest.mark.parametrize("case", SUITE, ids=lambda c: c.file)
def test_suite(case):
    """Every suite problem: the same answer and count as the Python df-pn, or the budget spent at
    the same position; with the race patterns where the game is Breakthrough-like."""
    game = _game(case.domain, case.problem)
    python, core = _both(game, race=race_knowledge(game) is not None)
    assert core == python
    if python[0] != "budget":
        assert python[0] == case.black_wins


@pytest.mark.parametrize("problem", ["2x6_d15", "3x4_d19", "second_3x5_d12", "second_4x4_d14", "5x4_d31",
                                     "second_5x4_d31", "4x4_d25", "second_3x5_d18"])
@pytest.mark.parametrize("race", [True, False])
def test_breakthrough_with_and_without_race_patterns(problem, race):
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / f"{problem}.bddl")
    python, core = _both(game, race=race, budget=60_000)
    assert core == python


@pytest.mark.parametrize("problem", ["2x6_d15", "second_3x5_d12"])
def test_without_mobility_numbers(problem):
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / f"{problem}.bddl")
    for race in (True, False):
        python, core = _both(game, race=race, mobility=False)
        assert core == python


@settings(max_examples=300, deadline=None)
@given(random_game(), st.integers(0, 9))
def test_random_games(pair, depth):
    """Random models (negated atoms, several outcomes per move, absolute and extreme coordinates,
    either side first) at random depths: deeper than the leaf search's 5 plies, so df-pn's own
    frames run too."""
    domain, problem = pair
    python, core = _both(Game(domain, problem), depth, 5_000)
    assert core == python


@st.composite
def _breakthrough_games(draw):
    """Breakthrough on boards of 2x4 to 5x6 with random pawns on them, either side first, to
    random depths: the race patterns decide some positions, df-pn and the leaf minimax the rest."""
    width, height = draw(st.integers(2, 5)), draw(st.integers(4, 6))
    game = _breakthrough(width, height, draw(st.booleans()))
    cells = width * height
    owner = draw(st.lists(st.sampled_from((0, 0, 1, 2)), min_size=cells, max_size=cells))
    init = []
    for c, o in enumerate(owner):
        x, y = c % width + 1, c // width + 1
        if o and not (o == 1 and y == 1) and not (o == 2 and y == height):  # no goal held at the start
            init.append(Atom("black" if o == 1 else "white", Absolute(x), Absolute(y)))
    return Game(game.domain, replace(game.problem, init=tuple(init))), draw(st.integers(1, 25))


@settings(max_examples=150, deadline=None)
@given(_breakthrough_games(), st.booleans())
def test_random_breakthrough_positions(case, race):
    game, depth = case
    python, core = _both(game, depth, 5_000, race=race)
    assert core == python


def test_a_small_capacity_collects_alike():
    """A capacity of a few hundred entries: both engines collect (SmallTreeGC) many times, keep
    the same entries, and so count the same positions and give the right verdicts."""
    cases = [("breakthrough", "second_3x5_d12", True), ("breakthrough", "2x6_d15", False), ("breakthrough", "3x4_d19", True),
             ("knightthrough", "3x5_d7", False), ("domineering", "4x4_d8", False)]
    collected = 0
    for domain, problem, race in cases:
        game = _game(ROOT / "domains" / f"{domain}.bddl", ROOT / "problems" / domain / f"{problem}.bddl")
        knowledge = race_knowledge(game) if race else None
        python = search_pns(game, capacity=300, knowledge=knowledge, max_positions=2_000_000)
        core = compiled.solve_bddl_pns(game, capacity=300, race_patterns=race, max_positions=2_000_000)
        assert (core.black_wins, core.first_move, core.positions) == (python.black_wins, python.first_move, python.positions)
        assert core.engine.collections == python.engine.collections
        assert core.engine.forced_collections == 0
        assert core.black_wins == search_pns(game, knowledge=knowledge).black_wins
        collected += core.engine.collections
    assert collected > 20


def test_a_tiny_table_still_decides():
    """A table of a few kilobytes holds fewer entries than the capacity: it collects when full
    (forced), the positions then differ from the Python df-pn's, the verdicts and first moves not."""
    forced = 0
    for domain, problem in [("breakthrough", "2x6_d15"), ("breakthrough", "second_3x5_d12"), ("domineering", "4x4_d8")]:
        game = _game(ROOT / "domains" / f"{domain}.bddl", ROOT / "problems" / domain / f"{problem}.bddl")
        python = search_pns(game, max_positions=2_000_000)
        small = compiled.solve_bddl_pns(game, table_mb=0.05, max_positions=50_000_000)
        assert (small.black_wins, small.first_move) == (python.black_wins, python.first_move)
        assert small.engine.capacity < 2_000_000
        forced += small.engine.forced_collections + small.engine.collections
    assert forced > 0


def test_the_budget():
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    whole = search_pns(game).positions
    with pytest.raises(SearchBudgetExceeded) as info:
        compiled.solve_bddl_pns(game, max_positions=100)
    assert info.value.positions == 101
    assert compiled.solve_bddl_pns(game, max_positions=whole).positions == whole  # the whole search, exactly


def test_the_first_move_is_search_pns_s():
    """Black first and winning: the move `_first_winning_move` names (a win at once, else one the
    table knows, else one proved again), at every depth of a suite game."""
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "2x6_d15.bddl")
    firsts = set()
    for depth in range(1, 16):
        python, core = _both(game, depth, 100_000, race=True)
        assert core == python
        firsts.add(core[1])
    assert len(firsts - {None}) >= 1


def test_a_search_is_deterministic():
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")
    runs = {(r.black_wins, r.first_move, r.positions, r.engine.collections)
            for r in (compiled.solve_bddl_pns(game, capacity=200, race_patterns=True) for _ in range(3))}
    assert len(runs) == 1


def test_a_million_entries_fit_in_64_mb():
    """An entry up to 64 cells (Breakthrough up to 8x8) takes 32 bytes, two to a cache line: the
    7/8 of a 64 MB bound the table reaches holds a million at the 80% load the capacity keeps."""
    from bddl.engines.compiled import _core

    assert [_core.pns_entry_bytes_for(c) for c in (64, 128, 192, 384)] == [32, 48, 64, 112]
    assert 64 * 2**20 * 7 // 8 * 8 // 10 // _core.pns_entry_bytes_for(64) >= 1_000_000
    game = _breakthrough(4, 5)
    assert 1_000_000 <= compiled.solve_bddl_pns(game, 3, table_mb=64).engine.capacity < 2_000_000
    assert compiled.solve_bddl_pns(game, 3, table_mb=96).engine.capacity == 2_000_000  # the Python default's


@pytest.mark.slow
@pytest.mark.parametrize("problem", ["second_4x5_d41"])
def test_breakthrough_4x5_whole(problem):
    """The suite's Breakthrough 4x5 (825,152 positions, about 50 s in Python, 2 s in the core)."""
    game = _game(BREAKTHROUGH, ROOT / "problems" / "breakthrough" / f"{problem}.bddl")
    python, core = _both(game, race=True, budget=2_000_000)
    assert core == python and core[0] is True


# -- bddlc search and solve -----------------------------------------------------------------------

MODEL = [str(BREAKTHROUGH), str(ROOT / "problems" / "breakthrough" / "second_3x5_d12.bddl")]


def _cli(capsys, command, *args):
    from compiler.cli import main

    try:
        code = main([command, *MODEL, *args])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_both_cores_say_the_same(capsys):
    for extra in ((), ("--race-patterns",)):
        answers = []
        for core in ("compiled", "python"):
            code, out, err = _cli(capsys, "search", "--algorithm", "pns", "--core", core, "--json", *extra)
            assert code == 0 and err == ""
            answer = json.loads(out)
            answer.pop("seconds")
            answers.append(answer)
        assert answers[0] == answers[1]


def test_cli_runs_df_pn_in_the_core_by_default(capsys, monkeypatch):
    """`bddlc search --algorithm pns` and `bddlc solve` (whose plan for Breakthrough is df-pn with
    race patterns) run the core's df-pn; --core python the Python one."""
    called = []
    real = compiled.solve_bddl_pns
    monkeypatch.setattr(compiled, "solve_bddl_pns", lambda *a, **k: called.append(k.get("race_patterns")) or real(*a, **k))
    code, out, _ = _cli(capsys, "search", "--algorithm", "pns", "--race-patterns", "--json")
    assert code == 0 and called == [True]
    called.clear()
    code, out, _ = _cli(capsys, "search", "--algorithm", "pns", "--json", "--core", "python")
    assert code == 0 and not called
    code, out, _ = _cli(capsys, "solve", "--engine", "search", "--json")
    answer = json.loads(out)
    assert called == [True] and answer["answered_by"] == "search: df-pn with race patterns"
    assert answer["positions"] == search_pns(_game(*MODEL), knowledge=race_knowledge(_game(*MODEL))).positions


def test_cli_refuses_what_the_core_cannot_do(capsys):
    code, _, err = _cli(capsys, "search", "--core", "compiled", "--algorithm", "ppn2", "--leaf-jobs", "qbf")
    assert code == 2 and "--leaf-jobs search" in err
    code, out, _ = _cli(capsys, "search", "--core", "compiled", "--algorithm", "pns", "--max-positions", "100", "--json")
    python = _cli(capsys, "search", "--core", "python", "--algorithm", "pns", "--max-positions", "100", "--json")[1]
    assert code == 3 and json.loads(out)["positions"] == json.loads(python)["positions"] == 101
