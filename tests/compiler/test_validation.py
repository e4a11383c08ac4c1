"""Strategy validation: bddlc's Black passes on true suite instances; broken strategies fail, with the line shown."""

from __future__ import annotations

import pytest

from bddl import Game
from bddl.game import BLACK, Move
from bddl.loader import load_model
from compiler.solving.strategy import SolverStrategy
from compiler.solving.strategy_validation import format_line, validate
from helpers.speed import marks
from helpers.suite import DOMAINS, PROBLEMS, manifest

# true instances whose validation takes more than half a minute (or whose root solve does)
TOO_BIG = {"breakthrough/second_4x4_d14.bddl", "breakthrough/second_3x5_d18.bddl", "breakthrough/2x6_d15.bddl",
           "httt/elly_4x4_d7.bddl", "httt/tippy_4x4_d9.bddl", "hex/hex4_a_d7.bddl", "hex/hex4_b_d9.bddl",
           "hex/hex4_d9.bddl", "hex/hex5_d5.bddl", "knightthrough/second_3x6_d16.bddl"}


def true_instances():
    chosen = []
    for entry in manifest():
        if not entry.black_wins or entry.slow or entry.file in TOO_BIG:
            continue
        chosen.append(pytest.param(entry, id=entry.file, marks=marks("validation", entry.file)))
    return chosen


@pytest.mark.parametrize("entry", true_instances())
def test_bddlc_black_wins_every_line(entry):
    m = load_model(entry.domain, entry.problem)
    strategy = SolverStrategy(m.domain, m.problem, timeout=60)
    report = validate(Game(m.domain, m.problem), entry.depth, strategy)
    assert report.passed and report.complete, report
    assert report.lines >= 1


def model(domain: str, problem: str):
    m = load_model(DOMAINS / domain, PROBLEMS / problem)
    return m, Game(m.domain, m.problem)


def test_a_naive_strategy_fails_with_the_line_shown():
    """'Play the first legal move' is not a winning strategy for tic-tac-toe-like 4x4 Tic."""
    m, game = model("positional.bddl", "httt/tic_4x4_d5.bddl")

    def first_legal(state, plies):
        return game.moves(state, BLACK)[0]

    report = validate(game, m.problem.depth, first_legal)
    assert not report.passed and report.failure is not None
    failure = report.failure
    assert failure.reason == "the plies ran out before Black reached its goal"
    assert [p.side for p in failure.plies] == ["black", "white", "black", "white", "black"]
    assert failure.plies[0].text == "occupy 1 1"
    text = format_line(game, game.initial, failure)
    assert "1. black occupy 1 1" in text and "5. black" in text and "failure: the plies ran out" in text


def test_an_illegal_move_fails():
    m, game = model("domineering.bddl", "domineering/3x3_d4.bddl")
    real = SolverStrategy(m.domain, m.problem)

    def cheat(state, plies):
        move = real(state, plies)
        return Move(move.side, move.action, move.action_index, move.x, move.y + 1, move.state)

    report = validate(game, m.problem.depth, cheat)
    assert report.failure and "is not legal here" in report.failure.reason
    assert report.failure.plies == ()


def test_a_strategy_that_gives_up_fails():
    m, game = model("domineering.bddl", "domineering/4x4_d8.bddl")
    real = SolverStrategy(m.domain, m.problem)
    report = validate(game, m.problem.depth, lambda state, plies: None if plies < 8 else real(state, plies))
    assert report.failure and "no winning move" in report.failure.reason
    assert len(report.failure.plies) == 2


def test_max_lines_stops_early_and_says_so():
    m, game = model("positional.bddl", "hex/hex4_c_d5.bddl")
    report = validate(game, m.problem.depth, SolverStrategy(m.domain, m.problem), max_lines=5)
    assert report.passed and report.lines == 5 and not report.complete


def test_positions_are_solved_once():
    m, game = model("positional.bddl", "httt/el_3x3_d5.bddl")
    strategy = SolverStrategy(m.domain, m.problem)
    validate(game, m.problem.depth, strategy)
    solves = strategy.solves
    validate(game, m.problem.depth, strategy)
    assert strategy.solves == solves
