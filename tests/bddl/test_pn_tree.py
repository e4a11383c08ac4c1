"""The parallel proof-number search's logic without Dask: the server's tree
(`bddl.engines.pn_tree`), the bounded df-pn jobs (`bddl.engines.pn_job`,
`ProofNumberSearch.steps`), driven by fake workers that run their jobs
in-process, a step (one partial result) at a time and interleaved, so that
several jobs are out at once, partial results move the tree under the other
jobs, and jobs are lost.  Verdicts and first moves are checked against the
minimax (BDDL) and the brute force (`.pg`), which share no code with df-pn."""

from __future__ import annotations

import random
from functools import partial
from dataclasses import replace

import pytest
from conftest import ROOT, Reach, scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers.strategies import game as random_game
from pg.pg_random import brute_force
from pg.pg_random import random_game as random_pg_game

from bddl import Game, load_model, search
from bddl.engines.leaf_search import bddl_leaf_search, pg_leaf_search
from bddl.engines.minimax import black_wins
from bddl.engines.pn_job import JobResult, bddl_root, bddl_setup, pg_root, pg_setup, run_job, run_to_end
from bddl.engines.pn_tree import GarbageResult, PnTree, TreeTooLarge
from bddl.engines.pns import INF, ProofNumberSearch, game_sides
from bddl.engines.positional import PositionalSolver
from bddl.engines.race import race_knowledge
from bddl.pg.reader import load_pg


def fake_ppn2(setup, root, workers=2, descents=4, every=1, lose=0.0, seed=0, spread=True, max_nodes=10**9, share=False,
              leaf_search=None, budget=0):
    """Algorithm 1 with `workers` in-process workers, each with its own df-pn table;
    a job is lost (its worker dies, a fresh one takes its place) with probability `lose`
    at each step.  `share`: a finished job's table news (`ProofNumberSearch.news`)
    reach every other worker when that worker starts its next job, as
    `compiler.solving.search.table_news` routes them.  `leaf_search` (a function making a
    `LeafSearch`): every leaf below the root first gets a search leaf job of `budget`
    positions on its worker's own engine (`--leaf-jobs search`), answered at once."""
    rng = random.Random(seed)
    below_root = (lambda position: position[3] >= 1) if leaf_search is not None else None
    tree = PnTree(root, max_nodes=max_nodes, spread=spread, qbf_at=below_root)
    engines = [setup.engine() for _ in range(workers)]
    searches = [leaf_search() for _ in range(workers)] if leaf_search is not None else []
    pending: list[list] = [[] for _ in range(workers)]  # news each worker has not learnt yet
    running: dict[int, tuple[int, object]] = {}  # job -> (worker, its generator)
    most_out = 0
    tree.news = 0
    while not tree.done:
        busy = {worker for worker, _ in running.values()}
        for worker in range(workers):
            if worker in busy:
                continue
            picked = tree.next_job()
            while picked is not None and tree.is_verdict_job(picked[0]):  # answered at once; the worker is free again
                tree.verdict(picked[0], *searches[worker].verdict(picked[1], budget))
                picked = tree.next_job()
            if picked is None:
                break
            job, position = picked
            if share:
                engines[worker].learn(pending[worker])
                pending[worker] = []
                engines[worker].keep_journal()
            running[job] = (worker, run_job(setup, position, descents, every, engines[worker]))
        most_out = max(most_out, len(running))
        if tree.done:  # (a search leaf job decided it)
            break
        assert running, "no job out and no leaf to search"
        for job in sorted(running):
            worker, steps = running[job]
            if rng.random() < lose:
                del running[job]
                tree.lost(job)
                engines[worker] = setup.engine()
                continue
            try:
                tree.partial(job, *next(steps))
            except StopIteration as stop:
                del running[job]
                tree.final(job, stop.value)
                if share:
                    news = engines[worker].news()
                    tree.news += len(news)
                    for other in range(workers):
                        if other != worker:
                            pending[other].extend(news)
            if tree.done:
                break
    tree.most_out = most_out
    return tree


