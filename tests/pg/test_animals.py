"""Harary's animal games (bddl/pg/animals.py): the winning sets counted by
hand, and the answers on the small boards decided two ways, the positional
solver (with its cuts) against the plain minimax of tests/pg/plain_minimax.py
(no cuts), and on the smallest by the QBF route as well."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bddl.engines.positional import solve
from bddl.pg.animals import ANIMALS, PUBLISHED, animal_bddl, animal_cells, animal_game, animal_name, main, placements
from bddl.pg.generate import orientations
from bddl.pg.reader import load_pg
from bddl.pg.writer import write_pg
from plain_minimax import PlainMinimax
from pg_random import brute_force

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "problems" / "pg" / "animals"

# Free polyominoes and their fixed images (rotations and reflections): the literature's counts
# (1 + 1 + 2 + 5 + 12 free, 2 + 6 + 19 + 63 fixed for sizes 2..5).
ORIENTATIONS = {
    "domino": 2, "I-tromino": 2, "V-tromino": 4,
    "I-tetromino": 2, "L-tetromino": 8, "T-tetromino": 4, "Z-tetromino": 4, "O-tetromino": 1,
    "F-pentomino": 8, "I-pentomino": 2, "L-pentomino": 8, "N-pentomino": 8, "P-pentomino": 8, "T-pentomino": 4,
    "U-pentomino": 4, "V-pentomino": 4, "W-pentomino": 4, "X-pentomino": 1, "Y-pentomino": 8, "Z-pentomino": 4,
}  # fmt: skip


def test_every_animal_has_its_orientations_and_they_are_distinct_polyominoes():
    assert ORIENTATIONS.keys() == ANIMALS.keys()
    images = {}
    for name in ANIMALS:
        found = orientations(animal_cells(name))
        assert len(found) == ORIENTATIONS[name], name
        for image in found:
            assert image not in images, f"{name} is congruent to {images.get(image)}"
            images[image] = name
        cells = set(animal_cells(name))
        assert _connected(cells), name
    by_size = {k: sum(1 for name in ANIMALS if len(animal_cells(name)) == k) for k in range(2, 6)}
    assert by_size == {2: 1, 3: 2, 4: 5, 5: 12}
    assert sum(ORIENTATIONS[n] for n in ANIMALS if len(animal_cells(n)) == 5) == 63


def _connected(cells: set[tuple[int, int]]) -> bool:
    seen, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [x for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if x in cells]
    return seen == cells


@pytest.mark.parametrize(
    "animal, n, count",
    [
        ("domino", 2, 4),  # 2 rows and 2 columns of 2
        ("domino", 3, 12),  # 3 rows x 2 places, twice
        ("V-tromino", 2, 4),  # the 2x2 square less one of its 4 cells
        ("V-tromino", 3, 16),  # 4 orientations x 4 places of a 2x2 box
        ("I-tromino", 4, 16),  # 4 lines x 2 places, twice
        ("O-tetromino", 4, 9),
        ("X-pentomino", 3, 1),
        ("X-pentomino", 5, 9),
        ("I-tetromino", 6, 36),  # 6 lines x 3 places, twice
        ("L-pentomino", 4, 24),  # 8 orientations of a 4x2 box, 1 x 3 places each
        ("N-pentomino", 5, 64),  # 8 x (2 x 4)
        ("Y-pentomino", 3, 0),  # 4 long: does not fit
    ],
)
def test_placements_counted_by_hand(animal, n, count):
    assert placements(animal, n) == count
    game = animal_game(animal, n)
    assert len(game.black_wins) == count == len(set(game.black_wins))
    shapes = set(orientations(animal_cells(animal)))
    for winning_set in game.black_wins:
        cells = [game.coordinates[i] for i in winning_set]
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        assert frozenset((r - r0, c - c0) for r, c in cells) in shapes


def test_the_domino_on_2x2_by_name():
    game = animal_game("Domino", 2)
    named = {frozenset(game.cells[i] for i in s) for s in game.black_wins}
    assert named == {frozenset(p) for p in (("a1", "a2"), ("b1", "b2"), ("a1", "b1"), ("a2", "b2"))}
    assert {game.cells[i] for i in game.first_moves} == {"a1"}


def test_weak_strong_and_moves():
    strong = animal_game("N-pentomino", 5)
    weak = animal_game("N-pentomino", 5, weak=True, moves=6)
    assert strong.white_wins == strong.black_wins and strong.depth == 25
    assert weak.white_wins == () and weak.maker_breaker and weak.black_wins == strong.black_wins
    assert weak.depth == 11 and weak.turns[::2] == ("black",) * 6 and weak.turns[1::2] == ("white",) * 5
    assert animal_game("domino", 2, moves=9).depth == 4  # never beyond the board
    assert {weak.cells[i] for i in weak.first_moves} == {"a1", "a2", "a3", "b2", "b3", "c3"}
    assert animal_game("domino", 3, symmetry_cut=False).first_moves is None


def test_names_and_aliases():
    assert animal_name("Skinny") == "I-tetromino" == animal_name("i-TETROMINO")
    assert animal_name("L-tromino") == "V-tromino"
    with pytest.raises(ValueError, match="unknown animal 'Wiggly'"):
        animal_name("Wiggly")
    assert PUBLISHED.keys() == ANIMALS.keys()


def test_the_command_writes_the_game_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "n5.pg"
    assert main(["--animal", "N-pentomino", "--size", "5", "--weak", "--moves", "6", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("% Harary's animal achievement game: N-pentomino on 5x5, weak")
    assert load_pg(out) == load_pg(out) and write_pg(load_pg(out)).count("\n") < text.count("\n")  # comments dropped
    assert len(load_pg(out).black_wins) == 64 and not load_pg(out).white_wins
    assert main(["--animal", "Wiggly", "--size", "5", "-o", str(tmp_path / "x.pg")]) == 1
    assert main(["--animal", "domino", "--size", "0", "-o", str(tmp_path / "y.pg")]) == 1
    assert main(["--animal", "domino", "--size", "3", "--moves", "0", "-o", str(tmp_path / "z.pg")]) == 1
    assert "unknown animal" in capsys.readouterr().err
    assert not (tmp_path / "x.pg").exists() and not (tmp_path / "y.pg").exists() and not (tmp_path / "z.pg").exists()


# The published entries with a board of 4 or less, and the move budgets just below and at m:
# the solver with its cuts, the plain minimax and (tiny ones) the textbook brute force agree.
SMALL = [(name, b, m) for name, entry in PUBLISHED.items() if entry for b, m in [entry] if b <= 4]


@pytest.mark.parametrize("weak", [True, False], ids=["weak", "strong"])
@pytest.mark.parametrize("animal, b, m", SMALL, ids=[s[0] for s in SMALL])
def test_small_published_entries_two_ways(animal, b, m, weak):
    for moves, expected in ((m - 1, False), (m, True)):
        game = animal_game(animal, b, weak=weak, moves=moves)
        assert solve(game).black_wins is expected, (animal, moves)
        assert PlainMinimax(game).black_wins() is expected, (animal, moves)
        assert solve(game, use_symmetries=False, relevance=False).black_wins is expected
    smaller = animal_game(animal, b - 1, weak=weak)  # the whole board played out: Black cannot make it
    if smaller.black_wins:
        assert solve(smaller).black_wins is False and PlainMinimax(smaller).black_wins() is False


def test_plain_minimax_agrees_with_the_textbook_brute_force():
    for animal, n, moves in (("V-tromino", 3, 3), ("V-tromino", 3, 2), ("domino", 2, 2), ("Z-tetromino", 3, 4), ("O-tetromino", 3, 5)):
        for weak in (True, False):
            game = animal_game(animal, n, weak=weak, moves=moves)
            assert PlainMinimax(game).black_wins() is brute_force(game), (animal, n, moves, weak)


def test_plain_minimax_hint_changes_the_time_not_the_value():
    game = animal_game("L-tetromino", 4, weak=True, moves=4)
    wrong = PlainMinimax(game, hint=lambda b, w: 0)  # always a1: mostly taken or useless
    right = PlainMinimax(game)
    assert wrong.black_wins() is right.black_wins() is True
    lost = animal_game("L-tetromino", 4, weak=True, moves=3)
    assert PlainMinimax(lost, hint=lambda b, w: 5).black_wins() is False


def test_the_strategy_covers_every_white_reply():
    game = animal_game("V-tromino", 3, weak=True, moves=3)
    search = PlainMinimax(game)
    assert search.black_wins()
    lines = search.strategy_lines()
    # first claim, then one line per White reply to it (8), then per reply to the second claim
    assert lines[0].startswith("- | - -> ")
    white_parts = [line.split(" | ")[1].split(" -> ")[0].split() for line in lines]
    assert sum(1 for white in white_parts if len(white) == 1 and white != ["-"]) == 8


@pytest.mark.parametrize("path", sorted(SUITE.glob("*.pg")), ids=lambda p: p.name)
def test_suite_games_are_the_generators(path):
    """problems/pg/animals/NAME_NxN_{weak,strong}_mM.pg is what the generator writes."""
    animal, size, kind, moves = path.stem.rsplit("_", 3)
    n = int(size.split("x")[0])
    game = animal_game(animal, n, weak=kind == "weak", moves=int(moves[1:]))
    assert load_pg(path) == load_pg_text(write_pg(game), path.parent)
    assert math.ceil(game.depth / 2) == int(moves[1:])


def _suite_entries():
    from helpers.suite import positional_manifest

    return [e for e in positional_manifest() if "/animals/" in e.file]


@pytest.mark.parametrize("entry", _suite_entries(), ids=lambda e: e.file)
def test_suite_answers_by_the_plain_minimax(entry):
    """The manifest's answers (the solver's, and QBF's in `regress --method both`) once more
    without any of the solver's cuts; Black's claims ordered by the solver where Black wins."""
    game = load_pg(entry.game)
    hint = None
    if entry.black_wins:
        from bddl.engines.positional import PositionalSolver

        solver = PositionalSolver(game)
        hint = lambda b, w: solver.decide(b, w)[1]  # noqa: E731
    assert PlainMinimax(game, hint).black_wins() is entry.black_wins


@pytest.mark.slow  # 20 s on the loaded 2-core machine
def test_n_pentomino_wins_on_5x5_in_6_moves_without_the_cuts():
    """The first disagreement with the published table (b = 6): Black makes the N-pentomino on
    5x5 in 6 moves, weak or strong, every White reply searched; not in 5 moves."""
    from bddl.engines.positional import PositionalSolver

    for weak in (True, False):
        game = animal_game("N-pentomino", 5, weak=weak, moves=6)
        solver = PositionalSolver(game)
        assert PlainMinimax(game, lambda b, w, solver=solver: solver.decide(b, w)[1]).black_wins() is True
    assert PlainMinimax(animal_game("N-pentomino", 5, weak=True, moves=5)).black_wins() is False


def load_pg_text(text: str, folder: Path):
    from bddl.pg.reader import read_pg

    return read_pg(text, str(folder / "generated.pg"))


@pytest.mark.slow  # a `bddlc search` process per verdict: 20 s on the loaded machine
def test_the_sweep_finds_b_and_m_and_reuses_the_weak_verdicts(tmp_path):
    """bench.animals on the V-tromino (b = 3, m = 3) and the I-tromino's 3x3 (lost):
    each verdict by `bddlc search`, the strong game's losses where its weak game is lost
    taken from the weak game, and the summary board by board."""
    from bench.animals import run, summary

    results = tmp_path / "results.jsonl"
    logged = []
    run(["V-tromino", "I-tromino"], [True, False], [2, 3], 60, 10**6, tmp_path / "games", results, log=logged.append)
    lines = summary(results)
    assert lines[0].startswith("I-tromino weak 3x3: no win with the whole board played (")
    assert lines[1] == "I-tromino strong 3x3: no win with the whole board played (the weak game is lost)"
    assert "V-tromino weak 3x3: Black wins in 3 moves (5 plies), first move b2" in lines[2]
    assert "V-tromino strong 3x3: Black wins in 3 moves (5 plies), first move b2" in lines[3]
    assert len(lines) == 4
    searched = len(logged)
    run(["V-tromino", "I-tromino"], [True, False], [2, 3], 60, 10**6, tmp_path / "games", results, log=logged.append)
    assert len(logged) == searched  # everything was in RESULTS already


def test_the_sweep_searches_again_with_pns_only_what_the_minimax_left_open(tmp_path):
    """An entry without a verdict (a timeout) from the minimax is searched again by
    `--algorithm pns`; a verdict, or pns's own timeout, is not."""
    from bench.animals import entry_key, run, summary

    results = tmp_path / "results.jsonl"
    key = entry_key("V-tromino", 3, True, 3)
    results.write_text(json.dumps({"key": key, "black_wins": None, "error": "timeout 1 s"}) + "\n")
    logged: list[str] = []
    run(["V-tromino"], [True], [3], 60, 10**6, tmp_path / "games", results, log=logged.append)
    # the minimax's own timeout stands for the minimax, which goes on to the whole board
    assert [json.loads(line)["key"] for line in logged] == [entry_key("V-tromino", 3, True, 5)]
    run(["V-tromino"], [True], [3], 60, 10**6, tmp_path / "games", results, log=logged.append, algorithm="pns")
    assert len(logged) == 2 and json.loads(logged[1])["algorithm"] == "pns" and json.loads(logged[1])["key"] == key
    assert summary(results)[0].startswith("V-tromino weak 3x3: Black wins in 3 moves (5 plies), first move b2")
    run(["V-tromino"], [True], [3], 60, 10**6, tmp_path / "games", results, log=logged.append, algorithm="pns")
    assert len(logged) == 2


