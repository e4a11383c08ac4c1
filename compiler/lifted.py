"""The lifted QBF encoding of the BDDL paper (Shaik & van de Pol, §4), piece by piece.

Every function here is named after the paper's notation and builds one of its
sub-circuits in a `circuits.Circuit`: the prefix of Table 1, RI, SC, BDCIR,
the initial state I, Black's move M_b, White's move M_w with its indicators,
the goal checks G_b / G_w and the turn recursion B^i / W^i.  Where the paper
is silent, the explicit semantics of `bddl.game`/`bddl.search` decide, and
docs/encoding.md records each choice:

* any depth >= 1 (the last move may be White's: then Black wins only if every
  White move there is illegal) and either side first;
* a side without goals (its goal check is the constant false / true);
* White actions with different numbers of preconditions (unused precondition
  indicators are forced true, otherwise Black could make any White move look
  illegal);
* board edges and absolute coordinates anywhere a coordinate may stand;
* negated effect atoms: the mover picks the new value with a choice bit of its
  own move block (Black existentially, White universally), and a White move
  whose effect atoms contradict each other on one cell is illegal, exactly as
  in the explicit game.

Board indices are 1-based and use ceil(log2(side + 1)) bits, as in Table 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bddl.ast import Absolute, Action, Atom, Condition, Coord, Domain, Extreme, Problem, Relative
from bddl.bounds import Box, action_bounds, condition_bounds
from circuits import FALSE, TRUE, Circuit
from circuits.arith import add_const, equals, equals_const, less_than_const, sub_const

VALUES = ("open", "black", "white")


def bits_for(count: int) -> int:
    """ceil(log2(count)): bits to number `count` things from 0 (0 bits for one thing)."""
    return max(count - 1, 0).bit_length()


def index_bits(side: int) -> int:
    """ceil(log2(side + 1)): bits for a 1-based board index up to `side`."""
    return max(side.bit_length(), 1)


@dataclass
class Step:
    """The variables of one time step i (Table 1): the mover's block and, for
    White, the existential legality indicators that follow it."""

    index: int
    side: str  # "black" | "white"
    A: list[int]
    X: list[int]
    Y: list[int]
    gs: int | None  # game stop; None at the last step
    choices: list[int]  # one per negated effect atom (our extension)
    lb: int | None = None
    P: list[int] = field(default_factory=list)


@dataclass
class Encoding:
    """A compiled game: the circuit plus the map from the paper's variables to ours."""

    circuit: Circuit
    domain: Domain
    problem: Problem
    depth: int
    steps: list[Step]
    Sx: list[int]
    Sy: list[int]
    o: list[int]  # o[t] for t = 1..depth+1 (index 0 unused)
    w: list[int]

    def decode_move(self, step: Step, value) -> "DecodedMove | None":
        """The move a model of the formula makes at `step`; `value(var) -> bool`
        reads an internal variable.  None when the bits name no action."""
        from .moves import DecodedMove

        def number(bits):
            return sum(1 << k for k, b in enumerate(bits) if value(b))

        actions = self.domain.black_actions if step.side == "black" else self.domain.white_actions
        index = number(step.A)
        if index >= len(actions):
            return None
        x, y = number(step.X), number(step.Y)
        chosen = {}
        bits = iter(step.choices)
        for atom in actions[index].effect.atoms:
            if atom.negated:
                first, second = [v for v in VALUES if v != atom.pred]
                cell = (_resolve(atom.x, x, self.problem.width), _resolve(atom.y, y, self.problem.height))
                chosen[cell] = second if value(next(bits)) else first
        return DecodedMove(step.side, index, actions[index].name, x, y, tuple(sorted(chosen.items())))


# ---------------------------------------------------------------------------
# Auxiliary circuits (§4.3)


def ADDSUB_EQ(c: Circuit, V: list[int], coord: Coord, S: list[int], side: int) -> int:
    """EQ(ADDSUB(V, e), S): does coordinate e, placed at index V, name index S?

    Arithmetic is exact (no wrap-around), so an index pushed off the board
    never aliases a cell on it."""
    if isinstance(coord, Relative):
        if coord.offset >= 0:
            return equals(c, add_const(c, V, coord.offset), S)
        diff, negative = sub_const(c, V, -coord.offset)
        return c.and_([equals(c, diff, S), -negative])
    return equals_const(c, S, _absolute(coord, side))


def _resolve(coord: Coord, position: int, side: int) -> int:
    """The index a coordinate names when its action sits at `position`."""
    if isinstance(coord, Relative):
        return position + coord.offset
    return _absolute(coord, side)


def _absolute(coord: Coord, side: int) -> int:
    if isinstance(coord, Absolute):
        return coord.value
    if isinstance(coord, Extreme):
        return 1 if coord.name.endswith("min") else side
    raise ValueError(f"cannot encode coordinate {coord!r}; validate the model first")


