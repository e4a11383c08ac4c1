"""The languages' adapters: one `compiler.game_model.GameModel` per language.

`BddlModel` (a domain and a problem) and `PgModel` (a positional game) each answer every question
the routes, the certificates and the commands ask of a game in their language's own way; no code
outside this package (and `compiler.model`, which decides a file's language) asks which language
a game is.  A new language is a new module here (docs/architecture.md, "A new language").
"""

from __future__ import annotations

from .bddl_model import BddlModel, BddlRecipe, bddl_model, play_of_move, problem_at
from .pg_model import PgModel, PgRecipe, game_at, pg_model, play_of_cell

__all__ = ["BddlModel", "BddlRecipe", "PgModel", "PgRecipe", "bddl_model", "game_at", "pg_model",
           "play_of_cell", "play_of_move", "problem_at"]
