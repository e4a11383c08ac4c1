"""The strategy explorer: one self-contained HTML file that walks a certificate.

The page holds the board drawn once in SVG (a `<g id="cN">` per cell, as
`board.py` draws it), the certificate's nodes as compact JSON, and a short
script that sets each cell's stone from a node's `position` string: the
file stays small, and it opens in any browser without a server or network.

At a node where the strategist (Black for "black-wins", White for
"no-black-win") moves, the page shows its move; where the other side moves,
every reply is a button, and a click on a board cell plays the reply that
changes it.  Back, forward and start walk the line of play so far.

The certificate format is docs/certificates.md's (versions 1 to 4).  The
board always shows the position actually played, and the moves offered are
named as played: a node reached through a symmetry (the certificate stores
the position's image) or a swap (a reply answered as after a sibling move,
its node the sibling's) is read through the map from the stored cells to
the played ones, which the page composes along the line (a symmetry's
inverse, and for a swap the exchange of the two cells: the strategy plays
as if the stone were on the sibling's cell).  One quiet line under the
status says when the stored node differs from what is shown, and why.
Showing the stored image instead put stones on cells nobody played (White
b3 played, White a1 shown), with the line of play saying b3.  A line ended by
White's pairing strategy (version 3) lists the pairs in words.  A reply a
node leaves out (version 4, "others_lose_at_once") is offered with the
rest, and leads to a node of the page's own where the strategy plays its
win at once.  This module
reads it for showing, not for checking: it replays each move with the rules
to know which cells it changes, and so refuses a certificate that names an
illegal move or whose positions do not follow from the moves, but the
verdict is the independent checker's (`bddlc certify`) to give.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from bddl.at_once import answer_at_once
from bddl.rules import BLACK, WHITE, GameRules, Position

from .board import GROUND, STONES, WON, board_elements, changed_cells, layout, position_string, state_of
from .goals import winning_cells
from .svg import ascii_only, num, text

FORMAT, VERSIONS = "bddlc-certificate", (1, 2, 3, 4)
CLAIMS = {"black-wins": BLACK, "no-black-win": WHITE}
HINT = "#9ad17a"  # the ground of the cells the strategist's move changes
SYMBOL = {BLACK: "B", WHITE: "W", "open": "."}


class CertificateError(ValueError):
    """A certificate this game's explorer cannot show: the message says why (exit status 1)."""


@dataclass(frozen=True)
class Certificate:
    claim: str
    depth: int
    files: tuple[str, ...]
    sha256: tuple[str, ...]
    root: int
    nodes: tuple[dict, ...]
    symmetries: tuple[tuple[int, ...], ...] = ()


