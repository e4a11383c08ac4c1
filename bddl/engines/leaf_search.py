"""A leaf job of the parallel proof-number search that runs the single-process search.

PPN²'s `--leaf-jobs search` (the job-level search of the race-patterns
paper's §2.2 with a specialised program at the leaves): a leaf gets, before
any df-pn job, one run of the engine `bddlc search` uses on one core, within
a budget of positions.  It answers Black wins, Black loses, or unknown (the
budget ran out); the server's tree (`bddl.engines.pn_tree.PnTree.verdict`)
solves the leaf on an answer and otherwise leaves it to df-pn jobs, which
expand it, so its children get leaf jobs of their own.

Why: on positional games the single-process solver (`bddl.engines.positional`)
prunes with carriers, relevance and threat cuts that df-pn's bounded jobs
do not have (Hein 20 at 15: 6.96 million positions by the solver against
tens of millions by df-pn).  Cut at the leaves of a shallow tree, its
searches are independent, so two workers each take one.

The engine and its table live on the worker between leaf jobs (as a
worker's df-pn table does), so a subtree proved for one leaf is not searched
again for the next.  A job's budget is positions, not seconds, so which
leaves a run solves does not depend on the machine's load.  The table is
started afresh once it holds `capacity` entries, which bounds a worker's
memory (the minimax's table never forgets by itself).
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import Game
from ..pg.game import PositionalGame
from .minimax import Knowledge, Minimax, SearchBudgetExceeded, game_sides

# (black to move, black cells, white cells, plies left): the tree's position (`pn_job.Position`)
Position = tuple[bool, int, int, int]

DEFAULT_LEAF_POSITIONS = 4_000_000  # a leaf job's budget: 1 million left Breakthrough 3x7 undecided (docs/benchmarks.md)
LEAF_CAPACITY = 5_000_000  # table entries a worker keeps between leaf jobs (about 200 bytes each on Breakthrough: 1 GB)


class LeafSearch:
    """One worker's single-process engine, asked about leaf after leaf."""

    def __init__(self, build: Callable[[], tuple[Minimax, Callable[[Position], bool]]], capacity: int = LEAF_CAPACITY):
        # build: a fresh engine, and how to ask it about a position (raises SearchBudgetExceeded)
        self.build = build
        self.capacity = capacity
        self.engine, self.ask = build()

    def verdict(self, position: Position, budget: int) -> tuple[bool | None, int]:
        """Does Black win from the position (None: not within `budget` positions), and the
        positions this job expanded."""
        if len(self.engine.solved) > self.capacity:
            self.engine, self.ask = self.build()
        engine = self.engine
        start = engine.positions
        engine.max_positions = start + budget
        try:
            wins = self.ask(position)
        except SearchBudgetExceeded:
            return None, engine.positions - start
        return wins, engine.positions - start


def bddl_leaf_search(game: Game, knowledge: Knowledge | None = None) -> LeafSearch:
    """`bddlc search`'s minimax on a BDDL game, with the game's knowledge (race patterns) where on."""

    def build() -> tuple[Minimax, Callable[[Position], bool]]:
        black, white = game_sides(game)
        engine = Minimax(black, white, knowledge=knowledge)
        return engine, lambda position: engine.black_wins(*position)

    return LeafSearch(build)


def pg_leaf_search(game: PositionalGame) -> LeafSearch:
    """`bddlc search`'s positional solver on a `.pg` game (carriers, relevance, threat cuts)."""
    from .positional import PositionalSolver

    def build() -> tuple[Minimax, Callable[[Position], bool]]:
        solver = PositionalSolver(game)
        rules = solver.rules

        def ask(position: Position) -> bool:
            black_to_move, b, w, r = position
            t = rules.depth - r
            if not 0 <= t < rules.depth or rules.time_of(b, w) != t or rules.turns[t] != black_to_move:
                raise ValueError(f"the leaf {position} does not fit the game's turns: {r} plies left with "
                                 f"{rules.time_of(b, w)} stones claimed")
            return solver.engine.black_wins(black_to_move, b, w, r)

        return solver.engine, ask

    return LeafSearch(build)
