"""The portfolio is the default (issue 27, items 1, 4 and 5): `solve`, `depth`, `validate` and `regress`
race the QBF route and the explicit engine unless told `--engine qbf|search`, for a BDDL model and a `.pg`
game alike; the options of the QBF route configure its member; the files written do not depend on which
route answered; the progress line is there only when asked for (or on a terminal)."""

from __future__ import annotations

import dataclasses
import io
import json
import time

import pytest
from helpers.suite import DOMAINS, PROBLEMS

from compiler.cli import main
from compiler.cli import regress_run as regress
from compiler.solving import routes

TIC = (str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt/tic_4x4_d5.bddl"))
TIC_NO_WIN = (str(DOMAINS / "positional.bddl"), str(PROBLEMS / "httt/tic_4x4_d3.bddl"))
PG_WIN = (str(PROBLEMS / "pg/tictactoe_3x3_d5.pg"),)
PG_NO_WIN = (str(PROBLEMS / "pg/tictactoe_3x3.pg"),)
GAMES = {"bddl": TIC, "pg": PG_WIN}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def expected(game: tuple[str, ...]) -> regress.Entry:
    """The game's entry in the suite's manifests (problems/expected.toml, problems/positional.toml)."""
    manifest = PROBLEMS / ("positional.toml" if game[-1].endswith(".pg") else "expected.toml")
    [entry] = [e for e in regress.read_manifest(manifest) if str(e.problem) == game[-1]]
    return entry


# -- the default is auto, in every command that decides a game ------------------------------------


@pytest.mark.parametrize("game", [TIC, TIC_NO_WIN, PG_WIN, PG_NO_WIN], ids=["bddl", "bddl-no-win", "pg", "pg-no-win"])
def test_solve_races_the_routes_by_default(capsys, game):
    status, out, _ = run(capsys, "solve", *game, "--json")
    data = json.loads(out)
    assert data["black_wins"] is expected(game).black_wins and status == (10 if data["black_wins"] else 20)
    assert data["answered_by"].startswith(("search: ", "qbf: "))
    _, text, _ = run(capsys, "solve", *game)
    assert text.splitlines()[-1].startswith(("answered by search: ", "solver: "))


def test_the_default_is_the_race_not_one_route(capsys, monkeypatch):
    """Seen from inside: the commands hand `routes.answer` engine auto when --engine is not given."""
    asked = []
    real = routes.answer
    monkeypatch.setattr(routes, "answer", lambda model, **kw: asked.append(kw["engine"]) or real(model, **kw))
    run(capsys, "solve", *PG_WIN)
    run(capsys, "depth", *PG_WIN, "--min", "5")
    run(capsys, "validate", *TIC, "--max-lines", "2")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    run(capsys, "play", *PG_WIN)
    assert set(asked) == {"auto"} and len(asked) >= 5


@pytest.mark.parametrize("language", ["bddl", "pg"])
def test_depth_by_default_agrees_with_each_route(capsys, language):
    game = GAMES[language]
    scans = {}
    for engine in (None, "qbf", "search"):
        status, out, _ = run(capsys, "depth", *game, "--json", *(["--engine", engine] if engine else []))
        scans[engine] = json.loads(out)
        assert status == 10
    assert scans[None]["engine"] == "auto"
    assert scans[None]["critical_depth"] == scans["qbf"]["critical_depth"] == scans["search"]["critical_depth"]
    assert scans[None]["critical_depth"] == (expected(game).critical_depth or scans["qbf"]["critical_depth"])
    assert [r["black_wins"] for r in scans[None]["results"]] == [r["black_wins"] for r in scans["qbf"]["results"]]


@pytest.mark.parametrize("language", ["bddl", "pg"])
@pytest.mark.parametrize("engine", ["search", "qbf", None])
def test_play_by_each_route_to_a_black_win(capsys, monkeypatch, language, engine):
    """Black's moves from the route asked for (the race by default), each checked by the rules: the
    game, White always answering with its first legal move, ends with Black's goal."""
    game = GAMES[language]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10))
    status, out, _ = run(capsys, "play", *game, "--json", *(["--engine", engine] if engine else []))
    data = json.loads(out)
    assert status == 0 and data["outcome"] == "Black wins", data


@pytest.mark.parametrize("language", ["bddl", "pg"])
def test_validate_by_default(capsys, language):
    status, out, _ = run(capsys, "validate", *GAMES[language], "--max-lines", "30", "--json")
    data = json.loads(out)
    assert status == 0 and data["valid"] is True and data["black_wins"] is expected(GAMES[language]).black_wins
    status, out, _ = run(capsys, "validate", *PG_NO_WIN)
    assert status == 20 and "nothing to validate" in out


