"""The independent checker: does a certificate prove its claim about this game?

It replays the certificate with the rules of the game only (`bddl.rules`;
for a positional game's symmetries, the `bddl.pg` data classes): no search,
no encoding, no solver (an import-linter contract in pyproject.toml says so),
so that a reviewer can trust a verdict after reading this one module and the
rules.  docs/certificates.md documents the format and what is verified:

* the certificate belongs to this game: the same files (sha256), language,
  depth and cells;
* every declared symmetry maps the game onto itself;
* from the root, which must be the initial position, every node is reached;
  each node's position and ply are those its parents' moves lead to;
* where the strategist moves, one legal move; where the other side moves,
  every legal move, none missing and none extra;
* along every line the claim holds: "black-wins", Black reaches its goal
  (by its own move, or White stuck where that loses for White) before the
  plies run out and White never reaches its goal; "no-black-win", Black never
  reaches its goal within the depth;
* (version 2) in a positional game, a move m of the side the strategy
  answers, written as a swap of its sibling s, is answered by the strategy
  below s, played as if the stone were on s: that holds when no goal of the
  mover through m can still be completed (`need_through`: a dead cell, as
  every cell is for White when White has no winning sets) and the strategy
  below s never claims m (`_check_swaps` collects, bottom up, every cell the
  strategist claims below each node: its carrier).  docs/certificates.md
  gives the argument.
* (version 3) in a positional game, a node may end its lines with White's
  pairing strategy: disjoint pairs of open cells, every winning set of
  Black's that White has not blocked and that Black could complete with its
  moves left holding one (on Hex: every such path joining Black's borders,
  which the checker walks itself, `_check_chains_paired`), and White to move
  after each Black move from there on.  White answers a claim of a paired
  cell with its partner, so Black never owns a whole pair, hence never a
  whole winning set within the depth (`_check_pairing`).
* (version 4) a node where the other side moves and that is marked
  "others_lose_at_once" may leave replies out: after each reply not listed,
  the strategist is to move and has a move that wins at once (the first in the
  rules' order, `bddl.at_once.answer_at_once`, which also names the cell it
  claims for the swaps' carriers).  Every line through a left-out reply ends
  with that move, so it needs no node.

The first fault found (breadth first from the root, moves in the file's
order) is reported with the line of play that reaches it and the position.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from bddl.at_once import answer_at_once
from bddl.rules import BLACK, WHITE, GameRules, Position

FORMAT, VERSION = "bddlc-certificate", 1
SWAP_VERSION = 2  # version 1 and moves answered by a sibling's strategy ("swap")
PAIRING_VERSION = 3  # version 2 and lines ended by White's pairing strategy ("pairing")
AT_ONCE_VERSION = 4  # version 3 and replies left out as answered by a win at once ("others_lose_at_once")
VERSIONS = (VERSION, SWAP_VERSION, PAIRING_VERSION, AT_ONCE_VERSION)
CLAIMS = ("black-wins", "no-black-win")


class CertificateFormatError(ValueError):
    """The file is not a well-formed certificate of this format (bad input, exit 1)."""


@dataclass(frozen=True)
class Verdict:
    valid: bool
    claim: str
    depth: int
    nodes: int
    reason: str = ""  # why it is invalid
    line: tuple[str, ...] = ()  # the moves from the initial position to the faulty node
    board: str = ""  # the faulty node's position, drawn
    pairings: int = 0  # the lines ended by a pairing strategy
    at_once: int = 0  # the replies left out, each found answered by the strategist's win at once

    def report(self) -> str:
        if self.valid:
            what = ("Black's strategy wins within {} against every White reply" if self.claim == "black-wins"
                    else "White's strategy keeps Black from winning within {}").format(_plies(self.depth))
            ended = ""
            if self.pairings:
                ended = f"; {self.pairings:,} of them end in a pairing strategy" if self.nodes > 1 else ", by a pairing strategy"
            checked = "1 position checked" if self.nodes == 1 else f"{self.nodes:,} positions checked"
            if self.at_once:
                ended += f"; {self.at_once:,} {'reply' if self.at_once == 1 else 'replies'} left out, each answered by a win at once"
            return f"valid: {what} ({checked}{ended})."
        text = f"invalid: {self.reason}"
        if self.line or self.board:
            text += "\nline of play from the initial position: " + (" ".join(self.line) or "(none)")
        if self.board:
            text += "\n" + self.board
        return text


def _plies(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


class _Invalid(Exception):
    def __init__(self, reason: str, node: int | None = None):
        super().__init__(reason)
        self.reason, self.node = reason, node


# -- reading ---------------------------------------------------------------------------------


def read_certificate(path: str | Path) -> dict:
    """The certificate's JSON, its shape checked; CertificateFormatError otherwise."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CertificateFormatError(f"{path}: error: cannot read the certificate: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        line = text.splitlines()[exc.lineno - 1] if text.splitlines() else ""
        raise CertificateFormatError(
            f"{path}:{exc.lineno}:{exc.colno}: error: not JSON: {exc.msg}\n  {line[:200]}\n  {' ' * min(exc.colno - 1, 200)}^\n"
            "  hint: a certificate is the JSON file `bddlc search|solve --certificate FILE` writes"
        ) from None
    _check_shape(data, str(path))
    return data


