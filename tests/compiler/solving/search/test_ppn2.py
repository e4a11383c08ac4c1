"""The parallel proof-number search on Dask (`compiler.solving.search.ppn2`, `search --algorithm ppn2`).

Two workers of a local cluster; verdicts against the minimax (BDDL) and the
brute force (`.pg`), which share no code with df-pn; Black's first move
checked by the game engine; a worker killed in the middle of a search; a
job returning garbage; the command line.  The tree's logic itself is tested
without Dask in tests/bddl/test_pn_tree.py."""

from __future__ import annotations

from bddl.notation import parse_move

import json
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, scaled
from hypothesis import HealthCheck, given, settings
from helpers.corpus import PG_CORPUS, needs_pg_corpus, pg_answers
from helpers.strategies import game as random_game
from pg.pg_random import brute_force
from pg.pg_random import random_game as random_pg_game

from bddl import Game, load_model, search
from bddl.engines.minimax import black_wins
from bddl.engines.positional import PositionalSolver, solve
from bddl.pg.reader import load_pg

pytest.importorskip("distributed")
# the "outlives" tests use test_no_orphans's harness: its folder on the path, so that they also run alone
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "processes"))

from compiler.cli import main  # noqa: E402
from compiler.solving.search import ppn2  # noqa: E402
from compiler.solving.processes.cluster import connect  # noqa: E402
from compiler.languages import BddlRecipe, PgRecipe  # noqa: E402


def search_bddl(client, domain, problem, depth, race_patterns=False, **options):
    """A BDDL game by PPN² on the client's cluster: (SearchResult, statistics)."""
    return BddlRecipe(domain, problem, race_patterns, depth).search(client, **options)


def search_pg(client, game, **options):
    """A positional game by PPN² on the client's cluster: (SearchResult, statistics)."""
    return PgRecipe(game).search(client, **options)

QUICK = 25  # random games of each kind in the default run; 300 with --runslow
SMALL_JOBS = {"descents": 3, "every": 1, "leaf_jobs": "dfpn"}  # many small df-pn jobs: the tree, not one job, decides


@pytest.fixture(scope="module")
def client():
    with connect(2) as client:
        yield client


def bddl_check(client, domain, problem, **options) -> None:
    game = Game(domain, problem)
    expected = search(game).black_wins
    result, stats = search_bddl(client, domain, problem, problem.depth, **(options or SMALL_JOBS))
    assert result.black_wins == expected
    if expected and game.black_first:
        state = result.first_move.state
        assert game.won(state, "black") or black_wins(game, state, "white", problem.depth - 1)
    else:
        assert result.first_move is None
    assert stats.tree.jobs >= 1 and stats.tree.positions == result.positions
    return stats


def pg_check(client, game) -> bool:
    """True when the tree had more than its root."""
    expected = brute_force(game)
    result, stats = search_pg(client, game, **SMALL_JOBS)
    assert result.black_wins == expected, game
    if result.first_move is not None:
        solver = PositionalSolver(game)
        b = game.mask(game.black_initials) | 1 << result.first_move
        assert solver.rules.black_won(b) or solver.black_wins(b, game.mask(game.white_initials)), game
    elif expected and game.turns[0] == "black":
        assert stats is None  # Black owned a winning set before play
    return stats is not None and stats.tree.expanded > 0