def test_regress_by_default_races_and_both_keeps_the_qbf_route(tmp_path, capsys, monkeypatch):
    """--method solve: the routes raced; --method both: the QBF route and the game engine, each on its own."""
    text = (f'[[problem]]\nfile = "{TIC[1]}"\ndomain = "{TIC[0]}"\nblack_wins = true\ncritical_depth = 5\n\n'
            f'[[problem]]\nfile = "{PG_NO_WIN[0]}"\nblack_wins = false\n')
    path = tmp_path / "m.toml"
    path.write_text(text)
    asked = []
    real = routes.answer
    monkeypatch.setattr(routes, "answer", lambda model, **kw: asked.append(kw["engine"]) or real(model, **kw))
    status, out, _ = run(capsys, "regress", str(path))
    assert status == 0 and out.splitlines()[-1] == "2 entries: 2 agree, 0 mismatch, 0 undecided"
    assert asked and set(asked) == {"auto"}
    asked.clear()
    status, out, _ = run(capsys, "regress", str(path), "--method", "both")
    assert status == 0 and asked == []  # the QBF route alone (`solve_model`), not the race


@pytest.mark.parametrize("argv, words", [
    (["depth", *TIC, "--engine", "search", "--encoding", "explicit"], "--engine search uses no encoding, solver or preprocessing: drop --encoding"),
    (["depth", *PG_WIN, "--engine", "search", "--solver", "caqe"], "drop --solver"),
    (["validate", *TIC, "--engine", "search", "--solver", "caqe"], "drop --solver"),
    (["validate", *PG_WIN, "--engine", "search", "--encoding", "cor+"], "drop --encoding"),
    (["play", *PG_WIN, "--engine", "search", "--encoding", "cor+"], "drop --encoding"),
    (["play", *TIC, "--engine", "search", "--solver", "caqe"], "drop --solver"),
    (["depth", *PG_WIN, "--engine", "auto", "--jobs", "2"], "by the QBF route alone: drop one of them"),
    (["regress", "M", "--method", "search", "--engine", "qbf"], "--method search runs the game engine alone"),
    (["regress", "M", "--method", "both", "--engine", "auto"], "--method both compares the QBF route with the game engine"),
    (["regress", "M", "--engine", "search", "--solver", "caqe"], "--solver configures the QBF route, which --engine search does not run"),
    (["regress", "M", "--method", "search", "--solver", "caqe"], "which --method search does not run"),
])
def test_options_that_cannot_apply_are_usage_errors(tmp_path, capsys, argv, words):
    manifest = tmp_path / "m.toml"
    manifest.write_text(f'[[problem]]\nfile = "{PG_WIN[0]}"\nblack_wins = true\n')
    with pytest.raises(SystemExit) as exit_:
        main([str(manifest) if a == "M" else a for a in argv])
    assert exit_.value.code == 2 and words in capsys.readouterr().err


def _search_gives_way(monkeypatch):
    """The search member returns no verdict at once, so that the QBF member answers the race."""
    def gives_way(model, *args, **kwargs):
        return dataclasses.replace(real(model, max_positions=1), black_wins=None, reason="the search gave way: a test")

    real = routes.search_result
    monkeypatch.setattr(routes, "search_result", gives_way)


@pytest.mark.parametrize("game, options, answered_by", [
    (TIC, ["--encoding", "explicit", "--solver", "caqe"], "qbf: explicit / caqe"),
    (PG_WIN, ["--encoding", "corrective", "--solver", "depqbf"], "qbf: corrective / depqbf"),
    ((str(DOMAINS / "domineering.bddl"), str(PROBLEMS / "domineering/5x2_d6.bddl")), ["--preprocess", "bloqqer"], "qbf: explicit / "),
], ids=["bddl-encoding-solver", "pg-encoding-solver", "bddl-bloqqer"])
def test_the_qbf_options_configure_the_qbf_member_under_auto(capsys, monkeypatch, game, options, answered_by):
    _search_gives_way(monkeypatch)
    status, out, _ = run(capsys, "solve", *game, *options, "--json")
    data = json.loads(out)
    assert status == 10 and data["answered_by"].startswith(answered_by)
    assert data["preprocess"] == ("bloqqer" if "bloqqer" in options else "none")


