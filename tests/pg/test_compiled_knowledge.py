"""The compiled core's positional solver (`bddl.engines.compiled.solve_full`, `--knowledge full`)
against its Python reference, `bddl.engines.positional.solve`: the same search in the same order,
so on every game the same verdict, first move and symmetry group, and the same position count
wherever the core's bounded table evicted nothing (the core reports its evictions).

Both sides run here at run time, no count is pinned.  The knowledge is compared piece by piece
too, through the solver's own switches (relevance, carriers, pairings, symmetries, and when the
symmetries come on): a piece that drifts from its Python definition fails its own configuration.
Verdicts are also held to the brute force of tests/pg/pg_random.py and to the corpus's published
answers (../shared/corpus/pg, skipped where absent).

Without the core built, these tests skip; with BDDLC_REQUIRE_CORE=1 (CI) test_compiled_core.py
fails instead.  scripts/sanitize_core.sh runs this file under the sanitizers when it is named on
its command line (`scripts/sanitize_core.sh tests/pg/test_compiled_knowledge.py`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bddl.engines import compiled
from bddl.engines.positional import solve
from bddl.pg.animals import animal_game
from bddl.pg.reader import load_pg
from core_helpers import hex_column_game, line_game, nearly_full, positions_at_budget
from pg_random import brute_force, random_animal_position, random_game

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "pg"
SUITE = sorted(p for p in (ROOT / "problems").rglob("*.pg")) + sorted((ROOT / "tests").rglob("*.pg"))
BUDGET = 3_000_000  # positions per search, both sides (the Python solver's largest here is about 60,000)

# The solver's switches, one piece of knowledge added at a time (`solve`'s keywords).  "bare" is
# the lost causes, the one-ply verdicts, the forced blocks and the static order alone.
CONFIGS = {
    "bare": dict(use_symmetries=False, relevance=False, carriers=False, pairings=False),
    "relevance": dict(use_symmetries=False, carriers=False, pairings=False),
    "carriers": dict(use_symmetries=False, pairings=False),
    "pairings": dict(use_symmetries=False),
    "full": dict(),
}
# Harary's races of docs/results.md (bench.core's set)
ANIMAL_RACES = (("L-tetromino", 4, 4), ("Z-tetromino", 4, 4), ("T-tetromino", 5, 4), ("L-tetromino", 5, 4),
                ("I-tetromino", 5, 5), ("O-tetromino", 5, 5), ("P-pentomino", 5, 5), ("Y-pentomino", 5, 6),
                ("N-pentomino", 5, 6))

pytestmark = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")
corpus_needed = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


def both(game, table_mb: float = 64, **switches):
    return (compiled.solve_full(game, max_positions=BUDGET, table_mb=table_mb, **switches),
            solve(game, max_positions=BUDGET, **switches))


def assert_same(fast, slow, label: str = "") -> None:
    assert (fast.black_wins, fast.first_move, fast.symmetries) == (slow.black_wins, slow.first_move, slow.symmetries), label
    if fast.replacements == 0 and fast.carriers_dropped == 0:
        assert fast.positions == slow.positions, label
    else:  # an evicted entry is searched again: more positions, never fewer
        assert fast.positions >= slow.positions, label


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("path", SUITE, ids=lambda p: str(p.relative_to(ROOT)))
def test_suite_games(path, config):
    game = load_pg(path)
    fast, slow = both(game, **CONFIGS[config])
    assert_same(fast, slow, f"{path} {config}")


def _answers() -> dict[str, str]:
    lines = (CORPUS / "answers.tsv").read_text().splitlines()
    return {line.split("\t")[0]: line.split("\t")[1] for line in lines if line and not line.startswith("#")}


def _corpus(folder: str) -> list[str]:
    return sorted(str(p.relative_to(CORPUS)) for p in (CORPUS / folder).glob("*.pg")) if CORPUS.is_dir() else []


# the Python solver without its knowledge is slow on the larger sets: those configurations are
# the slow tests' (the random games meet every piece in every configuration)
SLOW = pytest.mark.slow


@corpus_needed
@pytest.mark.parametrize("folder, config", [("gttt-3x3", "bare"), ("gttt-3x3", "full"), ("gttt-4x4", "full"),
                                            pytest.param("gttt-4x4", "bare", marks=SLOW)])
def test_gttt_corpus(folder, config):
    """Every GTTT game: the published answer and the Python solver's count."""
    answers = _answers()
    names = _corpus(folder)
    assert names
    for name in names:
        game = load_pg(CORPUS / name)
        fast, slow = both(game, **CONFIGS[config])
        assert_same(fast, slow, f"{name} {config}")
        assert str(fast.black_wins).lower() == answers[name], name


