"""The checker against independent oracles, on random small games.

* On boards of at most six cells every state can be enumerated, so the
  engine decides the sanity conditions (and the lint findings) by brute
  force; the SAT check and the lint shortcuts must agree exactly.
* On the random games of `tests/helpers/strategies.py` (boards up to 4x3): when the
  check says the conditions hold, the QBF answer equals the engine's (the
  theorem the paper's encoding relies on); when it reports a violation, the
  counterexample is a legal engine step that creates the opponent's win.
"""

from __future__ import annotations

from helpers.check_models import assert_replays
from conftest import Reach, scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import Absolute, Action, Atom, Condition, Domain, Extreme, Game, Problem, Relative, search
from bddl.bounds import action_bounds, condition_bounds
from bddl.game import BLACK, VALUES, WHITE, Geometry, State, condition_holds_at, opponent
from compiler import encode
from compiler.analysis.sanity import check
from compiler.encodings.grounding import ground_goals, ground_moves
from compiler.analysis.lint import changeable_cells, dead_actions, dead_goals, first_move, goal_placements
from compiler.analysis.sanity_sat import violating_steps
from helpers.qbf import depqbf
from helpers.strategies import PREDS
from helpers.strategies import game as random_game


def _coord(axis: str):
    return st.one_of(
        st.integers(-1, 1).map(lambda k: Relative(axis, k)),
        st.sampled_from((f"{axis}min", f"{axis}max")).map(Extreme),
    )


_ATOM = st.builds(Atom, st.sampled_from(PREDS), _coord("x"), _coord("y"), st.booleans())
_GOAL_ATOM = st.builds(Atom, st.sampled_from(PREDS), _coord("x"), _coord("y"), st.just(False))


def _conditions(atoms, low: int, high: int):
    return st.lists(atoms, min_size=low, max_size=high).map(lambda a: Condition(tuple(a)))


