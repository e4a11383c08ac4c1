"""df-pn on `.pg` games in the compiled core (bddl/engines/compiled/pg_pns.py, src/pgpns.cpp)
against its Python reference, bddl.engines.positional_pns.PositionalProofNumberSearch.

The core's search is the Python one compiled: the same claims in the same order (the rules of
src/pgrules.hpp, the positional solver's), the same verdicts and initial numbers, the same
thresholds, the same SmallTreeGC collections.  So wherever its table never had to collect before
the capacity (`forced_collections` 0) it gives the same verdicts, first moves, positions and
collections, on whole games and on the certificate's questions (`decide`, `refutation`) asked
one after another of one table.  Under a memory bound too small for the capacity the core
collects early, so only the verdicts are compared there.

Without the core built, these tests skip (tests/pg/test_compiled_core.py fails CI then)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_random import random_animal_position, random_game
from helpers.signals import as_from_a_terminal

from bddl.engines import compiled
from bddl.engines.compiled.pg_pns import CorePositionalProofNumberSearch
from bddl.engines.compiled.pg_pns import solve_pns as core_pns
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.positional_pns import PositionalProofNumberSearch
from bddl.engines.positional_pns import solve_pns as python_pns
from bddl.pg.animals import animal_game
from bddl.pg.reader import load_pg

ROOT = Path(__file__).resolve().parents[2]
SUITE = sorted((ROOT / "problems").rglob("*.pg"))
CORPUS = ROOT.parent / "shared" / "corpus" / "pg"
HEIN = CORPUS / "hein"

pytestmark = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")


def _run(solve, game, limit: int, **options):
    """(verdict, first move, positions), or ("budget", positions) where the search gave way."""
    try:
        found = solve(game, max_positions=limit, **options)
    except SearchBudgetExceeded as exc:
        return ("budget", exc.positions), None
    return (found.black_wins, found.first_move, found.positions), found.solver


def _same(game, limit: int = 20_000, **options):
    """Both searches on the game: the same answer, positions and collections."""
    python, engine = _run(python_pns, game, limit, **options)
    core, searcher = _run(core_pns, game, limit, **options)
    assert core == python
    if searcher is not None:
        totals = searcher.totals()
        assert totals["forced_collections"] == 0
        assert totals["collections"] == engine.engine.collections
        assert totals["knowledge_hits"] == engine.engine.knowledge_hits
    return core


@pytest.mark.parametrize("path", SUITE, ids=lambda p: str(p.relative_to(ROOT)))
def test_suite(path):
    _same(load_pg(path))


@pytest.mark.skipif(not HEIN.is_dir(), reason=f"no corpus at {HEIN}")
@pytest.mark.parametrize("name", ["browne_5x5_09", "hein_02_5x5-11", "hein_06_4x4-13", "hein_08_5x5-11", "hein_10_5x5-13",
                                  "hein_13_5x5-09", "hein_15_5x5-15", "hein_16_5x5-13", "hein_18_7x7-13", "hein_19_5x5-11",
                                  "hein_20_6x6-13"])
def test_hein(name):
    """Hein's puzzles (torus and plane boards: the symmetries from the start); the last gives way
    at the budget in both, at the same count."""
    _same(load_pg(HEIN / f"{name}.pg"), limit=30_000)


def _corpus(kind: str, every: int) -> list[Path]:
    return sorted((CORPUS / kind).glob("*.pg"))[::every] if (CORPUS / kind).is_dir() else []


@pytest.mark.parametrize("path", _corpus("gttt-3x3", 3) + _corpus("gttt-4x4", 4), ids=lambda p: p.stem)
def test_gttt(path):
    """Generalised tic-tac-toe (Maker-Maker and Maker-Breaker animals, many turn patterns)."""
    _same(load_pg(path), limit=20_000)


@pytest.mark.parametrize("name,n,moves", [("I-tetromino", 5, 5), ("L-tetromino", 5, 5), ("T-tetromino", 5, 4),
                                          ("Z-tetromino", 4, 6), ("L-pentomino", 5, 5), ("I-tromino", 5, 3)])
@pytest.mark.parametrize("weak", [False, True])
def test_animals(name, n, moves, weak):
    """Harary's animals, the races (strong) and Maker-Breaker (weak), with few moves."""
    _same(animal_game(name, n, weak=weak, moves=moves))


