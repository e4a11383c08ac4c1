"""Messages that name their fix (issue 42, item 5), and the API and reports saying what they do (item 7).

Each test makes the mistake a new user made in the issue's trial and checks
that the message names the command, option or value that works, and that
following it works.
"""

from __future__ import annotations

import json

import pytest
from helpers.suite import DOMAINS, PROBLEMS

import bddlc
from bddl.budget import MB, MemoryBudgetExceeded, suggested_limit
from compiler.cli import main
from compiler.model import open_model

CONNECT3 = [str(DOMAINS / "connect.bddl"), str(PROBLEMS / "connect" / "connect3_4x4_d9.bddl")]
TIC = [str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt" / "tic_4x4_d5.bddl")]
ROW3 = str(PROBLEMS / "pg" / "row3_4x4.pg")
TIC_PG = str(PROBLEMS / "pg" / "tictactoe_3x3.pg")


def usage_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err


# -- depth ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("given", [["--depth", "5"], ["--depth=5"]])
def test_depth_given_depth_names_max_not_the_guard(capsys, given):
    err = usage_error(capsys, "depth", *CONNECT3, *given)
    assert "to try depths up to 5, use --max 5" in err and "--max-depth" not in err.splitlines()[-1]


def test_the_depth_guard_refusing_the_files_depth_names_max(capsys):
    assert main(["depth", *CONNECT3, "--max-depth", "5"]) == 1
    err = capsys.readouterr().err
    assert "use --max 5 (--max-depth is a guard against huge depths)" in err and "--max-depth 9" in err
    assert "   10 | 9" in err  # the file's #depth, shown with its caret
    # following the advice works, and so does --max under the guard with the guard left as it was
    assert main(["depth", *CONNECT3, "--max", "5", "--max-depth", "5", "--engine", "search"]) == 20
    assert capsys.readouterr().out.splitlines()[-1] == "no win up to 5 moves."


def test_the_skipped_depths_are_named_by_the_games_own_turns(capsys):
    """A .pg game skips depths that end on White's turn (ply 4 of row3 is White's), a BDDL game
    whose Black has no goals those that end on Black's; the words came from a fixed string."""
    assert main(["depth", ROW3, "--engine", "search"]) == 10
    assert capsys.readouterr().out.splitlines()[-1] == (
        "critical depth: 5: Black wins within 5 moves and has no winning strategy within 3 (nor within 4, which ends on White's turn).")
    model = open_model([ROW3])
    assert model.rules.to_move(3) == "white" and not model.can_be_critical(4)


def test_a_critical_depth_of_one_is_one_move(tmp_path, capsys):
    """The issue's pawn race: `advance 2 3` wins at once."""
    (tmp_path / "pawns.bddl").write_text(PAWNS)
    (tmp_path / "race.bddl").write_text(RACE)
    assert main(["depth", str(tmp_path / "pawns.bddl"), str(tmp_path / "race.bddl"), "--max", "3", "--engine", "search"]) == 10
    assert capsys.readouterr().out.splitlines()[-1] == "critical depth: 1: Black wins within 1 move (no smaller depth can be critical)."


PAWNS = "".join(
    f"#{side}actions\n"
    f":action advance\n:parameters (?x,?y)\n:precondition ({me}(?x,?y) open(?x,?y{d}1))\n:effect (open(?x,?y) {me}(?x,?y{d}1))\n"
    f":action takeleft\n:parameters (?x,?y)\n:precondition ({me}(?x,?y) {them}(?x-1,?y{d}1))\n:effect (open(?x,?y) {me}(?x-1,?y{d}1))\n"
    f":action takeright\n:parameters (?x,?y)\n:precondition ({me}(?x,?y) {them}(?x+1,?y{d}1))\n:effect (open(?x,?y) {me}(?x+1,?y{d}1))\n"
    for side, me, them, d in (("black", "black", "white", "+"), ("white", "white", "black", "-"))
)
RACE = ("#boardsize 4 4\n#init\nblack(1,1) black(2,3) black(4,1)\nwhite(3,4) white(4,4)\n#depth 9\n"
        "#blackgoals\n(black(?x,ymax))\n#whitegoals\n(white(?x,ymin))\n")


# -- certify --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    folder = tmp_path_factory.mktemp("certificates")
    written = {}
    for name, paths, depth in (("tic5", TIC, 5), ("row3", [ROW3], None), ("row3_d7", [ROW3], 7)):
        model = open_model(paths, depth=depth)
        bddlc.write_certificate(model, True, folder / f"{name}.json")
        written[name] = str(folder / f"{name}.json")
    return written


@pytest.mark.parametrize("order", ["first", "middle"])
def test_a_certificate_given_first_is_a_usage_error_showing_the_order(capsys, certificates, order):
    cert = certificates["tic5"]
    argv = [cert, *TIC] if order == "first" else [TIC[0], cert, TIC[1]]
    err = usage_error(capsys, "certify", *argv)
    assert f"the certificate comes last, after the game: bddlc certify GAME... CERTIFICATE, here bddlc certify {TIC[0]} {TIC[1]} {cert}" in err
    assert "swapped" not in err
    assert main(["certify", *TIC, cert]) == 0  # the order it names works


def test_a_pg_certificate_given_first_is_a_usage_error(capsys, certificates):
    err = usage_error(capsys, "certify", certificates["row3"], ROW3)
    assert f"here bddlc certify {ROW3} {certificates['row3']}" in err


@pytest.mark.parametrize(
    "name, given, fix",
    [
        ("row3", ["--depth", "7"], "the certificate is about depth 16, not 7: drop --depth 7 (the certificate carries its depth)"),
        ("row3_d7", [], "the certificate is about depth 7, not the game file's 16: add --depth 7"),
        ("row3_d7", ["--depth", "9"], "the certificate is about depth 7, not 9: use --depth 7 (the certificate carries its depth)"),
    ],
)
def test_a_certificate_of_another_depth_says_which_depth_to_ask(capsys, certificates, name, given, fix):
    assert main(["certify", ROW3, certificates[name], *given]) == 4
    assert capsys.readouterr().out.strip() == f"invalid: {fix}"
    assert main(["certify", ROW3, certificates[name], "--json", *given]) == 4
    assert json.loads(capsys.readouterr().out)["reason"] == fix


def test_a_certificate_of_other_files_still_says_so_first(capsys, certificates):
    assert main(["certify", TIC_PG, certificates["row3_d7"]]) == 4
    assert "belongs to other files" in capsys.readouterr().out


# -- show --moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "paths, moves, fixed",
    [
        ([TIC_PG], "b2 a1 c3", "move 1 (b2 a1 c3) is 3 moves: separate them by commas, --moves 'b2, a1, c3'"),
        ([TIC_PG], "b2, a1 c3", "move 2 (a1 c3) is 2 moves: separate them by commas, --moves 'b2, a1, c3'"),
        (TIC, "occupy 1 1 occupy 2 2", "is 2 moves: separate them by commas, --moves 'occupy 1 1, occupy 2 2'"),
    ],
)
def test_moves_separated_by_spaces_get_the_list_with_commas(tmp_path, capsys, paths, moves, fixed):
    out = tmp_path / "p.svg"
    assert main(["show", *paths, "--moves", moves, "-o", str(out)]) == 1
    assert fixed in capsys.readouterr().err and not out.exists()


