"""Text -> `PositionalGame` for the `.pg` format (Positional Game Description
1.0, with Q-sage's Hex sections).

The format is line based: `%` starts a comment, a line starting with `#` names
a section, and the lines up to the next section belong to it as names
separated by white space.  There is no grammar worth a parser generator, so
this module tokenises by hand and keeps every name's position: each problem
is reported like the BDDL parser does (`file:line:col`, the line, a caret and
the expected form), and all independent problems of a file come out together.

Sections may come in any order (the published files put `#blackturns` before
`#times`), so the reader first collects them and then resolves the names.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..ast import Span
from ..errors import BddlSemanticError, BddlSyntaxError, Diagnostic, error, warning
from ..parser import read_source
from .game import BLACK, WHITE, BorderGraph, PositionalGame
from .geometry import coordinates_from_names, first_moves_left_out

VERSION = "1.0"

SECTIONS = (
    "version",
    "times",
    "blackturns",
    "positions",
    "blackwins",
    "whitewins",
    "blackinitials",
    "whiteinitials",
    "firstmoves",
    "neighbours",
    "startboarder",
    "endboarder",
)
HEX_SECTIONS = ("neighbours", "startboarder", "endboarder")
REQUIRED = ("times", "blackturns", "positions")

FORMS = {
    "version": "'#version' followed by 1.0",
    "times": "'#times' followed by the time points in order, e.g. t1 t2 t3",
    "blackturns": "'#blackturns' followed by the time points at which Black moves (names from #times)",
    "positions": "'#positions' followed by the cell names, e.g. a1 a2 b1 b2",
    "blackwins": "'#blackwins' followed by one winning set per line: cell names from #positions",
    "whitewins": "'#whitewins' followed by one winning set per line: cell names from #positions",
    "blackinitials": "'#blackinitials' followed by the cells Black owns before play",
    "whiteinitials": "'#whiteinitials' followed by the cells White owns before play",
    "firstmoves": "'#firstmoves' followed by the cells the first move may claim",
    "neighbours": "'#neighbours' with one line per cell: the cell, then its neighbours",
    "startboarder": "'#startboarder' followed by the cells of the border Black starts from",
    "endboarder": "'#endboarder' followed by the cells of the border Black must reach",
}
SECTION_LIST = "#" + ", #".join(SECTIONS)

_NAME = re.compile(r"[A-Za-z0-9_]+\Z")
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Token:
    text: str
    span: Span


@dataclass(frozen=True)
class Section:
    name: str
    header: Span
    lines: tuple[tuple[Token, ...], ...]  # the non-empty lines, as tokens

    @property
    def tokens(self) -> tuple[Token, ...]:
        return tuple(t for line in self.lines for t in line)


@dataclass(frozen=True)
class ReadGame:
    """A game with where its parts were written: what warnings and `bddlc check` point at."""

    game: PositionalGame
    warnings: tuple[Diagnostic, ...]
    set_spans: dict[str, tuple[Span, ...]]  # "blackwins"/"whitewins": the line of each winning set
    cell_spans: dict[str, dict[int, Span]]  # per cell-list section (e.g. "firstmoves"): each cell's token
    headers: dict[str, Span]  # each section's header
    file: str


def read_pg(text: str, file: str = "<pg>") -> PositionalGame:
    """Parse the text of a `.pg` file; raises `BddlSyntaxError` (the layout) or
    `BddlSemanticError` (names that do not fit together), with every problem found."""
    return read_pg_located(text, file).game


def read_pg_located(text: str, file: str = "<pg>") -> ReadGame:
    """`read_pg`, keeping where things were written, with the warnings about the game."""
    sections, layout_problems = _sections(text, file)
    resolver = _Resolver(file, sections, layout_problems)
    game = resolver.game()
    located = ReadGame(game, (), {k: tuple(v) for k, v in resolver.set_spans.items()}, resolver.cell_spans,
                       {name: s.header for name, s in resolver.by_name.items()}, file)
    return replace(located, warnings=tuple(_first_move_warnings(located)))


def load_pg(path: str | Path) -> PositionalGame:
    return read_pg(read_source(path), str(path))


def load_pg_located(path: str | Path) -> ReadGame:
    return read_pg_located(read_source(path), str(path))


def _first_move_warnings(read: ReadGame) -> list[Diagnostic]:
    """A `#firstmoves` cell owned before play can never be claimed: the game means
    something else, and when no first move is left the game is over at once.  A
    cut that drops a whole class of symmetric openings asks another question."""
    game = read.game
    if game.first_moves is None:
        return []
    taken = game.black_initials | game.white_initials
    found = []
    spans = read.cell_spans["firstmoves"]
    for cell in sorted(game.first_moves & taken, key=lambda c: (spans[c].line, spans[c].column)):
        owner = "Black" if cell in game.black_initials else "White"
        found.append(warning(f"first-move cell '{game.cells[cell]}' is owned by {owner} before play, so no first move can claim it",
                             spans[cell], "first-move cells that are open at the start"))
    if game.first_moves <= taken:
        found.append(warning("no '#firstmoves' cell is open, so the first mover has no move: the game is over before it starts, "
                             "and Black has not won", read.headers["firstmoves"], "at least one open cell in '#firstmoves'"))
        return found  # said already: every opening is left out
    found.extend(_cut_warnings(read))
    return found


NAMED = 12  # cells a first-move warning names before it counts the rest


def _cut_warnings(read: ReadGame) -> list[Diagnostic]:
    """`#firstmoves` is a symmetry cut: one that drops an opening with no symmetric image among the
    listed cells answers another question than the game's, and every command would give that
    answer without a word (issue 42: the N-pentomino's 5x5 game, a Black win by c3, 'no winning strategy'
    with c3 left out).  One warning on the section, naming the openings no listed cell stands for,
    and one cell of each class in the fix (every one: the fix is what to write)."""
    game = read.game
    classes = first_moves_left_out(game)
    if not classes:
        return []
    dropped = [c for orbit in classes for c in orbit]
    moves = "move" if len(dropped) == 1 else "moves"
    message = (f"'#firstmoves' leaves out the first {moves} {_names(game, dropped)}, which no symmetry of the board "
               "turns into a listed cell, so every verdict is for the game with the first move cut to the listed "
               "cells, not for the game without the cut")
    fix = " ".join(game.cells[orbit[0]] for orbit in classes)  # all of them: what to paste into the section
    hint = f"'#firstmoves' with a cell of each class of symmetric openings: add {fix}, or drop the section to allow every open cell"
    return [warning(message, read.headers["firstmoves"], hint)]


def _names(game: PositionalGame, cells: list[int]) -> str:
    """'a1 b2 c3', or the first NAMED of them and how many more."""
    shown = " ".join(game.cells[c] for c in cells[:NAMED])
    return shown if len(cells) <= NAMED else f"{shown} and {len(cells) - NAMED} more"


def did_you_mean(word: str, choices, prefix: str = "") -> str:
    """'; did you mean 'b2'?' for the closest of `choices`, or nothing when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{prefix}{close[0]}'?" if close else ""