@pytest.mark.parametrize("switch", ["relevance", "initial_numbers", "use_symmetries", "pairings"])
def test_each_switch_off(switch):
    for path in (ROOT / "problems" / "pg" / "tippy_5x5.pg", ROOT / "problems" / "pg" / "tic_5x5_torus.pg"):
        _same(load_pg(path), **{switch: False})
    _same(animal_game("L-tetromino", 5, moves=5), **{switch: False})


@pytest.mark.parametrize("epsilon,leaf_plies", [(1.0, 5), (0.25, 0), (0.5, 1)])
def test_other_epsilons_and_leaf_searches(epsilon, leaf_plies):
    for path in (ROOT / "problems" / "pg" / "tippy_5x5.pg", ROOT / "problems" / "pg" / "qubic_3x3x3.pg"):
        _same(load_pg(path), epsilon=epsilon, leaf_plies=leaf_plies)


@pytest.mark.parametrize("capacity", [16, 100, 1000])
def test_small_capacities_collect_alike(capacity):
    """SmallTreeGC passes (the median cut of the works): the same entries kept, the same
    positions and collections, within a memory bound that holds the capacity."""
    game = animal_game("L-tetromino", 5, moves=5)
    verdict = _same(game, limit=200_000, capacity=capacity)
    _, searcher = _run(core_pns, game, 200_000, capacity=capacity)
    assert searcher is not None and searcher.totals()["collections"] > 0, verdict


def test_a_tiny_table_keeps_the_verdicts():
    """A memory bound below the capacity: the core lowers the capacity to what the bound holds
    (`capacity` in its report) and collects more often, so it no longer searches as the Python
    engine with the default capacity; its verdicts stay right, and it searches as the Python
    engine with its lowered capacity (no collection was forced: the leaf searches' room held)."""
    for game in (animal_game("L-tetromino", 5, moves=5), load_pg(ROOT / "problems" / "pg" / "tippy_5x5.pg")):
        python, _ = _run(python_pns, game, 2_000_000)
        core, searcher = _run(core_pns, game, 2_000_000, table_mb=0.06)
        assert searcher is not None
        totals = searcher.totals()
        assert totals["capacity"] < 100 and totals["collections"] > 0
        assert core[0] == python[0]
        if totals["forced_collections"] == 0:
            assert core == _run(python_pns, game, 2_000_000, capacity=totals["capacity"])[0]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_games(seed):
    """Random hypergraphs, symmetric grids, Hex-like border games, (p,q) turns, initial stones."""
    _same(random_game(random.Random(seed)), limit=5_000)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_animal_positions(seed):
    """Animal positions with few plies: White's pairings within the depth."""
    _same(random_animal_position(random.Random(seed)), limit=5_000)


def _questions(game, seed: int, count: int) -> list[tuple[int, int]]:
    """Positions along random plays of the game, up to its end (the certificate's strategist asks
    such; past a side's win the game is over, and neither engine is asked there)."""
    rules = PositionalProofNumberSearch(game).rules
    rng = random.Random(seed)
    n = len(game.cells)
    out = []
    for _ in range(count):
        b, w = game.mask(game.black_initials), game.mask(game.white_initials)
        for t in range(rng.randrange(0, game.depth)):
            free = [c for c in range(n) if not (b | w) >> c & 1]
            if not free or rules.black_won(b) or rules.white_won(w):
                break
            c = rng.choice(free)
            if game.turns[t] == "black":
                b |= 1 << c
            else:
                w |= 1 << c
        out.append((b, w))
    return out


@pytest.mark.parametrize("path", ["tippy_5x5.pg", "tic_5x5_torus.pg", "row3_4x4.pg", "animals/L-tetromino_4x4_strong_m4.pg"])
def test_certificate_questions(path):
    """`decide` and `refutation` asked one after another of one table, as a certificate's
    strategist asks them: the same answers, and the same positions after each question."""
    game = load_pg(ROOT / "problems" / "pg" / path)
    python = PositionalProofNumberSearch(game)
    core = CorePositionalProofNumberSearch(game)
    b0, w0 = game.mask(game.black_initials), game.mask(game.white_initials)
    for b, w in [(b0, w0), *_questions(game, len(path), 25)]:
        assert core.decide(b, w) == python.decide(b, w)
        assert core.positions == python.positions
        assert core.refutation(b, w) == python.refutation(b, w)
        assert core.positions == python.positions


