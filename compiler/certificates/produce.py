"""Building a certificate: the strategist's strategy, every reply of the other side covered.

A certificate (format versions 1 and 2, docs/certificates.md) proves "Black wins within d
plies" by Black's strategy, or "Black does not" by White's.  It is built
breadth first from the initial position over the rules alone
(`bddl.rules.GameRules`), so one builder serves both languages: where the
strategist moves, a `Chooser` names its move; where the other side moves,
every legal move is followed.  Positions met again (transpositions) are
stored once, keyed by (position, ply); with board symmetries, by the
smallest image of the position, and the edge says which permutation maps
the position reached onto the node's.

Which move the strategist makes is the chooser's business (an engine's
oracle, `choose_by_oracle`, or a QBF solver's strategy); whether the result
proves anything is the independent checker's (`compiler.certificates.check`),
never this module's: a wrong chooser makes a certificate the checker refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from bddl.at_once import wins_at_once
from bddl.budget import MemoryBudgetExceeded, Progress, memory_limit
from bddl.pg.pairing import Pairing
from bddl.rules import BLACK, WHITE, GameRules, Play, Position

FORMAT = "bddlc-certificate"
VERSION = 1  # a file without swap edges; one with them is version 2 (`SWAP_VERSION`)
SWAP_VERSION = 2
PAIRING_VERSION = 3  # lines ended by a pairing strategy of White's (`Certificate.pairings`)
BLACK_WINS, NO_BLACK_WIN = "black-wins", "no-black-win"
CLAIMS = (BLACK_WINS, NO_BLACK_WIN)

# a node's bytes in memory while it is built (its key, masks, edges), measured with some margin
NODE_BYTES = 400
EDGE_BYTES = 120

Chooser = Callable[[Position, list[Play]], "Play | None"]
"""The strategist to move in `position` (its legal plays given): its move, or None when it has none that works."""

Permutation = tuple[int, ...]
PairingOf = Callable[[Position], "Pairing | None"]
"""A pairing strategy of White's from the position (`bddl.pg.pairing`), or None."""


class StrategyNotFound(Exception):
    """The chooser had no move for the strategist where it must move: the claim
    is wrong, or the engine that chose disagrees with itself."""


def strategist(claim: str) -> str:
    return BLACK if claim == BLACK_WINS else WHITE


def position_text(position: Position, cells: int) -> str:
    """One character per cell in bit order: '.' open, 'B' Black, 'W' White."""
    return "".join("B" if position.black >> i & 1 else "W" if position.white >> i & 1 else "." for i in range(cells))


@dataclass(frozen=True, slots=True)
class Edge:
    move: str
    to: int | None  # None: the game is over after the move (or, with `swap`, answered by a sibling)
    symmetry: int | None = None  # index into the certificate's symmetries: node `to` holds the image
    swap: str | None = None  # a move answered by the strategy after the sibling move `swap` (`produce`'s carriers)


@dataclass(frozen=True)
class Certificate:
    """A certificate in memory: the fields of the file (docs/certificates.md)."""

    language: str
    files: tuple[str, ...]
    sha256: tuple[str, ...]
    depth: int
    claim: str
    cells: tuple[str, ...]
    plies: list[int]  # per node id
    positions: list[Position]  # per node id (the position's own ply is the node's)
    moves: list[tuple[Edge, ...]]  # per node id
    symmetries: tuple[Permutation, ...] = ()
    produced_by: str | None = None
    black_cannot_win: frozenset[int] = frozenset()  # nodes whose lines end there: Black's goal is out of reach
    # nodes whose lines end there: White's pairing strategy (pairs of cells) keeps Black from ever winning
    pairings: Mapping[int, Pairing] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.plies)

    @property
    def version(self) -> int:
        """The format version the file needs: 3 with pairings, 2 with swap edges, 1 otherwise,
        so that every certificate an older checker could read keeps its older version."""
        if self.pairings:
            return PAIRING_VERSION
        return SWAP_VERSION if any(e.swap is not None for edges in self.moves for e in edges) else VERSION


