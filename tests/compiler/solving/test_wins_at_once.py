"""Wherever Black can win at once, the move bddlc names for Black wins at once.

Issue 42: on a pawn race where `advance 2 3` wins at once, `solve`, `search`,
`play` and certificates named `advance 1 1`, which wins two plies later.
Each check here takes positions where Black is to move and has a win at
once (decided by the game rules alone, `GameRules.plays` and `won`: nothing
of `bddl.at_once`), and asks every route that names Black's move there: the
engines (minimax and df-pn on BDDL, the positional solver and df-pn on
`.pg`), `search_model` (`bddlc search`, and `solve`'s search route), the
QBF route (`solve_model`, whose move is read from the solver's
assignment), the strategy `play` and `validate` follow (`SolverStrategy`,
by each engine), and a certificate (every Black node of a win's
certificate).  The positions come from the suite (problems/), the corpus
(../shared/corpus, where present) and random games of both languages, at
the start and along random lines of play, so that the first winning move in
the engines' order is often not the one that wins at once.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from conftest import ROOT, scaled
from helpers.corpus import instances, needs_corpus
from helpers.strategies import claiming_game, positional_game
from helpers.strategies import game as random_bddl_game
from helpers.suite import MANIFEST, manifest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[2] / "pg"))  # tests/pg's random games
from pg_random import random_game as random_pg_game  # noqa: E402

from bddl.errors import BddlError  # noqa: E402
from bddl.game import Game  # noqa: E402
from bddl.rules import BLACK, WHITE, Position, bddl_rules, black_wins_by_rules, pg_rules  # noqa: E402
from compiler.certificates import build_certificate  # noqa: E402
from compiler.cli import main  # noqa: E402
from compiler.model import GameModel, bddl_model, open_model, pg_model  # noqa: E402
from compiler.solving.search.outcome import search_model  # noqa: E402
from compiler.solving.qbf.route import solve_model  # noqa: E402
from compiler.solving.strategy import SolverStrategy  # noqa: E402
from helpers.pawn_race import DOMAIN as RACE_DOMAIN  # noqa: E402
from helpers.pawn_race import PROBLEM as RACE_PROBLEM  # noqa: E402




def quick_wins() -> list:
    """The suite's games Black wins within at most 12 plies that the manifest says take at most 50 ms to search (41 of them)."""
    import tomllib

    seconds = {e["file"]: e.get("seconds", 1.0) for e in tomllib.loads(MANIFEST.read_text())["problem"]}
    return [i for i in manifest() if i.black_wins and not i.slow and seconds[i.file] <= 0.05 and i.depth <= 12]


SUITE_BDDL = quick_wins()
SUITE_PG = ["tic_5x5_torus.pg", "row3_4x4.pg", "tictactoe_3x3.pg"]


def at_once(rules, position: Position) -> list:
    """Black's moves that win at once, by the rules alone."""
    return [p for p in rules.plays(position) if rules.won(p.after, BLACK)]


def wins_at_once(rules, position: Position, text: str | None) -> bool:
    return text is not None and text in {p.text for p in at_once(rules, position)}


def positions(rules, rng: random.Random, lines: int) -> list[Position]:
    """Positions with Black to move and a win at once (none already decided), on random lines of
    play from the start (at most six, the first met)."""
    found: dict[Position, None] = {}
    for _ in range(lines):
        position = rules.initial
        while position.ply < rules.depth:
            plays = rules.plays(position)
            if not plays or rules.won(position, BLACK) or rules.won(position, WHITE):
                break
            if rules.to_move(position.ply) == BLACK and at_once(rules, position):
                found[position] = None
            position = rng.choice(plays).after
    return list(found)[:6]