def test_depth_and_validate_hand_the_qbf_options_to_the_race(capsys, monkeypatch):
    asked = []
    real = routes.answer
    monkeypatch.setattr(routes, "answer", lambda model, **kw: asked.append((kw["engine"], kw["encoding"], kw["solver"])) or real(model, **kw))
    assert run(capsys, "depth", *TIC, "--min", "4", "--encoding", "explicit", "--solver", "caqe")[0] == 10
    assert run(capsys, "validate", *TIC, "--max-lines", "2", "--encoding", "explicit", "--solver", "caqe")[0] == 0
    assert asked and set(asked) == {("auto", "explicit", "caqe")}


# -- what bddlc writes does not depend on which route answered ------------------------------------


@pytest.mark.parametrize("game", [TIC, TIC_NO_WIN, PG_WIN, PG_NO_WIN], ids=["bddl-win", "bddl-no-win", "pg-win", "pg-no-win"])
def test_a_certificate_is_the_same_bytes_whichever_route_answered(tmp_path, capsys, game):
    files = {}
    for engine in ("qbf", "search", "auto"):
        path = tmp_path / f"{engine}.json"
        status, out, _ = run(capsys, "solve", *game, "--engine", engine, "--certificate", str(path), "--json")
        assert json.loads(out)["answered_by"].startswith(engine if engine != "auto" else ("qbf", "search"))
        files[engine] = path.read_bytes()
    path = tmp_path / "by-search-command.json"
    run(capsys, "search", *game, "--certificate", str(path))
    assert files["qbf"] == files["search"] == files["auto"]
    # bddlc search reuses the engine that decided it and names it (produced_by): on a BDDL model that is
    # the rules' minimax where solve's search route asks the positional solver; the strategy is the same
    by_search, by_solve = json.loads(path.read_bytes()), json.loads(files["qbf"])
    assert {**by_search, "produced_by": None} == {**by_solve, "produced_by": None}
    assert run(capsys, "certify", *game, str(tmp_path / "qbf.json"))[0] == 0


# -- progress: on stderr after ~3 s without an answer, when asked or on a terminal -------------------


def _slow_race(monkeypatch, seconds: float = 1.2):
    """Both members wait `seconds` before answering, and the progress line starts after 0.2 s instead of 3;
    the compiled core's head start is off, so that the race is run."""
    from compiler.cli import common
    from compiler.languages import PgModel

    monkeypatch.setattr(PgModel, "head_start_positions", lambda self: 0)

    def slow(real):
        return lambda *args, **kwargs: time.sleep(seconds) or real(*args, **kwargs)

    monkeypatch.setattr(routes, "search_result", slow(routes.search_result))
    monkeypatch.setattr(routes, "qbf_result", slow(routes.qbf_result))
    monkeypatch.setattr(common, "PROGRESS_AFTER", 0.2)


@pytest.mark.parametrize("command", [["solve", *PG_WIN], ["depth", *PG_WIN, "--min", "5"]], ids=["solve", "depth"])
def test_progress_names_the_running_routes_only_when_asked(capsys, monkeypatch, command):
    _slow_race(monkeypatch)
    status, _, err = run(capsys, *command)  # stderr is not a terminal here, and --progress is not given
    assert status == 10 and "running" not in err
    status, _, err = run(capsys, *command, "--progress")
    what = "solve" if command[0] == "solve" else "depth 5"
    assert status == 10 and f"bddlc: {what}: running search: the positional solver and qbf: cor+ / " in err
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    status, _, err = run(capsys, *command)
    assert status == 10 and f"bddlc: {what}: running " in err


ROUTE_NAMES = {"qbf": "qbf: cor+ / default", "search": "search: the positional solver"}


@pytest.mark.parametrize("engine", ["qbf", "search"])
@pytest.mark.parametrize("command", [["solve", *PG_WIN], ["depth", *PG_WIN, "--min", "5"]], ids=["solve", "depth"])
def test_one_route_reports_progress_as_the_race_does(capsys, monkeypatch, command, engine):
    """Issue 42, item 6: `--engine qbf` (and search) said nothing however long it ran, even on a terminal.
    One route honours --progress and the terminal rule as the race does, in the race's words."""
    _slow_race(monkeypatch)
    from compiler.solving import critical_depth

    real = critical_depth.solve_model  # depth's QBF route alone solves without routes.qbf_result
    monkeypatch.setattr(critical_depth, "solve_model", lambda *args, **kwargs: time.sleep(1.2) or real(*args, **kwargs))
    command = [*command, "--engine", engine]
    status, _, err = run(capsys, *command)
    assert status == 10 and "running" not in err
    status, _, err = run(capsys, *command, "--progress")
    what = "solve" if command[0] == "solve" else "depth 5"
    lines = [line for line in err.splitlines() if "running" in line]
    assert f"bddlc: {what}: running {ROUTE_NAMES[engine]} (" in err  # depth also says it of its re-check, depth 8
    assert status == 10 and all(line.startswith(f"bddlc: {what[:5]}") and f": running {ROUTE_NAMES[engine]} (" in line
                                for line in lines), err
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    status, _, err = run(capsys, *command)
    assert status == 10 and f"bddlc: {what}: running {ROUTE_NAMES[engine]} (" in err