def choose_by_oracle(
    rules: GameRules,
    claim: str,
    black_wins: Callable[[Position], bool],
    preference: Callable[[Play], int] | None = None,
    own_move: Callable[[Position, bool], Position | None] | None = None,
    sure: Callable[[Play], bool] | None = None,
) -> Chooser:
    """The strategist's first move, in the rules' order, that keeps the claim true by
    `black_wins(position)` (does Black win from there with the plies that are left?),
    unless `sure` or `own_move` names one first; but a move that wins at once
    comes before any other the engine names or the order gives (`bddl.at_once`:
    the lines end there, and the certificate is the smaller).

    Without them, the move chosen depends on the game's values alone, not on
    how the engine found them: the same game and claim give the same
    certificate whichever engine answered.  `preference` (smallest first)
    orders the moves tried: moves that bring the lines to an end sooner make
    smaller certificates.

    `sure(play)`: the move keeps the claim by an argument the checker verifies
    without an engine (White's pairing after it); the first such move in the
    order is taken.  Else `own_move(position, claim is black-wins)`: the
    engine's own move for the strategist, taken where it names a legal one.
    Trying moves in any other order costs a search of every move tried and
    rejected first, which the engine has mostly not made (the I-tetromino's
    7x7 race won in 7 moves: no certificate in 50 minutes that way, 68 s with
    the engine's moves); the file then depends on the engine's order too."""
    depth = rules.depth

    def choose(position: Position, plays: list[Play]) -> Play | None:
        # the preference is asked of as few moves as can be: it counts cells over every goal
        if sure is not None and (certain := [p for p in plays if sure(p)]):
            return certain[0] if preference is None else min(certain, key=preference)  # min: the first of the smallest
        named = None
        if own_move is not None:
            after = own_move(position, claim == BLACK_WINS)
            if after is not None:
                named = next((p for p in plays if (p.after.black, p.after.white) == (after.black, after.white)), None)
        at_once = named if named is not None and wins_at_once(rules, named) else _win_at_once(rules, plays)
        if at_once is not None or named is not None:
            return at_once or named
        if preference is not None:
            plays = sorted(plays, key=preference)  # stable: the rules' order among equals
        for play in plays:
            after = play.after
            if claim == BLACK_WINS:
                if rules.won(after, BLACK) or (after.ply < depth and black_wins(after)):
                    return play
            elif rules.won(after, WHITE) or after.ply >= depth or not black_wins(after):
                return play
        return None

    return choose


def _win_at_once(rules: GameRules, plays: list[Play]) -> Play | None:
    """The first of the mover's plays after which its goal holds (`bddl.at_once.win_at_once`,
    from the plays the builder has listed already)."""
    return next((play for play in plays if wins_at_once(rules, play)), None)


def image(mask: int, perm: Permutation) -> int:
    result = 0
    while mask:
        low = mask & -mask
        result |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return result


