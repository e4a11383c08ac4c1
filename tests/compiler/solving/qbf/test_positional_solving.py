"""`solve_pg` (what `bddlc solve game.pg` runs) against the oracles: random
games against the brute-force minimax, the corpus's GTTT 3x3 files against
answers.tsv, and every first move confirmed by the explicit solver."""

from __future__ import annotations

import pytest

from bddl.pg.reader import load_pg
from bddl.engines.positional import solve as explicit_solve
from compiler.encodings import POSITIONAL_ENCODING as PG_SOLVE_ENCODING
from compiler.languages import pg_model
from compiler.languages.pg_model import check_first_move

from helpers.corpus import PG_CORPUS, needs_pg_corpus, pg_answers
from helpers.positional_games import BLACK, black_wins, differential_sample, winning_first_moves

GAMES = differential_sample(seed=1414, count=40)

def solve_pg(game, **options):
    """The QBF route on a positional game already read (no soonest: the route's own first move)."""
    return pg_model(game).solve_qbf(**options)


def test_the_explicit_solver_and_the_minimax_agree():
    """Two oracles written apart: the tests' minimax and bddl.engines.positional."""
    answers = [black_wins(game) for game in GAMES]
    assert answers == [explicit_solve(game).black_wins for game in GAMES]
    assert 10 <= sum(answers) <= 30


@pytest.mark.parametrize("encoding", ["cor+", "corrective"])
def test_solve_pg_on_random_games(encoding):
    moves = 0
    for game in GAMES:
        result = solve_pg(game, encoding=encoding, timeout=60)
        assert result.black_wins == black_wins(game), game
        if result.black_wins and game.turns[0] == BLACK:
            assert result.move_source == "checked"
            assert result.first_move.move in winning_first_moves(game)
            moves += 1
    assert moves >= 5


def test_a_losing_first_move_is_refuted():
    checked = 0
    for game in GAMES:
        if game.turns[0] != BLACK:
            continue
        winning = winning_first_moves(game)
        for cell in set(range(len(game.cells))) - winning - game.black_initials - game.white_initials:
            if game.first_moves is None or cell in game.first_moves:
                assert check_first_move(game, cell) is False
                checked += 1
    assert checked >= 20


@needs_pg_corpus
def test_gttt_3x3_files_get_the_published_answers():
    known = dict(pg_answers("gttt-3x3/"))
    files = sorted((PG_CORPUS / "gttt-3x3").glob("*.pg"))
    assert len(files) == 84
    for path in files:
        result = solve_pg(load_pg(path), encoding=PG_SOLVE_ENCODING, timeout=60)
        assert result.black_wins == known[f"gttt-3x3/{path.name}"], path.name
        assert result.first_move is None or result.move_source == "checked"