def _check_shape(data, where: str) -> None:
    def bad(what: str):
        return CertificateFormatError(f"{where}: error: {what}\n  hint: docs/certificates.md describes the format")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f'not a bddlc certificate (no "format": "{FORMAT}")')
    if data.get("version") not in VERSIONS:
        raise bad(f"certificate format version {data.get('version')!r}; this bddlc reads versions {', '.join(map(str, VERSIONS))}")
    game = data.get("game")
    if not (isinstance(game, dict) and isinstance(game.get("files"), list) and isinstance(game.get("sha256"), list)
            and isinstance(game.get("depth"), int) and isinstance(game.get("language"), str)):
        raise bad('"game" must hold "language", "files", "sha256" and "depth"')
    if data.get("claim") not in CLAIMS:
        raise bad(f'"claim" must be one of {", ".join(CLAIMS)}')
    if not (isinstance(data.get("cells"), list) and all(isinstance(c, str) for c in data["cells"])):
        raise bad('"cells" must be a list of cell names')
    nodes = data.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise bad('"nodes" must be a non-empty list')
    if not isinstance(data.get("root"), int) or not 0 <= data["root"] < len(nodes):
        raise bad('"root" must be the id of a node')
    symmetries = data.get("symmetries", [])
    if not (isinstance(symmetries, list) and all(isinstance(p, list) and all(isinstance(i, int) for i in p) for p in symmetries)):
        raise bad('"symmetries" must be a list of permutations (lists of cell indices)')
    for i, node in enumerate(nodes):
        if not (isinstance(node, dict) and node.get("id") == i and isinstance(node.get("ply"), int)
                and isinstance(node.get("position"), str) and isinstance(node.get("moves"), list)):
            raise bad(f'node {i}: a node is {{"id": {i}, "ply": ..., "position": ..., "moves": [...]}}, listed in order of ids')
        if node.get("black_cannot_win", True) is not True:
            raise bad(f'node {i}: "black_cannot_win", when present, is true')
        if "others_lose_at_once" in node and (node["others_lose_at_once"] is not True or data["version"] < AT_ONCE_VERSION):
            raise bad(f'node {i}: "others_lose_at_once", when present, is true, in a version {AT_ONCE_VERSION} certificate')
        if "pairing" in node:
            pairing = node["pairing"]
            if data["version"] < PAIRING_VERSION or not (isinstance(pairing, list) and all(
                    isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, str) for c in pair) for pair in pairing)):
                raise bad(f'node {i}: a pairing is a list of pairs of cell names, [["a1", "a2"], ...], in a version {PAIRING_VERSION} '
                          'or later certificate')
        for entry in node["moves"]:
            if isinstance(entry, dict) and "swap" in entry:
                if data["version"] < SWAP_VERSION or set(entry) != {"move", "swap"} or not all(isinstance(v, str) for v in entry.values()):
                    raise bad(f'node {i}: a swap is {{"move": text, "swap": text}}, in a version {SWAP_VERSION} or later certificate')
                continue
            if not (isinstance(entry, dict) and isinstance(entry.get("move"), str) and "to" in entry
                    and (entry["to"] is None or type(entry["to"]) is int) and type(entry.get("symmetry", 0)) is int):
                raise bad(f'node {i}: a move is {{"move": text, "to": id or null}} (with an optional "symmetry": index)')


# -- checking --------------------------------------------------------------------------------