def telling_positions(rules, limit: int = 2000) -> list[Position]:
    """For small games: every reachable position with Black to move and a win at once, those
    first where the first move in the rules' order that wins (by the rules' own minimax) wins
    later, not at once: where an engine trying moves in order names a longer win (at most six)."""
    seen, frontier, found = {rules.initial}, [rules.initial], []
    while frontier and len(seen) < limit:
        position = frontier.pop(0)
        if position.ply >= rules.depth or rules.won(position, BLACK) or rules.won(position, WHITE):
            continue
        plays = rules.plays(position)
        if rules.to_move(position.ply) == BLACK and at_once(rules, position):
            found.append(position)
        for play in plays:
            if play.after not in seen:
                seen.add(play.after)
                frontier.append(play.after)

    def longer_first(position: Position) -> bool:
        for play in rules.plays(position):
            if rules.won(play.after, BLACK):
                return False
            if play.after.ply < rules.depth and black_wins_by_rules(rules, play.after):
                return True
        return False

    return sorted(found, key=lambda p: not longer_first(p))[:6]


def named_by_routes(model: GameModel, position: Position, qbf: bool = True) -> dict[str, str | None]:
    """The move each route names for Black at `position`, as text."""
    here = model.at_position(position)
    named: dict[str, str | None] = {}
    for algorithm in ("minimax", "pns"):
        found = search_model(here, algorithm=algorithm)
        assert found.black_wins
        named[f"search {algorithm}"] = None if found.first_move is None else found.first_move.text
    named.update(engine_moves(here))
    if qbf:
        solved = solve_model(here)
        assert solved.black_wins
        named["qbf"] = None if solved.first_move is None else solved.first_move.text
    for engine in ("search",) + (("qbf",) if qbf else ()):
        move = SolverStrategy(model, engine=engine)(position, model.depth - position.ply)
        named[f"strategy ({engine})"] = None if move is None else move.text
    return named


def engine_moves(model: GameModel) -> dict[str, str | None]:
    """The engines' own first moves, below `search_model` (the Python API's `bddl.search` and friends)."""
    if model.language == "pg":
        from bddl.engines.positional import solve
        from bddl.engines.positional_pns import solve_pns

        cells = model.pg.cells
        return {f"engine {name}": None if r.first_move is None else cells[r.first_move]
                for name, r in (("positional minimax", solve(model.pg)), ("positional df-pn", solve_pns(model.pg)))}
    from bddl.engines.minimax import search
    from bddl.engines.pns import search_pns
    from bddl.notation import describe_move

    game = model.rules.game  # type: ignore[attr-defined]
    return {f"engine {name}": None if r.first_move is None else describe_move(game, game.initial, r.first_move)
            for name, r in (("minimax", search(game)), ("df-pn", search_pns(game)))}


def assert_every_route_wins_at_once(model: GameModel, rng: random.Random, lines: int = 6, qbf: bool = True) -> int:
    rules = model.rules
    checked = 0
    for position in positions(rules, rng, lines):
        named = named_by_routes(model, position, qbf)
        wrong = {route: text for route, text in named.items() if not wins_at_once(rules, position, text)}
        assert not wrong, (f"{wrong} where Black wins at once with {[p.text for p in at_once(rules, position)]}\n"
                           + rules.render(position))
        checked += 1
    return checked


def assert_certificate_wins_at_once(model: GameModel) -> int:
    """Every Black node of the win's certificate with a win at once plays one: the lines end there."""
    if not search_model(model).black_wins:
        return 0
    certificate = build_certificate(model, True)
    rules, checked = model.rules, 0
    for k, position in enumerate(certificate.positions):
        if rules.to_move(position.ply) == BLACK and at_once(rules, position) and certificate.moves[k]:
            (edge,) = certificate.moves[k]
            assert wins_at_once(rules, position, edge.move), f"node {k}: {edge.move}\n" + rules.render(position)
            checked += 1
    return checked


def race_files(tmp_path: Path) -> list[str]:
    (tmp_path / "race.bddl").write_text(RACE_DOMAIN)
    (tmp_path / "race_p.bddl").write_text(RACE_PROBLEM)
    return [str(tmp_path / "race.bddl"), str(tmp_path / "race_p.bddl")]


