"""The compiled core's pairing search (src/pairs.hpp, `bddl.engines.compiled.pairs_fit`) against
its Python reference, `bddl.pg.pairing._quick_pairing`, and against the SAT call: a certificate's
builder asks it of every White reply (`PairingFinder(fits=...)`), so a wrong answer would change
which lines end by a pairing.  Within the same steps the two searches give the same answer,
out-of-steps included; with the core's default steps, every answer it gives is the SAT call's.

Without the core built, these tests skip (BDDLC_REQUIRE_CORE=1 makes tests/pg/test_compiled_core.py
fail instead).  The sanitizer build runs this file too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bddl.engines import compiled
from bddl.pg.animals import animal_game
from bddl.pg.pairing import NO_PAIRING_STEPS, PairingFinder, _quick_pairing, _sat_pairing

pytestmark = pytest.mark.skipif(not compiled.available(), reason=compiled.why_unavailable() or "")


def set_families(cells: int):
    """Lists of distinct sets of at least two cells, as masks (what `PairingFinder._live` hands on)."""
    a_set = st.sets(st.integers(0, cells - 1), min_size=2, max_size=5).map(lambda s: sum(1 << c for c in s))
    return st.lists(a_set, min_size=1, max_size=9, unique=True)


@settings(max_examples=400, deadline=None)
@given(sets=set_families(12), steps=st.integers(1, 60))
def test_within_the_same_steps_the_core_gives_the_python_search_s_answer(sets, steps):
    assert compiled.pairs_fit(sets, 12, steps) == _quick_pairing(sets, steps)


@settings(max_examples=300, deadline=None)
@given(sets=set_families(10))
def test_the_core_s_answer_is_the_sat_call_s(sets):
    found = compiled.pairs_fit(sets, 10)
    assert found is not None
    assert found == (_sat_pairing(sets) is not None)


@pytest.mark.parametrize("cells", [65, 130, 200, 384])
def test_sets_beyond_the_first_word(cells):
    """Boards of 2, 3 and 6 words: two pairs in sets far apart fit; three sets in three cells do not."""
    far = cells - 1
    assert compiled.pairs_fit([1 << far | 1 << (far - 1), 0b11], cells) is True
    triangle = [1 << far | 1 << (far - 1), 1 << (far - 1) | 1 << (far - 2), 1 << far | 1 << (far - 2)]
    assert compiled.pairs_fit(triangle, cells) is False


def test_a_set_off_the_board_is_refused():
    with pytest.raises(ValueError, match="off the board"):
        compiled.pairs_fit([1 << 12 | 1], 12)
    with pytest.raises(ValueError, match="cells"):
        compiled.pairs_fit([0b11], 385)


@pytest.mark.parametrize("name, size, moves", [("I-tetromino", 5, 4), ("L-tetromino", 5, 4), ("T-tetromino", 6, 4)])
def test_the_finder_asks_the_core_and_answers_as_without_it(name, size, moves):
    """Along the positions a game reaches, `exists` and `find` with the core's search equal the
    Python ones (the quick search and the SAT call), pairings found included."""
    game = animal_game(name, size, weak=True, moves=moves)
    python, core = PairingFinder(game, within_depth=True), PairingFinder(game, within_depth=True, fits=lambda s: compiled.pairs_fit(s, len(game.cells)))
    paired = unpaired = 0
    n = len(game.cells)
    for seed in range(60):
        b = w = 0
        for ply in range(min(len(game.turns), 7)):
            open_cells = [c for c in range(n) if not (b | w) >> c & 1]
            cell = open_cells[(seed * 7 + ply * 13) % len(open_cells)]
            if game.turns[ply] == "black":
                b |= 1 << cell
            else:
                w |= 1 << cell
            pairs = python.find(b, w, ply + 1)
            assert core.exists(b, w, ply + 1) == python.exists(b, w, ply + 1) == (pairs is not None)
            assert core.find(b, w, ply + 1) == pairs
            paired += bool(pairs)
            unpaired += pairs is None
    assert paired >= 20 and unpaired >= 5, (paired, unpaired)  # both answers met, not one alone
    assert NO_PAIRING_STEPS < compiled.PAIRING_STEPS
