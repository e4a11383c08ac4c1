"""One job of the parallel proof-number search (PPN²): a bounded df-pn on one position.

The remote algorithm of the race-patterns paper (its Algorithm 2): a worker
is given a position and a budget of descents, runs the proof-number search
there (`ProofNumberSearch.steps`, each descent one expanded position), and
sends its root's proof and disproof numbers every `every` descents and at
the end.  The end also carries what the server needs to expand the
position without knowing the game's rules: the distinct successors with
their numbers as the job's table has them (the paper's "touched" nodes, so
that a fresh node of the server's tree starts with what a client learnt
about it), and, when the mover won, a winning successor (Black's first move
when the position is the root).

A `DfpnSetup` is everything a df-pn needs apart from the position: both
sides' moves, the knowledge (race patterns, the positional rules' cuts),
the turn order and the engine's settings.  `bddl_setup` and `pg_setup` make
it for the two languages exactly as `search_pns` and `solve_pns` do, so a
job searches what the single-process search would.

Numbers here are in df-pn's mover form (phi: the mover wins); the server
(`bddl.engines.pn_tree`) turns them into Black's.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

from ..game import Game
from ..pg.game import BLACK, PositionalGame
from .minimax import DEFAULT_MAX_POSITIONS
from .pns import (
    DEFAULT_CAPACITY,
    DEFAULT_EPSILON,
    DEFAULT_LEAF_PLIES,
    INF,
    Initial,
    Knowledge,
    ProofNumberSearch,
    SideMoves,
    game_sides,
    mobility_numbers,
)

DEFAULT_DESCENTS = 1000  # the paper's remote search size (its Table 3)
DEFAULT_PARTIAL_EVERY = 100  # the paper's best frequency of partial results (its Table 4)

# (black to move, black cells, white cells, plies left)
Position = tuple[bool, int, int, int]


@dataclass(frozen=True)
class DfpnSetup:
    """A df-pn's game and settings, without a position (built once per worker)."""

    black: SideMoves
    white: SideMoves
    knowledge: Knowledge | None = None
    movers: Sequence[bool] | None = None
    stuck_black_loses: bool = False
    initial: Initial | None = None
    epsilon: float = DEFAULT_EPSILON
    leaf_plies: int = DEFAULT_LEAF_PLIES
    capacity: int = DEFAULT_CAPACITY
    # a knowledge function that counts the positions it decides into its engine's (`solve_pns`'s verdicts)
    counts_positions: bool = False

    def engine(self, max_positions: int = DEFAULT_MAX_POSITIONS) -> ProofNumberSearch:
        engine = ProofNumberSearch(
            self.black, self.white, max_positions, self.capacity, self.epsilon, self.knowledge,
            leaf_plies=self.leaf_plies, movers=self.movers, stuck_black_loses=self.stuck_black_loses, initial=self.initial,
        )
        if self.counts_positions:
            self.knowledge.engine = engine  # type: ignore[union-attr]
        return engine

    def child_mover(self, black_to_move: bool, r: int) -> bool:
        """Who moves in a successor of a position with r plies left."""
        return not black_to_move if self.movers is None else self.movers[r - 1]


@dataclass(frozen=True)
class JobResult:
    """A finished job: its root's numbers (mover form), and for an unsolved root
    its successors (b, w, phi, delta, mover) in the successor's mover's form; for a root
    the mover wins, a winning successor (None when the mover wins without a
    successor position: a goal reached by the move itself is one too)."""

    phi: int
    delta: int
    children: tuple[tuple[int, int, int, int, bool], ...]
    winning_child: tuple[int, int] | None
    positions: int


