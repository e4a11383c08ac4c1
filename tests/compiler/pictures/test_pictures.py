"""`bddlc show` and compiler/pictures: the drawings read back against the game rules.

A drawing's cells carry what they show (`data-state`, `data-row`, ...), so
each test parses the SVG with xml.etree and asks the rules (`GameRules`)
what should be there: the stones of a position after a line of play, the
cells the last move changed, the cells' places on a square grid and on Hex's
rhombus, each winning set and goal pattern of the model sheet.  Files must be
byte-identical across runs (separate processes, so a hash seed or a dict
order would show), and bad input must fail with exit 1 or 2 and no file."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bddl.at_once import answer_at_once
from bddl.pg.hex import hex_board
from bddl.pg.writer import save_pg
from bddl.rules import BLACK, WHITE, Position, black_wins_by_rules
from compiler.certificates import write_certificate
from compiler.cli import main
from compiler.model import open_model
from compiler.pictures import position_svg
from compiler.pictures.board import UNIT
from compiler.pictures.explorer import CertificateError, explorer_data, explorer_html, read_certificate
from compiler.pictures.sheet import HIGHLIGHT, model_sheet
from helpers.certificates import certificate  # hand-made, for the mutation test only

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"
TIC_BDDL = [str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/httt/tic_3x3_d9.bddl")]
TIC_PG = [str(ROOT / "problems/pg/tictactoe_3x3.pg")]
P2Q1_PG = [str(ROOT / "problems/pg/tictactoe_3x3_p2q1.pg")]
CONNECT3 = [str(ROOT / "domains/connect.bddl"), str(ROOT / "problems/connect/connect3_4x4_d9.bddl")]  # a stone falls below the move's x y
QUBIC = [str(ROOT / "problems/pg/qubic_3x3x3.pg")]  # three axes: drawn as a list of named cells
BREAKTHROUGH = [str(ROOT / "domains/breakthrough.bddl"), str(ROOT / "problems/breakthrough/2x4_d13.bddl")]


@pytest.fixture
def hex_pg(tmp_path) -> list[str]:
    path = tmp_path / "hex4.pg"
    save_pg(hex_board(4, depth=9, stones="x/.o"), str(path))
    return [str(path)]


@pytest.fixture
def hex3_pg(tmp_path) -> list[str]:
    """Hex 3x3: Black wins; its board's half turn keeps the borders, so the certificate uses a symmetry."""
    path = tmp_path / "hex3.pg"
    save_pg(hex_board(3), str(path))
    return [str(path)]


def searched_certificate(files: list[str], path: Path) -> dict:
    """The certificate the real pipeline writes: `bddlc search GAME --certificate FILE`."""
    assert main(["search", *files, "--certificate", str(path)]) == 0
    return json.loads(path.read_text())


def play_line(rules, moves: list[str]):
    """The position after `moves` (each parsed by the rules), the position before the last, and the last play."""
    position, before, last = rules.initial, None, None
    for text in moves:
        before, last = position, rules.parse_play(position, text)
        position = last.after
    return position, before, last


def cells_of(svg: str) -> dict[int, ET.Element]:
    root = ET.fromstring(svg)
    return {int(g.get("data-cell")): g for g in root.iter(f"{SVG}g") if g.get("class") == "cell"}


def expected_state(position: Position, i: int) -> str:
    return BLACK if position.black >> i & 1 else WHITE if position.white >> i & 1 else "open"


def check_stones(rules, svg: str, position: Position, changed: set[int]) -> None:
    """Every cell of the drawing shows the rules' state, its stone drawn (or hidden) to match, the last move marked."""
    cells = cells_of(svg)
    assert sorted(cells) == list(range(len(rules.cells)))
    for i, g in cells.items():
        state = expected_state(position, i)
        assert g.get("data-state") == state, (i, rules.cells[i].name)
        assert g.get("data-name") == rules.cells[i].name
        stone = next(c for c in g.iter(f"{SVG}circle") if c.get("class") == "stone")
        assert stone.get("visibility") == ("hidden" if state == "open" else "visible")
        assert stone.get("fill") == {"black": "#161616", "white": "#ffffff", "open": "none"}[state]
        assert (stone.get("cx"), stone.get("cy")) == (g.get("data-x"), g.get("data-y"))
        mark = next(c for c in g.iter(f"{SVG}circle") if c.get("class") == "last")
        assert (mark.get("visibility") == "visible") == (i in changed), (i, rules.cells[i].name)