def test_an_undecided_budget_sends_the_sweep_to_the_whole_board(tmp_path):
    """A budget without a verdict (a timeout of this algorithm's) makes the sweep search the
    whole board: lost there, the board is lost; won there, b is found and the least m left
    open, as the summary says (the V-tromino wins on 3x3 in 3, the I-tromino loses there)."""
    from bench.animals import entry_key, run, summary

    results = tmp_path / "results.jsonl"
    timeouts = [{"key": entry_key(a, 3, True, 3), "black_wins": None, "error": "timeout 1 s"} for a in ("V-tromino", "I-tromino")]
    results.write_text("".join(json.dumps(t) + "\n" for t in timeouts))
    logged: list[str] = []
    run(["V-tromino", "I-tromino"], [True], [3], 60, 10**6, tmp_path / "games", results, log=logged.append)
    searched = [json.loads(line)["key"] for line in logged]
    assert searched == [entry_key("V-tromino", 3, True, 5), entry_key("I-tromino", 3, True, 5)]
    lines = summary(results)
    assert lines[0].startswith("I-tromino weak 3x3: no win with the whole board played (")
    assert lines[1].startswith("V-tromino weak 3x3: Black wins within 5 moves (9 plies), first move ")
    assert lines[1].endswith("; the least m open (fewer moves not decided)")


