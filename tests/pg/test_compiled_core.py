"""The compiled search core (bddl/engines/compiled/, docs/engines-core.md) against its Python
reference, bddl.engines.positional_plain: the same search in the same order, so on every game
the two give the same verdict and first move, and the same position count wherever the core's
bounded table evicted nothing (the core reports its evictions; a count is only compared where
there were none).  Both sides are computed here at run time: no count is pinned, so a change of
the Python move order shows up as a disagreement to fix in both, never as a stale number.

The verdicts are also held to the positional solver with all its knowledge, to the brute force
of tests/pg/pg_random.py, and to the published answers of the corpus (../shared/corpus/pg,
skipped where absent).  The Python plain minimax is held to the animal games' referee
(tests/pg/plain_minimax.py), whose order it extends to Hex.

Without the core built, these tests skip; with BDDLC_REQUIRE_CORE=1 (CI) that is a failure.
The sanitizer build (scripts/sanitize_core.sh) runs this file against a core built with
AddressSanitizer and UndefinedBehaviorSanitizer."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bddl.engines import compiled
from bddl.engines.minimax import SearchBudgetExceeded
from bddl.engines.positional import solve
from bddl.engines.positional_plain import solve_plain
from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.pg.reader import load_pg
from core_helpers import hex_column_game, line_game, nearly_full, positions_at_budget
from pg_random import brute_force, random_animal_position, random_game
from plain_minimax import PlainMinimax
from helpers.signals import as_from_a_terminal

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "pg"
SUITE = sorted(p for p in (ROOT / "problems").rglob("*.pg")) + sorted((ROOT / "tests").rglob("*.pg"))
PYTHON_BUDGET = 300_000  # the Python plain minimax's positions per game here (about 10 s at most)
CORE_BUDGET = 5_000_000  # the compiled core's (a few seconds at most)

needs_core = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")


def test_the_core_is_built_where_ci_requires_it():
    """CI sets BDDLC_REQUIRE_CORE=1: a clean clone's install must have built the core."""
    if os.environ.get("BDDLC_REQUIRE_CORE") != "1":
        pytest.skip("BDDLC_REQUIRE_CORE is not set")
    assert compiled.available(), compiled.why_unavailable()


def both(game: PositionalGame, budget: int = PYTHON_BUDGET, table_mb: float = 64, threats: bool = False):
    """The compiled answer (the test skips past CORE_BUDGET positions), and the Python one (None
    past `budget` positions); with the one-move threats or without."""
    try:
        fast = compiled.solve_plain(game, max_positions=CORE_BUDGET, table_mb=table_mb, threats=threats)
    except SearchBudgetExceeded:
        pytest.skip(f"the plain minimax needs more than {CORE_BUDGET:,} positions")
    try:
        slow = solve_plain(game, max_positions=budget, threats=threats)
    except SearchBudgetExceeded:
        slow = None
    return fast, slow


def assert_same(game: PositionalGame, fast, slow, label: str = "") -> None:
    assert slow is not None
    assert (fast.black_wins, fast.first_move) == (slow.black_wins, slow.first_move), label
    if fast.replacements == 0:
        assert fast.positions == slow.positions, label
    else:  # an evicted entry is searched again: more positions, never fewer
        assert fast.positions >= slow.positions, label


@needs_core
@pytest.mark.parametrize("threats", [False, True], ids=["plain", "threats"])
@pytest.mark.parametrize("path", SUITE, ids=lambda p: str(p.relative_to(ROOT)))
def test_suite_games(path, threats):
    game = load_pg(path)
    fast, slow = both(game, threats=threats)
    if slow is not None:
        assert_same(game, fast, slow, str(path))
    assert fast.black_wins == solve(game).black_wins


def _answers() -> dict[str, str]:
    lines = (CORPUS / "answers.tsv").read_text().splitlines()
    return {line.split("\t")[0]: line.split("\t")[1] for line in lines if line and not line.startswith("#")}


def _corpus(folder: str) -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(str(p.relative_to(CORPUS)) for p in (CORPUS / folder).glob("*.pg"))


corpus_needed = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