def bddl_first_move_wins(game: Game, tree: PnTree, depth: int) -> bool:
    board = tree.winning_successor()
    move = next(m for m in game.moves(game.initial, "black") if (m.state.black, m.state.white) == board)
    return game.won(move.state, "black") or black_wins(game, move.state, "white", depth - 1)


def test_fake_ppn2_agrees_with_the_minimax_on_random_bddl_games():
    reach = Reach(0.2)  # the tree, not the root's job, decided at least this share

    @settings(max_examples=scaled(150), deadline=None)
    @given(random_game(max_depth=7), st.sampled_from([(2, 4, 1), (3, 2, 1), (1, 1000, 100), (4, 1, 1)]), st.integers(0, 3))
    def check(case, sizes, seed):
        domain, problem = case
        game = Game(domain, problem)
        expected = search(game).black_wins
        workers, descents, every = sizes
        setup = replace(bddl_setup(game), leaf_plies=0) if seed < 2 else bddl_setup(game)  # no leaf search: more jobs
        tree = fake_ppn2(setup, bddl_root(game, problem.depth), workers, descents, every, lose=0.1 * (seed % 2), seed=seed)
        reach.tried()
        if tree.expanded:
            reach.reached()
        assert tree.black_wins == expected
        if expected and game.black_first:
            assert bddl_first_move_wins(game, tree, problem.depth)

    check()
    reach.check()


def test_fake_ppn2_with_shared_tables_agrees_with_the_minimax_on_random_bddl_games():
    """Table news learnt at every job's start (`ProofNumberSearch.learn`), some workers lost."""
    reach = Reach(0.2)  # the tree, not the root's job, decided at least this share

    @settings(max_examples=scaled(150), deadline=None)
    @given(random_game(max_depth=7), st.sampled_from([(2, 1, 1), (3, 1, 1), (4, 1, 1)]), st.integers(0, 3))
    def check(case, sizes, seed):
        domain, problem = case
        game = Game(domain, problem)
        expected = search(game).black_wins
        workers, descents, every = sizes
        setup = replace(bddl_setup(game), leaf_plies=0)
        tree = fake_ppn2(setup, bddl_root(game, problem.depth), workers, descents, every, lose=0.1 * (seed % 2), seed=seed, share=True)
        reach.tried()
        if tree.expanded:
            reach.reached()
        assert tree.black_wins == expected
        if expected and game.black_first:
            assert bddl_first_move_wins(game, tree, problem.depth)

    check()
    reach.check()


def pg_first_claim_wins(game, tree: PnTree) -> bool:
    setup, rules = pg_setup(game)
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    board = tree.winning_successor()
    claim = next(c for c in rules.claims(b, w, 0) if board in ((b | 1 << c, w), rules.canonical(b | 1 << c, w)))
    solver = PositionalSolver(game)
    return solver.rules.black_won(b | 1 << claim) or solver.black_wins(b | 1 << claim, w)


def test_fake_ppn2_agrees_with_the_brute_force_on_random_positional_games():
    rng = random.Random(28)
    decided_by_the_tree = reached = number = 0
    while reached < scaled(300):  # games settled before play (a won set, White's pairing) do not count
        number += 1
        game = random_pg_game(rng)
        expected = brute_force(game)
        root = pg_root(game)
        if isinstance(root, bool):
            assert root == expected, number
            continue
        reached += 1
        tree = fake_ppn2(
            pg_setup(game)[0], root, workers=1 + number % 3, descents=1 + number % 4, every=1, lose=0.05 * (number % 2), seed=number,
            share=number % 4 >= 2,
        )
        assert tree.black_wins == expected, (number, game)
        decided_by_the_tree += tree.expanded > 0
        if expected and root[0]:
            assert pg_first_claim_wins(game, tree), number
    assert decided_by_the_tree >= scaled(300) // 4  # the tree did the work, not one job at its root


def breakthrough(problem: str) -> Game:
    model = load_model(ROOT / "domains/breakthrough.bddl", ROOT / f"problems/breakthrough/{problem}")
    return Game(model.domain, model.problem)