def test_the_sweep_refuses_an_animal_that_fits_on_none_of_its_boards(tmp_path, capsys):
    """Nothing would be searched and nothing written: a usage error, by Harary's name too."""
    from bench.animals import main as sweep

    with pytest.raises(SystemExit) as ended:
        sweep(["--animals", "Skinny", "--sizes", "2", "3", "--results", str(tmp_path / "r.jsonl"), "--games", str(tmp_path / "g")])
    assert ended.value.code == 2
    assert "I-tetromino fits on none of the boards 2x2, 3x3: nothing to search" in capsys.readouterr().err
    assert not (tmp_path / "r.jsonl").exists()


def test_the_race_alone_is_searched_from_the_first_budget_its_weak_game_did_not_lose(tmp_path):
    """A sweep of the strong game alone searches the race itself (no weak verdicts: from the
    animal's size); where the weak game left budgets open below its win (a timeout, then the
    whole board won), the race starts at the first open one, not at the weak game's win."""
    from bench.animals import entry_key, run, summary

    results = tmp_path / "results.jsonl"
    logged: list[str] = []
    run(["V-tromino"], [False], [3], 60, 10**6, tmp_path / "games", results, log=logged.append)
    assert [json.loads(line)["key"] for line in logged] == [entry_key("V-tromino", 3, False, 3)]
    lines = summary(results)
    assert len(lines) == 1 and lines[0].startswith("V-tromino strong 3x3: Black wins in 3 moves")
    results.write_text(
        json.dumps({"key": entry_key("L-tetromino", 4, True, 4), "black_wins": None, "error": "timeout 1 s"}) + "\n"
        + json.dumps({"key": entry_key("L-tetromino", 4, True, 8), "black_wins": True, "first_move": "b2", "positions": 1, "seconds": 0.0}) + "\n"
    )
    logged.clear()
    run(["L-tetromino"], [False], [4], 60, 10**6, tmp_path / "games", results, log=logged.append)
    assert json.loads(logged[0])["key"] == entry_key("L-tetromino", 4, False, 4)  # not inferred lost from the weak game