def test_one_route_s_progress_starts_after_the_race_s_delay(capsys, monkeypatch):
    """The timing rule is the race's (`PROGRESS_AFTER`): a route that answers before it says nothing, asked or not."""
    _slow_race(monkeypatch, seconds=0.3)
    from compiler.cli import common

    monkeypatch.setattr(common, "PROGRESS_AFTER", 2.0)
    status, _, err = run(capsys, "solve", *PG_WIN, "--engine", "qbf", "--progress")
    assert status == 10 and "running" not in err


def test_one_route_s_errors_stay_its_own(monkeypatch):
    """With progress on, the route still runs in this process: what it raises reaches the caller unchanged
    (a race's member would report it as a failure string), and the progress thread ends with it."""
    import threading

    from compiler.model import open_model

    def broken(*args, **kwargs):
        raise MemoryError("the route's own error")

    monkeypatch.setattr(routes, "qbf_result", broken)
    model = open_model(PG_WIN)
    with pytest.raises(MemoryError, match="the route's own error"):
        routes.answer(model, engine="qbf", on_wait=lambda running: None)
    assert not any(t.name == "bddlc-progress" for t in threading.enumerate())


def test_the_time_limit_stops_the_race(capsys, monkeypatch):
    """--timeout bounds the race as it bounds one route: a search, which has no clock of its own, is stopped
    at the limit (it was stopped 5 s later), and the report is the time limit's."""
    _slow_race(monkeypatch, seconds=30)
    start = time.perf_counter()
    status, out, _ = run(capsys, "solve", *PG_WIN, "--timeout", "0.5", "--json")
    data = json.loads(out)
    assert status == 0 and data["black_wins"] is None and data["reason"] == "time limit of 0.5 s"
    assert time.perf_counter() - start < 3


def test_a_game_the_core_decides_at_once_is_answered_without_a_race(capsys, monkeypatch):
    """The compiled core's head start (`routes._head_start`): a `.pg` game it decides within its
    positions is answered by the search in-process, the QBF route not started (and said so), with the
    verdict and the first move of the race; where it gives way, the race runs as before."""
    from bddl.engines import compiled

    if not compiled.available():
        pytest.skip("the compiled core is not built")
    forks = []
    real_race = routes.race
    monkeypatch.setattr(routes, "race", lambda *a, **k: forks.append(1) or real_race(*a, **k))
    status, out, _ = run(capsys, "solve", *PG_WIN, "--json")
    quick = json.loads(out)
    assert status == 10 and not forks
    assert quick["other_routes"] == [{"route": quick["other_routes"][0]["route"], "black_wins": None,
                                      "reason": routes.HEAD_START_NOTE}]
    from compiler.languages import PgModel

    monkeypatch.setattr(PgModel, "head_start_positions", lambda self: 1)  # gives way at once: the race runs
    status, out, _ = run(capsys, "solve", *PG_WIN, "--json")
    raced = json.loads(out)
    assert status == 10 and forks
    assert (raced["black_wins"], raced["first_move"]) == (quick["black_wins"], quick["first_move"])


def test_the_search_members_budget_is_the_cores_where_the_core_runs_it(capsys, monkeypatch):
    """`routes.search_positions`: the race's search member (and `--engine search`) may expand
    CORE_SEARCH_POSITIONS where the core runs its engine (a head start is offered), SEARCH_POSITIONS
    where the Python engine does; an explicit `max_positions` is kept."""
    from compiler.languages import PgModel

    budgets = []
    real = routes.search_result
    monkeypatch.setattr(routes, "search_result", lambda model, positions, plan=None: budgets.append(positions) or real(model, positions, plan))
    for head_start, expected in ((1, routes.CORE_SEARCH_POSITIONS), (0, routes.SEARCH_POSITIONS)):
        monkeypatch.setattr(PgModel, "head_start_positions", lambda self, n=head_start: n)
        budgets.clear()
        status, _, _ = run(capsys, "solve", *PG_WIN, "--engine", "search")
        assert status == 10 and budgets == [expected]
    from compiler.model import open_model

    assert routes.answer(open_model(list(PG_WIN)), engine="search", max_positions=1234).result.black_wins is not None
    assert budgets[-1] == 1234
    assert routes.CORE_SEARCH_POSITIONS > routes.SEARCH_POSITIONS
