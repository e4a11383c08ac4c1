"""The strategy explorer in a real browser: headless Chromium clicks through lines of play.

For a BDDL model (tic-tac-toe 3x3 on domains/positional.bddl: White's
refutation) and a `.pg` game (Hex 3x3: Black's win), a certificate is made
by the plain minimax of tests/helpers/certificates.py, `bddlc show` writes
the explorer, and Chromium plays seeded random lines through it: at each
step the board the page shows (each cell's `data-state`), the ply and plies
left, and the moves offered are compared with the game rules (`GameRules`);
moves are played alternately by their button and by clicking their cell;
back, forward and start must show the positions they lead to.  Skips, with
the reason, where Chromium, chromedriver or Selenium is missing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bddl.pg.hex import hex_board
from bddl.pg.writer import save_pg
from bddl.rules import BLACK, WHITE, Position, black_wins_by_rules
from compiler.cli import main
from compiler.model import open_model
from helpers.browser import chromium, why_no_browser
from helpers.certificates import write_certificate

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser()))


def board_shown(driver, cells: int) -> list[str]:
    return driver.execute_script(f"return Array.from({{length: {cells}}}, (_, i) => document.getElementById('c' + i).getAttribute('data-state'));")


def expected(position, cells: int) -> list[str]:
    return [BLACK if position.black >> i & 1 else WHITE if position.white >> i & 1 else "open" for i in range(cells)]


def click(driver, css: str) -> None:
    driver.execute_script("document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true}));", css)


def text(driver, element_id: str) -> str:
    return driver.execute_script("return document.getElementById(arguments[0]).textContent;", element_id)


def walk(driver, rules, strategist: str, rng: random.Random, by_cell: bool) -> int:
    """One line of play from the start to its end; returns its length in plies."""
    cells = len(rules.cells)
    click(driver, "#start")
    position, history = rules.initial, [rules.initial]
    while True:
        assert board_shown(driver, cells) == expected(position, cells), f"after {position.ply} plies"
        assert text(driver, "ply") == str(position.ply) and text(driver, "left") == str(rules.depth - position.ply)
        buttons = driver.execute_script("return Array.from(document.querySelectorAll('#moves button')).map(b => b.getAttribute('data-move'));")
        if not buttons:
            return position.ply
        legal = {p.text: p for p in rules.plays(position)}
        side = rules.to_move(position.ply)
        if side == strategist:
            assert len(buttons) == 1 and buttons[0] in legal
            choice = legal[buttons[0]]
            # the strategist's move keeps its verdict: the rules' own minimax says so
            keeps = black_wins_by_rules(rules, choice.after) or rules.won(choice.after, BLACK)
            assert keeps if strategist == BLACK else (rules.won(choice.after, WHITE) or choice.after.ply >= rules.depth or not keeps)
        else:
            assert buttons == list(legal), "every reply of the opponent, in the rules' order"
            choice = legal[rng.choice(buttons)]
        changed = [i for i in range(cells) if expected(position, cells)[i] != expected(choice.after, cells)[i]]
        if by_cell and changed:
            # a click on a cell plays the move that changes it when no other move does
            others = [p for p in legal.values() if p is not choice and any(expected(position, cells)[i] != expected(p.after, cells)[i] for i in changed[:1])]
            if side == strategist or not others:
                click(driver, f"#c{changed[0]}")
            else:
                click(driver, f"#moves button[data-move='{choice.text}']")
        else:
            click(driver, f"#moves button[data-move='{choice.text}']")
        position = choice.after
        history.append(position)
        if rules.won(position, choice.side) or position.ply >= rules.depth:
            assert board_shown(driver, cells) == expected(position, cells)
            status = text(driver, "status")
            assert ("has won" in status) == rules.won(position, choice.side), status
            gold = set(driver.execute_script("return Array.from(document.querySelectorAll('.cell[data-won=yes]')).map(g => +g.getAttribute('data-cell'));"))
            if rules.won(position, choice.side):  # the goal shown: the mover's stones there alone win by the rules
                mask = sum(1 << c for c in gold)
                mine = position.black if choice.side == BLACK else position.white
                alone = Position(mask, position.white, position.ply) if choice.side == BLACK else Position(position.black, mask, position.ply)
                assert gold and mine & mask == mask and rules.won(alone, choice.side)
            else:
                assert not gold
            break
    # back to the start one step at a time, then forward to the end: the same positions
    for position in reversed(history[:-1]):
        click(driver, "#back")
        assert board_shown(driver, cells) == expected(position, cells)
    for position in history[1:]:
        click(driver, "#forward")
        assert board_shown(driver, cells) == expected(position, cells)
    return len(history) - 1


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def explorer(tmp_path: Path, files: list[str]):
    model = open_model(files)
    data = write_certificate(model.rules, files, tmp_path / "cert.json")
    page = tmp_path / "strategy.html"
    assert main(["show", *files, "--certificate", str(tmp_path / "cert.json"), "-o", str(page)]) == 0
    return model.rules, (BLACK if data["claim"] == "black-wins" else WHITE), page


def test_tic_tac_toe_bddl_whites_refutation_clicked_through(tmp_path, browser):
    rules, strategist, page = explorer(tmp_path, [str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/httt/tic_3x3_d9.bddl")])
    assert strategist == WHITE  # 3x3 Tic: no Black win within 9 (the file's header)
    browser.get(page.resolve().as_uri())
    rng = random.Random(29)
    lengths = [walk(browser, rules, strategist, rng, by_cell=k % 2 == 1) for k in range(4)]
    assert all(length >= 5 for length in lengths)


def test_connect3_bddl_blacks_win_clicked_through(tmp_path, browser):
    """Gravity: a move names its column's top cell (`occupyBottom 2 1`) and its stone lands lower down."""
    rules, strategist, page = explorer(tmp_path, [str(ROOT / "domains/connect.bddl"), str(ROOT / "problems/connect/connect3_4x4_d9.bddl")])
    assert strategist == BLACK  # the file's header: Black wins within 9
    browser.get(page.resolve().as_uri())
    rng = random.Random(3)
    for k in range(4):
        walk(browser, rules, strategist, rng, by_cell=k % 2 == 1)


