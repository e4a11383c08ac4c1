"""The QBF route on BDDL models (`compiler.languages.BddlModel.solve_qbf`): verdicts from real solvers against the manifest and the
engine, first moves checked by play, honest time limits."""

from __future__ import annotations

import time

import pytest

from bddl import Game
from bddl.game import BLACK, WHITE
from bddl.loader import load_model
from bddl.engines.minimax import black_wins, search
from compiler.solving.qbf.solver_programs import DEFAULT_SOLVER, SOLVER_CHOICES, SolverRun, default_solver, members
from compiler.languages import bddl_model, problem_at
from compiler.solving.results import MoveCheckError
from helpers.speed import is_quick, marks
from helpers.suite import DOMAINS, PROBLEMS, manifest

def instances(quick: bool):
    """The manifest's problems, quick ones (tests/quick.toml, [solving]) or the others, marked slow."""
    return [
        pytest.param(entry, id=entry.file, marks=marks("solving", entry.file))
        for entry in manifest()
        if is_quick("solving", entry.file) == quick
    ]


def solve(domain, problem, depth=None, **options):
    """The QBF route on a domain and problem already read (at `depth`, default the problem's)."""
    model = bddl_model(domain, problem)
    return (model if depth is None else model.at_depth(depth)).solve_qbf(**options)


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
    if result.black_wins is None and not is_quick("solving", entry.file):
        pytest.skip(f"no verdict: {result.reason}")  # hard for the solver; never a wrong answer
    assert result.black_wins is entry.black_wins, result.reason
    assert result.depth == entry.depth
    game = Game(m.domain, m.problem)
    if result.black_wins and m.problem.black_first:
        assert result.first_move is not None and result.move_source == "solver"
        assert_first_move_wins(game, entry.depth, result.first_move.move)
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
    assert_first_move_wins(Game(m.domain, m.problem), entry.depth, result.first_move.move)


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
    import compiler.solving.qbf.verdicts as solving

    m = load_model(DOMAINS / "connect.bddl", PROBLEMS / "connect/connect3_5x4_d9.bddl")  # 5 moves in 3 bits

    def lying_solver(name, path, timeout=None, model=True, options=(), stop=None):
        text = open(path).read()
        first = next(line for line in text.splitlines() if line.startswith("e "))
        return SolverRun(name, True, 0.0, "solved", {int(v): True for v in first.split()[1:-1]}, "")

    monkeypatch.setattr(solving, "run_solver", lying_solver)
    with pytest.raises(MoveCheckError, match="not legal"):
        solve(m.domain, m.problem, solver="depqbf")
