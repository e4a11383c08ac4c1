"""The one minimax core (`bddl.engines.minimax.Minimax`) and df-pn on it, against
the rules read word for word, on abstract games.

An abstract game is a small graph of nodes with arbitrary successors per
side (cycles included) and arbitrary goals: with alternating turns the same
board is met again with other plies left, which the suite's games rarely do
and the monotone table must get right.  One engine answers every (side to
move, node, plies left) question in a random order, so its table carries
answers from one depth to another both ways.  The variants cover every
switch and hook the engines take: `movers` (turn patterns), `stuck_black_loses`
(the positional rule), a `knowledge` function, a `judge`, and df-pn's own
table.  Under a turn pattern the board names the plies left as well (node
i with r plies left is board i + r n), as a positional game's stones name
its time point: the table's monotonicity holds only for alternating turns
or such boards (`Minimax` says why)."""

from __future__ import annotations

from dataclasses import dataclass

from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from bddl.engines.minimax import Minimax, SideMoves
from bddl.engines.pns import ProofNumberSearch, mobility_numbers

MAX_PLIES = 8


@dataclass(frozen=True)
class AbstractGame:
    successors: dict[bool, tuple[tuple[int, ...], ...]]  # side (Black: True) -> board -> distinct successors
    goals: dict[bool, frozenset[int]]  # side -> the boards where its goal holds
    movers: tuple[bool, ...] | None  # movers[r]: does Black move with r plies left (None: alternate)
    stuck_black_loses: bool

    @property
    def nodes(self) -> int:
        return len(self.successors[True])

    def board(self, node: int, r: int) -> int:
        """The board of a node with r plies left: the node, or under a turn pattern node + r n."""
        return node if self.movers is None else node + r * self.nodes

    def sides(self) -> tuple[SideMoves, SideMoves]:
        n = self.nodes

        def side(black: bool) -> SideMoves:
            def successors(b: int, w: int) -> list[tuple[int, int]]:
                layer, node = divmod(b, n)  # (layer 0 without a turn pattern: children stay there)
                return [(c + max(layer - 1, 0) * n, 0) for c in self.successors[black][node]]

            return SideMoves(successors, lambda b, w: b % n in self.goals[black], lambda b, w: len(self.successors[black][b % n]))

        return side(True), side(False)

    def black_wins(self, black_to_move: bool, b: int, r: int) -> bool:
        """The rules, word for word: no table, no order, no knowledge."""
        if r < 1:
            return False
        children = self.successors[black_to_move][b]
        if not children:
            return not black_to_move and not self.stuck_black_loses
        if any(c in self.goals[black_to_move] for c in children):
            return black_to_move
        if r == 1:
            return False
        child = not black_to_move if self.movers is None else self.movers[r - 1]
        values = [self.black_wins(child, c, r - 1) for c in children]
        return any(values) if black_to_move else all(values)

    def one_ply(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        """A judge: what one ply decides (stuck, or a goal reached at once)."""
        children = self.successors[black_to_move][b % self.nodes]
        if not children:
            return not black_to_move and not self.stuck_black_loses
        if any(c in self.goals[black_to_move] for c in children):
            return black_to_move
        return None


@st.composite
def abstract_games(draw) -> AbstractGame:
    n = draw(st.integers(2, 7))
    boards = st.integers(0, n - 1)
    successors = {
        side: tuple(tuple(sorted(draw(st.sets(boards, max_size=3)))) for _ in range(n)) for side in (True, False)
    }
    goals = {side: frozenset(draw(st.sets(boards, max_size=2))) for side in (True, False)}
    movers = draw(st.none() | st.tuples(*[st.booleans()] * (MAX_PLIES + 1)))
    return AbstractGame(successors, goals, movers, draw(st.booleans()))


VARIANTS = ("minimax", "minimax with knowledge", "minimax with a judge", "df-pn", "df-pn, no leaf minimax, tiny table", "df-pn+")


def _engine(game: AbstractGame, variant: str, known: set[tuple[bool, int, int]]):
    black, white = game.sides()
    switches = {"movers": game.movers, "stuck_black_loses": game.stuck_black_loses}

    def knowledge(black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        node = b % game.nodes
        return game.black_wins(black_to_move, node, r) if (black_to_move, node, r) in known else None

    if variant == "minimax":
        return Minimax(black, white, **switches)
    if variant == "minimax with knowledge":
        return Minimax(black, white, knowledge=knowledge, **switches)
    if variant == "minimax with a judge":
        return Minimax(black, white, judge=game.one_ply, **switches)
    if variant == "df-pn":
        return ProofNumberSearch(black, white, knowledge=knowledge, **switches)
    if variant == "df-pn, no leaf minimax, tiny table":
        return ProofNumberSearch(black, white, leaf_plies=0, capacity=16, **switches)
    return ProofNumberSearch(black, white, initial=mobility_numbers(black, white), leaf_plies=2, **switches)


@settings(max_examples=scaled(300))
@given(abstract_games(), st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_every_engine_answers_what_the_rules_say_at_every_depth(game, variant, rng):
    questions = [(black_to_move, node, r) for black_to_move in (True, False) for node in range(game.nodes) for r in range(MAX_PLIES + 1)]
    rng.shuffle(questions)
    known = set(rng.sample(questions, len(questions) // 4))
    engine = _engine(game, variant, known)
    for black_to_move, node, r in questions:
        expected = game.black_wins(black_to_move, node, r)
        b = game.board(node, r)
        assert engine.black_wins(black_to_move, b, 0, r) == expected, (black_to_move, node, r)
        assert engine.known(black_to_move, b, 0, r) in (None, expected)


def test_the_monotone_table_carries_answers_across_depths():
    """A board met again with more plies left is not re-expanded once its win
    is known, nor with fewer once its loss is: the table's monotonicity."""
    game = AbstractGame({True: ((1,), (1,)), False: ((0,), (0,))}, {True: frozenset(), False: frozenset()}, None, False)
    engine = Minimax(*game.sides())
    assert engine.black_wins(True, 0, 0, 6) is False
    spent = engine.positions
    assert engine.black_wins(True, 0, 0, 4) is False and engine.positions == spent
    assert engine.known(True, 0, 0, 7) is None
