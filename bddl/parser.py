"""Text -> AST for BDDL domain and problem files.

One LALR parser, built once per process and cached on disk by Lark, serves
both file kinds (they differ only by start symbol).  Syntax errors come out
as `BddlSyntaxError` with a position and the expected form; missing and
repeated sections are reported here too, because the AST has no way to hold
them.  Everything else about validity is `bddl.validate`'s job.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any, Iterator

from .ast import (
    Absolute,
    Action,
    Atom,
    Condition,
    Coord,
    Domain,
    EXTREMES,
    Extreme,
    Named,
    Problem,
    Relative,
    Span,
)
from .ast import NO_SPAN
from .errors import BddlSyntaxError, Diagnostic, error
from .suggest import did_you_mean, folder_hint, missing_file_hint
from .syntax_errors import MAX_ERRORS, SYNTAX_DOMAIN, SYNTAX_PROBLEM, blank, describe, end_position, replace_word

GRAMMAR_FILE = Path(__file__).with_name("grammar.lark")

class _LineJoiner:
    """Post-lexer: line breaks inside parentheses are spaces, runs of line
    breaks are one, and the stream starts clean and ends with a line break.

    This is what lets the grammar say "a goal is one line" while conditions
    in parentheses may still span several lines."""

    always_accept = ("_NL", "SECTION", "KEYWORD")

    def process(self, stream: Iterator) -> Iterator:
        from lark import Token

        depth = 0
        last = None
        for tok in stream:
            kind = tok.type
            if kind == "_NL":
                if depth > 0 or last is None or last.type == "_NL":
                    continue
            elif kind == "LPAR":
                depth += 1
            elif kind == "RPAR":
                depth = max(depth - 1, 0)
            last = tok
            yield tok
        if last is not None and last.type != "_NL":
            yield Token.new_borrow_pos("_NL", "", last)


@functools.lru_cache(maxsize=None)
def _lark():
    from lark import Lark

    return Lark(
        GRAMMAR_FILE.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        start=["domain", "problem"],
        postlex=_LineJoiner(),
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
    )


def _token_span(file: str, tok) -> Span:
    return Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)


def _join(a: Span, b: Span) -> Span:
    return Span(a.file, a.line, a.column, b.end_line, b.end_column)


class _Builder:
    """Turns Lark's tree into AST nodes; one instance per file."""

    def __init__(self, file: str, text: str, default_depth: int | None = None):
        self.file = file
        self.text = text
        self.default_depth = default_depth

    # -- conditions -------------------------------------------------------
    def coord(self, tree) -> Coord:
        kind = tree.data
        toks = tree.children
        span = _join(_token_span(self.file, toks[0]), _token_span(self.file, toks[-1]))
        if kind == "relative":
            var = str(toks[0])[1:]
            offset = 0
            if len(toks) == 3:
                offset = int(toks[2]) if toks[1].type == "PLUS" else -int(toks[2])
            return Relative(var, offset, span)
        if kind == "absolute":
            return Absolute(int(toks[0]), span)
        if kind == "negative_absolute":
            return Absolute(-int(toks[1]), span)
        name = str(toks[0])
        if name in EXTREMES:
            return Extreme(name, span)
        return Named(name, span)

    def atom(self, tree) -> Atom:
        if tree.data == "negative":
            not_tok, inner = tree.children
            a = self.atom(inner)
            span = Span(self.file, not_tok.line, not_tok.column, a.span.end_line, a.span.end_column + 1)
            return Atom(a.pred, a.x, a.y, not a.negated, span)
        name, x, y = tree.children
        xs, ys = self.coord(x), self.coord(y)
        span = Span(self.file, name.line, name.column, ys.span.end_line, ys.span.end_column + 1)
        return Atom(str(name), xs, ys, False, span)

    def items(self, children) -> list[Atom]:
        atoms: list[Atom] = []
        for child in children:
            if child.data == "group":
                atoms.extend(self.items(child.children))
            else:
                atoms.append(self.atom(child))
        return atoms

    def condition(self, tree_or_items, span: Span) -> Condition:
        children = tree_or_items.children if hasattr(tree_or_items, "children") else tree_or_items
        return Condition(tuple(self.items(children)), span)

    def meta_span(self, tree) -> Span:
        m = tree.meta
        if getattr(m, "empty", True):
            return Span(self.file, 0, 0, 0, 0)
        return Span(self.file, m.line, m.column, m.end_line, m.end_column)

    # -- domain -----------------------------------------------------------
    def action(self, tree) -> Action:
        kids = tree.children
        name = kids[1]
        params_tree = kids[3]
        params = tuple(str(t)[1:] for t in params_tree.children if t is not None)
        pre = self.condition(kids[5], self.meta_span(kids[5]))
        eff = self.condition(kids[7], self.meta_span(kids[7]))
        return Action(str(name), params, pre, eff, self.meta_span(tree), _token_span(self.file, name))

    def domain(self, tree) -> Domain:
        seen: dict[str, tuple] = {}
        problems: list[Diagnostic] = []
        for section in tree.children:
            keyword = section.children[0]
            key = section.data
            if key in seen:
                problems.append(
                    error(
                        f"repeated section '{keyword}'",
                        _token_span(self.file, keyword),
                        f"one '{keyword}' section holding all of that side's actions",
                    )
                )
                continue
            seen[key] = (keyword, tuple(self.action(a) for a in section.children[1:]))
        for key, label in (("black_actions", "#blackactions"), ("white_actions", "#whiteactions")):
            if key not in seen:
                problems.append(
                    error(
                        f"missing section '{label}'",
                        self._end_span(tree),
                        f"{SYNTAX_DOMAIN} (a side without actions still needs its header)",
                    )
                )
        if problems:
            raise BddlSyntaxError(problems)
        return Domain(
            seen["black_actions"][1],
            seen["white_actions"][1],
            self.meta_span(tree),
            _token_span(self.file, seen["black_actions"][0]),
            _token_span(self.file, seen["white_actions"][0]),
        )

    def _end_span(self, tree) -> Span:
        line, col = end_position(self.text)
        return Span(self.file, line, col, line, col + 1)

    # -- problem ----------------------------------------------------------
    def problem(self, tree) -> Problem:
        seen: dict[str, Any] = {}  # section -> its value, of the section's own type
        spans: dict[str, Span] = {}
        problems: list[Diagnostic] = []
        written_false: set[str] = set()
        for section in tree.children:
            keyword = section.children[0]
            key = section.data
            kspan = _token_span(self.file, keyword)
            if key in seen:
                problems.append(
                    error(
                        f"repeated section '{keyword}'",
                        kspan,
                        f"a single '{keyword}' section (first one at line {spans[key].line})",
                    )
                )
                continue
            spans[key] = kspan
            rest = section.children[1:]
            if key == "boardsize":
                w, h = rest
                seen[key] = (int(w), int(h), _join(_token_span(self.file, w), _token_span(self.file, h)))
            elif key == "depth":
                (d,) = rest
                seen[key] = (int(d), _token_span(self.file, d))
            elif key == "init":
                atoms: list[Atom] = []
                for line in rest:
                    atoms.extend(self.items(line.children))
                seen[key] = tuple(atoms)
            elif key in ("black_goals", "white_goals"):
                goals = []
                for line in rest:
                    if line.data == "false_goal":
                        written_false.add(key)
                        continue
                    goals.append(self.condition(line.children, self.meta_span(line)))
                seen[key] = tuple(goals)
            elif key == "blackturn":
                (word,) = rest
                if str(word) not in ("first", "second"):
                    problems.append(
                        error(
                            f"'#blackturn' must be followed by 'first' or 'second', not '{word}'"
                            + did_you_mean(str(word), ("first", "second")),
                            _token_span(self.file, word),
                            "#blackturn first   or   #blackturn second",
                        )
                    )
                    continue
                seen[key] = str(word) == "first"
        for key, label in (
            ("boardsize", "#boardsize"),
            ("init", "#init"),
            ("depth", "#depth"),
            ("black_goals", "#blackgoals"),
            ("white_goals", "#whitegoals"),
        ):
            if key == "depth" and key not in spans and self.default_depth is not None:
                seen[key] = (self.default_depth, Span(self.file, 0, 0, 0, 0))
            if key not in seen and key not in spans:
                hint = SYNTAX_PROBLEM
                if key in ("black_goals", "white_goals"):
                    hint = f"'{label}' followed by one goal per line; leave it empty (or write False) if that side has no goal"
                elif key == "init":
                    hint = "'#init' followed by the occupied cells, e.g. black(1,2) white(3,3); leave it empty for an empty board"
                elif key == "depth":
                    hint = "'#depth D', the number of plies (or give it on the command line with --depth D)"
                elif key == "boardsize":
                    hint = "'#boardsize W H', the board's width and height, e.g. #boardsize 5 5"
                problems.append(error(f"missing section '{label}'", self._end_span(tree), hint))
        if problems:
            raise BddlSyntaxError(problems)
        width, height, size_span = seen["boardsize"]
        depth, depth_span = seen["depth"]
        return Problem(
            width,
            height,
            seen["init"],
            depth,
            seen["black_goals"],
            seen["white_goals"],
            seen.get("blackturn", True),
            self.meta_span(tree),
            size_span,
            depth_span,
            (spans.get("black_goals", NO_SPAN), spans.get("white_goals", NO_SPAN)),
            ("black_goals" in written_false, "white_goals" in written_false),
        )