def check(rules: GameRules, data: dict, sha256: Sequence[str], pg_game=None) -> Verdict:
    """The verdict on a certificate (`read_certificate`'s dict) about the game `rules` describe.

    `sha256`: the hashes of the game's files as given; `pg_game`: the positional
    game (`bddl.pg.game.PositionalGame`) when the game is one, for its symmetries."""
    claim, depth, nodes = data["claim"], rules.depth, data["nodes"]
    found = _Found(edges={} if data["version"] >= SWAP_VERSION else None)
    try:
        _check_game(rules, data, sha256)
        perms = [_check_symmetry(rules, pg_game, p, j) for j, p in enumerate(data.get("symmetries", []))]
        reached = _walk(rules, claim, depth, nodes, data["root"], perms, pg_game, found)
        if found.swaps:
            assert found.edges is not None
            _check_swaps(rules, claim, nodes, perms, found.swaps, found.edges, found.paired, found.answered)
        unreached = next((i for i in range(len(nodes)) if i not in reached), None)
        if unreached is not None:
            raise _Invalid(f"node {unreached} is not reached from the root")
    except _Invalid as fault:
        line: tuple[str, ...] = ()
        board = ""
        if fault.node is not None:
            line = _line(found.parents, fault.node)
            try:
                board = rules.render(_position(rules, nodes[fault.node]))
            except _Invalid:  # the node's own position is unreadable: the reason says so
                board = nodes[fault.node]["position"]
        return Verdict(False, claim, depth, len(nodes), fault.reason, line, board)
    return Verdict(True, claim, depth, len(nodes), pairings=len(found.paired), at_once=sum(found.left_out.values()))


@dataclass
class _Found:
    """What the walk collects, for the checks after it (the swaps') and for the verdict."""

    # in a version 2 or later file, every node's edges: (move, the cell the strategist claims by
    # it, target, symmetry); None in an older file
    edges: dict[int, list[tuple[str, int, int | None, int | None]]] | None
    parents: dict[int, tuple[int, str, int | None]] = field(default_factory=dict)  # node -> (reached from, move, symmetry)
    swaps: list[tuple[int, int, str]] = field(default_factory=list)  # (node, the reply's cell, the sibling named)
    paired: dict[int, int] = field(default_factory=dict)  # the nodes ended by a pairing -> the cells open there
    answered: dict[int, int] = field(default_factory=dict)  # the nodes that leave replies out -> the wins' cells
    left_out: dict[int, int] = field(default_factory=dict)  # the same nodes -> how many replies they leave out


def _check_game(rules: GameRules, data: dict, sha256: Sequence[str]) -> None:
    game = data["game"]
    if game["language"] != rules.language:
        raise _Invalid(f"the certificate is about a {game['language']} game, not a {rules.language} one")
    if list(game["sha256"]) != list(sha256):
        files = ", ".join(map(str, game["files"]))
        raise _Invalid(f"the certificate belongs to other files ({files}): their sha256 differ from the files given")
    if game["depth"] != rules.depth:
        raise _Invalid(f"the certificate is about depth {game['depth']}, not {rules.depth}")
    if data["cells"] != [c.name for c in rules.cells]:
        raise _Invalid("the certificate's cells are not the game's")


def _check_symmetry(rules: GameRules, game, perm: list[int], j: int) -> list[int]:
    """A declared permutation maps the game onto itself: winning sets, neighbours and borders, first moves."""
    n = len(rules.cells)
    if sorted(perm) != list(range(n)):
        raise _Invalid(f"symmetry {j} is not a permutation of the {n} cells")
    if game is None:
        raise _Invalid(f"symmetry {j}: symmetries are checked for positional games only; a {rules.language} certificate lists none")

    def moved(cells) -> frozenset[int]:
        return frozenset(perm[i] for i in cells)

    for side, sets in (("Black", game.black_wins), ("White", game.white_wins)):
        if {moved(s) for s in sets} != set(sets):
            raise _Invalid(f"symmetry {j} does not map {side}'s winning sets onto themselves")
    if game.graph is not None:
        edges = {(i, k) for i, ns in enumerate(game.graph.neighbours) for k in ns}
        if {(perm[i], perm[k]) for i, k in edges} != edges:
            raise _Invalid(f"symmetry {j} does not map the board's neighbours onto themselves")
        borders = {game.graph.start_border, game.graph.end_border}
        if {moved(b) for b in borders} != borders:
            raise _Invalid(f"symmetry {j} does not map the two borders onto themselves")
    if game.first_moves is not None and moved(game.first_moves) != game.first_moves:
        raise _Invalid(f"symmetry {j} does not map the first moves onto themselves")
    return perm


