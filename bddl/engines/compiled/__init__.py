"""The compiled search core: C++17 bitboards and a memoised minimax, with a Cython face
(docs/engines-core.md).

It decides `.pg` positional games by the plain minimax, the same search as
`bddl.engines.positional_plain` (`solve_plain`), and by the positional solver with all its
knowledge, the same search as `bddl.engines.positional.solve` (`solve_full`); and BDDL games by
the minimax of `bddl.engines.minimax.search` (`solve_bddl`, on the game ground to bitboards by
`bddl_spec`): the Python engines are the references it is tested against, with equal position
counts.  The core is optional: an install without a C++ compiler has none, and
`available()` says so (with `why_unavailable()`), so that callers fall back to the Python engines.

This module is the only way in: it flattens the checked `PositionalGame` into plain arrays,
asserts the invariants the C++ relies on (cheaply: every index in range), and turns the core's
report into the engines' result.  The core keeps no state between calls (PPN²'s leaf searchers,
`leaf.CoreLeafSearch` and `CorePgLeafSearch`, are objects their caller holds, table and all).
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass, field

from ...game import BLACK as BDDL_BLACK
from ...game import Game as BddlGame
from ...pg.game import BLACK, PositionalGame
from ..minimax import DEFAULT_MAX_POSITIONS, SearchBudgetExceeded
from ..result import SearchResult

try:
    from . import _core
except ImportError as exc:  # not built: no compiler at install time, or a failed build (setup.py warned)
    _core = None  # type: ignore[assignment]
    if importlib.util.find_spec(f"{__name__}._core") is None:
        _WHY = ("the compiled core is not built (the install found no C++17 compiler or no Cython); "
                "reinstall with them (docs/engines-core.md)")
    else:  # built, but it does not load (another Python's build, a missing runtime library)
        _WHY = f"the compiled core does not load ({exc}); reinstall (docs/engines-core.md)"
else:
    _WHY = ""

MAX_CELLS = 384  # the widest bitboard the core is compiled for (src/pgcore.hpp)
MAX_BDDL_DEPTH = 4096  # the deepest BDDL search (src/bddlcore.hpp: one C++ frame per ply)
# The table's default size: a million positions of a board up to 128 cells take 40 MB
# (`table_bytes_for`), so this holds several million; the OS maps the pages as they are touched.
DEFAULT_TABLE_MB = 256


def available() -> bool:
    return _core is not None


def why_unavailable() -> str | None:
    """Why the core cannot be used at all (None: it can)."""
    return None if _core is not None else _WHY


def status() -> str:
    """One line for `bddlc --version`."""
    if _core is None:
        return "compiled core: not built (searches use the Python engines; docs/engines-core.md)"
    return (f"compiled core: built (C++17 via Cython; .pg games up to {MAX_CELLS} cells: the positional solver with its "
            f"knowledge, df-pn on its rules, and the plain minimax; BDDL games up to {MAX_CELLS} cells: the minimax and df-pn with race patterns; "
            f"PPN²'s search leaf jobs)")


def unsupported(game: PositionalGame) -> str | None:
    """Why the core cannot search this game (None: it can)."""
    if len(game.cells) > MAX_CELLS:
        return f"the game has {len(game.cells)} cells; the compiled core takes at most {MAX_CELLS}"
    return None


# the core's pairing search runs this many steps before the SAT call answers (`pairs_fit`): a
# thousand times the Python quick search's (NO_PAIRING_STEPS); the answers are the same either way
PAIRING_STEPS = 2_000_000


def pairs_fit(sets: list[int], cells: int, steps: int = PAIRING_STEPS) -> bool | None:
    """`bddl.pg.pairing._quick_pairing`'s search in the core (src/pairs.hpp), within `steps`
    steps: do disjoint pairs fit one inside each of `sets` (masks of a board of `cells` cells)?
    None: out of steps (`PairingFinder.exists` then asks its SAT call)."""
    if _core is None:
        raise RuntimeError(_WHY)
    return _core.pairs_fit(sets, cells, steps)


def entry_bytes(cells: int) -> int:
    """Bytes per table entry on a board of `cells` cells (the table's unit)."""
    if _core is None:
        raise RuntimeError(_WHY)
    return _core.entry_bytes(cells)


@dataclass(frozen=True)
class CoreSearchResult:
    """What `bddl.engines.positional.PgSearchResult` says, and what the table did."""

    black_wins: bool
    depth: int
    first_move: int | None
    positions: int
    seconds: float
    symmetries: int = 1
    table_entries: int = 0
    table_bytes: int = 0  # the table at the end (it doubles as it fills, up to the bound)
    table_bound_bytes: int = 0  # the bound it was given, in whole buckets
    table_hits: int = 0
    replacements: int = 0  # entries evicted: where nonzero, positions may be counted more than once
    carriers_dropped: int = 0  # `solve_full`: wins' carriers not kept (the memory bound): counts may differ then
    # `solve_full`: the seconds of the core's search alone, without the setup in Python (the rules'
    # tables, the start's pairing question, finding the symmetries when the search asks)
    search_seconds: float | None = None
    solver: object = field(default=None, compare=False, repr=False)


def flatten(game: PositionalGame) -> dict:
    """The game as the core's arrays (lists of lists as offsets and items)."""
    n = len(game.cells)

    def listed(groups) -> tuple[list[int], list[int]]:
        offsets, items = [0], []
        for group in groups:
            items.extend(sorted(group))
            offsets.append(len(items))
        return offsets, items

    black_sets = () if game.graph is not None else game.black_wins  # Hex: the borders are Black's goal
    bo, bc = listed(black_sets)
    wo, wc = listed(game.white_wins)
    graph = game.graph
    no, nc = listed(graph.neighbours) if graph is not None else ([0], [])
    black_initials, white_initials = sorted(game.black_initials), sorted(game.white_initials)
    first_moves = sorted(game.first_moves or ())
    start_border = sorted(graph.start_border) if graph is not None else []
    end_border = sorted(graph.end_border) if graph is not None else []
    # the invariants the C++ reads without checking (it checks them again, as cheaply)
    assert 0 <= n <= MAX_CELLS, unsupported(game)
    for cells in (bc, wc, black_initials, white_initials, first_moves, nc, start_border, end_border):
        assert all(0 <= c < n for c in cells), cells
    assert graph is None or len(no) == n + 1
    assert not set(black_initials) & set(white_initials), "a cell with two stones"
    return {
        "cells": n,
        "black_turn": [1 if side == BLACK else 0 for side in game.turns],
        "black_set_offsets": bo, "black_set_cells": bc,
        "white_set_offsets": wo, "white_set_cells": wc,
        "black_initials": black_initials, "white_initials": white_initials,
        "has_first_moves": game.first_moves is not None, "first_moves": first_moves,
        "hex": graph is not None,
        "neighbour_offsets": no, "neighbour_cells": nc,
        "start_border": start_border, "end_border": end_border,
    }


def table_bytes_for(megabytes: float) -> int:
    return int(megabytes * 1024 * 1024)


def solve_plain(game: PositionalGame, max_positions: int = DEFAULT_MAX_POSITIONS,
                table_mb: float = DEFAULT_TABLE_MB, threats: bool = False) -> CoreSearchResult:
    """Decide the game by the core's plain minimax (with the one-move threats: `threats`, as
    `bddl.engines.positional_plain`), its table within `table_mb` megabytes; raises
    `SearchBudgetExceeded` past `max_positions` positions, and ValueError for a game the core
    does not take (`unsupported`)."""
    if _core is None:
        raise RuntimeError(_WHY)
    why = unsupported(game)
    if why is not None:
        raise ValueError(why)
    flat = flatten(game)
    flat["threats"] = threats
    start = time.perf_counter()
    report = _core.solve_plain_flat(flat, max_positions, table_bytes_for(table_mb))
    seconds = time.perf_counter() - start
    if report["status"] == 1:
        raise SearchBudgetExceeded(report["positions"])
    assert report["status"] == 0, report
    return CoreSearchResult(report["black_wins"], game.depth, report["first_move"], report["positions"], seconds,
                            table_entries=report["table_entries"], table_bytes=report["table_bytes"], table_bound_bytes=report["table_bound_bytes"],
                            table_hits=report["table_hits"], replacements=report["replacements"])


def flatten_full(game: PositionalGame, use_symmetries: bool = True, symmetry_after: int | None = None,
                 relevance: bool = True, carriers: bool = True, pairings: bool = True, lazy: bool = False,
                 rules=None) -> dict:
    """`flatten`, and what the positional solver's knowledge reads beside it, computed here by
    the Python rules themselves (one definition each): the static move order, where White's
    pairing argument applies and its sets, the checked board symmetries.  `lazy`: the
    symmetries are found only when the search switches them on (a callable the core asks),
    as the Python solver finds them, since checking them costs more than a small search.
    `rules`: the game's `PositionalRules` with these switches, where the caller has them."""
    from ...pg.geometry import symmetries as board_symmetries
    from ...pg.pairing import NO_PAIRING_STEPS
    from ..positional import LOOKAHEAD_FROM, SYMMETRY_AFTER
    from ..positional_rules import PositionalRules

    if rules is None:
        rules = PositionalRules(game, use_symmetries=False, relevance=relevance, pairings=pairings)
    flat = flatten(game)
    pairing_sets = [] if rules.pairings is None else [[c for c in range(len(game.cells)) if m >> c & 1]
                                                      for m in rules.pairings.sets]
    po, pc = [0], []
    for cells in pairing_sets:
        pc.extend(cells)
        po.append(len(pc))
    perms = board_symmetries(game)[1:] if use_symmetries and not lazy else ()
    flat.update({
        "order": list(rules.order),
        "relevance": rules.relevance is not None,
        "carriers": carriers and rules.relevance is not None,
        "lookahead_from": LOOKAHEAD_FROM,
        "pairable": [1 if a else 0 for a in rules.pairable],
        "pairing_set_offsets": po, "pairing_set_cells": pc,
        "pairing_steps": NO_PAIRING_STEPS,
        "symmetry_cells": [c for p in perms for c in p],
        "symmetry_after": SYMMETRY_AFTER if symmetry_after is None else symmetry_after,
        "symmetric_plies": rules.symmetric_plies,
    })
    if use_symmetries and lazy:
        flat["fetch_symmetries"] = lambda: [c for p in board_symmetries(game)[1:] for c in p]
    return flat


def solve_full(game: PositionalGame, max_positions: int = DEFAULT_MAX_POSITIONS, table_mb: float = DEFAULT_TABLE_MB,
               use_symmetries: bool = True, symmetry_after: int | None = None, relevance: bool = True,
               carriers: bool = True, pairings: bool = True) -> CoreSearchResult:
    """Decide the game by the core's positional solver (`--knowledge full`): the search of
    `bddl.engines.positional.solve`, with the same switches, the same verdict and first move,
    and the same positions wherever the table evicted nothing (`replacements` is 0).  The start
    (a side owning a goal already, White's pairing before the first move: one SAT call) is
    settled here by the Python rules, as the Python solver settles it before its search.
    Raises `SearchBudgetExceeded` past `max_positions` positions, ValueError for a game the
    core does not take (`unsupported`)."""
    from ..positional_rules import PositionalRules

    if _core is None:
        raise RuntimeError(_WHY)
    why = unsupported(game)
    if why is not None:
        raise ValueError(why)
    start = time.perf_counter()
    b, w = game.mask(game.black_initials), game.mask(game.white_initials)
    rules = PositionalRules(game, use_symmetries=False, relevance=relevance, pairings=pairings)
    at_once = rules.decided_at_once(b, w)
    if at_once is not None:
        return CoreSearchResult(at_once, game.depth, None, 0, time.perf_counter() - start, search_seconds=0.0)
    flat = flatten_full(game, use_symmetries, symmetry_after, relevance, carriers, pairings, lazy=True, rules=rules)
    found: list[int] = []  # the symmetries' cells, once the core asked for them
    fetching = [0.0]  # the seconds it took to find them (Python's, inside the core's call)
    if "fetch_symmetries" in flat:
        fetch = flat["fetch_symmetries"]

        def fetch_and_time() -> list[int]:
            begin = time.perf_counter()
            found.extend(fetch())
            fetching[0] = time.perf_counter() - begin
            return found

        flat["fetch_symmetries"] = fetch_and_time
    called = time.perf_counter()
    report = _core.solve_full_flat(flat, max_positions, table_bytes_for(table_mb))
    seconds = time.perf_counter() - start
    searching = time.perf_counter() - called - fetching[0]
    if report["status"] == 1:
        raise SearchBudgetExceeded(report["positions"])
    assert report["status"] == 0, report
    group = len(found) // max(1, len(game.cells)) + 1 if report["symmetries_on"] else 1
    return CoreSearchResult(report["black_wins"], game.depth, report["first_move"], report["positions"], seconds,
                            symmetries=group, table_entries=report["table_entries"], table_bytes=report["table_bytes"],
                            table_bound_bytes=report["table_bound_bytes"], table_hits=report["table_hits"],
                            replacements=report["replacements"], carriers_dropped=report["carriers_dropped"],
                            search_seconds=searching)


# -- BDDL games ------------------------------------------------------------------------------


def bddl_unsupported(game: BddlGame, depth: int | None = None) -> str | None:
    """Why the core cannot search this BDDL game (None: it can)."""
    cells = game.geometry.cells
    if cells > MAX_CELLS:
        return f"the board has {cells} cells; the compiled core takes at most {MAX_CELLS}"
    if depth is not None and depth > MAX_BDDL_DEPTH:
        return f"the compiled core searches at most {MAX_BDDL_DEPTH} plies, not {depth}"
    return None


def _bddl_depth(game: BddlGame, depth: int | None) -> int:
    """The depth asked (default: the problem's), once the core is built and takes the game at it:
    what both BDDL searches check before they flatten anything."""
    if _core is None:
        raise RuntimeError(_WHY)
    depth = game.problem.depth if depth is None else depth
    why = bddl_unsupported(game, depth)
    if why is not None:
        raise ValueError(why)
    return depth


def solve_bddl(game: BddlGame, depth: int | None = None, max_positions: int = DEFAULT_MAX_POSITIONS,
               table_mb: float = DEFAULT_TABLE_MB) -> SearchResult:
    """Decide whether Black wins within `depth` plies (default: the problem's) by the core's
    minimax: the search of `bddl.engines.minimax.search`, with the same verdict, the same first
    move (`first_winning_move`'s: a win at once first, then the first move after which Black
    wins) and the same positions wherever the table evicted nothing.  One core call does the
    first-move loop on one table, as the Python search reuses one engine.  Raises
    `SearchBudgetExceeded` past `max_positions` positions, ValueError for a game the core does
    not take (`bddl_unsupported`)."""
    from .bddl_spec import flatten_bddl

    depth = _bddl_depth(game, depth)
    start = time.perf_counter()
    report = _core.solve_bddl_flat(flatten_bddl(game), max(depth, 0), max_positions, table_bytes_for(table_mb))
    if report["status"] == 1:
        raise SearchBudgetExceeded(report["positions"])
    assert report["status"] == 0, report
    first_move = None
    if report["first_move"] is not None:
        first_move = game.moves(game.initial, BDDL_BLACK)[report["first_move"]]
    return SearchResult(report["black_wins"], depth, first_move, report["positions"], time.perf_counter() - start,
                        engine=BddlCoreTable(**{k: report[k] for k in BddlCoreTable.__dataclass_fields__}))


@dataclass(frozen=True)
class BddlCoreTable:
    """What the core's table did in a BDDL search (the `engine` of its `SearchResult`): the
    core keeps no table after the call, so this is a report, not a searchable engine."""

    table_entries: int
    table_bytes: int
    table_bound_bytes: int
    table_hits: int
    replacements: int  # entries evicted: where nonzero, positions may be counted more than once
    knowledge_hits: int


# -- df-pn on BDDL games, with Breakthrough's race patterns -------------------------------------


@dataclass(frozen=True)
class PnsCoreTable:
    """What the core's df-pn table did (the `engine` of its `SearchResult`): a report, as
    `BddlCoreTable`, not a searchable engine."""

    capacity: int  # the entries kept at once: the one asked for, or fewer where the memory bound holds fewer
    collections: int  # SmallTreeGC passes, as the Python engine's `collections`
    # passes the memory bound forced before the capacity was reached: where nonzero, the positions
    # may differ from the Python engine's
    forced_collections: int
    table_entries: int
    table_bytes: int
    table_bound_bytes: int
    knowledge_hits: int


def solve_bddl_pns(game: BddlGame, depth: int | None = None, max_positions: int = DEFAULT_MAX_POSITIONS,
                   table_mb: float = DEFAULT_TABLE_MB, race_patterns: bool = False, capacity: int | None = None,
                   mobility: bool = True, leaf_plies: int | None = None) -> SearchResult:
    """Decide whether Black wins within `depth` plies (default: the problem's) by the core's
    df-pn: `bddl.engines.pns.search_pns` (weak numbers, epsilon 1, the minimax on the last
    `leaf_plies` plies, mobility numbers unless `mobility` is False, SmallTreeGC over `capacity`
    entries), with the race patterns of `bddl.engines.race` as its knowledge where
    `race_patterns` and the game is Breakthrough-like.  The same verdict and first move
    (`_first_winning_move`'s), and the same positions wherever no collection was forced
    (`forced_collections`: the table's bound, `table_mb`, held fewer entries than `capacity`).
    Raises `SearchBudgetExceeded` past `max_positions` positions, ValueError for a game the core
    does not take (`bddl_unsupported`)."""
    from ..pns import DEFAULT_CAPACITY, DEFAULT_LEAF_PLIES
    from ..race import race_knowledge
    from .bddl_spec import flatten_bddl
    from .race_spec import flatten_race

    depth = _bddl_depth(game, depth)
    start = time.perf_counter()
    knowledge = race_knowledge(game) if race_patterns else None
    options = {
        "capacity": max(DEFAULT_CAPACITY if capacity is None else capacity, 16),  # ProofNumberSearch's floor
        "leaf_plies": DEFAULT_LEAF_PLIES if leaf_plies is None else leaf_plies,
        "mobility": mobility,
    }
    race = flatten_race(knowledge, game.geometry.cells)
    report = _core.solve_bddl_pns_flat(flatten_bddl(game), race, max(depth, 0), options, max_positions, table_bytes_for(table_mb))
    if report["status"] == 1:
        raise SearchBudgetExceeded(report["positions"])
    assert report["status"] == 0, report
    first_move = None
    if report["first_move"] is not None:
        if report["first_move"] < 0:
            raise AssertionError("df-pn proved a win but no first move wins")
        first_move = game.moves(game.initial, BDDL_BLACK)[report["first_move"]]
    return SearchResult(report["black_wins"], depth, first_move, report["positions"], time.perf_counter() - start,
                        engine=PnsCoreTable(**{k: report[k] for k in PnsCoreTable.__dataclass_fields__}))