def read_certificate(data: object) -> Certificate:
    """The parts of a parsed certificate the explorer uses, with their shapes checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CertificateError(f"not a bddlc certificate (no \"format\": \"{FORMAT}\")")
    if data.get("version") not in VERSIONS:
        raise CertificateError(f"certificate version {data.get('version')!r}; this bddlc reads versions {', '.join(map(str, VERSIONS))}")
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("depth"), int):
        raise CertificateError("the certificate's \"game\" has no \"depth\"")
    if data.get("claim") not in CLAIMS:
        raise CertificateError(f"unknown claim {data.get('claim')!r}: expected one of {', '.join(CLAIMS)}")
    nodes = data.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise CertificateError("the certificate has no \"nodes\"")
    for k, node in enumerate(nodes):
        if not isinstance(node, dict) or node.get("id") != k or not isinstance(node.get("moves"), list):
            raise CertificateError(f"node {k}: expected {{\"id\": {k}, \"ply\": ..., \"position\": ..., \"moves\": [...]}} (nodes listed in order of ids)")
    root = data.get("root", 0)
    if not isinstance(root, int) or not 0 <= root < len(nodes):
        raise CertificateError(f"the root {root!r} is not a node")
    symmetries = data.get("symmetries", [])
    cells = len(data.get("cells") or ()) if isinstance(data.get("cells"), list) else None
    if not isinstance(symmetries, list) or not all(_is_permutation(p, cells) for p in symmetries):
        raise CertificateError("the certificate's \"symmetries\" are not permutations of its cells")
    return Certificate(data["claim"], game["depth"], tuple(game.get("files", ())), tuple(game.get("sha256", ())), root, tuple(nodes),
                       tuple(tuple(p) for p in symmetries))


def _is_permutation(perm: object, cells: int | None) -> bool:
    return (isinstance(perm, list) and all(isinstance(i, int) for i in perm) and sorted(perm) == list(range(len(perm)))
            and (cells is None or len(perm) == cells))


def file_hashes(paths: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths)


def parse_position(rules: GameRules, where: str, line: object, ply: object) -> Position:
    n = len(rules.cells)
    if not isinstance(line, str) or len(line) != n or set(line) - set(".BW"):
        raise CertificateError(f"{where}: the position must be {n} characters of '.', 'B' and 'W'")
    if not isinstance(ply, int) or ply < 0:
        raise CertificateError(f"{where}: no ply")
    black = sum(1 << i for i, c in enumerate(line) if c == "B")
    white = sum(1 << i for i, c in enumerate(line) if c == "W")
    return Position(black, white, ply)


def explorer_data(rules: GameRules, certificate: Certificate, connection: bool = False) -> dict:
    """The nodes as the page's script reads them: per node its ply, position,
    whether a move ends the game and which cells each move changes.
    `connection`: Black's goal joins borders (Hex), which a pairing's words name."""
    from bddl.notation import MoveInputError

    nodes = []
    answered = _AnsweredAtOnce(rules, CLAIMS[certificate.claim], len(certificate.nodes))
    positions = [parse_position(rules, f"node {k}", node.get("position"), node.get("ply")) for k, node in enumerate(certificate.nodes)]
    if positions[certificate.root] != rules.initial:
        raise CertificateError(f"the root (node {certificate.root}) is not the game's initial position")
    for k, (node, position) in enumerate(zip(certificate.nodes, positions)):
        side = rules.to_move(position.ply)
        edges = []
        legal = {play.text: play for play in rules.plays(position)}  # once per node: parsing each move would list them again
        for entry in node["moves"]:
            move, to = (entry.get("move"), entry.get("to")) if isinstance(entry, dict) else (None, None)
            swap = entry.get("swap") if isinstance(entry, dict) else None
            if swap is not None:
                sibling = next((e for e in node["moves"] if isinstance(e, dict) and e.get("move") == swap and "swap" not in e), None)
                if sibling is None:
                    raise CertificateError(f"node {k}: the reply {move!r} is answered as after {swap!r}, which is not a reply listed here")
                entry = sibling | {"move": move}
                to = entry.get("to")
            play = legal.get(move) if isinstance(move, str) else None
            if play is None:
                try:
                    play = rules.parse_play(position, str(move))
                except MoveInputError as exc:
                    raise CertificateError(f"node {k}: the move {move!r} is not legal here: {exc}") from None
            symmetry = entry.get("symmetry")
            won: list[int] = []
            if to is None:
                if rules.won(play.after, side):
                    result, won = f"{side.capitalize()} has won", sorted(winning_cells(rules, play.after, side))
                else:
                    result = "no plies left: Black has not won"
            elif not isinstance(to, int) or not 0 <= to < len(positions):
                raise CertificateError(f"node {k}: the move {move!r} leads to {to!r}, which is not a node")
            elif symmetry is None and swap is None and positions[to] != play.after:
                raise CertificateError(f"node {k}: node {to} does not hold the position after {play.text}")
            elif symmetry is not None and not _symmetry_holds(certificate, symmetry, play.after if swap is None else None, positions[to]):
                raise CertificateError(f"node {k}: the move {move!r} names symmetry {symmetry!r}, which does not map the position "
                                       f"after {play.text} onto node {to}'s")
            else:
                result = None
            diff = _diff(position, play.after, len(rules.cells))
            edges.append([play.text, to, diff, symmetry, result] + ([won, swap] if won or swap else []))
        if node.get("others_lose_at_once") is True:  # offered among the rest, in the rules' order
            order = {text: i for i, text in enumerate(legal)}
            edges = sorted(edges + answered.edges(k, position, legal, node["moves"]), key=lambda edge: order[edge[0]])
        stuck = None
        pairing = node.get("pairing")
        if not edges and isinstance(pairing, list):
            pairs = ", ".join("-".join(map(str, pair)) for pair in pairing if isinstance(pair, list))
            if not pairs:
                stuck = "White needs no pairs: Black cannot complete any of its goals with the moves left, so the certificate ends this line here"
            elif connection:  # Hex: the pairs block the short paths
                stuck = (f"White pairs the cells {pairs}: every path joining Black's borders that Black could still complete "
                         "with its moves left holds a pair, and White answers a claim of a paired cell with its partner, so "
                         "Black does not win within the depth; the certificate ends this line here")
            else:
                stuck = (f"White pairs the cells {pairs}: every winning set of Black's that Black could still complete with its "
                         "moves left holds a pair, and White answers a claim of a paired cell with its partner, so Black does "
                         "not win within the depth; the certificate ends this line here")
        elif not edges and node.get("black_cannot_win") is True:
            stuck = "Black cannot reach its goal with the moves left, so the certificate ends this line here"
        elif not edges:
            winner = rules.stuck_winner(side)
            stuck = f"{side.capitalize()} has no legal move: " + (f"{winner.capitalize()} has won" if winner else "the game is over, Black has not won")
        nodes.append([position.ply, position_string(position, len(rules.cells)), edges, stuck])
    nodes += answered.nodes
    n = len(rules.cells)
    return {"depth": certificate.depth, "root": certificate.root, "strategist": CLAIMS[certificate.claim], "nodes": nodes,
            "sides": [rules.to_move(ply) for ply in range(certificate.depth)], "names": [c.name for c in rules.cells],
            "inverses": [_inverse(perm, n) for perm in certificate.symmetries]}


class _AnsweredAtOnce:
    """The replies the certificate leaves out (version 4), each played to a node of the page's own
    after the certificate's: the strategist to move there, its one move the win at once
    (`answer_at_once`), so that a line through a reply left out goes on as any other, to the goal.
    Positions reached twice share their node."""

    def __init__(self, rules: GameRules, strategist: str, first_id: int):
        self.rules, self.strategist, self.first_id = rules, strategist, first_id
        self.nodes: list[list] = []
        self.ids: dict[Position, int] = {}

    def edges(self, k: int, position: Position, legal: dict, entries: list) -> list[list]:
        listed = {entry.get("move") for entry in entries if isinstance(entry, dict)}
        return [self.edge(k, position, play) for move, play in legal.items() if move not in listed]

    def edge(self, k: int, position: Position, play) -> list:
        cells = len(self.rules.cells)
        answer = answer_at_once(self.rules, play, self.strategist)
        if answer is None:
            raise CertificateError(f"node {k}: the reply {play.text!r} is left out, but after it {self.strategist.capitalize()} "
                                   "has no move that wins at once")
        after = play.after
        if after not in self.ids:
            self.ids[after] = self.first_id + len(self.nodes)
            won = sorted(winning_cells(self.rules, answer.after, self.strategist))
            win = [answer.text, None, _diff(after, answer.after, cells), None, f"{self.strategist.capitalize()} has won", won, None]
            self.nodes.append([after.ply, position_string(after, cells), [win], None])
        return [play.text, self.ids[after], _diff(position, after, cells), None, None]


def _diff(before: Position, after: Position, cells: int) -> list[list]:
    """The cells a move changes, each with what it holds after the move."""
    return [[c, SYMBOL[state_of(after, c)]] for c in sorted(changed_cells(before, after, cells))]


def _inverse(perm: tuple[int, ...], n: int) -> list[int]:
    """The stored-to-played map of one symmetry: cell perm[i] of a stored image is cell i as played."""
    inverse = [0] * n
    for i, j in enumerate(perm):
        inverse[j] = i
    return inverse


def _image(position: Position, perm: tuple[int, ...]) -> Position:
    def moved(mask: int) -> int:
        return sum(1 << perm[i] for i in range(len(perm)) if mask >> i & 1)

    return Position(moved(position.black), moved(position.white), position.ply)


def _symmetry_holds(certificate: Certificate, symmetry: object, after: Position | None, stored: Position) -> bool:
    """Is `symmetry` one of the certificate's, mapping `after` (None: a swap's, checked where its
    sibling is) onto the stored position?  The page maps the stored node back by its inverse:
    a wrong one would show a position nobody played."""
    if not isinstance(symmetry, int) or not 0 <= symmetry < len(certificate.symmetries):
        return False
    return after is None or _image(after, certificate.symmetries[symmetry]) == stored


def explorer_html(model, certificate_data: object, certificate_name: str) -> str:
    """The explorer page for a certificate of `model` (a `compiler.model.GameModel`).

    Raises CertificateError when the certificate is not this game's (other
    files, another depth, other cells) or names moves the rules refuse."""
    rules = model.rules
    certificate = read_certificate(certificate_data)
    names = [c.name for c in rules.cells]
    if isinstance(certificate_data, dict) and certificate_data.get("cells") not in (None, names):
        raise CertificateError(f"this is another game's certificate: its cells are not those of {_files(model.paths)}; "
                               + _its_game(certificate, certificate_name))
    if certificate.sha256 and certificate.sha256 != file_hashes(model.paths):
        raise CertificateError(f"the game files {_files(model.paths)} differ from those the certificate was written for "
                               f"(their sha256 do not match); " + _its_game(certificate, certificate_name))
    if certificate.depth != rules.depth:
        raise CertificateError(f"the certificate is for depth {certificate.depth}, the game is opened at depth {rules.depth}: "
                               f"drop --depth (the explorer opens the game at the certificate's depth)")
    data = explorer_data(rules, certificate, connection=model.connection_goal())
    board = layout(rules)
    svg = [f'<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{num(board.width)}" height="{num(board.height)}" viewBox="0 0 {num(board.width)} {num(board.height)}">']
    svg += board_elements(rules, board, rules.initial)
    svg.append("</svg>")
    title = " ".join(Path(p).name for p in model.paths)
    claim = "Black wins" if certificate.claim == "black-wins" else "Black does not win"
    strategist = CLAIMS[certificate.claim]
    summary = (
        f"{claim} within {plural(certificate.depth, 'ply', 'plies')}: {strategist.capitalize()}'s strategy, from {certificate_name} "
        f"({plural(len(certificate.nodes), 'position')}). {_how_to_go_on(rules.to_move(rules.initial.ply), strategist)}"
    )
    style = {"stones": {state: list(v) for state, v in STONES.items()}, "ground": GROUND, "hint": HINT, "won": WON}
    payload = json.dumps({"data": data, "style": style}, sort_keys=True, separators=(",", ":"), ensure_ascii=True).replace("<", "\\u003c")
    page = PAGE.format(title=text(title), summary=text(summary), board="\n".join(svg), data=payload, script=SCRIPT, css=CSS)
    return ascii_only(page)


def _files(paths) -> str:
    return " ".join(str(p) for p in paths)


def _its_game(certificate: Certificate, certificate_name: str) -> str:
    """How to open the certificate with the game it was written for: the files it names."""
    if not certificate.files:
        return "open it with the game it was written for"
    return (f"it was written for {_files(certificate.files)} (depth {certificate.depth}): "
            f"bddlc show {_files(certificate.files)} --certificate {certificate_name} -o strategy.html")


def _how_to_go_on(first: str, strategist: str) -> str:
    """What to click at the start: the strategist's move if it plays first, else the other side's choice."""
    other = WHITE if strategist == BLACK else BLACK
    if first == strategist:
        return (f"{strategist.capitalize()} moves first: click its move, or the cell it plays, to go on; "
                f"where {other.capitalize()} moves, choose one of its moves.")
    return f"{other.capitalize()} moves first: click one of its moves, or the cell it plays, to go on."


def plural(count: int, word: str, words: str | None = None) -> str:
    """"1 position", "2 positions": a count with its noun in the number it takes."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


