"""Does Black win the positional game?  df-pn (`bddl.engines.pns`) on the positional rules.

The rules, and what is known about positional games beyond them, are
`bddl.engines.positional_rules` (docs/positional.md): each time point's mover
claims one open cell (of the first-move set at the first time point); the
first side to own a whole winning set of its own wins (Hex: Black joins the
borders); when the time points run out, or the mover has no open cell, Black
has not won; a side owning a winning set before the first move has won.  The
df-pn core only needs each side's successors and win test, the mover at each
time point (`PositionalRules.movers`: turn patterns like (p,q) are not
alternating) and the positional rule for a mover without a move; the time
point is implied by the number of stones, so a board meets one depth only.

The minimax (`bddl.engines.positional`) reads the same rules, so the two
searches share the definition of a win and of every cut, and differ only in
the search.  df-pn reads the rules' cuts (`PositionalRules.cuts`):

* as the move generator (`claims`): the Maker-Breaker relevance pruning of
  `bddl.engines.relevance`, and in every game the threat logic (a completing
  claim only; the forced block of a mover with one stone before the other's
  turn; the blocks first); a position where Black can no longer complete a
  goal in time has no successors, which the core reads as the end of the
  game with Black not having won;
* as static knowledge (`verdict`, asked before a position is expanded):
  Black out of reach, a completing claim, two threats against one stone
  (`_Verdicts` counts the last two as expanded, as the minimax does);
* as df-pn+ initial numbers of unexpanded positions (`_InitialNumbers`),
  from how many open cells Black needs against how many claims it has left.

Symmetric successors are one successor, named by the rules' canonical
board (first half of the game, as the minimax's keys).  Measured on the
Hein puzzles and the GTTT corpus in docs/benchmarks.md.
"""

from __future__ import annotations

import time

from ..pg.game import PositionalGame
from .minimax import DEFAULT_MAX_POSITIONS, SearchBudgetExceeded, SideMoves
from .pns import DEFAULT_CAPACITY, ProofNumberSearch
from .positional import PgSearchResult
from .positional_rules import PositionalRules

# The core's settings for positional games (docs/benchmarks.md, the Hein puzzles): with the
# initial numbers, a smaller epsilon and a shorter leaf search took fewer positions than
# the core's defaults (epsilon 1, 5 leaf plies), which were chosen for BDDL games.
PG_EPSILON = 0.5
PG_LEAF_PLIES = 3


def _sides(rules: PositionalRules) -> tuple[SideMoves, SideMoves]:

    def claims(side_bit: int):
        def successors(b: int, w: int) -> list[tuple[int, int]]:
            # the rules' cuts (PositionalRules.claims): none once Black cannot complete a goal in
            # time (the core then ends the game: Black has not won), one where the others cannot
            # change the value, the relevant ones of a Maker-Breaker game, blocks first
            t = rules.time_of(b, w)
            claims = rules.claims(b, w, t)
            if side_bit:
                children = [(b | 1 << c, w) for c in claims]
            else:
                children = [(b, w | 1 << c) for c in claims]
            if t + 1 < rules.symmetric_plies and rules.perms[1:]:
                # symmetric children are one child (its value is the orbit's), named by its canonical board
                return list(dict.fromkeys(rules.canonical(b2, w2) for b2, w2 in children))
            return children

        return successors

    def black_won(b: int, w: int) -> bool:
        return rules.black_won(b)

    def white_won(b: int, w: int) -> bool:
        return rules.white_won(w)

    return SideMoves(claims(1), black_won), SideMoves(claims(0), white_won)


class _InitialNumbers:
    """df-pn+ initial numbers of an unexpanded position, from Black's `need`
    (the fewest open cells of a live goal) and its claims left k: Black's proof
    grows with need^3, its disproof with (k - need + 1)^3 times the number of
    open cells on its cheapest goals (Maker-Breaker games; White must take
    them all away).  A position where Black needs most of few claims is thus
    looked at first for a refutation, one with slack and many ways last.  In
    a Maker-Maker game White's own goals count too: Black's disproof is at
    most White's need^5 (White close to a goal refutes Black cheaply), and
    its proof is multiplied by White's spare claims (its claims left minus
    its need, plus one, at most 4).  Numbers >= 1 change the order of the
    search only, never a value.  Measured against (1, 1) and a dozen other
    formulas on the Hein puzzles and GTTT 4x4 (docs/benchmarks.md)."""

    def __init__(self, rules: PositionalRules, depth: int):
        self.rules = rules
        self.depth = depth

    def __call__(self, black_to_move: bool, b: int, w: int, r: int) -> tuple[int, int]:
        rules = self.rules
        t = self.depth - r
        cuts = rules.cuts(b, w, t)
        if cuts is None:
            return 1, 1  # (decided by the verdicts before it is expanded)
        _, _, _, within, k, need = cuts
        cheapest = within[need].bit_count() if within is not None and need <= k else 1
        proof = max(need, 1) ** 3
        disproof = (k - need + 1) ** 3 * max(cheapest, 1)
        if rules.white_sets:
            white_need = rules.white_need(b, w)
            if white_need <= r - k:  # White can still complete a goal with its claims from t on
                proof *= min(r - k - white_need + 1, 4)
                disproof = min(disproof, max(white_need, 1) ** 5)
        return (proof, disproof) if black_to_move else (disproof, proof)


