"""Swap edges in win certificates (format version 2): a White reply outside
the carrier of a sibling reply's strategy is answered by that strategy.

In a refutation (White's strategy), Black's moves on dead cells (no goal of
Black through them can still be completed) outside the carrier of a
sibling's White strategy borrow that strategy the same way; and where White
has winning sets too, a White reply may only be swapped on a cell dead for
White.

Held three ways: certificates of random Maker-Breaker games (graphs, Hex
boards, winning sets, (p,q) turns, first-move sets), both claims, are
accepted by the checker and their verdicts are the brute force's; every swap
edge keeps the verdict by the brute force too (the lemmas the checker relies
on, tested on their own); and forged swaps (the move inside the sibling's
carrier, a sibling that is itself a swap or missing, a swap at the
strategist's turn, a cell its mover can still use, a version-1 file) are
each refused.  Swaps are held alone here, every reply listed (`at_once=False`); with the
replies answered by a win at once left out too: test_certificate_at_once.py.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, scaled
from helpers.certificates import assert_moves_keep_the_claim, forged_swaps, masks

sys.path.insert(0, str(Path(__file__).parents[2] / "pg"))  # tests/pg's random games and brute force
from pg_random import brute_force  # noqa: E402
from test_relevance import maker_breaker_games  # noqa: E402

from bddl.pg.hex import hex_board  # noqa: E402
from bddl.rules import pg_rules  # noqa: E402
from compiler.certificates import build_certificate, write_certificate  # noqa: E402
from compiler.certificates.check import CertificateFormatError, _check_shape, check, check_files  # noqa: E402
from compiler.certificates.files import certificate_lines  # noqa: E402
from compiler.certificates.oracles import rules_oracle  # noqa: E402
from compiler.cli import main  # noqa: E402
from compiler.model import GameModel, game_at, open_model, pg_model  # noqa: E402

HEX_WIN = hex_board(4, 9, "o.../.x../..../...x")  # a 4x4 Hex position where Black wins within 9


def as_dict(certificate) -> dict:
    return json.loads("".join(certificate_lines(certificate)))


def in_memory(game) -> GameModel:
    return pg_model(game)


def swaps_of(data: dict):
    """(node, the swapped reply, the sibling it borrows) for every swap edge."""
    return [(node, e["move"], e["swap"]) for node in data["nodes"] for e in node["moves"] if "swap" in e]


def test_random_maker_breaker_wins_certified_with_swaps():
    rng = random.Random(31)
    games = maker_breaker_games(rng)
    seen = {"wins": 0, "swaps": 0, "smaller": 0}
    while seen["wins"] < scaled(150):
        game = next(games)
        if not brute_force(game):
            continue
        model = in_memory(game)
        rules = model.rules
        if rules.winner_before_play() is not None:
            continue
        seen["wins"] += 1
        data = as_dict(build_certificate(model, True, at_once=False))
        verdict = check(rules, data, [], model.checker_game())
        assert verdict.valid, (verdict.report(), game)
        plain = as_dict(build_certificate(model, True, carriers=False, at_once=False))
        assert plain["version"] == 1 and not swaps_of(plain)
        assert len(data["nodes"]) <= len(plain["nodes"])
        # Black's moves are the positional solver's own: the rules' own minimax says each one wins
        assert assert_moves_keep_the_claim(rules, data, rules_oracle(rules))
        assert check(rules, as_dict(build_certificate(model, True, oracle=rules_oracle(rules), at_once=False)), [], model.checker_game()).valid
        swaps = swaps_of(data)
        assert data["version"] == (2 if swaps else 1)
        if not swaps:
            assert data == plain  # no swap: the breadth-first producer's file, byte for byte
        seen["swaps"] += len(swaps)
        seen["smaller"] += len(data["nodes"]) < len(plain["nodes"])
        for node, reply, _ in swaps:  # the lemma, by the brute force: Black still wins after the swapped reply
            black, white = masks(node["position"])
            cell = game.cells.index(reply)
            after = game_at(game, black, white | 1 << cell, node["ply"] + 1)
            assert node["ply"] + 1 < game.depth and brute_force(after), (game, node, reply)
    assert seen["swaps"] >= 20 and seen["smaller"] >= 5, seen


def test_random_maker_breaker_refutations_certified_with_swaps():
    rng = random.Random(37)
    games = maker_breaker_games(rng)
    seen = {"refutations": 0, "swaps": 0, "smaller": 0}
    while seen["refutations"] < scaled(150):
        game = next(games)
        model = in_memory(game)
        if model.rules.winner_before_play() is not None or brute_force(game):
            continue
        seen["refutations"] += 1
        data = as_dict(build_certificate(model, False, pairings=False, at_once=False))  # swaps alone (pairings: test_certificate_pairings.py)
        verdict = check(model.rules, data, [], model.checker_game())
        assert verdict.valid, (verdict.report(), game)
        plain = as_dict(build_certificate(model, False, carriers=False, pairings=False, at_once=False))
        assert plain["version"] == 1 and not swaps_of(plain) and len(data["nodes"]) <= len(plain["nodes"])
        # White's moves are the positional solver's own: the rules' own minimax says each one refutes
        assert_moves_keep_the_claim(model.rules, data, rules_oracle(model.rules))
        assert check(model.rules, as_dict(build_certificate(model, False, oracle=rules_oracle(model.rules), pairings=False, at_once=False)), [], model.checker_game()).valid
        assert check(model.rules, as_dict(build_certificate(model, False)), [], model.checker_game()).valid  # and with both
        swaps = swaps_of(data)
        if not swaps:
            assert data == plain
        seen["swaps"] += len(swaps)
        seen["smaller"] += len(data["nodes"]) < len(plain["nodes"])
        for node, move, _ in swaps:  # the lemma, by the brute force: Black still does not win after the dead move
            black, white = masks(node["position"])
            after = game_at(game, black | 1 << game.cells.index(move), white, node["ply"] + 1)
            assert node["ply"] + 1 >= game.depth or not brute_force(after), (game, node, move)
    assert seen["swaps"] >= 20 and seen["smaller"] >= 5, seen


def test_a_refutations_swap_inside_whites_carrier_is_refused():
    """White's strategy made to claim dead cells where it can (a valid, if odd, refutation), then a
    Black move on such a cell forged into a swap of a sibling whose strategy claims it: refused."""
    from compiler.certificates.produce import NO_BLACK_WIN, choose_by_oracle, produce

    rng = random.Random(41)
    games = maker_breaker_games(rng)
    caught = 0
    for _ in range(scaled(2000)):
        game = next(games)
        model = in_memory(game)
        rules = model.rules
        if rules.winner_before_play() is not None or brute_force(game):
            continue
        help = model.certificate_help(NO_BLACK_WIN, pairings=False, carriers=True)
        out_of_reach, dead = help.out_of_reach, help.dead

        def dead_first(play, dead=dead):
            return 0 if dead(_before(play), 1 << play.move) else 1

        choose = choose_by_oracle(rules, NO_BLACK_WIN, rules_oracle(rules).black_wins, dead_first)
        data = as_dict(produce(rules, NO_BLACK_WIN, choose, black_cannot_win=out_of_reach, carriers=True, dead=dead))
        assert check(rules, data, [], model.checker_game()).valid
        for node in data["nodes"]:
            black, white = masks(node["position"])
            here = type(rules.initial)(black, white, node["ply"])
            listed = [e["move"] for e in node["moves"] if "swap" not in e]
            for victim in listed:
                if not dead(here, 1 << game.cells.index(victim)):
                    continue
                for sibling in listed:
                    if sibling == victim:
                        continue
                    bad = copy.deepcopy(data)
                    bad["version"] = 2
                    for e in bad["nodes"][node["id"]]["moves"]:
                        if e["move"] == victim:
                            e.pop("to", None)
                            e.pop("symmetry", None)
                            e["swap"] = sibling
                    verdict = check(rules, bad, [], model.checker_game())
                    caught += not verdict.valid and f"White's strategy there claims {victim}" in verdict.reason
        if caught >= 5:
            return
    raise AssertionError(f"only {caught} forged swaps inside White's carrier were caught")


def _before(play):
    """The position a positional claim was made from (its cell taken back)."""
    after = play.after
    bit = 1 << play.move
    return type(after)(after.black & ~bit, after.white & ~bit, after.ply - 1)


def test_hex_swaps_shrink_the_certificate_and_check_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "hex4.pg"
    from bddl.pg.writer import write_pg

    path.write_text(write_pg(HEX_WIN))
    model = open_model([str(path)])
    written = write_certificate(model, True, tmp_path / "c.json", at_once=False)
    plain = write_certificate(model, True, tmp_path / "plain.json", carriers=False, at_once=False)
    data = json.loads((tmp_path / "c.json").read_text())
    assert swaps_of(data) and data["version"] == 2 and written.nodes < plain.nodes
    assert check_files(model, tmp_path / "c.json").valid
    assert main(["certify", str(path), str(tmp_path / "c.json")]) == 0
    assert f"({written.nodes:,} positions checked)" in capsys.readouterr().out


@pytest.fixture(scope="module")
def hex_win():
    model = in_memory(HEX_WIN)
    data = as_dict(build_certificate(model, True, at_once=False))
    assert check(model.rules, data, [], model.checker_game()).valid and swaps_of(data)
    return model, data


def refused(model, data) -> str:
    verdict = check(model.rules, data, [], model.checker_game())
    assert not verdict.valid
    return verdict.reason


def test_a_reply_inside_the_siblings_carrier_is_refused(hex_win):
    """Forge a swap for a reply Black's borrowed strategy claims: the checker
    finds the cell in the carrier it recomputes."""
    model, data = hex_win
    forged = 0
    for move, bad in forged_swaps(data):
        verdict = check(model.rules, bad, [], model.checker_game())
        if not verdict.valid and f"Black's strategy there claims {move}" in verdict.reason:
            forged += 1
            assert verdict.line and verdict.board
        if forged >= 5:
            return
    raise AssertionError(f"only {forged} forged swaps were tried")


def test_a_swap_must_borrow_a_reply_with_its_own_strategy(hex_win):
    model, data = hex_win
    node, reply, sibling = swaps_of(data)[0]
    for borrowed, message in (("z9", "which is not a move listed with its own strategy"), (reply, "which is not a move listed")):
        bad = copy.deepcopy(data)
        for e in bad["nodes"][node["id"]]["moves"]:
            if e.get("move") == reply:
                e["swap"] = borrowed
        assert message in refused(model, bad)
    other = next((r for n, r, s in swaps_of(data) if n["id"] == node["id"] and r != reply), None)
    if other is not None:  # a swap of a swap
        bad = copy.deepcopy(data)
        for e in bad["nodes"][node["id"]]["moves"]:
            if e.get("move") == reply:
                e["swap"] = other
        assert "not a move listed with its own strategy" in refused(model, bad)


def test_a_swap_at_the_strategists_turn_is_refused(hex_win):
    model, data = hex_win
    bad = copy.deepcopy(data)
    root = bad["nodes"][0]
    root["moves"] = [{"move": root["moves"][0]["move"], "swap": root["moves"][0]["move"]}]
    assert "Black (the strategist) is to move here" in refused(model, bad)


def strong_games(rng: random.Random):
    """Random positional games where both sides have winning sets (the first to own one wins)."""
    from helpers import positional_games
    from pg_random import random_game

    while True:
        game = random_game(rng) if rng.random() < 0.5 else positional_games.random_game(rng)
        if game.white_wins and game.black_wins:
            yield game


@pytest.mark.parametrize("black_wins", [True, False], ids=["win", "refutation"])
def test_random_strong_games_certified_with_swaps_of_moves_dead_for_the_mover(black_wins):
    """Where White has winning sets too, a White reply may borrow a sibling's answer only on a cell
    no White goal can still use (and a Black move, in a refutation, only on one no Black goal can)."""
    rng = random.Random(47 + black_wins)
    games = strong_games(rng)
    seen = {"games": 0, "swaps": 0}
    while seen["games"] < scaled(150):
        game = next(games)
        model = in_memory(game)
        if model.rules.winner_before_play() is not None or brute_force(game) != black_wins:
            continue
        seen["games"] += 1
        data = as_dict(build_certificate(model, black_wins, at_once=False))
        verdict = check(model.rules, data, [], model.checker_game())
        assert verdict.valid, (verdict.report(), game)
        plain = as_dict(build_certificate(model, black_wins, carriers=False, at_once=False))
        assert len(data["nodes"]) <= len(plain["nodes"]) and (swaps_of(data) or data == plain)
        for node, move, _ in swaps_of(data):  # the lemma, by the brute force: the verdict holds after the swapped move
            black, white = masks(node["position"])
            bit = 1 << game.cells.index(move)
            after = game_at(game, black | (0 if black_wins else bit), white | (bit if black_wins else 0), node["ply"] + 1)
            assert node["ply"] + 1 < game.depth or not black_wins
            assert node["ply"] + 1 >= game.depth or brute_force(after) == black_wins, (game, node, move)
            seen["swaps"] += 1
    assert seen["swaps"] >= 10, seen


def test_a_swap_of_a_move_its_mover_can_still_use_is_refused():
    """Forged: a White reply on a cell of a White goal still within reach, swapped to a sibling whose
    carrier misses it, is refused by the count (the carrier alone would not catch it)."""
    rng = random.Random(53)
    games = strong_games(rng)
    caught = 0
    for _ in range(scaled(3000)):
        game = next(games)
        model = in_memory(game)
        if model.rules.winner_before_play() is not None or not brute_force(game):
            continue
        data = as_dict(build_certificate(model, True, carriers=False, at_once=False))
        for node in data["nodes"]:
            listed = [e["move"] for e in node["moves"]]
            if len(listed) < 2 or model.rules.to_move(node["ply"]) != "white":
                continue
            bad = copy.deepcopy(data)
            bad["version"] = 2
            entries = bad["nodes"][node["id"]]["moves"]
            entries[1] = {"move": entries[1]["move"], "swap": entries[0]["move"]}
            verdict = check(model.rules, bad, [], model.checker_game())
            caught += not verdict.valid and "but a goal of White through it is still within reach" in verdict.reason
        if caught >= 5:
            return
    raise AssertionError(f"only {caught} swaps of live White replies were caught")


def test_a_refutations_swap_of_a_live_cell_is_refused():
    """In a refutation only Black's dead moves may borrow a sibling's answer: forging a swap for a
    Black move that a goal of Black can still use is caught by the count, before any carrier."""
    game = hex_board(4, 7, "")  # Black cannot cross an empty 4x4 board within 7
    model = in_memory(game)
    data = as_dict(build_certificate(model, False, at_once=False))
    assert check(model.rules, data, [], model.checker_game()).valid
    node = next(n for n in data["nodes"] if sum("to" in e and e["to"] is not None for e in n["moves"]) >= 2 and n["ply"] < 3)
    real = [e for e in node["moves"] if e.get("to") is not None]
    node["moves"][node["moves"].index(real[1])] = {"move": real[1]["move"], "swap": real[0]["move"]}
    data["version"] = 2
    assert "but a goal of Black through it is still within reach" in refused(model, data)


def test_a_swap_needs_format_version_2(hex_win):
    _, data = hex_win
    old = copy.deepcopy(data)
    old["version"] = 1
    with pytest.raises(CertificateFormatError, match="a swap is"):
        _check_shape(old, "c.json")
    extra = copy.deepcopy(data)
    node, reply, _ = swaps_of(extra)[0]
    for e in extra["nodes"][node["id"]]["moves"]:
        if e.get("move") == reply:
            e["to"] = None
    with pytest.raises(CertificateFormatError, match="a swap is"):
        _check_shape(extra, "c.json")


def test_the_explorer_follows_a_swap_to_its_siblings_strategy(hex_win):
    from compiler.pictures.explorer import explorer_data, read_certificate

    model, data = hex_win
    shown = explorer_data(model.rules, read_certificate(data))
    node, reply, sibling = swaps_of(data)[0]
    edges = {edge[0]: edge for edge in shown["nodes"][node["id"]][2]}
    assert edges[reply][1] == edges[sibling][1] and edges[reply][6] == sibling
    cell = model.rules.cells.index(next(c for c in model.rules.cells if c.name == reply))
    assert [c for c, _ in edges[reply][2]] == [cell]  # a click on the swapped cell plays it


def test_hein_certificates_use_swaps_where_the_corpus_is_present(tmp_path):
    hein = CORPUS / "pg" / "hein" / "hein_09_4x4-07.pg"
    if not hein.is_file():
        pytest.skip("../shared/corpus/pg/hein is not present")
    model = open_model([str(hein)])
    written = write_certificate(model, True, tmp_path / "c.json", at_once=False)
    plain = write_certificate(model, True, tmp_path / "p.json", carriers=False, at_once=False)
    assert written.nodes < plain.nodes and check_files(model, tmp_path / "c.json").valid


def test_positions_are_unchanged_by_swaps(hex_win):
    """Every node of the swapped file is a node the breadth-first producer also
    writes (same position, same strategist's move): swaps only drop subtrees."""
    model, data = hex_win
    plain = as_dict(build_certificate(model, True, carriers=False, at_once=False))
    moves = {(n["position"], n["ply"]): [e["move"] for e in n["moves"]] for n in plain["nodes"]}
    for node in data["nodes"]:
        assert [e["move"] for e in node["moves"]] == moves[node["position"], node["ply"]]


def test_black_need_through_a_cell_is_bounded_by_enumeration():
    """The count that makes a cell dead, against an enumeration.  Winning sets: exactly the cheapest
    set through the cell.  Hex: what soundness needs, at most the cheapest set of non-White cells that
    joins Black's borders only with the cell (a win that needs a Black stone there), and at least the
    cheapest joining set that holds the cell."""
    from itertools import combinations

    from compiler.certificates.check import black_need_through

    rng = random.Random(43)
    games = maker_breaker_games(rng)
    checked = {"sets": 0, "hex": 0, "hex-exact": 0}
    while min(checked.values()) < scaled(60):
        game = next(games)
        n = len(game.cells)
        if n > 10:
            continue
        marks = [rng.choice("BW...") for _ in range(n)]
        black = sum(1 << i for i, m in enumerate(marks) if m == "B")
        white = sum(1 << i for i, m in enumerate(marks) if m == "W")
        here = type(pg_rules(game).initial)(black, white, 0)
        for cell in (i for i in range(n) if marks[i] == "."):
            none = n + 1
            need = black_need_through(game, here, cell)
            if game.graph is None:
                costs = [sum(marks[i] == "." for i in s) for s in game.black_wins if cell in s and all(marks[i] != "W" for i in s)]
                assert need == min(costs, default=none), (game, marks, cell)
                checked["sets"] += 1
                continue
            free = [i for i in range(n) if marks[i] != "W"]
            holding = essential = none
            for size in range(1, len(free) + 1):
                for chosen in combinations(free, size):
                    if cell in chosen and _joins(game.graph, set(chosen)):
                        cost = sum(marks[i] == "." for i in chosen)
                        holding = min(holding, cost)
                        if not _joins(game.graph, set(chosen) - {cell}):
                            essential = min(essential, cost)
            assert holding <= need and (need <= essential or essential == none), (game, marks, cell, holding, need, essential)
            checked["hex"] += 1
            checked["hex-exact"] += need == essential < none


def _joins(graph, cells: set[int]) -> bool:
    """Do the cells hold a chain from the start border to the end border?"""
    todo = [i for i in graph.start_border if i in cells]
    seen = set(todo)
    while todo:
        i = todo.pop()
        if i in graph.end_border:
            return True
        for j in graph.neighbours[i]:
            if j in cells and j not in seen:
                seen.add(j)
                todo.append(j)
    return False