@pytest.mark.parametrize("spread", [True, False], ids=["spread", "ties only (the paper)"])
def test_several_jobs_are_out_at_once_and_the_verdict_holds(spread):
    game = breakthrough("second_3x4_d12.bddl")
    expected = search(game).black_wins
    tree = fake_ppn2(bddl_setup(game), bddl_root(game, 12), workers=4, descents=20, every=5, spread=spread)
    assert tree.black_wins == expected
    assert tree.expanded > 10 and tree.partials > 0
    assert tree.most_out >= 2


def test_race_patterns_inside_the_jobs():
    game = breakthrough("second_3x5_d18.bddl")
    setup = bddl_setup(game, race_knowledge(game))
    tree = fake_ppn2(setup, bddl_root(game, 18), workers=2, descents=200, every=50)
    assert tree.black_wins is search(game).black_wins is True


def test_shared_tables_keep_the_verdict_and_save_the_second_worker_work():
    """Two workers on Breakthrough 3x5: passing each job's table news to the other
    worker gives the minimax's verdict with fewer positions than two separate tables."""
    game = breakthrough("second_3x5_d18.bddl")
    setup = bddl_setup(game, race_knowledge(game))
    expected = search(game).black_wins
    separate = fake_ppn2(setup, bddl_root(game, 18), workers=2, descents=100, every=10)
    shared = fake_ppn2(setup, bddl_root(game, 18), workers=2, descents=100, every=10, share=True)
    assert separate.black_wins == shared.black_wins == expected
    assert shared.news > 0 and separate.news == 0
    assert shared.positions < separate.positions


def test_news_carry_a_tables_verdicts_to_another_table():
    game = breakthrough("second_3x4_d12.bddl")
    setup = bddl_setup(game)
    first, second = setup.engine(), setup.engine()
    first.keep_journal()
    assert first.black_wins(game.black_first, game.initial.black, game.initial.white, 12) == search(game).black_wins
    news = first.news()
    assert news and first.journal is None
    second.learn(news)
    for key, (win, loss, _) in first.solved.items():
        for r in {1, loss, max(loss, 1), win if win < INF else 12}:
            assert second.known(*key, r) == first.known(*key, r)
    second.positions = 0
    assert second.black_wins(game.black_first, game.initial.black, game.initial.white, 12) == search(game).black_wins
    assert second.positions == 0  # the root itself was in the news


def test_learning_merges_by_the_plies_left():
    game = breakthrough("second_3x4_d12.bddl")
    engine = bddl_setup(game).engine()
    engine.learn([(1, 5, 6, 7, 2, 10), (1, 5, 6, 4, 3, 1), (0, 5, 6, 3, 4, 9, 20)])
    assert engine.solved[(True, 5, 6)] == [4, 3, 10]  # the smaller winning r, the larger losing r, the larger work
    engine.learn([(0, 5, 6, 3, 7, 7, 5)])  # less work than what is held: kept out
    assert engine.unsolved[(False, 5, 6, 3)] == (4, 9, 20)
    engine.learn([(0, 5, 6, 3, 2, 2, 50)])
    assert engine.unsolved[(False, 5, 6, 3)] == (2, 2, 50)


# --- the bounded df-pn -------------------------------------------------------------------


def test_steps_resume_where_they_paused_and_keep_the_budget():
    game = breakthrough("second_3x4_d12.bddl")
    black, white = game_sides(game)
    b, w = game.initial.black, game.initial.white
    expected = ProofNumberSearch(black, white).black_wins(game.black_first, b, w, 12)
    engine = ProofNumberSearch(black, white)
    numbers = list(engine.steps(game.black_first, b, w, 12, descents=10**9, every=3))
    assert len(numbers) > 5  # it paused, many times
    assert all(phi and delta for phi, delta in numbers[:-1])
    phi, delta = numbers[-1]
    assert (phi == 0) == (expected == game.black_first) and (delta == 0) != (phi == 0)
    bounded = ProofNumberSearch(black, white)
    for _ in bounded.steps(game.black_first, b, w, 12, descents=40, every=7):
        pass
    assert 40 <= bounded.positions < 40 + 200  # at most one leaf search past the budget
    assert bounded.pause_at == INF  # a later search is not paused