def check_places(rules, svg: str) -> None:
    """Square grids: x = a + column * UNIT, y = b + row * UNIT; Hex: each row shifted half a cell right."""
    if rules.layout == "cells":  # a list: each cell a disc named below it
        names = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
        assert all(c.name in names for c in rules.cells)
        return
    offsets_x, offsets_y = set(), set()
    for i, g in cells_of(svg).items():
        cell = rules.cells[i]
        assert (int(g.get("data-row")), int(g.get("data-column"))) == (cell.row, cell.column)
        x, y = float(g.get("data-x")), float(g.get("data-y"))
        if rules.layout == "hex":
            offsets_x.add(round(x - (cell.column + cell.row / 2) * UNIT, 1))
            offsets_y.add(round(y - cell.row * 1.5 * UNIT / math.sqrt(3), 1))
        else:
            offsets_x.add(round(x - cell.column * UNIT, 1))
            offsets_y.add(round(y - cell.row * UNIT, 1))
    assert len(offsets_x) == 1 and len(offsets_y) == 1, (offsets_x, offsets_y)


@pytest.mark.parametrize(
    "files, moves",
    [
        (TIC_BDDL, ["occupy 2 2", "occupy 1 1", "occupy 3 1"]),
        (TIC_PG, ["b2", "a1", "c3", "a3"]),
        (P2Q1_PG, ["a1", "b2", "c3", "a3"]),
        (BREAKTHROUGH, None),
        (CONNECT3, ["occupyBottom 2 1", "occupyOnTop 2 3", "occupyBottom 3 1"]),
        (QUBIC, ["a1x", "b2y", "c3z"]),
        ("hex", ["c2", "b3"]),
    ],
)
def test_a_position_shows_the_rules_stones_in_their_places(files, moves, hex_pg):
    rules = open_model(hex_pg if files == "hex" else files).rules
    if moves is None:  # a BDDL move that takes a piece: two cells change
        plays = rules.plays(rules.initial)
        moves = [plays[0].text, rules.plays(plays[0].after)[0].text]
    position, before, last = play_line(rules, moves)
    svg = position_svg(rules, position, last, before)
    changed = {i for i in range(len(rules.cells)) if expected_state(before, i) != expected_state(position, i)}
    assert changed, "the last move changed nothing"
    check_stones(rules, svg, position, changed)
    check_places(rules, svg)
    assert svg == position_svg(rules, position, last, before)
    # without the position before it, the marks are the cells the move names (the claimed cell, or those
    # the BDDL action's effect names at its x y): here exactly the changed ones
    check_stones(rules, position_svg(rules, position, last), position, changed)


def test_hex_borders_are_coloured_as_bddl_pg_hex_says(hex_pg):
    rules = open_model(hex_pg).rules
    root = ET.fromstring(position_svg(rules, rules.initial))
    borders = [p for p in root.iter(f"{SVG}polyline") if p.get("class") == "border"]
    colours = [p.get("stroke") for p in borders]
    # Black: each cell of the top and of the bottom row; White: each cell of the left and right columns
    assert colours.count("#161616") == 2 * 4 and colours.count("#b8b8b8") == 2 * 4
    top = min(float(g.get("data-y")) for g in cells_of(ET.tostring(root, encoding="unicode")).values())
    first_black = [float(v) for point in borders[0].get("points").split() for v in point.split(",")[1:]]
    assert all(y < top for y in first_black), "Black's first border lies above the top row"


def test_hex_cells_touch_in_the_drawing_exactly_where_the_game_makes_them_neighbours(hex_pg):
    """The rhombus is the game's graph: two cells' hexagons touch (centres one cell width apart)
    exactly when the .pg game lists them as neighbours, and Black's borders are the rows its
    border sets name (top and bottom), so a stone drawn is a stone where the rules have it."""
    model = open_model(hex_pg)
    rules, graph = model.rules, model.pg.graph
    svg = position_svg(rules, rules.initial)
    centres = {i: (float(g.get("data-x")), float(g.get("data-y"))) for i, g in cells_of(svg).items()}
    for i in centres:
        for j in centres:
            if i < j:
                touching = math.dist(centres[i], centres[j]) == pytest.approx(UNIT, abs=0.1)
                assert touching == (j in graph.neighbours[i]), (rules.cells[i].name, rules.cells[j].name)
    top = min(y for _, y in centres.values())
    bottom = max(y for _, y in centres.values())
    assert {i for i, (_, y) in centres.items() if y == top} == set(graph.start_border)
    assert {i for i, (_, y) in centres.items() if y == bottom} == set(graph.end_border)