def test_the_pawn_race_of_issue_42_is_won_at_once_by_every_route(tmp_path, capsys):
    files = race_files(tmp_path)
    model = open_model(files)
    for route, text in named_by_routes(model, model.rules.initial).items():
        assert text == "advance 2 3", route
    for args in (["solve"], ["solve", "--engine", "search"], ["solve", "--engine", "qbf"], ["search"], ["search", "--algorithm", "pns"]):
        main([*args, *files])
        assert "first move: advance 2 3" in capsys.readouterr().out, args
    cert = tmp_path / "race.json"
    main(["solve", *files, "--certificate", str(cert)])
    assert '"move": "advance 2 3"' in cert.read_text() and cert.read_text().count('"id"') == 1  # one node: won at once


@pytest.mark.parametrize("language", ["bddl", "pg"])
def test_the_qbf_routes_move_is_a_win_at_once_whatever_the_assignment_says(tmp_path, monkeypatch, language):
    """A solver's assignment may name any winning move: here the QBF route's solve is made to return
    a longer win (the move the rules' order gives first that does not win at once), and
    `solve_model`, through which `solve --engine qbf`, `play` and `validate` ask, names a win at once."""
    import dataclasses

    if language == "bddl":
        model = open_model(race_files(tmp_path))
    else:
        # Black on a1 wins at once with a2 or a3; a4 wins too, two plies later (White blocks one, Black takes the other)
        (tmp_path / "two.pg").write_text("#version\n1.0\n#times\nt1 t2 t3\n#blackturns\nt1 t3\n#positions\na1 a2 a3 a4\n"
                                         "#blackinitials\na1\n#blackwins\na1 a2\na1 a3\n#whitewins\n")
        model = open_model([str(tmp_path / "two.pg")])
    rules = model.rules
    longer = next(p for p in rules.plays(rules.initial) if not rules.won(p.after, BLACK) and black_wins_by_rules(rules, p.after))
    real = type(model).solve_qbf  # the language's QBF route, below `solve_model`

    def long_winded(self, **kwargs):
        return dataclasses.replace(real(self, **kwargs), first_move=longer, move_source="solver")

    monkeypatch.setattr(type(model), "solve_qbf", long_winded)
    solved = solve_model(model)
    assert solved.black_wins and wins_at_once(rules, rules.initial, solved.first_move.text), solved.first_move
    assert solved.move_source == "at once"