def normalise(text: str) -> str:
    """The text as the grammar reads it: no byte-order mark, and every line
    break (CRLF, or a lone CR from an old Mac editor) a plain LF.

    Positions stay the ones an editor shows: a CRLF is one line break, and an
    editor does not count the byte-order mark as a column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _parse(text: str, file: str, start: str):
    """The parse tree and every syntax error of the file (up to MAX_ERRORS).

    After an error the unit it broke is blanked out and the parse starts
    again (`bddl.syntax_errors`); the list is empty when the text parses.
    When there are errors, the tree is that of the blanked text, or None
    when no blanking made it parse."""
    from lark.exceptions import UnexpectedInput

    found: list[Diagnostic] = []
    shifts: list[tuple[int, int, int]] = []  # (line, column, columns added) by each word replaced
    current = text
    while True:
        try:
            return _lark().parse(current, start=start), found
        except UnexpectedInput as exc:
            problem = describe(exc, file, current, start)
        found.append(_in_original_columns(problem.diagnostic, shifts))
        if problem.resync is None or len(found) >= MAX_ERRORS:
            return None, found
        if problem.fix is not None:
            line, column, written, meant = problem.fix
            following = replace_word(current, problem.fix)
            shifts.append((line, column + len(meant), len(meant) - len(written)))
        else:
            following = blank(current, problem.resync)
        if following == current:
            return None, found
        current = following


def _in_original_columns(diagnostic: Diagnostic, shifts: list[tuple[int, int, int]]) -> Diagnostic:
    """The diagnostic's span in the file's own columns, undoing the words replaced before it on its line."""
    span = diagnostic.span
    for line, column, added in reversed(shifts):
        if span.line == line and span.column >= column:
            span = Span(span.file, span.line, span.column - added, span.end_line, span.end_column - added)
    return dataclasses.replace(diagnostic, span=span)


def _build(text: str, file: str, start: str, **options):
    text = normalise(text)
    tree, errors = _parse(text, file, start)
    builder = _Builder(file, text, **options)
    if not errors:
        return getattr(builder, start)(tree)
    if tree is not None:
        from .validate import local_problems

        try:
            errors += local_problems(getattr(builder, start)(tree))
        except BddlSyntaxError as exc:
            # a section the blanking removed is not missing: the error above says what is wrong with it
            errors += [d for d in exc.diagnostics if not d.message.startswith("missing section")]
    errors.sort(key=lambda d: (d.span.line, d.span.column))
    raise BddlSyntaxError(errors)


def parse_domain(text: str, file: str = "<domain>") -> Domain:
    """Parse the text of a domain file; raises `BddlSyntaxError` with every error found."""
    return _build(text, file, "domain")


def parse_problem(text: str, file: str = "<problem>", default_depth: int | None = None) -> Problem:
    """Parse the text of a problem file; raises `BddlSyntaxError` with every error found.

    `default_depth` stands in for a missing `#depth` section (the command
    line's `--depth`)."""
    return _build(text, file, "problem", default_depth=default_depth)


def read_source(path: str | Path) -> str:
    """Read a model file as UTF-8, turning I/O and encoding failures into diagnostics."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BddlSyntaxError(error("no such file", Span(str(path), 0, 0, 0, 0), missing_file_hint(path))) from None
    except IsADirectoryError:
        raise BddlSyntaxError(error("is a folder, not a game file", Span(str(path), 0, 0, 0, 0), folder_hint(path))) from None
    except OSError as exc:
        raise BddlSyntaxError(error(f"cannot read file: {exc.strerror}", Span(str(path), 0, 0, 0, 0))) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise BddlSyntaxError(
            error(
                f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                Span(str(path), line, column, line, column + 1),
                "a UTF-8 (or plain ASCII) text file",
            )
        ) from None


def load_domain(path: str | Path) -> Domain:
    return parse_domain(read_source(path), str(path))


def load_problem(path: str | Path) -> Problem:
    return parse_problem(read_source(path), str(path))