def _position(rules: GameRules, node: dict) -> Position:
    """The node's position; _Invalid when its text is not one character per cell of '.', 'B', 'W'."""
    text = node["position"]
    if len(text) != len(rules.cells) or set(text) - set(".BW"):
        raise _Invalid(f"node {node['id']}: a position is one character per cell ({len(rules.cells)}), each '.', 'B' or 'W'")
    black = sum(1 << i for i, c in enumerate(text) if c == "B")
    white = sum(1 << i for i, c in enumerate(text) if c == "W")
    return Position(black, white, node["ply"])


def _image(mask: int, perm: list[int]) -> int:
    return sum(1 << perm[i] for i in range(len(perm)) if mask >> i & 1)


def _walk(rules: GameRules, claim: str, depth: int, nodes: list, root: int, perms: list, pg_game, found: _Found) -> set[int]:
    """The nodes reached from the root, each checked against the rules; what it meets on the way
    (swap edges, edges, pairings, replies left out, each node's parent) goes to `found`."""
    parents, swaps, edges, paired = found.parents, found.swaps, found.edges, found.paired
    answered, left_out = found.answered, found.left_out
    strategist = BLACK if claim == "black-wins" else WHITE
    start = _position(rules, nodes[root])
    if start != rules.initial:
        raise _Invalid(f"the root (node {root}) is not the game's initial position at ply 0", root)
    before = rules.winner_before_play()
    if before is not None:  # decided at the root, before any move
        if (before == BLACK) != (claim == "black-wins"):
            raise _Invalid(f"{before.capitalize()} has won before the first move", root)
        return set(range(len(nodes)))  # (a one-node certificate; more nodes would be unreached)
    reached = {root}
    todo = deque([root])
    while todo:
        k = todo.popleft()
        node = nodes[k]
        here = _position(rules, node)
        entries = node["moves"]
        if edges is not None:
            edges[k] = []
        if here.ply >= depth:
            if k == root and not entries and claim == "no-black-win":
                continue  # a depth of 0: Black cannot win
            raise _Invalid(f"node {k} is at ply {here.ply}: no plies are left there, the game is over before it", k)
        marked = node.get("others_lose_at_once", False)
        if marked and ("pairing" in node or node.get("black_cannot_win")):
            raise _Invalid(f'node {k}: a node whose line ends ("black_cannot_win", "pairing") leaves no replies out '
                           '("others_lose_at_once")', k)
        if "pairing" in node:
            if node.get("black_cannot_win"):
                raise _Invalid(f'node {k}: a line ends by "black_cannot_win" or by a "pairing", not both', k)
            paired[k] = _check_pairing(rules, pg_game, claim, k, here, entries, node["pairing"])
            continue
        if node.get("black_cannot_win"):
            _check_black_cannot_win(rules, pg_game, claim, k, here, entries)
            continue
        side = rules.to_move(here.ply)
        plays = {play.text: play for play in rules.plays(here)}
        if marked and side == strategist:
            raise _Invalid(f'node {k}: "others_lose_at_once" leaves out moves of the side the strategy answers, and '
                           f"{side.capitalize()} (the strategist) is to move here", k)
        if not plays:
            if marked:
                raise _Invalid(f'node {k}: {side.capitalize()} has no legal move here, so none is left out ("others_lose_at_once")', k)
            if entries:
                raise _Invalid(f"node {k}: {side.capitalize()} has no legal move here, yet moves are listed", k)
            if (rules.stuck_winner(side) == BLACK) != (claim == "black-wins"):
                raise _Invalid(f"node {k}: {side.capitalize()} has no legal move, and then {_outcome(rules.stuck_winner(side))}", k)
            continue
        texts = [entry["move"] for entry in entries]
        for text in texts:
            if text not in plays:
                raise _Invalid(f"node {k}: {text} is not a legal move of {side.capitalize()} here", k)
        if side == strategist and len(entries) != 1:
            raise _Invalid(f"node {k}: {side.capitalize()} (the strategist) must have exactly one move here, not {len(entries)}", k)
        swapped = [entry for entry in entries if "swap" in entry]
        if swapped:
            if pg_game is None:
                raise _Invalid(f"node {k}: a swap answers a move only in a certificate of a positional game", k)
            if side == strategist:
                raise _Invalid(f"node {k}: a swap answers a move of the side the strategy answers, and {side.capitalize()} "
                               "(the strategist) is to move here", k)
            for entry in swapped:
                after = plays[entry["move"]].after
                cell = (after.black | after.white) ^ (here.black | here.white)
                # the cell must be dead for the mover: no goal of the mover through it can still be completed
                need, left = need_through(pg_game, here, cell.bit_length() - 1, side), moves_left(rules, here.ply, side)
                if need <= left:
                    raise _Invalid(f"node {k}: {side.capitalize()}'s move {entry['move']} is answered as after {entry['swap']}, but a "
                                   f"goal of {side.capitalize()} through it is still within reach ({need} more cells, {left} moves left)", k)
                swaps.append((k, cell, entry["swap"]))
            entries = [entry for entry in entries if "swap" not in entry]
        if side != strategist:
            if len(set(texts)) != len(texts):
                raise _Invalid(f"node {k}: a move of {side.capitalize()} is listed twice", k)
            missing = [text for text in plays if text not in texts]
            if missing and not marked:
                raise _Invalid(f"node {k}: {side.capitalize()}'s reply {missing[0]} is missing ({len(missing)} missing)", k)
            if marked:
                answered[k] = _check_left_out(rules, k, strategist, [plays[text] for text in missing])
                left_out[k] = len(missing)
        for entry in entries:
            play = plays[entry["move"]]
            after = play.after
            if edges is not None:  # the cell the strategist claims by the move (none for the other side's)
                claimed = _claimed(here, after, strategist)
                edges[k].append((play.text, claimed, entry["to"], entry.get("symmetry")))
            if rules.won(after, side) or after.ply >= depth:
                if side == BLACK and rules.won(after, BLACK) and claim == "no-black-win":
                    raise _Invalid(f"node {k}: Black's move {play.text} reaches Black's goal", k)
                if side == WHITE and rules.won(after, WHITE) and claim == "black-wins":
                    raise _Invalid(f"node {k}: White's move {play.text} reaches White's goal", k)
                if not rules.won(after, side) and claim == "black-wins":
                    raise _Invalid(f"node {k}: after {play.text} the {_plies(depth)} are over and Black has not reached its goal", k)
                if entry["to"] is not None:
                    raise _Invalid(f"node {k}: the game is over after {play.text}, so its \"to\" must be null", k)
                continue
            target = entry["to"]
            if target is None:
                raise _Invalid(f"node {k}: the game goes on after {play.text}, but its \"to\" is null", k)
            if not 0 <= target < len(nodes):
                raise _Invalid(f"node {k}: the move {play.text} leads to node {target}, which does not exist", k)
            expected, j = after, entry.get("symmetry")
            if j is not None:
                if not 0 <= j < len(perms):
                    raise _Invalid(f"node {k}: the move {play.text} names symmetry {j}, which is not declared", k)
                expected = Position(_image(after.black, perms[j]), _image(after.white, perms[j]), after.ply)
            if _position(rules, nodes[target]) != expected:
                under = f" under symmetry {j}" if j is not None else ""
                raise _Invalid(f"node {k}: after {play.text}, node {target} does not hold the position reached{under} at ply {after.ply}", k)
            if target not in reached:
                reached.add(target)
                parents[target] = (k, play.text, j)
                todo.append(target)
    return reached


