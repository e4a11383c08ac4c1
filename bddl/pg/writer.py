"""`PositionalGame` -> `.pg` text, deterministically.

Same game, byte-identical file: sections in one fixed order, cells of a set
in the order of `#positions`, winning sets in the game's order.  Reading the
text back gives an equal game (`read_pg(write_pg(g)) == g`) for every game
whose coordinates are the ones its cell names imply, which is every game the
reader, the generators and `bddlc export` produce.
"""

from __future__ import annotations

from pathlib import Path

from .game import BLACK, PositionalGame
from .reader import VERSION


def write_pg(game: PositionalGame, comments: tuple[str, ...] = ()) -> str:
    """The `.pg` text of `game`; `comments` become leading `%` lines."""
    cells = game.cells

    def names(members) -> str:
        return " ".join(cells[i] for i in sorted(members))

    out = [f"% {line}".rstrip() for line in comments]
    out += ["#version", VERSION]
    out += ["#times", " ".join(game.times)]
    out += ["#blackturns", " ".join(t for t, side in zip(game.times, game.turns) if side == BLACK)]
    out += ["#positions", " ".join(cells)]
    out += ["#blackwins"] + [names(s) for s in game.black_wins]
    if game.white_wins:
        out += ["#whitewins"] + [names(s) for s in game.white_wins]
    if game.black_initials:
        out += ["#blackinitials", names(game.black_initials)]
    if game.white_initials:
        out += ["#whiteinitials", names(game.white_initials)]
    if game.first_moves is not None:
        out += ["#firstmoves", names(game.first_moves)]
    if game.graph is not None:
        out.append("#neighbours")
        out += [" ".join([cells[i]] + [cells[j] for j in ns]) for i, ns in enumerate(game.graph.neighbours)]
        out += ["#startboarder", names(game.graph.start_border)]
        out += ["#endboarder", names(game.graph.end_border)]
    return "\n".join(out) + "\n"


def save_pg(game: PositionalGame, path: str | Path, comments: tuple[str, ...] = ()) -> None:
    """Write the file whole or not at all (no partial output on failure)."""
    path = Path(path)
    text = write_pg(game, comments)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