def test_words_that_are_no_moves_at_all_still_mention_commas(tmp_path, capsys):
    assert main(["show", TIC_PG, "--moves", "b2 zz", "-o", str(tmp_path / "p.svg")]) == 1
    assert "several moves are separated by commas" in capsys.readouterr().err


def test_play_given_several_moves_on_one_line_says_one_at_a_time():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "compiler.cli", "play", ROW3, "--engine", "search"], input="a1 c3 a2\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert "not a move: that is 3 moves; type one at a time, White's now (a1), and bddlc answers for Black" in done.stdout


# -- memory ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "estimate, limit, suggested",
    [
        (2048 * MB + 4096, 2048 * MB, 4096),  # a search that filled its table: not 2049
        (2 * MB, 1 * MB, 3),  # docs/cli.md's example: above the estimate
        (5300 * MB, 2048 * MB, 6144),  # a large estimate: above it, in whole gigabytes
    ],
)
def test_the_memory_suggested_would_let_the_work_run(estimate, limit, suggested):
    assert suggested_limit(estimate, limit) == suggested
    assert f"--max-memory {suggested} (megabytes)" in str(MemoryBudgetExceeded("the search's table", estimate, limit))


def test_a_share_of_the_limit_suggests_at_least_double_the_whole():
    exc = MemoryBudgetExceeded("the certificate's nodes", 1024 * MB + 1, 1024 * MB).of_a_share(2, 2048 * MB)
    assert "--max-memory 4096 (megabytes)" in str(exc)


