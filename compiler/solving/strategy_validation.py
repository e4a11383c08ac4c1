"""Strategy validation: play Black's strategy against every White reply, with the engine as referee.

This is the check the BDDL paper did by hand (§5.1), made exhaustive: from
the initial position, Black plays what the strategy says and White plays
every legal reply in turn, depth first.  A line of play passes when Black
reaches its goal, or White has no legal move, within the depth.  It fails
when the strategy gives no move or an illegal one, Black has no legal move,
White reaches its goal, or the plies run out first; the first failing line
is reported in full.  The referee is `bddl.game`, which shares no code with
the QBF encodings, so a passing validation is independent evidence that the
solver's answers describe a real winning strategy.

White moves that lead to the same position are one line (an action that
ignores ?y reaches the same board from every row).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import NoReturn

from bddl.game import BLACK, WHITE, Game, Move, State

from bddl.notation import describe_move
from .strategy import Strategy, StrategyUnknown


@dataclass(frozen=True)
class Ply:
    side: str
    text: str  # the move as `notation` names it
    state: State  # the position after it


@dataclass(frozen=True)
class FailedLine:
    plies: tuple[Ply, ...]
    reason: str
    state: State  # the position where it went wrong


@dataclass(frozen=True)
class ValidationReport:
    lines: int  # complete lines of play checked (all passed)
    complete: bool  # every line was checked (no --max-lines cut, no unknown)
    failure: FailedLine | None = None
    unknown: str | None = None  # why the strategy could not go on (a time limit), if it could not

    @property
    def passed(self) -> bool:
        return self.failure is None and self.unknown is None


class _Stop(Exception):
    pass


class _Validator:
    def __init__(self, game: Game, strategy: Strategy, max_lines: int | None):
        self.game = game
        self.strategy = strategy
        self.max_lines = max_lines
        self.lines = 0
        self.line: list[Ply] = []
        self.failure: FailedLine | None = None
        self.unknown: str | None = None
        self.full = False  # max_lines lines have passed
        self.cut = False  # ... and there was more to check

    def fail(self, state: State, reason: str) -> NoReturn:
        self.failure = FailedLine(tuple(self.line), reason, state)
        raise _Stop

    def passed(self) -> None:
        self.lines += 1
        if self.max_lines is not None and self.lines >= self.max_lines:
            self.full = True

    def black(self, state: State, plies: int) -> None:
        game = self.game
        legal = game.moves(state, BLACK)
        if not legal:
            self.fail(state, "Black has no legal move")
        try:
            move = self.strategy(state, plies)
        except StrategyUnknown as exc:
            self.unknown = str(exc)
            raise _Stop from None
        if move is None:
            self.fail(state, f"the strategy has no winning move here ({plies} plies left)")
        if not any(_same(move, m) for m in legal):
            self.fail(state, f"the strategy's move '{move.action} {move.x} {move.y}' is not legal here")
        self.line.append(Ply(BLACK, describe_move(game, state, move), move.state))
        try:
            if game.won(move.state, BLACK):
                self.passed()
            elif plies == 1:
                self.fail(move.state, "the plies ran out before Black reached its goal")
            else:
                self.white(move.state, plies - 1)
        finally:
            self.line.pop()

    def white(self, state: State, plies: int) -> None:
        game = self.game
        replies = []
        seen = set()
        for move in game.moves(state, WHITE):
            if move.state not in seen:
                seen.add(move.state)
                replies.append(move)
        if not replies:
            self.passed()  # White cannot move: Black wins
            return
        for move in replies:
            if self.full:
                self.cut = True
                raise _Stop
            self.line.append(Ply(WHITE, describe_move(game, state, move), move.state))
            try:
                if game.won(move.state, WHITE):
                    self.fail(move.state, "White reached its goal")
                if plies == 1:
                    self.fail(move.state, "the plies ran out before Black reached its goal")
                self.black(move.state, plies - 1)
            finally:
                self.line.pop()


def _same(a: Move, b: Move) -> bool:
    return (a.action_index, a.x, a.y, a.state) == (b.action_index, b.x, b.y, b.state)


def validate(game: Game, depth: int, strategy: Strategy, max_lines: int | None = None) -> ValidationReport:
    """Check `strategy` for Black against every White reply, up to `max_lines` lines of play."""
    checker = _Validator(game, strategy, max_lines)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8 * depth + 1000))
    try:
        if game.black_first:
            checker.black(game.initial, depth)
        else:
            checker.white(game.initial, depth)
    except _Stop:
        pass
    finally:
        sys.setrecursionlimit(limit)
    complete = checker.failure is None and checker.unknown is None and not checker.cut
    return ValidationReport(checker.lines, complete, checker.failure, checker.unknown)


def format_line(game: Game, initial: State, failure: FailedLine) -> str:
    """A failing line of play, move by move, with the board where it went wrong."""
    lines = ["initial position:", game.render(initial)]
    for number, ply in enumerate(failure.plies, 1):
        lines.append(f"{number}. {ply.side} {ply.text}")
    lines.append(f"failure: {failure.reason}")
    lines.append(game.render(failure.state))
    return "\n".join(lines)
