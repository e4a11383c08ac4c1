"""Building a certificate: the strategist's strategy, every reply of the other side covered.

A certificate (format versions 1 to 4, docs/certificates.md) proves "Black wins within d
plies" by Black's strategy, or "Black does not" by White's.  It is built
from the initial position over the rules alone (`bddl.rules.GameRules`), so
one builder serves both languages: where the strategist moves, a `Chooser`
names its move; where the other side moves, every legal move is followed, except the
replies the strategist answers with a win at once (`bddl.at_once.answer_at_once`),
which a node may leave out (format version 4: the checker finds each answer
again).
Breadth first, or depth first where swap edges need each move's carrier
before its later siblings; the nodes are numbered breadth first either way.
Positions met again (transpositions) are stored once, keyed by (position,
ply); with board symmetries, by the smallest image of the position, and the
edge says which permutation maps the position reached onto the node's.

Which move the strategist makes is the chooser's business (an engine's
oracle, `choose_by_oracle`, or a QBF solver's strategy); whether the result
proves anything is the independent checker's (`compiler.certificates.check`),
never this module's: a wrong chooser makes a certificate the checker refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from bddl.at_once import answer_at_once, wins_at_once
from bddl.budget import MemoryBudgetExceeded, Progress, memory_limit
from bddl.pg.pairing import Pairing
from bddl.rules import BLACK, WHITE, GameRules, Play, Position

FORMAT = "bddlc-certificate"
VERSION = 1  # a file without swap edges; one with them is version 2 (`SWAP_VERSION`)
SWAP_VERSION = 2
PAIRING_VERSION = 3  # lines ended by a pairing strategy of White's (`Certificate.pairings`)
AT_ONCE_VERSION = 4  # nodes that leave out the replies answered by a win at once (`Certificate.answered_at_once`)
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
    # nodes of the other side that list only the replies not answered by a win at once (`answer_at_once`)
    answered_at_once: frozenset[int] = frozenset()
    left_out: int = 0  # the replies those nodes leave out, for the report (the file does not list them)

    @property
    def size(self) -> int:
        return len(self.plies)

    @property
    def version(self) -> int:
        """The format version the file needs: 4 with replies left out as answered at once,
        3 with pairings, 2 with swap edges, 1 otherwise, so that every certificate an older
        checker could read keeps its older version."""
        if self.answered_at_once:
            return AT_ONCE_VERSION
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
        if sure is not None:
            # the first sure move in the order of preference (stable: the rules' order among
            # equals), asked move by move: `sure` is the costlier question
            ordered = plays if preference is None else sorted(plays, key=preference)
            certain = next((p for p in ordered if sure(p)), None)
            if certain is not None:
                return certain
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
    at_once: bool = True,
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
    sibling's strategy, become swap edges; the strategy is then built depth
    first, for a move's carrier is known only once its lines are (`_Builder`).
    `pairing` (for "no-black-win"): White's pairing strategy from a position,
    where it has one; the lines end there too, the pairs written in the node
    (format version 3; the checker verifies the pairing).
    `at_once`: a node of the other side leaves out the replies that the strategist
    answers with a win at once (`bddl.at_once.answer_at_once`; format version 4):
    those lines would end one move later, and on a game won by threats they are most
    of the nodes (the checker finds each answer again)."""
    if claim not in CLAIMS:
        raise ValueError(f"a claim is one of {', '.join(CLAIMS)}, not {claim!r}")
    if claim != NO_BLACK_WIN:
        black_cannot_win = pairing = None
    before = rules.winner_before_play()
    depth_first = carriers and dead is not None and before is None
    builder = _Builder(rules, claim, choose, tuple(tuple(p) for p in symmetries),
                       memory_limit() if max_bytes is None else max_bytes,
                       black_cannot_win, pairing, dead, depth_first=depth_first, at_once=at_once)
    builder.node_of(rules.initial)
    if before is None:
        builder.build()
    elif (before == BLACK) != (claim == BLACK_WINS):
        raise StrategyNotFound(f"{before.capitalize()} has won before the first move: the claim {claim} is false")
    return builder.certificate(tuple(files), tuple(sha256), produced_by)


