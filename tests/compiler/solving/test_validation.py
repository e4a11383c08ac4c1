"""Strategy validation: bddlc's Black passes on true suite instances of both
languages; broken strategies fail, with the line shown."""

from __future__ import annotations

import dataclasses

import pytest

from bddl.rules import BLACK
from compiler.model import open_model
from compiler.solving.strategy import SolverStrategy
from compiler.solving.strategy_validation import format_line, validate
from helpers.speed import marks
from helpers.suite import DOMAINS, PROBLEMS, ROOT, manifest

# true instances whose validation takes more than half a minute (or whose root solve does)
TOO_BIG = {"breakthrough/second_4x4_d14.bddl", "breakthrough/second_3x5_d18.bddl", "breakthrough/2x6_d15.bddl",
           "httt/elly_4x4_d7.bddl", "httt/tippy_4x4_d9.bddl", "hex/hex4_a_d7.bddl", "hex/hex4_b_d9.bddl",
           "hex/hex4_d9.bddl", "hex/hex5_d5.bddl", "knightthrough/second_3x6_d16.bddl"}
PG = ROOT / "problems" / "pg"


def true_instances():
    chosen = []
    for entry in manifest():
        if not entry.black_wins or entry.slow or entry.file in TOO_BIG:
            continue
        chosen.append(pytest.param(entry, id=entry.file, marks=marks("validation", entry.file)))
    return chosen


@pytest.mark.parametrize("entry", true_instances())
def test_bddlc_black_wins_every_line(entry):
    model = open_model([entry.domain, entry.problem])
    report = validate(model.rules, SolverStrategy(model, timeout=60))
    assert report.passed and report.complete, report
    assert report.lines >= 1


@pytest.mark.parametrize("game", ["tictactoe_3x3_d5.pg", "tictactoe_3x3_p2q1.pg"])
def test_bddlc_black_wins_every_line_of_a_positional_game(game):
    model = open_model([PG / game])
    report = validate(model.rules, SolverStrategy(model, timeout=60))
    assert report.passed and report.complete and report.lines >= 1, report


def model(domain: str, problem: str):
    return open_model([DOMAINS / domain, PROBLEMS / problem])


def test_a_naive_strategy_fails_with_the_line_shown():
    """'Play the first legal move' is not a winning strategy for tic-tac-toe-like 4x4 Tic."""
    m = model("positional.bddl", "httt/tic_4x4_d5.bddl")

    def first_legal(position, plies):
        return m.rules.plays(position)[0]

    report = validate(m.rules, first_legal)
    assert not report.passed and report.failure is not None
    failure = report.failure
    assert failure.reason == "the plies ran out before Black reached its goal"
    assert [p.side for p in failure.plies] == ["black", "white", "black", "white", "black"]
    assert failure.plies[0].text == "occupy 1 1"
    text = format_line(m.rules, failure)
    assert "1. black occupy 1 1" in text and "5. black" in text and "failure: the plies ran out" in text


def test_a_naive_strategy_fails_in_a_positional_game_too():
    m = open_model([PG / "tictactoe_3x3_d5.pg"])
    report = validate(m.rules, lambda position, plies: m.rules.plays(position)[0])
    assert report.failure is not None and report.failure.plies[0].text == "a1"
    assert "failure: " in format_line(m.rules, report.failure)


@pytest.mark.parametrize("paths", [("domineering.bddl", "domineering/3x3_d4.bddl"), None])
def test_an_illegal_move_fails(paths):
    m = model(*paths) if paths else open_model([PG / "tictactoe_3x3_d5.pg"])
    real = SolverStrategy(m)

    def cheat(position, plies):
        move = real(position, plies)
        taken = position.black | position.white
        other = next(p for p in m.rules.plays(position) if p.after != move.after)
        return dataclasses.replace(move, after=dataclasses.replace(other.after, black=other.after.black | taken))

    report = validate(m.rules, cheat)
    assert report.failure and "is not legal here" in report.failure.reason
    assert report.failure.plies == ()


def test_a_strategy_that_gives_up_fails():
    m = model("domineering.bddl", "domineering/4x4_d8.bddl")
    real = SolverStrategy(m)
    report = validate(m.rules, lambda position, plies: None if plies < 8 else real(position, plies))
    assert report.failure and "no winning move" in report.failure.reason
    assert len(report.failure.plies) == 2


def test_max_lines_stops_early_and_says_so():
    m = model("positional.bddl", "hex/hex4_c_d5.bddl")
    report = validate(m.rules, SolverStrategy(m), max_lines=5)
    assert report.passed and report.lines == 5 and not report.complete


def test_positions_are_solved_once():
    m = model("positional.bddl", "httt/el_3x3_d5.bddl")
    strategy = SolverStrategy(m)
    validate(m.rules, strategy)
    solves = strategy.solves
    validate(m.rules, strategy)
    assert strategy.solves == solves


def test_the_strategy_plays_for_black_only_where_black_moves():
    m = open_model([PG / "tictactoe_3x3_d5.pg"])
    move = SolverStrategy(m)(m.rules.initial, m.depth)
    assert move is not None and move.side == BLACK and move.after.ply == 1
