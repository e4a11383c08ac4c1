"""`compiler.solving.pipeline`: verdicts from real solvers against the manifest and the
engine, first moves checked by play, honest time limits."""

from __future__ import annotations

import time

import pytest

from bddl import Game
from bddl.game import BLACK, WHITE
from bddl.loader import load_model
from bddl.search import black_wins, search
from compiler.solving.solver_programs import DEFAULT_SOLVER, SOLVER_CHOICES, SolverRun, default_solver, members
from compiler.solving.pipeline import MoveCheckError, problem_at, solve
from suite import DOMAINS, PROBLEMS, manifest

# Instances where DepQBF took more than 0.3 s, or gave no verdict within 5 s,
# on the default encoding (the measurements in docs/solving.md): run with --runslow.
SLOW_FILES = {
    "breakthrough/2x5_d17.bddl", "breakthrough/2x6_d13.bddl", "breakthrough/2x6_d15.bddl",
    "breakthrough/3x4_d19.bddl", "breakthrough/3x5_d11.bddl", "breakthrough/second_2x6_d14.bddl",
    "breakthrough/second_3x4_d12.bddl", "breakthrough/second_3x5_d12.bddl", "breakthrough/second_3x5_d18.bddl",
    "breakthrough/second_4x4_d14.bddl", "connect/connect3_4x4_d9.bddl", "connect/connect3_5x4_d9.bddl",
    "connect/connect3_5x5_d9.bddl", "connect/connect4_4x4_d15.bddl", "connect/connect4_5x4_d19.bddl",
    "connect/connect4_5x5_d11.bddl", "domineering/4x5_d11.bddl", "domineering/5x4_d10.bddl",
    "domineering/5x5_d13.bddl", "evader_pursuer/4x4_p1-2_d21.bddl", "evader_pursuer/8x8_p2-3_d11.bddl",
    "evader_pursuer/8x8_p3-4_d7.bddl", "evader_pursuer/dual_4x4_p2-3_d10.bddl",
    "evader_pursuer/dual_8x8_p2-3_d6.bddl", "evader_pursuer/dual_8x8_p3-4_d10.bddl", "hex/hex4_b_d7.bddl",
    "hex/hex4_b_d9.bddl", "hex/hex4_d7.bddl", "hex/hex4_d9.bddl", "hex/hex4_lost_d11.bddl", "httt/elly_3x3_d9.bddl",
    "httt/elly_4x4_d7.bddl", "httt/fatty_4x4_d15.bddl", "httt/knobby_4x4_d11.bddl", "httt/knobby_4x4_d15.bddl",
    "httt/maker_tic_3x3_d9.bddl", "httt/skinny_4x4_d13.bddl", "httt/tippy_3x3_d9.bddl", "httt/tippy_4x4_d7.bddl",
    "httt/tippy_4x4_d9.bddl", "knightthrough/3x5_d7.bddl", "knightthrough/4x5_d5.bddl", "knightthrough/5x5_d5.bddl",
    "knightthrough/second_3x6_d14.bddl", "knightthrough/second_3x6_d16.bddl",
}


def instances(quick: bool):
    chosen = []
    for entry in manifest():
        slow = entry.slow or entry.file in SLOW_FILES
        if quick != slow:
            chosen.append(pytest.param(entry, id=entry.file, marks=[pytest.mark.slow] if slow else []))
    return chosen


def model(entry):
    return load_model(entry.domain, entry.problem)


def assert_first_move_wins(game, depth, move):
    """The engine's own verdict on the position after the move: Black wins with depth-1 plies left."""
    assert move.side == BLACK
    assert any(m.state == move.state and (m.x, m.y, m.action_index) == (move.x, move.y, move.action_index)
               for m in game.moves(game.initial, BLACK)), "not a legal move"
    assert game.won(move.state, BLACK) or black_wins(game, move.state, WHITE, depth - 1)


# the default solver (Qute on QCIR), and with --runslow DepQBF on QDIMACS:
# another solver on another file format
MANIFEST_SOLVERS = [DEFAULT_SOLVER] + [pytest.param(s, marks=pytest.mark.slow) for s in ("qute", "depqbf") if s != DEFAULT_SOLVER]