# -- the API --------------------------------------------------------------------------------------


def test_a_game_from_text_is_named_by_its_texts_never_a_temporary_path():
    domain, problem = (open(p, encoding="utf-8").read() for p in TIC)
    game = bddlc.open_text(domain=domain, problem=problem)
    header = [line for line in bddlc.compile(game).splitlines() if line.startswith("#")][:4]
    assert "# domain: <domain.bddl>" in header and "# problem: <problem.bddl>" in header, header
    assert game.paths == ("<domain.bddl>", "<problem.bddl>")
    pg = bddlc.open_text(game=open(TIC_PG, encoding="utf-8").read())
    assert "c game: <game.pg>" in bddlc.compile(pg).splitlines()[:3]


def test_an_error_in_text_shows_its_line_and_caret():
    domain, problem = (open(p, encoding="utf-8").read() for p in TIC)
    with pytest.raises(bddlc.BddlError) as error:
        bddlc.open_text(domain=domain, problem=problem.replace("#depth\n5", "#depth\nfive"))
    lines = error.value.render().splitlines()
    assert lines[0].startswith("<problem.bddl>:") and "| five" in lines[1] and lines[2].strip().startswith("| ^"), lines


def test_validate_says_valid_as_the_json_does():
    report = bddlc.validate(bddlc.open_model(*TIC), engine="search")
    assert report.valid is True and report.passed is True


def test_a_count_of_one_is_singular():
    from compiler.cli.common import counted

    assert (counted(1, "position"), counted(2048, "position"), counted(1, "ply", "plies"), counted(3, "ply", "plies")) == (
        "1 position", "2,048 positions", "1 ply", "3 plies")


# -- the trial again (issue 42's target: tests/test_trial_mistakes.py runs all of it) -------------


WHEEL = ("#times\nt1 t2 t3 t4 t5 t6 t7\n#blackturns\nt1 t3 t5 t7\n#positions\nhub p1 p2 p3 p4 p5 p6\n#blackwins\n"
         "p1 hub p4\np2 hub p5\np3 hub p6\np1 p2 p3\np2 p3 p4\np3 p4 p5\np4 p5 p6\np5 p6 p1\np6 p1 p2\n")