def test_a_job_returns_its_successors_with_the_tables_numbers():
    game = breakthrough("second_3x5_d18.bddl")
    setup = bddl_setup(game)
    root = bddl_root(game, 18)
    result = run_to_end(run_job(setup, root, descents=50, every=10))
    assert result.phi and result.delta and 50 <= result.positions
    successors = game_sides(game)[0 if game.black_first else 1].successors(root[1], root[2])
    assert [(c[0], c[1]) for c in result.children] == list(successors)
    assert all(c[4] == (not game.black_first) for c in result.children)
    assert any((c[2], c[3]) != (1, 1) for c in result.children)  # searched, or at least counted by mobility


# --- the tree ------------------------------------------------------------------------------


def open_result(children, phi=3, delta=3) -> JobResult:
    return JobResult(phi, delta, tuple(children), None, 10)


def test_the_most_proving_leaf_is_picked_and_reserved_leaves_are_skipped():
    # Black to move at the root: its children's proof numbers decide (White moves below)
    tree = PnTree((True, 0, 0, 10), spread=False)
    job, position = tree.next_job()
    assert position == (True, 0, 0, 10) and tree.next_job() is None  # the only leaf is out
    # three White-to-move children: phi/delta for White, so Black's pn is the child's delta
    tree.final(job, open_result([(1, 0, 5, 2, False), (2, 0, 7, 2, False), (3, 0, 1, 9, False)]))
    assert (tree.root.pn, tree.root.dn) == (2, 5 + 7 + 1)
    first = tree.next_job()
    second = tree.next_job()
    assert {first[1][1], second[1][1]} == {1, 2}  # both children of minimal pn (a choice point)
    assert tree.next_job() is None  # ties only: the third child is not most-proving
    tree.spread = True
    assert tree.next_job()[1][1] == 3  # with spread, the best free leaf after them
    tree.lost(first[0])
    assert tree.next_job()[1][1] == first[1][1]  # a lost job's leaf is handed out again


def test_partial_results_move_the_search_and_solved_numbers_propagate():
    tree = PnTree((True, 0, 0, 10))
    job, _ = tree.next_job()
    tree.final(job, open_result([(1, 0, 5, 2, False), (2, 0, 7, 3, False)]))
    j1, p1 = tree.next_job()
    assert p1[1] == 1
    tree.partial(j1, 1, 9)  # White's phi 1: Black's pn 9 at that child
    assert tree.root.pn == 3
    j2, p2 = tree.next_job()
    assert p2[1] == 2  # now the most-proving one
    tree.final(j2, JobResult(INF, 0, (), (5, 5), 7))  # White to move there and White loses: Black wins
    assert tree.done and tree.black_wins is True
    assert tree.winning_successor() == (2, 0)
    assert tree.statistics().positions == 17
    tree.final(j1, open_result([(9, 9, 1, 1, True)]))  # a job no longer wanted: nothing changes
    assert tree.black_wins is True and tree.expanded == 1


def test_a_solved_transposition_is_not_searched_again():
    tree = PnTree((True, 0, 0, 10))
    job, _ = tree.next_job()
    tree.final(job, open_result([(1, 0, 2, 2, False), (2, 0, 9, 9, False)]))
    j1, _ = tree.next_job()
    tree.final(j1, open_result([(7, 7, 2, 2, True), (8, 8, 1, 5, True)]))  # under the first child
    j2, p2 = tree.next_job()
    assert p2 == (True, 7, 7, 8)
    tree.final(j2, JobResult(INF, 0, (), None, 1))  # Black to move and lost: so is the first child
    j3, p3 = tree.next_job()
    assert p3 == (False, 2, 0, 9)
    tree.final(j3, open_result([(9, 9, 1, 1, True), (7, 7, 2, 2, True)]))  # (7, 7) again: known lost
    assert tree.done and tree.black_wins is False and tree.jobs == 4  # none on the transposition


