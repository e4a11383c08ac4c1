"""The corrective encoding of positional games (Mayer-Eichberger and Saffidine,
"Positional games and QBF: the corrective encoding"), adapted to BDDL's rules.

In a positional game each move claims one open cell for the mover, and each
side's goals ask only for cells of its own colour.  Claimed cells never
change, so the encoding can be almost all binary implication chains, which
is what lets QBF solvers finish HTTT and Hex where the general encodings
stall:

* board(a, v, t): side a owns cell v after ply t; ownership only grows
  (board(a, v, t-1) -> board(a, v, t)), and changes only where the mover
  moved.  The side not moving keeps its variables (no new ones).
* time(t): the game is still running at ply t.  Black (the existential side)
  stops the clock once it has won; after that nobody moves and the board is
  frozen, so both goals are checked once, on the final board: Black's must
  hold and White's must not.  Goals are monotone, so a goal that holds on the
  final board was completed by its owner's move, and the order of the two
  completions is settled by the clock.
* Black's move: one-hot move variables kept to at most one by the ladder
  encoding, at least one while the clock runs.
* White's move: a universal number in binary (the "adapted log encoding").
  It *forces* the one-hot move of that cell only when the cell is open and
  the game runs; a number naming no open cell forces nothing, and the
  ladder's "at least one" makes some open cell White's move anyway.  So White
  has no illegal moves to be punished for, which is why no indicator
  variables (and no long clauses) are needed.

Where BDDL's rules differ from the paper's games, the encoding follows BDDL:
a side with no legal move loses (White stuck on a full board is a Black win,
which the paper's clock would miss), and games a goal already decides before
the first move are left to the explicit encoding (`applicable`).

The formula is a circuit like every other encoding's, but its output is a
conjunction of clauses over quantified variables (plus the goal check), so
the Tseitin pass keeps it clausal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.ast import Domain, Problem
from bddl.errors import BddlSemanticError, error
from bddl.game import Geometry, state_from_atoms
from circuits import TRUE, Circuit

from .explicit import ground_goals, ground_moves
from .lifted import bits_for

Cell = tuple[int, int]


HINT = "note: the corrective encoding covers positional games only; use --encoding auto (or explicit) for others"


class NotPositional(BddlSemanticError):
    """The game is not one the corrective encoding covers; the diagnostic
    points at the action or goal that makes it so."""

    def __init__(self, message: str, span):
        super().__init__(error(message, span, HINT))


@dataclass(frozen=True)
class PositionalGame:
    """A positional game read off a BDDL model: the open cells and the winning sets."""

    open_cells: tuple[Cell, ...]
    black_stones: frozenset[Cell]
    white_stones: frozenset[Cell]
    black_sets: tuple[frozenset[Cell], ...]  # still winnable: no cell of them is White's
    white_sets: tuple[frozenset[Cell], ...]
    black_action: int  # the index of the (first) action that claims a cell
    white_action: int


def positional_game(domain: Domain, problem: Problem) -> PositionalGame:
    """The game as a positional game, or NotPositional with the reason it is not one."""
    geometry = Geometry(problem.width, problem.height)
    every_cell = {(x, y) for y in range(1, problem.height + 1) for x in range(1, problem.width + 1)}
    actions = {}
    for side, side_actions, header in (
        ("black", domain.black_actions, domain.black_span),
        ("white", domain.white_actions, domain.white_span),
    ):
        moves = ground_moves(geometry, side_actions)
        cells = set()
        for move in moves:
            cell = (move.x, move.y)
            if move.pre != ((cell, frozenset({"open"})),) or move.effect != ((cell, (side,)),):
                action = side_actions[move.action]
                raise NotPositional(f"not a positional game: {side}'s action '{action.name}' does more than claim an open cell", action.span)
            cells.add(cell)
        if cells != every_cell:
            raise NotPositional(f"not a positional game: {side} cannot claim every cell of the board", header)
        actions[side] = moves[0].action
    start = state_from_atoms(geometry, problem.init)
    stones = {
        side: frozenset(cell for cell in every_cell if getattr(start, side) & geometry.bit(*cell))
        for side in ("black", "white")
    }
    sets = {}
    for side, goals in (("black", problem.black_goals), ("white", problem.white_goals)):
        other = "white" if side == "black" else "black"
        winning = set()
        for goal in goals:
            for instance in ground_goals(geometry, [goal]):
                if any(allowed != frozenset({side}) for _, allowed in instance):
                    raise NotPositional(f"not a positional game: a goal of {side}'s asks for more than {side} cells", goal.span)
                cells = frozenset(cell for cell, _ in instance)
                if cells & stones[other]:
                    continue  # the opponent already holds a cell of it: never completed
                if cells <= stones[side]:
                    raise NotPositional(f"a goal of {side}'s already holds before the first move", goal.span)
                winning.add(cells)
        sets[side] = tuple(sorted(winning, key=sorted))
    open_cells = tuple(sorted(every_cell - stones["black"] - stones["white"], key=lambda c: (c[1], c[0])))
    return PositionalGame(open_cells, stones["black"], stones["white"], sets["black"], sets["white"], actions["black"], actions["white"])


def applicable(domain: Domain, problem: Problem) -> bool:
    try:
        positional_game(domain, problem)
    except NotPositional:
        return False
    return True


@dataclass
class CorrectiveStep:
    index: int
    side: str
    moves: dict[Cell, int]  # cell -> the one-hot move variable
    number: list[int]  # White's universal move number (LSB first); empty for Black


@dataclass
class CorrectiveEncoding:
    name = "corrective"
    circuit: Circuit
    domain: Domain
    problem: Problem
    depth: int
    steps: list[CorrectiveStep]
    game: PositionalGame

    def decode_move(self, step: CorrectiveStep, value) -> "DecodedMove | None":
        """The cell a model of the formula claims at `step` (None if it claims none)."""
        from .moves import DecodedMove

        chosen = [cell for cell, var in step.moves.items() if value(var)]
        if len(chosen) != 1:
            return None
        (x, y), = chosen
        index = self.game.black_action if step.side == "black" else self.game.white_action
        actions = self.domain.black_actions if step.side == "black" else self.domain.white_actions
        return DecodedMove(step.side, index, actions[index].name, x, y)


class CorrectiveEncoder:
    def __init__(self, domain: Domain, problem: Problem, depth: int | None = None):
        self.domain, self.problem = domain, problem
        self.depth = problem.depth if depth is None else depth
        self.game = positional_game(domain, problem)
        self.c = Circuit()
        self.clauses: list[int] = []
        from .symmetry import game_symmetries

        self.symmetries = [f for _, f in game_symmetries(domain, problem)]

    def side_of(self, i: int) -> str:
        return "black" if (i % 2 == 1) == self.problem.black_first else "white"

    def clause(self, *lits: int) -> None:
        self.clauses.append(self.c.or_(lits))

    def symmetry_cuts(self, t: int, previous: dict[Cell, int]) -> dict[Cell, list[int]]:
        """For each cell, the conditions under which a move there at ply t is
        redundant: a symmetry of the game leaves the position unchanged and
        maps the cell to an earlier one (compiler.symmetry).

        In a position that a symmetry leaves unchanged, a move and its image
        lead to mirror-image positions of equal value, so offering the mover
        one move per orbit keeps the value of the game: Black's maximum and
        White's minimum over one move per orbit are those over all moves.
        Black's redundant moves are forbidden; White's are not made illegal:
        their numbers just force nothing, which only ever helps Black.

        The initial position is symmetric under every symmetry of the game;
        after the first move at r, under those that fix r.  Later positions
        are left alone: testing them costs more than it saves (measured on
        4x4 HTTT)."""
        if t > 2:
            return {}
        order = {cell: code for code, cell in enumerate(self.game.open_cells)}
        cuts: dict[Cell, list[int]] = {}
        for f in self.symmetries:
            conditions = [TRUE] if t == 1 else [previous[r] for r in order if f(r) == r]
            for v in order:
                if conditions and order[f(v)] < order[v]:
                    cuts.setdefault(v, []).extend(conditions)
        return cuts

    def exactly_one_while(self, running: int, moves: list[int], t: int) -> None:
        """At most one of `moves`, and at least one while the clock runs (the
        ladder encoding: ladder[i] says a move among the first i+1 is made)."""
        c = self.c
        if not moves:
            self.clause(-running)
            return
        ladder = [c.var(f"ladder{t}[{i}]") for i in range(len(moves))]
        c.exists(ladder)
        for i, move in enumerate(moves):
            self.clause(-move, ladder[i])
            if i == 0:
                self.clause(move, -ladder[0])
            else:
                self.clause(-ladder[i - 1], ladder[i])
                self.clause(-move, -ladder[i - 1])
                self.clause(move, ladder[i - 1], -ladder[i])
        self.clause(-running, ladder[-1])

    def encode(self) -> CorrectiveEncoding:
        c, game = self.c, self.game
        cells = game.open_cells
        # The cells only ever fill up, one per ply: at ply t (while the game
        # runs) exactly t-1 of the open cells are taken.  Past a full board
        # there are no plies to encode.
        last = min(self.depth, len(cells) + 1)
        board = {"black": {v: None for v in cells}, "white": {v: None for v in cells}}  # None: false
        steps: list[CorrectiveStep] = []
        running_before = None
        previous: dict[Cell, int] = {}
        white_stuck = None  # the clock still runs when White faces a full board
        for t in range(1, last + 1):
            side = self.side_of(t)
            running = c.var(f"time{t}")
            c.exists([running])
            if running_before is not None:
                self.clause(-running, running_before)
            running_before = running
            if t == len(cells) + 1:
                if side == "white":
                    white_stuck = running
                else:
                    self.clause(-running)  # Black cannot move: it must have stopped the clock before
                break
            number = []
            if side == "white":
                number = [c.var(f"W{t}[{k}]") for k in range(bits_for(len(cells)))]
                c.forall(number)
            moves = {v: c.var(f"{side}{t}({v[0]},{v[1]})") for v in cells}
            c.exists(list(moves.values()))
            self.exactly_one_while(running, list(moves.values()), t)
            cuts = self.symmetry_cuts(t, previous)
            if side == "black":
                for cell, conditions in cuts.items():
                    for condition in conditions:
                        self.clause(-moves[cell], -condition)
            mine = board[side]
            after = {}
            for code, v in enumerate(cells):
                move = moves[v]
                self.clause(-move, running)
                taken = [lit for lit in (board["black"][v], board["white"][v]) if lit is not None]
                for lit in taken:
                    self.clause(-move, -lit)
                if side == "white":
                    # the corrective rule: White's number forces the move when it names an open cell
                    mismatch = [-bit if code >> k & 1 else bit for k, bit in enumerate(number)]
                    self.clause(-running, *taken, *mismatch, *cuts.get(v, ()), move)
                now = c.var(f"{side}@{t}({v[0]},{v[1]})")
                c.exists([now])
                before = mine[v]
                self.clause(-move, now)
                if before is None:
                    self.clause(-now, move)
                else:
                    self.clause(-before, now)
                    self.clause(-now, move, before)
                other = board["white" if side == "black" else "black"][v]
                if other is not None:
                    self.clause(-now, -other)
                after[v] = now
            board[side] = after
            steps.append(CorrectiveStep(t, side, moves, number))
            previous = moves

        def completed(side: str, cells_needed: frozenset[Cell]) -> int:
            stones = game.black_stones if side == "black" else game.white_stones
            lits = []
            for cell in sorted(cells_needed - stones):
                lit = board[side].get(cell)
                if lit is None:
                    return c.or_([])  # never claimed: FALSE
                lits.append(lit)
            return c.and_(lits)

        black_won = c.or_([completed("black", s) for s in game.black_sets])
        if white_stuck is not None:
            black_won = c.or_([black_won, white_stuck])
        white_won = c.or_([completed("white", s) for s in game.white_sets])
        c.set_output(c.and_(self.clauses + [black_won, -white_won]))
        return CorrectiveEncoding(c, self.domain, self.problem, self.depth, steps, game)


def encode(domain: Domain, problem: Problem, depth: int | None = None) -> CorrectiveEncoding:
    """The corrective encoding: true iff Black wins within `depth` plies.  Raises
    NotPositional for a game that is not a positional game."""
    return CorrectiveEncoder(domain, problem, depth).encode()
