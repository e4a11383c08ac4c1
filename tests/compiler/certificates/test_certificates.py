"""Strategy certificates: produced from the engines, checked by the independent checker.

Produce-then-check on random games of both languages and both claims (the
verdict from an oracle that shares no code with the engine that chose the
moves); the opposite claim is refused; mutated certificates (a removed White
reply, a wrong Black move, a position off by one stone, a depth exceeded, a
forged symmetry, another file's hash, a "to" at the wrong ply) are each
caught with their message; the same game gives the same bytes; `bddlc
certify`'s exit statuses and messages.
"""

from __future__ import annotations

import re

import copy
import json
import random
import sys
from pathlib import Path

import pytest
from conftest import ROOT, scaled
from helpers import positional_games
from helpers.certificates import assert_moves_keep_the_claim, masks
from helpers.strategies import game as random_bddl_game
from hypothesis import given, settings

sys.path.insert(0, str(Path(__file__).parents[2] / "pg"))  # tests/pg's random games and brute force
from pg_random import brute_force  # noqa: E402
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.game import Game  # noqa: E402
from bddl.rules import BLACK, WHITE, Position, bddl_rules, black_wins_by_rules, pg_rules
from compiler.certificates import StrategyNotFound, build_certificate, write_certificate
from compiler.certificates.check import check, check_files, read_certificate
from compiler.certificates.files import certificate_lines
from compiler.certificates.oracles import PG_ENTRY_BYTES, engine_oracle, rules_oracle
from compiler.certificates.produce import BLACK_WINS, NO_BLACK_WIN, produce
from compiler.cli import main
from compiler.model import GameModel, bddl_model, open_model, pg_model

HEX = ROOT / "problems" / "hex"
TIC_PG = str(ROOT / "problems" / "pg" / "tic_5x5_torus.pg")  # Black wins, 7 board symmetries used
ROW3_PG = str(ROOT / "problems" / "pg" / "row3_4x4.pg")  # Black wins, no symmetry
TIC_BDDL = [str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "tic_3x3_d9.bddl")]  # no Black win
EL_BDDL = [str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "el_3x3_d5.bddl")]


def as_dict(certificate) -> dict:
    return json.loads("".join(certificate_lines(certificate)))


def in_memory(rules, language: str, pg=None) -> GameModel:
    """The model of rules built in the test: a positional game's, or a BDDL game's (`rules.game`)."""
    if language == "pg":
        return pg_model(pg)
    return bddl_model(rules.game.domain, rules.game.problem)


def produce_and_check(model: GameModel, black_wins: bool, oracle=None) -> dict:
    data = as_dict(build_certificate(model, black_wins, oracle=oracle))
    verdict = check(model.rules, data, [], model.checker_game())
    assert verdict.valid, verdict.report()
    with pytest.raises(StrategyNotFound):
        build_certificate(model, not black_wins, oracle=oracle)
    # no certificate proves a false claim: the strategist's first legal move everywhere, or its last, is refused
    for pick in (0, -1):
        try:
            false = produce(model.rules, NO_BLACK_WIN if black_wins else BLACK_WINS, lambda position, plays, pick=pick: plays[pick])
        except StrategyNotFound:  # a side has won before the first move: refused at once
            assert model.rules.winner_before_play() is not None
            continue
        verdict = check(model.rules, as_dict(false), [], model.checker_game())
        assert not verdict.valid, f"a certificate of the false claim {false.claim} passed"
    return data


# -- both languages, both claims -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(scaled(120)))
def test_random_positional_games_certified_both_ways(seed):
    rng = random.Random(seed)
    game = random_pg_game(rng) if seed % 2 else positional_games.random_game(rng)
    rules = pg_rules(game)
    model = in_memory(rules, "pg", rules.game)
    expected = brute_force(game)
    data = produce_and_check(model, expected)
    oracle = rules_oracle(rules)
    by_rules = as_dict(build_certificate(model, expected, oracle=oracle))
    # the strategist's moves are the positional solver's own: the rules' own minimax says each keeps
    # the claim, and its certificate, with the first good move in the rules' order, passes too
    assert_moves_keep_the_claim(rules, data, oracle)
    assert check(rules, by_rules, [], model.checker_game()).valid
    # where a line ends because Black's goal is out of reach (the checker's own argument), the rules agree
    for node in data["nodes"]:
        if node.get("black_cannot_win"):
            black, white = masks(node["position"])
            assert not oracle.black_wins(Position(black, white, node["ply"]))


