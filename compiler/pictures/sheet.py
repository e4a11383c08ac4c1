"""The model sheet: one SVG page that shows what a game is.

The board with its initial stones; the turn order (who plays each ply, so a
(p,q) game's runs show); each side's goals side by side as small multiples
(a `.pg` game's winning sets highlighted on the board, Hex's borders, a BDDL
problem's goal patterns relative to (?x, ?y)); a BDDL domain's actions as
precondition -> effect patterns; a `.pg` game's first-move cells.  A goal
shape placed wrong or a winning line missing shows at a glance, where the
text form needs reading coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bddl.rules import BLACK, WHITE, GameRules

from .board import Layout, board_elements, layout
from .patterns import PATTERN_UNIT, board_pattern, board_unit, fixed, frame, legend, pattern
from .svg import document, label, num

SHEET_WIDTH = 960.0
MARGIN = 24.0
GAP = 14.0
SMALL_WIDTH = 120.0  # a small multiple's board, at most
MAX_MULTIPLES = 120  # per section; the rest are counted, not drawn
HIGHLIGHT = {BLACK: "#f2b134", WHITE: "#7fb3e6"}
FIRST_MOVES = "#9ad17a"

Draw = Callable[[float, float], list[str]]


@dataclass(frozen=True)
class Item:
    """One small multiple: its size and how to draw it at a given top-left corner."""

    width: float
    height: float
    draw: Draw


class Sheet:
    """A page filled top to bottom: headings, lines of text and rows of items that wrap."""

    def __init__(self, width: float = SHEET_WIDTH):
        self.width = width
        self.y = MARGIN
        self.body: list[str] = []

    def heading(self, words: str, size: float = 15) -> None:
        self.y += size * 0.6
        self.body.append(label(MARGIN, self.y, words, size, anchor="start", extra=' font-weight="bold"'))
        self.y += size

    def line(self, words: str, size: float = 12) -> None:
        self.body.append(label(MARGIN, self.y, words, size, anchor="start", extra=' fill="#333333"'))
        self.y += size * 1.5

    def row(self, items: list[Item], gap: float = GAP) -> None:
        x, height = MARGIN, 0.0
        for item in items:
            if x > MARGIN and x + item.width > self.width - MARGIN:
                self.y += height + gap
                x, height = MARGIN, 0.0
            self.body += item.draw(x, self.y)
            x += item.width + gap
            height = max(height, item.height)
        self.y += height + GAP

    def svg(self, title: str) -> str:
        return document(self.width, self.y + MARGIN, self.body, title)


def small_board(rules: GameRules, board: Layout, fills: dict[int, str], caption: str, kind: str) -> Item:
    """The board at small-multiple size, `fills` colouring the cells that matter, a caption below.
    `kind` and the cells go in data attributes, so a program can read the sheet back."""
    scale = min(0.6, SMALL_WIDTH / board.width)
    cells = " ".join(str(c) for c in sorted(fills))

    def draw(x: float, y: float) -> list[str]:
        out = [f'<g class="multiple" data-kind="{kind}" data-cells="{cells}" transform="translate({num(x)},{num(y)}) scale({num(scale)})">']
        out += board_elements(rules, board, rules.initial, fills=fills, ids=False)
        out.append("</g>")
        out.append(label(x + board.width * scale / 2, y + board.height * scale + 9, caption, 10, extra=' fill="#333333"'))
        return out

    return Item(max(board.width * scale, 6.0 * len(caption)), board.height * scale + 18, draw)


def text_item(words: str) -> Item:
    return Item(6.5 * len(words), 16, lambda x, y: [label(x, y + 6, words, 11, anchor="start", extra=' fill="#333333"')])


def model_sheet(model) -> str:
    """The model sheet of a `compiler.model.GameModel` as an SVG file."""
    rules = model.rules
    sheet = Sheet()
    names = " ".join(Path(p).name for p in model.paths)
    sheet.heading(names, 17)
    sheet.line(f"{model.words.model} · {len(rules.cells)} cells · depth {rules.depth} · Black wins by reaching its goal within the depth")
    board = layout(rules)
    full = Item(board.width, board.height, lambda x, y: [f'<g transform="translate({num(x)},{num(y)})">'] + board_elements(rules, board, rules.initial) + ["</g>"])
    sheet.heading("The board and the initial position")
    sheet.row([full])
    _turns(sheet, model)
    model.goal_sheet(sheet, layout(rules, labels=False))  # the language's own goals: pg_goals or bddl_goals
    return sheet.svg(f"{names}: model sheet")


def _turns(sheet: Sheet, model) -> None:
    rules = model.rules
    sides = [rules.to_move(ply) for ply in range(rules.depth)]
    runs: list[tuple[str, int]] = []
    for side in sides:
        runs.append((side, runs.pop()[1] + 1) if runs and runs[-1][0] == side else (side, 1))
    pattern_words = "alternating" if all(n == 1 for _, n in runs) else "in runs: " + " ".join(f"{s[0].upper()}{n}" for s, n in runs[:12])
    sheet.heading("Turn order")
    sheet.line(f"{sides[0].capitalize() if sides else 'Nobody'} moves first, {pattern_words}; ply 1 to {rules.depth} below (B Black, W White)")
    size = 22.0
    items = []
    for ply, side in enumerate(sides):

        def draw(x: float, y: float, ply: int = ply, side: str = side) -> list[str]:
            fill, ink = ("#161616", "#ffffff") if side == BLACK else ("#ffffff", "#161616")
            return [
                f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" fill="{fill}" stroke="#161616"/>',
                label(x + size / 2, y + size / 2 - 3, str(ply + 1), 9, extra=f' fill="{ink}"'),
                label(x + size / 2, y + size / 2 + 6, side[0].upper(), 8, extra=f' fill="{ink}"'),
            ]

        items.append(Item(size, size, draw))
    sheet.row(items, gap=2)
    first = model.first_moves()
    if first is not None:
        cells = sorted(first)
        sheet.line("The first move may claim only the cells highlighted: " + " ".join(rules.cells[c].name for c in cells))
        sheet.row([small_board(rules, layout(rules, labels=False), {c: FIRST_MOVES for c in cells}, "first moves", "first-moves")])


def _sets(sheet: Sheet, rules: GameRules, board: Layout, side: str, sets: list[frozenset[int]], what: str) -> None:
    sheet.heading(f"{side.capitalize()}'s {what} ({len(sets)})")
    if not sets:
        sheet.line(f"{side.capitalize()} has none: it cannot win by a {what[:-1]}")
        return
    items = [small_board(rules, board, {c: HIGHLIGHT[side] for c in cells}, f"{what[:-1]} {k + 1}", f"{side}-set") for k, cells in enumerate(sets[:MAX_MULTIPLES])]
    sheet.row(items)
    if len(sets) > MAX_MULTIPLES:
        sheet.line(f"... and {len(sets) - MAX_MULTIPLES} more, not drawn")


def pg_goals(sheet: Sheet, model, board: Layout) -> None:
    """A positional game's goals: the winning sets, or Hex's two borders."""
    game, rules = model.pg, model.rules
    graph = game.graph
    if graph is not None and not game.black_wins:
        sheet.heading("Black's goal: a chain of Black cells joining the two borders")
        borders = {c: HIGHLIGHT[BLACK] for c in graph.start_border | graph.end_border}
        sheet.row([small_board(rules, board, borders, "Black's borders", "black-borders")])
    else:
        _sets(sheet, rules, board, BLACK, list(game.black_wins), "winning sets")
    _sets(sheet, rules, board, WHITE, list(game.white_wins), "winning sets")


def bddl_goals(sheet: Sheet, model) -> None:
    """A BDDL model's goals: its patterns, placed at every (?x,?y) where they fit."""
    problem, domain = model.bddl.problem, model.bddl.domain
    sheet.heading("Patterns, placed at every (?x,?y) where they fit (a goal of fixed cells: on the board)")
    keys, width = legend(MARGIN, sheet.y + 4)
    sheet.body += keys
    sheet.y += 22
    for side, goals in ((BLACK, problem.black_goals), (WHITE, problem.white_goals)):
        sheet.heading(f"{side.capitalize()}'s goals ({len(goals)})")
        if not goals:
            sheet.line(f"{side.capitalize()} has no goal: it wins only when the other side cannot move")
            continue
        sheet.row([
            _fixed_item(goal, problem.width, problem.height, f"goal {k + 1}", HIGHLIGHT[side], f"{side}-goal")
            if fixed(goal) else _condition_item([goal], f"goal {k + 1}", HIGHLIGHT[side], f"{side}-goal")
            for k, goal in enumerate(goals[:MAX_MULTIPLES])
        ])
        if len(goals) > MAX_MULTIPLES:
            sheet.line(f"... and {len(goals) - MAX_MULTIPLES} more, not drawn")
    for side, actions in ((BLACK, domain.black_actions), (WHITE, domain.white_actions)):
        sheet.heading(f"{side.capitalize()}'s actions ({len(actions)}): precondition -> effect")
        if not actions:
            sheet.line(f"{side.capitalize()} has no action: it loses when it must move")
            continue
        sheet.row([_condition_item([a.precondition, a.effect], a.name, HIGHLIGHT[side], f"{side}-action") for a in actions[:MAX_MULTIPLES]])