@pytest.mark.parametrize(
    "animal, n, weak, moves", [("V-tromino", 3, False, 3), ("N-pentomino", 5, True, 6), ("Y-pentomino", 6, False, None), ("X-pentomino", 4, True, 2)]
)
def test_the_bddl_problem_exports_to_the_same_game(animal, n, weak, moves, tmp_path):
    """`--bddl` writes the game for domains/positional.bddl; `bddlc export`'s reading of it has
    the same cells, winning sets and turns as the .pg game (which alone has the first-move cut)."""
    from bddl.loader import load_model
    from compiler.encodings.pg_export import positional_game
    from test_pg_generate import content

    problem = tmp_path / "animal.bddl"
    problem.write_text(animal_bddl(animal, n, weak, moves))
    model = load_model(ROOT / "domains" / "positional.bddl", problem)
    exported = positional_game(model.domain, model.problem)
    expected = content(animal_game(animal, n, weak, moves, symmetry_cut=False))
    assert content(exported) == expected


@pytest.mark.parametrize(
    "animal, n, weak, moves, wins",
    [
        ("V-tromino", 3, False, 3, True),
        ("V-tromino", 3, True, 2, False),
        ("Z-tetromino", 3, False, 5, True),
        ("Z-tetromino", 3, True, 4, False),
        ("L-tetromino", 4, False, 4, True),
    ],
)
def test_the_bddl_minimax_agrees(animal, n, weak, moves, wins, tmp_path):
    """The BDDL game engine's minimax (bddl/engines/minimax.py) on the BDDL problem: a third
    way, sharing no rule code with the positional solver."""
    from bddl.engines.minimax import search
    from bddl.game import Game
    from bddl.loader import load_model

    problem = tmp_path / "animal.bddl"
    problem.write_text(animal_bddl(animal, n, weak, moves))
    model = load_model(ROOT / "domains" / "positional.bddl", problem)
    assert search(Game(model.domain, model.problem)).black_wins is wins
    assert solve(animal_game(animal, n, weak, moves)).black_wins is wins


def _small_games():
    for name in ANIMALS:
        size = len(animal_cells(name))
        for n, budgets in ((3, range(size - 1, 6)), (4, range(size - 1, 5))):
            for moves in budgets:
                if moves >= 1 and placements(name, n):
                    yield pytest.param(name, n, moves, id=f"{name}-{n}x{n}-m{moves}")


@pytest.mark.parametrize("animal, n, moves", list(_small_games()))
def test_every_animal_on_small_boards_two_ways(animal, n, moves):
    """All 20 animals on 3x3 (to the full board) and 4x4 (to 4 moves), weak and strong, at
    budgets around the animal's size: the solver with all its cuts, without symmetries and
    relevance, and the plain minimax give one answer."""
    for weak in (True, False):
        game = animal_game(animal, n, weak=weak, moves=moves)
        expected = PlainMinimax(game).black_wins()
        assert solve(game).black_wins is expected
        assert solve(game, use_symmetries=False, relevance=False).black_wins is expected
        assert solve(game, symmetry_after=0).black_wins is expected
