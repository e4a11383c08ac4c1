"""The explicit positional solver against a brute-force minimax on random small
games, against the corpus's published answers, and its budget contract."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bddl.pg.game import BLACK, WHITE, BorderGraph, PositionalGame
from bddl.pg.geometry import symmetries
from bddl.pg.reader import load_pg, read_pg
from bddl.engines.positional import PositionalSolver, SearchBudgetExceeded, solve
from conftest import scaled
from helpers.corpus import PG_CORPUS, needs_pg_corpus, pg_answers
from pg_random import brute_force, random_game

RANDOM_GAMES = scaled(1500)


def test_solver_agrees_with_brute_force_on_random_games():
    rng = random.Random(14)
    kinds = {"maker-maker": 0, "maker-breaker": 0, "border": 0, "true": 0, "false": 0, "pq": 0, "symmetric": 0}
    for number in range(RANDOM_GAMES):
        game = random_game(rng)
        expected = brute_force(game)
        for use_symmetries in (False, True):
            got = solve(game, use_symmetries=use_symmetries, symmetry_after=0).black_wins
            assert got == expected, (number, use_symmetries, game)
        kinds["border" if game.graph else "maker-breaker" if game.maker_breaker else "maker-maker"] += 1
        kinds["true" if expected else "false"] += 1
        kinds["pq"] += any(a == b for a, b in zip(game.turns, game.turns[1:]))
        kinds["symmetric"] += len(symmetries(game)) > 1
    # every kind of game was met often enough for the agreement to mean something
    assert min(kinds.values()) >= RANDOM_GAMES // 20, kinds


def test_black_wins_from_a_position_agrees_with_the_start():
    """`PositionalSolver.black_wins` on a position after one move (what play/validate ask)."""
    rng = random.Random(7)
    checked = 0
    for _ in range(scaled(150)):
        game = random_game(rng)
        solver = PositionalSolver(game, symmetry_after=0)
        b, w = game.mask(game.black_initials), game.mask(game.white_initials)
        if solver.rules.settled_before_play(b, w) is not None or not game.depth:
            continue
        first = game.first_moves if game.first_moves is not None else frozenset(range(len(game.cells)))
        open_cells = [c for c in sorted(first) if not (b | w) >> c & 1]
        values = []
        for c in open_cells:
            if game.turns[0] == BLACK:
                nb, nw = b | 1 << c, w
            else:
                nb, nw = b, w | 1 << c
            values.append(_after_first_move(game, c, solver.black_wins(nb, nw)))
        if not open_cells:
            continue
        whole = brute_force(game)
        assert whole == (any(values) if game.turns[0] == BLACK else all(values))
        checked += 1
    assert checked >= scaled(150) // 3


def _after_first_move(game: PositionalGame, c: int, later: bool) -> bool:
    """The value of the first move c: a completed goal decides it, else the position after it."""
    if game.turns[0] == BLACK:
        own = game.black_initials | {c}
        if game.graph is None and any(s <= own for s in game.black_wins):
            return True
        if game.graph is not None:
            return brute_force(_with_initials(game, own, game.white_initials, 1))
        return later
    own = game.white_initials | {c}
    if any(s <= own for s in game.white_wins):
        return False
    return later


def _with_initials(game, black, white, played):
    return PositionalGame(
        cells=game.cells,
        times=game.times[played:],
        turns=game.turns[played:],
        black_wins=game.black_wins,
        white_wins=game.white_wins,
        black_initials=frozenset(black),
        white_initials=frozenset(white),
        graph=game.graph,
        coordinates=game.coordinates,
    )


def tiny(turns: str, black_wins, white_wins=(), n: int = 3, **kw) -> PositionalGame:
    sides = tuple(BLACK if s == "b" else WHITE for s in turns)
    return PositionalGame(
        cells=tuple(f"c{i}" for i in range(n)),
        times=tuple(f"t{i}" for i in range(len(sides))),
        turns=sides,
        black_wins=tuple(frozenset(s) for s in black_wins),
        white_wins=tuple(frozenset(s) for s in white_wins),
        **kw,
    )


def test_time_running_out_is_not_a_black_win():
    assert solve(tiny("bwb", [{0, 1}, {0, 2}])).black_wins  # a double threat White cannot block
    assert not solve(tiny("bw", [{0, 1}, {0, 2}])).black_wins  # one Black move is not enough


def test_a_mover_without_open_cells_ends_the_game_and_black_has_not_won():
    # BDDL would call White's missing move a Black win; here it is the end of the game
    game = tiny("bbwb", [{0, 2}, {0, 1, 2}], n=2)
    assert not solve(game).black_wins
    assert not brute_force(game)


def test_pq_turns_let_black_claim_two_cells_in_a_row():
    assert solve(tiny("bb", [{0, 1}])).black_wins
    assert not solve(tiny("bwb", [{0, 1}], n=2)).black_wins


def test_maker_maker_white_wins_first():
    game = tiny("wbwb", [{1, 2}], [{0}], n=3)
    assert not solve(game).black_wins


def test_first_move_set_restricts_the_first_claim():
    game = tiny("b", [{2}], n=3)
    assert solve(game).black_wins
    restricted = tiny("b", [{2}], n=3, first_moves=frozenset({0, 1}))
    assert not solve(restricted).black_wins


def test_initial_goal_decides_before_play():
    assert solve(tiny("w", [{0}], black_initials=frozenset({0}))).black_wins
    assert not solve(tiny("b", [{1}], [{0}], white_initials=frozenset({0}))).black_wins


def test_border_goal():
    graph = BorderGraph(((1,), (0, 2), (1,)), frozenset({0}), frozenset({2}))
    assert solve(tiny("bbb", [], n=3, graph=graph)).black_wins
    assert not solve(tiny("bwb", [], n=3, graph=graph)).black_wins
    assert solve(tiny("bwb", [], n=3, graph=graph, black_initials=frozenset({0, 1}))).black_wins
    assert not solve(tiny("wb", [], n=3, graph=graph, black_initials=frozenset({0, 1}))).black_wins


def test_budget_exhausted_is_reported():
    # (not the O-tetromino's 4x4 game: White's pairing decides that one before any search)
    game = read_pg((PG_CORPUS / "gttt-4x4" / "gttt_1_1_00101121_4x4_b.pg").read_text()) if PG_CORPUS.is_dir() else None
    if game is None:
        game = tiny("bwbwbwbw", [{0, 1, 2}, {0, 3, 4}, {0, 5, 6}, {1, 3, 5}], [{1, 4, 7}], n=9)  # no pairing blocks these
    with pytest.raises(SearchBudgetExceeded) as info:
        solve(game, max_positions=5)
    assert info.value.positions == 6


def test_first_move_is_a_winning_claim():
    game = tiny("bwb", [{0, 1}, {0, 2}], n=3)
    result = solve(game)
    assert result.black_wins and result.first_move == 0


# -- the published answers -------------------------------------------------------


def corpus_answers(folder: str) -> list[tuple[Path, bool]]:
    return [(PG_CORPUS / name, expected) for name, expected in pg_answers(folder)]


def quick_4x4(path: Path) -> bool:
    """The GTTT(1,1) files on the plain board: a few seconds for all 16 under load.
    The other 80 (torus, (2,1), (2,2)) take about 20 s together: the slow test."""
    return path.name.startswith("gttt_1_1_") and "torus" not in path.name


@needs_pg_corpus
def test_every_3x3_corpus_answer():
    rows = corpus_answers("gttt-3x3")
    assert len(rows) == 84
    for path, expected in rows:
        assert solve(load_pg(path)).black_wins == expected, path.name


@needs_pg_corpus
def test_quick_4x4_corpus_answers():
    rows = [(p, e) for p, e in corpus_answers("gttt-4x4") if quick_4x4(p)]
    assert len(rows) == 16
    for path, expected in rows:
        assert solve(load_pg(path)).black_wins == expected, path.name


@pytest.mark.slow
@needs_pg_corpus
def test_every_4x4_corpus_answer():
    rows = corpus_answers("gttt-4x4")
    assert len(rows) == 96
    for path, expected in rows:
        assert solve(load_pg(path)).black_wins == expected, path.name


@pytest.mark.slow
@needs_pg_corpus
def test_hein_corpus_answers():
    """The Hex puzzles up to 5x5 (30 files): about 15 minutes under load before
    the relevance pruning, seconds with it (tests/pg/test_relevance.py runs them
    in the quick suite, and the 6x6 ones in its slow test)."""
    rows = [(p, e) for p, e in corpus_answers("hein") if not any(size in p.name for size in ("6x6", "7x7"))]
    assert len(rows) == 30
    for path, expected in rows:
        assert solve(load_pg(path)).black_wins == expected, path.name
