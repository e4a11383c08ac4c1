"""The language seam holds: outside the adapters, at most three places ask which language a game is.

Everything that differs between BDDL and positional games is a method of
`compiler.game_model.GameModel`, answered by `compiler.languages` (one adapter per language);
`compiler.model` decides a file's language.  Any other code that branches on the language is a
place a new language would have to touch, so they are counted here, by reading the code (AST):

* a comparison with a language's name (`x.language == "pg"`, `== PG`, `!= BDDL`);
* a test whether a model holds a language's form (`model.pg is None`, `model.bddl is not None`);
* a file's language read from its name (`.suffix == ".pg"`, `.endswith(".pg")`) or asked of the seam
  (`is_positional_game`, `language_of`);
* `isinstance` against an adapter class.

The allowed places are listed with the reason each must know the language; the test fails on a new
one (wire it through the adapters instead: docs/architecture.md) and on a listed one that went away
(take it off the list).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bddl", "compiler", "circuits", "bench", "bddlc")
# the seam itself: the adapters, the interface they implement, and the one place that reads a file's language
SEAM = ("compiler/languages/", "compiler/game_model.py", "compiler/model.py")
LANGUAGE_NAMES = {"pg", "bddl", "PG", "BDDL", ".pg", ".bddl"}
ADAPTERS = {"BddlModel", "PgModel"}
SEAM_QUESTIONS = {"is_positional_game", "language_of"}

ALLOWED = {  # place -> why it must know the language
    ("compiler/cli/check.py", "run"):
        "`check` checks the language's own sanity conditions (BDDL's three by SAT or search; a .pg game's hold by construction)",
    ("compiler/cli/common.py", "limits_of"):
        "--max-board-side is refused for a .pg game before the game is read (it would change how it is read)",
    ("compiler/cli/regress_run.py", "_entry"):
        "a regress manifest's entry has a `domain` only when its file is a BDDL problem",
}
MAX_PLACES = 3


def _is_language_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in LANGUAGE_NAMES
    return isinstance(node, ast.Name) and node.id in ("PG", "BDDL")


def _names_a_language(node: ast.AST) -> bool:
    """An operand that holds a language or a file's suffix: `x.language`, `language`, `p.suffix`, `language_of(...)`."""
    if isinstance(node, ast.Call):
        node = node.func
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "language" in name or name in ("suffix", "kind", "file_kind")


def _asks(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        if any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops) and any(_is_language_name(o) for o in operands):
            return any(_names_a_language(o) for o in operands)  # not a folder named pg, say
        if any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return any(isinstance(o, ast.Attribute) and o.attr in ("pg", "bddl") for o in operands)
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in SEAM_QUESTIONS:
            return True
        if name == "endswith" and any(_is_language_name(a) for a in node.args):
            return True
        if name == "isinstance" and len(node.args) == 2:
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            return any(getattr(c, "id", None) in ADAPTERS or getattr(c, "attr", None) in ADAPTERS for c in classes)
    return False


class _Questions(ast.NodeVisitor):
    """The questions of one module, each under the function (innermost) or class it stands in."""

    def __init__(self) -> None:
        self.scope: list[str] = []
        self.found: dict[str, int] = {}

    def _scoped(self, node) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def generic_visit(self, node: ast.AST) -> None:
        if _asks(node):
            name = self.scope[-1] if self.scope else "<module>"
            self.found[name] = self.found.get(name, 0) + 1
        super().generic_visit(node)


def language_questions() -> dict[tuple[str, str], int]:
    """(file, function) -> how many times it asks, over every module outside the seam."""
    found: dict[tuple[str, str], int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(SEAM):
                continue
            visitor = _Questions()
            visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
            found.update({(relative, name): count for name, count in visitor.found.items()})
    return found


def test_at_most_three_places_outside_the_adapters_ask_the_language():
    found = language_questions()
    places = set(found)
    new = sorted(places - set(ALLOWED))
    assert not new, f"code outside compiler/languages asks which language a game is: {new}; ask the model instead"
    gone = sorted(set(ALLOWED) - places)
    assert not gone, f"these places no longer ask the language: take them off ALLOWED: {gone}"
    assert len(ALLOWED) <= MAX_PLACES


def test_the_count_finds_what_it_looks_for():
    """The detector itself: every form it counts is found, and a use that is not a question is not."""
    cases = {
        "model.language == 'pg'": True,
        "x.language != BDDL": True,
        "model.pg is not None": True,
        "model.bddl is None": True,
        "path.suffix == '.pg'": True,
        "str(path).endswith('.pg')": True,
        "is_positional_game(path)": True,
        "isinstance(model, PgModel)": True,
        "model.words.model": False,
        "{'language': model.language}": False,
        "folder.name == 'pg'": False,
        "file_kind(path) == 'pg'": True,
        "model.pg.cells": False,
    }
    for text, asks in cases.items():
        node = ast.parse(text, mode="eval").body
        assert any(_asks(n) for n in ast.walk(node)) == asks, text