@pytest.mark.parametrize("seed", range(scaled(60)))
def test_random_positional_games_certified_from_the_dfpn_search_that_decided_them(seed):
    """`bddlc search GAME.pg --algorithm pns --certificate`: the strategy is df-pn's own
    (its table, its moves), checked by the checker and, move by move, by the rules' minimax."""
    from bddl.engines.positional_pns import solve_pns

    rng = random.Random(1000 + seed)
    game = random_pg_game(rng) if seed % 2 else positional_games.random_game(rng)
    rules = pg_rules(game)
    model = in_memory(rules, "pg", rules.game)
    expected = brute_force(game)
    searched = solve_pns(game)
    assert searched.black_wins == expected
    if rules.winner_before_play() is not None:
        return
    certificate = build_certificate(model, expected, searched=searched.solver)
    # White pairing the cells from the start is a one-node certificate that asks no engine
    assert certificate.produced_by == "df-pn" or (certificate.produced_by == "pairing strategy" and certificate.size == 1)
    data = as_dict(certificate)
    verdict = check(rules, data, [], model.checker_game())
    assert verdict.valid, verdict.report()
    assert_moves_keep_the_claim(rules, data, rules_oracle(rules))


@pytest.mark.parametrize("seed", range(scaled(40)))
def test_dfpn_names_the_moves_that_keep_its_verdict_on_random_positions(seed):
    """`PositionalProofNumberSearch.decide` and `refutation`, asked about positions
    the search from the start never met, against the rules' own minimax."""
    from bddl.engines.positional_pns import PositionalProofNumberSearch

    rng = random.Random(2000 + seed)
    game = random_pg_game(rng) if seed % 2 else positional_games.random_game(rng)
    rules = pg_rules(game)
    oracle = rules_oracle(rules)
    solver = PositionalProofNumberSearch(game)
    position = rules.initial
    if rules.winner_before_play() is not None:
        return
    refutations = 0
    while position.ply < rules.depth and (plays := rules.plays(position)):
        expected = oracle.black_wins(position)
        wins, cell = solver.decide(position.black, position.white)
        assert wins == expected, position
        if rules.to_move(position.ply) == BLACK and wins:
            after = Position(position.black | 1 << cell, position.white, position.ply + 1)
            assert rules.won(after, BLACK) or oracle.black_wins(after)
        if rules.to_move(position.ply) == WHITE:
            cell = solver.refutation(position.black, position.white)
            if cell is not None:
                after = Position(position.black, position.white | 1 << cell, position.ply + 1)
                assert not expected and (rules.won(after, WHITE) or after.ply >= rules.depth or not oracle.black_wins(after))
                refutations += 1
        play = rng.choice(plays)
        if rules.won(play.after, play.side):
            break
        position = play.after


@settings(max_examples=scaled(80), deadline=None)
@given(random_bddl_game(max_depth=6))
def test_random_bddl_games_certified_both_ways(case):
    domain, problem = case
    rules = bddl_rules(Game(domain, problem))
    model = in_memory(rules, "bddl")
    expected = black_wins_by_rules(rules)
    data = produce_and_check(model, expected)
    # df-pn names no move of its own: the moves depend on the game's values only, as the rules' minimax gives them
    assert as_dict(build_certificate(model, expected, oracle=rules_oracle(rules)))["nodes"] == data["nodes"]


DOMINEERING = [str(ROOT / "domains" / "domineering.bddl"), str(ROOT / "problems" / "domineering" / "3x3_d4.bddl")]  # a stuck mover loses


@pytest.mark.parametrize("paths", [[TIC_PG], [ROW3_PG], TIC_BDDL, EL_BDDL, [str(HEX / "hex3_d5.bddl")], DOMINEERING],
                         ids=lambda p: p[-1].split("/")[-1])
def test_suite_games_certified_from_their_files(paths, tmp_path):
    if paths[0].endswith("hex3_d5.bddl"):
        paths = [str(ROOT / "domains" / "positional.bddl"), paths[0]]
    model = open_model(paths)
    expected = engine_oracle(model).black_wins(model.rules.initial)  # the checker is what judges it
    written = write_certificate(model, expected, tmp_path / "c.json")
    verdict = check_files(model, tmp_path / "c.json")
    assert verdict.valid and verdict.nodes == written.nodes, verdict.report()
    # the search route's engine: a positional model is read as a .pg game, as `solve --engine search` decides it
    # a .pg strategy is the positional solver's own moves; a BDDL one the rules' first move that keeps the claim
    assert written.produced_by == ("positional solver" if paths[0].endswith(".pg") else "explicit search")