def _check_left_out(rules: GameRules, k: int, strategist: str, left_out: list) -> int:
    """Node k ("others_lose_at_once") leaves out the replies `left_out`: after each, the strategist
    wins at once (`answer_at_once`).  The cells those wins claim are returned, for the carriers."""
    if not left_out:
        raise _Invalid(f'node {k}: "others_lose_at_once", yet every reply is listed', k)
    claimed = 0
    for play in left_out:
        answer = answer_at_once(rules, play, strategist)
        if answer is None:
            side, after = play.side.capitalize(), play.after
            if after.ply >= rules.depth:
                why = f"the {_plies(rules.depth)} are over" + (" and Black has not reached its goal" if strategist == BLACK else "")
            elif rules.won(after, play.side):
                why = f"it reaches {side}'s goal"
            elif rules.to_move(after.ply) != strategist:
                why = f"{side} moves again"
            else:
                why = f"{strategist.capitalize()} has no move that wins at once"
            raise _Invalid(f"node {k}: {side}'s reply {play.text} is missing ({len(left_out)} left out): after it {why}", k)
        claimed |= _claimed(play.after, answer.after, strategist)
    return claimed


def _claimed(before: Position, after: Position, side: str) -> int:
    """The cells `side` claims between the two positions (a carrier's part)."""
    return (after.black ^ before.black) if side == BLACK else (after.white ^ before.white)