@needs_core
@corpus_needed
@pytest.mark.parametrize("threats", [False, True], ids=["plain", "threats"])
@pytest.mark.parametrize("folder", ["gttt-3x3", "gttt-4x4"])
def test_gttt_corpus(folder, threats):
    """Every GTTT game: the published answer; the Python count where it finishes within its budget."""
    answers = _answers()
    compared = 0
    for name in _corpus(folder):
        game = load_pg(CORPUS / name)
        fast, slow = both(game, budget=20_000 if folder == "gttt-4x4" else PYTHON_BUDGET, threats=threats)
        assert str(fast.black_wins).lower() == answers[name], name
        if slow is not None:
            assert_same(game, fast, slow, name)
            compared += 1
    assert compared >= 10


# the compiled core's positions per puzzle: the plain minimax on Hex is big (the slow test goes further)
HEIN_BUDGET = 300_000


@needs_core
@corpus_needed
def test_hein_puzzles():
    """The Hex puzzles the plain minimax finishes within its budget: the published answers, and
    the Python count on the small ones."""
    _hein(HEIN_BUDGET)


@pytest.mark.slow
@needs_core
@corpus_needed
def test_hein_puzzles_further():
    _hein(20_000_000)


def _hein(budget: int) -> None:
    answers = _answers()
    decided = 0
    for name in _corpus("hein"):
        game = load_pg(CORPUS / name)
        for threats in (False, True):
            try:
                fast = compiled.solve_plain(game, max_positions=budget, threats=threats)
            except SearchBudgetExceeded:
                continue
            decided += 1
            if answers[name] != "unknown":
                assert str(fast.black_wins).lower() == answers[name], name
            if fast.positions <= 50_000:
                assert_same(game, fast, solve_plain(game, max_positions=PYTHON_BUDGET, threats=threats), name)
    assert decided >= 8


@needs_core
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_games(seed):
    """Random hypergraphs, symmetric grids and Hex-like border games (pg_random): both cores and
    the brute force agree."""
    game = random_game(random.Random(seed))
    truth = brute_force(game)
    for threats in (False, True):
        fast, slow = both(game, threats=threats)
        assert_same(game, fast, slow, f"threats={threats}")
        assert fast.black_wins == truth


@needs_core
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_animal_positions(seed):
    game = random_animal_position(random.Random(seed))
    truth = solve(game).black_wins
    for threats in (False, True):
        fast, slow = both(game, threats=threats)
        assert_same(game, fast, slow, f"threats={threats}")
        assert fast.black_wins == truth


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_python_plain_minimax_is_the_referees_search(seed):
    """The Python reference walks the animal referee's tree (tests/pg/plain_minimax.py) on games
    without Hex borders: the same verdict and the same count."""
    game = random_game(random.Random(seed))
    if game.graph is not None:
        return
    referee = PlainMinimax(game)
    ours = solve_plain(game)
    assert (ours.black_wins, ours.positions) == (referee.black_wins(), referee.positions)
    assert ours.black_wins == brute_force(game)


def test_the_threats_are_a_cut_the_plain_search_is_not():
    """On Qubic 3x3x3 the one-move threats save positions (both cores count the same)."""
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")
    plain, threats = solve_plain(game), solve_plain(game, threats=True)
    assert plain.black_wins == threats.black_wins and threats.positions < plain.positions


def test_the_referee_on_a_full_board():
    """White to move on a full board: the game is over and Black has not won (the referee said
    Black won there until the plain minimax was checked against it)."""
    game = PositionalGame(("a", "b"), ("t1", "t2", "t3"), (BLACK, WHITE, WHITE), black_wins=(frozenset({0, 1}),))
    assert PlainMinimax(game).black_wins() is False
    assert solve_plain(game).black_wins is False and brute_force(game) is False


@needs_core
def test_a_board_of_every_width():
    """Boards of 1 to 6 words (up to 384 cells): sets across the words' boundaries, on boards
    filled with White's stones but for a few open cells, so that both cores finish at once."""
    for n in (2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 300, 384):
        open_cells, black, white = nearly_full(n)
        sets = [(open_cells[i], open_cells[i + 1]) for i in range(len(open_cells) - 1)] + [(0, n - 1, *black)]
        for depth in (1, 2, 3, 4, 5, 7):
            game = line_game(n, depth, sets, black_initials=black, white_initials=white)
            for threats in (False, True):
                fast, slow = both(game, threats=threats)
                assert_same(game, fast, slow, f"{n} cells, depth {depth}")
                assert fast.black_wins == brute_force(game)


