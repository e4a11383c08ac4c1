"""`bddlc check` and the compile command's warnings: exit statuses, text, JSON, --strict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.check_models import (
    INITIAL_WIN_PROBLEM,
    LINES_3x3,
    OCCUPY_BLACK,
    OCCUPY_WHITE,
    PAINT_DOMAIN,
    POSITIONAL,
    RETREAT_DOMAIN,
    RETREAT_PROBLEM,
    action,
)

from compiler.cli import main


@pytest.fixture
def files(tmp_path):
    def write(domain: str, problem: str):
        d, p = tmp_path / "d.bddl", tmp_path / "p.bddl"
        d.write_text(domain)
        p.write_text(problem)
        return str(d), str(p)

    return write


def test_a_sound_model_exits_0(files, capsys):
    d, p = files(POSITIONAL, LINES_3x3)
    assert main(["check", d, p]) == 0
    out = capsys.readouterr().out
    assert "  2. no Black move creates a White win: holds" in out
    assert "by SAT over all 3^9 states of the 3x3 board, reachable or not" in out
    assert out.rstrip().endswith("all 3 sanity conditions hold; no warnings")


def test_a_violation_exits_1_with_boards_and_locations(files, capsys):
    d, p = files(PAINT_DOMAIN, LINES_3x3)
    assert main(["check", d, p]) == 1
    out = capsys.readouterr().out
    assert "  2. no Black move creates a White win: FAILS (1 action)" in out
    assert f"{d}:6:9: error: Black's action 'paint' can create a White win (sanity condition 2)" in out
    assert "    6 | :action paint" in out
    assert "    before      after" in out and " --> " in out
    assert f"{p}:7:1: note: White's goal that holds, placed at (" in out
    assert out.rstrip().endswith("1 of 3 sanity conditions fails; no warnings")


def test_output_is_deterministic(files, capsys):
    d, p = files(PAINT_DOMAIN, LINES_3x3)
    outputs = [
        subprocess.run(
            [sys.executable, "-m", "compiler.cli", "check", d, p],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},  # set iteration order must not leak into the output
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1] and "FAILS" in outputs[0]


def test_condition_1_is_reported_not_refused(files, capsys):
    d, p = files(POSITIONAL, INITIAL_WIN_PROBLEM)
    assert main(["check", d, p]) == 1
    out = capsys.readouterr().out
    assert "  1. the initial state is won by nobody: FAILS" in out
    assert f"{p}:6:1: error: Black's goal already holds in the initial state, placed at (1,2) (sanity condition 1)" in out
    assert "  2 B B B" in out  # the initial board
    # the compiler still refuses such a model outright
    assert main([d, p, "-o", str(Path(d).parent / "x.qcir")]) == 1
    assert "already holds in the initial state" in capsys.readouterr().err


def test_json_shape(files, capsys):
    d, p = files(RETREAT_DOMAIN, RETREAT_PROBLEM)
    assert main(["check", d, p, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["method"] == "sat" and report["positions"] is None
    assert report["board"] == {"width": 3, "height": 1} and report["depth"] == 3
    assert [c["holds"] for c in report["conditions"]] == [True, True, False]
    assert [c["number"] for c in report["conditions"]] == [1, 2, 3]
    (example,) = report["conditions"][2]["counterexamples"]
    assert example == {
        "mover": "white",
        "action": "retreat",
        "action_index": 0,
        "action_at": {"file": d, "line": 7, "column": 9},
        "x": 2,
        "y": 1,
        "before": [".W."],
        "after": ["..W"],
        "goal": {"side": "black", "index": 0, "x": 1, "y": 1, "at": {"file": p, "line": 6, "column": 1}},
        "ply": None,
    }
    assert report["warnings"] == []


def test_json_of_a_sound_model_with_warnings(files, capsys):
    d, p = files("#blackactions\n" + OCCUPY_BLACK + "#whiteactions\n", LINES_3x3)
    assert main(["check", d, p, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert all(c["holds"] and c["counterexamples"] == [] for c in report["conditions"])
    (warning,) = report["warnings"]
    assert warning["severity"] == "warning" and warning["at"] == {"file": d, "line": 6, "column": 1}
    assert warning["message"].startswith("White has no actions")


def test_reachable(files, capsys):
    d, p = files(PAINT_DOMAIN, LINES_3x3)
    assert main(["check", d, p, "--reachable"]) == 1
    out = capsys.readouterr().out
    assert "decided over the 2,065 positions reachable within 5 plies" in out
    assert "as move 3 of a play from the initial state" in out
    assert main(["check", d, p, "--reachable", "--depth", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["method"] == "reachable" and report["positions"] == 1


def test_reachable_refuses_a_large_game_with_exit_3(files, capsys):
    d, p = files(POSITIONAL, LINES_3x3)
    assert main(["check", d, p, "--reachable", "--max-positions", "5"]) == 3
    captured = capsys.readouterr()
    assert "too big for --reachable: more than 5 positions are reachable within 5 plies" in captured.err
    assert captured.out == ""


def test_a_bad_model_exits_1_with_a_located_message(files, capsys):
    d, p = files(POSITIONAL.replace("open(?x,?y)", "opn(?x,?y)", 1), LINES_3x3)
    assert main(["check", d, p]) == 1
    err = capsys.readouterr().err
    assert f"{d}:4:16: error: unknown predicate 'opn'" in err and "Traceback" not in err


def test_check_is_listed_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "  check " in capsys.readouterr().out


# -- the compile command's warnings --------------------------------------------------


DEAD_ACTION_DOMAIN = POSITIONAL + action("odd", "open(?x,?y) black(?x,?y)", "white(?x,?y)")


def test_compile_prints_warnings_and_still_compiles(files, capsys, tmp_path):
    d, p = files(DEAD_ACTION_DOMAIN, LINES_3x3)
    out = tmp_path / "out.qcir"
    assert main([d, p, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{d}:11:9: warning: White's action 'odd' can never be played on the 3x3 board" in err
    assert out.read_text().startswith("#QCIR-G14")


def test_compile_strict_turns_warnings_into_errors(files, capsys, tmp_path):
    d, p = files(DEAD_ACTION_DOMAIN, LINES_3x3)
    out = tmp_path / "out.qcir"
    assert main([d, p, "-o", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{d}:11:9: error: White's action 'odd' can never be played" in err and "[--strict]" in err
    assert not out.exists()


def test_compile_strict_includes_the_validators_warnings(files, capsys, tmp_path):
    far = action("far", "open(?x,?y)", "black(?x+5,?y)")
    d, p = files("#blackactions\n" + OCCUPY_BLACK + far + "#whiteactions\n" + OCCUPY_WHITE, LINES_3x3)
    assert main([d, p, "-o", str(tmp_path / "a.qcir")]) == 0
    assert "fits nowhere" in capsys.readouterr().err
    assert main([d, p, "-o", str(tmp_path / "b.qcir"), "--strict"]) == 1
    assert "error: Black's action 'far' fits nowhere" in capsys.readouterr().err
    assert not (tmp_path / "b.qcir").exists()


def test_compile_strict_passes_a_clean_model(files, capsys, tmp_path):
    d, p = files(POSITIONAL, LINES_3x3)
    assert main([d, p, "-o", str(tmp_path / "out.qcir"), "--strict"]) == 0
    assert capsys.readouterr().err == ""


def test_compile_does_not_import_a_sat_solver(files, tmp_path):
    d, p = files(DEAD_ACTION_DOMAIN, LINES_3x3)
    code = (
        "import sys; from compiler.cli import main; "
        f"main([{d!r}, {p!r}, '-o', {str(tmp_path / 'o.qcir')!r}]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pysat', 'pyqbf')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def test_a_positional_game_is_checked(capsys):
    """Issue 26, repro 5: `check GAME.pg` was a usage error."""
    from helpers.suite import PROBLEMS

    game = str(PROBLEMS / "pg" / "tictactoe_3x3_d5.pg")
    assert main(["check", game]) == 0
    out = capsys.readouterr().out
    assert "2. no Black move creates a White win: holds: a claim adds only the mover's own cell" in out
    assert "White has no winning set it can complete within the depth, so White cannot win" in out
    assert out.rstrip().endswith("all 3 sanity conditions hold; 1 warning")
    assert main(["check", game, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["language"] == "pg" and report["ok"] is True and report["method"] == "construction"
    assert [w["at"]["line"] for w in report["warnings"]] == [20]


def test_a_positional_game_won_before_play_fails_condition_1(tmp_path, capsys):
    game = tmp_path / "won.pg"
    game.write_text("#times\nt1 t2\n#blackturns\nt1\n#positions\na b c\n#blackwins\na b\n#blackinitials\na b\n")
    assert main(["check", str(game)]) == 1
    assert "1. the initial position is won by nobody: FAILS (Black owns a whole winning set before play" in capsys.readouterr().out


@pytest.mark.parametrize("option", ["--reachable", "--exhaustive"])
def test_bddl_only_options_are_refused_for_a_positional_game(capsys, option):
    from helpers.suite import PROBLEMS

    with pytest.raises(SystemExit) as exit_:
        main(["check", str(PROBLEMS / "pg" / "tictactoe_3x3_d5.pg"), option])
    assert exit_.value.code == 2
    assert "hold by construction" in capsys.readouterr().err


def test_a_reader_that_goes_away_is_no_traceback():
    """`bddlc ... | head`: the pipe closes before bddlc has written everything."""
    import subprocess
    import sys

    from conftest import ROOT

    proc = subprocess.Popen([sys.executable, "-m", "compiler.cli", "check", "domains/positional.bddl", "problems/httt/tic_4x4_d5.bddl", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first byte
    err = proc.stderr.read().decode()
    assert proc.wait() == 141 and "Traceback" not in err, err
