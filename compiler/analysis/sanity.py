"""`bddlc check` as a library: the sanity conditions of the BDDL paper, with counterexamples.

The lifted encoding (and the paper's definition of a winning strategy,
Def 10) looks only at the mover's goals after a move.  That is right only
for games meeting the sanity conditions of Def 9:

1. the initial state is won by nobody;
2. a Black move never turns a state White has not won into one White has won;
3. a White move never turns a state Black has not won into one Black has won.

A model that breaks 2 or 3 still compiles, and its formula answers a
question about a game in which such a win of the opponent goes unnoticed,
which is rarely what its author meant.  So this module decides the
conditions for the given board and, when one fails, produces the evidence
a modeller needs to fix it: the step that breaks it (two states and the
move between them), the action and the goal involved.

Two ways to decide 2 and 3 (condition 1 is one state, checked directly):

* by SAT over *all* states of the board, reachable or not: exact for the
  board, and what the paper's encoding needs.  By default on the small
  window of cells a move and a goal can share, once per situation
  (`compiler.analysis.sanity_local`), so the work follows the model and not
  the board; with `exhaustive=True` as one instance over the whole board
  (`compiler.analysis.sanity_sat`), which is also where the local method falls back
  for models it cannot decide;
* by exploring, with the game engine, the states reachable from the
  initial state within the depth (`reachable=True`): only for small games,
  and a weaker guarantee, but it shows a violation that actually occurs in
  play (with the ply it occurs at).

Counterexamples from SAT are simplified before they are shown: cells the
step does not need are emptied, as long as the engine confirms it is still
a violating step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from bddl.ast import Action, Condition, Domain, Problem
from bddl.bounds import condition_bounds
from bddl.errors import Diagnostic
from bddl.game import BLACK, WHITE, Game, State, condition_holds_at, opponent

DEFAULT_MAX_POSITIONS = 200_000
ENGINE_REPLAY_CELLS = 4096  # boards on which every local counterexample is also replayed by the engine here

STATEMENTS = {
    1: "the initial state is won by nobody",
    2: "no Black move creates a White win",
    3: "no White move creates a Black win",
}


@dataclass(frozen=True)
class GoalHit:
    """Where a goal holds: the side it belongs to, which of its goals, and the position."""

    side: str
    index: int
    goal: Condition
    x: int
    y: int


@dataclass(frozen=True)
class InitialWin:
    """Condition 1 broken: a goal already holds in the initial state."""

    state: State
    goal: GoalHit


@dataclass(frozen=True)
class Violation:
    """Condition 2 or 3 broken: `mover` plays `action` at (x, y) from `before`
    (not won by the opponent) to `after` (won by the opponent, by `goal`).
    `ply` is the move's number in a play from the initial state when the
    step was found by exploring reachable states, None when found by SAT."""

    mover: str
    action_index: int
    action: Action
    x: int
    y: int
    before: State
    after: State
    goal: GoalHit
    ply: int | None = None


Counterexample = Union[InitialWin, Violation]


@dataclass(frozen=True)
class ConditionResult:
    number: int
    counterexamples: tuple[Counterexample, ...]

    @property
    def holds(self) -> bool:
        return not self.counterexamples

    @property
    def statement(self) -> str:
        return STATEMENTS[self.number]


@dataclass(frozen=True)
class CheckReport:
    """Everything `bddlc check` says about one model.

    `method` is "sat" (conditions 2 and 3 over all states of the board) or
    "reachable" (over the `positions` states reachable within `depth`)."""

    conditions: tuple[ConditionResult, ...]
    warnings: tuple[Diagnostic, ...]
    method: str
    depth: int
    positions: int | None = None

    @property
    def ok(self) -> bool:
        return all(c.holds for c in self.conditions)


class ReachableTooLarge(Exception):
    """More reachable positions than the caller allowed; the SAT check has no such limit."""

    def __init__(self, positions: int, depth: int):
        super().__init__(f"more than {positions:,} positions are reachable within {depth} plies")
        self.positions = positions
        self.depth = depth


# -- the engine's view of a step ------------------------------------------------


def goal_hit(game: Game, state: State, side: str) -> GoalHit | None:
    """The first goal of `side` (in source order) that holds in `state`, and where."""
    g = game.geometry
    for index, goal in enumerate(game.rules(side).goals):
        for x, y in condition_bounds(goal, g.width, g.height).positions():
            if condition_holds_at(g, state, goal, (x, y)):
                return GoalHit(side, index, goal, x, y)
    return None


def is_violating_step(game: Game, mover: str, action_index: int, x: int, y: int, before: State, after: State) -> bool:
    """The engine's verdict: `mover` can play the action at (x, y) from
    `before` to `after`, and that step creates a win of the opponent."""
    rules = game.rules(mover)
    p = game.geometry.index(x, y)
    if not (rules.legal_masks(before.black, before.white)[action_index] >> p) & 1:
        return False
    reaches = any(
        (before.black & ~names) | add_b == after.black and (before.white & ~names) | add_w == after.white
        for names, add_b, add_w in rules.outcomes[action_index][p]
    )
    other = game.rules(opponent(mover))
    return reaches and not other.won(before.black, before.white) and other.won(after.black, after.white)


def simplified(game: Game, mover: str, action_index: int, x: int, y: int, before: State, after: State) -> tuple[State, State]:
    """The step with as many cells emptied (in both states) as keep it a violating step.

    A SAT model fills cells the step does not constrain arbitrarily; empty
    cells let a reader see what matters.  Greedy, cell by cell, so the result
    is deterministic; a cell is emptied only where it has the same value
    before and after."""
    g = game.geometry
    for index in range(g.cells):
        bit = 1 << index
        if not ((before.black | before.white) & bit):
            continue
        if (before.black & bit) != (after.black & bit) or (before.white & bit) != (after.white & bit):
            continue
        keep = ~bit
        b2 = State(before.black & keep, before.white & keep)
        a2 = State(after.black & keep, after.white & keep)
        if is_violating_step(game, mover, action_index, x, y, b2, a2):
            before, after = b2, a2
    return before, after


def _violation(game: Game, mover: str, action_index: int, x: int, y: int, before: State, after: State, ply: int | None) -> Violation:
    hit = goal_hit(game, after, opponent(mover))
    assert hit is not None, "a violating step ends in a state the opponent has won"
    action = game.rules(mover).actions[action_index]
    return Violation(mover, action_index, action, x, y, before, after, hit, ply)


# -- the conditions ---------------------------------------------------------------


def initial_condition(game: Game) -> ConditionResult:
    """Condition 1: one counterexample per side whose goal holds initially
    (the first goal in source order, at its first position), found from the
    stones of `#init` rather than by scanning the board."""
    from bddl.situations import first_holding
    from bddl.validate import initial_stones

    g, stones = game.geometry, initial_stones(game.problem)
    found = []
    for side in (BLACK, WHITE):
        for index, goal in enumerate(game.rules(side).goals):
            pos = first_holding(goal, stones, g.width, g.height)
            if pos is not None:
                found.append(InitialWin(game.initial, GoalHit(side, index, goal, *pos)))
                break
    return ConditionResult(1, tuple(found))


def step_conditions_by_sat(game: Game, why: str = "") -> tuple[ConditionResult, ConditionResult]:
    """Conditions 2 and 3 over every state of the board, with one simplified
    counterexample per offending action."""
    from bddl.budget import require

    from ..encodings.memory_estimates import exhaustive_check_bytes
    from .sanity_sat import violating_steps

    g = game.geometry
    require(f"the whole-board SAT check of the {g.width}x{g.height} board{why}", exhaustive_check_bytes(game.domain, game.problem))
    results = []
    for number, mover in ((2, BLACK), (3, WHITE)):
        found = []
        for a, step in violating_steps(game, mover).items():
            assert is_violating_step(game, mover, a, step.x, step.y, step.before, step.after), "the SAT encoding and the engine disagree"
            before, after = simplified(game, mover, a, step.x, step.y, step.before, step.after)
            found.append(_violation(game, mover, a, step.x, step.y, before, after, None))
        results.append(ConditionResult(number, tuple(found)))
    return results[0], results[1]


def step_conditions_local(game: Game) -> tuple[ConditionResult, ConditionResult]:
    """Conditions 2 and 3 by locality, each side falling back to the whole
    board when its model is not local (`sanity_local.Undecided`)."""
    from .sanity_local import Undecided, violating_steps

    results = []
    for number, mover in ((2, BLACK), (3, WHITE)):
        rules, other = game.rules(mover), game.rules(opponent(mover))
        try:
            steps = violating_steps(game.geometry, rules.actions, other.goals)
        except Undecided as exc:
            results.append(step_conditions_by_sat(game, f" (needed because the local check cannot decide this model: {exc})")[number - 2])
            continue
        found = []
        for a, step in steps.items():
            before, after = (_local_state(game, cells, step.fill) for cells in (step.before, step.after))
            if game.geometry.cells <= ENGINE_REPLAY_CELLS:
                assert is_violating_step(game, mover, a, step.x, step.y, before, after), "the local check and the engine disagree"
            found.append(Violation(mover, a, rules.actions[a], step.x, step.y, before, after, _hit(game, opponent(mover), step.goal), None))
        results.append(ConditionResult(number, tuple(found)))
    return results[0], results[1]


def _hit(game: Game, side: str, placed) -> GoalHit:
    goal = game.rules(side).goals[placed.index]
    return GoalHit(side, placed.index, goal, placed.pos[0], placed.pos[1])


def _local_state(game: Game, cells: dict, fill: str) -> State:
    g = game.geometry
    black = g.full if fill == BLACK else 0
    white = g.full if fill == WHITE else 0
    for (x, y), value in cells.items():
        bit = g.bit(x, y)
        black = black | bit if value == BLACK else black & ~bit
        white = white | bit if value == WHITE else white & ~bit
    return State(black, white)


def step_conditions_reachable(game: Game, depth: int, max_positions: int = DEFAULT_MAX_POSITIONS) -> tuple[ConditionResult, ConditionResult, int]:
    """Conditions 2 and 3 over the states reachable within `depth` plies,
    breadth first, so each offending action's counterexample is one of its
    earliest.  A play ends when the mover's goal holds or the plies run out
    (`bddl.engines.minimax`'s rules); a state is expanded once per side to move.

    Returns the two results and the number of positions expanded; raises
    `ReachableTooLarge` past `max_positions`."""
    from bddl.budget import MemoryBudgetExceeded, Progress, engine_bytes, max_stored_positions, memory_limit, require, stored_position_bytes

    cells = game.geometry.cells
    placements = sum(len(box) for rules in (game.black, game.white) for box in rules.boxes)
    require("the game engine's tables for this board", engine_bytes(cells, placements))
    memory_cap = max_stored_positions(cells, placements)
    progress = Progress("check --reachable")
    side = BLACK if game.black_first else WHITE
    frontier = [game.initial]
    seen = {(game.initial.black, game.initial.white, side)}
    found: dict[str, dict[int, Violation]] = {BLACK: {}, WHITE: {}}
    positions = 0
    for ply in range(1, depth + 1):
        rules, other = game.rules(side), game.rules(opponent(side))
        successors = []
        for state in frontier:
            positions += 1
            if positions > max_positions:
                raise ReachableTooLarge(max_positions, depth)
            if len(seen) > memory_cap:
                estimate = engine_bytes(cells, placements) + len(seen) * stored_position_bytes(cells)
                raise MemoryBudgetExceeded(f"the {len(seen):,} positions seen within {ply} plies", estimate, memory_limit())
            if not positions & 0xFFF:
                progress(f"ply {ply} of {depth}, {positions:,} positions")
            b, w = state.black, state.white
            other_won_before = other.won(b, w)
            for a, p, b2, w2 in rules.successors(b, w):
                if not other_won_before and a not in found[side] and other.won(b2, w2):
                    x, y = game.geometry.position(p)
                    found[side][a] = _violation(game, side, a, x, y, state, State(b2, w2), ply)
                if ply < depth and not rules.won(b2, w2) and (b2, w2, opponent(side)) not in seen:
                    seen.add((b2, w2, opponent(side)))
                    successors.append(State(b2, w2))
        frontier = successors
        side = opponent(side)
    black, white = (tuple(found[side][a] for a in sorted(found[side])) for side in (BLACK, WHITE))
    return ConditionResult(2, black), ConditionResult(3, white), positions


def check(
    domain: Domain,
    problem: Problem,
    *,
    reachable: bool = False,
    exhaustive: bool = False,
    depth: int | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    warnings: tuple[Diagnostic, ...] = (),
) -> CheckReport:
    """The full report: the three conditions and every warning (`warnings`,
    typically the validator's, first, then `compiler.analysis.lint`'s).

    Assumes a model that passed `bddl.validate.check_model` (with or without
    its initial-state check).  Raises `ReachableTooLarge` in reachable mode."""
    from .lint import lint

    game = Game(domain, problem)
    depth = problem.depth if depth is None else depth
    first = initial_condition(game)
    positions = None
    if reachable:
        second, third, positions = step_conditions_reachable(game, depth, max_positions)
    elif exhaustive:
        second, third = step_conditions_by_sat(game)
    else:
        second, third = step_conditions_local(game)
    return CheckReport(
        (first, second, third),
        tuple(warnings) + tuple(lint(domain, problem)),
        "reachable" if reachable else "sat",
        depth,
        positions,
    )
