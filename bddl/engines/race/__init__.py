"""Race patterns for Breakthrough-like games (Saffidine, Jouandeau & Cazenave,
ACG 2011, section 3.3), generated and proved by our own search.

A race pattern says: this arrangement of pawns near the attacker's goal row
lets the attacker reach that row within `order` of its own moves whatever the
defender does, so the position is decided long before the game ends.  The
paper wrote 26 patterns by hand and had no way to check them; here every
pattern comes out of an exhaustive search of a *restricted game*, and the
tests prove each one again.

Why a package of four modules: the work has four jobs, each with its own
reader, and the engines need only the last.

* `recognise`: is a BDDL game Breakthrough-like, read from its rules (not its
  names), and in which direction each side's pawns move;
* `restricted`: the restricted game on a window of the board, whose win is a
  real win, and the fewest attacker moves that win it (by df-pn);
* `patterns`: the patterns that game proves, their cell types, the window
  shapes a board needs, and the pattern file (bddl/engines/race_patterns.txt);
* `knowledge`: how df-pn uses them: `race_knowledge(game)`, a static verdict
  on a position, or None for a game that is not Breakthrough-like;
* `python -m bddl.engines.race` (`__main__`): writes the pattern file again.

The engines' one entry point, `race_knowledge` (with its `RaceKnowledge`), is
this package's own name, so `from bddl.engines.race import race_knowledge` is
all a search needs.
"""

from .knowledge import RaceKnowledge, race_knowledge

__all__ = ["RaceKnowledge", "race_knowledge"]