def test_a_budget_is_raised_between_questions():
    """`max_positions` bounds all questions so far; a caller may raise it (the oracle does)."""
    game = load_pg(ROOT / "problems" / "pg" / "tippy_5x5.pg")
    core = CorePositionalProofNumberSearch(game, max_positions=10)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    with pytest.raises(SearchBudgetExceeded):
        core.decide(b, w)
    core.max_positions = 10_000
    assert core.decide(b, w) == PositionalProofNumberSearch(game).decide(b, w)


def test_a_board_off_the_bitboards_is_refused():
    game = load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")
    core = CorePositionalProofNumberSearch(game)
    with pytest.raises(ValueError):
        core.decide(1 << 64, 0)
    with pytest.raises(ValueError):
        core.refutation(1, 1)  # a cell with two stones


def _search(capsys, path: Path, *options: str) -> dict:
    from compiler.cli import main

    code = main(["search", str(path), "--algorithm", "pns", "--json", *options])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_search_end_to_end_with_both_cores(capsys):
    """`bddlc search GAME.pg --algorithm pns`: the core by default, the Python df-pn with --core
    python, the same verdict, first move and positions."""
    for path in (ROOT / "problems" / "pg" / "tippy_5x5.pg", ROOT / "problems" / "pg" / "tictactoe_3x3.pg"):
        compiled_run = _search(capsys, path)
        python_run = _search(capsys, path, "--core", "python")
        for key in ("black_wins", "first_move", "positions"):
            assert compiled_run[key] == python_run[key]


def test_the_model_lists_pns_among_the_core_algorithms():
    from compiler.languages.pg_model import PgModel

    assert "pns" in PgModel.core_algorithms


def test_a_game_with_white_first_and_initial_stones():
    game = load_pg(ROOT / "problems" / "pg" / "row3_4x4_white_first.pg")
    _same(replace(game, black_initials=frozenset({5}), white_initials=frozenset({0})).with_depth(9))


def _certificate(tmp_path: Path, path: Path, core: str) -> bytes:
    from compiler.cli import main

    out = tmp_path / f"{path.stem}_{core}.json"
    assert main(["search", str(path), "--algorithm", "pns", "--core", core, "--certificate", str(out)]) == 0
    return out.read_bytes()


@pytest.mark.parametrize("path", [ROOT / "problems" / "pg" / "tippy_5x5.pg", ROOT / "problems" / "pg" / "tictactoe_3x3.pg",
                                  ROOT / "problems" / "pg" / "animals" / "L-tetromino_4x4_strong_m4.pg",
                                  HEIN / "hein_10_5x5-13.pg", HEIN / "hein_19_5x5-09.pg"], ids=lambda p: p.stem)
def test_certificates_are_byte_identical(tmp_path, capsys, path):
    """`bddlc search GAME.pg --algorithm pns --certificate F`: the core's df-pn answers the
    certificate's questions from its table (`positional_oracle`); the file is the Python route's."""
    if not path.is_file():
        pytest.skip(f"no corpus at {path.parent}")
    assert _certificate(tmp_path, path, "compiled") == _certificate(tmp_path, path, "python")
    capsys.readouterr()


INTERRUPTED = """
import signal, sys, threading, time
from bddl.engines.compiled.pg_pns import CorePositionalProofNumberSearch
from bddl.pg.animals import animal_game
game = animal_game("L-pentomino", 7, moves=7)  # a minute of the core's df-pn
solver = CorePositionalProofNumberSearch(game)  # (the setup in Python: the rules' tables, the symmetries)
b, w = game.mask(game.black_initials), game.mask(game.white_initials)
assert solver.rules.decided_at_once(b, w) is None  # (the start's pairing question, asked again by decide)
threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT)).start()
start = time.perf_counter()
try:
    solver.decide(b, w)
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - start:.2f} s")
"""


@pytest.mark.skipif("libasan" in __import__("os").environ.get("LD_PRELOAD", ""),
                    reason="under scripts/sanitize_core.sh's ASan preload the subprocess never returns (so does "
                           "tests/pg/test_compiled_core.py::test_ctrl_c_stops_the_core, on main too, 2026-11-27)")
def test_ctrl_c_stops_the_search():
    """The core's df-pn looks for signals every 256 positions, the GIL released in between:
    Ctrl-C stops it with KeyboardInterrupt, as it stops the Python engines."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", INTERRUPTED], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          preexec_fn=as_from_a_terminal)
    assert done.stdout.startswith("interrupted after"), done.stdout + done.stderr
    assert float(done.stdout.split()[2]) < 5