def test_symmetries_are_used_and_declared():
    model = open_model([TIC_PG])
    data = as_dict(build_certificate(model, True))
    assert data["symmetries"] == [list(p) for p in model.symmetries()] and len(data["symmetries"]) == 7
    assert any("symmetry" in m for node in data["nodes"] for m in node["moves"])


def test_the_same_game_gives_the_same_bytes(tmp_path):
    for paths, wins in (([TIC_PG], True), (TIC_BDDL, False)):
        model = open_model(paths)
        write_certificate(model, wins, tmp_path / "a.json")
        write_certificate(open_model(paths), wins, tmp_path / "b.json")
        assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


# -- mutations -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def row3():
    """row3_4x4 (Black wins) opened, its certificate as a dict, and its files' hashes."""
    model = open_model([ROW3_PG])
    data = as_dict(build_certificate(model, True))
    return model, data


def verdict_of(model, data):
    from compiler.certificates.check import file_hashes

    return check(model.rules, data, file_hashes(model.paths), model.checker_game())


def first_node(data, side_moves: str):
    """The first node (after the root) where `side_moves` ('black' or 'white') is to move, with 2+ moves there."""
    from bddl.rules import pg_rules as _  # noqa: F401  (the rules say who moves; row3 alternates from Black)

    for node in data["nodes"]:
        if node["id"] and (node["ply"] % 2 == 0) == (side_moves == "black") and len(node["moves"]) >= 2 - (side_moves == "black"):
            return node
    raise AssertionError("no such node")


def test_the_unmutated_certificate_is_valid(row3):
    model, data = row3
    assert verdict_of(model, data).valid


def test_a_removed_white_reply_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    node = first_node(bad, "white")
    removed = node["moves"].pop(1)["move"]
    verdict = verdict_of(model, bad)
    assert not verdict.valid and f"White's reply {removed} is missing" in verdict.reason
    assert verdict.board == model.rules.render(model.rules.initial.__class__(*masks(node["position"]), node["ply"]))
    assert len(verdict.line) == node["ply"]


def test_a_wrong_black_move_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    root = bad["nodes"][0]
    other = next(p.text for p in model.rules.plays(model.rules.initial) if p.text != root["moves"][0]["move"])
    root["moves"][0]["move"] = other
    verdict = verdict_of(model, bad)
    assert not verdict.valid and f"after {other}, node" in verdict.reason and "does not hold the position reached" in verdict.reason


def test_an_illegal_black_move_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    node = first_node(bad, "black")
    taken = next(model.rules.cells[i].name for i, c in enumerate(node["position"]) if c != ".")
    node["moves"][0]["move"] = taken
    verdict = verdict_of(model, bad)
    assert not verdict.valid and f"{taken} is not a legal move of Black here" in verdict.reason


def test_a_position_off_by_one_stone_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    node = bad["nodes"][5]
    i = node["position"].index(".")
    node["position"] = node["position"][:i] + "B" + node["position"][i + 1 :]
    verdict = verdict_of(model, bad)
    assert not verdict.valid and "node 5 does not hold the position reached" in verdict.reason


def test_a_depth_exceeded_is_caught(row3, tmp_path):
    """A strategy that needs the whole depth, claimed for one ply fewer."""
    model, data = row3
    short = next(open_model([ROW3_PG], depth=d) for d in range(model.depth - 1, 0, -1)
                 if not black_wins_by_rules(open_model([ROW3_PG], depth=d).rules))
    bad = copy.deepcopy(data)
    bad["game"]["depth"] = short.depth
    verdict = verdict_of(short, bad)
    assert not verdict.valid and f"the {short.depth} moves are over and Black has not reached its goal" in verdict.reason
    assert f"the certificate is about depth {model.depth}, not {short.depth}" in verdict_of(short, data).reason


