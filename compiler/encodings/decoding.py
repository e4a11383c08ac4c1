"""Moves read back from a solver's answer, and their check against the game engine.

A QBF solver's assignment to a move block is only a claim; before bddlc shows
a move to anyone it finds the same move among the engine's legal moves
(`bddl.game`), so a wrong encoding or a wrong solver answer surfaces as
"not a legal move" rather than as a confident, wrong recommendation.
"""

from __future__ import annotations

from dataclasses import dataclass

from bddl.game import Game, Move, State


@dataclass(frozen=True)
class DecodedMove:
    """A move as an encoding's variables spell it.

    `chosen` lists, for cells a negated effect atom leaves undetermined, the
    value the mover picked: ((x, y), "open" | "black" | "white")."""

    side: str
    action_index: int
    action: str
    x: int
    y: int
    chosen: tuple[tuple[tuple[int, int], str], ...] = ()

    def __str__(self) -> str:
        text = f"{self.action} {self.x} {self.y}"
        if self.chosen:
            text += " (" + ", ".join(f"({x},{y}) becomes {v}" for (x, y), v in self.chosen) + ")"
        return text


def engine_move(game: Game, state: State, decoded: DecodedMove) -> Move | None:
    """The engine's legal move that `decoded` names in `state`, or None if it is not legal there."""
    geometry = game.geometry
    for move in game.moves(state, decoded.side):
        if (move.action_index, move.x, move.y) != (decoded.action_index, decoded.x, decoded.y):
            continue
        if all(move.state.value(geometry, x, y) == value for (x, y), value in decoded.chosen):
            return move
    return None