def _check_swaps(rules: GameRules, claim: str, nodes: list, perms: list, swaps: list, edges: dict, paired: dict,
                 answered: dict) -> None:
    """Each swapped move lies outside the carrier of the sibling's strategy it borrows.

    A node's carrier is every cell the strategist (Black for "black-wins",
    White for "no-black-win") claims in the lines below it, in the node's own
    cells: its move and its child's carrier where it moves, the union of the
    children's where the other side does (a swap adds nothing: its lines claim
    what its sibling's do; a line ended as "black_cannot_win" claims nothing;
    one ended by a pairing claims every cell open there, since White's answers
    follow Black's moves; a reply left out claims the cell of the strategist's win
    at once).  A child stored as a symmetric image has its carrier mapped back.
    Computed from the deepest ply up."""
    who = "Black" if claim == "black-wins" else "White"
    inverses = [[0] * len(perm) for perm in perms]
    for perm, inverse in zip(perms, inverses):
        for i, p in enumerate(perm):
            inverse[p] = i
    carrier: dict[int, int] = {}
    swapping = {k for k, _, _ in swaps}
    mapped: dict[tuple[int, str], int] = {}  # (node, move) -> the carrier of the lines after that move, where swaps are
    for k in sorted(edges, key=lambda k: -nodes[k]["ply"]):
        union = 0
        for text, claimed, target, j in edges[k]:
            if target is not None:
                claimed |= carrier[target] if j is None else _image(carrier[target], inverses[j])
            if k in swapping:
                mapped[k, text] = claimed
            union |= claimed
        carrier[k] = union | paired.get(k, 0) | answered.get(k, 0)
    for k, cell, sibling in swaps:
        reply = next((text for text, _, _, _ in edges[k] if text == sibling), None)
        move = rules.cells[cell.bit_length() - 1].name if cell and not cell & (cell - 1) else "?"
        if reply is None:
            raise _Invalid(f"node {k}: the move {move} is answered as after {sibling}, which is not a move listed with its own strategy here", k)
        if cell == 0 or cell & (cell - 1):
            raise _Invalid(f"node {k}: a swapped move claims one cell", k)
        if mapped[k, sibling] & cell:
            raise _Invalid(f"node {k}: the move {move} is answered as after {sibling}, but {who}'s strategy there claims {move}", k)


def _check_black_cannot_win(rules: GameRules, game, claim: str, k: int, here: Position, entries: list) -> None:
    """A node marked "black_cannot_win" ends its lines: Black's goal is out of reach whatever happens."""
    if claim != "no-black-win" or game is None:
        raise _Invalid(f'node {k}: "black_cannot_win" ends a line only in a no-black-win certificate of a positional game', k)
    if entries:
        raise _Invalid(f'node {k}: a node marked "black_cannot_win" lists no moves', k)
    need, left = black_need(game, here), black_moves_left(rules, here.ply)
    if need <= left:
        raise _Invalid(f"node {k}: Black can still reach its goal here ({need} more cells, {left} moves left)", k)


