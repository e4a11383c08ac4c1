"""`bddlc solve --core`: the search route's implementation, as `bddlc search --core` chooses it.

With --core python the Python engines answer (checked by a core that fails on any use), with
the compiled core's verdict, first move and positions (the same search in the same order); the
option is refused where it cannot apply: --engine qbf runs no search, and --core compiled needs
a core that takes the game."""

from __future__ import annotations

import json

import pytest

from bddl.engines import compiled
from compiler.cli import main
from helpers.suite import DOMAINS, PROBLEMS

needs_core = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")

GAMES = {
    "pg": [str(PROBLEMS / "pg" / "tictactoe_3x3_d5.pg")],
    "bddl-positional": [str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt" / "tic_4x4_d5.bddl")],
    "bddl-minimax": [str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering" / "4x4_d8.bddl")],
    "bddl-race": [str(DOMAINS / "breakthrough.bddl"), str(PROBLEMS / "breakthrough" / "second_2x4_d8.bddl")],
}


class _NoCore:
    """A compiled core that fails on any use: what --core python must not touch."""

    def __getattr__(self, name):
        raise AssertionError(f"the compiled core was used ({name}) under --core python")


def solved(capsys, *argv) -> tuple[int, dict, str]:
    status = main(["solve", *argv, "--json"])
    out, err = capsys.readouterr()
    return status, json.loads(out), err


@needs_core
@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_both_cores_give_the_search_route_s_answer(capsys, monkeypatch, game):
    status, fast, _ = solved(capsys, *game, "--engine", "search", "--core", "compiled")
    monkeypatch.setattr(compiled, "_core", _NoCore())
    python_status, python, _ = solved(capsys, *game, "--engine", "search", "--core", "python")
    assert python_status == status in (10, 20)
    for key in ("black_wins", "first_move", "positions", "answered_by"):
        assert python[key] == fast[key], key


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_the_race_with_the_python_core_answers(capsys, game):
    status, found, _ = solved(capsys, *game, "--core", "python", "--timeout", "120")
    _, alone, _ = solved(capsys, *game, "--engine", "qbf")
    assert status in (10, 20) and found["black_wins"] == alone["black_wins"]


@pytest.mark.parametrize("game", [GAMES["pg"], GAMES["bddl-minimax"]], ids=["pg", "bddl"])
def test_core_with_the_qbf_route_alone_is_a_usage_error(capsys, game):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", *game, "--engine", "qbf", "--core", "python"])
    assert exit_.value.code == 2
    assert "--engine qbf runs no search" in capsys.readouterr().err


@pytest.mark.parametrize("game", [GAMES["pg"], GAMES["bddl-race"]], ids=["pg", "bddl"])
def test_core_compiled_without_the_core_is_a_usage_error(capsys, monkeypatch, game):
    monkeypatch.setattr(compiled, "_core", None)
    monkeypatch.setattr(compiled, "_WHY", "the compiled core is not built (test)")
    with pytest.raises(SystemExit) as exit_:
        main(["solve", *game, "--core", "compiled"])
    assert exit_.value.code == 2
    assert "--core compiled: the compiled core is not built (test)" in capsys.readouterr().err