@needs_core
def test_a_board_the_core_does_not_take():
    game = line_game(385, 3, [(0, 1)])
    assert compiled.unsupported(game) is not None
    with pytest.raises(ValueError):
        compiled.solve_plain(game)


@needs_core
def test_hex_borders_on_a_large_board():
    """Hex on 19x19 (361 cells, six words): a chain two cells short of joining, both cores."""
    cases = (((7,), 1, (), True), ((7, 12), 1, (), False), ((7, 12), 3, (), False), ((7,), 3, ((7, 3),), None),
             ((7,), 4, ((7, 3),), None))
    for gaps, depth, white, known in cases:  # a chain down column 3 with gaps; White's stones
        game = hex_column_game(19, gaps, depth, white)
        for threats in (False, True):
            fast, slow = both(game, threats=threats)
            assert_same(game, fast, slow, f"gaps {gaps}, depth {depth}")
            assert known is None or fast.black_wins is known


@needs_core
def test_the_budget_is_the_same_on_both_cores():
    game = load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")
    assert positions_at_budget(lambda: compiled.solve_plain(game, max_positions=50),
                               lambda: solve_plain(game, max_positions=50)) == [51, 51]


@needs_core
def test_a_table_too_small_changes_the_work_never_the_verdict():
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")
    roomy = compiled.solve_plain(game)
    assert roomy.replacements == 0
    for megabytes in (0.001, 0.05, 0.5):
        small = compiled.solve_plain(game, table_mb=megabytes)
        assert small.table_bound_bytes <= megabytes * 2**20
        assert (small.black_wins, small.first_move) == (roomy.black_wins, roomy.first_move)
        assert small.replacements > 0 and small.positions >= roomy.positions


@needs_core
def test_a_million_positions_fit_in_64_megabytes():
    """The table's unit on every board up to 192 cells, against what a 64 MB bound holds once the
    table has grown to it (the bound less one window's overhang: it grows in place)."""
    for cells in (32, 64, 128, 192):
        assert compiled.entry_bytes(cells) * 1_000_000 <= 64 * 2**20 * 7 // 8, cells
    assert compiled.entry_bytes(32) < compiled.entry_bytes(33)  # one word per entry's position up to 32 cells
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")  # 27 cells: 16-byte entries
    for megabytes in (0.5, 1):  # overfilled: the table reaches its last size
        found = compiled.solve_plain(game, table_mb=megabytes)
        assert found.replacements > 0
        assert 7 / 8 * found.table_bound_bytes <= found.table_bytes <= found.table_bound_bytes <= megabytes * 2**20


RSS_PROBE = """
import json, resource, sys
from bddl.engines import compiled
from bddl.pg.reader import load_pg
game = load_pg(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = compiled.solve_plain(game, table_mb=float(sys.argv[2]))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grown_kb": after - before, "replacements": found.replacements, "bound": found.table_bound_bytes}))
"""