def RI(c: Circuit, Vx: list[int], Vy: list[int], atom: Atom, Sx: list[int], Sy: list[int], width: int, height: int) -> int:
    """Def 11, relative index: the atom placed at (Vx, Vy) names the symbolic cell (Sx, Sy)."""
    return c.and_([ADDSUB_EQ(c, Vx, atom.x, Sx, width), ADDSUB_EQ(c, Vy, atom.y, Sy, height)])


def value_is(c: Circuit, value: str, o: int, w: int) -> int:
    """The state bits (o, w) of a cell hold `value` (open = o; black = -o-w; white = -o w)."""
    if value == "open":
        return o
    if value == "black":
        return c.and_([-o, -w])
    return c.and_([-o, w])


def SC(c: Circuit, atom: Atom, o: int, w: int) -> int:
    """Def 12, the sub-condition constraint (negated for a negated atom)."""
    lit = value_is(c, atom.pred, o, w)
    return -lit if atom.negated else lit


def LT(c: Circuit, V: list[int], k: int) -> int:
    return less_than_const(c, V, k)


def EQ(c: Circuit, V: list[int], k: int) -> int:
    return equals_const(c, V, k)


def BDCIR(c: Circuit, Vx: list[int], Vy: list[int], box: Box) -> int:
    """Def 13: (Vx, Vy) lies in the bounds box."""
    if box.empty:
        return FALSE
    return c.and_(
        [-LT(c, Vx, box.x_lo), LT(c, Vx, box.x_hi + 1), -LT(c, Vy, box.y_lo), LT(c, Vy, box.y_hi + 1)]
    )


# ---------------------------------------------------------------------------
# The encoder