def produce(
    rules: GameRules,
    claim: str,
    choose: Chooser,
    *,
    symmetries: Sequence[Permutation] = (),
    files: Sequence[str] = (),
    sha256: Sequence[str] = (),
    produced_by: str | None = None,
    max_bytes: int | None = None,
    black_cannot_win: Callable[[Position], bool] | None = None,
    carriers: bool = False,
    dead: Callable[[Position, int], bool] | None = None,
    pairing: PairingOf | None = None,
) -> Certificate:
    """The certificate of `claim` about the game, the strategist's moves from `choose`.

    `symmetries`: permutations of the cells that map the game onto itself (not
    the identity); positions equal up to one of them share a node.  Raises
    StrategyNotFound where the chooser has no move, MemoryBudgetExceeded when the
    nodes would pass `max_bytes` (default: the process's memory limit).
    `black_cannot_win` (for "no-black-win"): positions where Black's goal is out of
    reach whatever is played; their lines end there (the checker verifies it).
    `carriers` (a positional game): the other side's moves that `dead(position,
    cell)` says no goal of that side can use any more, outside the carrier of a
    sibling's strategy, become swap edges (`_produce_with_carriers`).
    `pairing` (for "no-black-win"): White's pairing strategy from a position,
    where it has one; the lines end there too, the pairs written in the node
    (format version 3; the checker verifies the pairing)."""
    if claim not in CLAIMS:
        raise ValueError(f"a claim is one of {', '.join(CLAIMS)}, not {claim!r}")
    if claim != NO_BLACK_WIN:
        black_cannot_win = pairing = None
    if carriers and dead is not None and rules.winner_before_play() is None:
        return _produce_with_carriers(rules, claim, choose, symmetries, files, sha256, produced_by, max_bytes,
                                      black_cannot_win, dead, pairing)
    limit = memory_limit() if max_bytes is None else max_bytes
    depth = rules.depth
    mover_is_strategist = strategist(claim)
    n = len(rules.cells)
    perms = tuple(tuple(p) for p in symmetries)
    plies: list[int] = []
    positions: list[Position] = []
    moves: list[tuple[Edge, ...]] = []
    ids: dict[Position, int] = {}
    ended: set[int] = set()
    pairings: dict[int, Pairing] = {}
    used = 0

    def node_of(position: Position, canonical: bool = True) -> tuple[int, int | None]:
        """The node holding the position (or its canonical image), and the symmetry used."""
        nonlocal used
        key, which = position, None
        if perms and canonical:
            best = position.black << n | position.white
            for j, perm in enumerate(perms):
                b, w = image(position.black, perm), image(position.white, perm)
                if b << n | w < best:
                    best, key, which = b << n | w, Position(b, w, position.ply), j
        found = ids.get(key)
        if found is None:
            found = ids[key] = len(plies)
            plies.append(key.ply)
            positions.append(key)
            moves.append(())
            used += NODE_BYTES
            if used > limit:
                raise MemoryBudgetExceeded(f"the certificate's {len(plies):,} nodes and counting", used, limit)
        return found, which

    before = rules.winner_before_play()
    node_of(rules.initial, canonical=False)  # the root is the initial position itself
    if before is not None:
        if (before == BLACK) != (claim == BLACK_WINS):
            raise StrategyNotFound(f"{before.capitalize()} has won before the first move: the claim {claim} is false")
        return Certificate(rules.language, tuple(files), tuple(sha256), depth, claim, tuple(c.name for c in rules.cells),
                           plies, positions, moves, perms, produced_by, frozenset(ended))
    current = 0
    progress = Progress("certificate")
    while current < len(plies):  # breadth first: ids grow with the ply
        if not current & 0xFFF:
            progress(f"{current:,} of {len(plies):,} nodes expanded, ply {positions[current].ply}")
        position = positions[current]
        edges: list[Edge] = []
        if black_cannot_win is not None and current != 0 and black_cannot_win(position):
            ended.add(current)
        elif position.ply < depth and pairing is not None and (pairs := pairing(position)) is not None:
            pairings[current] = pairs
        elif position.ply < depth:
            plays = rules.plays(position)
            if plays and rules.to_move(position.ply) == mover_is_strategist:
                chosen = choose(position, plays)
                if chosen is None:
                    raise StrategyNotFound(
                        f"no move for {mover_is_strategist.capitalize()} keeps the claim {claim} at ply {position.ply} in\n"
                        + rules.render(position)
                    )
                plays = [chosen]
            for play in plays:
                after = play.after
                if after.ply >= depth or rules.won(after, play.side):
                    edges.append(Edge(play.text, None))
                else:
                    target, which = node_of(after)
                    edges.append(Edge(play.text, target, which))
            used += EDGE_BYTES * len(edges)
        moves[current] = tuple(edges)
        current += 1
    return Certificate(rules.language, tuple(files), tuple(sha256), depth, claim, tuple(c.name for c in rules.cells),
                       plies, positions, moves, perms, produced_by, frozenset(ended), pairings)


