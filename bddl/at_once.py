"""A win at once comes first: the move bddlc names for a side that can win on the spot.

Every route to a verdict names the winner's move in its own order: the
minimax and df-pn take the first move, in move order, that they prove
winning within the plies left; a QBF solver gives whatever its assignment
holds.  Any of these may be a longer win while another move wins at once (a
pawn race where `advance 2 3` reaches the last row, and the search names
`advance 1 1`, which wins two plies later).  A move that is a win within the
plies left is a correct answer, but a player reading it would take the win
at once, a solver that does not looks broken, and every line of a
certificate or of `play` after it is longer than it needs to be.

So wherever bddlc names a move (the search and QBF routes' first move, and
through them `play` and `validate`; a certificate's strategist), the named
move passes through `soonest`: a move that wins at once is kept, and
otherwise the first win at once in the rules' order replaces it.  The rules
decide it alone, so it costs one goal test per legal move and holds for
every engine and both languages.  A move that wins at once wins within any
plies left (at least one: the mover is to move), so the verdict never changes.
"""

from __future__ import annotations

from .rules import GameRules, Play, Position


def win_at_once(rules: GameRules, position: Position) -> Play | None:
    """The first move, in the rules' order, after which the mover's goal holds (None: no such move)."""
    return rules.win_at_once(position)


def wins_at_once(rules: GameRules, play: Play) -> bool:
    return rules.won(play.after, play.side)


def soonest(rules: GameRules, position: Position, named: Play | None) -> Play | None:
    """The move to name for the mover in `position`, where an engine named `named`
    (a winning move, or None): `named` if it wins at once, else the first
    move that does, else `named` unchanged (so a solver that already takes
    wins at once gives the same moves, and the same certificates, as before)."""
    if named is not None and wins_at_once(rules, named):
        return named
    return win_at_once(rules, position) or named


def answer_at_once(rules: GameRules, reply: Play, strategist: str) -> Play | None:
    """The strategist's move that wins at once after the other side's `reply`: the first, in
    the rules' order, of its moves after which its goal holds; None when there is none, or
    when the reply ends the game itself (its mover's goal holds, or no plies are left), or
    the strategist is not the one to move after it.

    A certificate may leave such replies out of a node (docs/certificates.md, format
    version 4): every line through them ends one move later, and the checker finds the
    answer again with this very function, so the builder and the checker agree on the
    move, and on the cell it claims (a swap's carrier counts it)."""
    after = reply.after
    if after.ply >= rules.depth or rules.to_move(after.ply) != strategist or rules.won(after, reply.side):
        return None
    return win_at_once(rules, after)
