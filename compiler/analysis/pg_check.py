"""`bddlc check GAME.pg`: the likely mistakes in a positional game.

The BDDL paper's sanity conditions (Def 9) are about moves that create the
opponent's win; in a positional game a claim only adds the mover's own
cell, so they hold by construction and only condition 1 can fail (a side
that owns a whole winning set before play, which the rules settle: White's
set first).  What goes wrong in a hand-written or generated `.pg` file is
the sets themselves, so that is what this checks, each finding located on
the line that causes it:

* a winning set written twice, or one that contains another of the same
  side (it never decides anything the smaller one does not);
* a set that can never be completed: it holds a cell the other side owns
  before play, or it needs more claims than its side has within the depth;
* a side with no winning set it can complete (it cannot win at all);
* cells in no winning set of either side (no claim of them ever matters),
  or, in Hex, cells on no chain between the borders;
* `#firstmoves` cells owned before play (the reader warns of them on
  every command; repeated here so that `check` lists everything).

Each finding is a warning: the game is well defined either way, and the
answer bddlc gives is the answer of the game as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.errors import Diagnostic, warning
from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.pg.reader import ReadGame

SIDE_WORD = {BLACK: "Black", WHITE: "White"}
SECTION = {BLACK: "blackwins", WHITE: "whitewins"}


@dataclass(frozen=True)
class PgCheckReport:
    """The findings, in file order, and the facts the text report states."""

    initial_winner: str | None  # the side that owns a whole winning set before play (White's counts first)
    warnings: tuple[Diagnostic, ...]


def claims_within(game: PositionalGame, side: str) -> int:
    """How many cells `side` claims within the depth (its time points)."""
    return sum(1 for mover in game.turns if mover == side)


def check_pg(read: ReadGame) -> PgCheckReport:
    game = read.game
    found: list[Diagnostic] = list(read.warnings)
    for side in (BLACK, WHITE):
        found += _set_findings(read, side)
    found += _idle_cells(read)
    return PgCheckReport(_initial_winner(game), tuple(sorted(found, key=lambda d: (d.span.line, d.span.column))))


def _initial_winner(game: PositionalGame) -> str | None:
    from bddl.rules import pg_rules

    return pg_rules(game).winner_before_play()


def _set_findings(read: ReadGame, side: str) -> list[Diagnostic]:
    game = read.game
    sets = game.black_wins if side == BLACK else game.white_wins
    spans = read.set_spans.get(SECTION[side], ())
    theirs = game.white_initials if side == BLACK else game.black_initials
    ours = game.black_initials if side == BLACK else game.white_initials
    claims = claims_within(game, side)
    who, other = SIDE_WORD[side], SIDE_WORD[WHITE if side == BLACK else BLACK]
    found = []
    first_line: dict[frozenset[int], int] = {}
    live, too_long = 0, []
    for index, cells in enumerate(sets):
        span = spans[index]
        if cells in first_line:
            found.append(warning(f"this {who} winning set repeats the one on line {first_line[cells]}", span, "each winning set once"))
            continue
        first_line[cells] = span.line
        smaller = next((j for j, s in enumerate(sets) if s < cells), None)
        if smaller is not None:
            found.append(warning(f"this {who} winning set contains the one on line {spans[smaller].line}, so it never decides anything that one does not",
                                 span, "only the smallest sets; a set that contains another can go"))
            continue
        blocked = sorted(cells & theirs)
        if blocked:
            found.append(warning(f"this {who} winning set can never be completed: {other} owns {game.cells[blocked[0]]} before play",
                                 span, f"a set without {other}'s initial cells"))
            continue
        needed = len(cells - ours)
        if needed > claims:
            too_long.append((span, needed))
            continue
        live += 1
    if too_long and live:  # some sets can be completed: the others are worth a look, each on its line
        found += [warning(f"this {who} winning set needs {needed} more cells but {who} claims only {claims} within the depth of {game.depth}",
                          span, f"a set of at most {claims} open cells, or a greater depth") for span, needed in too_long]
    if sets and not live and not (side == BLACK and game.graph is not None):
        why = (f": each needs at least {min(n for _, n in too_long)} more cells and {who} claims {claims} within the depth of {game.depth}"
               if len(too_long) == len(set(sets)) else "")
        found.append(warning(f"{who} has no winning set it can complete within the depth, so {who} cannot win{why}",
                             read.headers[SECTION[side]], f"a set {who} can complete, or a greater depth"))
    return found


def _idle_cells(read: ReadGame) -> list[Diagnostic]:
    """Cells no claim of which can matter; located at the cell's place in `#positions`."""
    game = read.game
    header = read.headers["positions"]
    if game.graph is not None and not game.black_wins:
        idle = _off_every_chain(game)
        what = "on no chain of cells between Black's two borders"
    else:
        used = frozenset().union(*game.black_wins, *game.white_wins) if (game.black_wins or game.white_wins) else frozenset()
        idle = [c for c in range(len(game.cells)) if c not in used and c not in game.black_initials | game.white_initials]
        what = "in no winning set of either side"
    if not idle:
        return []
    names = ", ".join(game.cells[c] for c in idle[:8]) + (f" and {len(idle) - 8} more" if len(idle) > 8 else "")
    return [warning(f"{len(idle)} cell{'s are' if len(idle) > 1 else ' is'} {what}, so claiming {'them' if len(idle) > 1 else 'it'} never matters: {names}",
                    header, "cells that are part of some goal, or leave them out")]


def _off_every_chain(game: PositionalGame) -> list[int]:
    """Hex: the open or Black cells that no border-to-border path through non-White cells passes."""
    graph = game.graph
    assert graph is not None
    through = {c for c in range(len(game.cells)) if c not in game.white_initials}

    def reach(seeds) -> set[int]:
        seen = {c for c in seeds if c in through}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for d in graph.neighbours[c]:
                if d in through and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return seen

    from_start, from_end = reach(graph.start_border), reach(graph.end_border)
    return [c for c in sorted(through) if not (c in from_start and c in from_end)]
