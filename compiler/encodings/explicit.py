"""The explicit-board encoding: every cell at every time step is a circuit node.

The lifted encoding keeps the board symbolic (one universal cell S) and so
stays small, but QBF solvers are an order of magnitude slower on symbolic
boards than on explicit ones (Shaik et al., "Implicit state and goals",
§5.2).  This encoding grounds everything the board size fixes:

* the moves of a side are the distinct ground moves (action, position) that
  fit on the board, numbered, and a move variable block holds that number in
  binary (plus one choice bit per cell a negated effect leaves undetermined);
* the board after each move is a *function* of the board before and the move:
  two gates per cell (black, white; open is neither), built from the move
  selectors and the frame rule.  There are no state variables at all: with
  early gate placement (`circuits.tseitin`, placement="early") the Tseitin
  variables of the state land in the existential block right after the move
  that determines them, which is the classic explicit-board prefix;
* goals are the disjunction over their ground instances, checked after every
  move of the side that owns them.

The turn recursion is the game's own definition:
    B^t = legal_b^t and (G_b(s^t+1) or T^t+1)
    W^t = not legal_w^t or (not G_w(s^t+1) and T^t+1),    T^(d+1) = false,
so an illegal White move (a universal choice outside the game) is a win for
Black, and a game stops at the first goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.ast import Domain, Problem
from bddl.game import BLACK, OPEN, WHITE, Geometry, state_from_atoms
from circuits import FALSE, TRUE, Circuit
from circuits.arith import equals_const, less_than_const

from .decoding import DecodedMove
from .grounding import Cell, GroundMove, actions_of, bits_for, ground_goal_sides, ground_sides, mover

@dataclass
class ExplicitStep:
    index: int
    side: str
    moves: list[GroundMove]
    M: list[int]  # the move number, binary, LSB first
    choices: list[int]


@dataclass
class ExplicitEncoding:
    name = "explicit"
    circuit: Circuit
    domain: Domain
    problem: Problem
    depth: int
    steps: list[ExplicitStep]

    def decode_move(self, step: ExplicitStep, value) -> DecodedMove | None:
        """The move a model of the formula makes at `step` (None if the number is off the list)."""
        number = sum(1 << k for k, b in enumerate(step.M) if value(b))
        if number >= len(step.moves):
            return None
        move = step.moves[number]
        actions = actions_of(self.domain, step.side)
        bits = iter(step.choices)
        chosen = tuple((cell, values[1] if value(next(bits)) else values[0]) for cell, values in move.effect if len(values) > 1)
        return DecodedMove(step.side, move.action, actions[move.action].name, move.x, move.y, chosen)


class ExplicitEncoder:
    def __init__(self, domain: Domain, problem: Problem, depth: int | None = None):
        self.domain, self.problem = domain, problem
        self.depth = problem.depth if depth is None else depth
        self.geometry = Geometry(problem.width, problem.height)
        self.c = Circuit()
        self.moves = ground_sides(self.geometry, domain)
        self.goals = ground_goal_sides(self.geometry, problem)
        from .symmetry import game_symmetries

        self.symmetries = [f for _, f in game_symmetries(domain, problem, self.moves, self.goals)]

    # -- the state as literals -----------------------------------------------

    def initial_state(self) -> dict[Cell, tuple[int, int]]:
        s0 = state_from_atoms(self.geometry, self.problem.init)
        g = self.geometry
        return {
            (x, y): (TRUE if s0.black & g.bit(x, y) else FALSE, TRUE if s0.white & g.bit(x, y) else FALSE)
            for x, y in g.all_cells()
        }

    def allows(self, allowed: frozenset[str], cell: tuple[int, int]) -> int:
        """The cell (black, white literals) holds one of the allowed values."""
        c = self.c
        b, w = cell
        if allowed == {BLACK}:
            return b
        if allowed == {WHITE}:
            return w
        if allowed == {OPEN}:
            return c.and_([-b, -w])
        if allowed == {OPEN, BLACK}:
            return -w
        if allowed == {OPEN, WHITE}:
            return -b
        return c.or_([b, w])  # black or white

    def holds(self, requirements, state) -> int:
        return self.c.and_([self.allows(allowed, state[cell]) for cell, allowed in requirements])

    def goal(self, side: str, state) -> int:
        return self.c.or_([self.holds(instance, state) for instance in self.goals[side]])

    # -- one move --------------------------------------------------------------

    def step_variables(self, i: int) -> ExplicitStep:
        side = mover(i, self.problem.black_first)
        moves = self.moves[side]
        M = [self.c.var(f"M{i}[{k}]") for k in range(bits_for(len(moves)))]
        width = max((sum(len(values) > 1 for _, values in m.effect) for m in moves), default=0)
        choices = [self.c.var(f"c{i}[{k}]") for k in range(width)]
        (self.c.exists if side == BLACK else self.c.forall)(M + choices)
        return ExplicitStep(i, side, moves, M, choices)

    def transition(self, step: ExplicitStep, state):
        """The state after the selected move (legal or not: legality is checked apart)."""
        c = self.c
        becomes: dict[Cell, list[tuple[int, int, int]]] = {}  # cell -> [(selector, black literal, white literal)]
        for number, move in enumerate(step.moves):
            selected = equals_const(c, step.M, number)
            choice = iter(step.choices)
            for cell, values in move.effect:
                if len(values) == 1:
                    value = values[0]
                    b, w = (TRUE if value == BLACK else FALSE), (TRUE if value == WHITE else FALSE)
                else:
                    bit = next(choice)
                    first, second = values
                    b = c.ite(bit, TRUE if second == BLACK else FALSE, TRUE if first == BLACK else FALSE)
                    w = c.ite(bit, TRUE if second == WHITE else FALSE, TRUE if first == WHITE else FALSE)
                becomes.setdefault(cell, []).append((selected, b, w))
        after = dict(state)
        for cell, options in becomes.items():
            b0, w0 = state[cell]
            touched = c.or_([sel for sel, _, _ in options])
            after[cell] = (
                self._next_value(touched, [(sel, b) for sel, b, _ in options], b0),
                self._next_value(touched, [(sel, w) for sel, _, w in options], w0),
            )
        return after

    def _next_value(self, touched: int, writes: list[tuple[int, int]], before: int) -> int:
        """One state bit after the move: the written value where a selected move
        touches the cell, the old value elsewhere.  When every move writes the
        same constant, x or (not x and y) = x or y keeps the gate small."""
        c = self.c
        values = {value for _, value in writes}
        if values == {TRUE}:
            return c.or_([touched, before])
        if values == {FALSE}:
            return c.and_([-touched, before])
        return c.or_([c.and_([sel, value]) for sel, value in writes] + [c.and_([-touched, before])])

    def legal(self, step: ExplicitStep, state, cuts: dict[int, list[int]]) -> int:
        """The selected move is legal (and not cut by a symmetry: `cuts`)."""
        c = self.c
        if step.side == BLACK:
            parts = [less_than_const(c, step.M, len(step.moves))]
            for n, m in enumerate(step.moves):
                allowed = c.and_([self.holds(m.pre, state)] + [-cond for cond in cuts.get(n, ())])
                parts.append(c.implies(equals_const(c, step.M, n), allowed))
            return c.and_(parts)
        return c.or_([
            c.and_([equals_const(c, step.M, n), self.holds(m.pre, state)] + [-cond for cond in cuts.get(n, ())])
            for n, m in enumerate(step.moves)
        ])

    def symmetry_cuts(self, steps: list[ExplicitStep]) -> list[dict[int, list[int]]]:
        """For the first two steps, the conditions under which each move is
        redundant: a symmetry of the game fixes the position and maps the
        move to an earlier one (compiler.encodings.symmetry).

        Offering the mover one move per orbit keeps the value of the game.  A
        cut move of Black's is illegal; a cut move of White's counts as an
        illegal choice, a win for Black, which White never needs to make: the
        move's image is legal too and worth the same.  The initial position is
        fixed by every symmetry; after the first move, by those that fix that
        move.  Deeper positions are not tested."""
        from .symmetry import fixes_position, move_images

        cuts: list[dict[int, list[int]]] = [{} for _ in steps]
        for f in self.symmetries:
            first = move_images(steps[0].moves, f) if steps else []
            for n, image in enumerate(first):
                if image < n:
                    cuts[0].setdefault(n, []).append(TRUE)
            if len(steps) < 2:
                continue
            fixed = self.c.or_([
                equals_const(self.c, steps[0].M, m)
                for m, image in enumerate(first)
                if fixes_position(steps[0].moves[m], image, m)
            ])
            if fixed == FALSE:
                continue
            for n, image in enumerate(move_images(steps[1].moves, f)):
                if image < n:
                    cuts[1].setdefault(n, []).append(fixed)
        return cuts

    def has_move(self, side: str, state) -> int:
        """Some move of `side` is legal in `state` (no move variables involved)."""
        return self.c.or_([self.holds(m.pre, state) for m in self.moves[side]])

    def reachable_goals(self, side: str, steps: list[ExplicitStep], upto: int) -> list:
        """The goal instances of `side` that can hold after step `upto`.

        A cell that must take value v differently from the initial board needs
        a move that writes v; each move writes v to at most as many cells as
        its effect has atoms allowing v.  An instance needing more such cells
        than the moves so far can write cannot hold yet, so its check folds
        away (a sound over-approximation: it ignores preconditions)."""
        initial = self.initial_state()
        capacity = {OPEN: 0, BLACK: 0, WHITE: 0}
        changes = 0
        for step in steps[:upto]:
            for value in capacity:
                capacity[value] += max((sum(value in vs for _, vs in m.effect) for m in step.moves), default=0)
            changes += max((len(m.effect) for m in step.moves), default=0)
        kept = []
        for instance in self.goals[side]:
            needed = {OPEN: 0, BLACK: 0, WHITE: 0}
            total = 0
            for cell, allowed in instance:
                b, w = initial[cell]
                now = BLACK if b == TRUE else WHITE if w == TRUE else OPEN
                if now not in allowed:
                    total += 1
                    if len(allowed) == 1:
                        (value,) = allowed
                        needed[value] += 1
            if total <= changes and all(needed[v] <= capacity[v] for v in needed):
                kept.append(instance)
        return kept

    def goal_after(self, side: str, steps, upto: int, state) -> int:
        instances = self.reachable_goals(side, steps, upto)
        return self.c.or_([self.holds(instance, state) for instance in instances])

    # -- the game --------------------------------------------------------------

    def encode(self) -> ExplicitEncoding:
        c = self.c
        steps = [self.step_variables(i) for i in range(1, self.depth + 1)]
        states = [self.initial_state()]
        for step in steps:
            states.append(self.transition(step, states[-1]))
        cuts = self.symmetry_cuts(steps)
        rest = FALSE
        for step in reversed(steps):
            before, after = states[step.index - 1], states[step.index]
            if step.side == BLACK:
                legal = self.legal(step, before, cuts[step.index - 1])
                rest = c.and_([legal, c.or_([self.goal_after(BLACK, steps, step.index, after), rest])])
            elif rest == FALSE:
                # White's last move: Black wins only if White has none at all,
                # which needs no universal variables to say
                rest = -self.has_move(WHITE, before)
            else:
                legal = self.legal(step, before, cuts[step.index - 1])
                rest = c.or_([-legal, c.and_([-self.goal_after(WHITE, steps, step.index, after), rest])])
        c.set_output(rest)
        return ExplicitEncoding(c, self.domain, self.problem, self.depth, steps)


def encode(domain: Domain, problem: Problem, depth: int | None = None) -> ExplicitEncoding:
    """The explicit-board encoding: true iff Black wins within `depth` plies."""
    return ExplicitEncoder(domain, problem, depth).encode()
