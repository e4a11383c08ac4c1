"""The BDDL language: grammar, parser, AST, semantic checks and the explicit game.

This package stands on its own (it knows nothing of circuits or QBF), so the
game semantics it defines can serve as the independent oracle that every
encoding is tested against.
"""

from .ast import Absolute, Action, Atom, Condition, Domain, Extreme, Named, Problem, Relative, Span
from .errors import BddlError, BddlLimitError, BddlSemanticError, BddlSyntaxError, Diagnostic
from .game import BLACK, OPEN, WHITE, Game, Move, State
from .loader import Model, load_model
from .parser import load_domain, load_problem, parse_domain, parse_problem
from .printer import format_domain, format_problem
from .search import SearchBudgetExceeded, SearchResult, search
from .validate import Limits, check_model

__all__ = [
    "Absolute", "Action", "Atom", "Condition", "Domain", "Extreme", "Named", "Problem", "Relative", "Span",
    "BddlError", "BddlLimitError", "BddlSemanticError", "BddlSyntaxError", "Diagnostic",
    "BLACK", "OPEN", "WHITE", "Game", "Move", "State",
    "Model", "load_model",
    "load_domain", "load_problem", "parse_domain", "parse_problem",
    "format_domain", "format_problem",
    "SearchBudgetExceeded", "SearchResult", "search",
    "Limits", "check_model",
]