@corpus_needed
@pytest.mark.parametrize("config", ["full", *(pytest.param(c, marks=SLOW) for c in ("bare", "relevance", "carriers"))])
def test_hein_puzzles(config):
    """The Hex puzzles up to 5x5 (the chains' relevance tiers, their carriers and look-ahead)."""
    answers = _answers()
    compared = 0
    for name in _corpus("hein"):
        game = load_pg(CORPUS / name)
        if len(game.cells) > 25:
            continue
        fast, slow = both(game, **CONFIGS[config])
        assert_same(fast, slow, f"{name} {config}")
        if answers[name] != "unknown":
            assert str(fast.black_wins).lower() == answers[name], name
        compared += 1
    assert compared >= 20


@SLOW
@corpus_needed
def test_hein_puzzles_beyond_5x5():
    """The 6x6 and 7x7 puzzles: the core decides all ten within 20 million positions (measured:
    at most 7 million, some 11 s; five are "unknown" in the corpus), the published answers where
    there are some, and the Python solver's count on those of at most 300,000 positions."""
    answers = _answers()
    for name in _corpus("hein"):
        game = load_pg(CORPUS / name)
        if len(game.cells) <= 25:
            continue
        fast = compiled.solve_full(game, max_positions=20_000_000)
        if answers[name] != "unknown":
            assert str(fast.black_wins).lower() == answers[name], name
        if fast.positions <= 300_000:
            assert_same(fast, solve(game, max_positions=BUDGET), name)


@pytest.mark.parametrize("config", ["bare", "pairings", "full"])
@pytest.mark.parametrize("animal, size, moves", ANIMAL_RACES)
def test_animal_races(animal, size, moves, config):
    """Maker-Maker races: White's threats, its pairings within the depth, the symmetries."""
    fast, slow = both(animal_game(animal, size, moves=moves), **CONFIGS[config])
    assert_same(fast, slow, f"{animal} {size}x{size} {moves} {config}")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(CONFIGS)), st.sampled_from([0, 3, 40]))
def test_random_games(seed, config, symmetry_after):
    """Random hypergraphs, symmetric grids and Hex-like border games: the symmetries switched on
    early (these searches are small), so that the canonical keys meet a search in progress."""
    game = random_game(random.Random(seed))
    fast, slow = both(game, symmetry_after=symmetry_after, **CONFIGS[config])
    assert_same(fast, slow, f"{config} symmetry_after={symmetry_after}")
    assert fast.black_wins == brute_force(game)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 10, 2000]))
def test_random_animal_positions(seed, symmetry_after):
    """Animal positions with few plies: where White's pairings within the depth are met."""
    game = random_animal_position(random.Random(seed))
    fast, slow = both(game, symmetry_after=symmetry_after)
    assert_same(fast, slow, f"symmetry_after={symmetry_after}")


def test_the_pairing_search_without_its_step_bound():
    """Where the quick pairing search runs out of steps, the Python solver asks SAT and the core
    goes on searching: with one step only, every question takes the long way in the core, and
    the counts still agree."""
    from bddl.engines.compiled import _core

    for animal, size, moves in (("Y-pentomino", 5, 6), ("N-pentomino", 5, 6)):
        game = animal_game(animal, size, moves=moves)
        flat = compiled.flatten_full(game)
        quick = _core.solve_full_flat(flat, BUDGET, 64 << 20)
        flat["pairing_steps"] = 1
        slow = _core.solve_full_flat(flat, BUDGET, 64 << 20)
        assert slow["pairing_searches"] > 0 and quick["pairing_searches"] == 0
        assert (slow["black_wins"], slow["first_move"], slow["positions"]) == (quick["black_wins"], quick["first_move"], quick["positions"])
        assert slow["positions"] == solve(game).positions


def test_the_budget_is_the_same_on_both_sides():
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")
    assert positions_at_budget(lambda: compiled.solve_full(game, max_positions=50),
                               lambda: solve(game, max_positions=50)) == [51, 51]


def test_a_table_too_small_changes_the_work_never_the_verdict():
    game = animal_game("N-pentomino", 5, moves=6)
    roomy = compiled.solve_full(game)
    assert roomy.replacements == 0
    for megabytes in (0.001, 0.05):
        small = compiled.solve_full(game, table_mb=megabytes)
        assert (small.black_wins, small.first_move) == (roomy.black_wins, roomy.first_move)
        assert small.replacements > 0 and small.positions >= roomy.positions


