"""Sanity conditions 2 and 3 of the BDDL paper (Def 9), decided exactly by SAT.

Condition 2 says no Black move turns a state White has not won into one
White has won (condition 3: the same with the sides swapped).  Whether a
model breaks it on a given board is a question about a single step, so it is
one SAT instance, whose variables describe

* the state before, s1: two variables per cell, black and white, never both
  (a cell that is neither is open);
* the move: one selector per distinct ground move of the mover (action and
  position, from `compiler.encodings.grounding.ground_moves`), exactly one of them true;
  the selected move's precondition holds in s1 and its effect in s2;
* the state after, s2, tied to s1 by the frame rule of `bddl.game`: a cell
  the selected move's effect does not name keeps its value, and a cell a
  negated effect atom names may take any value the effect allows, so the
  solver, like the mover, picks one;
* the opponent's goals: none of their placements holds in s1, some holds in s2.

A model of the instance is a violating step; unsatisfiability proves the
condition for every state of the board, reachable or not.  One incremental
solver serves every action of the mover: each query assumes the action's
group literal, so each offending action gets its own counterexample.

This module imports pysat, so the compile path never imports it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.sat import CardEnc, EncType, IDPool, Solver

from bddl.game import BLACK, OPEN, VALUES, WHITE, Game, State, opponent

from ..encodings.grounding import ground_moves
from .lint import goal_placements

SOLVER = "glucose4"  # bundled with every python-sat release; incremental, with assumptions


@dataclass(frozen=True)
class Step:
    """A violating step as the solver found it (before any simplification)."""

    mover: str
    action_index: int
    x: int
    y: int
    before: State
    after: State


class _StepEncoding:
    """The clauses of one step of `mover`, with named variables."""

    def __init__(self, game: Game, mover: str):
        self.game = game
        self.geometry = game.geometry
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.cells = self.geometry.all_cells()
        for state in (1, 2):
            for cell in self.cells:
                self.clauses.append([-self.var(BLACK, state, cell), -self.var(WHITE, state, cell)])
        self._open_defined: set[tuple[int, tuple[int, int]]] = set()

    def var(self, *name) -> int:
        return self.pool.id(name)

    def value(self, state: int, cell: tuple[int, int], value: str) -> int:
        """The literal "cell has `value` in state 1 or 2"; open gets a defined variable."""
        if value != OPEN:
            return self.var(value, state, cell)
        o = self.var(OPEN, state, cell)
        if (state, cell) not in self._open_defined:
            self._open_defined.add((state, cell))
            b, w = self.var(BLACK, state, cell), self.var(WHITE, state, cell)
            self.clauses += [[o, b, w], [-o, -b], [-o, -w]]
        return o

    def allows(self, state: int, cell: tuple[int, int], allowed) -> int:
        """The literal "cell's value is in `allowed`" (one or two of the three values)."""
        allowed = frozenset(allowed)
        if len(allowed) == 1:
            (only,) = allowed
            return self.value(state, cell, only)
        if len(allowed) == 2:
            (excluded,) = set(VALUES) - allowed
            return -self.value(state, cell, excluded)
        raise ValueError(f"not a restriction: {sorted(allowed)}")


def violating_steps(game: Game, mover: str) -> dict[int, Step]:
    """For each action of `mover` that can turn a state not won by the
    opponent into one won by the opponent, one such step (keyed by action
    index, in action order).  Empty when the condition holds on this board."""
    from bddl.budget import Progress

    progress = Progress(f"check --exhaustive, {mover}'s moves")
    rules = game.rules(mover)
    enc = _StepEncoding(game, mover)

    placements = set()  # as sorted tuples of (cell, allowed values in VALUES order): a total order
    for goal in game.rules(opponent(mover)).goals:
        for placement in goal_placements(game.geometry, goal):
            placements.add(tuple(sorted((cell, tuple(v for v in VALUES if v in allowed)) for cell, allowed in placement.items())))
    if not placements:
        return {}  # the opponent can never win
    if () in placements:
        return {}  # the opponent has won every state, s1 included
    reached = []
    for k, instance in enumerate(sorted(placements)):
        enc.clauses.append([-enc.allows(1, cell, allowed) for cell, allowed in instance])
        t = enc.var("goal", k)
        reached.append(t)
        enc.clauses += [[-t, enc.allows(2, cell, allowed)] for cell, allowed in instance]
    enc.clauses.append(reached)

    selectors: list[int] = []
    namers: dict[tuple[int, int], list[int]] = {cell: [] for cell in enc.cells}
    groups: dict[int, int] = {}
    where: dict[int, tuple[int, int, int]] = {}
    for a, action in enumerate(rules.actions):
        progress(f"grounding action {a + 1} of {len(rules.actions)}")
        moves = ground_moves(game.geometry, (action,))
        if not moves:
            continue
        group = groups[a] = enc.var("action", a)
        mine = []
        for k, move in enumerate(moves):
            m = enc.var("move", a, k)
            mine.append(m)
            where[m] = (a, move.x, move.y)
            enc.clauses += [[-m, enc.allows(1, cell, allowed)] for cell, allowed in move.pre]
            enc.clauses += [[-m, enc.allows(2, cell, values)] for cell, values in move.effect]
            for cell, _ in move.effect:
                namers[cell].append(m)
        enc.clauses.append([-group] + mine)
        selectors += mine
    if not selectors:
        return {}
    for cell in enc.cells:
        for value in (BLACK, WHITE):
            before, after = enc.var(value, 1, cell), enc.var(value, 2, cell)
            enc.clauses.append([-before, after] + namers[cell])
            enc.clauses.append([before, -after] + namers[cell])
    if len(selectors) > 1:
        enc.clauses += CardEnc.atmost(selectors, 1, vpool=enc.pool, encoding=EncType.seqcounter).clauses

    progress(f"{len(enc.clauses):,} clauses, solving")
    found: dict[int, Step] = {}
    with Solver(name=SOLVER, bootstrap_with=enc.clauses) as solver:
        for done, (a, group) in enumerate(groups.items()):
            progress(f"action {done + 1} of {len(groups)}")
            if not solver.solve(assumptions=[group]):
                continue
            true = {lit for lit in solver.get_model() if lit > 0}
            (m,) = [m for m in selectors if m in true]
            action_index, x, y = where[m]
            assert action_index == a
            found[a] = Step(mover, a, x, y, _state(enc, true, 1), _state(enc, true, 2))
    return found


def _state(enc: _StepEncoding, true: set[int], which: int) -> State:
    g = enc.geometry
    black = sum(g.bit(*cell) for cell in enc.cells if enc.var(BLACK, which, cell) in true)
    white = sum(g.bit(*cell) for cell in enc.cells if enc.var(WHITE, which, cell) in true)
    return State(black, white)
