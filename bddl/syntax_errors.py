"""Syntax errors that name their fix, and the resynchronisation that lets a
file report every one of them.

Lark says which token it did not expect and which it would have taken; that
alone points the wrong way (a misspelt section is "an unexpected '#'", a
missing ')' surfaces at the next section).  Here the error is read in its
context, the file kind and the section (and, in a domain, the part of the
action) it stands in, so the expected form shown is the one for that place;
misspelt words are compared with the words that exist (`bddl.suggest`); and
an error caused by a '(' that is never closed is reported at that '('.

After an error the parser goes on with the unit it broke blanked out (a
line of `#init` or a goal, an action, or a whole section; see `resync_lines`),
so one run reports the errors of every unit, up to `MAX_ERRORS`.  Blanking
keeps line breaks, so every later position is still the file's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .ast import Span
from .errors import Diagnostic, error
from .suggest import ACTION_KEYWORDS, ATOM_WORDS, DOMAIN_SECTIONS, PROBLEM_SECTIONS, candidates, did_you_mean, listing, nearest

MAX_ERRORS = 20
"""Past this many syntax errors in one file the rest are likely one mistake's echoes."""

SYNTAX_ATOM = "an atom: open(e1,e2), black(e1,e2), white(e1,e2) or NOT(...) of one of them"
SYNTAX_ACTION = ":action NAME :parameters (?x,?y) :precondition (ATOMS) :effect (ATOMS)"
SYNTAX_DOMAIN = "'#blackactions' followed by actions, then '#whiteactions' followed by actions"
SYNTAX_PROBLEM = (
    "the sections '#boardsize W H', '#init ATOMS', '#depth D', '#blackgoals' and "
    "'#whitegoals' (one goal per line, or False), optionally '#blackturn first|second'"
)
GOAL_FORM = (
    "one goal per line: its atoms, e.g. black(?x,?y) black(?x+1,?y), optionally inside one pair "
    "of parentheses; or False for no goal"
)
COORD_FORMS = {
    "domain": "a coordinate: ?x, ?x+k, ?x-k (x slot), ?y, ?y+k, ?y-k (y slot), xmin, xmax, ymin or ymax",
    "goal": "a coordinate: ?x, ?x+k, ?x-k, ?y, ?y+k, ?y-k, an integer, xmin, xmax, ymin or ymax",
    "init": "a coordinate of '#init': an integer from 1 to the board's width (x) or height (y), or xmin, xmax, ymin, ymax",
}
SECTION_FORMS = {
    "#boardsize": "#boardsize W H: two whole numbers, the board's width and height, e.g. #boardsize 5 5",
    "#init": "the cells taken at the start, e.g. black(1,2) white(3,3) (absolute coordinates); nothing for an empty board",
    "#depth": "#depth D: one whole number, the number of plies, e.g. #depth 9",
    "#blackgoals": GOAL_FORM,
    "#whitegoals": GOAL_FORM,
    "#blackturn": "#blackturn first   or   #blackturn second",
}
PART_FORMS = {
    ":action": "the action's name on its own, then " + SYNTAX_ACTION.split(" ", 2)[2],
    ":parameters": ":parameters (?x,?y)",
}
CONDITION_FORM = "a condition: atoms in parentheses, e.g. (open(?x,?y) NOT(black(?x,?y+1)))"

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
_SECTION_LINE = re.compile(r"^[ \t\f]*(#[A-Za-z0-9_\-]*)")
_KEYWORD = re.compile(r":[A-Za-z0-9_\-]+")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)[ \t]*\(")


@dataclass(frozen=True)
class Context:
    """Where in a file a position lies: the section, and in a domain the action part."""

    kind: str  # "domain" or "problem"
    section: str | None  # the section keyword as written (goal sections normalised to the plural), None before any
    section_line: int
    action_line: int | None  # domain: the line of the current ':action'
    part: str | None  # domain: the last action keyword before the position

    def condition_kind(self) -> str | None:
        """Which coordinates a condition here may use, or None outside conditions."""
        if self.kind == "domain":
            return "domain" if self.part in (":precondition", ":effect") else None
        if self.section == "#init":
            return "init"
        if self.section in ("#blackgoals", "#whitegoals"):
            return "goal"
        return None


def code_lines(text: str) -> list[str]:
    """The lines of `text` without their comments."""
    return [line.split("%", 1)[0] for line in text.split("\n")]


def section_of(word: str) -> str:
    return {"#blackgoal": "#blackgoals", "#whitegoal": "#whitegoals"}.get(word, word)


def context_at(text: str, line: int, column: int, kind: str) -> Context:
    section, section_line, action_line, part = None, 0, None, None
    for number, code in enumerate(code_lines(text)[:line], start=1):
        if number == line:
            code = code[: max(column - 1, 0)]
        head = _SECTION_LINE.match(code)
        if head:
            section, section_line, action_line, part = section_of(head.group(1)), number, None, None
        for keyword in _KEYWORD.findall(code):
            if keyword == ":action":
                action_line = number
            part = keyword
    return Context(kind, section, section_line, action_line, part)


# -- parentheses ---------------------------------------------------------------------


def _is_header(code: str) -> bool:
    head = _SECTION_LINE.match(code)
    return head is not None and head.group(1) != "#"


def _paren_scan(text: str) -> tuple[list[list[tuple[int, int]]], set[tuple[int, int]]]:
    """Per line, the '(' open at its start; and every '(' never closed.

    A section header closes nothing but ends every unit, so a '(' still open
    at one is never closed."""
    stack: list[tuple[int, int]] = []
    never: set[tuple[int, int]] = set()
    open_at: list[list[tuple[int, int]]] = []
    for number, code in enumerate(code_lines(text), start=1):
        if _is_header(code):
            never.update(stack)
            stack = []
        open_at.append(list(stack))
        for column, char in enumerate(code, start=1):
            if char == "(":
                stack.append((number, column))
            elif char == ")" and stack:
                stack.pop()
    never.update(stack)
    return open_at, never


def open_parens(text: str, line: int, column: int) -> list[tuple[int, int]]:
    """The '(' still open just before (line, column), outermost first."""
    stack: list[tuple[int, int]] = []
    for number, code in enumerate(code_lines(text)[:line], start=1):
        if number == line:
            code = code[: max(column - 1, 0)]
        if _is_header(code):
            stack = []
        for col, char in enumerate(code, start=1):
            if char == "(":
                stack.append((number, col))
            elif char == ")" and stack:
                stack.pop()
    return stack


def unclosed_at(text: str, line: int, column: int) -> tuple[int, int] | None:
    """The innermost '(' open at (line, column) that really is never closed."""
    _, never = _paren_scan(text)
    for paren in reversed(open_parens(text, line, column)):
        if paren in never:
            return paren
    return None


# -- the diagnostic --------------------------------------------------------------------


@dataclass(frozen=True)
class SyntaxProblem:
    """One syntax error and the lines to blank before parsing on."""

    diagnostic: Diagnostic
    resync: tuple[int, int] | None  # [first, last) lines to blank; None: stop here
    fix: tuple[int, int, str, str] | None = None  # (line, column, written, meant): read on with the word meant instead


def end_position(text: str) -> tuple[int, int]:
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1


def describe(exc, file: str, text: str, kind: str) -> SyntaxProblem:
    """The diagnostic for one of Lark's exceptions, and where to resynchronise."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    tok = None
    at_end = False
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.expected)
        at_end = tok.type == "$END" or (tok.type == "_NL" and not str(tok))
        if at_end:
            line, col = end_position(text)
            span = Span(file, line, col, line, col + 1)
            found = "end of file"
        else:
            span = Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)
            found = "end of line" if tok.type == "_NL" else repr(str(tok))
        message = f"unexpected {found}"
    elif isinstance(exc, UnexpectedCharacters):
        expected = set(exc.allowed or ())
        span = Span(file, exc.line, exc.column, exc.line, exc.column + 1)
        message = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        expected = set(exc.expected)
        line, col = end_position(text)
        span = Span(file, line, col, line, col + 1)
        message, at_end = "unexpected end of file", True
    else:  # pragma: no cover - lark's hierarchy has only the three above
        raise exc
    context = context_at(text, span.line, span.column, kind)

    unclosed = unclosed_at(text, span.line, span.column)
    if unclosed is not None and (unclosed[0] < span.line or at_end):
        return _never_closed(unclosed, span, tok, file, text, context, at_end)

    special = _misspelt(tok, span, file, text, context, expected)
    if special is not None:
        return special
    if unclosed is not None:
        message += f" (the '(' at column {unclosed[1]} is never closed)"
    elif tok is not None and tok.type == "COMMA" and "NOT" in expected and context.condition_kind() is not None:
        message += " (atoms are separated by spaces, not commas)"
    hint = _hint(expected, context)
    return SyntaxProblem(error(message, span, hint), None if at_end else resync_lines(text, span.line, context))


def _never_closed(paren, span, tok, file, text, context, at_end) -> SyntaxProblem:
    line, column = paren
    if at_end:
        where = "the end of the file"
    elif tok is not None and tok.type in _SECTION_TOKENS:
        where = f"the section '{tok}' on line {span.line}"
    else:
        where = f"line {span.line}"
    paren_context = context_at(text, line, column, context.kind)
    unit = {"#init": "the '#init' list", "#blackgoals": "the goal", "#whitegoals": "the goal"}.get(
        paren_context.section or "", "the condition"
    )
    hint = f"a ')' to close it, probably at the end of {unit} on line {line}"
    message = f"this '(' is never closed: {unit} runs on to {where}"
    diagnostic = error(message, Span(file, line, column, line, column + 1), hint)
    if at_end:  # the unit runs to the end: blank it and read what comes before on
        return SyntaxProblem(diagnostic, (line, len(text.split("\n")) + 1))
    if context.kind == "domain":  # the action the '(' opened in, whole
        first, last = resync_lines(text, span.line, context)
        return SyntaxProblem(diagnostic, (min(first, paren_context.action_line or line), last))
    last = span.line if tok is not None and tok.type in _SECTION_TOKENS else span.line + 1
    return SyntaxProblem(diagnostic, (line, max(last, line + 1)))


_SECTION_TOKENS = {"BLACKACTIONS", "WHITEACTIONS", "BOARDSIZE", "INIT", "DEPTH", "BLACKGOALS", "WHITEGOALS", "BLACKTURN", "SECTION"}


def _misspelt(tok, span, file, text, context, expected) -> SyntaxProblem | None:
    """Errors whose cause is a word that does not exist, or exists elsewhere."""
    kind = context.kind
    own, other = (PROBLEM_SECTIONS, DOMAIN_SECTIONS) if kind == "problem" else (DOMAIN_SECTIONS, PROBLEM_SECTIONS)
    sections_hint = f"the sections of a {kind} file: {listing(own)}" + (
        " (#blackturn is optional)" if kind == "problem" else ""
    )
    if tok is not None and tok.type in _SECTION_TOKENS:
        word = section_of(str(tok))
        if tok.type == "SECTION" or word in other:
            if word in other:
                message = f"'{word}' is a section of a {'domain' if kind == 'problem' else 'problem'} file, not of a {kind} file (are the two files swapped?)"
            elif word == "#":
                message = "a '#' with no section name"
            else:
                message = f"unknown section '{word}'" + did_you_mean(word, own)
            meant = candidates(str(tok), own)
            fix = (span.line, span.column, str(tok), meant[0]) if len(meant) == 1 and word not in other else None
            return SyntaxProblem(error(message, span, sections_hint), resync_lines(text, span.line, context, whole_section=True), fix)
    if tok is not None and tok.type == "KEYWORD":
        word = str(tok)
        message = f"unknown keyword '{word}'" + did_you_mean(word, ACTION_KEYWORDS)
        if kind == "problem":
            message += " (action keywords belong in a domain file)"
        meant = candidates(word, ACTION_KEYWORDS)
        fix = (span.line, span.column, word, meant[0]) if len(meant) == 1 and kind == "domain" else None
        return SyntaxProblem(error(message, span, SYNTAX_ACTION), resync_lines(text, span.line, context), fix)
    if tok is not None and tok.type == "NAME" and context.section is None:
        # a section keyword written without its '#'
        guess = nearest("#" + str(tok), own, cutoff=0.8)
        if guess is not None:
            message = f"unexpected '{tok}' (did you mean the section '{guess}'?)"
            return SyntaxProblem(error(message, span, sections_hint), resync_lines(text, span.line, context, whole_section=True))
    culprit = _unknown_call(text, span, file) if tok is not None and tok.type == "LPAR" else None
    if culprit is not None and context.condition_kind() is not None:
        word, word_span = culprit
        guess = nearest(word, ATOM_WORDS)
        if word.lower() == "not":
            message = f"'{word}' is not a keyword: negation is written NOT(...)"
        else:
            message = f"'{word}' is not a predicate" + (f" (did you mean '{guess}'?)" if guess else "")
        hint = SYNTAX_ATOM
        return SyntaxProblem(error(message, word_span, hint), resync_lines(text, span.line, context))
    return None


def _unknown_call(text: str, span: Span, file: str) -> tuple[str, Span] | None:
    """A word written like an atom's predicate, `word(`, on the error's line
    before it, that is no predicate and no NOT: `not(open(?x,?y))` parses up to
    the second '(' and the cause is `not`."""
    code = code_lines(text)[span.line - 1][: max(span.column - 1, 0)]
    calls = [m for m in _CALL.finditer(code) if m.group(1) not in ATOM_WORDS]
    if not calls:
        return None
    last = calls[-1]
    column = last.start(1) + 1
    return last.group(1), Span(file, span.line, column, span.line, column + len(last.group(1)))


def _hint(expected: set[str], context: Context) -> str:
    condition = context.condition_kind()
    if condition is not None:
        if expected & {"VAR", "INT", "MINUS"} and "NAME" in expected or {"PLUS", "MINUS"} <= expected or expected == {"INT"}:
            return COORD_FORMS[condition]
        if "NOT" in expected:
            return SYNTAX_ATOM
    if context.kind == "domain":
        if context.section is None:
            return SYNTAX_DOMAIN + "; each action: " + SYNTAX_ACTION
        if context.part in PART_FORMS and context.action_line is not None:
            return PART_FORMS[context.part]
        if context.part in (":precondition", ":effect"):
            if expected & {"ACTION", "BLACKACTIONS", "WHITEACTIONS"} and context.part == ":effect":
                return "the next ':action', or the other side's section; each action: " + SYNTAX_ACTION
            return CONDITION_FORM + " after " + context.part
        if context.action_line is None:
            return "actions, each: " + SYNTAX_ACTION
    else:
        if context.section in SECTION_FORMS:
            return SECTION_FORMS[context.section]
        if context.section is None:
            return SYNTAX_PROBLEM
    readable = sorted(_READABLE.get(e, e) for e in (expected - {"_NL"} if len(expected) > 1 else expected))
    if not readable:
        return ""
    return readable[0] if len(readable) == 1 else ", ".join(readable[:-1]) + " or " + readable[-1]


# -- resynchronisation ---------------------------------------------------------------


def resync_lines(text: str, line: int, context: Context, whole_section: bool = False) -> tuple[int, int]:
    """The lines [first, last) of the unit the error at `line` broke.

    Problem files: one line of `#init` or of a goal (from the outermost '('
    still open, to the line that closes it); any other section whole.
    Domain files: the action (from its ':action' to the next one or the next
    section).  An unknown section runs to the next section header."""
    lines = code_lines(text)
    total = len(lines)

    def next_header(after: int, known_only: bool = False) -> int:
        for number in range(after + 1, total + 1):
            head = _SECTION_LINE.match(lines[number - 1])
            if head and (not known_only or section_of(head.group(1)) in PROBLEM_SECTIONS + DOMAIN_SECTIONS):
                return number
        return total + 1

    if whole_section:  # to the next header, known or not: a misspelt one gets its own error
        return line, next_header(line)
    if context.kind == "problem":
        if context.section in ("#init", "#blackgoals", "#whitegoals") and context.section_line != line:
            outer = open_parens(text, line, len(lines[line - 1]) + 1)
            first = min([line] + [p[0] for p in outer[:1]])
            last = line + 1
            if outer:  # the unit runs on until its '(' closes (or the next section)
                open_at, _ = _paren_scan(text)
                last = next((n for n in range(line + 1, total + 1) if not open_at[n - 1] or outer[0] not in open_at[n - 1]), total + 1)
                last = min(last, next_header(line))
            return first, max(last, first + 1)
        start = context.section_line or line
        return start, next_header(max(start, line))
    if context.action_line is not None and context.section_line <= context.action_line:
        first = context.action_line
    else:
        first = line
    for number in range(line + 1, total + 1):
        code = lines[number - 1]
        if _SECTION_LINE.match(code) or re.match(r"^[ \t\f]*:action\b", code):
            return first, number
    return first, total + 1


def replace_word(text: str, fix: tuple[int, int, str, str]) -> str:
    """`text` with the misspelt word at (line, column) replaced by the one meant.

    Reading on with the keyword the user meant, rather than blanking its
    section, lets the errors inside that section be reported too."""
    line, column, written, meant = fix
    parts = text.split("\n")
    code = parts[line - 1]
    assert code[column - 1 : column - 1 + len(written)] == written
    parts[line - 1] = code[: column - 1] + meant + code[column - 1 + len(written) :]
    return "\n".join(parts)


def blank(text: str, lines: tuple[int, int]) -> str:
    """`text` with the lines [first, last) turned into spaces (line breaks kept)."""
    first, last = lines
    parts = text.split("\n")
    for index in range(first - 1, min(last - 1, len(parts))):
        parts[index] = " " * len(parts[index])
    return "\n".join(parts)
