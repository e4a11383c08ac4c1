"""COR+, the polished encoding of positional games (Mayer-Eichberger and
Saffidine, "Positional Games and QBF: A Polished Encoding", §3), clause for
clause, as prenex CNF.

Four kinds of variables (§3.2):

* time(t): the game is not over at time point t.  Black (∃) stops the clock
  once it has won; from then on nobody moves.
* board(a, v, t): side a owns cell v after time point t.  Only the mover's
  ownership can change at t, so the other side keeps its variable of t-1:
  board(a, v, t) and board(a, v, t-1) are one variable when a does not move
  at t, which is what clauses (4) and (5) together say.  board(a, v, 0) is
  the constant false: clause (2), the empty board.
* win(e): Black's winning set e is complete at the last time point F.
* move(i, t): bit i of the cell chosen at t, cells numbered 0..N-1 with
  ceil(log2 N) bits.  White's bits are universal; a number naming no open
  cell forces nothing: White passes, which never helps White in a positional
  game.  Black's bits are existential and only follow the stone it adds.

The prefix, in the order of the time points, puts a whole turn of one side
in one block (a (p,q) turn): ∃ time(t) of the turn, then the turn's move
bits (∀ for White, ∃ for Black), then ∃ board; innermost ∃ win(e).  This is
how the paper's Table 3 counts quantifier blocks (Connect6: 179).

The game is first rewritten as §3.3 says (`positional.open_game`): initial
stones eliminated, White points after Black's last one dropped.  The
first-move restriction of §3.3 leaves out the cells outside `#firstmoves` at
the first time point: Black gets no variable for them, and White's number
forces nothing there (a pass, as for a number naming no cell).

The formula is built directly as clauses (no circuit: it is CNF by design,
and Connect6 19x19 has a million clauses) and numbered in prefix order, so
the same game gives byte-identical QDIMACS.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.pg.game import BLACK, WHITE, PositionalGame
from circuits import Qdimacs

from .positional import OpenGame, open_game, second_point_cuts

NAME = "cor+"


class NotExplicit(ValueError):
    """A game whose goal is not a list of winning sets (Hex's border goal)."""


@dataclass(frozen=True)
class CorPlusFormula:
    """The formula and what a solver's answer is read back through."""

    name = NAME
    cnf: Qdimacs
    game: OpenGame
    first_bits: tuple[int, ...]  # move(i, t1) for the first time point (LSB first); empty if none
    first_stones: dict[int, int]  # v -> board(mover, v, t1), the cells the first mover may claim
    first_side: str | None  # the mover at the first time point (None: no time points)
    circuit = None  # built as clauses: no circuit, so no QCIR

    def qdimacs(self, **_tseitin) -> Qdimacs:
        """The formula (already CNF: Tseitin options do not apply)."""
        return self.cnf

    def first_move(self, value) -> int | None:
        """The cell (0..N-1) the first mover claims in an assignment `value(var) -> bool`
        of the outermost block.  The assignment may let Black pass (its bits name
        no cell and it adds no stone): then the cell its bits name, or else the
        first cell it may claim, which in a positional game wins as well (an
        extra stone never hurts its owner)."""
        if not self.first_stones:
            return None
        claimed = [v for v, var in sorted(self.first_stones.items()) if value(var)]
        if len(claimed) == 1:
            return claimed[0]
        named = sum(1 << i for i, bit in enumerate(self.first_bits) if value(bit))
        return named if named in self.first_stones else min(self.first_stones)


class _Builder:
    """Variables numbered in prefix order, the prefix merged into alternating blocks."""

    def __init__(self) -> None:
        self.count = 0
        self.prefix: list[tuple[str, list[int]]] = []
        self.clauses: list[tuple[int, ...]] = []

    def new(self, quantifier: str, how_many: int = 1) -> list[int]:
        made = list(range(self.count + 1, self.count + how_many + 1))
        self.count += how_many
        if made:
            if self.prefix and self.prefix[-1][0] == quantifier:
                self.prefix[-1][1].extend(made)
            else:
                self.prefix.append((quantifier, list(made)))
        return made


def bits_for(cells: int) -> int:
    """ceil(log2 N): the bits that number cells 0..N-1 (the papers number them
    1..N, which needs a bit more when N is a power of two; Table 3's 6 bits for
    Qubic's 64 cells show the implementation counts from 0)."""
    return max(cells - 1, 0).bit_length()


def encode(game: PositionalGame) -> CorPlusFormula:
    """COR+: true iff Black wins the game (within its time points)."""
    if game.graph is not None and not game.black_wins:
        raise NotExplicit("COR+ needs Black's winning sets; this game's goal is a border-to-border chain (Hex)")
    g = open_game(game)
    n = g.size
    width = bits_for(n)
    b = _Builder()
    add = b.clauses.append
    board: dict[str, list[int | None]] = {BLACK: [None] * n, WHITE: [None] * n}  # (2): false at t = 0
    time_before: int | None = None  # time(0) is true: (1) starts at t = 2
    first_bits: tuple[int, ...] = ()
    first_stones: dict[int, int] = {}
    cuts = second_point_cuts(g)  # v -> first claims after which v is redundant at the second point
    t = 0
    for side, points in g.turns():
        other = WHITE if side == BLACK else BLACK
        times = b.new("exists", len(points))
        bits = [b.new("forall" if side == WHITE else "exists", width) for _ in points]
        for k, point in enumerate(points):
            time = times[k]
            if time_before is not None:
                add((-time, time_before))  # (1) once over, the game stays over
            time_before = time
            allowed = range(n) if point > 0 or g.first_moves is None else sorted(g.first_moves)
            stones = dict(zip(allowed, b.new("exists", len(allowed))))
            if point == 0:
                first_bits, first_stones = tuple(bits[k]), dict(stones)
            for v, now in stones.items():
                before, theirs = board[side][v], board[other][v]
                if theirs is not None:
                    add((-now, -theirs) if side == BLACK else (-theirs, -now))  # (3) one owner per cell
                if before is not None:
                    add((-before, now))  # (4) a claimed cell stays claimed
                    add((time, before, -now))  # (6) no new stone once the game is over
                else:
                    add((time, -now))  # (6), board(side, v, t-1) false
                mismatch = [-bit if v >> i & 1 else bit for i, bit in enumerate(bits[k])]
                redundant = [first_stones[r] for r in cuts.get(v, ()) if r in first_stones] if point == 1 else []
                if side == WHITE:
                    # (7) White's number names v, the game runs and v is open: White claims v
                    # (unless the first claim makes v redundant: positional.second_point_cuts)
                    black_has = (theirs,) if theirs is not None else ()
                    add((*mismatch, -time, *black_has, *redundant, now))
                else:
                    for first in redundant:
                        add((-first, -now))  # the symmetry cut at the second point
                    # (8), (9) a new Black stone at v sets the bits to v
                    for lit in mismatch:
                        add(((before,) if before is not None else ()) + (-now, -lit))
                board[side][v] = now
            # (5) cells the mover may not claim at t, and all the other side's cells, keep their variable of t-1
            t += 1
    final_black, final_white = board[BLACK], board[WHITE]
    wins = b.new("exists", len(g.black_sets))
    if not wins or any(not e for e in g.white_sets):
        # No Black set left, or White owns a set before play: Black cannot win.
        (d,) = b.new("exists")
        add((d,))
        add((-d,))
    else:
        add(tuple(wins))  # (10) Black completes one of its sets
    for win, e in zip(wins, g.black_sets):
        held = [final_black[v] for v in e]
        for cell_lit in held:
            add((-win, cell_lit) if cell_lit is not None else (-win,))  # (11) win(e) needs every cell of e
        complete = [lit for lit in held if lit is not None]
        if len(complete) == len(held):
            add((win, *(-lit for lit in complete)))  # (13) a complete set is a win
    for e in g.white_sets:
        owned = [lit for lit in (final_white[v] for v in e) if lit is not None]
        if e and len(owned) == len(e):
            add(tuple(-lit for lit in owned))  # (12) White never completes a set
    prefix = tuple((q, tuple(vs)) for q, vs in b.prefix)
    first_side = g.sides[0] if g.sides else None
    return CorPlusFormula(Qdimacs(b.count, prefix, tuple(b.clauses)), g, first_bits, first_stones, first_side)
