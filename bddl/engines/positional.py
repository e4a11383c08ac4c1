"""Does Black win the positional game?  The exact explicit solver: the oracle
that every QBF encoding of positional games (COR, COR+, Hex's) is tested against.

The rules, and everything the solver knows about positional games (the
cuts, claims and verdicts of threats, the lost causes, the Maker-Breaker
relevance pruning, the board symmetries), are `bddl.engines.positional_rules`,
which df-pn (`bddl.engines.positional_pns`) reads too.  The search is the
engines' one minimax (`bddl.engines.minimax.Minimax`); this module only
says how it reads the rules:

* the table key is the masks, or once the symmetries are set up, the
  rules' canonical board of the position's symmetry class in the first half
  of the game (`PositionalRules.symmetric_plies` says why only there);
  the time point, hence the plies left, follows from the number of stones,
  so the monotone table holds one depth per key;
* the knowledge, asked before a position is expanded and not counted, is the
  lost cause: no Black goal can be completed in Black's remaining turns;
* the judge, asked once the position is counted, is what one ply decides
  (the rules' `verdict_of`: a completing claim wins, a mover with one stone
  before the other's turn loses to two threats, a mover without an open
  cell ends the game), read from the cells that complete a goal, where the
  generic search would test every child's goal;
* the moves are the rules' claims, and White's blocks on Black's cheapest
  goals are tried by how far each pushes Black's need once the subtrees are
  big enough to pay for it (`LOOKAHEAD_FROM`);
* symmetries cost a fixed setup, worth it only for a search that is not
  tiny: they are switched on after `SYMMETRY_AFTER` positions.

The three hooks read one position's cuts, computed once by the knowledge
(`PositionalRules.compute_cuts`, kept for the judge and the claims of the same
position).  The budget contract is `bddl.engines.minimax`'s:
`SearchBudgetExceeded` after `max_positions` expanded positions.
"""

from __future__ import annotations

import time

from ..pg.game import PositionalGame
from .minimax import DEFAULT_MAX_POSITIONS, NEVER, Key, Minimax, SearchBudgetExceeded, SideMoves
from .positional_rules import Cuts, PositionalRules
from .result import SearchResult

SYMMETRY_AFTER = 2000
# From this many Black claims left on, White's cheapest-tier claims are ordered by
# how far each pushes Black's need (a search per claim, paid back by big subtrees):
# on the Hein puzzles Black cannot win, 20-55% fewer positions and up to a third
# less time; nearer the horizon it costs more than it saves.
LOOKAHEAD_FROM = 3

__all__ = ["PgSearchResult", "PositionalSolver", "SearchBudgetExceeded", "solve"]


# one result type for every engine (`bddl.engines.result`); the name the positional engines gave it
PgSearchResult = SearchResult


def solve(
    game: PositionalGame,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    use_symmetries: bool = True,
    symmetry_after: int = SYMMETRY_AFTER,
    relevance: bool = True,
    carriers: bool = True,
    pairings: bool = True,
) -> PgSearchResult:
    """Decide the game from its initial position; raises `SearchBudgetExceeded`.

    Symmetries are used once the search has expanded `symmetry_after` positions;
    `relevance=False` turns off the Maker-Breaker relevance pruning (the tests'
    reference); `pairings=False` never asks for White's pairings."""
    start = time.perf_counter()
    solver = PositionalSolver(game, max_positions, use_symmetries, symmetry_after, relevance, carriers, pairings)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    wins, move = solver.decide(b, w)
    return PgSearchResult(wins, game.depth, move, solver.positions, time.perf_counter() - start, len(solver.rules.perms), solver)


