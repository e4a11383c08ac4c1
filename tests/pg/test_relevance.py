"""The relevance pruning of the Maker-Breaker searches (`bddl.engines.relevance`):
its tiers against a definition by enumeration, and both searches with the
pruning against the same searches without it and against a brute force, on
random graphs with borders, random Hex positions and random winning sets,
with random (p,q) turn sequences, initial stones, first-move sets, odd and
even depths; and the Hein puzzles against answers.tsv."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from conftest import scaled
from helpers.corpus import PG_CORPUS, needs_pg_corpus, pg_answers
from helpers.hexgames import random_graph, random_hex, random_sets
from pg_random import brute_force, random_game, random_turns

from bddl.pg.game import PositionalGame
from bddl.engines.positional_pns import solve_pns
from bddl.pg.reader import load_pg
from bddl.engines.relevance import UNREACHABLE
from bddl.engines.positional import solve
from bddl.engines.positional_rules import PositionalRules



# -- the tiers, against their definition ------------------------------------------


def _paths(graph, sources, b: int, w: int):
    """Every simple path from a cell of `sources` avoiding White's cells, as (cells, mask, cost)."""
    out = []

    def walk(path: list[int], mask: int, cost: int) -> None:
        out.append((path[-1], mask, cost))
        for nxt in graph.neighbours[path[-1]]:
            if not mask >> nxt & 1 and not w >> nxt & 1:
                path.append(nxt)
                walk(path, mask | 1 << nxt, cost + (not b >> nxt & 1))
                path.pop()

    for s in sources:
        if not w >> s & 1:
            walk([s], 1 << s, int(not b >> s & 1))
    return out


def goal_costs(game: PositionalGame, b: int, w: int) -> tuple[list[int], list[int]]:
    """Per cell, by enumeration: the cost (open cells) of the cheapest live goal
    through it (a winning set, or a simple chain between the borders), and the
    test's cost (for sets the same; for graphs the cheapest path from the start
    border to it plus the cheapest from it to the end border, itself counted once)."""
    n = len(game.cells)
    chain = [UNREACHABLE] * n
    if game.graph is None:
        goals = [game.mask(s) for s in game.black_wins]
        test = None
    else:
        graph = game.graph
        goals = [mask for last, mask, _ in _paths(graph, graph.start_border, b, w) if last in graph.end_border]
        d_start, d_end = [UNREACHABLE] * n, [UNREACHABLE] * n
        for dist, border in ((d_start, graph.start_border), (d_end, graph.end_border)):
            for last, _, cost in _paths(graph, border, b, w):
                dist[last] = min(dist[last], cost)
        test = [d_start[c] + d_end[c] - (not b >> c & 1) if d_start[c] < UNREACHABLE > d_end[c] else UNREACHABLE for c in range(n)]
    for goal in goals:
        if goal & w:
            continue
        cost = (goal & ~b).bit_count()
        for c in range(n):
            if goal >> c & 1 and cost < chain[c]:
                chain[c] = cost
    return chain, chain if test is None else test


def maker_breaker_games(rng: random.Random):
    """Random Maker-Breaker games of every shape, turns and first moves varied."""
    while True:
        kind = rng.random()
        if kind < 0.3:
            game = random_graph(rng, largest=7)
        elif kind < 0.5:
            game = random_hex(rng, largest=3)
        elif kind < 0.8:
            game = random_sets(rng, largest=8)
        else:
            game = random_game(rng)
            if not game.maker_breaker:
                continue
        if rng.random() < 0.5:  # (p,q) and arbitrary turn sequences
            game = replace(game, turns=random_turns(rng, game.depth))
        if rng.random() < 0.25:
            taken = game.black_initials | game.white_initials
            free = [c for c in range(len(game.cells)) if c not in taken]
            if free:
                game = replace(game, first_moves=frozenset(rng.sample(free, rng.randint(1, len(free)))))
        yield game