def test_a_forged_symmetry_is_caught():
    model = open_model([TIC_PG])
    data = as_dict(build_certificate(model, True))
    assert verdict_of(model, data).valid
    n = len(model.rules.cells)
    forged = copy.deepcopy(data)
    forged["symmetries"][0] = [1, 0] + list(range(2, n))  # swaps two cells: not a symmetry of the board
    verdict = verdict_of(model, forged)
    assert not verdict.valid and "symmetry 0 does not map Black's winning sets onto themselves" in verdict.reason
    # an edge claiming a symmetry it does not use
    wrong = copy.deepcopy(data)
    edge = next(m for node in wrong["nodes"] for m in node["moves"] if m.get("symmetry") is not None)
    edge["symmetry"] = (edge["symmetry"] + 1) % len(wrong["symmetries"])
    verdict = verdict_of(model, wrong)
    assert not verdict.valid and "under symmetry" in verdict.reason


def test_another_files_hash_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    bad["game"]["sha256"][0] = "0" * 64
    verdict = verdict_of(model, bad)
    assert not verdict.valid and "belongs to other files" in verdict.reason


def test_a_to_at_the_wrong_ply_is_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    node = bad["nodes"][0]
    wrong = next(n["id"] for n in bad["nodes"] if n["ply"] == 2)
    node["moves"][0]["to"] = wrong
    verdict = verdict_of(model, bad)
    assert not verdict.valid and f"node {wrong} does not hold the position reached at ply 1" in verdict.reason


def test_an_unreached_node_and_a_false_claim_are_caught(row3):
    model, data = row3
    bad = copy.deepcopy(data)
    bad["nodes"].append({"id": len(bad["nodes"]), "ply": 1, "position": bad["nodes"][1]["position"], "moves": []})
    assert "is not reached from the root" in verdict_of(model, bad).reason
    flipped = copy.deepcopy(data)
    flipped["claim"] = "no-black-win"  # Black's strategy read as White's: White's replies are missing
    verdict = verdict_of(model, flipped)
    assert not verdict.valid and "is missing" in verdict.reason


def test_white_reaching_its_goal_is_caught():
    """A Maker-Maker game's certificate with Black's move replaced by one that lets White win."""
    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg")])
    data = as_dict(build_certificate(model, True))
    assert data["claim"] == BLACK_WINS and verdict_of(model, data).valid


# -- the command line ------------------------------------------------------------------------