def run_job(
    setup: DfpnSetup,
    position: Position,
    descents: int = DEFAULT_DESCENTS,
    every: int = DEFAULT_PARTIAL_EVERY,
    engine: ProofNumberSearch | None = None,
) -> Generator[tuple[int, int], None, JobResult]:
    """Yields the root's (phi, delta) every `every` descents while unsolved and
    within the budget (the partial results); returns the `JobResult`.

    `engine` is the worker's df-pn from its previous jobs (a fresh one without
    it): its table carries over, so a position solved for one job is not
    searched again for the next (the jobs of one worker meet the same
    subtrees often); the job's positions are those it adds."""
    black_to_move, b, w, r = position
    engine = setup.engine() if engine is None else engine
    start = engine.positions
    # the engine's budget is a safety net for this job alone (its leaf searches may overrun
    # `descents`), not for the worker's lifetime: a worker's positions add up over its jobs
    engine.max_positions = start + max(DEFAULT_MAX_POSITIONS, 2 * descents)
    phi, delta = engine.numbers(black_to_move, b, w, r) if r >= 1 else (1, 1)
    for phi, delta in engine.steps(black_to_move, b, w, r, descents, every):
        if phi and delta and engine.positions - start < descents:
            yield phi, delta
    children: tuple[tuple[int, int, int, int, bool], ...] = ()
    winning = None
    if phi and delta:
        mover = setup.child_mover(black_to_move, r)
        children = tuple((b2, w2, *engine.numbers(mover, b2, w2, r - 1), mover) for b2, w2 in _successors(setup, black_to_move, b, w))
    elif phi == 0 and r >= 1:
        winning = _winning_child(setup, engine, position)
    return JobResult(phi, delta, children, winning, engine.positions - start)


def _successors(setup: DfpnSetup, black_to_move: bool, b: int, w: int):
    return (setup.black if black_to_move else setup.white).successors(b, w)


def _winning_child(setup: DfpnSetup, engine: ProofNumberSearch, position: Position) -> tuple[int, int] | None:
    """A successor the job's search knows (or proves again) to win for the mover;
    None when the mover won because the opponent is stuck, which is not a move."""
    black_to_move, b, w, r = position
    side = setup.black if black_to_move else setup.white
    children = side.successors(b, w)
    mover = setup.child_mover(black_to_move, r)
    for b2, w2 in children:
        if side.won(b2, w2):
            return b2, w2
    if r == 1:
        return None
    for b2, w2 in children:
        if engine.known(mover, b2, w2, r - 1) == black_to_move:
            return b2, w2
    for b2, w2 in children:
        if engine.black_wins(mover, b2, w2, r - 1) == black_to_move:
            return b2, w2
    return None  # no successor: the mover won because the opponent cannot move (BDDL's stuck White)


def run_to_end(generator: Generator[tuple[int, int], None, JobResult], report: Callable[[int, int], None] | None = None) -> JobResult:
    """Drive a `run_job` generator, handing each partial result to `report`."""
    while True:
        try:
            phi, delta = next(generator)
        except StopIteration as stop:
            return stop.value
        if report is not None:
            report(phi, delta)


def bddl_setup(game: Game, knowledge: Knowledge | None = None, mobility: bool = True) -> DfpnSetup:
    """`search_pns`'s search of a BDDL game (race patterns as `knowledge`)."""
    black, white = game_sides(game)
    initial = mobility_numbers(black, white) if mobility else None
    return DfpnSetup(black, white, knowledge=knowledge, initial=initial)


def bddl_root(game: Game, depth: int) -> Position:
    return game.black_first, game.initial.black, game.initial.white, depth


def pg_setup(game: PositionalGame):
    """`solve_pns`'s search of a positional game, with the positional rules; and the rules
    (whose `canonical` names the successors and whose `settled_before_play` comes first)."""
    from .positional_pns import PG_EPSILON, PG_LEAF_PLIES, _InitialNumbers, _sides, _Verdicts
    from .positional_rules import PositionalRules

    rules = PositionalRules(game)
    rules.set_up_symmetries()
    depth = game.depth
    movers = rules.movers
    black, white = _sides(rules)
    setup = DfpnSetup(
        black, white, knowledge=_Verdicts(rules, depth), movers=movers, stuck_black_loses=True,
        initial=_InitialNumbers(rules, depth), epsilon=PG_EPSILON, leaf_plies=PG_LEAF_PLIES, counts_positions=True,
    )
    return setup, rules


def pg_root(game: PositionalGame) -> Position | bool:
    """The root position, or the verdict when the game is settled before play."""
    from .positional_rules import PositionalRules

    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    settled = PositionalRules(game).settled_before_play(b, w)
    if settled is not None:
        return settled
    if game.depth < 1:
        return False
    return game.turns[0] == BLACK, b, w, game.depth


def solved_numbers(black_wins: bool, black_to_move: bool) -> tuple[int, int]:
    """A solved position's (phi, delta) for its mover."""
    return (0, INF) if black_wins == black_to_move else (INF, 0)