def test_tiers_match_the_cheapest_goal_through_each_cell():
    rng = random.Random(5)
    checked = {"graph": 0, "sets": 0, "relevant": 0}
    games = maker_breaker_games(rng)
    count = scaled(400)
    for _ in range(count):
        game = next(games)
        rules = PositionalRules(game)
        assert rules.relevance is not None
        b, w = game.mask(game.black_initials), game.mask(game.white_initials)
        chain, test = goal_costs(game, b, w)
        open_cells = [c for c in range(len(game.cells)) if not (b | w) >> c & 1]
        k = rng.randint(0, 6)
        need, within = rules.relevance.tiers(b, w, k)
        cheapest = min((chain[c] for c in range(len(game.cells))), default=UNREACHABLE)
        if game.graph is None:
            live = [(s & ~b).bit_count() for s in map(game.mask, game.black_wins) if not s & w]
            cheapest = min(live, default=UNREACHABLE)
        if cheapest <= k or game.graph is None:
            assert need == cheapest, (game, k)
        else:
            assert need > k, (game, k)
        assert len(within) == k + 1
        if need <= k:
            for m in range(k + 1):
                assert within[m] == sum(1 << c for c in open_cells if test[c] <= m), (game, k, m)
                on_chains = sum(1 << c for c in open_cells if chain[c] <= m)
                assert within[m] & on_chains == on_chains, (game, k, m)  # what soundness needs
            checked["relevant"] += within[k] != 0
        checked["graph" if game.graph else "sets"] += 1
    assert min(checked.values()) >= count // 5, checked


# -- the searches, with and without the pruning -------------------------------------


def test_both_searches_keep_their_answers_with_the_pruning():
    rng = random.Random(16)
    kinds = {"graph": 0, "sets": 0, "true": 0, "false": 0, "pq": 0, "first moves": 0, "odd": 0, "even": 0, "pruned": 0}
    games = maker_breaker_games(rng)
    count = scaled(700)
    for number in range(count):
        game = next(games)
        expected = brute_force(game)
        plain = solve(game, relevance=False, use_symmetries=False)
        pruned = solve(game, symmetry_after=0)
        assert plain.black_wins == expected, (number, game)
        assert pruned.black_wins == expected, (number, game)
        dfpn = solve_pns(game)
        assert dfpn.black_wins == expected, (number, game)
        for result in (pruned, dfpn):
            if result.first_move is not None:  # a reported first claim wins
                after = replace(
                    game,
                    times=game.times[1:],
                    turns=game.turns[1:],
                    black_initials=game.black_initials | {result.first_move},
                    first_moves=None,
                )
                rules = PositionalRules(after)
                won_at_once = rules.black_won(after.mask(after.black_initials))
                assert won_at_once or brute_force(after), (number, game)
        kinds["graph" if game.graph else "sets"] += 1
        kinds["true" if expected else "false"] += 1
        kinds["pq"] += any(a == b for a, b in zip(game.turns, game.turns[1:]))
        kinds["first moves"] += game.first_moves is not None
        kinds["odd" if game.depth % 2 else "even"] += 1
        kinds["pruned"] += pruned.positions < plain.positions
    # most of these games take a position or two either way: the pruning shows in a few
    assert kinds.pop("pruned") >= count // 40, kinds
    assert min(kinds.values()) >= count // 20, kinds


def test_the_pruning_is_off_in_maker_maker_games():
    rng = random.Random(2)
    game = next(g for g in iter(lambda: random_game(rng), None) if not g.maker_breaker)
    assert PositionalRules(game).relevance is None


def test_a_white_claim_far_from_every_goal_is_not_tried():
    """A path a-b-c between the borders and a far cell d: White's claim of d is
    a pass.  (White claims twice in a row, so b is no forced block.)"""
    from bddl.pg.game import BLACK, WHITE, BorderGraph

    graph = BorderGraph(((1,), (0, 2), (1,), ()), frozenset({0}), frozenset({2}))
    game = PositionalGame(
        cells=("a", "b", "c", "d"), times=("t1", "t2", "t3"), turns=(WHITE, WHITE, BLACK), graph=graph,
        black_initials=frozenset({0, 2}),
    )
    rules = PositionalRules(game)
    assert rules.claims(game.mask(game.black_initials), 0, 0) == [1]
    assert PositionalRules(game, relevance=False).claims(game.mask(game.black_initials), 0, 0) == [1, 3]
    assert not solve(game).black_wins
    assert solve(replace(game, turns=(BLACK, WHITE, WHITE))).black_wins