def test_the_sheet_draws_every_winning_set_with_its_cells_highlighted():
    model = open_model(P2Q1_PG)
    root = ET.fromstring(model_sheet(model))
    multiples = [g for g in root.iter(f"{SVG}g") if g.get("class") == "multiple"]
    for side, sets in ((BLACK, model.pg.black_wins), (WHITE, model.pg.white_wins)):
        drawn = [g for g in multiples if g.get("data-kind") == f"{side}-set"]
        assert [frozenset(int(c) for c in g.get("data-cells").split()) for g in drawn] == list(sets)
        for g, cells in zip(drawn, sets):
            grounds = [next(e for e in cell if e.get("class") == "ground").get("fill") for cell in g if cell.tag == f"{SVG}g"]
            assert [i for i, fill in enumerate(grounds) if fill == HIGHLIGHT[side]] == sorted(cells)
    first = [g for g in multiples if g.get("data-kind") == "first-moves"]
    assert [g.get("data-cells") for g in first] == [" ".join(str(c) for c in sorted(model.pg.first_moves))]
    turns = [t.text for t in root.iter(f"{SVG}text") if t.text in ("B", "W")]
    assert turns == [model.rules.to_move(p)[0].upper() for p in range(model.rules.depth)]


def test_the_sheet_draws_each_goal_and_action_as_its_relative_pattern():
    """Breakthrough (goals at a board edge: `black(?x,ymin)`) and Connect-3 (`open(?x,ymax)`, goals in
    four directions): each atom is drawn in the row and column its coordinates name, relative
    offsets in board order, a fixed coordinate in a row or column after them labelled with it."""
    from bddl.ast import Relative
    from bddl.printer import format_coord

    def place(coord) -> str:
        return str(coord.offset) if isinstance(coord, Relative) else format_coord(coord)

    for files in (BREAKTHROUGH, CONNECT3):
        model = open_model(files)
        root = ET.fromstring(model_sheet(model))
        patterns = [g for g in root.iter(f"{SVG}g") if g.get("class") == "pattern"]
        problem, domain = model.bddl.problem, model.bddl.domain
        wanted = [(f"{BLACK}-goal", [g]) for g in problem.black_goals] + [(f"{WHITE}-goal", [g]) for g in problem.white_goals]
        wanted += [(f"{BLACK}-action", [a.precondition, a.effect]) for a in domain.black_actions]
        wanted += [(f"{WHITE}-action", [a.precondition, a.effect]) for a in domain.white_actions]
        assert [g.get("data-kind") for g in patterns] == [kind for kind, _ in wanted]
        for g, (_, conditions) in zip(patterns, wanted):
            rects = [r for r in g.iter(f"{SVG}rect") if r.get("data-dx") is not None]
            size = len(rects) // len(conditions)
            for k, condition in enumerate(conditions):
                frame = rects[k * size:(k + 1) * size]
                atoms: dict[tuple[str, str], list[str]] = {}
                for atom in condition.atoms:
                    atoms.setdefault((place(atom.x), place(atom.y)), []).append(("NOT " if atom.negated else "") + atom.pred)
                drawn = {(r.get("data-dx"), r.get("data-dy")): r.get("data-atoms").split(",") for r in frame if r.get("data-atoms")}
                assert drawn == atoms, files
                column = {r.get("data-dx"): float(r.get("x")) for r in frame}
                row = {r.get("data-dy"): float(r.get("y")) for r in frame}
                for axis in (column, row):
                    offsets = sorted((int(d), v) for d, v in axis.items() if _is_offset(d, conditions))
                    fixed = [v for d, v in axis.items() if not _is_offset(d, conditions)]
                    # offsets one cell apart in board order, fixed coordinates after them
                    assert [v - offsets[0][1] for _, v in offsets] == pytest.approx([(d - offsets[0][0]) * 22 for d, _ in offsets])
                    assert all(v > offsets[-1][1] for v in fixed)