class _Verdicts:
    """The rules' cuts read as values (`PositionalRules.verdict`): df-pn's
    static knowledge, asked before a position is expanded.  A position decided
    by a completing claim or by two threats counts as expanded, as the
    minimax counts it (its judge decides such a position once it is counted);
    one where Black is out of reach does not (the minimax's knowledge, asked
    before a position is counted), so the two searches' positions stay
    comparable."""

    def __init__(self, rules: PositionalRules, depth: int):
        self.rules = rules
        self.depth = depth
        self.engine: ProofNumberSearch | None = None  # whose positions a decided threat adds to

    def __call__(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        t = self.depth - r
        verdict = self.rules.verdict(b, w, t)
        if verdict is not None and self.rules.cuts(b, w, t) is not None and self.engine is not None:
            self.engine.positions += 1
            if self.engine.positions > self.engine.max_positions:
                raise SearchBudgetExceeded(self.engine.positions)
        return verdict


class PositionalProofNumberSearch:
    """df-pn on one game's rules, with its table; reusable across positions of
    the game, as the minimax's `PositionalSolver` is (the same two questions:
    `decide`, `refutation`), so that a certificate's strategist can be asked
    position by position what the search that decided the game has proved.

    `relevance=False` turns off the Maker-Breaker relevance pruning (the tests'
    reference); `initial_numbers=False` starts every position at (1, 1);
    `use_symmetries=False` keeps symmetric positions apart; `pairings=False`
    never asks for White's pairings."""

    def __init__(
        self,
        game: PositionalGame,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        capacity: int = DEFAULT_CAPACITY,
        relevance: bool = True,
        initial_numbers: bool = True,
        use_symmetries: bool = True,
        epsilon: float = PG_EPSILON,
        leaf_plies: int = PG_LEAF_PLIES,
        pairings: bool = True,
    ):
        self.rules = rules = PositionalRules(game, use_symmetries=use_symmetries, relevance=relevance, pairings=pairings)
        rules.set_up_symmetries()  # (none unless use_symmetries)
        black, white = _sides(rules)
        verdicts = _Verdicts(rules, rules.depth)
        initial = _InitialNumbers(rules, rules.depth) if initial_numbers else None
        self.engine = ProofNumberSearch(
            black, white, max_positions, capacity, epsilon, verdicts, leaf_plies=leaf_plies, movers=rules.movers,
            stuck_black_loses=True, initial=initial
        )
        verdicts.engine = self.engine

    @property
    def positions(self) -> int:
        return self.engine.positions

    def decide(self, b: int, w: int) -> tuple[bool, int | None]:
        """Does Black win from the position (b, w) (the time point is implied)?
        Also a winning claim when Black is to move and wins: the first, in the
        rules' order, that the table knows to win, else the first a search proves."""
        rules = self.rules
        at_once = rules.decided_at_once(b, w)
        if at_once is not None:
            return at_once, None
        t = rules.time_of(b, w)
        black_to_move = rules.turns[t]
        if not self._value(black_to_move, b, w, t):
            return False, None
        if not black_to_move:
            return True, None
        cell = self._first_claim(b, w, t, black=True)
        if cell is None:
            raise AssertionError("df-pn proved a win but no claim wins")
        return True, cell

    def refutation(self, b: int, w: int) -> int | None:
        """White to move at (b, w): a claim after which Black does not win (the
        first the table knows, else the first a search refutes, in the rules'
        order); None where Black wins or where the rules cut the position (Black
        cannot win whatever White claims)."""
        rules = self.rules
        t = rules.time_of(b, w)
        if rules.depth - t < 1 or rules.turns[t] or rules.cuts(b, w, t) is None:
            return None
        if self._value(False, b, w, t):
            return None
        return self._first_claim(b, w, t, black=False)

    def _value(self, black_to_move: bool, b: int, w: int, t: int) -> bool:
        """Does Black win from the board at time point t?  Its table entry (under
        the key df-pn's successors give it), else a df-pn search from it."""
        r = self.rules.depth - t
        if r < 1:
            return False
        b, w = self._stored(b, w, t)
        known = self.engine.known(black_to_move, b, w, r)
        return known if known is not None else self.engine.black_wins(black_to_move, b, w, r)

    def _stored(self, b: int, w: int, t: int) -> tuple[int, int]:
        """The board under which df-pn's table holds a position of time point t: its
        canonical board in the first half of the game, as `_sides` names the children
        there, else itself."""
        rules = self.rules
        return rules.canonical(b, w) if 0 < t < rules.symmetric_plies and rules.perms[1:] else (b, w)

    def _first_claim(self, b: int, w: int, t: int, *, black: bool) -> int | None:
        """The mover's first claim keeping its side's claim (Black's win, White's
        refutation): one the table holds first (df-pn solved it on the way to
        this position's value), then one searched in the rules' order."""
        rules = self.rules
        r = rules.depth - t
        mover_after = rules.movers[r - 1] if r > 1 else False
        claims = rules.claims(b, w, t)

        def after(c: int) -> tuple[int, int]:
            return (b | 1 << c, w) if black else (b, w | 1 << c)

        def ends(c: int) -> bool:
            b2, w2 = after(c)
            return rules.black_won(b2) if black else rules.white_won(w2)

        def known(c: int) -> bool | None:
            if r <= 1:
                return False
            return self.engine.known(mover_after, *self._stored(*after(c), t + 1), r - 1)

        for c in claims:
            if ends(c) or known(c) is black:
                return c
        for c in claims:
            if self._value(mover_after, *after(c), t + 1) is black:
                return c
        return None


def solve_pns(game: PositionalGame, **options) -> PgSearchResult:
    """Decide the game from its initial position by df-pn; raises `SearchBudgetExceeded`.
    The `options` are `PositionalProofNumberSearch`'s, by keyword.  The result's
    `solver` holds the search and its table (`PositionalProofNumberSearch`)."""
    start = time.perf_counter()
    solver = PositionalProofNumberSearch(game, **options)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    wins, first_move = solver.decide(b, w)
    return PgSearchResult(wins, game.depth, first_move, solver.positions, time.perf_counter() - start, len(solver.rules.perms), solver)