def test_first_move_set_outside_the_relevant_cells_keeps_every_allowed_claim():
    """At t = 0 the first-move set may hold no relevant cell: all of it is tried."""
    from bddl.pg.game import BLACK, WHITE

    game = PositionalGame(
        cells=("a", "b", "c"), times=("t1", "t2", "t3"), turns=(WHITE, BLACK, BLACK),
        black_wins=(frozenset({0, 1}),), first_moves=frozenset({2}),
    )
    assert PositionalRules(game).claims(0, 0, 0) == [2]
    assert solve(game).black_wins == brute_force(game) is True
    assert solve_pns(game).black_wins is True


# -- the Hein puzzles ---------------------------------------------------------------


def hein_answers(largest: int) -> list[tuple[str, bool]]:
    rows = []
    for name, expected in pg_answers("hein/"):
        side = int(name.split("x")[0][-1]) if "x" in name else 5
        if side <= largest:
            rows.append((name, expected))
    return rows


@needs_pg_corpus
def test_hein_puzzles_up_to_5x5_with_the_explicit_solver():
    """All 30 instances up to 5x5: a few seconds in all with the pruning."""
    rows = hein_answers(5)
    assert len(rows) == 30
    for name, expected in rows:
        assert solve(load_pg(PG_CORPUS / name)).black_wins == expected, name


@needs_pg_corpus
def test_hein_puzzles_up_to_5x5_depth_11_with_dfpn():
    rows = [(name, e) for name, e in hein_answers(5) if int(re.search(r"(\d+)\.pg$", name).group(1)) <= 11]
    assert len(rows) >= 20
    for name, expected in rows:
        assert solve_pns(load_pg(PG_CORPUS / name)).black_wins == expected, name


@pytest.mark.slow
@needs_pg_corpus
def test_hein_puzzles_every_known_answer():
    """Every instance with a known answer, 6x6 included, by the explicit solver;
    df-pn on those up to 5x5 (a few minutes in all under load)."""
    rows = hein_answers(7)
    assert len(rows) >= 34
    for name, expected in rows:
        game = load_pg(PG_CORPUS / name)
        assert solve(game).black_wins == expected, name
        if "6x6" not in name and "7x7" not in name:
            assert solve_pns(game).black_wins == expected, name


def test_a_run_of_white_stones_is_not_a_forced_block():
    """White claims twice at t = 0 and 1 (the first from the first-move set,
    which misses Black's completing cell c): only the first claim's choice
    decides, d (on every cheap set) wins for White, x (ranked first: it lies
    on more sets) does not.  A search that took White's first stone for a
    forced block, and tried one claim there, would say Black wins."""
    from bddl.pg.game import BLACK, WHITE

    names = ("a", "c", "d", "e", "f", "x", "p1", "q1", "p2", "q2", "p3", "q3")
    at = {name: i for i, name in enumerate(names)}
    sets = [("a", "c"), ("d", "e"), ("d", "f"), ("x", "d"), ("x", "p1", "q1"), ("x", "p2", "q2"), ("x", "p3", "q3")]
    game = PositionalGame(
        cells=names, times=("t1", "t2", "t3", "t4"), turns=(WHITE, WHITE, BLACK, BLACK),
        black_wins=tuple(frozenset(at[v] for v in s) for s in sets),
        black_initials=frozenset({at["a"]}), first_moves=frozenset({at["d"], at["x"]}),
    )
    rules = PositionalRules(game)
    assert rules.claims(1 << at["a"], 0, 0)[0] == at["x"]  # the trap: x comes first
    assert brute_force(game) is False
    assert solve(game).black_wins is False
    assert solve_pns(game).black_wins is False
