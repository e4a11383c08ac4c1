"""The implicit-state encodings (EA, EN, ET, LA, LN, SA, SN) against the
explicit solver: random Hex positions, random graphs with borders and random
winning sets, odd and even depths, each formula decided by DepQBF and by
CAQE; and the Hein puzzles at small depths."""

from __future__ import annotations

import random

import pytest
from helpers.corpus import PG_CORPUS, pg_answers
from helpers.hexgames import random_graph, random_hex, random_sets

from bddl.pg.prune import at_depth
from bddl.pg.reader import load_pg
from bddl.engines.positional import solve
from compiler.encodings import IMPLICIT_ENCODINGS, encode_implicit
from compiler.solving.qbf.solver_programs import run_solver_on_text

HEIN = PG_CORPUS / "hein"
needs_hein = pytest.mark.skipif(not HEIN.is_dir(), reason="../shared/corpus/pg/hein is not present")

# Which random games each encoding takes: ET needs a Hex board (White's
# borders), the chain encodings a graph with borders, the set encodings any
# Maker-Breaker game.  The lifted and stateless formulas are harder for the
# solvers, so their games are smaller.
KINDS = {
    "ea": ("hex", "graph", "sets"),
    "en": ("hex", "graph"),
    "et": ("hex",),
    "la": ("hex", "graph", "sets"),
    "ln": ("hex", "graph"),
    "sa": ("hex", "graph", "sets"),
    "sn": ("hex", "graph"),
}
SMALL = {"la", "ln", "sa", "sn"}


def _random_game(kind: str, rng: random.Random, small: bool):
    if kind == "hex":
        return random_hex(rng, 3 if small else 4, 6 if small else 8)
    if kind == "graph":
        return random_graph(rng, 6 if small else 8, 6 if small else 8)
    return random_sets(rng, 6 if small else 8, 6 if small else 8)


def decide(formula_text: str, solver: str) -> bool:
    run = run_solver_on_text(solver, formula_text, ".qdimacs", 60, model=False)
    assert run.status == "solved", f"{solver}: {run.status}"
    return run.verdict


def _qdimacs(encoding) -> str:
    import io

    from circuits import write_qdimacs

    buf = io.StringIO()
    write_qdimacs(encoding.qdimacs(), buf)
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(IMPLICIT_ENCODINGS))
def test_encoding_agrees_with_the_explicit_solver(name):
    rng = random.Random(name)
    kinds = KINDS[name]
    count = 16 if name in SMALL else 30
    answers = {True: 0, False: 0}
    encoded = tries = 0  # formulas that are not constants: the encoding itself was tested
    while encoded < count and tries < 4 * count:
        tries += 1
        game = _random_game(kinds[tries % len(kinds)], rng, name in SMALL)
        expected = solve(game).black_wins
        encoding = encode_implicit(game, encoding=name)
        text = _qdimacs(encoding)
        for solver in ("depqbf", "caqe"):
            assert decide(text, solver) == expected, (name, solver, game)
        if encoding.reduced.decided is None:
            encoded += 1
            answers[expected] += 1
    assert encoded == count and min(answers.values()) >= count // 10, (answers, encoded)


def _values(model: dict[int, bool]):
    return lambda var: model.get(var, False)


@pytest.mark.parametrize("name", sorted(IMPLICIT_ENCODINGS))
def test_first_move_read_from_a_model_wins(name):
    """Black's first move, read from the solver's model, still wins with one ply fewer for Black."""
    from compiler.solving.qbf.solver_programs import run_solver_on_text as run

    rng = random.Random(f"move-{name}")
    checked = 0
    for _ in range(40):
        game = random_hex(rng, 3, 5)
        if not solve(game).black_wins:
            continue
        encoding = encode_implicit(game, encoding=name)
        if encoding.first_move_bits is None:
            continue
        result = run("depqbf", _qdimacs(encoding), ".qdimacs", 60, model=True)
        assert result.verdict is True
        cell = encoding.first_move(_values(result.model))
        assert cell is not None and cell not in game.black_initials | game.white_initials
        from dataclasses import replace

        after = replace(
            game,
            times=game.times[1:],
            turns=game.turns[1:],
            black_initials=game.black_initials | {cell},
        )
        assert solve(after).black_wins, (game, game.cells[cell])
        checked += 1
    assert checked >= 5


def _hein_at_small_depths(name, paths, depths):
    for path in paths:
        game = load_pg(path)
        for depth in depths:
            small = at_depth(game, depth)
            encoding = encode_implicit(small, encoding=name)
            assert decide(_qdimacs(encoding), "depqbf") == solve(small).black_wins, (path.name, depth)


@needs_hein
@pytest.mark.parametrize("name", ["ea", "en", "et", "ln", "sn"])
def test_some_hein_puzzles_at_small_depths(name):
    paths = sorted(HEIN.glob("*.pg"))[::5]
    _hein_at_small_depths(name, paths, (1, 3) if name in SMALL else (1, 3, 5))


@pytest.mark.slow
@needs_hein
@pytest.mark.parametrize("name", sorted(IMPLICIT_ENCODINGS))
def test_every_hein_puzzle_at_small_depths(name):
    _hein_at_small_depths(name, sorted(HEIN.glob("*.pg")), (1, 3) if name in SMALL else (1, 3, 5))


QUICK_CRITICAL = ["hein_04_3x3-03", "hein_04_3x3-05", "hein_09_4x4-05", "hein_12_4x4-05"]


def _critical(name, stem):
    answers = dict(pg_answers("hein/"))
    encoding = encode_implicit(load_pg(HEIN / f"{stem}.pg"), encoding=name)
    assert decide(_qdimacs(encoding), "depqbf") == answers[f"hein/{stem}.pg"]


@needs_hein
@pytest.mark.parametrize("name", sorted(IMPLICIT_ENCODINGS))
@pytest.mark.parametrize("stem", QUICK_CRITICAL)
def test_hein_critical_depths(name, stem):
    _critical(name, stem)


@pytest.mark.slow
@needs_hein
@pytest.mark.parametrize("name", ["ea", "en", "et"])
@pytest.mark.parametrize("stem", ["hein_09_4x4-07", "hein_12_4x4-07", "hein_07_4x4-07", "hein_07_4x4-09", "hein_13_5x5-07", "hein_14_5x5-07"])
def test_more_hein_critical_depths(name, stem):
    _critical(name, stem)
