"""df-pn on positional games (`bddl.engines.positional_pns`) against the brute force and the
explicit solver: random games of every kind (Maker-Maker and Maker-Breaker,
(p,q) turns, first-move sets, symmetric boards), with its knowledge (the
threat cuts, the initial numbers, the symmetries) on and off, the GTTT corpus
against answers.tsv, the cuts on hand-made positions, the first claim it
reports, and the budget contract."""

from __future__ import annotations

import random

import pytest
from conftest import scaled
from helpers.corpus import PG_CORPUS, needs_pg_corpus, pg_answers
from pg_random import brute_force, random_game

from bddl.pg.game import BLACK, WHITE, PositionalGame
from bddl.engines.positional_pns import solve_pns
from bddl.pg.reader import load_pg
from bddl.engines.positional import PositionalSolver, SearchBudgetExceeded
from bddl.engines.positional_rules import PositionalRules

RANDOM_GAMES = scaled(600)
PLAIN = {"initial_numbers": False, "use_symmetries": False}  # df-pn with (1, 1) numbers and no symmetries


@pytest.mark.parametrize(("settings", "games"), [({}, RANDOM_GAMES), (PLAIN, RANDOM_GAMES // 3)], ids=["default", "plain"])
def test_dfpn_agrees_with_brute_force_on_random_games(settings, games):
    rng = random.Random(16)
    kinds = dict.fromkeys(("maker-maker", "maker-breaker", "border", "true", "false", "pq", "first-moves"), 0)
    kinds.update({"maker-maker pq": 0, "maker-maker first-moves": 0, "symmetric": 0})
    for number in range(games):
        game = random_game(rng)
        expected = brute_force(game)
        result = solve_pns(game, **settings)
        assert result.black_wins == expected, (number, game)
        if result.first_move is not None:
            solver = PositionalSolver(game)
            b = game.mask(game.black_initials) | 1 << result.first_move
            won_at_once = solver.rules.black_won(b)
            assert won_at_once or solver.black_wins(b, game.mask(game.white_initials)), (number, "first claim does not win")
        kinds["border" if game.graph else "maker-breaker" if game.maker_breaker else "maker-maker"] += 1
        kinds["true" if expected else "false"] += 1
        pq = any(a == b for a, b in zip(game.turns, game.turns[1:]))
        kinds["pq"] += pq
        kinds["first-moves"] += game.first_moves is not None
        maker_maker = bool(game.white_wins)
        kinds["maker-maker pq"] += maker_maker and pq
        kinds["maker-maker first-moves"] += maker_maker and game.first_moves is not None
        kinds["symmetric"] += result.symmetries > 1
    if settings.get("use_symmetries") is False:
        del kinds["symmetric"]  # (no symmetry is looked for)
    # every kind of game was met often enough for the agreement to mean something
    assert min(kinds.values()) >= games // 40, kinds


def test_dfpn_keeps_the_budget():
    rng = random.Random(3)
    # (without pairings, which decide most small random games within a few positions)
    game = max((random_game(rng) for _ in range(40)), key=lambda g: solve_pns(g, pairings=False).positions)
    needed = solve_pns(game, pairings=False).positions
    assert needed >= 10
    with pytest.raises(SearchBudgetExceeded):
        solve_pns(game, max_positions=needed // 2, pairings=False)
    assert solve_pns(game, max_positions=needed, pairings=False).positions == needed


def test_search_command_runs_dfpn_on_a_pg_file(capsys):
    import json

    from conftest import ROOT

    from compiler.cli import main

    path = str(ROOT / "problems" / "pg" / "el_4x4_p2q2_white_first.pg")
    answers = []
    for algorithm in ("minimax", "pns"):
        assert main(["search", path, "--algorithm", algorithm, "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out)["black_wins"])
    assert answers[0] is answers[1] is False


@needs_pg_corpus
@pytest.mark.parametrize("family", ["gttt-3x3", pytest.param("gttt-4x4", marks=pytest.mark.slow)])
def test_dfpn_gives_the_gttt_answers(family):
    """The Maker-Maker corpus, where the threat cuts and the symmetries do the work."""
    known = pg_answers(family + "/")
    assert len(known) >= 80
    for name, expected in known:
        assert solve_pns(load_pg(PG_CORPUS / name)).black_wins == expected, name


def _threat_game(turns: tuple[str, ...]) -> PositionalGame:
    """White owns a and c, each a set {a,b} / {c,d} short of one cell; Black owns e, short of x."""
    names = ("a", "b", "c", "d", "e", "x", "y")
    at = {v: i for i, v in enumerate(names)}
    return PositionalGame(
        cells=names,
        times=tuple(f"t{i + 1}" for i in range(len(turns))),
        turns=turns,
        black_wins=(frozenset({at["e"], at["x"]}), frozenset({at["y"], at["b"], at["d"]})),
        white_wins=(frozenset({at["a"], at["b"]}), frozenset({at["c"], at["d"]})),
        black_initials=frozenset({at["e"]}),
        white_initials=frozenset({at["a"], at["c"]}),
    )


def test_the_cuts_of_a_maker_maker_position():
    """The threat cuts alone (without pairings: White pairs b-d against y b d at once)."""
    from dataclasses import replace

    at = {v: i for i, v in enumerate(("a", "b", "c", "d", "e", "x", "y"))}
    game = _threat_game((BLACK, WHITE, BLACK))
    rules = PositionalRules(game, pairings=False)
    b, w = 1 << at["e"], 1 << at["a"] | 1 << at["c"]
    # Black completes its goal: the only claim, a win
    assert rules.claims(b, w, 0) == [at["x"]] and rules.verdict(b, w, 0) is True
    # without e, Black has one stone before White's turn against two threats: lost
    b = 0
    assert rules.verdict(b, w, 0) is False and len(rules.claims(b, w, 0)) == 1
    # against one threat (c is Black's), the block of d is forced
    assert rules.claims(1 << at["c"], 1 << at["a"], 0) == [at["b"]]
    assert rules.verdict(1 << at["c"], 1 << at["a"], 0) is None
    # a block outside the first-move set is no block: lost, and never claimed
    game = replace(_threat_game((BLACK, WHITE, BLACK)), first_moves=frozenset({at["x"], at["y"]}))
    rules = PositionalRules(game, pairings=False)
    assert rules.verdict(1 << at["c"], 1 << at["a"], 0) is False
    assert rules.claims(1 << at["c"], 1 << at["a"], 0) in ([at["x"]], [at["y"]])
    # two Black stones in a row block both: no verdict, every claim, the blocks first
    rules = PositionalRules(_threat_game((BLACK, BLACK, WHITE)), pairings=False)
    assert rules.verdict(0, w, 0) is None
    assert set(rules.claims(0, w, 0)[:2]) == {at["b"], at["d"]} and len(rules.claims(0, w, 0)) == 5
    # White to move completes its own goal
    rules = PositionalRules(_threat_game((WHITE, BLACK)), pairings=False)
    assert rules.verdict(0, w, 0) is False


def test_the_verdict_agrees_with_the_brute_force_on_random_positions():
    """Every position the cuts decide, on random games' random positions, has that value."""
    from dataclasses import replace

    rng = random.Random(7)
    decided = 0
    for _ in range(scaled(400)):
        game = random_game(rng)
        rules = PositionalRules(game)
        b, w = game.mask(game.black_initials), game.mask(game.white_initials)
        if rules.settled_before_play(b, w) is not None:
            continue
        for t in range(game.depth):
            verdict = rules.verdict(b, w, t)
            if verdict is not None:
                decided += 1
                rest = replace(game, times=game.times[t:], turns=game.turns[t:], first_moves=game.first_moves if t == 0 else None,
                               black_initials=frozenset(i for i in range(len(game.cells)) if b >> i & 1),
                               white_initials=frozenset(i for i in range(len(game.cells)) if w >> i & 1))
                assert verdict == brute_force(rest), (game, b, w, t)
                break
            open_ = rules.allowed(b, w, t)
            if not open_:
                break
            cells = [c for c in range(len(game.cells)) if open_ >> c & 1]
            c = rng.choice(cells)
            if rules.turns[t]:
                b |= 1 << c
            else:
                w |= 1 << c
            if rules.settled_before_play(b, w) is not None:
                break
    assert decided >= scaled(400) // 4