def test_the_carriers_share_the_tables_bound():
    """Past the bound a win's carrier is dropped (it reads as every cell: White prunes less):
    more positions, never another verdict; reported, as the table's evictions are."""
    game = animal_game("Z-tetromino", 5, weak=True, moves=6)  # Maker-Breaker: the carriers apply
    roomy = compiled.solve_full(game)
    small = compiled.solve_full(game, table_mb=0.001)
    assert roomy.carriers_dropped == 0 and small.carriers_dropped > 0
    assert (small.black_wins, small.first_move) == (roomy.black_wins, roomy.first_move)
    assert small.positions >= roomy.positions


def test_a_search_is_deterministic():
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")
    runs = {(r.black_wins, r.first_move, r.positions, r.replacements, r.table_hits)
            for r in (compiled.solve_full(game, table_mb=0.05) for _ in range(3))}
    assert len(runs) == 1


def test_the_start_is_settled_as_the_python_solver_settles_it():
    """A game decided before the first move (a goal owned already, White's pairing from the
    start) costs no position on either side."""
    for game in (animal_game("O-tetromino", 5, moves=5), load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg").with_depth(0)):
        fast, slow = both(game)
        assert (fast.black_wins, fast.positions) == (slow.black_wins, slow.positions) == (False, 0)


def test_bad_input_never_reaches_the_search():
    """The core checks what it reads beside the plain spec (the wrapper builds it right)."""
    from bddl.engines.compiled import _core

    good = compiled.flatten_full(load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg"))
    for key, value in (("order", [0, 1, 2]), ("order", [0] * 9), ("symmetry_cells", [0, 1, 2]),
                       ("symmetry_cells", [0] * 9), ("pairable", [1]), ("cells", 1000)):
        bad = {**good, key: value}
        with pytest.raises(ValueError, match="refuses"):
            _core.solve_full_flat(bad, 100, 2**20)


def test_the_symmetries_are_asked_for_when_the_search_needs_them():
    """The core asks for the symmetries once it has expanded `symmetry_after` positions, as the
    Python solver sets them up: a search smaller than that never pays for finding them, and a
    failing question stops the search with its exception (bad permutations: status 2)."""
    from bddl.engines.compiled import _core

    game = load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")
    asked = []
    flat = compiled.flatten_full(game, symmetry_after=10**6, lazy=True)
    fetch = flat["fetch_symmetries"]
    flat["fetch_symmetries"] = lambda: asked.append(1) or fetch()
    assert _core.solve_full_flat(flat, BUDGET, 2**20)["symmetries_on"] is False and not asked
    flat = compiled.flatten_full(game, symmetry_after=2, lazy=True)
    flat["fetch_symmetries"] = lambda: 1 // 0
    with pytest.raises(ZeroDivisionError):
        _core.solve_full_flat(flat, BUDGET, 2**20)
    flat["fetch_symmetries"] = lambda: [0] * 9
    assert _core.solve_full_flat(flat, BUDGET, 2**20)["status"] == 2
    fast, slow = both(game, symmetry_after=2)
    assert fast.symmetries == slow.symmetries == 8
    assert_same(fast, slow)


def test_a_board_of_every_width():
    """Boards of 1 to 6 words (up to 384 cells), filled with White's stones but for a few open
    cells, sets across the words' boundaries: the knowledge on every bitboard width."""
    for n in (63, 64, 65, 128, 129, 192, 193, 384):
        open_cells, black, white = nearly_full(n)
        sets = [(open_cells[i], open_cells[i + 1], open_cells[(i + 3) % len(open_cells)]) for i in range(len(open_cells) - 1)]
        sets.append((0, n - 1, *black))
        for depth in (2, 3, 5, 7):
            for white_sets in ((), (tuple(open_cells[:2]),)):
                game = line_game(n, depth, sets, white_wins=tuple(frozenset(s) for s in white_sets),
                                 black_initials=black, white_initials=white)
                for config in ("bare", "full"):
                    fast, slow = both(game, symmetry_after=0, **CONFIGS[config])
                    assert_same(fast, slow, f"{n} cells, depth {depth}, {config}")
                assert fast.black_wins == brute_force(game)


def test_hex_on_a_large_board():
    """Hex on 19x19 (361 cells, six words): a chain down one column with gaps, some White
    stones on it; the chains' relevance tiers, carriers and look-ahead on the widest board."""
    for gaps, depth, white in (((7,), 1, ()), ((7, 12), 3, ()), ((7,), 3, ((7, 3),)), ((7,), 4, ((7, 3),)),
                               ((7, 12), 5, ((7, 3),))):
        game = hex_column_game(19, gaps, depth, white)
        for config in ("bare", "full"):
            fast, slow = both(game, **CONFIGS[config])
            assert_same(fast, slow, f"gaps {gaps}, depth {depth}, {config}")
