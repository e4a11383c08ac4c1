"""What the implicit-state encodings (EA, EN, ET, LA, LN, SA, SN) read: a
Maker-Breaker game reduced for one depth, with its open cells numbered
0..eta-1 in the game's order (Shaik, Mayer-Eichberger, van de Pol and
Saffidine, "Implicit state and goals in QBF encodings for positional games").

The paper assumes an empty board and Black moving first and last; the
preprocessing of its section 4.1 (bddl.pg.prune) gets there from any
position: stones are contracted away and cells Black cannot use go to White.
Plies after Black's last one change nothing in a Maker-Breaker game and are
dropped.  A game decided before any move (Black has already joined, or can
never win) is `decided`, and its formula is a constant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bddl.pg.game import BLACK, BorderGraph, PositionalGame
from bddl.pg.hex import white_borders
from bddl.pg.prune import as_set_game, at_depth, black_connected, prune_graph, prune_sets, transversal
from circuits import Circuit, Qdimacs, to_qdimacs


class NotMakerBreaker(ValueError):
    """The game is not one these encodings cover."""


@dataclass(frozen=True)
class Reduced:
    """The reduced game: `board.cells` are the open cells (the encodings'
    numbering), its graph (chain goals), or its sets (explicit goals)."""

    original: PositionalGame
    depth: int
    board: PositionalGame  # no stones; turns end with Black's last ply
    decided: bool | None = None  # the answer when no move matters

    @property
    def size(self) -> int:
        return len(self.board.cells)

    @property
    def graph(self) -> BorderGraph:
        """The board's neighbours and borders (chain and transversal goals only)."""
        if self.board.graph is None:
            raise NotMakerBreaker("this encoding needs a graph with two borders (#neighbours)")
        return self.board.graph

    @property
    def turns(self) -> tuple[str, ...]:
        return self.board.turns

    @property
    def black_moves(self) -> int:
        return self.board.turns.count(BLACK)


def _checked(game: PositionalGame, depth: int | None) -> tuple[PositionalGame, int, int]:
    """The game cut to `depth`, the depth, and the plies up to Black's last."""
    if not game.maker_breaker:
        raise NotMakerBreaker("the implicit-state encodings are for Maker-Breaker games (White has winning sets here)")
    if game.first_moves is not None:
        raise NotMakerBreaker("the implicit-state encodings do not take a #firstmoves restriction")
    depth = game.depth if depth is None else depth
    game = at_depth(game, depth)
    last = max((k for k, side in enumerate(game.turns) if side == BLACK), default=-1)
    return game, depth, last + 1


def _trimmed(board: PositionalGame, plies: int) -> PositionalGame:
    from dataclasses import replace

    return replace(board, times=board.times[:plies], turns=board.turns[:plies])


def reduce_for_chains(game: PositionalGame, depth: int | None = None) -> Reduced:
    """For EN, LN and SN: the Generalised-Hex instance (Black's graph)."""
    game, depth, plies = _checked(game, depth)
    if game.graph is None:
        raise NotMakerBreaker("the neighbour-based encodings need a graph with two borders (#neighbours)")
    if black_connected(game.graph, game.black_initials):
        return Reduced(game, depth, _trimmed(game, 0), True)
    board = _trimmed(prune_graph(game), plies)
    return Reduced(game, depth, board, None if board.cells and plies else False)


def reduce_for_sets(game: PositionalGame, depth: int | None = None) -> Reduced:
    """For EA, LA and SA: explicit minimal winning sets (a Hex game's chains
    enumerated), over the open cells."""
    game, depth, plies = _checked(game, depth)
    board = as_set_game(game) if game.graph is not None else _open_cells(prune_sets(game))
    if any(not s for s in board.black_wins):
        return Reduced(game, depth, _trimmed(board, 0), True)
    if not board.black_wins or not plies:
        return Reduced(game, depth, _trimmed(board, 0), False)
    return Reduced(game, depth, _trimmed(board, plies))


def _open_cells(game: PositionalGame) -> PositionalGame:
    """The set game on its open cells only (stones, with White's new ones, taken off the board)."""
    from dataclasses import replace

    gone = game.black_initials | game.white_initials
    kept = [v for v in range(len(game.cells)) if v not in gone]
    new = {v: i for i, v in enumerate(kept)}
    return replace(
        game,
        cells=tuple(game.cells[v] for v in kept),
        black_wins=tuple(frozenset(new[v] for v in s) for s in game.black_wins),
        black_initials=frozenset(),
        white_initials=frozenset(),
        coordinates=None if game.coordinates is None else tuple(game.coordinates[v] for v in kept),
    )