def _fixed_item(condition, width: int, height: int, caption: str, fill: str, kind: str) -> Item:
    """A goal of absolute cells, on the whole board."""
    unit = board_unit(width, height)

    def draw(x: float, y: float) -> list[str]:
        out = [f'<g class="pattern" data-kind="{kind}" data-board="{width} {height}">']
        out += board_pattern(condition, width, height, x, y, fill)
        out.append(label(x, y + height * unit + 9, caption, 10, anchor="start", extra=' fill="#333333"'))
        return out + ["</g>"]

    return Item(max(width * unit, 6.0 * len(caption)), height * unit + 16, draw)


def _condition_item(conditions: list, caption: str, fill: str, kind: str) -> Item:
    """One goal, or an action's precondition and effect side by side with an arrow, in one frame."""
    box = frame(conditions)
    arrow = 26.0
    width = len(conditions) * box.width + (len(conditions) - 1) * arrow

    def draw(x: float, y: float) -> list[str]:
        out = [f'<g class="pattern" data-kind="{kind}">']
        cursor = x
        for k, condition in enumerate(conditions):
            out += pattern(condition, box, cursor, y, fill)
            cursor += box.width
            if k < len(conditions) - 1:
                mid = y + box.top + (box.height - box.top) / 2
                out.append(f'<line x1="{num(cursor + 5)}" y1="{num(mid)}" x2="{num(cursor + arrow - 5)}" y2="{num(mid)}" stroke="#444444" stroke-width="1.5"/>')
                out.append(f'<polygon points="{num(cursor + arrow - 5)},{num(mid - 4)} {num(cursor + arrow - 1)},{num(mid)} {num(cursor + arrow - 5)},{num(mid + 4)}" fill="#444444"/>')
                cursor += arrow
        out.append(label(x, y + box.height + 9, caption, 10, anchor="start", extra=' fill="#333333"'))
        return out + ["</g>"]

    return Item(max(width, 6.0 * len(caption)), max(box.height + 16, PATTERN_UNIT), draw)
