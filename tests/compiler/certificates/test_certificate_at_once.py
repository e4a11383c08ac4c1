"""Replies left out as answered at once (format version 4, "others_lose_at_once").

A node where the side the strategy answers moves may leave out the replies
after which the strategist wins at once (`bddl.at_once.answer_at_once`): the
checker finds each answer again.  Held four ways: certificates of random
games of both languages, both claims, are accepted with and without the
shortcut, have the brute force's verdict, and the shortcut never adds a
node; every reply left out really is answered by a win at once (the rules
alone, move by move); forged files (a reply left out that does not lose at
once, the mark at the strategist's turn, on a line's end, with nothing left
out, in a version 3 file, a swap of the cell a win at once claims) are each
refused; and the explorer offers the replies left out, each ending its line.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import sys
from pathlib import Path

import pytest
from conftest import scaled
from helpers.certificates import forged_swaps
from helpers.strategies import game as random_bddl_game
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[2] / "pg"))  # tests/pg's random games and brute force
from pg_random import brute_force  # noqa: E402
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.at_once import answer_at_once  # noqa: E402
from bddl.pg.hex import hex_board  # noqa: E402
from bddl.rules import BLACK, WHITE, Position, black_wins_by_rules  # noqa: E402
import compiler.certificates.check as checker  # noqa: E402
from compiler.certificates import build_certificate  # noqa: E402
from compiler.certificates.check import CertificateFormatError, _check_shape, check, file_hashes  # noqa: E402
from compiler.certificates.files import certificate_lines  # noqa: E402
from compiler.model import bddl_model, pg_model  # noqa: E402
from compiler.pictures.explorer import explorer_data, read_certificate  # noqa: E402

HEX_WIN = hex_board(4, 9, "o.../.x../..../...x")  # a 4x4 Hex position where Black wins within 9
MARK = "others_lose_at_once"


def as_dict(certificate) -> dict:
    return json.loads("".join(certificate_lines(certificate)))


def verdict(model, data):
    return check(model.rules, data, file_hashes(model.paths), model.checker_game())


def position_of(data: dict, node: dict) -> Position:
    text = node["position"]
    return Position(sum(1 << i for i, c in enumerate(text) if c == "B"), sum(1 << i for i, c in enumerate(text) if c == "W"), node["ply"])


def left_out(rules, data: dict, node: dict) -> list:
    listed = {e["move"] for e in node["moves"]}
    return [play for play in rules.plays(position_of(data, node)) if play.text not in listed]


def certified_both_ways(model, black_wins: bool) -> tuple[dict, dict]:
    """The certificate with and without replies left out: both accepted, the shorter no larger,
    and each reply left out answered by a move the rules say wins at once."""
    short, full = (as_dict(build_certificate(model, black_wins, at_once=flag)) for flag in (True, False))
    for data in (short, full):
        assert verdict(model, data).valid, verdict(model, data).report()
    assert len(short["nodes"]) <= len(full["nodes"])
    assert not any(MARK in node for node in full["nodes"]) and full["version"] < 4
    strategist = BLACK if black_wins else WHITE
    marked = [node for node in short["nodes"] if node.get(MARK)]
    assert (short["version"] == 4) == bool(marked)
    for node in marked:
        replies = left_out(model.rules, short, node)
        assert replies
        for play in replies:
            answer = answer_at_once(model.rules, play, strategist)
            assert answer is not None and model.rules.won(answer.after, strategist)
            assert answer.after.ply <= model.rules.depth
    return short, full


def test_hex_win_leaves_out_replies_and_checks():
    model = pg_model(HEX_WIN)
    short, full = certified_both_ways(model, True)
    assert short["version"] == 4 and len(short["nodes"]) < len(full["nodes"])
    left = sum(len(left_out(model.rules, short, node)) for node in short["nodes"] if node.get(MARK))
    checked = verdict(model, short)
    assert checked.at_once == left > 0 and f"{left:,} replies left out, each answered by a win at once" in checked.report()
    assert verdict(model, full).at_once == 0 and "left out" not in verdict(model, full).report()


@settings(max_examples=scaled(40), deadline=None)
@given(st.integers(0, 10**9))
def test_random_pg_games_both_ways(seed):
    game = random_pg_game(random.Random(seed))
    model = pg_model(game)
    black_wins = brute_force(game)
    certified_both_ways(model, black_wins)


@settings(max_examples=scaled(40), deadline=None)
@given(random_bddl_game(max_depth=6))
def test_random_bddl_games_both_ways(case):
    domain, problem = case
    model = bddl_model(domain, problem)
    if model.rules.winner_before_play() is not None:
        return
    certified_both_ways(model, black_wins_by_rules(model.rules))


def test_bddl_suite_game_leaves_out_replies():
    """Connect-3 on 4x4 within 9: Black's threats make most of White's replies lose at once."""
    from compiler.model import open_model

    model = open_model(["domains/connect.bddl", "problems/connect/connect3_4x4_d9.bddl"])
    short, full = certified_both_ways(model, True)
    assert short["version"] == 4 and len(short["nodes"]) < len(full["nodes"])


@pytest.mark.parametrize("command", ["search", "solve"])
def test_every_reply_on_the_command_line_writes_the_older_format(tmp_path, capsys, command):
    """`--every-reply` with --certificate: the file `write_certificate(..., at_once=False)` writes
    (a checker before version 4 reads it), on the Connect-3 model whose default file leaves replies out."""
    from compiler.cli import main
    from compiler.certificates import write_certificate
    from compiler.model import open_model

    game = ["domains/connect.bddl", "problems/connect/connect3_4x4_d9.bddl"]
    engine = ["--engine", "search"] if command == "solve" else []
    main([command, *game, *engine, "--certificate", str(tmp_path / "short.json")])
    main([command, *game, *engine, "--certificate", str(tmp_path / "every.json"), "--every-reply"])
    write_certificate(open_model(game), True, tmp_path / "api.json", at_once=False)
    capsys.readouterr()
    every = json.loads((tmp_path / "every.json").read_text())
    assert (tmp_path / "every.json").read_bytes() == (tmp_path / "api.json").read_bytes()
    assert every["version"] < 4 and json.loads((tmp_path / "short.json").read_text())["version"] == 4
    with pytest.raises(SystemExit) as exit_:
        main([command, *game, *engine, "--every-reply"])
    assert exit_.value.code == 2 and "add --certificate FILE.json" in capsys.readouterr().err


# -- forgeries -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hex_short():
    model = pg_model(HEX_WIN)
    data = as_dict(build_certificate(model, True))
    assert verdict(model, data).valid and any(node.get(MARK) for node in data["nodes"])
    return model, data


def test_leaving_out_a_reply_that_does_not_lose_at_once_is_refused(hex_short):
    """Drop a listed reply of a marked node: its line does not end at once, so it is missing."""
    model, data = hex_short
    tried = 0
    for node in data["nodes"]:
        if node.get(MARK) and node["moves"]:
            bad = copy.deepcopy(data)
            dropped = bad["nodes"][node["id"]]["moves"].pop(0)
            reason = verdict(model, bad).reason
            assert f"reply {dropped['move']} is missing" in reason and "after it" in reason, reason
            tried += 1
    assert tried >= 3


def test_an_unmarked_node_must_list_every_reply(hex_short):
    model, data = hex_short
    node = next(node for node in data["nodes"] if node.get(MARK))
    bad = copy.deepcopy(data)
    del bad["nodes"][node["id"]][MARK]
    assert "is missing" in verdict(model, bad).reason


@pytest.mark.parametrize("where", ["strategist", "everything listed", "line's end"])
def test_a_mark_in_the_wrong_place_is_refused(where):
    model = pg_model(HEX_WIN)
    full = as_dict(build_certificate(model, True, at_once=False))
    bad = copy.deepcopy(full)
    bad["version"] = 4
    if where == "strategist":
        bad["nodes"][0][MARK] = True
        expected = "Black (the strategist) is to move here"
    elif where == "everything listed":
        bad["nodes"][bad["nodes"][0]["moves"][0]["to"]][MARK] = True
        expected = "yet every reply is listed"
    else:
        model, bad = _refutation_with_an_ended_line()
        ended = next(node for node in bad["nodes"] if node.get("black_cannot_win") or "pairing" in node)
        ended[MARK] = True
        expected = "leaves no replies out"
    assert expected in verdict(model, bad).reason


def _refutation_with_an_ended_line():
    for seed in range(300):
        game = random_pg_game(random.Random(seed))
        if brute_force(game):
            continue
        model = pg_model(game)
        if model.rules.winner_before_play() is not None:
            continue
        data = as_dict(build_certificate(model, False))
        if any(node.get("black_cannot_win") or "pairing" in node for node in data["nodes"][1:]):
            data["version"] = 4
            return model, data
    raise AssertionError("no random refutation ends a line among 300 games")


def test_the_mark_needs_format_version_4(hex_short):
    _, data = hex_short
    old = copy.deepcopy(data)
    old["version"] = 3
    with pytest.raises(CertificateFormatError, match="version 4"):
        _check_shape(old, "c.json")
    bad = copy.deepcopy(data)
    next(node for node in bad["nodes"] if node.get(MARK))[MARK] = "yes"
    with pytest.raises(CertificateFormatError, match="is true"):
        _check_shape(bad, "c.json")


def test_a_swap_of_the_cell_a_win_at_once_claims_is_refused(monkeypatch):
    """The carriers count the cells the strategist's wins at once claim: forge swaps on random
    Maker-Breaker wins, and find some the checker refuses only because of those cells."""
    from test_relevance import maker_breaker_games

    rng = random.Random(41)
    caught = 0
    for game in itertools.islice(maker_breaker_games(rng), 1247, 1300):
        if caught >= 3:
            break
        model = pg_model(game)
        if model.rules.winner_before_play() is not None or not brute_force(game):
            continue
        data = as_dict(build_certificate(model, True))
        if not any(node.get(MARK) for node in data["nodes"]):
            continue
        for _, bad in forged_swaps(data):
            if "strategy there claims" not in verdict(model, bad).reason:
                continue
            with monkeypatch.context() as patched:  # without the wins' cells the forgery would pass
                patched.setattr(checker, "_check_left_out", lambda *args: 0)
                if verdict(model, bad).valid:
                    caught += 1
    assert caught >= 1, "no forged swap depended on a win at once's cell"


# -- the explorer ----------------------------------------------------------------------------


def test_the_explorer_offers_the_replies_left_out(hex_short):
    """Each reply left out leads to a node of the page's own, where the strategist's one move wins."""
    model, data = hex_short
    shown = explorer_data(model.rules, read_certificate(data))
    for node, drawn in zip(data["nodes"], shown["nodes"]):
        if not node.get(MARK):
            continue
        legal = [play.text for play in model.rules.plays(position_of(data, node))]
        assert [edge[0] for edge in drawn[2]] == legal  # every reply, in the rules' order
        ended = [edge for edge in drawn[2] if edge[0] not in {e["move"] for e in node["moves"]}]
        assert ended
        for edge in ended:
            (win,) = shown["nodes"][edge[1]][2]
            assert edge[1] >= len(data["nodes"]) and win[1] is None and win[4] == "Black has won" and win[5]
    forged = copy.deepcopy(data)
    node = next(node for node in forged["nodes"] if node.get(MARK) and node["moves"])
    node["moves"].pop(0)
    with pytest.raises(Exception, match="no move that wins at once"):
        explorer_data(model.rules, read_certificate(forged))


def test_a_white_strategist_wins_at_once_too():
    """A refutation's strategist is White: on a game where White has goals, Black's replies after
    which White completes one are left out the same way."""
    for seed in range(400):
        game = random_pg_game(random.Random(seed))
        if not game.white_wins or brute_force(game):
            continue
        model = pg_model(game)
        short, _ = certified_both_ways(model, False)
        if any(node.get(MARK) for node in short["nodes"]):
            return
    pytest.skip("no random refutation with White's wins at once among 400 games")


# -- the rules' fast answer ------------------------------------------------------------------


@settings(max_examples=scaled(100), deadline=None)
@given(st.integers(0, 10**9))
def test_pg_rules_win_at_once_is_the_first_play_that_wins(seed):
    """`PgRules.win_at_once` reads the winning sets' masks; along random lines of random games it
    names the same play as trying every play in the rules' order."""
    rng = random.Random(seed)
    rules = pg_model(random_pg_game(rng)).rules
    position = rules.initial
    while True:
        side = rules.to_move(position.ply)
        plays = rules.plays(position)
        tried = next((play for play in plays if rules.won(play.after, side)), None)
        fast = rules.win_at_once(position)
        assert (None if tried is None else (tried.text, tried.after)) == (None if fast is None else (fast.text, fast.after))
        if not plays or position.ply >= rules.depth + 2:
            break
        position = rng.choice(plays).after


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_hex_win_at_once_is_the_first_play_that_joins_the_borders(size):
    """On Hex, `PgRules.win_at_once` floods from each border once; on random positions of every
    size it names the play trying each open cell finds (none, one, several, joined already)."""
    rng = random.Random(size)
    rules = pg_model(hex_board(size, size * size)).rules
    found = set()
    for _ in range(scaled(300)):
        cells = list(range(size * size))
        rng.shuffle(cells)
        black_count, white_count = rng.randint(0, size * size // 2), rng.randint(0, size * size // 3)
        black = sum(1 << c for c in cells[:black_count])
        white = sum(1 << c for c in cells[black_count:black_count + white_count])
        for ply in (0, 2 * rng.randint(1, size)):  # Black to move (the even plies), past the first move's set
            position = Position(black, white, ply)
            tried = next((play for play in rules.plays(position) if rules.won(play.after, BLACK)), None)
            fast = rules.win_at_once(position)
            assert (None if tried is None else (tried.text, tried.after)) == (None if fast is None else (fast.text, fast.after))
            found.add("none" if tried is None else "joined" if rules.won(position, BLACK) else "joins")
    assert found == {"none", "joined", "joins"}, found
