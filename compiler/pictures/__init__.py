"""Pictures of games: positions, model sheets and strategy explorers, as SVG and HTML.

Everything here is drawn from the game rules interface (`bddl.rules.GameRules`),
so one drawing serves BDDL models and positional games alike; the model sheet
also reads the language's own form (BDDL conditions, `.pg` winning sets),
which is what it shows.  Every drawing is plain text built in a fixed order
with rounded numbers, so the same game and position give the same bytes,
and none refers to anything outside itself (no fonts, scripts or images to
fetch): a file opens anywhere, offline.
"""

from __future__ import annotations

from .board import position_svg

__all__ = ["position_svg"]
