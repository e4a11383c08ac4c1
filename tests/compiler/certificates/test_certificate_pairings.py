"""Pairing strategies (bddl/pg/pairing.py, certificate format version 3): White's
pairings are found by SAT and checked by the independent checker's counting.

Two ways: wherever the finder gives a pairing in a random game, the brute
force of tests/pg (no pairing in it) says Black does not win from there; the
losing animals' one-node certificates pass the checker on every board up to
7x7, and the plain minimax agrees on the small ones.  Mutations: each broken
pairing is caught with its reason.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import scaled

sys.path.insert(0, str(Path(__file__).parents[2] / "pg"))  # tests/pg's random games and brute force
from pg_random import brute_force, random_animal_position  # noqa: E402
from pg_random import _random_border_game as random_border_game  # noqa: E402
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.pg.animals import PUBLISHED, animal_game  # noqa: E402
from bddl.pg.game import BLACK, WHITE  # noqa: E402
from bddl.pg.hex import hex_board  # noqa: E402
from bddl.pg.pairing import PairingFinder, pairing_applies  # noqa: E402
from bddl.rules import pg_rules  # noqa: E402
from compiler.certificates import build_certificate, write_certificate  # noqa: E402
from compiler.certificates.check import check, read_certificate  # noqa: E402
from compiler.certificates.files import certificate_lines  # noqa: E402
from compiler.cli import main  # noqa: E402
from compiler.model import GameModel, pg_model  # noqa: E402

LOSERS = [name for name, published in PUBLISHED.items() if published is None]


def model_of(game) -> GameModel:
    return pg_model(game)


def certificate_of(game, black_wins: bool = False) -> dict:
    return json.loads("".join(certificate_lines(build_certificate(model_of(game), black_wins))))


def verdict(game, data):
    return check(pg_rules(game), data, [], game)


def test_pairing_applies_only_where_white_answers_every_black_move():
    assert pairing_applies((BLACK, WHITE, BLACK, WHITE, BLACK), 0)
    assert pairing_applies((WHITE, BLACK, WHITE), 0)
    assert not pairing_applies((BLACK, BLACK, WHITE), 0)
    assert pairing_applies((BLACK, BLACK, WHITE, BLACK), 1)  # from ply 1 on, Black never moves twice


def pairings_met(seed: int, make=random_pg_game, within_depth: bool = False) -> list:
    """The positions along a random line of play of random game `seed` (made by `make`) where the
    finder gives a pairing: (the game from that position on, the pairing)."""
    rng = random.Random(seed)
    game = make(rng)
    finder = PairingFinder(game, within_depth=within_depth)
    met = []
    black, white = game.mask(game.black_initials), game.mask(game.white_initials)
    for ply in range(min(game.depth, 4)):
        pairs = finder.find(black, white, ply)
        if pairs is not None:
            cells = [c for pair in pairs for c in pair]
            assert len(set(cells)) == len(cells) and not any((black | white) >> c & 1 for c in cells)
            rest = replace(game, black_initials=frozenset(i for i in range(len(game.cells)) if black >> i & 1),
                           white_initials=frozenset(i for i in range(len(game.cells)) if white >> i & 1),
                           times=game.times[ply:], turns=game.turns[ply:], first_moves=game.first_moves if ply == 0 else None)
            met.append((rest, pairs))
        open_cells = [i for i in range(len(game.cells)) if not (black | white) >> i & 1
                      and (ply or game.first_moves is None or i in game.first_moves)]
        if not open_cells:
            break
        cell = rng.choice(open_cells)
        if game.turns[ply] == BLACK:
            black |= 1 << cell
        else:
            white |= 1 << cell
    return met


@pytest.mark.parametrize("seed", range(scaled(300)))
def test_a_pairing_found_in_a_random_game_means_no_black_win_by_brute_force(seed):
    for rest, pairs in pairings_met(seed):
        assert not brute_force(rest), f"seed {seed}: a pairing {pairs}, but Black wins from\n{rest}"


def test_the_random_games_reach_pairings():
    """Reach guard for the test above: the pairings it compares are not a handful."""
    met = sum(len(pairings_met(seed)) for seed in range(scaled(300)))
    assert met >= scaled(300) // 10, f"only {met} pairings met"


@pytest.mark.parametrize("seed", range(scaled(300)))
def test_a_pairing_within_the_depth_means_no_black_win_within_it_by_brute_force(seed):
    """Only the sets Black can complete with its moves left need a pair (`within_depth=True`)."""
    for rest, pairs in pairings_met(seed, random_animal_position, within_depth=True):
        assert not brute_force(rest), f"seed {seed}: a pairing within the depth {pairs}, but Black wins from\n{rest}"


def test_pairings_within_the_depth_exist_where_pairings_for_ever_do_not():
    """Reach guard for the test above: most of its pairings are ones the unbounded finder does not give."""
    bounded = only_bounded = 0
    for seed in range(scaled(300)):
        forever = {(rest.mask(rest.black_initials), rest.mask(rest.white_initials))
                   for rest, _ in pairings_met(seed, random_animal_position)}
        for rest, pairs in pairings_met(seed, random_animal_position, within_depth=True):
            bounded += 1
            only_bounded += (rest.mask(rest.black_initials), rest.mask(rest.white_initials)) not in forever and bool(pairs)
    assert only_bounded >= scaled(300) // 15, (bounded, only_bounded)


def random_hex_game(rng: random.Random):
    """A random Hex-like game (tests/pg's border games), or a small Hex board with random stones."""
    if rng.random() < 0.5:
        return random_border_game(rng)
    size = rng.choice((2, 3, 3, 4))
    cells = size * size
    depth = rng.randint(1, min(cells, 9))
    game = hex_board(size, depth)
    stones = rng.sample(range(cells), rng.randint(0, min(4, cells - depth)))
    half = rng.randint(0, len(stones))
    return replace(game, black_initials=frozenset(stones[:half]), white_initials=frozenset(stones[half:]))


@pytest.mark.parametrize("seed", range(scaled(300)))
def test_a_chain_pairing_found_on_hex_means_no_black_win_within_the_depth_by_brute_force(seed):
    """Hex: the pairs block every path Black can complete with its moves left (`within_depth=True`)."""
    for rest, pairs in pairings_met(seed, random_hex_game, within_depth=True):
        assert not brute_force(rest), f"seed {seed}: a chain pairing {pairs}, but Black wins from\n{rest}"


def test_the_random_hex_games_reach_chain_pairings():
    met = [pairs for seed in range(scaled(300)) for _, pairs in pairings_met(seed, random_hex_game, within_depth=True)]
    assert len(met) >= scaled(300) // 10, f"only {len(met)} chain pairings met"
    assert sum(1 for pairs in met if pairs) >= scaled(300) // 6  # not only empty ones (no path left at all)


def test_the_quick_search_for_no_pairing_agrees_with_the_sat_call(monkeypatch):
    """The exhaustive search that shows no pairing exists before python-sat is loaded: where
    it says none, the SAT call finds none either, and it says so often (the point of it)."""
    import bddl.pg.pairing as pairing

    quick = without = 0
    for seed in range(scaled(300)):
        for rest, _ in [(random_pg_game(random.Random(seed)), None)] + pairings_met(seed):
            finder = PairingFinder(rest)
            b, w = rest.mask(rest.black_initials), rest.mask(rest.white_initials)
            monkeypatch.setattr(pairing, "NO_PAIRING_STEPS", 2000)
            first = finder.find(b, w, 0)
            monkeypatch.setattr(pairing, "_quick_pairing", lambda live, steps: None)  # out of steps: the SAT call alone
            assert finder.find(b, w, 0) == first, seed
            monkeypatch.undo()
            live = [s & ~(b | w) for s in finder.sets if not s & w]
            if first is None and live and all(c & (c - 1) for c in live) and pairing_applies(rest.turns, 0) and finder.usable:
                without += 1  # a SAT call's work before the quick search: no pairing, past the cheap filters
                quick += pairing._quick_pairing(live, 2000) is False
    assert quick >= without // 2 > 0, (quick, without)


@pytest.mark.parametrize("name", LOSERS)
@pytest.mark.parametrize("weak", [True, False], ids=["weak", "strong"])
def test_the_losing_animals_are_certified_by_one_pairing_on_every_board(name, weak):
    for n in range(3, 8):
        game = animal_game(name, n, weak=weak)
        if not game.black_wins:  # the animal does not fit: no certificate needs a pairing
            continue
        data = certificate_of(game)
        assert len(data["nodes"]) == 1 and "pairing" in data["nodes"][0] and data["version"] == 3, (name, n)
        assert data["produced_by"] == "pairing strategy"
        found = verdict(game, data)
        assert found.valid and found.pairings == 1, found.report()


@pytest.mark.parametrize("name", ["O-tetromino", "X-pentomino", "I-tetromino"])
def test_the_plain_minimax_agrees_on_small_boards(name):
    from plain_minimax import PlainMinimax

    game = animal_game(name, 4, weak=True)
    assert PairingFinder(game).find(0, 0, 0) is not None
    assert not PlainMinimax(game).black_wins()


def test_pairings_end_lines_inside_a_refutation():
    """The I-tetromino on 5x5 within 3 Black moves: no pairing at the start, but after a few moves."""
    game = animal_game("I-tetromino", 5, weak=True, moves=4)
    assert PairingFinder(game).find(0, 0, 0) is None
    data = certificate_of(game)
    paired = [node for node in data["nodes"] if "pairing" in node]
    assert paired and len(paired) < len(data["nodes"])
    found = verdict(game, data)
    assert found.valid and found.pairings == len(paired), found.report()
    assert not brute_force(game)


# -- mutations -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def o4():
    game = animal_game("O-tetromino", 4, weak=True)
    return game, certificate_of(game)


def mutated(data, change) -> dict:
    data = copy.deepcopy(data)
    change(data["nodes"][0])
    return data


def test_the_unmutated_pairing_is_valid(o4):
    game, data = o4
    assert verdict(game, data).report() == ("valid: White's strategy keeps Black from winning within 16 moves "
                                            "(1 position checked, by a pairing strategy).")


@pytest.mark.parametrize("change, reason", [
    (lambda node: node["pairing"].pop(0), "holds no pair of the pairing"),
    (lambda node: node["pairing"].__setitem__(1, [node["pairing"][0][0], node["pairing"][1][1]]), "is in two pairs"),
    (lambda node: node["pairing"].__setitem__(0, [node["pairing"][0][0], "z9"]), "which is not a cell of the game"),
    (lambda node: node.__setitem__("moves", [{"move": "a1", "to": None}]), "lists no moves"),
    (lambda node: node.__setitem__("black_cannot_win", True), "not both"),
])  # fmt: skip
def test_a_broken_pairing_is_caught(o4, change, reason):
    game, data = o4
    found = verdict(game, mutated(data, change))
    assert not found.valid and reason in found.reason, found.reason


def test_a_pairing_within_the_depth_must_pair_each_set_black_can_still_complete():
    """The I-tetromino on 5x5, Black with 2 moves left: the three sets it could complete (two
    open cells each) need their pairs, and those are enough (other sets need more moves)."""
    game = animal_game("I-tetromino", 5, weak=True, moves=2)
    cell = {name: i for i, name in enumerate(game.cells)}
    black = frozenset(cell[c] for c in ("a1", "a2", "d2", "d3"))
    white = frozenset(cell[c] for c in ("a5", "d5"))
    rest = replace(game, black_initials=black, white_initials=white, first_moves=None)
    pairs = PairingFinder(rest, within_depth=True).find(rest.mask(black), rest.mask(white), 0)
    named = sorted(sorted(game.cells[c] for c in pair) for pair in pairs or ())
    assert named == [["a3", "a4"], ["b2", "c2"], ["d1", "d4"]], named
    assert not brute_force(rest)
    data = certificate_of(rest)
    assert len(data["nodes"]) == 1 and data["nodes"][0]["pairing"], data["nodes"]
    assert verdict(rest, data).valid
    for k in range(len(named)):
        broken = mutated(data, lambda node, k=k: node.__setitem__("pairing", named[:k] + named[k + 1:]))
        found = verdict(rest, broken)
        assert not found.valid and "holds no pair of the pairing" in found.reason and "2 moves left" in found.reason


def test_a_pairing_on_an_occupied_cell_is_caught(o4):
    game, data = o4
    cell = data["nodes"][0]["pairing"][0][0]
    stoned = replace(game, white_initials=frozenset({game.cells.index(cell)}))
    found = verdict(stoned, mutated(data, lambda node: node.__setitem__("position", "".join(
        "W" if name == cell else "." for name in game.cells))))
    assert not found.valid and f"cell {cell} is not open" in found.reason


def test_a_pairing_where_black_moves_twice_is_caught(o4):
    game, data = o4
    twice = replace(game, turns=(BLACK, BLACK) + game.turns[2:])
    found = verdict(twice, data)
    assert not found.valid and "Black moves at plies 0 and 1" in found.reason
    assert PairingFinder(twice).find(0, 0, 0) is None  # and the finder does not offer one


def test_a_pairing_proves_no_win_claim(o4):
    game, data = o4
    found = verdict(game, {**data, "claim": "black-wins"})
    assert not found.valid and "only in a no-black-win certificate" in found.reason


def test_a_pairing_in_an_older_version_is_a_format_error(tmp_path, o4):
    from compiler.certificates.check import CertificateFormatError

    _, data = o4
    path = tmp_path / "v2.json"
    path.write_text(json.dumps({**data, "version": 2}))
    with pytest.raises(CertificateFormatError, match="in a version 3 or later certificate"):
        read_certificate(path)


def test_search_and_certify_from_the_command_line(tmp_path, capsys, monkeypatch):
    from bddl.pg.writer import save_pg

    monkeypatch.chdir(tmp_path)
    save_pg(animal_game("X-pentomino", 6), "x6.pg")
    assert main(["search", "x6.pg", "--certificate", "x6.json"]) == 0
    out, err = capsys.readouterr()
    assert "Black has no winning strategy within 36 moves." in out and "positions: 0," in out
    assert "note: White has a pairing strategy (" in err
    assert "certificate: x6.json (no-black-win, 1 position, 1 line ended by a pairing strategy," in err
    assert main(["certify", "x6.pg", "x6.json"]) == 0
    assert "by a pairing strategy" in capsys.readouterr().out
    assert main(["certify", "x6.pg", "x6.json", "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)
    assert (reported["valid"], reported["nodes"], reported["pairings"]) == (True, 1, 1)
    assert main(["show", "x6.pg", "--certificate", "x6.json", "-o", "x6.html"]) == 0
    assert "White pairs the cells " in Path("x6.html").read_text()
    write_certificate(model_of(animal_game("X-pentomino", 6)), False, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text())["nodes"] == json.loads(Path("x6.json").read_text())["nodes"]


def test_bench_certificates_writes_a_claim_without_deciding_first(tmp_path, capsys):
    """`python -m bench.certificates --claim`: the claim certified and checked, or refused with exit 1."""
    from bddl.pg.writer import save_pg
    from bench.certificates import main as bench_main

    save_pg(animal_game("I-tetromino", 5, weak=True, moves=4), str(tmp_path / "i4.pg"))
    save_pg(animal_game("O-tetromino", 5), str(tmp_path / "o5.pg"))
    assert bench_main([str(tmp_path / "i4.pg"), str(tmp_path / "o5.pg"), "--out", str(tmp_path / "c"), "--claim", "no-black-win"]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(len(line.split("\t")) == len(header.split("\t")) for line in lines)
    assert [line.split("\t")[header.split("\t").index("valid")] for line in lines] == ["true", "true"]  # the checker's verdict
    assert lines[1].split("\t")[2:5] == ["1", "0", "1"]  # the O-tetromino: one node, its pairing
    save_pg(animal_game("O-tetromino", 3), str(tmp_path / "o3.pg"))
    assert bench_main([str(tmp_path / "o3.pg"), "--out", str(tmp_path / "c"), "--claim", "black-wins"]) == 1
    out, err = capsys.readouterr()
    assert "not written" in out and "no certificate:" in err and "Traceback" not in err
    # --depth: the question at another depth, the certificate named for it and checked at it
    assert bench_main([str(tmp_path / "o5.pg"), "--out", str(tmp_path / "d"), "--claim", "no-black-win", "--depth", "3"]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert line.split("\t")[header.split("\t").index("valid")] == "true"
    written = json.loads((tmp_path / "d" / "o5-d3.json").read_text())
    assert written["game"]["depth"] == 3, written["game"]
    with pytest.raises(SystemExit):
        bench_main([str(tmp_path / "o5.pg"), "--out", str(tmp_path / "d"), "--depth", "0"])
    # a missing file: its diagnostic and exit 1, the other games still certified, no traceback
    assert bench_main([str(tmp_path / "none.pg"), str(tmp_path / "o5.pg"), "--out", str(tmp_path / "e"), "--claim", "no-black-win"]) == 1
    out, err = capsys.readouterr()
    assert "none.pg: error: no such file" in err and "Traceback" not in err
    assert (tmp_path / "e" / "o5.json").exists()


def hex_refutations(count: int) -> list:
    """Random Hex-like games Black does not win (by brute force), with their certificates."""
    found = []
    for seed in range(10 * count):
        game = random_hex_game(random.Random(seed))
        if game.depth < 3 or brute_force(game) or pg_rules(game).game.graph is None:
            continue
        found.append((seed, game, certificate_of(game)))
        if len(found) == count:
            break
    return found


def test_hex_refutations_end_in_chain_pairings_that_the_checker_accepts():
    refutations = hex_refutations(scaled(60))
    paired = 0
    for seed, game, data in refutations:
        result = verdict(game, data)
        assert result.valid, (seed, result.reason)
        paired += result.pairings > 0 and any(node.get("pairing") for node in data["nodes"])
    assert paired >= len(refutations) // 4, f"only {paired} of {len(refutations)} use a non-empty pairing"


def test_a_hex_pairing_that_leaves_a_path_open_is_caught():
    caught = 0
    for seed, game, data in hex_refutations(scaled(60)):
        for index, node in enumerate(data["nodes"]):
            if node.get("pairing"):
                broken = copy.deepcopy(data)
                broken["nodes"][index]["pairing"] = []  # no pair at all: a path Black completes in time is open
                result = verdict(game, broken)
                assert not result.valid and "can still join its borders along" in result.reason, (seed, result.reason)
                caught += 1
                break
    assert caught >= 5



def test_the_explorer_says_what_a_hex_pairing_blocks(tmp_path, monkeypatch):
    from bddl.pg.writer import save_pg

    monkeypatch.chdir(tmp_path)
    game = hex_board(4, 7, stones="..../.o../..o./....")  # 4 Black moves: paths open, each blocked by a pair
    save_pg(game, "hex3.pg")
    assert main(["search", "hex3.pg", "--certificate", "hex3.json"]) == 0
    assert main(["show", "hex3.pg", "--certificate", "hex3.json", "-o", "hex3.html"]) == 0
    page = Path("hex3.html").read_text()
    assert "every path joining Black's borders that Black could still complete with its moves left holds a pair" in page
    assert "every winning set of Black's holds a pair" not in page
