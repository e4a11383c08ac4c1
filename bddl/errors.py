"""Diagnostics: every problem with a model is located, explained and, where we
can, paired with the form that was expected.

A user who mistypes a model should never see a traceback.  So the parser and
the semantic passes raise (or return) `Diagnostic`s, and the command line
prints them compiler-style::

    problems/tic.bddl:7:2: error: unknown predicate 'blak'
        7 | (blak(?x,?y) black(?x,?y+1))
          |  ^~~~
    expected: open(e1,e2), black(e1,e2) or white(e1,e2)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from .ast import Span


@dataclass(frozen=True)
class Diagnostic:
    """One located message; `severity` is "error" or "warning"."""

    message: str
    span: Span
    hint: str = ""
    severity: str = "error"
    code: str = ""

    def headline(self) -> str:
        where = self.span.file
        if self.span.line > 0:
            where += f":{self.span.line}:{self.span.column}"
        return f"{where}: {self.severity}: {self.message}"

    def render(self, source: str | None = None) -> str:
        """The full report: headline, the offending line with a caret, the hint.

        `source` is the text of `span.file`; when it is not given the file is
        read again, and when that fails the report simply has no excerpt."""
        lines = [self.headline()]
        excerpt = _excerpt(self.span, source)
        if excerpt:
            lines.extend(excerpt)
        if self.hint:
            lines.append(self.hint if self.hint.startswith("note:") else f"expected: {self.hint}")
        return "\n".join(lines)


def _excerpt(span: Span, source: str | None) -> list[str]:
    if span.line <= 0:
        return []
    if source is None:
        try:
            source = Path(span.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
    text_lines = source.splitlines()
    if span.line > len(text_lines):
        return []
    text = text_lines[span.line - 1].expandtabs(1)
    start = max(span.column, 1)
    if span.end_line == span.line and span.end_column > start:
        width = span.end_column - span.column
    else:
        width = max(len(text) - start + 1, 1)
    gutter = f"{span.line:>5} | "
    return [
        gutter + text,
        " " * (len(gutter) - 2) + "| " + " " * (start - 1) + "^" + "~" * (width - 1),
    ]


class BddlError(Exception):
    """A model that cannot be used, with every diagnostic that explains why.

    The first diagnostic is the headline; a model with several independent
    problems reports them all, so the user fixes them in one pass."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | Diagnostic, sources: Mapping[str, str] | None = None):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        if not self.diagnostics:
            raise ValueError("BddlError needs at least one diagnostic")
        # The texts of spans that name no file (a game given as text, `bddlc.open_text`), so that
        # `render` can still show the line and the caret.
        self.sources: dict[str, str] = dict(sources or {})
        super().__init__(self.diagnostics[0].headline())

    @property
    def span(self) -> Span:
        return self.diagnostics[0].span

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        known = {**self.sources, **(sources or {})}
        return "\n".join(d.render(known.get(d.span.file)) for d in self.diagnostics)


class BddlSyntaxError(BddlError):
    """The text does not follow the BDDL grammar."""


class BddlSemanticError(BddlError):
    """The text parses but does not describe a valid game."""


class BddlLimitError(BddlSemanticError):
    """A size or depth beyond what any solver could handle; raise the limit to go on."""


def error(message: str, span: Span, hint: str = "", code: str = "") -> Diagnostic:
    return Diagnostic(message, span, hint, "error", code)


def warning(message: str, span: Span, hint: str = "") -> Diagnostic:
    return Diagnostic(message, span, hint, "warning")
