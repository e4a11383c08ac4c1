"""Text -> AST for BDDL domain and problem files.

One LALR parser, built once per process and cached on disk by Lark, serves
both file kinds (they differ only by start symbol).  Syntax errors come out
as `BddlSyntaxError` with a position and the expected form; missing and
repeated sections are reported here too, because the AST has no way to hold
them.  Everything else about validity is `bddl.validate`'s job.
"""

from __future__ import annotations

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
from .errors import BddlSyntaxError, Diagnostic, error

GRAMMAR_FILE = Path(__file__).with_name("grammar.lark")

SYNTAX_COORD = "a coordinate: ?x, ?x+k, ?x-k, ?y, ?y+k, ?y-k, an integer, xmin, xmax, ymin or ymax"
SYNTAX_ATOM = "an atom: open(e1,e2), black(e1,e2), white(e1,e2) or NOT(...) of one of them"
SYNTAX_ACTION = ":action NAME :parameters (?x,?y) :precondition (ATOMS) :effect (ATOMS)"
SYNTAX_DOMAIN = "'#blackactions' followed by actions, then '#whiteactions' followed by actions"
SYNTAX_PROBLEM = (
    "the sections '#boardsize W H', '#init ATOMS', '#depth D', '#blackgoals' and "
    "'#whitegoals' (one goal per line, or False), optionally '#blackturn first|second'"
)

_READABLE = {
    "NAME": "a name",
    "VAR": "a variable (?x or ?y)",
    "INT": "an integer",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "_NL": "the end of the line",
    "NOT": "'NOT'",
    "FALSE": "'False'",
    "ACTION": "':action'",
    "PARAMETERS": "':parameters'",
    "PRECONDITION": "':precondition'",
    "EFFECT": "':effect'",
    "BLACKACTIONS": "'#blackactions'",
    "WHITEACTIONS": "'#whiteactions'",
    "BOARDSIZE": "'#boardsize'",
    "INIT": "'#init'",
    "DEPTH": "'#depth'",
    "BLACKGOALS": "'#blackgoals'",
    "WHITEGOALS": "'#whitegoals'",
    "BLACKTURN": "'#blackturn'",
    "$END": "the end of the file",
}


class _LineJoiner:
    """Post-lexer: line breaks inside parentheses are spaces, runs of line
    breaks are one, and the stream starts clean and ends with a line break.

    This is what lets the grammar say "a goal is one line" while conditions
    in parentheses may still span several lines."""

    always_accept = ("_NL",)

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

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text

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
        line, col = _end_position(self.text)
        return Span(self.file, line, col, line, col + 1)

    # -- problem ----------------------------------------------------------
    def problem(self, tree) -> Problem:
        seen: dict[str, Any] = {}  # section -> its value, of the section's own type
        spans: dict[str, Span] = {}
        problems: list[Diagnostic] = []
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
                        continue
                    goals.append(self.condition(line.children, self.meta_span(line)))
                seen[key] = tuple(goals)
            elif key == "blackturn":
                (word,) = rest
                if str(word) not in ("first", "second"):
                    problems.append(
                        error(
                            f"'#blackturn' must be followed by 'first' or 'second', not '{word}'",
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
            if key not in seen and key not in spans:
                hint = SYNTAX_PROBLEM
                if key in ("black_goals", "white_goals"):
                    hint = f"'{label}' followed by one goal per line; leave it empty (or write False) if that side has no goal"
                elif key == "init":
                    hint = "'#init' followed by the occupied cells, e.g. black(1,2) white(3,3); leave it empty for an empty board"
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
        )


def _syntax_error(exc, file: str, text: str, start: str) -> BddlSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    expected: set[str] = set()
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.expected)
        if tok.type == "$END":
            line, col = _end_position(text)
            span = Span(file, line, col, line, col + 1)
            found = "end of file"
        else:
            span = _token_span(file, tok)
            found = "end of line" if tok.type == "_NL" else repr(str(tok))
            if tok.type == "_NL" and not str(tok):
                line, col = _end_position(text)
                span = Span(file, line, col, line, col + 1)
        message = f"unexpected {found}"
    elif isinstance(exc, UnexpectedCharacters):
        expected = set(exc.allowed or ())
        span = Span(file, exc.line, exc.column, exc.line, exc.column + 1)
        message = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        expected = set(exc.expected)
        line, col = _end_position(text)
        span = Span(file, line, col, line, col + 1)
        message = "unexpected end of file"
    else:  # pragma: no cover - lark's hierarchy has only the three above
        raise exc
    hint = _hint(expected, start)
    unclosed = _unclosed_parenthesis(text, span)
    if unclosed is not None:
        message += f" (the '(' at line {unclosed[0]}, column {unclosed[1]} is never closed)"
    return BddlSyntaxError(error(message, span, hint))


def _unclosed_parenthesis(text: str, before: Span) -> tuple[int, int] | None:
    """The innermost '(' still open where the error was found, if any: the
    usual cause of an error on a later line."""
    stack: list[tuple[int, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number > before.line:
            break
        code = line.split("%", 1)[0]
        if number == before.line:
            code = code[: max(before.column - 1, 0)]
        for column, char in enumerate(code, start=1):
            if char == "(":
                stack.append((number, column))
            elif char == ")" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _end_position(text: str) -> tuple[int, int]:
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1


def _hint(expected: set[str], start: str) -> str:
    if expected & {"VAR", "INT", "MINUS"} and "NAME" in expected or {"PLUS", "MINUS"} <= expected:
        return SYNTAX_COORD
    if expected & {"PRECONDITION", "EFFECT", "PARAMETERS"} or expected == {"NAME"} and start == "domain":
        return SYNTAX_ACTION
    if "NOT" in expected:
        return SYNTAX_ATOM
    if expected & {"BLACKACTIONS", "WHITEACTIONS", "ACTION"}:
        return SYNTAX_DOMAIN + "; each action: " + SYNTAX_ACTION
    if expected & {"BOARDSIZE", "INIT", "DEPTH", "BLACKGOALS", "WHITEGOALS", "BLACKTURN"}:
        return SYNTAX_PROBLEM
    if len(expected) > 1:
        expected = expected - {"_NL"}
    readable = sorted(_READABLE.get(e, e) for e in expected)
    if not readable:
        return ""
    if len(readable) == 1:
        return readable[0]
    return ", ".join(readable[:-1]) + " or " + readable[-1]


def _parse(text: str, file: str, start: str):
    from lark.exceptions import UnexpectedInput

    try:
        return _lark().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, file, text, start) from None


def parse_domain(text: str, file: str = "<domain>") -> Domain:
    """Parse the text of a domain file; raises `BddlSyntaxError`."""
    return _Builder(file, text).domain(_parse(text, file, "domain"))


def parse_problem(text: str, file: str = "<problem>") -> Problem:
    """Parse the text of a problem file; raises `BddlSyntaxError`."""
    return _Builder(file, text).problem(_parse(text, file, "problem"))


def read_source(path: str | Path) -> str:
    """Read a model file as UTF-8, turning I/O and encoding failures into diagnostics."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BddlSyntaxError(error("no such file", Span(str(path), 0, 0, 0, 0))) from None
    except IsADirectoryError:
        raise BddlSyntaxError(error("is a directory, not a BDDL file", Span(str(path), 0, 0, 0, 0))) from None
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