def test_play_takes_the_win_at_once_at_the_start_and_after_whites_reply(tmp_path, capsys, monkeypatch):
    """`bddlc play` by each engine wins at once; and where White's reply to a longer first move
    leaves Black a win at once, the strategy `play` follows takes it."""
    import io

    files = race_files(tmp_path)
    for engine in ("search", "qbf", "auto"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        main(["play", *files, "--engine", engine])
        assert "Black plays advance 2 3." in capsys.readouterr().out, engine
    model = open_model(files)
    rules = model.rules
    first = rules.parse_play(rules.initial, "advance 1 1")
    reply = next(p for p in rules.plays(first.after) if not rules.won(p.after, "white") and at_once(rules, p.after))
    for engine in ("search", "qbf", "auto"):
        move = SolverStrategy(model, engine=engine)(reply.after, rules.depth - reply.after.ply)
        assert move is not None and wins_at_once(rules, reply.after, move.text), engine


@pytest.mark.parametrize("instance", SUITE_BDDL, ids=[i.file for i in SUITE_BDDL])
def test_suite_bddl(instance):
    """Every route, the QBF ones where the depth is at most 9 (a solve per position), and the win's certificate."""
    model = open_model([str(instance.domain), str(instance.problem)])
    assert_every_route_wins_at_once(model, random.Random(instance.file), lines=4, qbf=model.rules.depth <= 9)
    assert_certificate_wins_at_once(model)  # (a game Black wins by leaving White stuck has no win at once)


@pytest.mark.parametrize("name", SUITE_PG)
def test_suite_pg(name):
    model = open_model([str(ROOT / "problems" / "pg" / name)])
    assert assert_every_route_wins_at_once(model, random.Random(name)) + assert_certificate_wins_at_once(model)


@needs_corpus
def test_corpus_samples():
    rng = random.Random(42)
    sample = [i for i in instances() if i.black_wins and i.depth <= 9 and i.game in ("httt", "connect-c", "breakthrough", "domineering")]
    checked = 0
    for instance in rng.sample(sample, min(6, len(sample))):
        model = open_model([str(instance.domain), str(instance.problem)])
        checked += assert_every_route_wins_at_once(model, rng, lines=3, qbf=False)
    assert checked


SHAPES = {  # goals of random positional models, as offsets from (?x,?y)
    "row": ((0, 0), (1, 0), (2, 0)), "column": ((0, 0), (0, 1), (0, 2)), "diagonal": ((0, 0), (1, 1), (2, 2)),
    "el": ((0, 0), (0, 1), (1, 1)), "domino": ((0, 0), (1, 0)), "corner": ((0, 0), (1, 0), (0, 1)),
}


def goal(side: str, shape: str) -> str:
    return "(" + " ".join(f"{side}(?x{dx:+d},?y{dy:+d})".replace("+0", "") for dx, dy in SHAPES[shape]) + ")"


def random_positional_model(rng: random.Random, folder: Path) -> GameModel:
    """A tic-tac-toe-like model on domains/positional.bddl: a board up to 4x4, a few stones, each
    side's goals some of the shapes, depth 5 to 9.  Such games often hold positions where the
    first winning move in the rules' order wins later while another wins at once (the random
    games of `helpers.strategies` seldom do: 5 positions with a win at once in 60 draws)."""
    width, height = rng.randint(3, 4), rng.randint(3, 4)
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    stones = rng.sample(cells, rng.randint(0, 3))
    init = " ".join(f"{'black' if k % 2 else 'white'}({x},{y})" for k, (x, y) in enumerate(stones)) or "()"
    shapes = rng.sample(sorted(SHAPES), rng.randint(1, 3))
    text = (f"#boardsize\n{width} {height}\n#init\n{init}\n#depth\n{rng.randint(5, 9)}\n#blackgoals\n"
            + "\n".join(goal("black", s) for s in shapes) + "\n#whitegoals\n" + "\n".join(goal("white", s) for s in shapes) + "\n")
    problem = folder / f"random_{rng.random():.6f}.bddl"
    problem.write_text(text)
    return open_model([str(ROOT / "domains" / "positional.bddl"), str(problem)])


def test_random_bddl_models(tmp_path):
    """Random positional models, each position where Black wins at once that an engine trying moves
    in order would get wrong first (`telling_positions`); the QBF route too on a few."""
    rng, checked = random.Random(42), 0
    for k in range(scaled(30)):
        try:
            model = random_positional_model(rng, tmp_path)
        except BddlError:  # a goal that holds before play, or none that fits the board: draw again
            continue
        rules = model.rules
        for position in telling_positions(rules)[:3]:
            named = named_by_routes(model, position, qbf=k % 5 == 0)
            assert all(wins_at_once(rules, position, text) for text in named.values()), (named, rules.render(position))
            checked += 1
        assert_certificate_wins_at_once(model)
    assert checked >= 20


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(random_bddl_game(), positional_game(4, 3, 9), claiming_game(4, 3, 9)))
def test_random_bddl_games(case):
    """The whole language's random games (and its positional and claiming ones): wins at once are
    rarer here, but every one met is checked."""
    domain, problem = case
    game = Game(domain, problem)
    rules = bddl_rules(game)
    model = bddl_model(domain, problem)
    for position in telling_positions(rules):
        named = named_by_routes(model, position, qbf=False)
        assert all(wins_at_once(rules, position, text) for text in named.values()), named
    assert_certificate_wins_at_once(model)


def test_random_pg_games():
    rng, checked = random.Random(7), 0
    for _ in range(scaled(40)):
        game = random_pg_game(rng)
        rules = pg_rules(game)
        model = pg_model(game)
        for position in telling_positions(rules):
            named = named_by_routes(model, position, qbf=False)
            assert all(wins_at_once(rules, position, text) for text in named.values()), named
            checked += 1
        checked += assert_certificate_wins_at_once(model)
    assert checked