CSS = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
#summary { font-size: 13px; color: #444; margin-bottom: 10px; max-width: 900px; }
#main { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
#panel { min-width: 280px; max-width: 520px; font-size: 14px; }
#panel div { margin-bottom: 8px; }
.cell { cursor: pointer; }
button { font: inherit; margin: 2px; padding: 3px 9px; border: 1px solid #888; border-radius: 4px; background: #f6f6f6; cursor: pointer; }
button:disabled { color: #aaa; cursor: default; }
button.move { background: #eef4ff; }
button.strategist { background: #e7f6df; font-weight: bold; }
#line { display: flex; flex-wrap: wrap; gap: 2px 10px; }
#line span { cursor: pointer; white-space: nowrap; }
#line span.here { font-weight: bold; text-decoration: underline; }
#status { font-weight: bold; }
#stored { font-size: 12px; color: #777; }
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}: strategy explorer</title>
<style>{css}</style>
</head>
<body>
<h1>{title}</h1>
<div id="summary">{summary}</div>
<div id="main">
<div id="boardbox">
{board}
</div>
<div id="panel">
<div><button id="start" type="button">&#171; start</button><button id="back" type="button">&#8249; back</button><button id="forward" type="button">forward &#8250;</button></div>
<div>ply <span id="ply"></span> of <span id="depth"></span>; plies left: <span id="left"></span></div>
<div id="status"></div>
<div id="stored"></div>
<div id="moves"></div>
<div>line of play (B Black, W White):</div>
<div id="line"></div>
<div id="keys" style="font-size: 12px; color: #666;">keys: &#8592; back, &#8594; forward, Home start</div>
</div>
</div>
<script type="application/json" id="certificate">{data}</script>
<script>{script}</script>
</body>
</html>
"""

SCRIPT = r"""
"use strict";
const PAYLOAD = JSON.parse(document.getElementById("certificate").textContent);
const D = PAYLOAD.data, STYLE = PAYLOAD.style;
const NAME = {black: "Black", white: "White"};
const STATE = {"B": "black", "W": "white", ".": "open"};
const CELLS = D.nodes[D.root][1].length;
const IDENTITY = Array.from({length: CELLS}, (_, i) => i);
// the line of play: each entry a node (or null after the last move of a line), the position played, the move that
// led there as played, and `map`: stored cell c of the node is cell map[c] as played (a symmetry's inverse, a swap's
// exchange of two cells, composed along the line), so that the board always shows what was played
let line = [{node: D.root, pos: D.nodes[D.root][1], move: null, side: null, changed: [], result: null, note: null, won: [], map: IDENTITY}];
let at = 0;

function cell(i) { return document.getElementById("c" + i); }

function played(pos, map) {
  const chars = new Array(pos.length);
  for (let c = 0; c < pos.length; c++) chars[map[c]] = pos[c];
  return chars.join("");
}

function moveText(edge, map) {
  // a move of a game with symmetries or swaps claims one cell, and is written as its name
  return map === IDENTITY || edge[2].length !== 1 ? edge[0] : D.names[map[edge[2][0][0]]];
}

function setBoard(pos, changed, hinted, won) {
  for (let i = 0; i < pos.length; i++) {
    const g = cell(i), state = STATE[pos[i]], look = STYLE.stones[state];
    g.setAttribute("data-state", state);
    const stone = g.querySelector(".stone");
    stone.setAttribute("fill", look[0]); stone.setAttribute("stroke", look[1]); stone.setAttribute("visibility", look[2]);
    g.querySelector(".last").setAttribute("visibility", changed.includes(i) ? "visible" : "hidden");
    g.querySelector(".ground").setAttribute("fill", won.includes(i) ? STYLE.won : hinted.includes(i) ? STYLE.hint : STYLE.ground);
    g.setAttribute("data-won", won.includes(i) ? "yes" : "no");
  }
}

function after(pos, diff, map) {
  const chars = pos.split("");
  for (const [c, s] of diff) chars[map[c]] = s;
  return chars.join("");
}

function compose(map, inner) {
  // stored cell c of the next node is cell inner[c] of this node's stored frame, so cell map[inner[c]] as played
  const composed = inner.map(c => map[c]);
  return composed.every((c, i) => c === i) ? IDENTITY : composed;
}

function play(k) {
  const here = line[at], node = D.nodes[here.node], edge = node[2][k], map = here.map;
  const [, to, diff, symmetry, result] = edge;
  const won = (edge.length > 5 ? edge[5] : []).map(c => map[c]);
  const swap = edge.length > 6 ? edge[6] : null;
  const side = D.sides[node[0]], text = moveText(edge, map);
  let next = map, note = null;
  if (to !== null) {
    let inner = symmetry !== null && symmetry !== undefined ? D.inverses[symmetry] : IDENTITY;
    if (swap !== null) {
      // the sibling's node: played as if the stone were on the sibling's cell, so the two cells trade places
      const sibling = node[2].find(e => e[0] === swap && (e.length < 7 || e[6] === null));
      const mine = edge[2][0][0], theirs = sibling[2][0][0];
      inner = inner.map(c => c === theirs ? mine : c === mine ? theirs : c);
      const who = NAME[D.strategist];
      note = "answered as after " + moveText(sibling, map) + ": " + who + "'s strategy there never claims " + text +
        ", so the certificate goes on from that reply's position" + (symmetry !== null && symmetry !== undefined ? " (stored as its image under symmetry " + symmetry + ")" : "") +
        "; shown as played";
    } else if (symmetry !== null && symmetry !== undefined) {
      note = "the certificate stores this position as its image under symmetry " + symmetry + "; shown as played";
    }
    next = compose(map, inner);
  }
  const pos = to === null ? after(here.pos, diff, map) : played(D.nodes[to][1], next);
  line = line.slice(0, at + 1);
  line.push({node: to, pos: pos, move: text, side: side, changed: diff.map(d => map[d[0]]), result: result, note: note, won: won, map: next});
  at += 1;
  show();
}

function button(text, cls, handler) {
  const b = document.createElement("button");
  b.type = "button"; b.className = "move " + cls; b.textContent = text; b.setAttribute("data-move", text);
  b.addEventListener("click", handler);
  return b;
}

function show() {
  const here = line[at], map = here.map;
  const node = here.node === null ? null : D.nodes[here.node];
  here.ply = node === null ? D.nodes[line[at - 1].node][0] + 1 : node[0];
  document.getElementById("ply").textContent = here.ply;
  document.getElementById("depth").textContent = D.depth;
  document.getElementById("left").textContent = D.depth - here.ply;
  const moves = document.getElementById("moves"), status = document.getElementById("status");
  moves.textContent = "";
  let hinted = [];
  if (node === null) {
    status.textContent = "After " + here.move + ": " + here.result + (here.won.length ? " (the goal on gold ground)." : ".");
  } else if (node[2].length === 0) {
    status.textContent = node[3] + ".";
  } else {
    const side = D.sides[node[0]];
    if (side === D.strategist) {
      const text = moveText(node[2][0], map);
      status.textContent = NAME[side] + " to move; the strategy plays " + text + ".";
      moves.appendChild(button(text, "strategist", () => play(0)));
      hinted = node[2][0][2].map(d => map[d[0]]);
    } else {
      status.textContent = NAME[side] + " to move: " + node[2].length + (node[2].length === 1 ? " move" : " moves") + " to answer with, choose one.";
      node[2].forEach((edge, k) => moves.appendChild(button(moveText(edge, map), "reply", () => play(k))));
    }
  }
  document.getElementById("stored").textContent = here.note ? "(" + here.note + ")" : "";
  setBoard(here.pos, here.changed, hinted, here.won);
  const shown = document.getElementById("line");
  shown.textContent = "";
  line.forEach((entry, k) => {
    const s = document.createElement("span");
    s.textContent = k === 0 ? "start" : k + ". " + NAME[entry.side][0] + " " + entry.move;
    s.className = k === at ? "here" : "";
    s.setAttribute("data-index", k);
    s.addEventListener("click", () => { at = k; show(); });
    shown.appendChild(s);
  });
  document.getElementById("back").disabled = at === 0;
  document.getElementById("start").disabled = at === 0;
  document.getElementById("forward").disabled = at === line.length - 1;
}

function clickCell(i) {
  const here = line[at];
  if (here.node === null) return;
  const edges = D.nodes[here.node][2];
  const side = D.sides[D.nodes[here.node][0]];
  const stored = here.map.indexOf(i);  // the clicked cell as the node stores it
  const candidates = [];
  edges.forEach((edge, k) => { if (edge[2].some(d => d[0] === stored)) candidates.push(k); });
  if (side === D.strategist) { if (candidates.includes(0)) play(0); return; }
  if (candidates.length === 1) play(candidates[0]);
}

for (let i = 0; i < CELLS; i++) cell(i).addEventListener("click", () => clickCell(i));
document.getElementById("start").addEventListener("click", () => { at = 0; show(); });
document.getElementById("back").addEventListener("click", () => { if (at > 0) { at -= 1; show(); } });
document.getElementById("forward").addEventListener("click", () => { if (at < line.length - 1) { at += 1; show(); } });
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") document.getElementById("back").click();
  if (event.key === "ArrowRight") document.getElementById("forward").click();
  if (event.key === "Home") document.getElementById("start").click();
});
show();
"""
