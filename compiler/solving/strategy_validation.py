"""Strategy validation: play Black's strategy against every White reply, with the game's rules as referee.

This is the check the BDDL paper did by hand (§5.1), made exhaustive: from
the initial position, Black plays what the strategy says and White plays
every legal reply in turn, depth first.  A line of play passes when Black
reaches its goal, or the side to move has no legal move and the rules give
Black the game (BDDL: White stuck), within the depth.  It fails when the
strategy gives no move or an illegal one, the side to move is stuck and
Black has not won, White reaches its goal, or the plies run out first; the
first failing line is reported in full.  The referee is `bddl.rules`
(the BDDL engine or the `.pg` semantics), which shares no code with the QBF
encodings, so a passing validation is independent evidence that the
solver's answers describe a real winning strategy.  One validator serves
both languages.

White moves that lead to the same position are one line (an action that
ignores ?y reaches the same board from every row): the rules list one move
per position after it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import NoReturn

from bddl.rules import BLACK, WHITE, GameRules, Position

from .strategy import Strategy, StrategyUnknown


@dataclass(frozen=True)
class Ply:
    side: str
    text: str  # the move as the game's notation writes it
    position: Position  # the position after it


@dataclass(frozen=True)
class FailedLine:
    plies: tuple[Ply, ...]
    reason: str
    position: Position  # the position where it went wrong


@dataclass(frozen=True)
class ValidationReport:
    lines: int  # complete lines of play checked (all passed)
    complete: bool  # every line was checked (no --max-lines cut, no unknown)
    failure: FailedLine | None = None
    unknown: str | None = None  # why the strategy could not go on (a time limit), if it could not
    cut: bool = False  # stopped by max_lines with more lines to check

    @property
    def valid(self) -> bool:
        """Every line checked held: the name `bddlc validate --json` gives it."""
        return self.failure is None and self.unknown is None

    @property
    def passed(self) -> bool:
        """The former name of `valid`, kept for scripts that use it."""
        return self.valid


class _Stop(Exception):
    pass


class _Validator:
    def __init__(self, rules: GameRules, strategy: Strategy, max_lines: int | None):
        self.rules = rules
        self.strategy = strategy
        self.max_lines = max_lines
        self.lines = 0
        self.line: list[Ply] = []
        self.failure: FailedLine | None = None
        self.unknown: str | None = None
        self.full = False  # max_lines lines have passed
        self.cut = False  # ... and there was more to check

    def fail(self, position: Position, reason: str) -> NoReturn:
        self.failure = FailedLine(tuple(self.line), reason, position)
        raise _Stop

    def passed(self) -> None:
        self.lines += 1
        if self.max_lines is not None and self.lines >= self.max_lines:
            self.full = True

    def turn(self, position: Position) -> None:
        rules = self.rules
        if position.ply >= rules.depth:
            self.fail(position, "the plies ran out before Black reached its goal")
        side = rules.to_move(position.ply)
        plays = rules.plays(position)
        if not plays:
            if rules.stuck_winner(side) == BLACK:
                self.passed()  # White cannot move: Black wins (BDDL)
                return
            self.fail(position, "Black has no legal move" if side == BLACK else "White has no legal move and Black has not won")
        if side == BLACK:
            self.black(position, plays)
        else:
            self.white(plays)

    def black(self, position: Position, plays) -> None:
        plies = self.rules.depth - position.ply
        try:
            move = self.strategy(position, plies)
        except StrategyUnknown as exc:
            self.unknown = str(exc)
            raise _Stop from None
        if move is None:
            self.fail(position, f"the strategy has no winning move here ({plies} plies left)")
        if not any(p.after == move.after and p.move == move.move for p in plays):
            self.fail(position, f"the strategy's move '{move.text}' is not legal here")
        self.line.append(Ply(BLACK, move.text, move.after))
        try:
            if self.rules.won(move.after, BLACK):
                self.passed()
            else:
                self.turn(move.after)
        finally:
            self.line.pop()

    def white(self, plays) -> None:
        for play in plays:
            if self.full:
                self.cut = True
                raise _Stop
            self.line.append(Ply(WHITE, play.text, play.after))
            try:
                if self.rules.won(play.after, WHITE):
                    self.fail(play.after, "White reached its goal")
                self.turn(play.after)
            finally:
                self.line.pop()


def validate(rules: GameRules, strategy: Strategy, max_lines: int | None = None) -> ValidationReport:
    """Check `strategy` for Black against every White reply, up to `max_lines` lines of play."""
    checker = _Validator(rules, strategy, max_lines)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8 * rules.depth + 1000))
    try:
        before = rules.winner_before_play()
        if before == BLACK:
            checker.passed()
        elif before == WHITE:
            checker.fail(rules.initial, "White has won before the first move")
        else:
            checker.turn(rules.initial)
    except _Stop:
        pass
    finally:
        sys.setrecursionlimit(limit)
    complete = checker.failure is None and checker.unknown is None and not checker.cut
    return ValidationReport(checker.lines, complete, checker.failure, checker.unknown, checker.cut)


def format_line(rules: GameRules, failure: FailedLine) -> str:
    """A failing line of play, move by move, with the board where it went wrong."""
    lines = ["initial position:", rules.render(rules.initial)]
    for number, ply in enumerate(failure.plies, 1):
        lines.append(f"{number}. {ply.side} {ply.text}")
    lines.append(f"failure: {failure.reason}")
    lines.append(rules.render(failure.position))
    return "\n".join(lines)
