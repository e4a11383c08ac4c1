"""Strategy certificates (format v1, CERTIFICATE_FORMAT / docs/certificates.md) for tiny games, made
the plainest way: a memoised minimax over `bddl.rules.GameRules` and a walk
that keeps the strategist's first good move and every reply of the other side.

For tests that need a certificate made by hand, to mutate it (the pictures'
explorer refusing illegal moves and positions that do not follow); every
other test of what reads certificates uses the real producer, `bddlc
search|solve --certificate`.  It knows nothing of symmetries."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bddl.rules import BLACK, WHITE, GameRules, Position


def masks(text: str) -> tuple[int, int]:
    """A certificate's position line ('.', 'B', 'W' per cell) as (Black's cells, White's cells)."""
    return sum(1 << i for i, c in enumerate(text) if c == "B"), sum(1 << i for i, c in enumerate(text) if c == "W")


def position_line(position: Position, cells: int) -> str:
    return "".join("B" if position.black >> i & 1 else "W" if position.white >> i & 1 else "." for i in range(cells))


def certificate(rules: GameRules, files: list[str], max_positions: int = 500_000) -> dict:
    """The certificate of the verdict the rules give: Black's winning strategy, or White's refutation."""
    table: dict[Position, bool] = {}

    def black_wins(p: Position) -> bool:
        if p.ply >= rules.depth:
            return False
        if p not in table:
            if len(table) >= max_positions:
                raise RuntimeError(f"more than {max_positions} positions: not a tiny game")
            side = rules.to_move(p.ply)
            plays = rules.plays(p)
            if not plays:
                table[p] = rules.stuck_winner(side) == BLACK
            elif side == BLACK:
                table[p] = any(rules.won(q.after, BLACK) or black_wins(q.after) for q in plays)
            else:
                table[p] = all(not rules.won(q.after, WHITE) and black_wins(q.after) for q in plays)
        return table[p]

    assert rules.winner_before_play() is None, "a game won before play has no moves to certify"
    strategist = BLACK if black_wins(rules.initial) else WHITE

    def good(play) -> bool:
        if strategist == BLACK:
            return rules.won(play.after, BLACK) or black_wins(play.after)
        return rules.won(play.after, WHITE) or not black_wins(play.after)

    def ends(play) -> bool:
        return rules.won(play.after, play.side) or play.after.ply >= rules.depth

    cells = len(rules.cells)
    ids: dict[Position, int] = {}
    nodes: list[dict] = []

    def visit(p: Position) -> int:
        if p in ids:
            return ids[p]
        ids[p] = len(nodes)
        node: dict = {"id": len(nodes), "ply": p.ply, "position": position_line(p, cells), "moves": []}
        nodes.append(node)
        plays = rules.plays(p)
        if rules.to_move(p.ply) == strategist:
            plays = [next(q for q in plays if good(q))] if plays else []
        node["moves"] = [{"move": q.text, "to": None if ends(q) else visit(q.after)} for q in plays]
        return node["id"]

    visit(rules.initial)
    return {
        "format": "bddlc-certificate",
        "version": 1,
        "game": {
            "language": rules.language,
            "files": list(files),
            "sha256": [hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in files],
            "depth": rules.depth,
        },
        "claim": "black-wins" if strategist == BLACK else "no-black-win",
        "cells": [c.name for c in rules.cells],
        "root": 0,
        "nodes": nodes,
        "symmetries": [],
    }


def write_certificate(rules: GameRules, files: list[str], path: Path) -> dict:
    data = certificate(rules, files)
    path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    return data


def assert_moves_keep_the_claim(rules, data: dict, oracle) -> int:
    """Every move of the strategist in the certificate keeps its claim by `oracle` (an engine
    other than the one that chose it): after Black's move in a win, Black wins; after White's
    in a refutation, Black does not.  The number of moves looked at."""
    black_wins = data["claim"] == "black-wins"
    strategist = BLACK if black_wins else WHITE
    seen = 0
    for node in data["nodes"]:
        ply = node["ply"]
        if not node["moves"] or rules.to_move(ply) != strategist:
            continue
        black, white = masks(node["position"])
        (edge,) = node["moves"]
        (play,) = [p for p in rules.plays(Position(black, white, ply)) if p.text == edge["move"]]
        after = play.after
        if black_wins:
            assert rules.won(after, BLACK) or oracle.black_wins(after), (node, edge)
        else:
            assert rules.won(after, WHITE) or after.ply >= rules.depth or not oracle.black_wins(after), (node, edge)
        seen += 1
    return seen


def forged_swaps(data: dict):
    """Every swap one could forge in a certificate's JSON: at each node, a reply with a strategy of
    its own rewritten to borrow a sibling's.  Yields (the reply's move, the forged copy)."""
    import copy

    for node in data["nodes"]:
        real = [e for e in node["moves"] if e.get("to") is not None]
        for victim in real:
            for sibling in real:
                if sibling is victim:
                    continue
                bad = copy.deepcopy(data)
                entries = bad["nodes"][node["id"]]["moves"]
                k = next(i for i, e in enumerate(entries) if e["move"] == victim["move"])
                entries[k] = {"move": victim["move"], "swap": sibling["move"]}
                yield victim["move"], bad