def reduce_for_transversal(game: PositionalGame, depth: int | None = None) -> Reduced:
    """For ET: the transversal instance; `board.graph` has White's borders and
    Black wins iff the cells it does not own do not join them."""
    game, depth, plies = _checked(game, depth)
    if game.graph is None:
        raise NotMakerBreaker("the transversal encoding needs a graph with two borders (#neighbours)")
    try:
        white_start, white_end = white_borders(game)
    except ValueError:
        raise NotMakerBreaker(
            "the transversal encoding needs a whole Hex board (cells a1.. with Hex neighbours): White's borders come from it"
        ) from None
    if black_connected(game.graph, game.black_initials):
        return Reduced(game, depth, _trimmed(game, 0), True)
    reduced = transversal(game, white_start, white_end)
    if reduced.lost:
        return Reduced(game, depth, _trimmed(reduced.game, 0), False)
    board = _trimmed(reduced.game, plies)
    if reduced.black_wins_with(set()):
        return Reduced(game, depth, _trimmed(board, 0), True)
    if not plies or not reduced.black_wins_with(set(range(len(board.cells)))):
        return Reduced(game, depth, _trimmed(board, 0), False)  # even owning every open cell does not cut White
    return Reduced(game, depth, board)


class ImplicitEncoding:
    """A formula true iff Black wins within `depth` plies, with what is needed
    to read Black's first move from a model: a circuit (QCIR encodings) or
    clauses (QDIMACS encodings, whose circuit is built only when asked for).

    It answers `compiler.positional_solving`'s questions as COR+ does:
    `qdimacs()`, `first_side`, `first_move(value)` (a cell number) and
    `game.cells` (that number's cell in the source game)."""

    def __init__(self, name: str, reduced: Reduced, first_move_bits, circuit: Circuit | None = None, formula=None):
        self.name, self.reduced = name, reduced
        self.first_move_bits: tuple[int, ...] | None = first_move_bits  # least significant first; None: no Black first ply
        self._circuit, self.formula = circuit, formula

    @property
    def source(self) -> PositionalGame:
        return self.reduced.original

    @property
    def depth(self) -> int:
        return self.reduced.depth

    @property
    def game(self) -> _EncodedGame:
        return _EncodedGame(tuple(range(len(self.source.cells))), self.reduced.size, len(self.reduced.turns))

    @property
    def first_side(self) -> str | None:
        return self.source.turns[0] if self.source.turns else None

    @property
    def circuit(self) -> Circuit | None:
        """The circuit of a QCIR encoding; None for the clausal ones (`as_circuit` builds one)."""
        return self._circuit

    def as_circuit(self) -> Circuit:
        """The formula as a circuit, whichever kind it is (an and of ors for the clausal ones)."""
        return self._circuit if self._circuit is not None else self.formula.circuit()

    def qdimacs(self, polarity: bool = False, placement: str = "innermost") -> Qdimacs:
        """The QDIMACS: the clauses themselves, or the circuit's Tseitin (variables 1.. are the same either way)."""
        if self.formula is not None:
            return self.formula.qdimacs
        return to_qdimacs(self._circuit, polarity=polarity, placement=placement)

    def first_move(self, value: Callable[[int], bool]) -> int | None:
        """The cell (an index into the source game's cells) a model's first
        move claims.  `value` gives the model's value of a variable by its
        number in the QDIMACS or QCIR file.  A first move that names no open
        cell is a pass, and then any open cell wins too (a Black stone never
        hurts Black in a Maker-Breaker game): the first is given.  None when
        Black does not move first or the formula is a constant."""
        if self.first_move_bits is None:
            return None
        bits = self.first_move_bits
        if self.formula is None:  # circuit ids to file numbers
            from circuits import numbering

            table = numbering(self.as_circuit())
            bits = tuple(table.lit(bit) for bit in bits)
        number = sum(1 << k for k, bit in enumerate(bits) if value(bit))
        if number >= self.reduced.size:
            number = 0
        return self.source.cells.index(self.reduced.board.cells[number])


@dataclass(frozen=True)
class _EncodedGame:
    """What the .pg commands read off an encoding's game."""

    cells: tuple[int, ...]  # cells[i] = i: first_move already numbers the source game's cells
    size: int  # open cells encoded
    depth: int  # plies encoded


def bits_needed(count: int) -> int:
    """Bits of a cell number: ceil(lg count), none for a single cell."""
    return max(count - 1, 0).bit_length()


def binary(bits, number: int) -> list[int]:
    """The literals that say `bits` hold `number` (the paper's bin(X, v))."""
    return [bit if number >> k & 1 else -bit for k, bit in enumerate(bits)]


def constant(name: str, reduced: Reduced) -> ImplicitEncoding:
    """The formula of a game decided before any move."""
    from circuits import FALSE, TRUE

    c = Circuit()
    c.set_output(TRUE if reduced.decided else FALSE)
    return ImplicitEncoding(name, reduced, None, circuit=c)
