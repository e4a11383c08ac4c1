"""Race patterns (`bddl.engines.race`): each one proved again by search, the game
recognised from its rules only, and the knowledge never contradicting the
minimax oracle on real Breakthrough positions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from conftest import ROOT
from helpers.corpus import SAT2023, needs_corpus

from bddl import Game, load_model, search
from bddl.ast import Action, Atom, Condition, Relative
from bddl.engines.pns import search_pns
from bddl.engines.race import race_knowledge
from bddl.engines.race.patterns import ATTACKER, DEFENDER, PATTERN_FILE, RacePattern, _expand, all_windows, generate, load_patterns
from bddl.engines.race.recognise import breakthrough_directions
from bddl.engines.race.restricted import race_order
from bddl.engines.minimax import black_wins

PATTERNS = load_patterns()


def _pattern_params():
    return [
        pytest.param(p, id=p.text().replace(" ", "_"), marks=[pytest.mark.slow] if sum(1 for _ in p.fillings()) > 300 else [])
        for p in PATTERNS
    ]


def test_there_are_patterns_of_both_movers_and_orders():
    kinds = {(p.attacker_first, p.order) for p in PATTERNS}
    assert kinds == {(True, 1), (True, 2), (False, 1), (False, 2)}


@pytest.mark.parametrize("pattern", _pattern_params())
def test_each_pattern_is_proved_by_search(pattern: RacePattern):
    fillings = list(pattern.fillings())
    assert fillings
    for a, d in fillings:
        order = race_order(pattern.window, a, d, pattern.attacker_first, pattern.order)
        assert order is not None and order <= pattern.order, (pattern.text(), a, d)


def test_fillings_are_the_generators_expansion_as_masks():
    # two computations: `fillings` builds masks cell by cell, the generator's `_expand` lists the
    # fillings as strings in `product`'s order; the masks are read off the strings here
    for pattern in PATTERNS:
        w = pattern.window
        bits = [w.bit(c, r) for c, r in w.cells()]
        expected = [(sum(b for b, v in zip(bits, f) if v == ATTACKER), sum(b for b, v in zip(bits, f) if v == DEFENDER))
                    for f in _expand(w, pattern.cells)]
        assert list(pattern.fillings()) == expected, pattern.text()


@pytest.mark.slow
def test_the_pattern_file_is_what_the_generator_writes():
    lines = [line for line in PATTERN_FILE.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    generated = [p.text() for w in all_windows() for first in (True, False) for p in generate(w, first)]
    assert lines == generated


def test_a_pattern_with_a_defender_that_can_capture_is_not_proved():
    # attacker one row before the goal, the defender beside it on the goal row captures first
    window = PATTERNS[0].window
    bad = RacePattern(replace(window, width=2, height=2, left_open=False, right_open=False), False, 1, "A..D")
    assert any(race_order(bad.window, a, d, False, 1) is None for a, d in bad.fillings())


def _model(domain: str, problem: str):
    return load_model(ROOT / "domains" / domain, ROOT / "problems" / problem)


def test_breakthrough_is_recognised_from_its_rules():
    model = _model("breakthrough.bddl", "breakthrough/3x4_d19.bddl")
    assert breakthrough_directions(model.domain, model.problem) == {"black": -1, "white": 1}
    renamed = replace(
        model.domain,
        black_actions=tuple(replace(a, name=f"m{i}") for i, a in enumerate(reversed(model.domain.black_actions))),
    )
    assert breakthrough_directions(renamed, model.problem) is not None


@needs_corpus
def test_the_corpus_breakthrough_is_recognised():
    model = load_model(SAT2023 / "breakthrough" / "domain.ig", SAT2023 / "breakthrough" / "3x4_19.ig")
    assert breakthrough_directions(model.domain, model.problem) is not None


def test_other_games_are_not_breakthrough():
    for domain, problem in [
        ("knightthrough.bddl", "knightthrough/3x5_d5.bddl"),
        ("connect.bddl", "connect/connect3_4x4_d9.bddl"),
        ("domineering.bddl", "domineering/4x4_d7.bddl"),
    ]:
        model = _model(domain, problem)
        assert breakthrough_directions(model.domain, model.problem) is None, domain


def test_a_pawn_that_captures_straight_ahead_is_not_breakthrough():
    model = _model("breakthrough.bddl", "breakthrough/3x4_d19.bddl")
    forward = model.domain.black_actions[0]
    here, ahead = (Relative("x", 0), Relative("y", 0)), (Relative("x", 0), Relative("y", -1))
    capturing = replace(forward, precondition=Condition((Atom("black", *here), Atom("black", *ahead, True))))
    domain = replace(model.domain, black_actions=(capturing,) + model.domain.black_actions[1:])
    assert isinstance(capturing, Action)
    assert breakthrough_directions(domain, model.problem) is None


def test_a_goal_on_the_near_row_is_not_breakthrough():
    model = _model("breakthrough.bddl", "breakthrough/3x4_d19.bddl")
    goal = model.problem.black_goals[0]
    near = replace(goal, atoms=(replace(goal.atoms[0], y=replace(goal.atoms[0].y, name="ymax")),))
    assert breakthrough_directions(model.domain, replace(model.problem, black_goals=(near,))) is None


def _random_positions(game: Game, rng: random.Random, count: int):
    """Positions reached by random play from the start, with the side to move."""
    seen = []
    while len(seen) < count:
        state, side = game.initial, "black" if game.black_first else "white"
        for _ply in range(rng.randrange(2, 4 * game.geometry.cells)):
            moves = game.moves(state, side)
            if not moves:
                break
            move = rng.choice(moves)
            if game.won(move.state, side):
                break
            state, side = move.state, "white" if side == "black" else "black"
            seen.append((state, side))
    return seen


@pytest.mark.parametrize("problem", ["breakthrough/second_3x5_d18.bddl", "breakthrough/second_4x4_d14.bddl", "breakthrough/2x6_d15.bddl"])
def test_the_knowledge_never_contradicts_the_minimax(problem):
    model = _model("breakthrough.bddl", problem)
    game = Game(model.domain, model.problem)
    knowledge = race_knowledge(game)
    rng = random.Random(problem)
    verdicts = 0
    for state, side in _random_positions(game, rng, 400):
        plies = rng.randrange(1, 12)
        said = knowledge(side == "black", state.black, state.white, plies)
        if said is not None:
            verdicts += 1
            assert said == black_wins(game, state, side, plies), (game.render(state), side, plies)
    assert verdicts >= 40  # the comparison above must actually have happened


@pytest.mark.parametrize("problem", ["breakthrough/second_3x5_d12.bddl", "breakthrough/2x6_d15.bddl", "breakthrough/second_4x4_d14.bddl"])
def test_patterns_save_positions_and_keep_the_verdict(problem):
    model = _model("breakthrough.bddl", problem)
    game = Game(model.domain, model.problem)
    plain = search_pns(game)
    knowing = search_pns(game, knowledge=race_knowledge(game))
    assert knowing.black_wins == plain.black_wins == search(game).black_wins
    assert knowing.positions < plain.positions