def test_the_tree_bound_is_kept():
    tree = PnTree((True, 0, 0, 10), max_nodes=3)
    job, _ = tree.next_job()
    with pytest.raises(TreeTooLarge, match="raise --max-memory"):
        tree.final(job, open_result([(1, 0, 1, 1, False), (2, 0, 1, 1, False), (3, 0, 1, 1, False)]))


@pytest.mark.parametrize(
    "result",
    [
        JobResult(0, 5, (), None, 1),  # solved with a finite other number
        JobResult(-1, 3, ((1, 0, 1, 1, False),), None, 1),
        JobResult(3, 3, (), None, 1),  # open, without successors
        JobResult(3, 3, ((1, 0, 0, 0, False),), None, 1),
        JobResult(3, 3, ((1, 0, 1, 1),), None, 1),
        JobResult(INF, 0, ((1, 0, 1, 1, False),), None, 1),
        JobResult(2.5, 3, ((1, 0, 1, 1, False),), None, 1),
        (3, 3),
    ],
)
def test_a_garbage_result_is_an_error(result):
    tree = PnTree((True, 0, 0, 10))
    job, _ = tree.next_job()
    with pytest.raises(GarbageResult):
        tree.final(job, result)
    assert tree.black_wins is None


def test_garbage_partial_results_and_unknown_jobs_are_errors():
    tree = PnTree((True, 0, 0, 10))
    job, _ = tree.next_job()
    with pytest.raises(GarbageResult):
        tree.partial(job, 0, INF)  # only a final result may say solved
    with pytest.raises(GarbageResult):
        tree.partial(job, True, 3)
    with pytest.raises(GarbageResult):
        tree.final(job + 1, JobResult(0, INF, (), None, 1))


def test_a_workers_positions_add_up_past_the_engines_budget():
    """The worker's table (and its position count) lives on from job to job; a
    job's budget is its own, so a long-lived worker is not out of budget."""
    game = breakthrough("second_3x5_d18.bddl")
    setup = replace(bddl_setup(game), leaf_plies=0)
    engine = setup.engine()
    engine.positions = engine.max_positions - 10  # as after a long life of jobs
    result = run_to_end(run_job(setup, bddl_root(game, 18), descents=50, every=10, engine=engine))
    assert result.positions >= 50


# --- verdict jobs (QBF at the leaves) -------------------------------------------------------------


def below_the_root(position) -> bool:
    return position[3] < 10


def test_a_verdict_job_solves_its_leaf_or_leaves_it_to_a_dfpn_job():
    tree = PnTree((True, 0, 0, 10), qbf_at=below_the_root)
    root_job, _ = tree.next_job()
    assert not tree.is_verdict_job(root_job)  # the root never gets one: its formula is the whole question
    tree.final(root_job, open_result([(1, 0, 5, 2, False), (2, 0, 7, 3, False)]))
    j1, p1 = tree.next_job()
    assert tree.is_verdict_job(j1) and p1[1] == 1
    before = tree.root.pn, tree.root.dn
    tree.verdict(j1, None)  # unknown within the slice: nothing changes, the leaf is free again
    assert (tree.root.pn, tree.root.dn) == before and tree.statistics().verdict_jobs == 1
    j2, p2 = tree.next_job()
    assert p2[1] == 1 and not tree.is_verdict_job(j2)  # the same leaf, now for a df-pn (no second verdict job)
    with pytest.raises(GarbageResult):
        tree.verdict(j2, True)  # a df-pn job gives no verdict
    tree.final(j2, open_result([(5, 5, 2, 2, True)]))
    j3, p3 = tree.next_job()
    assert p3 == (True, 5, 5, 8) and tree.is_verdict_job(j3)
    with pytest.raises(GarbageResult):
        tree.partial(j3, 1, 1)  # a verdict job sends no partial results
    with pytest.raises(GarbageResult):
        tree.verdict(j3, 1)  # only True, False or None
    tree.verdict(j3, True)  # Black to move at (5, 5) wins: so does the first child, and the root
    assert tree.done and tree.black_wins is True and tree.winning_successor() == (1, 0)
    assert tree.statistics().verdicts == 1


