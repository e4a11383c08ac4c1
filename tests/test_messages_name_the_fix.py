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