def test_hex_pg_blacks_win_clicked_through(tmp_path, browser):
    path = tmp_path / "hex3.pg"
    save_pg(hex_board(3), str(path))
    rules, strategist, page = explorer(tmp_path, [str(path)])
    assert strategist == BLACK and rules.layout == "hex"
    browser.get(page.resolve().as_uri())
    rng = random.Random(4)
    for k in range(4):
        walk(browser, rules, strategist, rng, by_cell=k % 2 == 0)
    # the keys: Home goes to the start, the right arrow forward along the last line, the left one back
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    cells = len(rules.cells)
    assert board_shown(browser, cells) == expected(rules.initial, cells)
    body.send_keys(Keys.ARROW_RIGHT)
    first = browser.execute_script("return document.querySelectorAll('#line span')[1].textContent;")  # "1. B b2"
    after = rules.parse_play(rules.initial, first.split()[-1]).after
    assert board_shown(browser, cells) == expected(after, cells)
    body.send_keys(Keys.ARROW_LEFT)
    assert board_shown(browser, cells) == expected(rules.initial, cells)


def test_an_edge_to_a_symmetric_image_shows_the_stored_position_and_says_so(tmp_path, browser):
    """A certificate may send a move to the node of its image under a symmetry (`symmetry`): the page
    shows that node's position, as stored, with a note, and goes on from there."""
    import json

    files = [str(ROOT / "problems/pg/tictactoe_3x3.pg")]
    rules = open_model(files).rules
    data = write_certificate(rules, files, tmp_path / "plain.json")
    names = [c.name for c in rules.cells]
    transpose = [names.index("abc"[int(n[1]) - 1] + str("abc".index(n[0]) + 1)) for n in names]  # a2 <-> b1
    nodes = data["nodes"]
    # a node where Black moves whose position the transpose keeps, and two of its moves that are each other's image
    for node in nodes:
        line = node["position"]
        if rules.to_move(node["ply"]) != BLACK or any(line[transpose[i]] != line[i] for i in range(len(line))):
            continue
        moves = {m["move"]: m for m in node["moves"] if m["to"] is not None}
        pairs = [(a, names[transpose[names.index(a)]]) for a in moves if names[transpose[names.index(a)]] in moves and a < names[transpose[names.index(a)]]]
        if pairs:
            kept, imaged = pairs[0]
            moves[imaged]["to"], moves[imaged]["symmetry"] = moves[kept]["to"], 0
            break
    else:
        pytest.fail("no symmetric node in the certificate")
    data["symmetries"] = [transpose]
    (tmp_path / "cert.json").write_text(json.dumps(data))
    page = tmp_path / "strategy.html"
    assert main(["show", *files, "--certificate", str(tmp_path / "cert.json"), "-o", str(page)]) == 0
    # the line of play to that node, found backwards through the edges
    parent = {m["to"]: (n["id"], m["move"]) for n in nodes for m in n["moves"] if m["to"] is not None and "symmetry" not in m}
    path, at = [], node["id"]
    while at != data["root"]:
        at, move = parent[at]
        path.append(move)
    browser.get(page.resolve().as_uri())
    for move in reversed(path):
        click(browser, f"#moves button[data-move='{move}']")
    click(browser, f"#moves button[data-move='{imaged}']")
    stored = nodes[moves[kept]["to"]]["position"]
    assert "".join({"black": "B", "white": "W", "open": "."}[s] for s in board_shown(browser, len(names))) == stored
    assert "symmetry 0" in text(browser, "status")
    position = rules.parse_play(Position(sum(1 << i for i, c in enumerate(stored) if c == "B"), sum(1 << i for i, c in enumerate(stored) if c == "W"),
                                         node["ply"] + 1), browser.execute_script("return document.querySelector('#moves button').getAttribute('data-move');"))
    click(browser, "#moves button")
    assert board_shown(browser, len(names)) == expected(position.after, len(names))
