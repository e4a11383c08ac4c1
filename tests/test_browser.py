"""The strategy explorer in a real browser: headless Chromium clicks through lines of play.

For BDDL models (tic-tac-toe 3x3 on domains/positional.bddl: White's
refutation; Connect-3: Black's win) and `.pg` games (Hex 3x3: Black's win,
with moves sent to a symmetric image; tic-tac-toe: White's refutation, whose
lines end where Black's goal is out of reach), the certificate is the one
`bddlc search GAME --certificate FILE` writes, `bddlc show` writes the
explorer, and Chromium plays seeded random lines through it: at each step
the board the page shows (each cell's `data-state`), the ply and plies left,
and the moves offered are compared with the game rules (`GameRules`); moves
are played alternately by their button and by clicking their cell; back,
forward and start must show the positions they lead to.  Skips, with the
reason, where Chromium, chromedriver or Selenium is missing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bddl.pg.animals import animal_game
from bddl.pg.hex import hex_board
from bddl.pg.writer import save_pg
from bddl.rules import BLACK, WHITE, Position, black_wins_by_rules
from compiler.cli import main
from compiler.model import open_model
from helpers.browser import chromium, why_no_browser

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


def image(position: Position, perm: list[int]) -> Position:
    """The position under a certificate's symmetry: cell perm[i] gets cell i's stone."""
    def move(mask: int) -> int:
        return sum(1 << perm[i] for i in range(len(perm)) if mask >> i & 1)

    return Position(move(position.black), move(position.white), position.ply)


def walk(driver, rules, strategist: str, rng: random.Random, by_cell: bool, seen: set | None = None, ends: list | None = None) -> int:
    """One line of play from the start to its end; returns its length in plies.  The board shown
    is always the rules' position after the moves played, even where the certificate stores another
    (a symmetric image, a sibling's node after a swap: `seen` collects which the page said it met);
    a line that ends before the game does (no moves offered) is recorded in `ends`."""
    cells = len(rules.cells)
    click(driver, "#start")
    position, history = rules.initial, [rules.initial]
    while True:
        assert board_shown(driver, cells) == expected(position, cells), f"after {position.ply} plies"
        assert text(driver, "ply") == str(position.ply) and text(driver, "left") == str(rules.depth - position.ply)
        buttons = driver.execute_script("return Array.from(document.querySelectorAll('#moves button')).map(b => b.getAttribute('data-move'));")
        if not buttons:
            status = text(driver, "status")
            if rules.plays(position):  # the certificate ends the line early: only where Black cannot win from here
                assert strategist == WHITE and ("Black cannot reach its goal" in status or "White pairs the cells" in status), status
                assert not black_wins_by_rules(rules, position)
                if ends is not None:
                    ends.append(position)
            else:
                assert "has no legal move" in status, status
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
            # every reply of the opponent, named as played (in the stored node's order, which a symmetry permutes)
            assert sorted(buttons) == sorted(legal)
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
        # the page shows the position played, whatever node stores it (a symmetric image, a sibling's after a
        # swap), and the line of play names the move played
        assert board_shown(driver, cells) == expected(position, cells), f"after {choice.text}"
        last = driver.execute_script("return Array.from(document.querySelectorAll('#line span')).pop().textContent;")
        assert last == f"{position.ply}. {choice.side[0].upper()} {choice.text}"
        stored = text(driver, "stored")
        if stored:
            assert stored.endswith("shown as played)") and ("symmetry" in stored or "answered as after" in stored), stored
            if seen is not None:
                seen.add("symmetry" if "answered as after" not in stored else "swap")
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
    """The rules, the strategist and the explorer page of the certificate the real pipeline writes."""
    import json

    model = open_model(files)
    assert main(["search", *files, "--certificate", str(tmp_path / "cert.json")]) == 0
    data = json.loads((tmp_path / "cert.json").read_text())
    page = tmp_path / "strategy.html"
    assert main(["show", *files, "--certificate", str(tmp_path / "cert.json"), "-o", str(page)]) == 0
    return model.rules, (BLACK if data["claim"] == "black-wins" else WHITE), page, data


def test_tic_tac_toe_bddl_whites_refutation_clicked_through(tmp_path, browser):
    rules, strategist, page, _ = explorer(tmp_path, [str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/httt/tic_3x3_d9.bddl")])
    assert strategist == WHITE  # 3x3 Tic: no Black win within 9 (the file's header)
    browser.get(page.resolve().as_uri())
    rng = random.Random(29)
    lengths = [walk(browser, rules, strategist, rng, by_cell=k % 2 == 1) for k in range(4)]
    assert all(length >= 5 for length in lengths)


def test_connect3_bddl_blacks_win_clicked_through(tmp_path, browser):
    """Gravity: a move names its column's top cell (`occupyBottom 2 1`) and its stone lands lower down."""
    rules, strategist, page, _ = explorer(tmp_path, [str(ROOT / "domains/connect.bddl"), str(ROOT / "problems/connect/connect3_4x4_d9.bddl")])
    assert strategist == BLACK  # the file's header: Black wins within 9
    browser.get(page.resolve().as_uri())
    rng = random.Random(3)
    for k in range(4):
        walk(browser, rules, strategist, rng, by_cell=k % 2 == 1)


def test_hex_pg_blacks_win_clicked_through(tmp_path, browser):
    path = tmp_path / "hex3.pg"
    save_pg(hex_board(3), str(path))
    rules, strategist, page, data = explorer(tmp_path, [str(path)])
    assert strategist == BLACK and rules.layout == "hex" and data["symmetries"]
    browser.get(page.resolve().as_uri())
    rng, seen = random.Random(4), set()
    for k in range(8):
        walk(browser, rules, strategist, rng, by_cell=k % 2 == 0, seen=seen)
    assert seen == {"symmetry", "swap"}, "the lines met a stored symmetric image and a swap, shown as played"
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


def test_an_edge_to_a_symmetric_image_shows_the_position_played_and_says_so_quietly(tmp_path, browser):
    """Hex 3x3's certificate (from bddlc search) sends some moves to the node of the position's image under
    the board's half turn (`symmetry`): the page shows the position played (mapping the stored node
    back), says in one quiet line that the certificate stores its image, and goes on from there with
    the moves named as played, two moves deep."""
    path = tmp_path / "hex3.pg"
    save_pg(hex_board(3), str(path))
    rules, _, page, data = explorer(tmp_path, [str(path)])
    nodes, cells = data["nodes"], len(rules.cells)
    node, edge = next((n, m) for n in nodes for m in n["moves"] if m.get("symmetry") is not None)
    # the line of play to that node, found backwards through the edges that keep the position as it is
    parent = {m["to"]: (n["id"], m["move"]) for n in nodes for m in n["moves"] if m.get("to") is not None and m.get("symmetry") is None}
    path_to, at = [], node["id"]
    while at != data["root"]:
        at, move = parent[at]
        path_to.append(move)
    browser.get(page.resolve().as_uri())
    position = rules.initial
    for move in reversed(path_to):
        click(browser, f"#moves button[data-move='{move}']")
        position = rules.parse_play(position, move).after
    assert board_shown(browser, cells) == expected(position, cells) and text(browser, "stored") == ""
    click(browser, f"#moves button[data-move='{edge['move']}']")
    after = rules.parse_play(position, edge["move"]).after
    stored = image(after, data["symmetries"][edge["symmetry"]])
    assert stored != after and board_shown(browser, cells) == expected(after, cells)
    assert text(browser, "stored") == (f"(the certificate stores this position as its image under symmetry {edge['symmetry']}; "
                                        "shown as played)")
    assert "symmetry" not in text(browser, "status")
    for _ in range(2):  # the moves offered are the legal moves as played, and each shows the position it reaches
        offered = browser.execute_script("return Array.from(document.querySelectorAll('#moves button')).map(b => b.getAttribute('data-move'));")
        if not offered:
            break
        legal = {p.text: p for p in rules.plays(after)}
        assert set(offered) <= set(legal)
        click(browser, f"#moves button[data-move='{offered[-1]}']")
        after = legal[offered[-1]].after
        assert board_shown(browser, cells) == expected(after, cells)
    click(browser, "#start")
    assert board_shown(browser, cells) == expected(rules.initial, cells) and text(browser, "stored") == ""


def test_tic_tac_toe_pg_lines_end_where_black_cannot_win(tmp_path, browser):
    """The .pg refutation ends a line as soon as Black's goal is out of reach: the page says so, and
    the rules' plain minimax agrees that Black cannot win from there."""
    rules, strategist, page, data = explorer(tmp_path, [str(ROOT / "problems/pg/tictactoe_3x3.pg")])
    assert strategist == WHITE and any(n.get("black_cannot_win") for n in data["nodes"])
    browser.get(page.resolve().as_uri())
    rng, ends = random.Random(7), []
    for k in range(6):
        walk(browser, rules, strategist, rng, by_cell=k % 2 == 1, ends=ends)
    assert ends, "no line reached a node where Black cannot win"


@pytest.mark.parametrize("game, claim", [("hex 3x3", "black-wins"), ("N-pentomino 5x5 weak, 5 moves", "no-black-win")],
                         ids=["win", "refutation"])
def test_a_swapped_move_shows_the_position_played_and_says_so_quietly(tmp_path, browser, game, claim):
    """Hex 3x3's win certificate answers some White replies by a sibling's strategy (`swap`), and
    the N-pentomino's weak game on 5x5 within 5 moves refutes some Black moves so (an empty Hex
    board's refutation is one pairing, and the suite's small refutations have no swap since White's
    moves are the solver's own): a click on such a move shows the position played (the stone on the
    clicked cell, not the sibling's), with a quiet line naming the sibling, and the moves after it are
    legal as played (issue 42: White b3 clicked, White a1 shown)."""
    path = tmp_path / "game.pg"
    save_pg(hex_board(3) if game == "hex 3x3" else animal_game("N-pentomino", 5, weak=True, moves=5), str(path))
    rules, strategist, page, data = explorer(tmp_path, [str(path)])
    assert data["claim"] == claim and data["version"] in (2, 3, 4)
    nodes, cells = data["nodes"], len(rules.cells)
    parent = {m["to"]: (n["id"], m["move"]) for n in nodes for m in n["moves"] if m.get("to") is not None and m.get("symmetry") is None}
    node, edge = next((n, m) for n in nodes for m in n["moves"] if "swap" in m and (n["id"] == data["root"] or n["id"] in parent))
    path_to, at = [], node["id"]
    while at != data["root"]:
        at, move = parent[at]
        path_to.append(move)
    browser.get(page.resolve().as_uri())
    position = rules.initial
    for move in reversed(path_to):
        click(browser, f"#moves button[data-move='{move}']")
        position = rules.parse_play(position, move).after
    click(browser, f"#moves button[data-move='{edge['move']}']")
    after = rules.parse_play(position, edge["move"]).after
    assert board_shown(browser, cells) == expected(after, cells), "the stone on the cell clicked"
    stored = text(browser, "stored")
    assert stored.startswith(f"(answered as after {edge['swap']}: {strategist.capitalize()}'s strategy there never claims {edge['move']}")
    assert stored.endswith("shown as played)") and "answered as after" not in text(browser, "status")
    rng = random.Random(5)
    while True:  # on to the end of the line: every position shown is the one played
        offered = browser.execute_script("return Array.from(document.querySelectorAll('#moves button')).map(b => b.getAttribute('data-move'));")
        if not offered:
            break
        legal = {p.text: p for p in rules.plays(after)}
        assert set(offered) <= set(legal), (offered, sorted(legal))
        choice = rng.choice(offered)
        click(browser, f"#moves button[data-move='{choice}']")
        after = legal[choice].after
        assert board_shown(browser, cells) == expected(after, cells)
    click(browser, "#start")
    for move in reversed(path_to):
        click(browser, f"#moves button[data-move='{move}']")
    click(browser, f"#moves button[data-move='{edge['move']}']")
    click(browser, "#back")
    assert board_shown(browser, cells) == expected(position, cells)