@needs_core
def test_the_table_stays_within_its_bound_in_memory():
    """The process's peak memory, measured: a search that overfills a 1 MB table (Qubic's 80,656
    positions in 16-byte entries) grows the process by no more than the bound, while the table
    grows too (and 1 MB for the rest)."""
    game = ROOT / "problems" / "pg" / "qubic_3x3x3.pg"
    out = subprocess.run([sys.executable, "-c", RSS_PROBE, str(game), "1"], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    probe = json.loads(out)
    assert probe["replacements"] > 0  # the bound was reached
    assert probe["grown_kb"] * 1024 <= probe["bound"] + 2**20


@needs_core
def test_bad_input_never_reaches_the_search():
    """The core checks the flattened arrays again (the wrapper asserts them first)."""
    from bddl.engines.compiled import _core

    good = compiled.flatten(load_pg(ROOT / "problems" / "pg" / "tictactoe_3x3.pg"))
    for key, value in (("black_set_cells", [0, 1, 99]), ("black_set_offsets", [0, 5]), ("cells", 1000),
                       ("black_initials", [-1]), ("first_moves", [9])):
        bad = {**good, key: value}
        with pytest.raises(ValueError, match="refuses"):
            _core.solve_plain_flat(bad, 100, 2**20)


# -- bddlc search --core / --knowledge ------------------------------------------------

GAME = str(ROOT / "problems" / "pg" / "row3_4x4.pg")


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    from compiler.cli import main

    try:
        code = main(["search", GAME, *argv])
    except SystemExit as exc:
        code = exc.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err


@needs_core
@pytest.mark.parametrize("knowledge", ["none", "threats", "full"])
def test_both_cores_print_the_same_answer(capsys, knowledge):
    runs = [_cli(capsys, "--knowledge", knowledge, "--json", *core) for core in ([], ["--core", "compiled"], ["--core", "python"])]
    answers = []
    for code, out, err in runs:
        assert code == 0 and err == ""
        data = json.loads(out)
        data.pop("seconds")
        answers.append(data)
    assert answers[0] == answers[1] == answers[2]
    from compiler.schema import COMMAND_KEYS

    assert list(answers[0]) == [k for k in COMMAND_KEYS["search"] if k != "seconds"]


@pytest.mark.parametrize("argv, why", [
    (["--core", "compiled", "--knowledge", "none", "--algorithm", "pns"], "needs --algorithm minimax"),
])  # (a certificate is no longer refused: the core writes it, tests/test_core_certificates.py)
def test_what_the_compiled_core_cannot_do_is_refused(capsys, argv, why):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and why in err


def test_without_the_core(capsys, monkeypatch):
    """An install without a compiler: --core compiled is refused, the plain minimax runs in
    Python with a note, and --version says so."""
    monkeypatch.setattr(compiled, "_core", None)
    monkeypatch.setattr(compiled, "_WHY", "the compiled core is not built (test)")
    code, out, err = _cli(capsys, "--core", "compiled", "--knowledge", "none")
    assert code == 2 and "not built" in err
    code, out, err = _cli(capsys, "--knowledge", "none")
    assert code == 0 and err == "note: searched by the Python core: the compiled core is not built (test)\n"
    assert "Black wins" in out
    assert compiled.status().startswith("compiled core: not built")


def test_knowledge_none_is_for_pg_games(capsys):
    from compiler.cli import main

    with pytest.raises(SystemExit) as info:
        main(["search", str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "tic_3x3_d9.bddl"),
              "--knowledge", "none"])
    assert info.value.code == 2 and ".pg games" in capsys.readouterr().err


@needs_core
def test_a_search_is_deterministic():
    """The Zobrist keys come from a fixed seed: the same evictions and counts on every run, even
    with a table far too small."""
    game = load_pg(ROOT / "problems" / "pg" / "qubic_3x3x3.pg")
    runs = {(r.black_wins, r.first_move, r.positions, r.replacements, r.table_hits)
            for r in (compiled.solve_plain(game, table_mb=0.05) for _ in range(3))}
    assert len(runs) == 1


INTERRUPTED = """
import signal, sys, threading, time
from bddl.engines import compiled
from bddl.pg.reader import load_pg
game = load_pg(sys.argv[1])
threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT)).start()
start = time.perf_counter()
try:
    compiled.solve_plain(game, max_positions=10**12)
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - start:.2f} s")
"""


@needs_core
def test_ctrl_c_stops_the_core():
    """The core looks for signals every 65,536 positions (the GIL released in between): Ctrl-C
    stops a long search at once with KeyboardInterrupt, as it stops the Python engines."""
    game = ROOT / "problems" / "pg" / "tippy_5x5.pg"  # the plain minimax takes minutes on it
    done = subprocess.run([sys.executable, "-c", INTERRUPTED, str(game)], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          preexec_fn=as_from_a_terminal)
    assert done.stdout.startswith("interrupted after"), done.stdout + done.stderr
    assert float(done.stdout.split()[2]) < 5