@pytest.mark.parametrize("solver", MANIFEST_SOLVERS)
@pytest.mark.parametrize("entry", instances(quick=True) + instances(quick=False))
def test_solve_matches_manifest_and_first_move_wins(entry, solver):
    m = model(entry)
    result = solve(m.domain, m.problem, solver=solver, timeout=120)
    if result.black_wins is None and entry.file in SLOW_FILES:
        pytest.skip(f"no verdict: {result.reason}")  # hard for the solver; never a wrong answer
    assert result.black_wins is entry.black_wins, result.reason
    assert result.depth == entry.depth
    game = Game(m.domain, m.problem)
    if result.black_wins and m.problem.black_first:
        assert result.first_move is not None and result.move_source == "solver"
        assert_first_move_wins(game, entry.depth, result.first_move)
    else:
        assert result.first_move is None


SMALL_TRUE = ["domineering/3x3_d4.bddl", "connect/connect2_3x3_d3.bddl", "httt/domino_1x3_d3.bddl", "hex/hex2_d3.bddl"]


@pytest.mark.parametrize("solver", SOLVER_CHOICES)
@pytest.mark.parametrize("file", SMALL_TRUE)
def test_every_solver_gives_a_winning_first_move(solver, file):
    entry = next(e for e in manifest() if e.file == file)
    m = model(entry)
    result = solve(m.domain, m.problem, solver=solver, timeout=60)
    ran = default_solver(result.encoding) if solver == DEFAULT_SOLVER else solver  # "default" is chosen per encoding
    assert result.black_wins is True and result.solver == ran
    assert result.answered_by in members(ran)
    # QFun prints no assignment: its move is proved by a second solve instead
    assert result.move_source == ("proved" if solver == "qfun" else "solver")
    assert_first_move_wins(Game(m.domain, m.problem), entry.depth, result.first_move)


def test_no_first_move_when_white_moves_first():
    m = load_model(DOMAINS / "breakthrough.bddl", PROBLEMS / "breakthrough/second_2x4_d8.bddl")
    result = solve(m.domain, m.problem)
    assert result.black_wins is True and not result.black_first
    assert result.first_move is None and "White moves first" in result.reason


def test_depth_override_and_sizes():
    m = load_model(DOMAINS / "domineering.bddl", PROBLEMS / "domineering/4x4_d8.bddl")
    shallow = solve(m.domain, m.problem, 7)
    deep = solve(m.domain, m.problem)
    assert (shallow.black_wins, shallow.depth, deep.black_wins, deep.depth) == (False, 7, True, 8)
    assert 0 < shallow.size.vars < deep.size.vars and shallow.size.gates > 0 and shallow.size.clauses > 0


def test_problem_at_restarts_the_game_from_any_position():
    m = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_4x4_d9.bddl")
    game = Game(m.domain, m.problem)
    first = game.moves(game.initial, BLACK)[5]
    reply = game.moves(first.state, WHITE)[2]
    for state, side, plies in ((first.state, WHITE, 8), (reply.state, BLACK, 7)):
        restarted = Game(m.domain, problem_at(m.problem, state, plies, side))
        assert restarted.initial == state and restarted.black_first == (side == BLACK)
        assert search(restarted).black_wins == black_wins(game, state, side, plies)
        assert solve(m.domain, problem_at(m.problem, state, plies, side)).black_wins == black_wins(game, state, side, plies)


def test_time_limit_is_honoured():
    m = load_model(DOMAINS / "positional.bddl", PROBLEMS / "httt/knobby_4x4_d15.bddl")
    start = time.perf_counter()
    result = solve(m.domain, m.problem, timeout=1)
    elapsed = time.perf_counter() - start
    assert result.black_wins is None and "time limit" in result.reason
    assert elapsed < 5


def test_an_illegal_move_from_the_solver_is_an_internal_error(monkeypatch):
    """A solver assignment naming no legal move must never reach the user."""
    import compiler.solving.pipeline as solving

    m = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_5x4_d9.bddl")  # 5 moves in 3 bits

    def lying_solver(name, path, timeout=None, model=True, options=()):
        text = open(path).read()
        first = next(line for line in text.splitlines() if line.startswith("e "))
        return SolverRun(name, True, 0.0, "solved", {int(v): True for v in first.split()[1:-1]}, "")

    monkeypatch.setattr(solving, "run_solver", lying_solver)
    with pytest.raises(MoveCheckError, match="not legal"):
        solve(m.domain, m.problem, solver="depqbf")