def _check_pairing(rules: GameRules, game, claim: str, k: int, here: Position, entries: list, pairing: list) -> int:
    """A node with a "pairing" ends its lines: White's pairing strategy keeps Black from
    owning a whole winning set within the depth.  The cells open at the node (the
    strategy's carrier) are returned.

    The argument: the pairs are disjoint and open, and every winning set of
    Black's without a White cell and with at most m open cells (m: Black's moves
    left, this node's included) holds a whole pair.  From here White moves
    between any two Black moves, and answers a Black claim of a paired cell
    with its partner (anywhere else, any move): Black never owns both cells of
    a pair, so never the whole of such a set; a set with more open cells needs
    more moves than Black has, and a set with a White cell is lost to Black for
    good."""
    if claim != "no-black-win" or game is None or (game.graph is None and not game.black_wins):
        raise _Invalid(f'node {k}: a "pairing" ends a line only in a no-black-win certificate of a positional game', k)
    if entries:
        raise _Invalid(f'node {k}: a node ended by a "pairing" lists no moves', k)
    for ply in range(here.ply, rules.depth - 1):
        if rules.to_move(ply) == BLACK and rules.to_move(ply + 1) == BLACK:
            raise _Invalid(f"node {k}: Black moves at plies {ply} and {ply + 1}, with no White move between, so a pairing "
                           "cannot answer every claim", k)
    index = {cell.name: i for i, cell in enumerate(rules.cells)}
    occupied = here.black | here.white
    taken = 0
    pairs: list[int] = []
    for a, b in pairing:
        for name in (a, b):
            if name not in index:
                raise _Invalid(f"node {k}: the pairing names {name!r}, which is not a cell of the game", k)
            cell = 1 << index[name]
            if cell & occupied:
                raise _Invalid(f"node {k}: the pairing's cell {name} is not open here", k)
            if cell & taken:
                raise _Invalid(f"node {k}: the pairing's cell {name} is in two pairs", k)
            taken |= cell
        pairs.append(1 << index[a] | 1 << index[b])
    if game.graph is not None:
        _check_chains_paired(rules, game, k, here, pairs)
    left = black_moves_left(rules, here.ply)
    for cells in game.black_wins:
        mask = sum(1 << i for i in cells)
        if mask & here.white or (mask & ~occupied).bit_count() > left:
            continue  # blocked for good, or more open cells than Black has moves left
        if not any(pair & mask == pair for pair in pairs):
            names = " ".join(rules.cells[i].name for i in sorted(cells))
            raise _Invalid(f"node {k}: Black's winning set {names} holds no pair of the pairing, so White's answers "
                           f"do not keep Black from it (Black has {left} moves left)", k)
    return ~occupied & ((1 << len(rules.cells)) - 1)


CHAIN_CHECK_STEPS = 2_000_000  # the paths a Hex pairing's check may walk (beyond: the pairing is not accepted)


def _check_chains_paired(rules: GameRules, game, k: int, here: Position, pairs: list[int]) -> None:
    """Hex: with m moves left Black can only join its borders by a chain that holds a path
    of non-White cells between them with at most m open cells, and under the pairing at
    most one cell of each pair.  Look for such a path, one cell at a time (never both
    cells of a pair on it; a breadth-first bound on the open cells still needed cuts
    hopeless paths): if there is one, the pairing does not stop Black in time."""
    graph = game.graph
    left = black_moves_left(rules, here.ply)
    partner: dict[int, int] = {}
    for pair in pairs:
        a, b = (pair & -pair).bit_length() - 1, pair.bit_length() - 1
        partner[a], partner[b] = b, a
    cost = {i: 0 if here.black >> i & 1 else 1 for i in range(len(game.cells)) if not here.white >> i & 1}
    still = _distances(graph, cost, graph.end_border)  # open cells from a cell to the end border, both ends counted
    steps = [CHAIN_CHECK_STEPS]

    def reaches(cell: int, on_path: set[int], used: int) -> list[int] | None:
        steps[0] -= 1
        if steps[0] < 0:
            raise _Invalid(f"node {k}: the pairing's check needs more than {CHAIN_CHECK_STEPS:,} steps (too many paths to walk)", k)
        if cell in graph.end_border:
            return [cell]
        for nxt in graph.neighbours[cell]:
            if nxt not in cost or nxt in on_path or partner.get(nxt) in on_path:
                continue
            if used + cost[nxt] + still.get(nxt, left + 1) - cost[nxt] > left:
                continue
            on_path.add(nxt)
            found = reaches(nxt, on_path, used + cost[nxt])
            on_path.discard(nxt)
            if found is not None:
                return [cell, *found]
        return None

    for start in sorted(graph.start_border):
        if start in cost and still.get(start, left + 1) <= left:
            path = reaches(start, {start}, cost[start])
            if path is not None:
                names = " ".join(rules.cells[i].name for i in path)
                raise _Invalid(f"node {k}: Black can still join its borders along {names} within its {left} moves, "
                               "with no pair of the pairing on that path", k)


def black_moves_left(rules: GameRules, ply: int) -> int:
    return moves_left(rules, ply, BLACK)


