"""The corrective encoding of positional games (Mayer-Eichberger and Saffidine,
"Positional games and QBF: the corrective encoding"), adapted to BDDL's rules
and widened from positional to claiming games.

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

A claiming game keeps all of that but lets a claim wait for other cells to
be owned (by a side, or by either: Connect-4's gravity).  Ownership never
ends, so a claim once allowed stays allowed until its cell is taken, and the
requirements are clauses over the board variables of the ply before.  Where
cells can only be claimed one after another (a column), White's number names
the column rather than the cell, as Gent and Rowley's Connect-4 encoding
searches columns: at most one cell of a column is claimable at any time.

Where BDDL's rules differ from the paper's games, the encoding follows BDDL:
a side with no legal move loses (White stuck on a full board, or facing only
claims it may not make yet, is a Black win, which the paper's clock would
miss), and games a goal already decides before the first move are left to
the explicit encoding (`applicable`).

The formula is a circuit like every other encoding's, but its output is a
conjunction of clauses over quantified variables (plus the goal check), so
the Tseitin pass keeps it clausal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from itertools import product

from bddl.ast import Domain, Problem
from bddl.errors import BddlSemanticError, error
from bddl.game import BLACK, OPEN, WHITE, Geometry, state_from_atoms
from circuits import TRUE, Circuit

from .decoding import DecodedMove
from .grounding import Cell, actions_of, bits_for, ground_goals, ground_sides, mover

Owner = tuple[str, Cell]  # a side owns a cell


HINT = (
    "note: the corrective encoding covers claiming games only (each move claims one open cell,"
    " perhaps once given cells are taken, as Connect-4's gravity asks); use --encoding auto (or explicit) for others"
)


class NotClaiming(BddlSemanticError):
    """The game is not one the corrective encoding covers; the diagnostic
    points at the action or goal that makes it so."""

    def __init__(self, message: str, span):
        super().__init__(error(message, span, HINT))


@dataclass(frozen=True)
class Claim:
    """One way for a side to claim a cell: the action (and its parameters, to
    name the move) and what must hold first.  Each requirement is a set of
    owners of which one must hold; ownership never ends, so a claim that is
    allowed stays allowed until its cell is taken."""

    action: int
    x: int
    y: int
    requires: tuple[tuple[Owner, ...], ...]


@dataclass(frozen=True)
class ClaimingGame:
    """A claiming game read off a BDDL model: the open cells, how each side
    may claim them, and the winning sets.  A positional game is the claiming
    game whose claims require nothing."""

    open_cells: tuple[Cell, ...]
    black_stones: frozenset[Cell]
    white_stones: frozenset[Cell]
    black_sets: tuple[frozenset[Cell], ...]  # still winnable: no cell of them is White's
    white_sets: tuple[frozenset[Cell], ...]
    claims: dict  # side -> {cell: (Claim, ...)}, only claims that can ever be allowed
    lanes: tuple[tuple[Cell, ...], ...]  # cells of which at most one is ever claimable

    def unconditional(self, side: str) -> bool:
        """The side can always move while a cell is open.  Taken cells are a
        prefix of each lane, so it is enough that the side can claim the head
        of a lane whatever the board holds, and every other cell once the
        cell before it is taken, by whichever side."""
        claims = self.claims[side]
        if set(claims) != set(self.open_cells):
            return False
        for lane in self.lanes:
            waits = [()] + [(((BLACK, cell), (WHITE, cell)),) for cell in lane[:-1]]
            if not all(any(claim.requires in ((), wait) for claim in claims[cell]) for cell, wait in zip(lane, waits)):
                return False
        return True


def _claims(side: str, actions, moves, stones: dict[str, frozenset[Cell]]) -> dict[Cell, tuple[Claim, ...]]:
    """The side's claims per open cell, with requirements the initial
    position settles already dropped (met) or the claim dropped (never met)."""
    claims: dict[Cell, list[Claim]] = {}
    for move in moves:
        action = actions[move.action]
        cell, values = move.effect[0] if len(move.effect) == 1 else (None, ())
        pre = dict(move.pre)
        if cell is None or values != (side,) or pre.get(cell) != frozenset({OPEN}):
            raise NotClaiming(f"not a claiming game: {side.capitalize()}'s action '{action.name}' does more than claim an open cell", action.span)
        requires = []
        for other, allowed in sorted(pre.items()):
            if other == cell:
                continue
            if OPEN in allowed:
                raise NotClaiming(
                    f"not a claiming game: {side.capitalize()}'s action '{action.name}' asks for a cell that is open or can be opened",
                    action.span,
                )
            if any(other in stones[owner] for owner in allowed):
                continue  # met for good
            if other in stones[BLACK] or other in stones[WHITE]:
                break  # held by the wrong side for good
            requires.append(tuple((owner, other) for owner in sorted(allowed)))
        else:
            if cell in stones[BLACK] or cell in stones[WHITE]:
                continue
            claims.setdefault(cell, []).append(Claim(move.action, move.x, move.y, tuple(requires)))
    return {cell: tuple(found) for cell, found in sorted(claims.items(), key=lambda item: (item[0][1], item[0][0]))}


def _lanes(open_cells, claims: dict[str, dict]) -> tuple[tuple[Cell, ...], ...]:
    """Chains of cells in which each is claimable, by either side, only once
    the one before it is taken (a column under gravity; any claim that needs
    an owner of the cell before it will do).  The taken cells of
    such a chain are always a prefix of it, so at most one of its cells is
    claimable at a time, and White's move can name a lane instead of a cell.
    Cells outside any chain are lanes of their own."""
    below: dict[Cell, Cell] = {}
    for cell in open_cells:
        # the cells every claim of this cell waits for (an owner of each, whichever)
        waits = [
            {requirement[0][1] for requirement in claim.requires if len({c for _, c in requirement}) == 1}
            for side_claims in claims.values()
            for claim in side_claims.get(cell, ())
        ]
        common = set.intersection(*waits) if waits else set()
        if common:
            below[cell] = min(common)
    above: dict[Cell, list[Cell]] = {}
    for cell, support in below.items():
        above.setdefault(support, []).append(cell)
    lanes, placed = [], set()

    def follow(head: Cell) -> None:
        lane = [head]
        placed.add(head)
        while len(above.get(lane[-1], ())) == 1 and above[lane[-1]][0] not in placed:
            lane.append(above[lane[-1]][0])
            placed.add(lane[-1])
        lanes.append(tuple(lane))

    for cell in open_cells:
        if cell not in placed and not (cell in below and len(above[below[cell]]) == 1):
            follow(cell)
    for cell in open_cells:  # chains closed into a cycle have no head: start them anywhere
        if cell not in placed:
            follow(cell)
    return tuple(lanes)


def claiming_game(domain: Domain, problem: Problem, moves: dict | None = None) -> ClaimingGame:
    """The game as a claiming game, or NotClaiming with the reason it is not one.
    `moves` (side -> `ground_moves`) saves grounding the actions again."""
    geometry = Geometry(problem.width, problem.height)
    every_cell = set(geometry.all_cells())
    start = state_from_atoms(geometry, problem.init)
    stones = {
        side: frozenset(cell for cell in every_cell if getattr(start, side) & geometry.bit(*cell))
        for side in (BLACK, WHITE)
    }
    moves = ground_sides(geometry, domain) if moves is None else moves
    claims = {
        side: _claims(side, actions_of(domain, side), moves[side], stones)
        for side in (BLACK, WHITE)
    }
    sets = {}
    for side, goals in ((BLACK, problem.black_goals), (WHITE, problem.white_goals)):
        other = WHITE if side == BLACK else BLACK
        winning = set()
        for goal in goals:
            for instance in ground_goals(geometry, [goal]):
                if any(allowed != frozenset({side}) for _, allowed in instance):
                    raise NotClaiming(f"not a claiming game: a goal of {side.capitalize()} asks for more than {side} stones", goal.span)
                cells = frozenset(cell for cell, _ in instance)
                if cells & stones[other]:
                    continue  # the opponent already holds a cell of it: never completed
                if cells <= stones[side]:
                    raise NotClaiming(f"a goal of {side.capitalize()} already holds before the first move", goal.span)
                winning.add(cells)
        sets[side] = tuple(sorted(winning, key=sorted))
    open_cells = tuple(sorted(every_cell - stones[BLACK] - stones[WHITE], key=lambda c: (c[1], c[0])))
    lanes = _lanes(open_cells, claims)
    return ClaimingGame(open_cells, stones[BLACK], stones[WHITE], sets[BLACK], sets[WHITE], claims, lanes)


def applicable(domain: Domain, problem: Problem) -> bool:
    try:
        claiming_game(domain, problem)
    except NotClaiming:
        return False
    return True


@dataclass
class CorrectiveStep:
    index: int
    side: str
    moves: dict[Cell, int]  # cell -> the one-hot move variable
    number: list[int]  # White's universal lane number (LSB first); empty for Black
    before: dict[str, dict[Cell, int | None]]  # the board the move is made on (None: false)


@dataclass
class CorrectiveEncoding:
    name = "corrective"
    circuit: Circuit
    domain: Domain
    problem: Problem
    depth: int
    steps: list[CorrectiveStep]
    game: ClaimingGame

    def decode_move(self, step: CorrectiveStep, value) -> DecodedMove | None:
        """The claim a model of the formula makes at `step` (None if it makes none)."""
        chosen = [cell for cell, var in step.moves.items() if value(var)]
        if len(chosen) != 1:
            return None
        (cell,) = chosen

        def holds(owner: Owner) -> bool:
            side, where = owner
            lit = step.before[side].get(where)
            return lit is not None and value(lit)

        for claim in self.game.claims[step.side][cell]:
            if all(any(holds(owner) for owner in requirement) for requirement in claim.requires):
                actions = actions_of(self.domain, step.side)
                return DecodedMove(step.side, claim.action, actions[claim.action].name, claim.x, claim.y)
        return None


class CorrectiveCore:
    """The encoding of a claiming game, whichever front end read it: BDDL
    (`CorrectiveEncoder`) or a `.pg` positional game (`corrective_pg`).

    The front end gives the mover of each ply (`side_of`), the symmetries of
    the game, the first-move set of a `.pg` file (a symmetry cut its author
    asserts: the first ply's mover may claim only those cells), how cells are
    named in variable names, and the one rule where the two languages
    differ: in BDDL a side with no legal move loses (White stuck is a Black
    win), in a `.pg` game the game is then over and Black has not won."""

    def __init__(self, game: ClaimingGame, depth: int, *, symmetries=(), stuck_white_loses: bool = True,
                 first_moves: frozenset | None = None):
        self.game, self.depth = game, depth
        self.symmetries = list(symmetries)
        self.stuck_white_loses = stuck_white_loses
        self.first_moves = first_moves
        self.c = Circuit()
        self.clauses: list[int] = []

    def side_of(self, i: int) -> str:
        raise NotImplementedError

    def label(self, v) -> str:
        """A cell in variable names."""
        return f"({v[0]},{v[1]})"

    def clause(self, *lits: int) -> None:
        self.clauses.append(self.c.or_(lits))

    def symmetry_cuts(self, t: int, previous: dict[Cell, int]) -> dict[Cell, list[int]]:
        """For each cell, the conditions under which a move there at ply t is
        redundant: a symmetry of the game leaves the position unchanged and
        maps the cell to an earlier one (compiler.encodings.symmetry).

        In a position that a symmetry leaves unchanged, a move and its image
        lead to mirror-image positions of equal value, so offering the mover
        one move per orbit keeps the value of the game: Black's maximum and
        White's minimum over one move per orbit are those over all moves.
        Black's redundant moves are forbidden; White's are not made illegal:
        their numbers just force nothing, which only ever helps Black.

        The initial position is symmetric under every symmetry of the game;
        after the first move at r, under those that fix r.  Later positions
        are left alone: testing them costs more than it saves (measured on
        4x4 HTTT).  A game with a first-move set (a `.pg` file's own cut at
        ply 1) gets no cut at ply 1: two cuts there could drop a whole orbit."""
        if t > 2 or (t == 1 and self.first_moves is not None):
            return {}
        order = {cell: code for code, cell in enumerate(self.game.open_cells)}
        cuts: dict[Cell, list[int]] = {}
        for f in self.symmetries:
            conditions = [TRUE] if t == 1 else [previous[r] for r in order if f(r) == r and r in previous]
            for v in order:
                if conditions and order[f(v)] < order[v]:
                    cuts.setdefault(v, []).extend(conditions)
        return cuts

    def exactly_one_while(self, running: int, moves: list[int], t: int, stuck: int | None = None) -> None:
        """At most one of `moves`, and at least one while the clock runs and
        the mover is not stuck (the ladder encoding: ladder[i] says a move
        among the first i+1 is made)."""
        c = self.c
        excuses = [-running] + ([stuck] if stuck is not None else [])
        if not moves:
            self.clause(*excuses)
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
        self.clause(*excuses, ladder[-1])

    def requirements(self, claims: tuple[Claim, ...], board) -> list[list[int]]:
        """What must hold on `board` for one of the claims to be allowed, as
        clauses: one per requirement of a single claim, or for a choice of
        claims one clause of one gate.  An owner the board has no variable
        for (None) never holds."""
        def owners(requirement):
            return [board[side][cell] for side, cell in requirement if board[side].get(cell) is not None]

        if any(not claim.requires for claim in claims):
            return []
        if len(claims) == 1:
            return [owners(requirement) for requirement in claims[0].requires]
        c = self.c
        return [[c.or_([c.and_([c.or_(owners(r)) for r in claim.requires]) for claim in claims])]]

    def encode(self) -> Any:
        """The formula, as the front end's `result` wraps it."""
        c, game = self.c, self.game
        cells = game.open_cells
        lane_of = {cell: code for code, lane in enumerate(game.lanes) for cell in lane}
        white_never_stuck = game.unconditional(WHITE)
        # The cells only ever fill up, one per ply: at ply t (while the game
        # runs) exactly t-1 of the open cells are taken.  Past a full board
        # there are no plies to encode.
        last = min(self.depth, len(cells) + 1)
        board: dict[str, dict[Cell, int | None]] = {BLACK: {v: None for v in cells}, WHITE: {v: None for v in cells}}  # None: false
        steps: list[CorrectiveStep] = []
        running_before = None
        previous: dict[Cell, int] = {}
        white_stuck = []  # gates: the clock runs and White has no claim to make
        for t in range(1, last + 1):
            side = self.side_of(t)
            running = c.var(f"time{t}")
            c.exists([running])
            if running_before is not None:
                self.clause(-running, running_before)
            running_before = running
            if t == len(cells) + 1:
                if side == WHITE:
                    if self.stuck_white_loses:
                        white_stuck.append(running)
                else:
                    self.clause(-running)  # Black cannot move: it must have stopped the clock before
                break
            claims = game.claims[side]
            number = []
            if side == WHITE:
                number = [c.var(f"W{t}[{k}]") for k in range(bits_for(len(game.lanes)))]
                c.forall(number)
            allowed = cells if t > 1 or self.first_moves is None else [v for v in cells if v in self.first_moves]
            moves = {v: c.var(f"{side}{t}{self.label(v)}") for v in allowed if v in claims}
            c.exists(list(moves.values()))
            taken = {v: [lit for lit in (board[BLACK][v], board[WHITE][v]) if lit is not None] for v in cells}
            needs = {v: self.requirements(claims[v], board) for v in moves}
            stuck = None
            if side == WHITE and not white_never_stuck:
                claimable = []
                for v, need in needs.items():
                    allowed = c.and_([c.or_(lits) for lits in need])
                    claimable.append(c.and_([-lit for lit in taken[v]] + [allowed]))
                stuck = -c.or_(claimable)
                white_stuck.append(c.and_([running, stuck]))
            self.exactly_one_while(running, list(moves.values()), t, stuck)
            cuts = self.symmetry_cuts(t, previous)
            if side == BLACK:
                for cell, conditions in cuts.items():
                    for condition in conditions:
                        if cell in moves:
                            self.clause(-moves[cell], -condition)
            after = {}
            for v in cells:
                move = moves.get(v)
                if move is not None:
                    self.clause(-move, running)
                    for lit in taken[v]:
                        self.clause(-move, -lit)
                    for lits in needs[v]:
                        self.clause(-move, *lits)
                    if side == WHITE:
                        # the corrective rule: White's number forces the move when it names
                        # the lane of a cell that is open and claimable
                        code = lane_of[v]
                        mismatch = [-bit if code >> k & 1 else bit for k, bit in enumerate(number)]
                        excuses = [-running, *taken[v], *mismatch, *cuts.get(v, ())]
                        # not allowed = some requirement with none of its owners
                        for unmet in product(*needs[v]):
                            self.clause(*excuses, *(-lit for lit in unmet), move)
                after[v] = self.claimed(side, t, v, move, board)
            steps.append(CorrectiveStep(t, side, moves, number, board))
            board = {**board, side: after}
            previous = moves

        def completed(side: str, cells_needed: frozenset[Cell]) -> int:
            stones = game.black_stones if side == BLACK else game.white_stones
            lits = []
            for cell in sorted(cells_needed - stones):
                lit = board[side].get(cell)
                if lit is None:
                    return c.or_([])  # never claimed: FALSE
                lits.append(lit)
            return c.and_(lits)

        black_won = c.or_([completed(BLACK, s) for s in game.black_sets] + white_stuck)
        white_won = c.or_([completed(WHITE, s) for s in game.white_sets])
        c.set_output(c.and_(self.clauses + [black_won, -white_won]))
        return self.result(steps)

    def result(self, steps: list[CorrectiveStep]):
        raise NotImplementedError

    def claimed(self, side: str, t: int, v: Cell, move: int | None, board) -> int | None:
        """The side owns v after ply t: it did before, or it claims v now.  The
        other side's ownership excludes it (a cell has one owner)."""
        c = self.c
        before = board[side][v]
        if move is None:
            return before
        now = c.var(f"{side}@{t}{self.label(v)}")
        c.exists([now])
        self.clause(-move, now)
        if before is None:
            self.clause(-now, move)
        else:
            self.clause(-before, now)
            self.clause(-now, move, before)
        other = board[WHITE if side == BLACK else BLACK][v]
        if other is not None:
            self.clause(-now, -other)
        return now


class CorrectiveEncoder(CorrectiveCore):
    """The BDDL front end: a claiming game read off a domain and a problem."""

    def __init__(self, domain: Domain, problem: Problem, depth: int | None = None):
        self.domain, self.problem = domain, problem
        moves = ground_sides(Geometry(problem.width, problem.height), domain)
        from .symmetry import game_symmetries

        symmetries = [f for _, f in game_symmetries(domain, problem, moves)]
        super().__init__(claiming_game(domain, problem, moves), problem.depth if depth is None else depth, symmetries=symmetries)

    def side_of(self, i: int) -> str:
        return mover(i, self.problem.black_first)

    def result(self, steps: list[CorrectiveStep]) -> CorrectiveEncoding:
        return CorrectiveEncoding(self.c, self.domain, self.problem, self.depth, steps, self.game)


def encode(domain: Domain, problem: Problem, depth: int | None = None) -> CorrectiveEncoding:
    """The corrective encoding: true iff Black wins within `depth` plies.  Raises
    NotClaiming for a game that is not a claiming game."""
    return CorrectiveEncoder(domain, problem, depth).encode()