class _Builder:
    """The strategy's nodes as they are built: one node table, one memory account, one step
    that names a node's moves, whichever order the nodes are built in.

    Breadth first, a node's id is its place in that order, which is the
    file's.  Depth first (`depth_first`, for swap edges: the other side's moves
    on cells `dead` says are dead for it), each new node is built as soon as a
    move reaches it, so that the carrier of the strategy below it (every cell
    the strategist claims in it, along every line) is known before the later
    moves of its parent are looked at; the nodes are numbered breadth first at
    the end, so a game where no swap applies gives the breadth-first bytes.

    The swap: say the strategist's strategy T answers the other side's move m,
    and m' is a cell outside T's carrier that is *dead* for the mover (`dead`:
    no goal of the mover through it can be completed with the moves it has
    left; with no winning sets, every cell is dead for White).  Then T answers
    m' too, played as if the mover's stone were on m (a claim of m later stands
    for one of m'): the two boards differ on that pair only and T never claims
    either; the strategist's stones are the same on both, so its goals come as
    soon; and the mover's goals in the real game never use m', so each is
    owned in the imagined game as soon as in the real one.  "black-wins" swaps
    White's replies (`bddl.engines.minimax.Minimax.use_carriers` is the same
    argument in the search), "no-black-win" Black's moves.  The checker
    verifies each swap by recomputing the carriers and the count that makes m'
    dead from the file.  A line ended by a pairing claims, for the carrier,
    every cell open where it ends: White's answers there are wherever Black's
    moves lead."""

    def __init__(self, rules: GameRules, claim: str, choose: Chooser, perms: tuple[Permutation, ...], limit: int,
                 black_cannot_win: Callable[[Position], bool] | None, pairing: PairingOf | None,
                 dead: Callable[[Position, int], bool] | None, *, depth_first: bool, at_once: bool = True):
        self.rules, self.claim, self.choose, self.perms, self.limit = rules, claim, choose, perms, limit
        self.black_cannot_win, self.pairing = black_cannot_win, pairing
        self.depth_first = depth_first
        self.at_once = at_once
        self.dead = dead if depth_first else None  # swaps need the carriers, known depth first only
        self.depth = rules.depth
        self.mover = strategist(claim)
        self.n = len(rules.cells)
        self.inverses = [tuple(sorted(range(self.n), key=perm.__getitem__)) for perm in perms]
        self.positions: list[Position] = []
        self.moves: list[tuple[Edge, ...]] = []
        self.carriers: list[int] | None = [] if depth_first else None  # per node id, depth first
        self.ids: dict[Position, int] = {}
        self.ended: set[int] = set()
        self.answered_at_once: set[int] = set()  # nodes that leave out replies answered by a win at once
        self.replies_left_out = 0
        self.pairings: dict[int, Pairing] = {}
        self.used = 0
        self.expanded = 0
        self.progress = Progress("certificate")

    def node_of(self, position: Position) -> tuple[int, int | None, bool]:
        """The node holding the position (or, past the root, its smallest image under the
        symmetries), the symmetry used, and whether the node is new."""
        key, which = position, None
        if self.perms and position.ply:
            n = self.n
            best = position.black << n | position.white
            for j, perm in enumerate(self.perms):
                b, w = image(position.black, perm), image(position.white, perm)
                if b << n | w < best:
                    best, key, which = b << n | w, Position(b, w, position.ply), j
        found = self.ids.get(key)
        if found is not None:
            return found, which, False
        found = self.ids[key] = len(self.positions)
        self.positions.append(key)
        self.moves.append(())
        if self.carriers is not None:
            self.carriers.append(0)
        self.used += NODE_BYTES
        if self.used > self.limit:
            raise MemoryBudgetExceeded(f"the certificate's {len(self.positions):,} nodes and counting", self.used, self.limit)
        return found, which, True

    def build(self) -> None:
        """Every node below the root: depth first, the root's expansion reaches them all."""
        if self.depth_first:
            self.expand(0)
            return
        k = 0
        while k < len(self.positions):  # breadth first: ids grow with the ply
            self.expand(k)
            k += 1

    def expand(self, k: int) -> None:
        """Node k's edges; depth first, with every new node below it and the carrier of the whole.
        The other side's dead moves outside an earlier sibling's carrier become swap edges."""
        if not self.expanded & 0xFFF:
            self.progress(f"{self.expanded:,} of {len(self.positions):,} nodes expanded, ply {self.positions[k].ply}")
        self.expanded += 1
        position = self.positions[k]
        plays, strategist_moves = self.plays(k, position)
        if plays is None:
            return
        occupied = position.black | position.white
        edges: list[Edge] = []
        answered: list[tuple[str, int]] = []  # the other side's moves with a strategy of their own, and its carrier
        union = 0
        for play in plays:
            cell = (play.after.black | play.after.white) ^ occupied
            if not strategist_moves and self.at_once and (answer := answer_at_once(self.rules, play, self.mover)) is not None:
                self.answered_at_once.add(k)  # left out: the strategist's answer wins at once, and claims its cell
                self.replies_left_out += 1
                union |= (answer.after.black | answer.after.white) ^ (play.after.black | play.after.white)
                continue
            sibling = None if strategist_moves else self.swap(position, cell, answered)
            if sibling is not None:
                edges.append(Edge(play.text, None, None, sibling))
                continue
            edge = self.edge(play)
            edges.append(edge)
            claimed = self.carrier(edge) | (cell if strategist_moves else 0)
            if not strategist_moves:
                answered.append((play.text, claimed))
            union |= claimed
        self.used += EDGE_BYTES * len(edges)
        self.moves[k] = tuple(edges)
        if self.carriers is not None:
            self.carriers[k] = union

    def plays(self, k: int, position: Position) -> tuple[list[Play] | None, bool]:
        """The moves node k lists, the chooser's one where the strategist moves, and whether it
        does; None where the line ends at the node (Black's goal out of reach, no plies
        left, White's pairing)."""
        if k and self.black_cannot_win is not None and self.black_cannot_win(position):
            self.ended.add(k)
            return None, False
        if position.ply >= self.depth:
            return None, False
        if self.pairing is not None and (pairs := self.pairing(position)) is not None:
            self.pairings[k] = pairs
            if self.carriers is not None:
                self.carriers[k] = ~(position.black | position.white) & ((1 << self.n) - 1)
            return None, False
        plays = self.rules.plays(position)
        strategist_moves = self.rules.to_move(position.ply) == self.mover
        if plays and strategist_moves:
            chosen = self.choose(position, plays)
            if chosen is None:
                raise StrategyNotFound(f"no move for {self.mover.capitalize()} keeps the claim {self.claim} at ply {position.ply} in\n"
                                       + self.rules.render(position))
            plays = [chosen]
        return plays, strategist_moves

    def swap(self, position: Position, cell: int, answered: list[tuple[str, int]]) -> str | None:
        """The earlier sibling whose strategy answers the other side's move to `cell` too, if any."""
        if self.dead is None or not self.dead(position, cell):
            return None
        return next((text for text, claimed in answered if not claimed & cell), None)

    def edge(self, play: Play) -> Edge:
        after = play.after
        if after.ply >= self.depth or self.rules.won(after, play.side):
            return Edge(play.text, None)
        target, which, new = self.node_of(after)
        if new and self.depth_first:
            self.expand(target)
        return Edge(play.text, target, which)

    def carrier(self, edge: Edge) -> int:
        """The cells the strategist claims below the edge, seen from the edge's own position (0 breadth first)."""
        if self.carriers is None or edge.to is None:
            return 0
        claimed = self.carriers[edge.to]
        return claimed if edge.symmetry is None else image(claimed, self.inverses[edge.symmetry])

    def certificate(self, files: tuple[str, ...], sha256: tuple[str, ...], produced_by: str | None) -> Certificate:
        if self.depth_first:
            self.renumber()
        rules, positions = self.rules, self.positions
        return Certificate(rules.language, files, sha256, self.depth, self.claim, tuple(c.name for c in rules.cells),
                           [p.ply for p in positions], positions, self.moves, self.perms, produced_by, frozenset(self.ended),
                           self.pairings, frozenset(self.answered_at_once), self.replies_left_out)

    def renumber(self) -> None:
        """Number the nodes built depth first breadth first from the root, the edges in their
        order: the ids breadth first building gives, which the file's format asks."""
        order = [0]
        number = {0: 0}
        for k in order:
            for edge in self.moves[k]:
                if edge.to is not None and edge.to not in number:
                    number[edge.to] = len(order)
                    order.append(edge.to)
        self.moves = [tuple(Edge(e.move, None if e.to is None else number[e.to], e.symmetry, e.swap) for e in self.moves[k])
                      for k in order]
        self.positions = [self.positions[k] for k in order]
        self.ended = {number[k] for k in self.ended}
        self.answered_at_once = {number[k] for k in self.answered_at_once}
        self.pairings = {number[k]: pairs for k, pairs in self.pairings.items()}
