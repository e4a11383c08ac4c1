"""The BDDL language: grammar, parser, AST, semantic checks and the explicit game.

This package stands on its own (it knows nothing of circuits or QBF), so the
game semantics it defines can serve as the independent oracle that every
encoding is tested against.
"""

import importlib

# name -> the module that defines it.  Loaded on first use (PEP 562), so a
# command imports only the modules it needs: start-up is most of a compile.
_EXPORTS = {
    "Absolute": "ast",
    "Action": "ast",
    "Atom": "ast",
    "Condition": "ast",
    "Domain": "ast",
    "Extreme": "ast",
    "Named": "ast",
    "Problem": "ast",
    "Relative": "ast",
    "Span": "ast",
    "BddlError": "errors",
    "BddlLimitError": "errors",
    "BddlSemanticError": "errors",
    "BddlSyntaxError": "errors",
    "Diagnostic": "errors",
    "BLACK": "game",
    "OPEN": "game",
    "WHITE": "game",
    "Game": "game",
    "Move": "game",
    "State": "game",
    "Model": "loader",
    "load_model": "loader",
    "load_domain": "parser",
    "load_problem": "parser",
    "parse_domain": "parser",
    "parse_problem": "parser",
    "format_domain": "printer",
    "format_problem": "printer",
    "SearchBudgetExceeded": "engines.minimax",
    "SearchResult": "engines.minimax",
    "search": "engines.minimax",
    "Limits": "validate",
    "check_model": "validate",
}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


# Functions named like their own module are bound eagerly: once the module
# is imported the package attribute would otherwise be the module.
from .engines.minimax import search  # noqa: E402 (see above)

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