def moves_left(rules: GameRules, ply: int, side: str) -> int:
    """The side's moves from `ply` (its move there included) to the end of the plies."""
    return sum(rules.to_move(p) == side for p in range(ply, rules.depth))


def need_through(game, position: Position, cell: int, side: str) -> int:
    """The fewest open cells the side must still claim to own a goal of its own that uses the
    open cell `cell` (`black_need_through` for Black; for White, its winning sets, where it has
    any: with none, more than any count, so every cell is dead for White)."""
    if side == BLACK:
        return black_need_through(game, position, cell)
    free = [s for s in game.white_wins if cell in s and not any(position.black >> i & 1 for i in s)]
    return min((sum(1 for i in s if not position.white >> i & 1) for s in free), default=len(game.cells) + 1)


def black_need(game, position: Position, masks: Sequence[int] | None = None) -> int:
    """The fewest open cells Black must still claim to own one of its winning sets
    (Hex: a chain joining its borders) with no White cell in it; a large number when none is left.
    `masks`: the game's `black_set_masks`, where the caller asks about many positions.

    Black cannot win when this is more than its moves left, whatever either side
    plays: an argument about the goals alone, so the lines below need not be listed."""
    none = len(game.cells) + 1
    if game.black_wins or game.graph is None:
        black, white = position.black, position.white
        sets = black_set_masks(game) if masks is None else masks
        return min(((s & ~black).bit_count() for s in sets if not s & white), default=none)
    graph = game.graph  # a 0-1 breadth-first search: Black's cells cost nothing, open ones one, White's are walls
    cost = {i: 0 if position.black >> i & 1 else 1 for i in range(len(game.cells)) if not position.white >> i & 1}
    best = _distances(graph, cost, graph.start_border)
    return min((best[i] for i in graph.end_border if i in best), default=none)


def black_set_masks(game) -> tuple[int, ...]:
    """Black's winning sets as masks of their cells (bit i: cell i), in the game's order."""
    return tuple(game.mask(s) for s in game.black_wins)


def black_need_through(game, position: Position, cell: int) -> int:
    """The fewest open cells Black must still claim to own a goal that uses the
    open cell `cell` (counted among them): a winning set holding it with no White
    cell, or for Hex a chain of non-White cells through it joining Black's borders.

    When this is more than Black's moves left, no line can ever end with a goal
    of Black that uses the cell: a Black stone there is as good as none."""
    none = len(game.cells) + 1
    if game.black_wins or game.graph is None:
        free = [s for s in game.black_wins if cell in s and not any(position.white >> i & 1 for i in s)]
        return min((sum(1 for i in s if not position.black >> i & 1) for s in free), default=none)
    graph = game.graph
    cost = {i: 0 if position.black >> i & 1 else 1 for i in range(len(game.cells)) if not position.white >> i & 1}
    if cell not in cost:
        return none
    start, end = _distances(graph, cost, graph.start_border), _distances(graph, cost, graph.end_border)
    if cell not in start or cell not in end:
        return none
    return start[cell] + end[cell] - cost[cell]


def _distances(graph, cost: dict[int, int], border) -> dict[int, int]:
    """From a border, each non-White cell's fewest open cells on a chain reaching it (both ends counted)."""
    best = {i: cost[i] for i in border if i in cost}
    todo = deque(sorted(best, key=best.__getitem__))
    while todo:
        i = todo.popleft()
        for j in graph.neighbours[i]:
            if j in cost and best[i] + cost[j] < best.get(j, len(cost) + 1):
                best[j] = best[i] + cost[j]
                (todo.appendleft if cost[j] == 0 else todo.append)(j)
    return best


def _outcome(winner: str | None) -> str:
    return "nobody has won" if winner is None else f"{winner.capitalize()} has won"


def _line(parents: dict, node: int) -> tuple[str, ...]:
    moves: list[str] = []
    while node in parents:
        node, text, j = parents[node]
        moves.append(text if j is None else f"{text} (then symmetry {j})")
    return tuple(reversed(moves))


# -- the files -------------------------------------------------------------------------------


def file_hashes(paths: Sequence[str]) -> list[str]:
    return [hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths]


def check_files(model, certificate_path: str | Path) -> Verdict:
    """The verdict on the certificate file about the opened game (`compiler.model.GameModel`)."""
    data = read_certificate(certificate_path)
    return check(model.rules, data, file_hashes(model.paths), model.checker_game())