def _produce_with_carriers(
    rules: GameRules,
    claim: str,
    choose: Chooser,
    symmetries: Sequence[Permutation],
    files: Sequence[str],
    sha256: Sequence[str],
    produced_by: str | None,
    max_bytes: int | None,
    black_cannot_win: Callable[[Position], bool] | None,
    dead: Callable[[Position, int], bool] | None,
    pairing: PairingOf | None,
) -> Certificate:
    """A certificate where the other side's moves outside a carrier are swap edges.

    The carrier of the strategist's strategy below a node is every cell the
    strategist claims in it, along every line.  Say the strategist's
    strategy T answers the other side's move m, and m' is a cell outside T's
    carrier that is *dead* for the mover (`dead`: no goal of the mover
    through it can be completed with the moves it has left; with no winning
    sets, every cell is dead for White).  Then T answers m' too, played as if
    the mover's stone were on m (a claim of m later stands for one of m'):
    the two boards differ on that pair only and T never claims either; the
    strategist's stones are the same on both, so its goals come as soon; and
    the mover's goals in the real game never use m', so each is owned in the
    imagined game as soon as in the real one.  "black-wins" swaps White's
    replies (`bddl.engines.minimax.Minimax.use_carriers` is the same argument
    in the search), "no-black-win" Black's moves.

    The checker verifies each swap by recomputing the carriers and the count
    that makes m' dead from the file.  So the file lists
    the move as `{"move": w, "swap": r}` instead of a strategy of its own.

    Built depth first (a move's carrier is known once its subtree is), then
    numbered breadth first from the root like `produce`'s nodes: a game where
    no swap applies gives `produce`'s bytes.

    A line ended by a pairing claims, for the carrier, every cell open where
    it ends: White's answers there are wherever Black's moves lead."""
    limit = memory_limit() if max_bytes is None else max_bytes
    depth = rules.depth
    n = len(rules.cells)
    perms = tuple(tuple(p) for p in symmetries)
    inverses = [tuple(sorted(range(n), key=perm.__getitem__)) for perm in perms]
    mover_is_strategist = strategist(claim)
    positions: list[Position] = []
    moves: list[tuple[Edge, ...]] = []
    carrier: list[int] = []
    ended: set[int] = set()
    pairings: dict[int, Pairing] = {}
    ids: dict[Position, int] = {}
    used = 0
    progress = Progress("certificate")

    def node_of(position: Position) -> tuple[int, int | None, bool]:
        """The node holding the position (or its canonical image), the symmetry used, and whether it is new."""
        nonlocal used
        key, which = position, None
        if perms and position.ply:
            best = position.black << n | position.white
            for j, perm in enumerate(perms):
                b, w = image(position.black, perm), image(position.white, perm)
                if b << n | w < best:
                    best, key, which = b << n | w, Position(b, w, position.ply), j
        found = ids.get(key)
        if found is not None:
            return found, which, False
        found = ids[key] = len(positions)
        positions.append(key)
        moves.append(())
        carrier.append(0)
        used += NODE_BYTES
        if used > limit:
            raise MemoryBudgetExceeded(f"the certificate's {len(positions):,} nodes and counting", used, limit)
        if not found & 0xFFF:
            progress(f"{found:,} nodes, ply {position.ply}")
        return found, which, True

    def expand(k: int) -> None:
        nonlocal used
        position = positions[k]
        if k and black_cannot_win is not None and black_cannot_win(position):
            ended.add(k)
            return
        if position.ply >= depth:  # a depth of 0: no moves at the root
            return
        occupied = position.black | position.white
        pairs = None if pairing is None else pairing(position)
        if pairs is not None:
            pairings[k] = pairs
            carrier[k] = ~occupied & ((1 << n) - 1)
            return
        plays = rules.plays(position)
        strategist_moves = rules.to_move(position.ply) == mover_is_strategist
        if plays and strategist_moves:
            chosen = choose(position, plays)
            if chosen is None:
                raise StrategyNotFound(f"no move for {mover_is_strategist.capitalize()} keeps the claim {claim} at ply {position.ply} in\n"
                                       + rules.render(position))
            plays = [chosen]
        edges: list[Edge] = []
        answered: list[tuple[str, int]] = []  # the other side's moves with a strategy of their own, and its carrier
        union = 0
        for play in plays:
            after = play.after
            cell = (after.black | after.white) ^ occupied
            if not strategist_moves and (dead is None or dead(position, cell)):
                sibling = next((text for text, claimed in answered if not claimed & cell), None)
                if sibling is not None:
                    edges.append(Edge(play.text, None, None, sibling))
                    continue
            if after.ply >= depth or rules.won(after, play.side):
                edges.append(Edge(play.text, None))
                claimed = 0
            else:
                target, which, new = node_of(after)
                if new:
                    expand(target)
                claimed = carrier[target] if which is None else image(carrier[target], inverses[which])
                edges.append(Edge(play.text, target, which))
            if strategist_moves:
                claimed |= cell
            else:
                answered.append((play.text, claimed))
            union |= claimed
        used += EDGE_BYTES * len(edges)
        moves[k] = tuple(edges)
        carrier[k] = union

    node_of(rules.initial)
    expand(0)
    # breadth first from the root, the edges in their order: `produce`'s numbering
    order = [0]
    number = {0: 0}
    for k in order:
        for edge in moves[k]:
            if edge.to is not None and edge.to not in number:
                number[edge.to] = len(order)
                order.append(edge.to)
    renumbered = [tuple(Edge(e.move, None if e.to is None else number[e.to], e.symmetry, e.swap) for e in moves[k]) for k in order]
    kept = [positions[k] for k in order]
    return Certificate(rules.language, tuple(files), tuple(sha256), depth, claim, tuple(c.name for c in rules.cells),
                       [p.ply for p in kept], kept, renumbered, perms, produced_by, frozenset(number[k] for k in ended),
                       {number[k]: pairs for k, pairs in pairings.items()})