# -- layout -----------------------------------------------------------------


def _sections(text: str, file: str) -> tuple[list[Section], list[Diagnostic]]:
    """The sections and what is wrong with the layout; what can be read is read
    (unknown sections and malformed names left out), so that the names are
    checked too and every problem is reported in one pass."""
    if text.startswith("\ufeff"):
        text = text[1:]
    problems: list[Diagnostic] = []
    sections: list[Section] = []
    current: tuple[str, Span, list] | None = None
    in_unknown = False
    for number, raw in enumerate(text.splitlines(), start=1):
        code = raw.split("%", 1)[0].expandtabs(1)
        tokens = [
            Token(m.group(), Span(file, number, m.start() + 1, number, m.end() + 1)) for m in _TOKEN.finditer(code)
        ]
        if not tokens:
            continue
        if tokens[0].text.startswith("#"):
            if current is not None:
                sections.append(Section(current[0], current[1], tuple(current[2])))
            head = tokens[0]
            name = head.text[1:]
            if name not in SECTIONS:
                hint = f"one of the sections {SECTION_LIST}"
                if not name:
                    hint = f"a section name right after '#': {SECTION_LIST}"
                message = f"unknown section '{head.text}'" + did_you_mean(name, SECTIONS, "#")
                problems.append(error(message, head.span, hint))
                current, in_unknown = None, True  # its lines are not reported again
                continue
            current = (name, head.span, [])
            tokens = tokens[1:]
            if not tokens:
                continue
        if current is None:
            if not in_unknown:
                problems.append(
                    error("names before the first section", tokens[0].span, f"a section header first: {SECTION_LIST}")
                )
                in_unknown = True  # one report for the whole preamble
            continue
        names = []
        for tok in tokens:
            if current[0] != "version" and not _NAME.match(tok.text):
                problems.append(
                    error(
                        f"'{tok.text}' is not a name",
                        tok.span,
                        "names of letters, digits and '_' separated by white space ('%' starts a comment)",
                    )
                )
            else:
                names.append(tok)
        if names:
            current[2].append(tuple(names))
    if current is not None:
        sections.append(Section(current[0], current[1], tuple(current[2])))
    return sections, problems


