"""A plain exhaustive minimax over the `.pg` rules, with no pruning but a
transposition table: the referee for the positional solver's cuts on the
animal games (docs/results.md).

The rules are docs/positional.md's, written out again here from the page (not
from bddl/engines): at each time point the mover claims one open cell (the
first one from `#firstmoves`, if any); a side that owns a whole winning set of
its own after its claim has won; when the time points run out or the mover has
no open cell, Black has not won; before play a side owning a set has won
(White's first).

Every child of every node is searched unless an earlier child already decides
the node (a Black node is won by one won child, a White node lost by one lost
child): that is minimax itself, not a cut.  The order of the children only
changes the time: at a Black node the completing claims come first, then an
optional `hint` (a caller's guess of a winning claim, e.g. the positional
solver's; a wrong or missing hint costs time, never the value), then the cells
in file order; at a White node the cells that take Black's completing cells
come first.

Run as a script on a game file (from the repository root):

    python tests/pg/plain_minimax.py GAME.pg [--hint] [--strategy FILE] [--line]

`--hint` asks the positional solver for Black's claims (the value is still
this module's); `--strategy FILE` writes Black's strategy as found: one line
per Black position reached, the position and Black's claim; `--line` draws
the line where White delays Black's win the most.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable

if __package__ in (None, ""):
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bddl.pg.game import BLACK, PositionalGame

Hint = Callable[[int, int], "int | None"]


@dataclass
class PlainMinimax:
    """The search and its table: `value(b, w)` for the position with Black's cells b and
    White's cells w (bitmasks), the time point being the number of stones played."""

    game: PositionalGame
    hint: Hint | None = None
    positions: int = 0
    table: dict[tuple[int, int], bool] = field(default_factory=dict)
    # Black's claim at each Black position found won (the strategy), by (b, w)
    black_claim: dict[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        g = self.game
        self.n = len(g.cells)
        self.black_sets = [sum(1 << c for c in s) for s in g.black_wins]
        self.white_sets = [sum(1 << c for c in s) for s in g.white_wins]
        self.black_through = [[s for s in self.black_sets if s >> c & 1] for c in range(self.n)]
        self.white_through = [[s for s in self.white_sets if s >> c & 1] for c in range(self.n)]
        self.start = len(g.black_initials) + len(g.white_initials)
        self.first = None if g.first_moves is None else sum(1 << c for c in g.first_moves)
        if g.graph is not None:
            raise ValueError("Hex's border goals are not for this referee")

    def initial(self) -> tuple[int, int]:
        g = self.game
        return sum(1 << c for c in g.black_initials), sum(1 << c for c in g.white_initials)

    def black_wins(self) -> bool:
        b, w = self.initial()
        if any(s & w == s for s in self.white_sets):
            return False
        if any(s & b == s for s in self.black_sets):
            return True
        return self.value(b, w)

    def value(self, b: int, w: int) -> bool:
        key = (b, w)
        known = self.table.get(key)
        if known is not None:
            return known
        self.positions += 1
        t = (b | w).bit_count() - self.start
        result = False
        if t < len(self.game.turns):
            open_cells = ((1 << self.n) - 1) & ~(b | w)
            if t == 0 and self.first is not None:
                open_cells &= self.first
            cells = [c for c in range(self.n) if open_cells >> c & 1]
            if self.game.turns[t] == BLACK:
                result = self._black(b, w, cells)
            else:
                result = self._white(b, w, cells)
        self.table[key] = result
        return result

    def _black(self, b: int, w: int, cells: list[int]) -> bool:
        for c in cells:
            nb = b | 1 << c
            if any(s & nb == s for s in self.black_through[c]):
                self.black_claim[(b, w)] = c
                return True
        guess = self.hint(b, w) if self.hint is not None else None
        if guess in cells:
            cells = [guess] + [c for c in cells if c != guess]
        for c in cells:
            if self.value(b | 1 << c, w):
                self.black_claim[(b, w)] = c
                return True
        return False

    def _white(self, b: int, w: int, cells: list[int]) -> bool:
        if not cells:  # White has no open cell: the game is over, and Black has not won
            return False
        for c in cells:
            nw = w | 1 << c
            if any(s & nw == s for s in self.white_through[c]):
                return False
        blocks = {c for c in cells for s in self.black_through[c] if (s & ~b) == 1 << c}
        for c in sorted(cells, key=lambda c: c not in blocks):
            if not self.value(b, w | 1 << c):
                return False
        return True

    def strategy_lines(self) -> list[str]:
        """Black's claims in the positions reached by Black's strategy against every White
        reply, from the initial position (one line each: Black's cells, White's cells, claim)."""
        names = self.game.cells
        seen: set[tuple[int, int]] = set()
        lines: list[str] = []
        stack = [self.initial()]
        while stack:
            b, w = stack.pop()
            if (b, w) in seen:
                continue
            seen.add((b, w))
            t = (b | w).bit_count() - self.start
            if t >= len(self.game.turns):
                continue
            if self.game.turns[t] == BLACK:
                c = self.black_claim[(b, w)]
                lines.append(f"{_names(names, b)} | {_names(names, w)} -> {names[c]}")
                nb = b | 1 << c
                if not any(s & nb == s for s in self.black_through[c]):
                    stack.append((nb, w))
            else:
                for c in range(self.n):
                    if not (b | w) >> c & 1:
                        stack.append((b, w | 1 << c))
        return sorted(lines, key=lambda line: (line.count(" "), line))

    def longest_line(self) -> list[tuple[int, int | None]]:
        """The line of Black's strategy where White, at each reply, delays Black's win the
                most, and among equal delays spoils most of Black's sets still open (Black's claim,
        White's reply; None after Black's winning claim)."""
        memo: dict[tuple[int, int], int] = {}

        def black_claims_left(b: int, w: int) -> int:  # Black's claims to the win, White delaying
            key = (b, w)
            if key not in memo:
                c = self.black_claim[key]
                nb = b | 1 << c
                if any(s & nb == s for s in self.black_through[c]):
                    memo[key] = 1
                else:
                    memo[key] = 1 + max(black_claims_left(nb, w | 1 << r) for r in self._replies(nb, w))
            return memo[key]

        b, w = self.initial()
        line: list[tuple[int, int | None]] = []
        while True:
            c = self.black_claim[(b, w)]
            b |= 1 << c
            if any(s & b == s for s in self.black_through[c]):
                line.append((c, None))
                return line
            live = [m for m in self.black_sets if not m & w]  # among equal delays, the reply that spoils most
            reply = max(self._replies(b, w), key=lambda r: (black_claims_left(b, w | 1 << r), sum(m >> r & 1 for m in live), -r))
            line.append((c, reply))
            w |= 1 << reply

    def _replies(self, b: int, w: int) -> list[int]:
        assert self.game.turns[(b | w).bit_count() - self.start] != BLACK, "alternating turns only"
        return [c for c in range(self.n) if not (b | w) >> c & 1]


def _names(names: tuple[str, ...], mask: int) -> str:
    return " ".join(names[c] for c in range(len(names)) if mask >> c & 1) or "-"


def main(argv: list[str]) -> int:
    import argparse

    from bddl.pg.reader import load_pg

    p = argparse.ArgumentParser(prog="python tests/pg/plain_minimax.py")
    p.add_argument("game")
    p.add_argument("--hint", action="store_true", help="order Black's claims by the positional solver's choice")
    p.add_argument("--strategy", metavar="FILE", help="write Black's strategy (when Black wins)")
    p.add_argument("--line", action="store_true", help="draw the line where White delays Black's win the most")
    args = p.parse_args(argv)
    game = load_pg(args.game)
    hint = None
    if args.hint:
        from bddl.engines.positional import PositionalSolver

        solver = PositionalSolver(game, max_positions=10**9)

        def hint(b: int, w: int) -> int | None:
            wins, move = solver.decide(b, w)
            return move if wins else None

    search = PlainMinimax(game, hint)
    start = time.perf_counter()
    wins = search.black_wins()
    seconds = time.perf_counter() - start
    print(
        f"{args.game}: Black {'wins' if wins else 'does not win'} within {game.depth} time points; plain minimax, {search.positions:,} positions, {seconds:.1f} s"
    )
    if wins and args.line:
        from bddl.pg.draw import draw

        b, w = search.initial()
        for number, (claim, reply) in enumerate(search.longest_line(), 1):
            b |= 1 << claim
            said = f"{number}. Black {game.cells[claim]}" + (f", White {game.cells[reply]}" if reply is not None else ": Black has made it")
            if reply is not None:
                w |= 1 << reply
            print(said)
            print(draw(game, b, w))
    if wins and args.strategy:
        lines = search.strategy_lines()
        with open(args.strategy, "w") as out:
            out.write("% Black's cells | White's cells -> Black's claim, for every Black position of the strategy\n")
            out.write("\n".join(lines) + "\n")
        print(f"strategy: {len(lines)} Black positions written to {args.strategy}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