class PositionalSolver:
    """The minimax on one game's rules, with its table; reusable across
    positions of the game (a line of play can be asked about position by
    position)."""

    def __init__(
        self,
        game: PositionalGame,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        use_symmetries: bool = True,
        symmetry_after: int = SYMMETRY_AFTER,
        relevance: bool = True,
        carriers: bool = True,
        pairings: bool = True,
    ):
        self.rules = rules = PositionalRules(game, use_symmetries, relevance, pairings)
        self.symmetry_after = symmetry_after
        # the position being expanded, its time point and its cuts (the knowledge computes
        # them, the judge and the claims read them)
        self._b = self._w = -1
        self._t = 0
        self._cuts: Cuts | None = None
        self.engine = Minimax(
            SideMoves(self._claims(True), lambda b, w: rules.black_won(b)),
            SideMoves(self._claims(False), lambda b, w: rules.white_won(w)),
            max_positions,
            knowledge=self._lost_cause,
            judge=self._judge,
            key=self._keys(),
            movers=rules.movers,
            stuck_black_loses=True,
            watch=self._symmetries_on if use_symmetries else None,
        )
        if carriers and rules.relevance is not None:  # Maker-Breaker: White's stones only block
            self.engine.use_carriers(rules.n, self._black_threats)

    @property
    def positions(self) -> int:
        return self.engine.positions

    # -- the public questions ---------------------------------------------------
    def decide(self, b: int, w: int) -> tuple[bool, int | None]:
        """Does Black win from the position (b, w) (the time point is implied)?
        Also a winning claim when Black is to move and wins."""
        rules = self.rules
        at_once = rules.decided_at_once(b, w)
        if at_once is not None:
            return at_once, None
        t = rules.time_of(b, w)
        r = rules.depth - t
        engine = self.engine
        if not rules.turns[t]:
            return engine.black_wins(False, b, w, r), None
        for c in rules.claims(b, w, t):  # none when Black can no longer complete a goal in time
            b2 = b | 1 << c
            if rules.black_won(b2) or engine.black_wins(rules.movers[r - 1], b2, w, r - 1):
                return True, c
        return False, None

    def black_wins(self, b: int, w: int) -> bool:
        return self.decide(b, w)[0]

    def refutation(self, b: int, w: int) -> int | None:
        """White to move at (b, w): its first claim, in the search's own order, after
        which Black does not win; None where Black wins, or where the rules cut the
        position (Black cannot win whatever White claims, so the search has no order).

        The counterpart of `decide`'s winning claim: the search refuted Black here
        by trying White's claims in this order, so asking again costs table lookups."""
        rules = self.rules
        t = rules.time_of(b, w)
        r = rules.depth - t
        if r < 1 or rules.turns[t] or self._lost_cause(False, b, w, r) is not None:  # (keeps the cuts for the claims)
            return None
        engine, after_mover = self.engine, rules.movers[r - 1]
        for b2, w2 in self._claims(False)(b, w):
            if rules.white_won(w2) or not engine.black_wins(after_mover, b2, w2, r - 1):
                return (w2 ^ w).bit_length() - 1
        return None

    # -- how the minimax reads the rules ------------------------------------------
    def _keys(self) -> Key:
        """The table key: the masks, or once the symmetries are set up, the
        canonical board in the first half of the game (`symmetric_plies`)."""
        rules = self.rules
        n = rules.n
        if not rules.perms[1:]:
            return lambda black_to_move, b, w, r: b << n | w
        canonical = rules.key
        raw_from = rules.depth - rules.symmetric_plies  # r <= raw_from: t >= symmetric_plies

        def key(black_to_move: bool, b: int, w: int, r: int) -> int:
            return canonical(b, w) if r > raw_from else b << n | w

        return key

    def _lost_cause(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        """False when Black can no longer complete a goal in time (the knowledge);
        else the position's cuts are kept for the judge and the claims."""
        t = self.rules.depth - r
        cuts = self.rules.compute_cuts(b, w, t)
        if cuts is None:
            return False
        self._b, self._w, self._t, self._cuts = b, w, t, cuts
        return None

    def _cuts_of(self, b: int, w: int) -> tuple[Cuts, int]:
        """The cuts of the position being expanded (computed again if asked about another)."""
        if b == self._b and w == self._w:  # (always, in the minimax)
            return self._cuts, self._t  # type: ignore[return-value]
        t = self.rules.time_of(b, w)
        cuts = self.rules.compute_cuts(b, w, t)
        assert cuts is not None, "the minimax expands no lost cause"
        return cuts, t

    def _judge(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        if b == self._b and w == self._w:  # (the hot path: `_cuts_of` inlined)
            return self.rules.verdict_of(self._cuts, self._t)  # type: ignore[arg-type]
        return self.rules.verdict_of(*self._cuts_of(b, w))

    def _black_threats(self, black_to_move: bool) -> int:
        """The open cells completing a Black goal in the position being expanded
        (the carriers of the judge's Black wins)."""
        cuts = self._cuts
        assert cuts is not None
        return cuts[1] if black_to_move else cuts[2]

    def _claims(self, black: bool):
        rules = self.rules

        def successors(b: int, w: int) -> list[tuple[int, int]]:
            if b == self._b and w == self._w:  # (the hot path: `_cuts_of` inlined)
                cuts, t = self._cuts, self._t
            else:
                cuts, t = self._cuts_of(b, w)
            moves = rules.claims_of(cuts, t)  # type: ignore[arg-type]
            if black:
                return [(b | 1 << c, w) for c in moves]
            _, _, _, within, k, need = cuts  # type: ignore[misc]
            if within is not None and k >= LOOKAHEAD_FROM and len(moves) > 1:
                moves = rules.relevance.strongest_blocks_first(b, w, k, moves, within[need])  # type: ignore[union-attr]
            return [(b, w | 1 << c) for c in moves]

        return successors

    def _symmetries_on(self, positions: int) -> int:
        if positions < self.symmetry_after:
            return self.symmetry_after
        self.rules.set_up_symmetries()
        self.engine.key = self._keys()
        return NEVER
