"""A misspelt option or command gets a usage error that names the one meant (issue 26, repro 8)."""

from __future__ import annotations

import pytest
from helpers.suite import DOMAINS, PROBLEMS

from compiler.cli import main

MODEL = [str(DOMAINS / "connect.bddl"), str(PROBLEMS / "connect" / "connect3_4x4_d9.bddl")]


@pytest.mark.parametrize(
    "argv, meant",
    [
        (["solve", *MODEL, "--timout", "3"], "did you mean --timeout?"),
        (["search", *MODEL, "--algoritm", "pns"], "did you mean --algorithm?"),
        (["depth", *MODEL, "--max-dpth=3"], "did you mean --max-depth?"),
        ([*MODEL, "--formt", "qcir"], "did you mean --format?"),
        (["slove", *MODEL], "no command or file named 'slove'; did you mean 'solve'?"),
    ],
)
def test_the_option_meant_is_named(capsys, argv, meant):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert meant in capsys.readouterr().err


def test_an_option_nothing_is_close_to_keeps_argparse_s_message(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["search", *MODEL, "--zzz"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --zzz" in capsys.readouterr().err


def test_a_prefix_of_an_option_is_still_argparse_s(capsys):
    assert main(["search", *MODEL, "--algo", "pns", "--json"]) == 0
    assert '"black_wins": true' in capsys.readouterr().out