def test_certify_exit_statuses_and_messages(tmp_path, capsys):
    cert = tmp_path / "row3.json"
    write_certificate(open_model([ROW3_PG]), True, cert)
    assert main(["certify", ROW3_PG, str(cert)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid: Black's strategy wins within 16 moves against every White reply (")

    data = json.loads(cert.read_text())
    data["nodes"][1]["moves"].pop()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["certify", ROW3_PG, str(bad)]) == 4
    out = capsys.readouterr().out
    assert out.startswith("invalid: node 1: White's reply") and "line of play from the initial position: " in out

    assert main(["certify", ROW3_PG, str(bad), "--json"]) == 4
    reported = json.loads(capsys.readouterr().out)
    assert reported["valid"] is False and len(reported["line"]) == 1 and reported["board"]

    assert main(["certify", TIC_PG, str(cert)]) == 4  # another game's certificate
    assert "belongs to other files" in capsys.readouterr().out

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "bddlc-certificate",\n "version": 1,,}\n')
    assert main(["certify", ROW3_PG, str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{broken}:2:15: error: not JSON") and "^" in err and "Traceback" not in err

    assert main(["certify", ROW3_PG, str(tmp_path / "missing.json")]) == 1
    err = capsys.readouterr().err
    assert "missing.json: error: no such file" in err and "--certificate FILE.json" in err  # how to write one
    future = tmp_path / "v5.json"
    future.write_text(json.dumps({**data, "version": 5}))
    assert main(["certify", ROW3_PG, str(future)]) == 1
    assert "this bddlc reads versions 1, 2, 3, 4" in capsys.readouterr().err

    assert main(["certify", TIC_BDDL[0], str(cert)]) == 2  # a domain without its problem
    assert "give a DOMAIN and a PROBLEM file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["certify", str(cert)])
    assert exited.value.code == 2


def test_certify_reads_the_depth_asked(tmp_path, capsys):
    cert = tmp_path / "row3.json"
    write_certificate(open_model([ROW3_PG]), True, cert)
    assert main(["certify", ROW3_PG, str(cert), "--depth", "5"]) == 4
    assert "the certificate is about depth 16, not 5" in capsys.readouterr().out


def test_a_bddl_certificate_checks_from_the_command_line(tmp_path, capsys):
    cert = tmp_path / "tic.json"
    write_certificate(open_model(TIC_BDDL), False, cert)
    assert main(["certify", *TIC_BDDL, str(cert)]) == 0
    assert capsys.readouterr().out.startswith("valid: White's strategy keeps Black from winning within 9 moves (")
    assert read_certificate(cert)["produced_by"] == "explicit search"


# -- lines ended where Black's goal is out of reach ------------------------------------------


def test_lines_end_where_black_cannot_win_and_a_false_mark_is_caught():
    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")])  # no Black win
    data = as_dict(build_certificate(model, False))
    ended = [node for node in data["nodes"] if node.get("black_cannot_win")]
    assert ended and all(node["moves"] == [] for node in ended) and verdict_of(model, data).valid
    # a node where Black can still win, marked as if it could not
    bad = copy.deepcopy(data)
    node = next(n for n in bad["nodes"] if n["id"] and n["moves"])
    node["moves"], node["black_cannot_win"] = [], True
    verdict = verdict_of(model, bad)
    assert not verdict.valid and f"node {node['id']}: Black can still reach its goal here" in verdict.reason
    # the mark ends nothing in a black-wins certificate
    wins = as_dict(build_certificate(open_model([ROW3_PG]), True))
    wins["nodes"][1]["moves"], wins["nodes"][1]["black_cannot_win"] = [], True
    verdict = verdict_of(open_model([ROW3_PG]), wins)
    assert not verdict.valid and "ends a line only in a no-black-win certificate" in verdict.reason


def test_a_false_claim_ended_where_black_needs_exactly_its_moves_is_caught():
    """tictactoe_3x3_d5: Black wins with its 3 moves; "out of reach" at the root would be a lie."""
    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg")])
    data = as_dict(build_certificate(model, True))
    data["claim"] = NO_BLACK_WIN
    data["nodes"] = [{**data["nodes"][0], "moves": [], "black_cannot_win": True}]
    verdict = verdict_of(model, data)
    assert not verdict.valid and "node 0: Black can still reach its goal here (3 more cells, 3 moves left)" in verdict.reason


def test_black_need_counts_the_open_cells_of_the_cheapest_goal():
    from bddl.rules import Position
    from compiler.certificates.check import black_need

    model = open_model([str(ROOT / "problems" / "pg" / "tictactoe_3x3.pg")])
    game = model.pg
    cell = {name: 1 << i for i, name in enumerate(game.cells)}
    assert black_need(game, Position(0, 0, 0)) == 3
    assert black_need(game, Position(cell["a1"] | cell["b2"], 0, 2)) == 1  # c3 completes the diagonal
    assert black_need(game, Position(cell["a1"] | cell["b2"], cell["c3"] | cell["a2"] | cell["b1"], 5)) == 2


# -- the QBF route ---------------------------------------------------------------------------


@pytest.mark.parametrize("paths", [[str(ROOT / "problems" / "pg" / "tictactoe_3x3_d5.pg")], [str(ROOT / "domains" / "positional.bddl"), str(HEX / "hex3_d5.bddl")]],
                         ids=["pg", "bddl"])
def test_a_win_certified_from_the_qbf_route(paths, tmp_path):
    model = open_model(paths)
    written = write_certificate(model, True, tmp_path / "c.json", qbf_solver="default", qbf_timeout=60)
    assert written.produced_by == "qbf (default)"
    verdict = check_files(model, tmp_path / "c.json")
    assert verdict.valid, verdict.report()


def test_past_the_memory_limit_a_clear_message_and_no_file(tmp_path):
    from bddl.budget import MemoryBudgetExceeded

    model = open_model([str(ROOT / "domains" / "positional.bddl"), str(ROOT / "problems" / "httt" / "tippy_4x4_d7.bddl")])
    oracle = engine_oracle(model)  # its table within the default limit; the certificate's nodes within 1 MB / 2
    with pytest.raises(MemoryBudgetExceeded, match=r"the certificate's [\d,]+ nodes and counting would need about .* raise it with --max-memory") as raised:
        write_certificate(model, False, tmp_path / "c.json", oracle=oracle, max_memory=1)
    # the certificate had half of the limit: the value suggested is the user's --max-memory, above the one given
    assert "its share (1/2) of the limit of 1 MB" in str(raised.value)
    assert int(re.search(r"--max-memory (\d+)", str(raised.value)).group(1)) > 1
    assert not (tmp_path / "c.json").exists() and not list(tmp_path.iterdir())
    model = open_model([TIC_PG])  # the positional solver expands 1,400 positions
    small = engine_oracle(model, 100 * PG_ENTRY_BYTES, core="python")  # room for 100 of them (the core's table replaces)
    with pytest.raises(MemoryBudgetExceeded, match="the positional solver's table of more than 100 positions"):
        small.black_wins(model.rules.initial)


@pytest.mark.parametrize("name, paths", [("hex2_d3", ["domains/positional.bddl", "problems/hex/hex2_d3.bddl"]),
                                         ("tictactoe_3x3_d5", ["problems/pg/tictactoe_3x3_d5.pg"])])
def test_the_docs_certificates_are_what_bddlc_writes_today(name, paths, tmp_path, monkeypatch):
    """docs/certificates/*.json (shown in docs/certificates.md): the same bytes again, from the same relative paths."""
    monkeypatch.chdir(ROOT)
    write_certificate(open_model(paths), True, tmp_path / "c.json")
    assert (tmp_path / "c.json").read_bytes() == (ROOT / "docs" / "certificates" / f"{name}.json").read_bytes()


@pytest.mark.parametrize("command", ["search", "solve"])
@pytest.mark.parametrize("paths", [[ROW3_PG], EL_BDDL], ids=["pg", "bddl"])
def test_a_certificate_that_cannot_be_written_is_refused_before_the_search(command, paths, tmp_path, monkeypatch, capsys):
    """A missing folder or a folder named like the file: bad input (exit 1, file: error: ...) before
    anything is decided, no traceback and no file; relative paths read from the working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.json").mkdir()
    for target, reason in (("no/c.json", "no such folder 'no'"), ("taken.json", "it is a folder")):
        assert main([command, *paths, "--certificate", target]) == 1
        captured = capsys.readouterr()
        assert f"{target}: error: cannot write the output: {reason}" in captured.err
        assert captured.out == "", "nothing decided before the error"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.json"] and not list((tmp_path / "taken.json").iterdir())


@pytest.mark.parametrize("name", ["tic_5x5_torus.pg", "tictactoe_3x3.pg", "row3_4x4_white_first.pg", "qubic_3x3x3.pg"])
def test_search_with_dfpn_writes_dfpn_s_own_certificate(name, tmp_path, monkeypatch, capsys):
    """From another folder, relative paths: the certificate of `search --algorithm pns` says it
    comes from df-pn, passes the checker, and the same command gives the same bytes."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "problems" / "pg" / name, name)
    for out in ("a.json", "b.json"):
        assert main(["search", name, "--algorithm", "pns", "--certificate", out]) == 0
        assert "produced by df-pn); check it with bddlc certify" in capsys.readouterr().err
    assert Path("a.json").read_bytes() == Path("b.json").read_bytes()
    assert json.loads(Path("a.json").read_text())["produced_by"] == "df-pn"
    assert main(["certify", name, "a.json"]) == 0
    assert capsys.readouterr().out.startswith("valid: ")


@pytest.mark.parametrize("seed", range(scaled(30)))
def test_the_minimax_that_decided_a_game_gives_the_certificate_a_fresh_one_gives(seed):
    """`bddlc search GAME.pg --certificate` reuses the search's table: the same bytes as the
    positional solver asked afresh (docs/certificates.md), so the route changes no file."""
    from bddl.engines.positional import solve

    rng = random.Random(3000 + seed)
    game = random_pg_game(rng) if seed % 2 else positional_games.random_game(rng)
    rules = pg_rules(game)
    if rules.winner_before_play() is not None:
        return
    model = in_memory(rules, "pg", rules.game)
    searched = solve(game)
    again = build_certificate(model, searched.black_wins, searched=searched.solver)
    assert list(certificate_lines(again)) == list(certificate_lines(build_certificate(model, searched.black_wins)))


def test_a_reused_table_with_symmetries_on_gives_the_same_bytes_too():
    """The I-tetromino's 6x6 race within 6 moves: 21,227 positions, so the symmetries are
    switched on during the search, as they are for the fresh solver's."""
    from bddl.engines.positional import solve
    from bddl.pg.animals import animal_game

    game = animal_game("I-tetromino", 6, False, 6)
    rules = pg_rules(game)
    model = in_memory(rules, "pg", rules.game)
    searched = solve(game)
    assert not searched.black_wins and len(searched.solver.rules.perms) > 1
    again = build_certificate(model, False, searched=searched.solver)
    assert list(certificate_lines(again)) == list(certificate_lines(build_certificate(model, False)))