def _random_bddl(client, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(random_game(max_depth=7))
    def check(case):
        bddl_check(client, *case)

    check()


def _random_pg(client, count: int) -> None:
    rng = random.Random(2028)
    expanded = sum(pg_check(client, random_pg_game(rng)) for _ in range(count))
    assert expanded >= count // 5


def test_ppn2_agrees_with_the_minimax_on_random_bddl_games(client):
    _random_bddl(client, scaled(QUICK))


def test_ppn2_agrees_with_the_brute_force_on_random_positional_games(client):
    _random_pg(client, scaled(QUICK))


@pytest.mark.slow
def test_ppn2_on_300_random_games_of_each_kind(client):
    _random_bddl(client, 300)
    _random_pg(client, 300)


@pytest.mark.parametrize(
    ("domain", "problem", "race"),
    [
        ("breakthrough", "breakthrough/second_3x4_d12.bddl", False),
        ("breakthrough", "breakthrough/second_3x5_d18.bddl", True),
        ("domineering", "domineering/4x4_d8.bddl", False),
        ("positional", "httt/tic_3x3_d9.bddl", False),
    ],
)
def test_ppn2_on_suite_instances(client, domain, problem, race):
    model = load_model(ROOT / f"domains/{domain}.bddl", ROOT / f"problems/{problem}")
    bddl_check(client, model.domain, model.problem, descents=200, every=20, race_patterns=race)


@pytest.mark.parametrize("name", ["tictactoe_3x3.pg", "tictactoe_3x3_p2q1.pg", "el_4x4_p2q2_white_first.pg", "row3_4x4.pg"])
def test_ppn2_on_positional_suite_games(client, name):
    game = load_pg(str(ROOT / "problems/pg" / name))
    expected = solve(game).black_wins
    result, _ = search_pg(client, game, descents=50, every=10)
    assert result.black_wins == expected
    if result.first_move is not None:
        solver = PositionalSolver(game)
        b = game.mask(game.black_initials) | 1 << result.first_move
        assert solver.rules.black_won(b) or solver.black_wins(b, game.mask(game.white_initials))


def test_a_worker_killed_in_the_middle_costs_only_its_job():
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    expected = search(Game(model.domain, model.problem)).black_wins
    killed: list[tuple[int, float]] = []
    with connect(2) as client:
        pids = list(client.run(os.getpid).values())

        def kill_one_when_busy():
            time.sleep(1.0)
            os.kill(pids[0], signal.SIGKILL)
            killed.append((pids[0], time.monotonic()))

        killer = threading.Thread(target=kill_one_when_busy)
        killer.start()
        result, _ = search_bddl(client, model.domain, model.problem, 18, race_patterns=True, descents=100, every=10,
                                     leaf_jobs="dfpn")  # (search leaf jobs decide it within the second)
        ended = time.monotonic()
        killer.join()
        after = set(client.run(os.getpid).values())
    assert killed and killed[0][1] < ended  # the worker died while the search ran
    assert pids[0] not in after
    assert result.black_wins is expected is True


@pytest.mark.slow
def test_a_worker_killed_during_search_leaf_jobs_costs_only_its_job():
    """The default leaf jobs: a worker killed while it searches a leaf; Dask runs that job again
    elsewhere (a fresh leaf-search engine there), and the verdict stands."""
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_4x5_d41.bddl")
    with connect(2) as client:
        pids = list(client.run(os.getpid).values())
        killed: list[float] = []

        def kill():
            os.kill(pids[0], signal.SIGKILL)
            killed.append(time.monotonic())

        killer = threading.Timer(8.0, kill)  # the leaf searches run from about 2 s to 25 s
        killer.start()
        result, stats = search_bddl(client, model.domain, model.problem, 41, race_patterns=True)
        ended = time.monotonic()
        killer.join()
        after = set(client.run(os.getpid).values())
    assert killed and killed[0] < ended and pids[0] not in after  # the worker died while the search ran
    assert result.black_wins is True and stats.tree.verdicts >= 1


def _garbage_job(token, recipe, job, position, descents, every, topic, news=None):
    from bddl.engines.pn_job import JobResult

    return JobResult(0, 7, (), None, 1), True, ()  # "solved" with a finite disproof number


def _garbage_news_job(token, recipe, job, position, descents, every, topic, news=None):
    result, fresh, _ = ppn2.job_task(token, recipe, job, position, descents, every, topic, news)
    return result, fresh, ((1, 0, 0, 2, 5, 1),)  # Black both wins with 2 plies left and loses with 5


def test_a_garbage_result_is_an_error_not_a_verdict(client, monkeypatch):
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x4_d8.bddl")
    monkeypatch.setattr(ppn2, "job_task", _garbage_job)
    with pytest.raises(ppn2.GarbageResult, match="neither solved nor open"):
        search_bddl(client, model.domain, model.problem, 8)


def test_garbage_table_news_are_an_error_not_a_verdict(client, monkeypatch):
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x4_d8.bddl")
    monkeypatch.setattr(ppn2, "job_task", _garbage_news_job)
    with pytest.raises(ppn2.GarbageResult, match="no table holds"):
        search_bddl(client, model.domain, model.problem, 8, descents=20, every=5)


@pytest.mark.parametrize("share", [True, False], ids=["shared tables", "separate tables"])
def test_two_workers_with_and_without_shared_tables(client, share):
    """Table news pass between the workers only when asked (the default), and the verdict is the minimax's either way."""
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    stats = bddl_check(client, model.domain, model.problem, descents=100, every=10, race_patterns=True, share_tables=share,
                       leaf_jobs="dfpn")
    assert stats.workers == 2 and stats.tree.jobs > 4
    assert (stats.news > 0) is share


def test_the_position_budget_is_kept(client):
    from bddl.engines.minimax import SearchBudgetExceeded

    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    with pytest.raises(SearchBudgetExceeded):
        search_bddl(client, model.domain, model.problem, 18, max_positions=2000, descents=100, every=10)


# --- the command line -----------------------------------------------------------------------------


def test_search_command_with_ppn2(capsys):
    model = [str(ROOT / "domains/breakthrough.bddl"), str(ROOT / "problems/breakthrough/second_3x4_d12.bddl")]
    assert main(["search", *model, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["search", *model, "--algorithm", "ppn2", "--workers", "2", "--job-descents", "50", "--partial-every", "10", "--json"]) == 0
    captured = capsys.readouterr()
    got = json.loads(captured.out)
    assert got["black_wins"] == expected["black_wins"] and got["algorithm"] == "ppn2"
    assert "ppn2: 2 workers" in captured.err
    game = str(ROOT / "problems/pg/tictactoe_3x3_p2q1.pg")
    assert main(["search", game, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["search", game, "--algorithm", "ppn2", "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["black_wins"] == expected["black_wins"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "2"], "--workers needs --algorithm ppn2"),
        (["--algorithm", "pns", "--job-descents", "5"], "--job-descents needs --algorithm ppn2"),
        (["--algorithm", "ppn2", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "give one of them"),
        (["--leaf-jobs", "qbf"], "--leaf-jobs needs --algorithm ppn2"),
        (["--algorithm", "pns", "--no-share-tables"], "--share-tables needs --algorithm ppn2"),
        (["--algorithm", "ppn2", "--qbf-slice", "3"], "--qbf-slice needs --leaf-jobs qbf or mixed"),
        (["--algorithm", "ppn2", "--leaf-jobs", "qbf", "--qbf-slice", "0"], "--qbf-slice"),
        (["--algorithm", "ppn2", "--leaf-jobs", "dfpn", "--leaf-positions", "100"], "--leaf-positions needs --leaf-jobs search"),
        (["--leaf-positions", "100"], "--leaf-positions needs --algorithm ppn2"),
        (["--algorithm", "ppn2", "--leaf-jobs", "qbf", "--leaf-positions", "100"], "--leaf-positions needs --leaf-jobs search"),
        (["--algorithm", "ppn2", "--leaf-jobs", "search", "--leaf-positions", "0"], "--leaf-positions"),
        (["--algorithm", "ppn2", "--leaf-jobs", "search", "--qbf-slice", "2"], "--qbf-slice needs --leaf-jobs qbf or mixed"),
    ],
)
def test_ppn2_options_out_of_place_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:  # argparse's usage error, as every option that cannot apply
        main(["search", str(ROOT / "problems/pg/tictactoe_3x3.pg"), *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_tree_too_large_is_an_error(capsys, monkeypatch):
    monkeypatch.setattr(ppn2, "max_nodes_for", lambda megabytes: 3)
    model = [str(ROOT / "domains/breakthrough.bddl"), str(ROOT / "problems/breakthrough/second_3x4_d12.bddl")]
    assert main(["search", *model, "--algorithm", "ppn2", "--workers", "1", "--job-descents", "5"]) == 1
    assert "raise --max-memory" in capsys.readouterr().err


# --- no process left behind (tests/compiler/solving/processes/test_no_orphans.py's pattern) ---------------------------

HARNESS = """
import os, sys
from compiler.solving.search import ppn2
searching = ppn2.run_ppn2

def run_ppn2(client, *args, **kwargs):
    with open({pids!r} + ".tmp", "w") as fp:
        fp.write(" ".join(str(pid) for pid in client.run(os.getpid).values()))
    os.rename({pids!r} + ".tmp", {pids!r})
    return searching(client, *args, **kwargs)

ppn2.run_ppn2 = run_ppn2
from compiler.cli import main
if __name__ == "__main__":
    sys.exit(main({argv!r}))
"""
# the leaf jobs in Python: about 25 s (in the compiled core it ends within about 4 s, before the signal)
LONG_SEARCH = ["search", "domains/breakthrough.bddl", "problems/breakthrough/second_4x5_d41.bddl", "--algorithm", "ppn2",
               "--workers", "2", "--race-patterns", "--core", "python"]


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_no_worker_outlives_an_interrupted_search(tmp_path, number):
    from test_no_orphans import alive, end_and_check, read_pids, run_bddlc

    pid_file = tmp_path / "pids"
    bddlc = run_bddlc(HARNESS.format(pids=str(pid_file), argv=LONG_SEARCH), tmp_path)
    workers = read_pids(pid_file)
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    end_and_check(bddlc, workers, number)


def test_no_worker_outlives_a_search_out_of_budget(tmp_path):
    from test_no_orphans import alive, read_pids, run_bddlc, wait_until

    pid_file = tmp_path / "pids"
    bddlc = run_bddlc(HARNESS.format(pids=str(pid_file), argv=[*LONG_SEARCH, "--max-positions", "5000"]), tmp_path)
    workers = read_pids(pid_file)
    out, err = bddlc.communicate(timeout=120)
    assert bddlc.returncode == 3, err
    assert out.startswith("unknown: the search expanded")
    wait_until(lambda: not any(alive(pid) for pid in workers), f"workers {workers} to end")


def test_search_command_with_ppn2_and_the_positional_rules(capsys):
    from bddl.engines.minimax import black_wins as minimax_black_wins

    model = [str(ROOT / "domains/positional.bddl"), str(ROOT / "problems/hex/hex4_d9.bddl")]
    assert main(["search", *model, "--algorithm", "ppn2", "--positional-rules", "--workers", "1", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["positional_rules"] is True and got["black_wins"] is True
    loaded = load_model(*model)
    game = Game(loaded.domain, loaded.problem)
    move = parse_move(game, game.initial, "black", got["first_move"]["text"])
    assert game.won(move.state, "black") or minimax_black_wins(game, move.state, "white", 8)


def _job_that_kills_its_worker(token, recipe, job, position, descents, every, topic, news=None):
    os._exit(1)  # as the out-of-memory killer would


@pytest.mark.slow
def test_a_leaf_whose_jobs_keep_killing_their_workers_is_an_error(monkeypatch):
    """Dask re-runs a job whose worker died; after its retries (KilledWorker) the leaf is
    released and handed out again; a leaf that kills workers every time stops the search."""
    model = load_model(ROOT / "domains/domineering.bddl", ROOT / "problems/domineering/4x4_d8.bddl")
    monkeypatch.setattr(ppn2, "job_task", _job_that_kills_its_worker)
    with connect(2) as client, pytest.raises(ppn2.JobFailed, match="lost their workers"):
        search_bddl(client, model.domain, model.problem, 8)


# --- QBF at the leaves (`--leaf-jobs qbf|mixed`) ----------------------------------------------------

QBF_LEAVES = {"descents": 20, "every": 5, "qbf_slice": 60.0}  # small df-pn jobs: many leaves get a QBF job


@pytest.mark.parametrize("leaf_jobs", ["qbf", "mixed"])
@pytest.mark.parametrize(
    ("domain", "problem"),
    [
        ("connect", "connect/connect3_4x4_d9.bddl"),  # Black wins, moving first: a first move to check
        ("breakthrough", "breakthrough/second_3x4_d10.bddl"),
        ("domineering", "domineering/4x4_d7.bddl"),
        ("positional", "hex/hex4_b_d9.bddl"),
    ],
)
def test_qbf_leaf_jobs_give_the_minimaxs_verdict_on_bddl_games(client, leaf_jobs, domain, problem):
    model = load_model(ROOT / f"domains/{domain}.bddl", ROOT / f"problems/{problem}")
    stats = bddl_check(client, model.domain, model.problem, leaf_jobs=leaf_jobs, **QBF_LEAVES)
    assert stats.tree.verdict_jobs >= 1 or stats.tree.expanded == 0


PG_QBF_GAMES = [
    "gttt-3x3/gttt_1_1_00011011_3x3_b.pg",
    "gttt-3x3/gttt_1_1_00011020_3x3_w.pg",
    "gttt-3x3/gttt_1_1_000111_3x3_torus_b.pg",
    "hein/hein_04_3x3-05.pg",
    "hein/hein_06_4x4-11.pg",
    "hein/hein_06_4x4-13.pg",
    "hein/hein_07_4x4-09.pg",
    "hein/hein_12_4x4-07.pg",
]


def corpus_check(client, name: str, **options):
    """PPN² on a corpus game: the corpus's verdict, and Black's first claim (if any) wins by the solver."""
    game = load_pg(str(PG_CORPUS / name))
    expected = dict(pg_answers(name))[name]
    assert solve(game).black_wins == expected  # the explicit solver, as the minimax of .pg games
    result, stats = search_pg(client, game, **options)
    assert result.black_wins == expected
    if result.first_move is not None:
        solver = PositionalSolver(game)
        b = game.mask(game.black_initials) | 1 << result.first_move
        assert solver.rules.black_won(b) or solver.black_wins(b, game.mask(game.white_initials))
    else:
        assert not (expected and game.turns[0] == "black")
    return result, stats


@needs_pg_corpus
@pytest.mark.parametrize("name", PG_QBF_GAMES)
def test_qbf_leaf_jobs_give_the_corpus_verdict_on_positional_games(client, name):
    _, stats = corpus_check(client, name, leaf_jobs="qbf", **QBF_LEAVES)
    if stats is not None and stats.tree.expanded:
        assert stats.tree.verdict_jobs >= 1


def test_qbf_leaf_jobs_that_never_decide_leave_the_search_to_dfpn(client):
    """A slice too short for any answer: every verdict job says unknown, and the verdict is df-pn's."""
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x4_d12.bddl")
    stats = bddl_check(client, model.domain, model.problem, leaf_jobs="qbf", descents=20, every=5, qbf_slice=1e-6)
    assert stats.tree.verdict_jobs >= 1 and stats.tree.verdicts == 0


# --- the single-process search at the leaves (`--leaf-jobs search`) -----------------------------------------

SEARCH_LEAVES = {"descents": 20, "every": 5}


@pytest.mark.parametrize("budget", [1, 500, 1_000_000])
@pytest.mark.parametrize(
    ("domain", "problem", "race"),
    [
        ("connect", "connect/connect3_4x4_d9.bddl", False),  # Black wins, moving first: a first move to check
        ("breakthrough", "breakthrough/second_3x5_d18.bddl", True),
        ("domineering", "domineering/4x4_d7.bddl", False),
        ("positional", "hex/hex4_b_d9.bddl", False),
    ],
)
def test_search_leaf_jobs_give_the_minimaxs_verdict_on_bddl_games(client, budget, domain, problem, race):
    model = load_model(ROOT / f"domains/{domain}.bddl", ROOT / f"problems/{problem}")
    stats = bddl_check(client, model.domain, model.problem, leaf_jobs="search", leaf_positions=budget, race_patterns=race,
                       **SEARCH_LEAVES)
    if stats.tree.expanded:
        assert stats.tree.verdict_jobs >= 1
        assert stats.tree.verdicts >= 1 or budget < 1_000_000  # a million positions decide any leaf of these


@needs_pg_corpus
@pytest.mark.parametrize("name", PG_QBF_GAMES)
def test_search_leaf_jobs_give_the_corpus_verdict_on_positional_games(client, name):
    result, stats = corpus_check(client, name, leaf_jobs="search", leaf_positions=2_000, **SEARCH_LEAVES)
    if stats is not None and stats.tree.expanded:
        assert stats.tree.verdict_jobs >= 1 and stats.tree.positions == result.positions


def test_search_leaf_jobs_from_the_command_line(capsys):
    game = str(ROOT / "problems/pg/row3_4x4.pg")
    assert main(["search", game, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["black_wins"]
    assert main(["search", game, "--algorithm", "ppn2", "--workers", "2", "--leaf-jobs", "search", "--leaf-positions", "50",
                 "--job-descents", "10", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["black_wins"] == expected
    assert " search leaf jobs, " in captured.err


# --- reproducible with one worker ---------------------------------------------------------------------


def test_one_worker_gives_the_same_counts_run_to_run():
    """With one worker, the server's picks do not depend on timing: a job's partial
    results can only move the leaf its own job is searching, which its final result
    then sets, and the next job is picked after it (docs/scaling.md)."""
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    runs = []
    for _ in range(2):
        with connect(1) as one:
            result, stats = search_bddl(one, model.domain, model.problem, 18, race_patterns=True, descents=100, every=10,
                                             leaf_jobs="dfpn")
        s = stats.tree
        runs.append((result.black_wins, s.jobs, s.expanded, s.touched, s.positions, stats.tables))
    assert runs[0] == runs[1]
    assert runs[0][2] > 20 and runs[0][-1] == 1  # many jobs, one df-pn table (no restart)


def test_search_leaf_jobs_give_the_same_counts_run_to_run_with_one_worker():
    """Their budget is positions, not seconds: which leaves they solve does not depend on the load."""
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    runs = []
    for _ in range(2):
        with connect(1) as one:
            result, stats = search_bddl(one, model.domain, model.problem, 18, race_patterns=True, descents=50, every=10,
                                             leaf_jobs="search", leaf_positions=300)
        s = stats.tree
        runs.append((result.black_wins, s.jobs, s.expanded, s.positions, s.verdict_jobs, s.verdicts))
    assert runs[0] == runs[1]
    assert runs[0][4] > 5 and 0 < runs[0][5] < runs[0][4]  # some leaves solved by their search job, some not


def _job_on_a_restarted_worker(token, recipe, job, position, descents, every, topic, news=None):
    if job == 5:
        ppn2._worker_search.clear()  # as a worker's restart would: its df-pn table is gone
    return ppn2.job_task(token, recipe, job, position, descents, every, topic, news)


def test_a_worker_that_lost_its_table_is_reported(monkeypatch):
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / "problems/breakthrough/second_3x5_d18.bddl")
    with connect(1) as one:
        monkeypatch.setattr(ppn2, "job_task", _job_on_a_restarted_worker)
        result, stats = search_bddl(one, model.domain, model.problem, 18, race_patterns=True, descents=100, every=10,
                                         leaf_jobs="dfpn")
    assert result.black_wins is True
    assert stats.tables == 2 and stats.workers == 1 and stats.restarted
