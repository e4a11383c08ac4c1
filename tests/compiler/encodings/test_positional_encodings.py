"""COR+ and COR on positional games (compiler/encodings/cor_plus.py,
corrective_pg.py) against a brute-force oracle, with two solvers."""

from __future__ import annotations

import io

import pytest

from circuits import write_qdimacs
from compiler.encodings import SOLVE_TSEITIN, corrective_pg
from compiler.encodings.cor_plus import bits_for, encode
from compiler.solving.qbf.solver_programs import run_solver_on_text
from helpers.positional_games import BLACK, WHITE, black_wins, differential_sample, random_grid_game, white_sets_decide, winning_first_moves
from compiler.encodings.positional import open_game, second_point_cuts
import random
from bddl.pg.game import PositionalGame


ENCODERS = {"cor+": encode, "corrective": corrective_pg.encode}


def text(formula) -> str:
    buf = io.StringIO()
    write_qdimacs(formula.qdimacs(**SOLVE_TSEITIN), buf)
    return buf.getvalue()


def solve(formula, solver: str):
    run = run_solver_on_text(solver, text(formula), ".qdimacs", 60.0, model=True)
    assert run.status == "solved", f"{solver}: {run.status}\n{run.output[-1000:]}"
    return run


GAMES = differential_sample(seed=14, count=80)


@pytest.mark.parametrize("solver", ["depqbf", "caqe"])
@pytest.mark.parametrize("encoding", ENCODERS)
def test_random_games_agree_with_search(encoding, solver):
    games = GAMES if solver == "depqbf" else GAMES[:40]  # the second solver on half of them: CI time
    answers = {True: 0, False: 0}
    for index, game in enumerate(games):
        expected = black_wins(game)
        answers[expected] += 1
        assert solve(ENCODERS[encoding](game), solver).verdict == expected, f"game {index}: {game}"
    # both answers are well represented, so neither a constant-true nor a constant-false encoding passes
    assert min(answers.values()) >= len(games) // 4, answers


def test_the_random_games_cover_every_feature():
    """The sample holds (p,q) turns, White first, initial stones, first-move sets and both game kinds."""
    def pq(game):
        return any(a == b for a, b in zip(game.turns, game.turns[1:]))

    features = {
        "pq": sum(map(pq, GAMES)),
        "white first": sum(g.turns[0] == WHITE for g in GAMES),
        "initial stones": sum(bool(g.black_initials or g.white_initials) for g in GAMES),
        "first moves": sum(g.first_moves is not None for g in GAMES),
        "maker-breaker": sum(g.maker_breaker for g in GAMES),
        "maker-maker": sum(not g.maker_breaker for g in GAMES),
        "white's sets decide": sum(map(white_sets_decide, GAMES)),
        "White to move on a full board": sum(map(white_moves_on_full_board, GAMES)),
    }
    assert min(features.values()) >= 8, features


def white_moves_on_full_board(game) -> bool:
    """A White time point after the board is full, with a Black point after it (not dropped)."""
    full = len(game.cells) - len(game.black_initials | game.white_initials)
    return WHITE in game.turns[full:] and BLACK in game.turns[game.turns.index(WHITE, full):]


@pytest.mark.parametrize("encoding", ENCODERS)
def test_first_move_read_from_depqbf_is_winning(encoding):
    checked = 0
    for game in GAMES:
        if not game.turns or game.turns[0] != BLACK or not black_wins(game):
            continue
        formula = ENCODERS[encoding](game)
        run = solve(formula, "depqbf")
        assert run.verdict
        move = formula.first_move(lambda var, model=run.model: model.get(var, False))
        assert formula.game.cells[move] in winning_first_moves(game)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("encoding", ENCODERS)
def test_same_game_same_bytes(encoding):
    for game in GAMES[:10]:
        assert text(ENCODERS[encoding](game)) == text(ENCODERS[encoding](game))


def test_bits_number_cells_from_zero():
    assert [bits_for(n) for n in (1, 2, 3, 4, 5, 16, 17, 64, 356)] == [0, 1, 2, 2, 3, 4, 5, 6, 9]


def tic_tac_toe(times: int, black_first: bool = True) -> PositionalGame:
    lines = [{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}]
    sets = tuple(frozenset(line) for line in lines)
    first, second = (BLACK, WHITE) if black_first else (WHITE, BLACK)
    turns = tuple(first if t % 2 == 0 else second for t in range(times))
    return PositionalGame(tuple(f"c{i}" for i in range(9)), tuple(f"t{t}" for t in range(times)), turns, sets, sets)


def test_prefix_of_a_pq_game_has_one_block_per_turn():
    """Two White stones per turn share one universal block; a trailing White point is dropped."""
    game = tic_tac_toe(6)
    game = PositionalGame(game.cells, game.times, (BLACK, WHITE, WHITE, BLACK, BLACK, WHITE), game.black_wins, game.white_wins)
    q = encode(game).qdimacs()
    assert [quant for quant, _ in q.prefix] == ["exists", "forall", "exists"]
    assert len(q.prefix[1][1]) == 2 * bits_for(9)


@pytest.mark.parametrize("encoding", ENCODERS)
def test_tic_tac_toe_is_a_draw_and_maker_breaker_is_won(encoding):
    assert not solve(ENCODERS[encoding](tic_tac_toe(9)), "depqbf").verdict
    breaker = tic_tac_toe(9)
    breaker = PositionalGame(breaker.cells, breaker.times, breaker.turns, breaker.black_wins, ())
    assert solve(ENCODERS[encoding](breaker), "depqbf").verdict


def grid_games(seed: int, count: int):
    rng = random.Random(seed)
    return [random_grid_game(rng) for _ in range(count)]


GRID_GAMES = grid_games(seed=15, count=40)


@pytest.mark.parametrize("encoding", ENCODERS)
def test_symmetric_games_with_second_point_cuts_agree_with_search(encoding):
    """Grid games have board symmetries, so the second point's symmetry cut is in play."""
    answers = {True: 0, False: 0}
    cut = 0
    for game in GRID_GAMES:
        expected = black_wins(game)
        answers[expected] += 1
        cut += bool(second_point_cuts(open_game(game)))
        assert solve(ENCODERS[encoding](game), "depqbf").verdict == expected, game
    assert min(answers.values()) >= 8, answers
    assert cut >= 20, cut