def test_a_lost_verdict_job_is_not_a_verdict():
    tree = PnTree((True, 0, 0, 10), qbf_at=below_the_root)
    root_job, _ = tree.next_job()
    tree.final(root_job, open_result([(1, 0, 5, 2, False)]))
    job, _ = tree.next_job()
    tree.lost(job)
    with pytest.raises(GarbageResult):
        tree.verdict(job, False)
    again, position = tree.next_job()
    assert position[1] == 1 and not tree.is_verdict_job(again)


# --- search leaf jobs (`--leaf-jobs search`: the single-process search at the leaves) ------------------


def test_search_leaf_jobs_agree_with_the_minimax_on_random_bddl_games():
    """Budgets from none to plenty: leaves solved by the leaf search, by df-pn jobs, or both."""
    reach = Reach(0.2)  # a search leaf job solved a leaf in at least this share

    @settings(max_examples=scaled(150), deadline=None)
    @given(random_game(max_depth=7), st.sampled_from([0, 1, 3, 10, 1000]), st.integers(0, 3))
    def check(case, budget, seed):
        domain, problem = case
        game = Game(domain, problem)
        expected = search(game).black_wins
        setup = replace(bddl_setup(game), leaf_plies=0)
        tree = fake_ppn2(setup, bddl_root(game, problem.depth), 1 + seed % 3, 2, 1, lose=0.1 * (seed % 2), seed=seed,
                         share=seed >= 2, leaf_search=lambda: bddl_leaf_search(game), budget=budget)
        reach.tried()
        if tree.verdicts_found:
            reach.reached()
        assert tree.black_wins == expected
        if expected and game.black_first:
            assert bddl_first_move_wins(game, tree, problem.depth)

    check()
    reach.check()


def test_search_leaf_jobs_agree_with_the_brute_force_on_random_positional_games():
    rng = random.Random(29)
    solved_by_leaf_jobs = reached = number = 0
    while reached < scaled(300):  # games settled before play do not count
        number += 1
        game = random_pg_game(rng)
        expected = brute_force(game)
        root = pg_root(game)
        if isinstance(root, bool):
            continue
        reached += 1
        tree = fake_ppn2(
            pg_setup(game)[0], root, workers=1 + number % 3, descents=1 + number % 2, every=1, lose=0.05 * (number % 2), seed=number,
            leaf_search=partial(pg_leaf_search, game), budget=(0, 2, 20, 10_000)[number % 4],
        )
        assert tree.black_wins == expected, (number, game)
        solved_by_leaf_jobs += tree.verdicts_found > 0
        if expected and root[0]:
            assert pg_first_claim_wins(game, tree), number
    assert solved_by_leaf_jobs >= scaled(300) // 4


def test_a_search_leaf_job_keeps_its_table_and_its_budget():
    """The worker's engine answers a second leaf from what it solved for the first; a budget
    too small for a leaf is unknown (None), with the positions it spent; a position whose
    plies left do not fit its stones is refused."""
    game = breakthrough("second_3x4_d12.bddl")
    leaf = bddl_leaf_search(game, race_knowledge(game))
    root = bddl_root(game, 12)
    assert leaf.verdict(root, 5) == (None, 6)  # the sixth position is the one past the budget
    wins, spent = leaf.verdict(root, 10**7)
    assert wins is search(game).black_wins and spent > 6
    assert leaf.verdict(root, 1) == (wins, 0)  # known: no position expanded
    pg = load_pg(str(ROOT / "problems/pg/tictactoe_3x3.pg"))
    b, w = pg.mask(pg.black_initials), pg.mask(pg.white_initials)
    with pytest.raises(ValueError, match="does not fit"):
        pg_leaf_search(pg).verdict((False, b, w, pg.depth), 100)  # Black moves first there, with every ply left