class LiftedEncoder:
    """Builds the paper's formula for one domain/problem pair at one depth."""

    def __init__(self, domain: Domain, problem: Problem, depth: int | None = None):
        self.domain = domain
        self.problem = problem
        self.depth = problem.depth if depth is None else depth
        self.width, self.height = problem.width, problem.height
        self.c = Circuit()

    # -- the prefix (Table 1) ---------------------------------------------

    def side_of(self, i: int) -> str:
        black_on_odd = self.problem.black_first
        return "black" if (i % 2 == 1) == black_on_odd else "white"

    def actions_of(self, side: str) -> tuple[Action, ...]:
        return self.domain.black_actions if side == "black" else self.domain.white_actions

    def goals_of(self, side: str) -> tuple[Condition, ...]:
        return self.problem.black_goals if side == "black" else self.problem.white_goals

    def _vars(self, name: str, count: int) -> list[int]:
        return [self.c.var(f"{name}[{k}]") for k in range(count)]

    def prefix(self) -> None:
        c = self.c
        xb, yb = index_bits(self.width), index_bits(self.height)
        self.steps: list[Step] = []
        for i in range(1, self.depth + 1):
            side = self.side_of(i)
            actions = self.actions_of(side)
            step = Step(
                i,
                side,
                self._vars(f"A{i}", bits_for(len(actions))),
                self._vars(f"X{i}", xb),
                self._vars(f"Y{i}", yb),
                c.var(f"gs{i}") if i < self.depth else None,
                self._vars(f"c{i}", max((sum(a.negated for a in act.effect.atoms) for act in actions), default=0)),
            )
            block = step.A + step.X + step.Y + ([step.gs] if step.gs else []) + step.choices
            if side == "black":
                c.exists(block)
            else:
                c.forall(block)
                step.lb = c.var(f"lb{i}")
                step.P = self._vars(f"P{i}", max((len(a.precondition.atoms) for a in actions), default=0))
                c.exists([step.lb] + step.P)
            self.steps.append(step)
        # a side without goals needs no goal variables: its check is a constant
        has_black_goals, has_white_goals = bool(self.problem.black_goals), bool(self.problem.white_goals)
        self.Bx, self.By = self._vars("Bx", xb * has_black_goals), self._vars("By", yb * has_black_goals)
        self.Bc = self._vars("Bc", bits_for(len(self.problem.black_goals)))
        c.exists(self.Bx + self.By + self.Bc)
        self.Wx, self.Wy = self._vars("Wx", xb * has_white_goals), self._vars("Wy", yb * has_white_goals)
        self.Wc = self._vars("Wc", bits_for(len(self.problem.white_goals)))
        c.forall(self.Wx + self.Wy + self.Wc)
        self.Wce = self._vars("Wce", bits_for(max((len(g.atoms) for g in self.problem.white_goals), default=0)))
        c.exists(self.Wce)
        self.Sx, self.Sy = self._vars("Sx", xb), self._vars("Sy", yb)
        c.forall(self.Sx + self.Sy)
        self.o = [0] + [c.var(f"o{t}") for t in range(1, self.depth + 2)]
        self.w = [0] + [c.var(f"w{t}") for t in range(1, self.depth + 2)]
        c.exists([v for t in range(1, self.depth + 2) for v in (self.o[t], self.w[t])])

    # -- the matrix ---------------------------------------------------------

    def ri(self, Vx, Vy, atom: Atom) -> int:
        return RI(self.c, Vx, Vy, atom, self.Sx, self.Sy, self.width, self.height)

    def I(self) -> int:
        """The initial state: listed cells black or white, every other cell open."""
        c = self.c
        parts, listed = [], []
        for atom in self.problem.init:
            here = c.and_(
                [equals_const(c, self.Sx, _absolute(atom.x, self.width)), equals_const(c, self.Sy, _absolute(atom.y, self.height))]
            )
            listed.append(here)
            parts.append(c.implies(here, value_is(c, atom.pred, self.o[1], self.w[1])))
        parts.append(c.implies(-c.or_(listed), self.o[1]))
        return c.and_(parts)

    def effects(self, step: Step, action: Action, t: int) -> int:
        """Effects hold at t+1 where the effect names the symbolic cell; every
        other cell keeps its value (the frame).  A negated effect atom takes the
        value its choice bit selects among the two it allows."""
        c = self.c
        o0, w0, o1, w1 = self.o[t], self.w[t], self.o[t + 1], self.w[t + 1]
        parts, named = [], []
        choice = iter(step.choices)
        for atom in action.effect.atoms:
            here = self.ri(step.X, step.Y, atom)
            named.append(here)
            if atom.negated:
                first, second = [v for v in VALUES if v != atom.pred]
                bit = next(choice)
                after = c.ite(bit, value_is(c, second, o1, w1), value_is(c, first, o1, w1))
            else:
                after = SC(c, atom, o1, w1)
            parts.append(c.implies(here, after))
        parts.append(c.implies(-c.or_(named), c.and_([c.iff(o0, o1), c.iff(w0, w1)])))
        return c.and_(parts)

    def preconditions(self, step: Step, action: Action, t: int) -> int:
        c = self.c
        return c.and_([c.implies(self.ri(step.X, step.Y, a), SC(c, a, self.o[t], self.w[t])) for a in action.precondition.atoms])

    def M_b(self, step: Step) -> int:
        """Black's move at time t = step.index is a legal move from state t to t+1."""
        c, t = self.c, step.index
        actions = self.actions_of("black")
        parts = [LT(c, step.A, len(actions))]
        for j, action in enumerate(actions):
            body = c.and_(
                [
                    BDCIR(c, step.X, step.Y, action_bounds(action, self.width, self.height)),
                    self.preconditions(step, action, t),
                    self.effects(step, action, t),
                ]
            )
            parts.append(c.implies(EQ(c, step.A, j), body))
        return c.and_(parts)

    def consistent(self, step: Step, action: Action) -> int:
        """The effect's atoms do not contradict each other on any cell (given the
        position and the choice bits).  Constant true unless two atoms can name
        one cell, which no ordinary game does."""
        c = self.c
        options = []  # per atom: [(condition literal, resulting value)]
        choice = iter(step.choices)
        for atom in action.effect.atoms:
            if atom.negated:
                first, second = [v for v in VALUES if v != atom.pred]
                bit = next(choice)
                options.append([(-bit, first), (bit, second)])
            else:
                options.append([(TRUE, atom.pred)])
        atoms = action.effect.atoms
        conflicts = []
        for a in range(len(atoms)):
            for b in range(a + 1, len(atoms)):
                same = c.and_(
                    [
                        _same_index(c, step.X, atoms[a].x, atoms[b].x, self.width),
                        _same_index(c, step.Y, atoms[a].y, atoms[b].y, self.height),
                    ]
                )
                if same == FALSE:
                    continue
                differ = c.or_([c.and_([la, lb]) for la, va in options[a] for lb, vb in options[b] if va != vb])
                conflicts.append(c.and_([same, differ]))
        return -c.or_(conflicts)

    def M_w(self, step: Step) -> tuple[int, int]:
        """White's move at time t: defines the indicators lb and P, and the
        successor state when the move is legal.  Returns (M_w, legal)."""
        c, t = self.c, step.index
        actions = self.actions_of("white")
        in_bounds = c.and_(
            [LT(c, step.A, len(actions))]
            + [
                c.implies(EQ(c, step.A, j), BDCIR(c, step.X, step.Y, action_bounds(a, self.width, self.height)))
                for j, a in enumerate(actions)
            ]
        )
        consistent = c.and_([c.implies(EQ(c, step.A, j), self.consistent(step, a)) for j, a in enumerate(actions)])
        legal = c.and_([step.lb] + step.P + [consistent])
        parts = [c.iff(step.lb, in_bounds)]
        for j, action in enumerate(actions):
            body = []
            pre = action.precondition.atoms
            for k, atom in enumerate(pre):
                body.append(c.implies(self.ri(step.X, step.Y, atom), c.iff(SC(c, atom, self.o[t], self.w[t]), step.P[k])))
            body.extend(step.P[len(pre):])  # indicators this action does not use
            body.append(c.implies(legal, self.effects(step, action, t)))
            parts.append(c.implies(EQ(c, step.A, j), c.and_(body)))
        return c.and_(parts), legal

    def propagate(self, t: int) -> int:
        """The state at t equals the state at d+1 (so goals are checked once, at d+1)."""
        c, d1 = self.c, self.depth + 1
        return c.and_([c.iff(self.o[t], self.o[d1]), c.iff(self.w[t], self.w[d1])])

    def black_goal_body(self) -> int:
        """Black's goal B_c holds at (B_x, B_y) in the state at d+1."""
        c, d1 = self.c, self.depth + 1
        goals = self.problem.black_goals
        parts = [LT(c, self.Bc, len(goals))]
        for j, goal in enumerate(goals):
            holds = [BDCIR(c, self.Bx, self.By, condition_bounds(goal, self.width, self.height))]
            holds += [c.implies(self.ri(self.Bx, self.By, a), SC(c, a, self.o[d1], self.w[d1])) for a in goal.atoms]
            parts.append(c.implies(EQ(c, self.Bc, j), c.and_(holds)))
        return c.and_(parts)

    def white_goal_body(self) -> int:
        """W_ce is a counterexample to White's goal W_c at (W_x, W_y) at d+1: no White goal holds."""
        c, d1 = self.c, self.depth + 1
        parts = []
        for j, goal in enumerate(self.problem.white_goals):
            placed = c.and_([EQ(c, self.Wc, j), BDCIR(c, self.Wx, self.Wy, condition_bounds(goal, self.width, self.height))])
            violated = [LT(c, self.Wce, len(goal.atoms))]
            for k, atom in enumerate(goal.atoms):
                violated.append(
                    c.implies(
                        c.and_([self.ri(self.Wx, self.Wy, atom), EQ(c, self.Wce, k)]),
                        -SC(c, atom, self.o[d1], self.w[d1]),
                    )
                )
            parts.append(c.implies(placed, c.and_(violated)))
        return c.and_(parts)

    def G_b(self, t: int) -> int:
        return self.c.and_([self.propagate(t), self._black_goal])

    def G_w(self, t: int) -> int:
        return self.c.and_([self.propagate(t), self._white_goal])

    def matrix(self) -> int:
        """I and the turn recursion B^1 / W^1, built from the last step back."""
        c, d = self.c, self.depth
        self._black_goal = self.black_goal_body()
        self._white_goal = self.white_goal_body()
        rest = None
        for step in reversed(self.steps):
            i = step.index
            if step.side == "black":
                move = self.M_b(step)
                if i == d:
                    rest = c.and_([move, self.G_b(i + 1)])
                else:
                    rest = c.and_([move, c.implies(step.gs, self.G_b(i + 1)), c.implies(-step.gs, rest)])
            else:
                move, legal = self.M_w(step)
                if i == d:
                    rest = c.and_([move, -legal])
                else:
                    after = c.and_([c.implies(step.gs, self.G_w(i + 1)), c.implies(-step.gs, rest)])
                    rest = c.and_([move, c.implies(legal, after)])
        return c.and_([self.I(), rest])

    def encode(self) -> Encoding:
        self.prefix()
        self.c.set_output(self.matrix())
        return Encoding(self.c, self.domain, self.problem, self.depth, self.steps, self.Sx, self.Sy, self.o, self.w)


def _same_index(c: Circuit, V: list[int], a: Coord, b: Coord, side: int) -> int:
    """Do coordinates a and b, placed at index V, name the same index?"""
    if isinstance(a, Relative) and isinstance(b, Relative):
        return TRUE if a.offset == b.offset else FALSE
    if isinstance(a, Relative) or isinstance(b, Relative):
        rel, fixed = (a, b) if isinstance(a, Relative) else (b, a)
        return equals_const(c, V, _absolute(fixed, side) - rel.offset)
    return TRUE if _absolute(a, side) == _absolute(b, side) else FALSE


def encode(domain: Domain, problem: Problem, depth: int | None = None) -> Encoding:
    """The paper's lifted encoding: true iff Black wins within `depth` plies."""
    return LiftedEncoder(domain, problem, depth).encode()