def _is_offset(text: str, conditions) -> bool:
    """Is a pattern's row or column key a relative offset (a number that no atom writes as a fixed coordinate)?"""
    from bddl.ast import Absolute

    fixed = {str(c.value) for cond in conditions for a in cond.atoms for c in (a.x, a.y) if isinstance(c, Absolute)}
    return text.lstrip("-").isdigit() and text not in fixed


def test_hex_sheet_shows_blacks_borders(hex_pg):
    model = open_model(hex_pg)
    root = ET.fromstring(model_sheet(model))
    borders = [g for g in root.iter(f"{SVG}g") if g.get("data-kind") == "black-borders"]
    graph = model.pg.graph
    assert [set(map(int, g.get("data-cells").split())) for g in borders] == [set(graph.start_border | graph.end_border)]


def show(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compiler.cli", "show", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


def test_show_writes_the_same_bytes_in_separate_processes(tmp_path, hex_pg):
    cert = tmp_path / "tic.json"
    searched_certificate(TIC_PG, cert)
    jobs = [
        ([*TIC_BDDL], "sheet.svg"),
        ([*hex_pg, "--moves", "c2, b3"], "hex.svg"),
        ([*TIC_PG, "--certificate", str(cert)], "explorer.html"),
    ]
    for args, name in jobs:
        outputs = []
        for seed in ("1", "2"):
            out = tmp_path / f"{seed}-{name}"
            result = show(*args, "-o", str(out), env={**os.environ, "PYTHONHASHSEED": seed})
            assert result.returncode == 0, result.stderr
            outputs.append(out.read_bytes())
        assert outputs[0] == outputs[1], name
        assert outputs[0].isascii()
        if name.endswith(".svg"):
            ET.fromstring(outputs[0])
        assert b"http://" not in outputs[0].replace(b'xmlns="http://www.w3.org/2000/svg"', b""), "a reference to something outside the file"


def test_show_position_after_moves_and_the_initial_one(tmp_path, capsys):
    out = tmp_path / "p.svg"
    assert main(["show", *TIC_PG, "--moves", "b2, a1", "-o", str(out)]) == 0
    rules = open_model(TIC_PG).rules
    position, before, _ = play_line(rules, ["b2", "a1"])
    check_stones(rules, out.read_text(), position, {rules.cells.index(next(c for c in rules.cells if c.name == "a1"))})
    assert main(["show", *TIC_BDDL, "--position"]) == 0
    check_stones(open_model(TIC_BDDL).rules, capsys.readouterr().out, open_model(TIC_BDDL).rules.initial, set())


@pytest.mark.parametrize(
    "args, status, message",
    [
        (["--moves", "b2, b2"], 1, "move 2 (b2): White cannot claim b2: it is not open"),
        (["--moves", "b2,,a1"], 1, "move 2 is empty"),
        (["--moves", "zz"], 1, "no cell named 'zz'"),
        (["--moves", "a1, b1, a2, b2, a3, c3"], 1, "move 6 (c3): the game is over: Black won with move 5 (a3)"),
    ],
)
def test_bad_moves_are_bad_input_and_write_nothing(tmp_path, capsys, args, status, message):
    out = tmp_path / "p.svg"
    assert main(["show", *TIC_PG, *args, "-o", str(out)]) == status
    assert message in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_usage_errors_exit_2(tmp_path, capsys):
    for argv in (
        [*TIC_PG, "-o", str(tmp_path / "sheet.html")],  # a sheet is .svg
        [*TIC_PG, "--certificate", "x.json", "-o", str(tmp_path / "x.svg")],  # an explorer is .html
        [*TIC_PG, TIC_BDDL[1]],  # a .pg game stands alone
        [TIC_BDDL[0]],  # a domain without its problem
        [*TIC_PG, "--position", "--moves", "b2"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(["show", *argv])
        assert exc.value.code == 2, argv
    assert list(tmp_path.iterdir()) == []


def test_a_certificate_that_is_not_json_points_at_the_place(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "bddlc-certificate",\n  "version": 1,,\n}\n')
    assert main(["show", *TIC_PG, "--certificate", str(bad), "-o", str(tmp_path / "x.html")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:16: error: not a JSON certificate" in err and "^" in err
    assert not (tmp_path / "x.html").exists()


def test_the_explorer_refuses_another_games_certificate_and_illegal_moves(tmp_path, capsys):
    data = certificate(open_model(TIC_PG).rules, TIC_PG)
    model = open_model(TIC_PG)
    other = open_model(TIC_BDDL)
    with pytest.raises(CertificateError, match="another game's"):
        explorer_html(other, data, "c.json")
    forged = json.loads(json.dumps(data))
    forged["game"]["sha256"][0] = "0" * 64
    with pytest.raises(CertificateError, match="sha256"):
        explorer_html(model, forged, "c.json")
    illegal = json.loads(json.dumps(data))
    node = next(n for n in illegal["nodes"] if n["ply"] == 1)
    taken = node["position"].index("B")
    node["moves"][0]["move"] = model.rules.cells[taken].name
    with pytest.raises(CertificateError, match="not legal"):
        explorer_html(model, illegal, "c.json")
    off = json.loads(json.dumps(data))
    child = off["nodes"][off["nodes"][0]["moves"][0]["to"]]
    child["position"] = "W" + child["position"][1:] if child["position"][0] == "." else "." + child["position"][1:]
    with pytest.raises(CertificateError, match="does not hold the position"):
        explorer_html(model, off, "c.json")
    path = tmp_path / "c.json"
    path.write_text(json.dumps(forged))
    assert main(["show", *TIC_PG, "--certificate", str(path), "-o", str(tmp_path / "x.html")]) == 1
    assert "sha256" in capsys.readouterr().err and not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("game", ["tic-bddl", "p2q1-pg", "tic-pg", "hex3-pg"])
def test_explorer_data_lists_every_reply_with_the_cells_it_changes(game, tmp_path, hex3_pg, capsys):
    """From the certificates `bddlc search --certificate` writes: a BDDL refutation, a .pg win, a .pg
    refutation whose lines end where Black's goal is out of reach, and Hex, whose half turn sends
    some moves to the node of the position's image."""
    files = {"tic-bddl": TIC_BDDL, "p2q1-pg": P2Q1_PG, "tic-pg": TIC_PG, "hex3-pg": hex3_pg}[game]
    rules = open_model(files).rules
    data = searched_certificate(files, tmp_path / "cert.json")
    shown = explorer_data(rules, read_certificate(data))
    strategist = BLACK if data["claim"] == "black-wins" else WHITE
    seen = {"symmetry": 0, "black_cannot_win": 0, "swap": 0, "pairing": 0, "left_out": 0}
    for node, (ply, line, edges, stuck) in zip(data["nodes"], shown["nodes"]):
        position = Position(sum(1 << i for i, c in enumerate(line) if c == "B"), sum(1 << i for i, c in enumerate(line) if c == "W"), ply)
        plays = {p.text: p for p in rules.plays(position)}
        assert (node["ply"], node["position"]) == (ply, line)
        if rules.to_move(ply) != strategist and not node.get("black_cannot_win") and "pairing" not in node:
            assert [e[0] for e in edges] == list(plays)
        for text, to, diff, symmetry, result, *extra in edges:
            won, swap = (extra[0], extra[1]) if extra else ([], None)
            after = plays[text].after
            if swap is not None:  # a White reply answered as its sibling: the sibling's node and symmetry
                seen["swap"] += 1
                sibling = next(m for m in node["moves"] if m["move"] == swap)
                assert (to, symmetry) == (sibling["to"], sibling.get("symmetry")) and text != swap
                after = plays[swap].after
            played = plays[text].after  # the cells the move itself changes (a click there plays it)
            assert diff == [[i, "B" if played.black >> i & 1 else "W"] for i in range(len(line)) if line[i] == "." and (played.black | played.white) >> i & 1]
            assert (to is None) == (result is not None)
            if node.get("others_lose_at_once") and text not in {m["move"] for m in node["moves"]}:
                # a reply the file leaves out: a node of the page's own, where the strategist plays its win at once
                seen["left_out"] += 1
                answer, reached = answer_at_once(rules, plays[text], strategist), plays[text].after
                assert answer is not None and result is None and to >= len(data["nodes"])
                page_ply, page_line, (win,), page_stuck = shown["nodes"][to]
                assert (page_ply, page_stuck) == (reached.ply, None)
                assert page_line == "".join("B" if reached.black >> i & 1 else "W" if reached.white >> i & 1 else "." for i in range(len(line)))
                assert win[0] == answer.text and win[1] is None and win[4] == f"{strategist.capitalize()} has won"
                assert_goal(rules, answer.after, strategist, set(win[5]))
                continue
            if symmetry is not None:  # node `to` holds the image of the position after the move
                seen["symmetry"] += 1
                perm = data["symmetries"][symmetry]
                image = ["."] * len(line)
                for i in range(len(line)):
                    image[perm[i]] = "B" if after.black >> i & 1 else "W" if after.white >> i & 1 else "."
                assert shown["nodes"][to][1] == "".join(image)
            mover = rules.to_move(ply)
            assert bool(won) == (to is None and rules.won(after, mover))
            won = [won] if won else []
            if won:  # the goal shown is one: the mover's stones on those cells alone reach it
                assert_goal(rules, after, mover, set(won[0]))
        assert (stuck is not None) == (not edges)
        if node.get("black_cannot_win"):  # the line ends early, and says why; the rules' minimax agrees
            seen["black_cannot_win"] += 1
            assert "Black cannot reach its goal" in stuck and not black_wins_by_rules(rules, position)
        elif "pairing" in node:  # ended by White's pairing: the pairs are named, and the rules' minimax agrees
            seen["pairing"] += 1
            assert "White pairs the cells " + "-".join(node["pairing"][0]) in stuck and not black_wins_by_rules(rules, position)
        elif stuck is not None:
            assert not plays and stuck.startswith(f"{rules.to_move(ply).capitalize()} has no legal move")
    if game == "hex3-pg":
        assert seen["symmetry"] > 0 and seen["swap"] > 0
    if game == "tic-pg":
        assert seen["black_cannot_win"] > 0 and seen["pairing"] > 0
    if game in ("tic-bddl", "tic-pg", "hex3-pg"):
        assert seen["left_out"] > 0


def test_a_goal_of_fixed_cells_is_drawn_on_the_board_at_those_cells():
    from bddl.ast import Absolute

    model = open_model([str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/hex/hex3_d5.bddl")])
    problem = model.bddl.problem
    root = ET.fromstring(model_sheet(model))
    patterns = [g for g in root.iter(f"{SVG}g") if g.get("class") == "pattern" and g.get("data-kind", "").endswith("-goal")]
    goals = list(problem.black_goals) + list(problem.white_goals)
    assert len(patterns) == len(goals) == 22
    for g, goal in zip(patterns, goals):
        assert g.get("data-board") == f"{problem.width} {problem.height}"
        rects = [r for r in g.iter(f"{SVG}rect") if r.get("data-bx") is not None]
        assert len(rects) == problem.width * problem.height
        drawn = {(int(r.get("data-bx")), int(r.get("data-by"))): r.get("data-atoms") for r in rects if r.get("data-atoms")}
        assert all(isinstance(a.x, Absolute) and isinstance(a.y, Absolute) for a in goal.atoms)
        assert drawn == {(a.x.value, a.y.value): a.pred for a in goal.atoms}
        x0, y0 = min(float(r.get("x")) for r in rects), min(float(r.get("y")) for r in rects)
        unit = float(rects[0].get("width"))
        for r in rects:  # x across, y down
            assert (float(r.get("x")), float(r.get("y"))) == pytest.approx((x0 + (int(r.get("data-bx")) - 1) * unit, y0 + (int(r.get("data-by")) - 1) * unit))


def test_a_board_too_large_to_draw_is_refused_without_a_file(tmp_path, capsys):
    problem = tmp_path / "big.bddl"
    problem.write_text("#boardsize\n101 100\n#init\n()\n#depth\n3\n#blackgoals\n(black(?x,?y) black(?x+1,?y))\n#whitegoals\nFalse\n")
    out = tmp_path / "big.svg"
    assert main(["show", TIC_BDDL[0], str(problem), "-o", str(out)]) == 1
    assert "10,100 cells" in capsys.readouterr().err and not out.exists()


def assert_goal(rules, position: Position, side: str, cells: set[int]) -> None:
    """`cells` hold `side`'s stones, and those stones alone (the other side's kept) win by the rules."""
    mask = sum(1 << c for c in cells)
    mine = position.black if side == BLACK else position.white
    assert cells and mine & mask == mask
    alone = Position(mask, position.white, position.ply) if side == BLACK else Position(position.black, mask, position.ply)
    assert rules.won(alone, side)


@pytest.mark.parametrize(
    "files, moves",
    [
        (TIC_BDDL, ["occupy 1 1", "occupy 2 2", "occupy 2 1", "occupy 3 3", "occupy 3 1"]),
        (TIC_PG, ["a1", "b2", "a2", "c3", "a3"]),
        (CONNECT3, ["occupyBottom 1 1", "occupyBottom 2 1", "occupyOnTop 1 3", "occupyBottom 3 1", "occupyOnTop 1 2"]),
        ("hex", ["a2", "c3", "a3", "c4", "a4"]),
    ],
)
def test_a_winning_move_shows_the_goal_it_reached(files, moves, hex_pg):
    rules = open_model(hex_pg if files == "hex" else files).rules
    position, before, last = play_line(rules, moves)
    assert rules.won(position, last.side)
    cells = cells_of(position_svg(rules, position, last, before))
    gold = {i for i, g in cells.items() for e in g if e.get("class") == "ground" and e.get("fill") == "#f2b134"}
    assert_goal(rules, position, last.side, gold)
    if files == "hex":  # a chain from the top border to the bottom one, no cell to spare
        assert all(not rules.won(Position(sum(1 << c for c in gold - {c}), position.white, position.ply), BLACK) for c in gold)
    before_win = cells_of(position_svg(rules, before, None))
    assert not any(e.get("fill") == "#f2b134" for g in before_win.values() for e in g)


def test_a_certificate_past_max_positions_is_refused_saying_how_to_raise_the_limit(tmp_path, capsys):
    cert = tmp_path / "tic.json"
    count = len(searched_certificate(TIC_PG, cert)["nodes"])
    page = tmp_path / "strategy.html"
    capsys.readouterr()
    assert main(["show", *TIC_PG, "--certificate", str(cert), "--max-positions", str(count - 1), "-o", str(page)]) == 3
    err = capsys.readouterr().err
    assert f"has {count:,} positions, more than the explorer's limit of {count - 1:,}" in err
    assert f"raise it with --max-positions {count} " in err
    # the page holds the replies the certificate leaves out as answered at once too (format version 4)
    assert f"more than the certificate's {round(cert.stat().st_size / 1e3)} KB: the replies it leaves out" in err
    assert not page.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["tic.json"]
    every = tmp_path / "every.json"  # every reply listed: the page is about the certificate's size
    write_certificate(open_model(TIC_PG), False, every, at_once=False)
    assert main(["show", *TIC_PG, "--certificate", str(every), "--max-positions", "1", "-o", str(page)]) == 3
    assert f"about {round(every.stat().st_size / 1e3)} KB like the certificate" in capsys.readouterr().err and not page.exists()
    # the limit it names lets it run; the default lets every certificate of docs/certificates.md's table through
    assert main(["show", *TIC_PG, "--certificate", str(cert), "--max-positions", str(count), "-o", str(page)]) == 0
    from compiler.cli.show import MAX_POSITIONS

    assert MAX_POSITIONS >= 57_636  # Hein 16 5x5 at 11, the largest Hex puzzle's certificate
    with pytest.raises(SystemExit) as exc:  # without a certificate the option bounds nothing: a usage error
        main(["show", *TIC_PG, "--max-positions", "5", "-o", str(tmp_path / "sheet.svg")])
    assert exc.value.code == 2 and "--max-positions" in capsys.readouterr().err


# --svg on play and solve: the position each shows, drawn as `show --moves` draws it


def run_cli(*argv: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "compiler.cli", *argv], cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=300, env=env)


def drawn_position(rules, svg: str) -> tuple[Position, set[int]]:
    """The position a drawing shows (its cells' data-state, read back) and the cells it marks as the last move's;
    the ply from its caption."""
    cells = cells_of(svg)
    black = sum(1 << i for i, g in cells.items() if g.get("data-state") == BLACK)
    white = sum(1 << i for i, g in cells.items() if g.get("data-state") == WHITE)
    marked = {i for i, g in cells.items() for c in g.iter(f"{SVG}circle") if c.get("class") == "last" and c.get("visibility") == "visible"}
    caption = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.text and t.text.startswith("after ")][0]
    return Position(black, white, int(caption.split()[1])), marked


def changed_by(rules, before: Position, after: Position) -> set[int]:
    return {i for i in range(len(rules.cells)) if expected_state(before, i) != expected_state(after, i)}


@pytest.mark.parametrize(
    "files, engine",
    [
        ([str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/httt/tic_4x4_d5.bddl")], "qbf"),
        ("hex3", "qbf"),
        ("hex3", "search"),
        (TIC_PG, "search"),  # no Black win: the initial position, nothing marked
        (TIC_BDDL, "qbf"),
    ],
)
def test_solve_svg_draws_the_position_after_blacks_first_move(files, engine, tmp_path, hex3_pg):
    files = hex3_pg if files == "hex3" else files
    rules = open_model(files).rules
    out = tmp_path / "first.svg"
    result = run_cli("solve", *files, "--engine", engine, "--json", "--svg", str(out))
    assert result.returncode in (10, 20), result.stderr
    answer = json.loads(result.stdout)
    position, marked = drawn_position(rules, out.read_text())
    if answer["black_wins"]:  # the first move the JSON names, replayed by the rules: its stone and its mark
        first = rules.parse_play(rules.initial, answer["first_move"]["text"])
        assert position == first.after and marked == changed_by(rules, rules.initial, first.after) != set()
    else:
        assert position == rules.initial and marked == set()
    check_stones(rules, out.read_text(), position, marked)
    check_places(rules, out.read_text())


def test_solve_svg_with_reply_to_draws_blacks_reply_to_that_move(tmp_path):
    files = [str(ROOT / "domains/breakthrough.bddl"), str(ROOT / "problems/breakthrough/second_2x4_d8.bddl")]
    rules = open_model(files).rules
    out = tmp_path / "reply.svg"
    result = run_cli("solve", *files, "--reply-to", "right-diagonal 1 2", "--json", "--svg", str(out))
    assert result.returncode == 10, result.stderr
    answer = json.loads(result.stdout)
    white = rules.parse_play(rules.initial, "right-diagonal 1 2")
    reply = rules.parse_play(white.after, answer["reply"]["text"])
    position, marked = drawn_position(rules, out.read_text())
    assert position == reply.after and position.ply == 2
    assert marked == changed_by(rules, white.after, reply.after) and len(marked) == 2  # a piece moves: from and to


@pytest.mark.parametrize(
    "files, moves",
    [
        ([str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/httt/tic_4x4_d5.bddl")], "occupy 1 1\noccupy 1 2\n"),
        ("hex3", "a1\nquit\n"),
        (TIC_PG, ""),  # no Black win within 9: no game, the initial position
    ],
)
def test_play_svg_draws_the_position_the_game_ended_in(files, moves, tmp_path, hex3_pg):
    files = hex3_pg if files == "hex3" else files
    rules = open_model(files).rules
    out = tmp_path / "end.svg"
    result = run_cli("play", *files, "--json", "--svg", str(out), "--engine", "qbf", stdin=moves)  # scripted against its moves
    assert result.returncode == (0 if moves else 20), result.stderr
    record = json.loads(result.stdout)
    positions = [rules.initial]
    for move in record["moves"]:  # the game record replayed by the rules
        positions.append(rules.parse_play(positions[-1], move["text"]).after)
    assert len(positions) >= 3 if moves else len(positions) == 1
    position, marked = drawn_position(rules, out.read_text())
    assert position == positions[-1] and marked == (changed_by(rules, positions[-2], positions[-1]) if moves else set())


def test_svg_of_play_and_solve_from_another_folder_is_deterministic_and_errors_leave_no_file(tmp_path):
    """Relative paths from another folder, two runs the same bytes; a wrong suffix is a usage error (2), a
    missing folder bad input (1) before any solve, and neither leaves a file."""
    game = os.path.relpath(ROOT / "problems/pg/tictactoe_3x3_d5.pg", tmp_path)
    first = run_cli("solve", game, "--engine", "search", "--svg", "a.svg", cwd=tmp_path)
    second = run_cli("solve", game, "--engine", "search", "--svg", "b.svg", cwd=tmp_path)
    assert first.returncode == second.returncode == 10, first.stderr
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
    ET.fromstring((tmp_path / "a.svg").read_text())
    for command, stdin in (("solve", ""), ("play", "b2\n")):
        wrong = run_cli(command, game, "--svg", "first.png", stdin=stdin, cwd=tmp_path)
        assert wrong.returncode == 2 and "a position is written as .svg: name the output FILE.svg, not first.png" in wrong.stderr
        missing = run_cli(command, game, "--svg", "no/first.svg", stdin=stdin, cwd=tmp_path)
        assert missing.returncode == 1 and "no/first.svg: error: cannot write the output: no such folder 'no'" in missing.stderr
        assert missing.stdout == "", "nothing solved or played before the error"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg", "b.svg"]