@pytest.fixture
def user(tmp_path, monkeypatch):
    """A new user's folder, named by relative paths: the pawn race and a wheel."""
    (tmp_path / "pawns.bddl").write_text(PAWNS)
    (tmp_path / "race.bddl").write_text(RACE)
    (tmp_path / "wheel.pg").write_text(WHEEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("argv, meant", [
    (["solve", "wheel.pg", "--engine", "qfb"], "invalid choice: 'qfb'; did you mean 'qbf'?"),
    (["pawns.bddl", "race.bddl", "--encoding=explict"], "invalid choice: 'explict'; did you mean 'explicit'?"),
    (["search", "wheel.pg", "--algorithm", "mimimax"], "did you mean 'minimax'? (choose from 'minimax', 'pns', 'ppn2', 'depth-first')"),
])
def test_a_misspelt_value_names_the_value_meant(capsys, user, argv, meant):
    assert meant in usage_error(capsys, *argv)


@pytest.mark.parametrize("argv, fix", [
    (["play", "wheel.pg", "--moves", "p1,p2"], "--moves is an option of bddlc show, not of bddlc play: play reads White's moves at its prompt"),
    (["solve", "wheel.pg", "--algorithm", "pns"], "use bddlc search GAME... --algorithm ALGORITHM"),
    (["solve", "wheel.pg", "--race-patterns"], "--race-patterns is an option of bddlc search, not of bddlc solve"),
])
def test_an_option_of_another_command_names_that_command(capsys, user, argv, fix):
    err = usage_error(capsys, *argv)
    assert fix in err and "did you mean --solver" not in err


@pytest.mark.parametrize("argv, fix", [
    (["solve", "wheel.pgg"], "wheel.pgg: error: no such file\nnote: did you mean wheel.pg?"),
    (["pawns.bddl", "rcae.bddl"], "rcae.bddl: error: no such file\nnote: did you mean race.bddl?"),
    (["check", "games/wheel.pg"], "note: there is no folder 'games' either"),
])
def test_a_missing_game_file_names_the_file_meant(capsys, user, argv, fix):
    assert main(argv) == 1
    assert fix in capsys.readouterr().err


def test_a_folder_for_the_game_names_the_games_in_it(capsys, user):
    assert main(["solve", "."]) == 1
    err = capsys.readouterr().err
    assert ".: error: is a folder, not a game file" in err
    assert "in this one: pawns.bddl race.bddl, or wheel.pg" in err


def test_the_problem_before_its_domain_is_a_usage_error_in_the_right_order(capsys, user):
    assert "race.bddl is a problem and pawns.bddl a domain: the domain comes first, bddlc solve pawns.bddl race.bddl" in usage_error(
        capsys, "solve", "race.bddl", "pawns.bddl")
    assert "the domain comes first, bddlc pawns.bddl race.bddl" in usage_error(capsys, "race.bddl", "pawns.bddl", "-o", "r.qcir")
    assert not (user / "r.qcir").exists()


def test_the_api_given_the_problem_first_says_so_once(user):
    with pytest.raises(bddlc.BddlError) as error:
        bddlc.open_model("race.bddl", "pawns.bddl")
    assert len(error.value.diagnostics) == 1
    assert error.value.render().splitlines()[-1] == "note: give the domain first, then the problem: pawns.bddl race.bddl"


def test_a_depth_past_the_guard_is_the_options_mistake_not_the_files(capsys, user):
    err = usage_error(capsys, "search", "pawns.bddl", "race.bddl", "--depth", "20000")
    assert "--depth 20000 is beyond the limit of 10000" in err and "raise the limit with --max-depth 20000" in err
    assert "#depth 9" not in err  # the file's depth is not the one refused


@pytest.mark.parametrize("argv, fix", [
    (["pawns.bddl", "race.bddl", "-o", "."], ".: error: cannot write the output: it is a folder\nnote: name a file, e.g. game.qcir"),
    (["export", "domain.bddl", "tic.bddl", "-o", "games"], "games: error: cannot write the output: it is a folder\nnote: name a file, e.g. games/game.pg"),
])
def test_a_folder_for_the_output_is_named_with_a_file_to_give(capsys, user, argv, fix):
    (user / "games").mkdir()
    for name, source in (("domain.bddl", TIC[0]), ("tic.bddl", TIC[1])):
        (user / name).write_text(open(source, encoding="utf-8").read())
    assert main(argv) == 1  # export was a traceback (IsADirectoryError), compile 'Device or resource busy'
    assert fix in capsys.readouterr().err


def test_depth_min_above_max_names_both_ways_out(capsys, user):
    assert "--min 5 is above the last depth to try (--max 3): give --min 3 or less, or --max 5 or more" in usage_error(
        capsys, "depth", "wheel.pg", "--min", "5", "--max", "3")


@pytest.mark.parametrize("argv, fix", [
    (["check", "wheel.pg", "--reachable"], "drop --reachable"),
    (["wheel.pg", "--polarity"], "drop --polarity"),
    (["wheel.pg", "--max-board-side", "5"], "drop --max-board-side"),
    (["solve", "wheel.pg", "--reply-to", "hub"], "drop --reply-to"),
])
def test_an_option_that_does_not_apply_says_to_drop_it(capsys, user, argv, fix):
    assert fix in usage_error(capsys, *argv)


def test_a_move_that_is_not_legal_there_lists_the_moves_that_are(tmp_path, capsys, user):
    assert main(["show", "pawns.bddl", "race.bddl", "--moves", "advance 3 4", "-o", "p.svg"]) == 1
    assert "Black to move here, whose moves are: advance 1 1, advance 4 1, advance 2 3, takeright 2 3" in capsys.readouterr().err
    (user / "white_first.pg").write_text(WHEEL.replace("t1 t3 t5 t7", "t2 t4 t6"))
    err = usage_error(capsys, "solve", "white_first.pg", "--engine", "search", "--reply-to", "a1")
    assert "--reply-to: there is no cell named 'a1'; White to move here, whose moves are: hub, p1, p2" in err


def test_a_number_past_the_list_of_a_pg_game_says_how_long_the_list_is():
    from bddl.notation import MoveInputError

    rules = open_model([ROW3]).rules
    with pytest.raises(MoveInputError, match="there is no move number 99; the list goes from 1 to 3, or type a cell.s name"):
        rules.parse_play(rules.initial, "99")


@pytest.mark.parametrize("argv, fix", [
    (["certify", "wheel.pg", "wheel.jsn"], "wheel.jsn: error: no such file\nnote: did you mean wheel.json?"),
    (["show", "wheel.pg", "--certificate", "wheel.jsn", "-o", "w.html"], "wheel.jsn: error: no such file\nnote: did you mean wheel.json?"),
    (["certify", "wheel.pg", "none.json"], "note: write one with bddlc search|solve GAME... --certificate FILE.json"),
])
def test_a_missing_certificate_names_the_file_meant(capsys, user, argv, fix):
    bddlc.write_certificate(bddlc.open_model("wheel.pg"), True, "wheel.json")
    assert main(argv) == 1
    assert fix in capsys.readouterr().err


def test_another_games_certificate_names_the_command_for_it(capsys, user):
    bddlc.write_certificate(bddlc.open_model("wheel.pg"), True, "wheel.json")
    (user / "other.pg").write_text(WHEEL.replace("p6 p1 p2\n", ""))
    assert main(["certify", "other.pg", "wheel.json"]) == 4
    assert capsys.readouterr().out.strip().endswith("check it against them: bddlc certify wheel.pg wheel.json")
    (user / "wheel.pg").write_text(WHEEL + "% edited\n")
    assert main(["certify", "other.pg", "wheel.json"]) == 4
    assert "write this game's own: bddlc search other.pg --certificate FILE.json" in capsys.readouterr().out


MANIFEST = '[[problem]]\nfile = "wheel.pg"\nblack_wins = true\n'


@pytest.mark.parametrize("manifest, fix", [
    (MANIFEST.replace("true", '"yes"'), 'm.toml:3:1: error: `black_wins` is true or false, not "yes"'),
    (MANIFEST.replace("wheel.pg", "weel.pg"), 'note: did you mean file = "wheel.pg"?'),
    (MANIFEST.replace('"wheel.pg"', '"wheel.pg'), "m.toml:2:8: error: this string is never closed"),
])
def test_a_manifest_mistake_names_the_line_meant(capsys, user, manifest, fix):
    (user / "m.toml").write_text(manifest)
    assert main(["regress", "m.toml"]) == 1
    assert fix in capsys.readouterr().err


def test_regress_given_a_folder_or_a_game_names_the_manifest_or_the_command(capsys, user):
    (user / "m.toml").write_text(MANIFEST)
    assert main(["regress", "."]) == 1
    assert "is a folder, not a manifest\nnote: give the manifest file; in this folder: m.toml" in capsys.readouterr().err
    assert main(["regress", "m.tom"]) == 1
    assert "did you mean m.toml?" in capsys.readouterr().err
    assert "not a game: to decide pawns.bddl race.bddl, run bddlc solve pawns.bddl race.bddl" in usage_error(
        capsys, "regress", "pawns.bddl", "race.bddl")
    assert "run bddlc solve wheel.pg" in usage_error(capsys, "regress", "wheel.pg")


@pytest.mark.parametrize("argv, fix", [
    (["check", "pawns.bddl", "race.bddl", "--max-positions", "10"], "add --reachable, or drop --max-positions"),
    (["check", "wheel.pg", "--max-positions", "10"], "drop --max-positions"),
])
def test_check_max_positions_without_reachable_is_not_ignored(capsys, user, argv, fix):
    assert fix in usage_error(capsys, *argv)  # it was ignored without a word
    assert main(["check", "pawns.bddl", "race.bddl", "--reachable", "--max-positions", "10"]) == 3
