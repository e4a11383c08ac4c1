"""The fast engine against a direct, slow reading of the paper's definitions."""

from __future__ import annotations

from itertools import product

from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl import BLACK, WHITE, Game, State, check_model, parse_domain, parse_problem
from bddl.bounds import action_bounds, condition_bounds
from bddl.engines.minimax import black_wins, search
from helpers.paper_listings import DOMAINS, PROBLEMS
from helpers.strategies import game as random_game

VALUES = ("open", "black", "white")


def cells_of(g: Game, state: State) -> dict:
    geo = g.geometry
    return {(x, y): state.value(geo, x, y) for y in range(1, geo.height + 1) for x in range(1, geo.width + 1)}


def state_of(g: Game, cells: dict) -> State:
    geo = g.geometry
    black = sum(geo.bit(x, y) for (x, y), v in cells.items() if v == "black")
    white = sum(geo.bit(x, y) for (x, y), v in cells.items() if v == "white")
    return State(black, white)


def holds(g: Game, cells: dict, atom, pos) -> bool:
    return (cells[g.geometry.cell_of(atom, pos)] == atom.pred) != atom.negated


def naive_successors(g: Game, cells: dict, side: str) -> set:
    """Def 7 with the frame rule, enumerated: every value of every named cell is tried."""
    actions = g.domain.black_actions if side == BLACK else g.domain.white_actions
    w, h = g.geometry.width, g.geometry.height
    found = set()
    for index, action in enumerate(actions):
        for pos in action_bounds(action, w, h).positions():
            if not all(holds(g, cells, a, pos) for a in action.precondition.atoms):
                continue
            named: dict = {}
            for a in action.effect.atoms:
                named.setdefault(g.geometry.cell_of(a, pos), []).append(a)
            for values in product(VALUES, repeat=len(named)):
                after = dict(cells)
                for cell, value in zip(named, values):
                    after[cell] = value
                if all(holds(g, after, a, pos) for a in action.effect.atoms):
                    found.add((index, pos, state_of(g, after)))
    return found


def naive_won(g: Game, cells: dict, side: str) -> bool:
    """Def 8."""
    goals = g.problem.black_goals if side == BLACK else g.problem.white_goals
    w, h = g.geometry.width, g.geometry.height
    return any(
        all(holds(g, cells, a, pos) for a in goal.atoms)
        for goal in goals
        for pos in condition_bounds(goal, w, h).positions()
    )


def naive_black_wins(g: Game, state: State, side: str, plies: int) -> bool:
    """The rules of the game, word for word, without any table or ordering."""
    if plies == 0:
        return False
    cells = cells_of(g, state)
    children = {s for _, _, s in naive_successors(g, cells, side)}
    if not children:
        return side == WHITE
    if side == BLACK:
        return any(naive_won(g, cells_of(g, s), BLACK) or naive_black_wins(g, s, WHITE, plies - 1) for s in children)
    return all(not naive_won(g, cells_of(g, s), WHITE) and naive_black_wins(g, s, BLACK, plies - 1) for s in children)


def engine_successors(g: Game, state: State, side: str) -> set:
    rules = g.rules(side)
    return {(a, g.geometry.position(p), State(b, w)) for a, p, b, w in rules.successors(state.black, state.white)}


@st.composite
def game_and_state(draw):
    domain, problem = draw(random_game())
    g = Game(domain, problem)
    n = g.geometry.cells
    values = draw(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n))
    cells = {g.geometry.position(i): v for i, v in enumerate(values)}
    return g, state_of(g, cells)


@settings(max_examples=scaled(200))
@given(game_and_state())
def test_moves_and_goals_match_the_definitions(case):
    g, state = case
    cells = cells_of(g, state)
    for side in (BLACK, WHITE):
        assert engine_successors(g, state, side) == naive_successors(g, cells, side)
        assert g.won(state, side) == naive_won(g, cells, side)
        assert g.rules(side).has_move(state.black, state.white) == bool(naive_successors(g, cells, side))


@settings(max_examples=scaled(200))
@given(random_game(max_depth=4))
def test_search_matches_plain_minimax(case):
    domain, problem = case
    check_model(domain, problem)  # the strategy only makes valid models
    g = Game(domain, problem)
    side = BLACK if problem.black_first else WHITE
    expected = naive_black_wins(g, g.initial, side, problem.depth)
    assert search(g).black_wins == expected
    assert black_wins(g, g.initial, side, problem.depth) == expected


@settings(max_examples=scaled(100))
@given(random_game(max_depth=4))
def test_first_move_is_a_winning_move(case):
    domain, problem = case
    g = Game(domain, problem)
    result = search(g)
    if not (result.black_wins and problem.black_first):
        assert result.first_move is None
        return
    move = result.first_move
    assert move in g.moves(g.initial, BLACK)
    assert g.won(move.state, BLACK) or naive_black_wins(g, move.state, WHITE, problem.depth - 1)


def test_negated_effect_gives_the_mover_a_choice():
    domain = parse_domain(
        "#blackactions\n:action paint\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n"
        ":effect (NOT(open(?x,?y)))\n#whiteactions\n"
    )
    problem = parse_problem("#boardsize 1 1\n#init\n#depth 1\n#blackgoals\n(white(1,1))\n#whitegoals\n")
    g = Game(domain, problem)
    states = {m.state for m in g.moves(g.initial, BLACK)}
    assert states == {State(1, 0), State(0, 1)}
    assert search(g).black_wins  # Black picks the white stone that is its goal


def test_contradictory_effect_is_not_a_move():
    domain = parse_domain(
        "#blackactions\n:action bad\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n"
        ":effect (black(?x,?y) white(xmin,?y))\n#whiteactions\n"
    )
    problem = parse_problem("#boardsize 2 1\n#init\n#depth 1\n#blackgoals\n#whitegoals\n")
    g = Game(domain, problem)
    # at x = 1 both atoms name cell (1,1): no successor; at x = 2 the move paints two cells
    assert [(m.x, m.y) for m in g.moves(g.initial, BLACK)] == [(2, 1)]


def test_even_depth_without_black_goal_is_won_by_stalemate_only():
    g = Game(parse_domain(DOMAINS["listing19"]), parse_problem(PROBLEMS["listing20"].replace("6 6", "2 2").replace("11", "2")))
    assert search(g).black_wins  # 2x2 Domineering: one vertical domino leaves White no move
    assert not search(g, depth=1).black_wins  # Black has no goal, and the plies run out


def test_no_plies_means_black_lost():
    g = Game(parse_domain(DOMAINS["listing4"]), parse_problem(PROBLEMS["listing5"]))
    assert not black_wins(g, g.initial, BLACK, 0)