@st.composite
def tiny_game(draw):
    """Games on at most six cells, biased towards breaking the sanity
    conditions: short offsets, effects of any colour, goals on both sides
    (whether they hold initially does not matter here)."""
    sides = []
    for prefix in ("b", "w"):
        n = draw(st.integers(1, 2))
        sides.append(tuple(Action(f"{prefix}{i}", ("x", "y"), draw(_conditions(_ATOM, 0, 2)), draw(_conditions(_ATOM, 1, 2))) for i in range(n)))
    width, height = draw(st.sampled_from(((1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (2, 3), (6, 1))))
    goals = [tuple(draw(st.lists(_conditions(_GOAL_ATOM, 1, 2), min_size=1, max_size=2))) for _ in range(2)]
    return Domain(*sides), Problem(width, height, (), 1, goals[0], goals[1])


def every_state(game: Game):
    full = game.geometry.full
    for black in range(full + 1):
        rest = full ^ black
        white = rest
        while True:  # every subset of the cells black leaves
            yield black, white
            if white == 0:
                break
            white = (white - 1) & rest


def brute_force(game: Game):
    """By enumeration: per side, the actions that can create the opponent's
    win, the actions that ever have a move, and the cells any move changes."""
    violating = {BLACK: set(), WHITE: set()}
    playable = {BLACK: set(), WHITE: set()}
    changed = 0
    for b, w in every_state(game):
        for side in (BLACK, WHITE):
            rules, other = game.rules(side), game.rules(opponent(side))
            before_won = other.won(b, w)
            for a, _, b2, w2 in rules.successors(b, w):
                playable[side].add(a)
                changed |= (b ^ b2) | (w ^ w2)
                if not before_won and other.won(b2, w2):
                    violating[side].add(a)
    cells = {game.geometry.position(i) for i in range(game.geometry.cells) if changed >> i & 1}
    return violating, playable, cells


def goal_ever_holds(game: Game, goal) -> bool:
    g = game.geometry
    positions = condition_bounds(goal, g.width, g.height).positions()
    return any(condition_holds_at(g, State(b, w), goal, pos) for b, w in every_state(game) for pos in positions)


@settings(max_examples=scaled(60))
@given(tiny_game())
def test_sat_and_lint_equal_brute_force_on_tiny_boards(case):
    domain, problem = case
    game = Game(domain, problem)
    g = game.geometry
    violating, playable, cells = brute_force(game)
    for side in (BLACK, WHITE):
        steps = violating_steps(game, side)
        assert set(steps) == violating[side], side
        live = {a for a, action in enumerate(game.rules(side).actions) if first_move(g, action) is not None}
        assert live == playable[side], side
    changeable = set()
    for action in domain.black_actions + domain.white_actions:
        changeable |= changeable_cells(g, action)
    assert changeable == cells
    # the warnings count what brute force finds (actions that fit nowhere are the validator's)
    fitting_dead = sum(
        a not in playable[side] and not action_bounds(action, g.width, g.height).empty
        for side in (BLACK, WHITE)
        for a, action in enumerate(game.rules(side).actions)
    )
    assert len(dead_actions(domain, g)) == fitting_dead
    goals = problem.black_goals + problem.white_goals
    fitting_never = sum(not condition_bounds(x, g.width, g.height).empty and not goal_ever_holds(game, x) for x in goals)
    assert len(dead_goals(problem, g)) == fitting_never


@st.composite
def board_and_conditions(draw, count: int = 1):
    """A board up to 6x6 and `count` conditions: each, half the time, written
    only with ?x/?y offsets (which `compiler.analysis.lint` translates instead of
    grounding), otherwise mixing offsets, board edges and absolute cells near
    the corner (so that they meet, and contradict each other at some
    positions only)."""
    width, height = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    relative = {axis: st.integers(-2, 2).map(lambda k, axis=axis: Relative(axis, k)) for axis in "xy"}
    mixed = {
        axis: st.one_of(
            st.integers(-1, 0).map(lambda k, axis=axis: Relative(axis, k)),
            st.sampled_from((f"{axis}min", f"{axis}max")).map(Extreme),
            st.integers(1, min(2, size)).map(Absolute),
        )
        for axis, size in (("x", width), ("y", height))
    }
    conditions = []
    for _ in range(count):
        coords = draw(st.sampled_from((relative, mixed)))
        atom = st.builds(Atom, st.sampled_from(PREDS), coords["x"], coords["y"], st.booleans())
        conditions.append(draw(_conditions(atom, 1, 3)))
    return width, height, conditions


@settings(max_examples=scaled(150))
@given(board_and_conditions())
def test_goal_placements_equal_the_reference_grounding(case):
    """The translation shortcut of `goal_placements` against `ground_goals`, which grounds every position."""
    width, height, (goal,) = case
    g = Geometry(width, height)
    ours = {tuple(sorted((cell, tuple(sorted(v))) for cell, v in p.items() if len(v) < 3)) for p in goal_placements(g, goal)}
    reference = {tuple(sorted((cell, tuple(sorted(v))) for cell, v in p)) for p in ground_goals(g, [goal])}
    assert ours == reference


@settings(max_examples=scaled(150))
@given(board_and_conditions(count=2))
def test_action_shortcuts_equal_the_reference_grounding(case):
    """`first_move` and `changeable_cells` against `ground_moves`, which grounds every position."""
    width, height, (pre, effect) = case
    g = Geometry(width, height)
    action = Action("a", ("x", "y"), pre, effect)  # absolute cells too: the grounding does not care
    moves = ground_moves(g, [action])
    assert (first_move(g, action) is None) == (not moves)
    reference = set()
    for move in moves:
        before = dict(move.pre)
        reference |= {cell for cell, after in move.effect if len(after) > 1 or before.get(cell, frozenset(VALUES)) - set(after)}
    assert changeable_cells(g, action) == reference


def test_check_verdicts_hold_up_against_qbf_and_engine():
    reach = Reach(share=0.5)  # the QBF comparison needs a model that passes every condition (37 of 40 do)

    @settings(max_examples=scaled(40))
    @given(random_game())
    def random_games(case):
        check_verdicts_hold_up(case, reach)

    random_games()
    reach.check()


def check_verdicts_hold_up(case, reach: Reach) -> None:
    domain, problem = case
    game = Game(domain, problem)
    report = check(domain, problem)
    assert report.conditions[0].holds  # the strategy drops goals that hold initially
    reach.tried()
    if report.ok:
        reach.reached()
        assert depqbf(encode(domain, problem).circuit) == search(game).black_wins
    for result in report.conditions[1:]:
        for v in result.counterexamples:
            assert_replays(game, v)
    played = check(domain, problem, reachable=True)
    for by_sat, by_play in zip(report.conditions[1:], played.conditions[1:]):
        # a violation met in play is a violation over all states
        assert {v.action_index for v in by_play.counterexamples} <= {v.action_index for v in by_sat.counterexamples}
        for v in by_play.counterexamples:
            assert_replays(game, v)
