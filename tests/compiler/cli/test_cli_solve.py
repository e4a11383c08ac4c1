"""`bddlc solve`, `depth`, `play` and `validate` on the command line: outputs, JSON fields, exit codes."""

from __future__ import annotations

import io
import json

from bddl.notation import parse_move
import subprocess
import sys
import time

import pytest

from bddl import Game
from bddl.game import BLACK, WHITE
from bddl.loader import load_model
from bddl.engines.minimax import black_wins
from compiler.cli import main
from conftest import ROOT
from helpers.suite import DOMAINS, PROBLEMS

TIC = [str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt/tic_4x4_d5.bddl")]
TIC_NO_WIN = [str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt/tic_4x4_d3.bddl")]
HARD = [str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt/knobby_4x4_d15.bddl")]
SECOND = [str(DOMAINS / "breakthrough.bddl"), str(PROBLEMS / "breakthrough/second_2x4_d8.bddl")]
DOMINEERING = [str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering/4x4_d8.bddl")]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- solve ----------------------------------------------------------------------


def test_solve_prints_verdict_first_move_and_board(capsys):
    status, out, _ = run(capsys, "solve", *TIC, "--engine", "qbf")
    assert status == 10
    lines = out.splitlines()
    assert lines[0] == "Black wins within 5 moves."
    assert lines[1].startswith("first move: occupy ")
    assert lines[2].split() == ["1", "2", "3", "4"] and sum(line.count("B") for line in lines[3:7]) == 1
    # a positional game: the corrective encoding, and DepQBF, the default solver for it
    assert lines[-1].startswith("solver: depqbf, encoding: corrective (") and " s" in lines[-1]


def test_solve_json_fields_and_the_move_wins(capsys):
    status, out, _ = run(capsys, "solve", *TIC, "--engine", "qbf", "--json")
    data = json.loads(out)
    assert status == 10
    assert {"black_wins", "depth", "solver", "first_move", "seconds", "encoding"} <= data.keys()
    assert (data["black_wins"], data["depth"], data["solver"]) == (True, 5, "depqbf")
    assert data["answered_by"] == "qbf: corrective / depqbf" and data["encoding"]["name"] == "corrective"
    assert {"vars", "gates", "clauses"} <= data["encoding"].keys() and data["seconds"] >= 0
    move = data["first_move"]
    m = load_model(*TIC)
    game = Game(m.domain, m.problem)
    assert move["side"] == BLACK
    played = parse_move(game, game.initial, BLACK, move["text"])
    assert black_wins(game, played.state, WHITE, 4)


def test_solve_no_winning_strategy(capsys):
    status, out, _ = run(capsys, "solve", *TIC_NO_WIN, "--json")
    assert status == 20
    data = json.loads(out)
    assert data["black_wins"] is False and data["first_move"] is None
    status, out, _ = run(capsys, "solve", *TIC_NO_WIN)
    assert out.startswith("Black has no winning strategy within 3 moves.")


def test_solve_depth_override_and_other_solver(capsys):
    status, out, _ = run(capsys, "solve", *TIC, "--depth", "3", "--solver", "caqe", "--engine", "qbf", "--json")
    assert status == 20 and json.loads(out)["depth"] == 3 and json.loads(out)["solver"] == "caqe"


def test_time_limit_is_honoured_on_the_command_line():
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "solve", *HARD, "--timeout", "1", "--engine", "qbf"],
                          capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("unknown: time limit of 1 s")
    assert elapsed < 5


def test_white_first_has_no_first_move_but_a_reply_on_request(capsys):
    status, out, _ = run(capsys, "solve", *SECOND)
    assert status == 10 and "White moves first" in out and "first move:" not in out
    status, out, _ = run(capsys, "solve", *SECOND, "--reply-to", "left-diagonal 2 2")
    assert status == 10
    line = next(line for line in out.splitlines() if line.startswith("White left-diagonal 2 2; Black's reply: "))
    reply = line.split("Black's reply: ")[1].split()
    m = load_model(*SECOND)
    game = Game(m.domain, m.problem)
    [white] = [mv for mv in game.moves(game.initial, WHITE) if (mv.action, mv.x, mv.y) == ("left-diagonal", 2, 2)]
    [black] = [mv for mv in game.moves(white.state, BLACK) if [mv.action, str(mv.x), str(mv.y)] == reply]
    assert game.won(black.state, BLACK) or black_wins(game, black.state, WHITE, 6)
    status, out, _ = run(capsys, "solve", *SECOND, "--reply-to", "1", "--json")
    data = json.loads(out)
    assert data["first_move"] is None and data["black_first"] is False
    assert data["reply_to"]["text"] == "left-diagonal 2 2" and data["reply"]["text"]


def test_reply_to_errors_are_usage_errors(capsys):
    with pytest.raises(SystemExit) as info:
        main(["solve", *SECOND, "--reply-to", "forward 2 2"])
    assert info.value.code == 2 and "not a legal move for White" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["solve", *TIC, "--reply-to", "occupy 1 1"])
    assert info.value.code == 2 and "White moves first" in capsys.readouterr().err


def test_bad_model_exits_1_without_traceback(tmp_path):
    bad = tmp_path / "p.bddl"
    bad.write_text((PROBLEMS / "httt/tic_4x4_d5.bddl").read_text().replace("#depth", "#dpth"))
    for command in ("solve", "depth", "play", "validate"):
        proc = subprocess.run([sys.executable, "-m", "compiler.cli", command, TIC[0], str(bad)],
                              capture_output=True, text=True, cwd=ROOT, input="")
        assert proc.returncode == 1, (command, proc.stderr)
        assert f"{bad}:" in proc.stderr and "error:" in proc.stderr and "Traceback" not in proc.stderr


def test_solve_with_bloqqer(capsys):
    status, out, _ = run(capsys, "solve", str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering/5x2_d6.bddl"),
                         "--preprocess", "bloqqer", "--engine", "qbf", "--json")
    data = json.loads(out)
    assert status == 10 and data["preprocess"] == "bloqqer" and data["black_wins"] is True
    assert data["first_move"] is not None


# -- depth ----------------------------------------------------------------------


def test_depth_progress_and_result(capsys):
    status, out, _ = run(capsys, "depth", *DOMINEERING)
    lines = out.splitlines()
    assert status == 10
    assert lines[0].startswith("Black has no goals")
    assert [line.split(":")[0] for line in lines[1:5]] == ["depth   2", "depth   4", "depth   6", "depth   8"]
    assert "no winning strategy" in lines[3] and "Black wins" in lines[4]
    assert lines[5].startswith("monotonicity check, depth  10: Black wins")
    assert lines[6] == ("critical depth: 8: Black wins within 8 moves and has no winning strategy within 6 "
                        "(nor within 7, which ends on Black's turn).")


def test_depth_json(capsys):
    status, out, _ = run(capsys, "depth", *TIC, "--min", "2", "--json")
    data = json.loads(out)
    assert status == 10 and data["critical_depth"] == 5
    assert [r["depth"] for r in data["results"]] == [2, 3, 4, 5]
    assert [r["black_wins"] for r in data["results"]] == [False, False, False, True]
    assert all(r["seconds"] >= 0 for r in data["results"])
    assert data["monotonicity"] == "consistent"


def test_depth_with_two_jobs_reports_what_one_job_does(capsys):
    _, sequential, _ = run(capsys, "depth", *DOMINEERING, "--json")
    status, out, _ = run(capsys, "depth", *DOMINEERING, "--json", "--jobs", "2")
    one, two = json.loads(sequential), json.loads(out)
    assert status == 10
    for key in ("critical_depth", "first_win", "refuted_before", "monotonicity"):
        assert two[key] == one[key]
    assert [(r["depth"], r["black_wins"]) for r in two["results"]] == [(r["depth"], r["black_wins"]) for r in one["results"]]
    status, out, _ = run(capsys, "depth", *DOMINEERING, "--jobs", "2")
    assert out.splitlines()[-1] == ("critical depth: 8: Black wins within 8 moves and has no winning strategy within 6 "
                                    "(nor within 7, which ends on Black's turn).")


def test_depth_no_win_and_bad_range(capsys):
    status, out, _ = run(capsys, "depth", *TIC, "--max", "3")
    assert status == 20 and out.splitlines()[-1] == "no win up to 3 moves."
    with pytest.raises(SystemExit) as info:
        main(["depth", *TIC, "--min", "4", "--max", "3"])
    assert info.value.code == 2


def test_depth_reports_a_contradicting_solver_loudly(capsys, monkeypatch):
    from compiler.solving import critical_depth
    from compiler.solving.results import EncodingSize, SolveResult

    monkeypatch.setattr(critical_depth, "solve_model", lambda m, **kw: SolveResult(m.depth == 3, m.depth, "fake", 0.0, EncodingSize(1, 1, 1)))
    status, out, err = run(capsys, "depth", *TIC, "--engine", "qbf")
    assert status == 0
    assert "contradicts itself" in err and "within 3 moves but not within 5" in err
    assert "critical depth: unknown" in out


# -- play -----------------------------------------------------------------------


def play(capsys, monkeypatch, argv, moves: str):
    monkeypatch.setattr(sys, "stdin", io.StringIO(moves))
    return run(capsys, "play", *argv, "--engine", "qbf")  # the QBF route's moves: the transcripts below are its


def test_play_to_a_black_win_with_a_bad_move_retried(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, TIC, "nonsense\nplace 1 1\noccupy 9 9\n1\n1\n1\n1\n")
    assert status == 0
    assert "not a move: a move is ACTION X Y" in out
    assert "not a move: White has no action named 'place'; White's actions: occupy" in out
    assert "not a move: 'occupy 9 9' is not a legal move for White here" in out
    assert out.count("Black plays ") == 3 and out.count("White plays ") == 2
    assert out.rstrip().endswith("Black reaches its goal: Black wins.")
    assert "   1. occupy" in out and "White> " in out


def test_play_without_a_terminal():
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", *DOMINEERING, "--engine", "qbf"], input="2\n3\n1\n1\n1\n1\n",
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "White> 2\n" in proc.stdout  # the move read is echoed
    assert proc.stdout.rstrip().endswith("White has no legal move: Black wins.")


def test_play_white_first_and_quitting(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, SECOND, "1\nquit\n")
    assert status == 0 and "White plays left-diagonal 2 2." in out and "Black plays " in out
    assert out.rstrip().endswith("Game abandoned.")
    status, out, _ = play(capsys, monkeypatch, SECOND, "")
    assert out.rstrip().endswith("Input ended; game abandoned.")


def test_play_needs_a_winning_strategy(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, TIC_NO_WIN, "1\n")
    assert status == 20 and "Black has no winning strategy within 3 moves" in out


# -- validate ---------------------------------------------------------------------


def test_validate_passes(capsys):
    status, out, _ = run(capsys, "validate", *DOMINEERING, "--engine", "qbf")
    assert status == 0
    # the number of lines depends on the strategy the QBF route's default solver finds
    assert out.splitlines()[0] == "valid: Black wins all 32 lines of play within 8 moves."
    status, out, _ = run(capsys, "validate", *DOMINEERING, "--max-lines", "3", "--json")
    data = json.loads(out)
    assert status == 0 and data["valid"] is True and data["lines"] == 3 and data["complete"] is False
    assert data["failure"] is None and data["solves"] >= 1


def test_validate_of_a_single_line_says_so(capsys, tmp_path):
    problem = tmp_path / "one.bddl"
    problem.write_text("#boardsize 1 1\n#init\n#depth 1\n#blackgoals\n(black(1,1))\n#whitegoals\n")
    status, out, _ = run(capsys, "validate", str(DOMAINS / "positional.bddl"), str(problem))
    assert status == 0 and out.splitlines()[0] == "valid: Black wins the only line of play within 1 move."


def test_validate_on_a_lost_game(capsys):
    status, out, _ = run(capsys, "validate", *TIC_NO_WIN)
    assert status == 20 and "nothing to validate" in out


# -- the routes: --engine auto|qbf|search (issue 27) ------------------------------

PG_TIC = str(PROBLEMS / "pg" / "tictactoe_3x3_d5.pg")


@pytest.mark.parametrize("game", [TIC, (PG_TIC,)], ids=["bddl", "pg"])
@pytest.mark.parametrize("engine", ["auto", "search", "qbf"])
def test_every_route_gives_the_verdict_and_a_winning_first_move(capsys, game, engine):
    from bddl.rules import BLACK, black_wins_by_rules

    from compiler.model import open_model

    status, out, _ = run(capsys, "solve", *game, "--engine", engine, "--json")
    data = json.loads(out)
    model = open_model(list(game))
    assert status == 10 and data["black_wins"] is True
    assert data["answered_by"].startswith("search: " if engine == "search" else "qbf: " if engine == "qbf" else ("search: ", "qbf: "))
    play = model.rules.parse_play(model.rules.initial, data["first_move"]["text"])
    assert model.rules.won(play.after, BLACK) or black_wins_by_rules(model.rules, play.after)


def test_a_cross_check_runs_both_routes(capsys):
    from compiler.solving import routes

    found = routes.answer(__import__("compiler.model", fromlist=["open_model"]).open_model(list(TIC)), engine="auto", cross_check=True)
    assert found.disagreement is None and found.result.black_wins is True
    [(name, verdict, why)] = found.others
    assert verdict is True and why is None and name.split(":")[0] in ("qbf", "search")


def test_an_agreeing_cross_check_says_what_the_other_route_found(capsys):
    status, out, err = run(capsys, "solve", *TIC, "--cross-check")
    assert status == 10
    assert out.splitlines()[-1].startswith("answered by ")  # the last line stays who answered
    [line] = [x for x in err.splitlines() if "cross-check" in x]
    other = "qbf: " if "answered by search: " in out else "search: "
    assert line.startswith(f"bddlc solve: cross-check: {other}") and line.endswith(": Black wins (agrees)")
    status, out, _ = run(capsys, "solve", *TIC, "--cross-check", "--json")
    [other_route] = json.loads(out)["other_routes"]
    assert other_route["black_wins"] is True and other_route["reason"] is None
    assert other_route["route"].split(":")[0] != json.loads(out)["answered_by"].split(":")[0]


def test_a_disagreement_exits_5_naming_both_routes(capsys, monkeypatch):
    """A route that lies (here: the search made to say 'no win') is caught by --cross-check."""
    import dataclasses

    from compiler.solving import routes

    honest = routes.search_result
    monkeypatch.setattr(routes, "search_result", lambda model, *a, **k: dataclasses.replace(honest(model, *a, **k), black_wins=False, first_move=None))
    status, _, err = run(capsys, "solve", *TIC, "--engine", "auto", "--cross-check")
    assert status == 5
    assert "the routes disagree" in err and "no winning strategy" in err and "Black wins" in err


@pytest.mark.parametrize("argv, words", [
    (["--engine", "qbf", "--cross-check"], "--cross-check races the routes: it needs --engine auto, not --engine qbf"),
    (["--engine", "search", "--encoding", "explicit"], "--engine search uses no encoding, solver or preprocessing: drop --encoding"),
    (["--engine", "search", "--preprocess", "bloqqer"], "drop --preprocess, or use --engine auto"),
    (["--engine", "search", "--solver", "caqe"], "--engine search uses no encoding, solver or preprocessing"),
])
def test_engine_options_that_cannot_apply_are_usage_errors(capsys, argv, words):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", *TIC, *argv])
    assert exit_.value.code == 2 and words in capsys.readouterr().err


def test_the_search_route_gives_way_past_its_budget():
    from compiler.model import open_model
    from compiler.solving.routes import search_result

    result = search_result(open_model([str(DOMAINS / "connect.bddl"), str(PROBLEMS / "connect" / "connect3_4x4_d9.bddl")]), max_positions=5)
    assert result.black_wins is None and result.reason.startswith("the search gave way")


@pytest.mark.parametrize("command", ["search", "solve"])
@pytest.mark.parametrize("game", [TIC, (PG_TIC,), TIC_NO_WIN], ids=["bddl", "pg", "bddl-no-win"])
def test_certificate_written_by_the_command_is_valid(tmp_path, capsys, command, game):
    """--certificate FILE.json, then `bddlc certify` (issue 29, item 2): valid, for either verdict."""
    path = tmp_path / "c.json"
    status, out, err = run(capsys, command, *game, "--certificate", str(path), "--json")
    data = json.loads(out)
    assert data["certificate"]["path"] == str(path) and "check it with bddlc certify" in err
    assert data["certificate"]["claim"] == ("black-wins" if data["black_wins"] else "no-black-win")
    assert run(capsys, "certify", *game, str(path))[0] == 0


def test_a_certificate_must_be_json(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["search", *TIC, "--certificate", "c.txt"])
    assert exit_.value.code == 2 and "a certificate is written as JSON" in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["auto", "search"])
def test_depth_validate_and_regress_take_the_routes(tmp_path, capsys, engine):
    """Issue 27 item 4: every depth of `depth`, every position of `validate`, every solve of `regress` by the route(s) asked."""
    status, out, _ = run(capsys, "depth", PG_TIC, "--engine", engine, "--json")
    assert json.loads(out)["critical_depth"] == 5
    status, out, _ = run(capsys, "validate", *TIC, "--engine", engine, "--max-lines", "20", "--json")
    assert status == 0 and json.loads(out)["valid"] is True
    manifest = tmp_path / "m.toml"
    manifest.write_text(f'[[problem]]\nfile = "{PG_TIC}"\nblack_wins = false\n')  # wrong on purpose
    status, _, err = run(capsys, "regress", str(manifest), "--engine", engine)
    assert status == 4 and "solve at depth 5: Black wins, expected no win" in err


def test_the_parallel_depth_scan_is_qbf_only(capsys):
    """--jobs N solves several depths at once by the QBF route: it implies --engine qbf, and refuses another."""
    for engine in ("auto", "search"):
        with pytest.raises(SystemExit) as exit_:
            main(["depth", PG_TIC, "--engine", engine, "--jobs", "2"])
        assert exit_.value.code == 2 and "by the QBF route alone: drop one of them" in capsys.readouterr().err
    status, out, _ = run(capsys, "depth", PG_TIC, "--jobs", "2", "--json")
    data = json.loads(out)
    assert status == 10 and data["engine"] == "qbf" and data["critical_depth"] == 5