# -- names ------------------------------------------------------------------


class _Resolver:
    """Turns the sections into a game, collecting every problem on the way."""

    def __init__(self, file: str, sections: list[Section], layout_problems: list[Diagnostic]):
        self.file = file
        self.layout_problems = layout_problems
        self.problems: list[Diagnostic] = []
        self.by_name: dict[str, Section] = {}
        for s in sections:
            first = self.by_name.get(s.name)
            if first is not None:
                self.problems.append(
                    error(
                        f"repeated section '#{s.name}'",
                        s.header,
                        f"a single '#{s.name}' section (the first one is at line {first.header.line})",
                    )
                )
                continue
            self.by_name[s.name] = s
        self.set_spans: dict[str, list[Span]] = {}
        self.cell_spans: dict[str, dict[int, Span]] = {}
        self.end = Span(file, 0, 0, 0, 0)
        if sections:
            last = sections[-1]
            where = last.lines[-1][-1].span if last.lines else last.header
            self.end = Span(file, where.line, where.end_column, where.line, where.end_column + 1)

    def fail(self, message: str, span: Span, hint: str = "") -> None:
        self.problems.append(error(message, span, hint))

    def game(self) -> PositionalGame:
        missing = [name for name in REQUIRED if name not in self.by_name]
        for name in missing:
            self.fail(f"missing section '#{name}'", self.end, FORMS[name])
        if missing:
            raise BddlSyntaxError(_in_order(self.layout_problems + self.problems))
        return self.resolve()

    def resolve(self) -> PositionalGame:
        self.version()
        times = self.declared("times", "time point")
        cells = self.declared("positions", "cell")
        if not times:
            self.fail("the game has no time points", self.by_name["times"].header, FORMS["times"])
        if not cells:
            self.fail("the game has no cells", self.by_name["positions"].header, FORMS["positions"])
        time_index = {t: i for i, t in enumerate(times)}
        cell_index = {c: i for i, c in enumerate(cells)}
        black_times = self.subset("blackturns", time_index, "time point", "#times")
        turns = tuple(BLACK if i in black_times else WHITE for i in range(len(times)))
        black_wins = self.winning_sets("blackwins", cell_index)
        white_wins = self.winning_sets("whitewins", cell_index)
        black_initials = self.subset("blackinitials", cell_index, "cell", "#positions")
        white_initials = self.subset("whiteinitials", cell_index, "cell", "#positions")
        self.disjoint_initials(black_initials, white_initials, cells)
        first_moves = None
        if "firstmoves" in self.by_name:
            first_moves = self.subset("firstmoves", cell_index, "cell", "#positions")
            if not first_moves and not self.by_name["firstmoves"].tokens:
                self.fail(
                    "'#firstmoves' names no cell, so the first move could claim nothing",
                    self.by_name["firstmoves"].header,
                    "the cells the first move may claim; leave the section out to allow every open cell",
                )
        graph = self.graph(cell_index, black_wins, white_wins)
        if self.layout_problems:
            raise BddlSyntaxError(_in_order(self.layout_problems + self.problems))
        if self.problems:
            raise BddlSemanticError(self.problems)
        return PositionalGame(
            cells=cells,
            times=times,
            turns=turns,
            black_wins=black_wins,
            white_wins=white_wins,
            black_initials=black_initials,
            white_initials=white_initials,
            first_moves=first_moves,
            graph=graph,
            coordinates=coordinates_from_names(cells),
        )

    def version(self) -> None:
        section = self.by_name.get("version")
        if section is None:
            return
        tokens = section.tokens
        if not tokens:
            self.fail("'#version' gives no version", section.header, FORMS["version"])
        elif tokens[0].text != VERSION:
            self.fail(
                f"unsupported version '{tokens[0].text}'",
                tokens[0].span,
                f"version {VERSION} (Positional Game Description 1.0)",
            )
        for extra in tokens[1:]:
            self.fail(f"unexpected '{extra.text}' after the version", extra.span, FORMS["version"])

    def declared(self, name: str, what: str) -> tuple[str, ...]:
        seen: dict[str, Token] = {}
        for tok in self.by_name[name].tokens:
            first = seen.get(tok.text)
            if first is not None:
                self.fail(
                    f"{what} '{tok.text}' declared twice",
                    tok.span,
                    f"each {what} once in '#{name}' (first at line {first.span.line}, column {first.span.column})",
                )
                continue
            seen[tok.text] = tok
        return tuple(seen)

    def lookup(self, tok: Token, index: dict[str, int], what: str, where: str) -> int | None:
        i = index.get(tok.text)
        if i is None:
            self.fail(
                f"{what} '{tok.text}' is not declared in {where}" + did_you_mean(tok.text, index),
                tok.span,
                f"a {what} from {where}",
            )
        return i

    def subset(self, name: str, index: dict[str, int], what: str, where: str) -> frozenset[int]:
        section = self.by_name.get(name)
        if section is None:
            return frozenset()
        chosen: dict[int, Token] = {}
        for tok in section.tokens:
            i = self.lookup(tok, index, what, where)
            if i is None:
                continue
            if i in chosen:
                self.fail(
                    f"{what} '{tok.text}' given twice in '#{name}'",
                    tok.span,
                    f"each {what} once (first at line {chosen[i].span.line}, column {chosen[i].span.column})",
                )
                continue
            chosen[i] = tok
        self.cell_spans[name] = {i: tok.span for i, tok in chosen.items()}
        return frozenset(chosen)

    def winning_sets(self, name: str, index: dict[str, int]) -> tuple[frozenset[int], ...]:
        section = self.by_name.get(name)
        if section is None:
            return ()
        sets = []
        spans = self.set_spans.setdefault(name, [])
        for line in section.lines:
            spans.append(Span(self.file, line[0].span.line, line[0].span.column, line[-1].span.end_line, line[-1].span.end_column))
            members: dict[int, Token] = {}
            for tok in line:
                i = self.lookup(tok, index, "cell", "#positions")
                if i is None:
                    continue
                if i in members:
                    self.fail(
                        f"cell '{tok.text}' appears twice in one winning set",
                        tok.span,
                        f"each cell once per line of '#{name}' (one winning set per line)",
                    )
                    continue
                members[i] = tok
            sets.append(frozenset(members))
        return tuple(sets)

    def disjoint_initials(self, black: frozenset[int], white: frozenset[int], cells: tuple[str, ...]) -> None:
        both = black & white
        if not both:
            return
        for tok in self.by_name["whiteinitials"].tokens:
            if tok.text in cells and cells.index(tok.text) in both:
                self.fail(
                    f"cell '{tok.text}' is owned by both sides before play",
                    tok.span,
                    "a cell in at most one of '#blackinitials' and '#whiteinitials'",
                )

    def graph(self, index: dict[str, int], black_wins, white_wins) -> BorderGraph | None:
        present = [name for name in HEX_SECTIONS if name in self.by_name]
        if not present:
            return None
        if len(present) < len(HEX_SECTIONS):
            absent = [name for name in HEX_SECTIONS if name not in self.by_name]
            self.fail(
                f"a Hex game needs '#{absent[0]}' too",
                self.by_name[present[0]].header,
                "all three of '#neighbours', '#startboarder' and '#endboarder' (Q-sage's Hex sections), or none",
            )
            return None
        for name, sets in (("blackwins", black_wins), ("whitewins", white_wins)):
            if sets:
                self.fail(
                    f"a Hex game (with '#neighbours') cannot have winning sets in '#{name}'",
                    self.by_name[name].lines[0][0].span,
                    "an empty '#blackwins': Black's goal is a chain of Black cells joining the two borders",
                )
        adjacent: dict[int, set[int]] = {i: set() for i in index.values()}
        listed: dict[int, Token] = {}
        for line in self.by_name["neighbours"].lines:
            cell = self.lookup(line[0], index, "cell", "#positions")
            if cell is None:
                continue
            if cell in listed:
                self.fail(
                    f"cell '{line[0].text}' has two lines in '#neighbours'",
                    line[0].span,
                    f"one line per cell: the cell, then all its neighbours (first at line {listed[cell].span.line})",
                )
                continue
            listed[cell] = line[0]
            for tok in line[1:]:
                other = self.lookup(tok, index, "cell", "#positions")
                if other is None:
                    continue
                if other == cell:
                    self.fail(f"cell '{tok.text}' is listed as its own neighbour", tok.span, FORMS["neighbours"])
                elif other in adjacent[cell]:
                    self.fail(f"neighbour '{tok.text}' given twice", tok.span, FORMS["neighbours"])
                else:
                    adjacent[cell].add(other)
        names = {i: c for c, i in index.items()}
        for line in self.by_name["neighbours"].lines:
            cell = index.get(line[0].text)
            if cell is None or listed.get(cell) is not line[0]:
                continue
            for tok in line[1:]:
                other = index.get(tok.text)
                if other is not None and other != cell and other in listed and cell not in adjacent[other]:
                    self.fail(
                        f"'{line[0].text}' lists '{tok.text}' as a neighbour, but '{tok.text}' does not list '{line[0].text}'",
                        tok.span,
                        f"a symmetric relation: add '{names[cell]}' to the line of '{tok.text}'",
                    )
        start = self.subset("startboarder", index, "cell", "#positions")
        end = self.subset("endboarder", index, "cell", "#positions")
        for name, border in (("startboarder", start), ("endboarder", end)):
            if not border and not self.by_name[name].tokens:
                self.fail(f"'#{name}' names no cell", self.by_name[name].header, FORMS[name])
        return BorderGraph(
            neighbours=tuple(tuple(sorted(adjacent[i])) for i in range(len(index))),
            start_border=start,
            end_border=end,
        )


def _in_order(problems: list[Diagnostic]) -> list[Diagnostic]:
    """By place in the file (a stable sort: problems at one place keep their order)."""
    return sorted(problems, key=lambda d: (d.span.line, d.span.column))
