"""The lifted QBF encoding of the BDDL paper (Shaik & van de Pol, §4), piece by piece.

Every function here is named after the paper's notation and builds one of its
sub-circuits in a `circuits.Circuit`: the prefix of Table 1, RI, SC, BDCIR,
the initial state I, Black's move M_b, White's move M_w with its indicators,
the goal checks G_b / G_w and the turn recursion B^i / W^i.  Where the paper
is silent, the explicit semantics of `bddl.game`/`bddl.engines.minimax` decide, and
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

With the default `LiftedOptions()` this is the paper's encoding exactly:
board indices are 1-based and use ceil(log2(side + 1)) bits, as in Table 1.
The options switch on the levers of our own, smaller variant (encoding
"lifted"; docs/encoding.md measures each):

* `zero_based`: indices 0..side-1 in ceil(log2(side)) bits (a 4x4 board needs
  two bits per coordinate instead of three; a board of width 1 needs none);
* `shared_offsets`: RI compares the move's index with S - k, and S - k is
  built once per offset k for the whole formula, instead of an adder on every
  move's index at every time step (sound without exact arithmetic: an index
  inside the action's bounds never aliases under wrap-around, see `RI`);
* `board_guard`: symbolic cells S off the board satisfy the matrix outright.
  Nothing is ever asked of such a cell (every index in bounds names a cell on
  the board), so the formula's value is unchanged and solvers skip those
  branches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bddl.ast import Absolute, Action, Atom, Coord, Domain, Extreme, Problem, Relative
from bddl.bounds import Box, action_bounds, condition_bounds
from bddl.game import BLACK, OPEN, WHITE
from circuits import FALSE, TRUE, Circuit
from circuits.arith import add_const, equals, equals_const, less_than_const, sub_const

from .decoding import DecodedMove
from .grounding import VALUES, actions_of, bits_for, mover



@dataclass(frozen=True)
class LiftedOptions:
    """Which of our levers are on (all off: the paper's encoding)."""

    zero_based: bool = False
    shared_offsets: bool = False
    board_guard: bool = False
    stop_chain: bool = False
    one_sided_indicators: bool = False
    bounds_indicator: bool = True
    flat: bool = False


PAPER = LiftedOptions()
COMPACT = LiftedOptions(
    zero_based=True,
    shared_offsets=True,
    board_guard=True,
    stop_chain=True,
    one_sided_indicators=True,
    bounds_indicator=False,
    flat=True,
)


@dataclass(frozen=True)
class Axis:
    """One board axis as the encoding numbers it: 1..side (paper) or 0..side-1."""

    side: int
    zero_based: bool

    @property
    def bits(self) -> int:
        return bits_for(self.side) if self.zero_based else index_bits(self.side)

    @property
    def base(self) -> int:
        """The encoded value of board index 1."""
        return 0 if self.zero_based else 1

    def index(self, board_index: int) -> int:
        """The encoded value of a 1-based board index."""
        return board_index - 1 + self.base

    def absolute(self, coord: Coord) -> int:
        """The encoded value of an absolute coordinate or a board edge."""
        return self.index(_absolute(coord, self.side))


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
    base: int = 1  # the encoded value of board index 1

    def decode_move(self, step: Step, value) -> DecodedMove | None:
        """The move a model of the formula makes at `step`; `value(var) -> bool`
        reads an internal variable.  None when the bits name no action."""
        def number(bits):
            return sum(1 << k for k, b in enumerate(bits) if value(b))

        actions = actions_of(self.domain, step.side)
        index = number(step.A)
        if index >= len(actions):
            return None
        x, y = number(step.X) + 1 - self.base, number(step.Y) + 1 - self.base
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


def ADDSUB_EQ(c: Circuit, V: list[int], coord: Coord, S: list[int], axis: Axis) -> int:
    """EQ(ADDSUB(V, e), S): does coordinate e, placed at index V, name index S?

    Arithmetic is exact (no wrap-around), so an index pushed off the board
    never aliases a cell on it."""
    if isinstance(coord, Relative):
        if coord.offset >= 0:
            return equals(c, add_const(c, V, coord.offset), S)
        diff, negative = sub_const(c, V, -coord.offset)
        return c.and_([equals(c, diff, S), -negative])
    return equals_const(c, S, axis.absolute(coord))


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


def RI(c: Circuit, Vx: list[int], Vy: list[int], atom: Atom, Sx: list[int], Sy: list[int], x: Axis, y: Axis) -> int:
    """Def 11, relative index: the atom placed at (Vx, Vy) names the symbolic cell (Sx, Sy)."""
    return c.and_([ADDSUB_EQ(c, Vx, atom.x, Sx, x), ADDSUB_EQ(c, Vy, atom.y, Sy, y)])


class SharedOffsets:
    """RI without an adder per move: V + k = S  iff  V = S - k (mod 2^bits),
    and S - k is built once per offset k for the whole formula.  (Equalities
    with S - k for different k share most of their gates: the low bit of
    S - k is the low bit of S or its negation, and so on.)

    Why wrap-around is harmless: whenever the encoding consults RI, V lies in
    the bounds of the atom's condition, so V + k is a board index and below
    2^bits; then V = S - k (mod 2^bits) forces S = V + k exactly.  (For a
    White move out of bounds RI may name another cell, but such a move is
    illegal whatever its indicators say.)"""

    def __init__(self, c: Circuit, S: list[int], axis: Axis):
        self.c, self.S, self.axis = c, S, axis
        self._minus: dict[int, list[int]] = {}

    def minus(self, k: int) -> list[int]:
        vector = self._minus.get(k)
        if vector is None:
            vector = self._minus[k] = add_const(self.c, self.S, -k, width=len(self.S))
        return vector

    def names(self, V: list[int], coord: Coord) -> int:
        """Does coordinate `coord`, placed at index V, name index S?"""
        if isinstance(coord, Relative):
            return equals(self.c, V, self.minus(coord.offset))
        return equals_const(self.c, self.S, self.axis.absolute(coord))


def value_is(c: Circuit, value: str, o: int, w: int) -> int:
    """The state bits (o, w) of a cell hold `value` (open = o; black = -o-w; white = -o w)."""
    if value == OPEN:
        return o
    if value == BLACK:
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


def BDCIR(c: Circuit, Vx: list[int], Vy: list[int], box: Box, x: Axis, y: Axis) -> int:
    """Def 13: (Vx, Vy) lies in the bounds box (1-based board indices)."""
    if box.empty:
        return FALSE
    return c.and_(
        [
            -LT(c, Vx, x.index(box.x_lo)),
            LT(c, Vx, x.index(box.x_hi) + 1),
            -LT(c, Vy, y.index(box.y_lo)),
            LT(c, Vy, y.index(box.y_hi) + 1),
        ]
    )


# ---------------------------------------------------------------------------
# The encoder


class LiftedEncoder:
    """Builds the paper's formula for one domain/problem pair at one depth."""

    def __init__(self, domain: Domain, problem: Problem, depth: int | None = None, options: LiftedOptions = PAPER):
        self.domain = domain
        self.problem = problem
        self.depth = problem.depth if depth is None else depth
        self.width, self.height = problem.width, problem.height
        self.options = options
        self.x_axis = Axis(self.width, options.zero_based)
        self.y_axis = Axis(self.height, options.zero_based)
        self.c = Circuit()

    # -- the prefix (Table 1) ---------------------------------------------

    def _vars(self, name: str, count: int) -> list[int]:
        return [self.c.var(f"{name}[{k}]") for k in range(count)]

    def prefix(self) -> None:
        c = self.c
        xb, yb = self.x_axis.bits, self.y_axis.bits
        self.steps: list[Step] = []
        for i in range(1, self.depth + 1):
            side = mover(i, self.problem.black_first)
            actions = actions_of(self.domain, side)
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
            if side == BLACK:
                c.exists(block)
            else:
                c.forall(block)
                if self.options.bounds_indicator:
                    step.lb = c.var(f"lb{i}")
                step.P = self._vars(f"P{i}", max((len(a.precondition.atoms) for a in actions), default=0))
                c.exists(([step.lb] if step.lb else []) + step.P)
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
        if self.options.shared_offsets:
            self.x_offsets = SharedOffsets(c, self.Sx, self.x_axis)
            self.y_offsets = SharedOffsets(c, self.Sy, self.y_axis)
        self.o = [0] + [c.var(f"o{t}") for t in range(1, self.depth + 2)]
        self.w = [0] + [c.var(f"w{t}") for t in range(1, self.depth + 2)]
        c.exists([v for t in range(1, self.depth + 2) for v in (self.o[t], self.w[t])])

    # -- the matrix ---------------------------------------------------------

    def ri(self, Vx, Vy, atom: Atom) -> int:
        if self.options.shared_offsets:
            return self.c.and_([self.x_offsets.names(Vx, atom.x), self.y_offsets.names(Vy, atom.y)])
        return RI(self.c, Vx, Vy, atom, self.Sx, self.Sy, self.x_axis, self.y_axis)

    def bdcir(self, Vx, Vy, box: Box) -> int:
        return BDCIR(self.c, Vx, Vy, box, self.x_axis, self.y_axis)

    def on_board(self) -> int:
        """The symbolic cell (Sx, Sy) is a cell of the board."""
        return self.bdcir(self.Sx, self.Sy, Box(1, self.width, 1, self.height))

    def I(self) -> int:  # noqa: E743 (the paper's name for the initial-state constraint)
        """The initial state: listed cells black or white, every other cell open."""
        c = self.c
        parts, listed = [], []
        for atom in self.problem.init:
            here = c.and_([equals_const(c, self.Sx, self.x_axis.absolute(atom.x)), equals_const(c, self.Sy, self.y_axis.absolute(atom.y))])
            listed.append(here)
            parts.append(c.implies(here, value_is(c, atom.pred, self.o[1], self.w[1])))
        parts.append(c.implies(-c.or_(listed), self.o[1]))
        return c.and_(parts)

    def effects(self, step: Step, action: Action, t: int) -> int:
        """Effects hold at t+1 where the effect names the symbolic cell; every
        other cell keeps its value (the frame).  A negated effect atom takes the
        value its choice bit selects among the two it allows."""
        c = self.c
        o1, w1 = self.o[t + 1], self.w[t + 1]
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
        parts.append(c.implies(-c.or_(named), self.unchanged(t)))
        return self.all_of(parts)

    def all_of(self, parts: list[int]) -> int:
        """The conjunction of `parts`; with the `flat` option nested
        conjunctions become one gate (and/or circuits have no other way to say
        a long conjunction, and every gate is a variable after Tseitin)."""
        return self.c.and_flat(parts) if self.options.flat else self.c.and_(parts)

    def unchanged(self, t: int) -> int:
        """The symbolic cell has the same value at t and t+1 (the frame)."""
        c = self.c
        return c.and_([c.iff(self.o[t], self.o[t + 1]), c.iff(self.w[t], self.w[t + 1])])

    def preconditions(self, step: Step, action: Action, t: int) -> int:
        c = self.c
        return self.all_of([c.implies(self.ri(step.X, step.Y, a), SC(c, a, self.o[t], self.w[t])) for a in action.precondition.atoms])

    def M_b(self, step: Step) -> int:
        """Black's move at time t = step.index is a legal move from state t to t+1."""
        c, t = self.c, step.index
        actions = actions_of(self.domain, BLACK)
        parts = [LT(c, step.A, len(actions))]
        for j, action in enumerate(actions):
            body = self.all_of(
                [
                    self.bdcir(step.X, step.Y, action_bounds(action, self.width, self.height)),
                    self.preconditions(step, action, t),
                    self.effects(step, action, t),
                ]
            )
            parts.append(c.implies(EQ(c, step.A, j), body))
        return self.all_of(parts)

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
                        _same_index(c, step.X, atoms[a].x, atoms[b].x, self.x_axis),
                        _same_index(c, step.Y, atoms[a].y, atoms[b].y, self.y_axis),
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
        actions = actions_of(self.domain, WHITE)
        in_bounds = c.and_(
            [LT(c, step.A, len(actions))]
            + [
                c.implies(EQ(c, step.A, j), self.bdcir(step.X, step.Y, action_bounds(a, self.width, self.height)))
                for j, a in enumerate(actions)
            ]
        )
        consistent = c.and_([c.implies(EQ(c, step.A, j), self.consistent(step, a)) for j, a in enumerate(actions)])
        one_sided = self.options.one_sided_indicators
        if step.lb is None:
            # in_bounds depends on White's move alone: it needs no indicator
            legal = c.and_([in_bounds] + step.P + [consistent])
            parts = []
        else:
            legal = c.and_([step.lb] + step.P + [consistent])
            parts = [c.implies(in_bounds, step.lb) if one_sided else c.iff(step.lb, in_bounds)]
        for j, action in enumerate(actions):
            body = []
            pre = action.precondition.atoms
            for k, atom in enumerate(pre):
                here, holds = self.ri(step.X, step.Y, atom), SC(c, atom, self.o[t], self.w[t])
                if one_sided:
                    body.append(c.or_([-here, -holds, step.P[k]]))
                else:
                    body.append(c.implies(here, c.iff(holds, step.P[k])))
            body.extend(step.P[len(pre):])  # indicators this action does not use
            body.append(c.implies(legal, self.effects(step, action, t)))
            parts.append(c.implies(EQ(c, step.A, j), self.all_of(body)))
        return self.all_of(parts), legal

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
            holds = [self.bdcir(self.Bx, self.By, condition_bounds(goal, self.width, self.height))]
            holds += [c.implies(self.ri(self.Bx, self.By, a), SC(c, a, self.o[d1], self.w[d1])) for a in goal.atoms]
            parts.append(c.implies(EQ(c, self.Bc, j), self.all_of(holds)))
        return self.all_of(parts)

    def white_goal_body(self) -> int:
        """W_ce is a counterexample to White's goal W_c at (W_x, W_y) at d+1: no White goal holds."""
        c, d1 = self.c, self.depth + 1
        parts = []
        for j, goal in enumerate(self.problem.white_goals):
            placed = c.and_([EQ(c, self.Wc, j), self.bdcir(self.Wx, self.Wy, condition_bounds(goal, self.width, self.height))])
            violated = [LT(c, self.Wce, len(goal.atoms))]
            for k, atom in enumerate(goal.atoms):
                violated.append(
                    c.implies(
                        c.and_([self.ri(self.Wx, self.Wy, atom), EQ(c, self.Wce, k)]),
                        -SC(c, atom, self.o[d1], self.w[d1]),
                    )
                )
            parts.append(c.implies(placed, self.all_of(violated)))
        return self.all_of(parts)

    def G_b(self, t: int) -> int:
        if self.options.stop_chain:
            return self.frozen_until_end(t, self._black_goal)
        return self.c.and_([self.propagate(t), self._black_goal])

    def G_w(self, t: int) -> int:
        if self.options.stop_chain:
            return self.frozen_until_end(t, self._white_goal)
        return self.c.and_([self.propagate(t), self._white_goal])

    def frozen_until_end(self, t: int, goal: int) -> int:
        """The state stays as it is from t to d+1, where `goal` is checked.

        The same as `propagate` (the later states are free existentials that
        nothing else constrains once the game has stopped), but built from the
        frame gates every step has anyway: one and-gate per step instead of
        two equivalences."""
        # Each chain is built once, from the end back, and shared: the turn recursion asks it at every
        # time point, and rebuilding it from d each time made compiling cost the square of the depth.
        chain = self._frozen.setdefault(goal, {self.depth + 1: goal})
        start = min(chain)
        for step in range(start - 1, t - 1, -1):
            chain[step] = self.c.and_([self.unchanged(step), chain[step + 1]])
        return chain[t]

    def matrix(self) -> int:
        """I and the turn recursion B^1 / W^1, built from the last step back."""
        c = self.c
        self._frozen: dict[int, dict[int, int]] = {}  # goal gate -> time point -> frozen_until_end's gate
        self._black_goal = self.black_goal_body()
        self._white_goal = self.white_goal_body()
        rest = FALSE  # no plies at all: Black has not won
        for step in reversed(self.steps):
            i = step.index
            if step.side == BLACK:
                move = self.M_b(step)
                if step.gs is None:  # the last step
                    rest = self.all_of([move, self.G_b(i + 1)])
                else:
                    rest = self.all_of([move, c.implies(step.gs, self.G_b(i + 1)), c.implies(-step.gs, rest)])
            else:
                move, legal = self.M_w(step)
                if step.gs is None:  # the last step
                    rest = self.all_of([move, -legal])
                else:
                    after = c.and_([c.implies(step.gs, self.G_w(i + 1)), c.implies(-step.gs, rest)])
                    rest = self.all_of([move, c.implies(legal, after)])
        body = self.all_of([self.I(), rest])
        if self.options.board_guard:
            return c.or_([-self.on_board(), body])
        return body

    def encode(self) -> Encoding:
        self.prefix()
        self.c.set_output(self.matrix())
        return Encoding(self.c, self.domain, self.problem, self.depth, self.steps, self.Sx, self.Sy, self.o, self.w, self.x_axis.base)


def _same_index(c: Circuit, V: list[int], a: Coord, b: Coord, axis: Axis) -> int:
    """Do coordinates a and b, placed at index V, name the same index?"""
    if isinstance(a, Relative) and isinstance(b, Relative):
        return TRUE if a.offset == b.offset else FALSE
    if isinstance(a, Relative):
        return equals_const(c, V, axis.absolute(b) - a.offset)
    if isinstance(b, Relative):
        return equals_const(c, V, axis.absolute(a) - b.offset)
    return TRUE if axis.absolute(a) == axis.absolute(b) else FALSE


def encode(domain: Domain, problem: Problem, depth: int | None = None) -> Encoding:
    """The paper's lifted encoding: true iff Black wins within `depth` plies."""
    return LiftedEncoder(domain, problem, depth, PAPER).encode()


def encode_compact(domain: Domain, problem: Problem, depth: int | None = None) -> Encoding:
    """Our lifted encoding (every lever of `LiftedOptions` on): the same
    formula value in fewer variables and gates."""
    return LiftedEncoder(domain, problem, depth, COMPACT).encode()
