"""Moves as people read and type them: `occupy 3 2`.

A move is named by its action and position.  When a negated effect lets one
action at one position end in several ways, the name alone is ambiguous, so
the listed text adds the cells that differ ("paint 1 1 (1,1) becomes white")
and the user can type that text or the move's number in the list.  Every
parse answers with one of the engine's legal moves or a message that says
what to type instead; it never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game, Move, State
from .suggest import did_you_mean


class MoveInputError(ValueError):
    """Text that names no legal move; the message says what is wrong and what to type."""


@dataclass(frozen=True)
class NamedMove:
    text: str
    move: Move


def move_name(move: Move) -> str:
    return f"{move.action} {move.x} {move.y}"


def legal_moves(game: Game, state: State, side: str) -> list[NamedMove]:
    """The side's legal moves in `state`, one per distinct resulting position,
    each with a text that names it unambiguously."""
    distinct: list[Move] = []
    seen = set()
    for move in game.moves(state, side):
        if move.state not in seen:
            seen.add(move.state)
            distinct.append(move)
    groups: dict[str, list[Move]] = {}
    for move in distinct:
        groups.setdefault(move_name(move), []).append(move)
    named = []
    for move in distinct:
        group = groups[move_name(move)]
        text = move_name(move)
        if len(group) > 1:
            text += " " + ", ".join(_differences(game, move, group))
        named.append(NamedMove(text, move))
    return named


def _differences(game: Game, move: Move, group: list[Move]) -> list[str]:
    """The cells where this outcome differs from another outcome of the same move."""
    g = game.geometry
    cells = []
    for y in range(1, g.height + 1):
        for x in range(1, g.width + 1):
            values = {m.state.value(g, x, y) for m in group}
            if len(values) > 1:
                cells.append(f"({x},{y}) becomes {move.state.value(g, x, y)}")
    return cells


def describe_move(game: Game, state: State, move: Move) -> str:
    """The listed text of `move` played in `state` (its name, disambiguated if needed)."""
    for named in legal_moves(game, state, move.side):
        if named.move.state == move.state and move_name(named.move) == move_name(move):
            return named.text
    return move_name(move)


def parse_move(game: Game, state: State, side: str, text: str) -> Move:
    """The legal move of `side` that `text` names: a number from the list,
    the listed text, or ACTION X Y.  Raises MoveInputError otherwise."""
    options = legal_moves(game, state, side)
    words = text.split()
    who = side.capitalize()
    if not words:
        raise MoveInputError(f"type a move as ACTION X Y (e.g. '{options[0].text}') or its number in the list" if options else "no move to type")
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if 1 <= number <= len(options):
            return options[number - 1].move
        raise MoveInputError(f"there is no move number {number}; the list goes from 1 to {len(options)}")
    normal = " ".join(words).lower()
    for named in options:
        if " ".join(named.text.split()).lower() == normal:
            return named.move
    actions = [a.name for a in game.rules(side).actions]
    if len(words) != 3:
        raise MoveInputError(f"a move is ACTION X Y, e.g. '{options[0].text}', or its number in the list" if options else "a move is ACTION X Y")
    name, x_text, y_text = words
    matches = [a for a in actions if a.lower() == name.lower()]
    if not matches:
        raise MoveInputError(f"{who} has no action named '{name}'{did_you_mean(name, actions)}; {who}'s actions: {', '.join(actions)}")
    try:
        x, y = int(x_text), int(y_text)
    except ValueError:
        raise MoveInputError(f"the position must be two whole numbers X Y, got '{x_text} {y_text}'") from None
    # every legal move counts here, also one whose board the list shows under another name
    fits: dict = {}
    for move in game.moves(state, side):
        if move.action == matches[0] and (move.x, move.y) == (x, y):
            fits.setdefault(move.state, move)
    if not fits:
        raise MoveInputError(f"'{matches[0]} {x} {y}' is not a legal move for {who} here")
    if len(fits) > 1:
        raise MoveInputError(f"'{matches[0]} {x} {y}' can end in {len(fits)} ways; type its number or its full text from the list")
    return next(iter(fits.values()))
