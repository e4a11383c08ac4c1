# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False
"""The Cython face of the compiled core (src/pgcore.hpp): one call per search, the GIL released
while it runs.  Callers go through `bddl.engines.compiled`, which checks and flattens the game."""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from cpython.exc cimport PyErr_CheckSignals


cdef extern from "src/pgcore.hpp" namespace "bddlc":
    cdef cppclass GameSpec:
        int cells
        vector[uint8_t] black_turn
        vector[int] black_set_offsets, black_set_cells
        vector[int] white_set_offsets, white_set_cells
        vector[int] black_initials, white_initials
        bint has_first_moves
        vector[int] first_moves
        bint hex
        vector[int] neighbour_offsets, neighbour_cells
        vector[int] start_border, end_border
        bint threats
        vector[int] order
        bint relevance, carriers
        int lookahead_from
        vector[uint8_t] pairable
        vector[int] pairing_set_offsets, pairing_set_cells
        uint64_t pairing_steps
        vector[int] symmetry_cells
        int (*fetch_symmetries)(void *context, vector[int] &cells) noexcept
        void *symmetries_context
        uint64_t symmetry_after
        int symmetric_plies

    cdef cppclass SearchReport:
        int status
        bint black_wins
        int first_move
        uint64_t positions, table_hits, table_stores, replacements, table_entries, table_bytes, table_bound_bytes
        int entry_bytes, words
        bint symmetries_on
        uint64_t lost_causes, pairing_searches, carriers_dropped

    ctypedef int (*StopCheck)(void *context) noexcept
    const int MAX_CELLS
    const char *check_spec(const GameSpec &spec)
    const char *check_full_spec(const GameSpec &spec)
    SearchReport solve_plain(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes,
                             StopCheck check, void *context, uint64_t check_every) nogil
    SearchReport solve_full(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes,
                            StopCheck check, void *context, uint64_t check_every) nogil
    int entry_bytes_for(int cells)
    int pairs_fit_words(int cells, const uint64_t *set_words, size_t sets, int64_t steps) nogil


cdef extern from "src/bddlcore.hpp" namespace "bddlc":
    cdef cppclass BddlSideSpec:
        vector[int] move_action, move_position
        vector[int] pre_offsets, pre_cells
        vector[uint8_t] pre_allowed
        vector[int] out_offsets, out_cell_offsets, out_cells
        vector[uint8_t] out_values
        vector[int] goal_offsets, goal_cells
        vector[uint8_t] goal_allowed

    cdef cppclass BddlSpec:
        int cells, width
        bint black_first
        vector[int] black_initials, white_initials
        BddlSideSpec black, white

    cdef cppclass BddlKnowledge:
        int (*verdict)(void *context, cbool black_to_move, const uint64_t *b, const uint64_t *w, int r) noexcept
        void *context

    cdef cppclass BddlReport:
        int status
        bint black_wins
        int first_move
        uint64_t positions, knowledge_hits, table_hits, table_stores, replacements
        uint64_t table_entries, table_bytes, table_bound_bytes
        int entry_bytes, words

    const int BDDL_MAX_DEPTH
    int words_for(int cells)
    const char *check_bddl_spec(const BddlSpec &spec)
    BddlReport solve_bddl(const BddlSpec &spec, int depth, uint64_t max_positions, uint64_t table_bytes,
                          StopCheck check, void *context, uint64_t check_every, const BddlKnowledge *knowledge) nogil
    int bddl_entry_bytes_for(int cells)


MAX_CELLS_TAKEN = MAX_CELLS
MAX_BDDL_DEPTH = BDDL_MAX_DEPTH
# how often the search looks for a signal (Ctrl-C, the race's termination): a few times a second
CHECK_EVERY = 1 << 16


cdef int _signalled(void *context) noexcept with gil:
    """A pending signal's exception (KeyboardInterrupt, or whatever a handler raises) is kept in
    the context list and stops the search; the caller raises it once the core has returned."""
    try:
        PyErr_CheckSignals()
    except BaseException as exc:
        (<list>context).append(exc)
        return 1
    return 0


cdef int _fetched_symmetries(void *context, vector[int] &cells) noexcept with gil:
    """The symmetries' cells from the context's callable, asked once the search needs them
    (context: (the callable, the list that keeps an exception for the caller))."""
    cdef tuple pair = <tuple>context
    try:
        for c in pair[0]():
            cells.push_back(c)
    except BaseException as exc:
        (<list>pair[1]).append(exc)
        return 1
    return 0


def entry_bytes(int cells):
    """Bytes per table entry on a board of `cells` cells."""
    return entry_bytes_for(cells)


def pairs_fit(list sets, int cells, int64_t steps):
    """Do disjoint pairs of cells fit, one inside each of `sets` (masks, Python integers, of at
    most `cells` cells)?  `bddl.pg.pairing._quick_pairing`'s search (src/pairs.hpp) within
    `steps` steps: True, False, or None (out of steps).  ValueError for a set with cells off the
    board."""
    if not 0 < cells <= MAX_CELLS:
        raise ValueError(f"a board of {cells} cells: the compiled core takes 1 to {MAX_CELLS}")
    cdef int words = words_for(cells)
    cdef vector[uint64_t] flat
    cdef int i
    cdef int fit
    mask = (1 << 64) - 1
    for s in sets:
        if s < 0 or s >> cells:
            raise ValueError("a set with cells off the board")
        for i in range(words):
            flat.push_back((s >> (64 * i)) & mask)
    with nogil:
        fit = pairs_fit_words(cells, flat.data(), flat.size() // words, steps)
    return None if fit < 0 else fit == 1


cdef GameSpec _spec(dict flat):
    """The plain search's spec from the flattened game."""
    cdef GameSpec spec
    spec.cells = flat["cells"]
    spec.black_turn = flat["black_turn"]
    spec.black_set_offsets = flat["black_set_offsets"]
    spec.black_set_cells = flat["black_set_cells"]
    spec.white_set_offsets = flat["white_set_offsets"]
    spec.white_set_cells = flat["white_set_cells"]
    spec.black_initials = flat["black_initials"]
    spec.white_initials = flat["white_initials"]
    spec.has_first_moves = flat["has_first_moves"]
    spec.first_moves = flat["first_moves"]
    spec.hex = flat["hex"]
    spec.neighbour_offsets = flat["neighbour_offsets"]
    spec.neighbour_cells = flat["neighbour_cells"]
    spec.start_border = flat["start_border"]
    spec.end_border = flat["end_border"]
    spec.threats = flat.get("threats", False)
    return spec


cdef dict _report(SearchReport report, list raised, uint64_t table_bytes):
    """The core's report as a dict; a signal's exception that stopped it is raised here."""
    if raised:
        raise raised[0]
    if report.status == 3:
        raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")
    return {
        "status": report.status,
        "black_wins": report.black_wins,
        "first_move": None if report.first_move < 0 else report.first_move,
        "positions": report.positions,
        "table_hits": report.table_hits,
        "table_stores": report.table_stores,
        "replacements": report.replacements,
        "table_entries": report.table_entries,
        "table_bytes": report.table_bytes,
        "table_bound_bytes": report.table_bound_bytes,
        "entry_bytes": report.entry_bytes,
        "words": report.words,
        "symmetries_on": report.symmetries_on,
        "lost_causes": report.lost_causes,
        "pairing_searches": report.pairing_searches,
        "carriers_dropped": report.carriers_dropped,
    }


cdef dict _solve(GameSpec &spec, bint full, uint64_t max_positions, uint64_t table_bytes, list raised):
    """The spec checked, then the plain search (or with `full` the positional solver's) run on it
    without the GIL; the report as a dict.  `raised` keeps a signal's exception for `_report`."""
    cdef SearchReport report
    cdef uint64_t check_every = CHECK_EVERY
    why = (check_full_spec(spec) if full else check_spec(spec)).decode()
    if why:
        raise ValueError(f"the compiled core refuses the game: {why}")
    with nogil:
        if full:
            report = solve_full(spec, max_positions, table_bytes, _signalled, <void *>raised, check_every)
        else:
            report = solve_plain(spec, max_positions, table_bytes, _signalled, <void *>raised, check_every)
    return _report(report, raised, table_bytes)


def solve_plain_flat(dict flat, uint64_t max_positions, uint64_t table_bytes):
    """Search the flattened game (`bddl.engines.compiled.flatten`); the report as a dict.
    Raises ValueError for a spec the core refuses, and a signal's exception if one stopped it."""
    cdef GameSpec spec = _spec(flat)
    return _solve(spec, False, max_positions, table_bytes, [])


def solve_full_flat(dict flat, uint64_t max_positions, uint64_t table_bytes):
    """The positional solver's search on the flattened game and its knowledge
    (`bddl.engines.compiled.flatten_full`); otherwise as `solve_plain_flat`."""
    cdef GameSpec spec = _spec(flat)
    cdef list raised = []
    cdef tuple fetching = (flat.get("fetch_symmetries"), raised)
    _full_fields(spec, flat, fetching)
    return _solve(spec, True, max_positions, table_bytes, raised)  # `fetching` lives till it returns


cdef void _full_fields(GameSpec &spec, dict flat, tuple fetching) except *:
    """What the positional solver reads beside the plain spec; `fetching`: (the symmetries'
    callable or None, the list that keeps its exception), which must outlive the search."""
    spec.order = flat["order"]
    spec.relevance = flat["relevance"]
    spec.carriers = flat["carriers"]
    spec.lookahead_from = flat["lookahead_from"]
    spec.pairable = flat["pairable"]
    spec.pairing_set_offsets = flat["pairing_set_offsets"]
    spec.pairing_set_cells = flat["pairing_set_cells"]
    spec.pairing_steps = flat["pairing_steps"]
    spec.symmetry_cells = flat["symmetry_cells"]
    if fetching[0] is not None:  # a callable: the symmetries are asked for when needed
        spec.fetch_symmetries = _fetched_symmetries
        spec.symmetries_context = <void *>fetching
    spec.symmetry_after = flat["symmetry_after"]
    spec.symmetric_plies = flat["symmetric_plies"]


# -- BDDL games (src/bddlgame.hpp, src/bddlcore.hpp) ------------------------------------------------

def bddl_entry_bytes(int cells):
    """Bytes per table entry of the BDDL minimax on a board of `cells` cells."""
    return bddl_entry_bytes_for(cells)


cdef BddlSideSpec _bddl_side(dict flat):
    cdef BddlSideSpec side
    side.move_action = flat["move_action"]
    side.move_position = flat["move_position"]
    side.pre_offsets = flat["pre_offsets"]
    side.pre_cells = flat["pre_cells"]
    side.pre_allowed = flat["pre_allowed"]
    side.out_offsets = flat["out_offsets"]
    side.out_cell_offsets = flat["out_cell_offsets"]
    side.out_cells = flat["out_cells"]
    side.out_values = flat["out_values"]
    side.goal_offsets = flat["goal_offsets"]
    side.goal_cells = flat["goal_cells"]
    side.goal_allowed = flat["goal_allowed"]
    return side


cdef BddlSpec _bddl_spec(dict flat) except *:
    """The ground game (`bddl.engines.compiled.bddl_spec.flatten_bddl`) as the core's spec,
    checked (`check_bddl_spec`): a ValueError for a spec the core refuses."""
    cdef BddlSpec spec
    spec.cells = flat["cells"]
    spec.width = flat["width"]
    spec.black_first = flat["black_first"]
    spec.black_initials = flat["black_initials"]
    spec.white_initials = flat["white_initials"]
    spec.black = _bddl_side(flat["black"])
    spec.white = _bddl_side(flat["white"])
    why = check_bddl_spec(spec).decode()
    if why:
        raise ValueError(f"the compiled core refuses the game: {why}")
    return spec


cdef int _knowledge_verdict(void *context, cbool black_to_move, const uint64_t *b, const uint64_t *w, int r) noexcept with gil:
    """A Python knowledge, `(black to move, black cells, white cells, plies left) -> True, False or
    None` as `bddl.engines.minimax.Knowledge`, asked by the core (context: (the callable, the
    words per board, the list that keeps an exception for the caller)).  After an exception the
    verdict is "unknown", and the search stops at its next check (`_stopped`)."""
    cdef tuple held = <tuple>context
    cdef int words = held[1]
    cdef int i
    try:
        black = white = 0
        for i in range(words):
            black |= (<object>b[i]) << (64 * i)
            white |= (<object>w[i]) << (64 * i)
        verdict = held[0](bool(black_to_move), black, white, r)
    except BaseException as exc:
        (<list>held[2]).append(exc)
        return -1
    return -1 if verdict is None else (1 if verdict else 0)


cdef int _stopped(void *context) noexcept with gil:
    """`_signalled`, or a knowledge's exception kept in the context list."""
    if <list>context:
        return 1
    return _signalled(context)


def solve_bddl_flat(dict flat, int depth, uint64_t max_positions, uint64_t table_bytes, knowledge=None):
    """The BDDL minimax on the ground game, `depth` plies (at most MAX_BDDL_DEPTH); the report
    as a dict ("first_move": the index in Black's moves from the initial board, Game.moves'
    list).  `knowledge`: a Python callable asked before each position is counted, as
    `Minimax`'s (slow: a call into Python per position; the core's own knowledge plugs in
    through `BddlKnowledge` in C++).  Raises ValueError for a spec the core refuses, and a
    signal's or the knowledge's exception if one stopped it."""
    cdef BddlSpec spec = _bddl_spec(flat)
    cdef BddlReport report
    cdef list raised = []
    cdef uint64_t check_every = CHECK_EVERY
    cdef BddlKnowledge hook
    cdef const BddlKnowledge *hooked = NULL
    cdef tuple held
    if depth > BDDL_MAX_DEPTH:
        raise ValueError(f"the compiled core searches at most {BDDL_MAX_DEPTH} plies, not {depth}")
    if knowledge is not None:
        held = (knowledge, words_for(spec.cells), raised)
        hook.verdict = _knowledge_verdict
        hook.context = <void *>held
        hooked = &hook
    with nogil:
        report = solve_bddl(spec, depth, max_positions, table_bytes, _stopped, <void *>raised, check_every, hooked)
    if raised:
        raise raised[0]
    if report.status == 3:
        raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")
    return {
        "status": report.status,
        "black_wins": report.black_wins,
        "first_move": None if report.first_move < 0 else report.first_move,
        "positions": report.positions,
        "knowledge_hits": report.knowledge_hits,
        "table_hits": report.table_hits,
        "table_stores": report.table_stores,
        "replacements": report.replacements,
        "table_entries": report.table_entries,
        "table_bytes": report.table_bytes,
        "table_bound_bytes": report.table_bound_bytes,
        "entry_bytes": report.entry_bytes,
        "words": report.words,
    }


# -- df-pn for BDDL games, Breakthrough's race patterns (src/bddlpns.hpp, src/race.hpp) -----------

cdef extern from "src/bddlpns.hpp" namespace "bddlc":
    cdef cppclass RaceSideSpec:
        vector[int] placement_table, placement_offsets, placement_cells, placement_bits
        vector[int] row_distance, row_offsets, row_cells

    cdef cppclass RaceSpec:
        bint on
        int height, shapes
        vector[uint8_t] orders
        RaceSideSpec black, white

    cdef cppclass PnsOptions:
        uint64_t capacity
        int leaf_plies
        bint mobility

    cdef cppclass PnsReport:
        int status
        bint black_wins
        int first_move
        uint64_t positions, knowledge_hits, collections, forced_collections, capacity
        uint64_t table_entries, table_bytes, table_bound_bytes
        int entry_bytes, words

    const int RACE_MAX_WORDS
    const char *check_race_spec(const RaceSpec &spec, int cells)
    PnsReport solve_bddl_pns(const BddlSpec &spec, const RaceSpec &race, int depth, const PnsOptions &options,
                             uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
                             uint64_t check_every) nogil
    void race_verdicts(const RaceSpec &race, int cells, const vector[uint8_t] &black_to_move,
                       const vector[uint64_t] &words, const vector[int] &plies, vector[int] &out) nogil
    int pns_entry_bytes(int cells)


def pns_entry_bytes_for(int cells):
    """Bytes per df-pn table entry on a board of `cells` cells."""
    return pns_entry_bytes(cells)


cdef RaceSideSpec _race_side(dict flat):
    cdef RaceSideSpec side
    side.placement_table = flat["placement_table"]
    side.placement_offsets = flat["placement_offsets"]
    side.placement_cells = flat["placement_cells"]
    side.placement_bits = flat["placement_bits"]
    side.row_distance = flat["row_distance"]
    side.row_offsets = flat["row_offsets"]
    side.row_cells = flat["row_cells"]
    return side


cdef RaceSpec _race_spec(dict flat, int cells) except *:
    """The race knowledge (`bddl.engines.compiled.race_spec.flatten_race`) as the core's spec,
    checked (`check_race_spec`): a ValueError for a spec the core refuses."""
    cdef RaceSpec spec
    cdef bytes orders = flat["orders"]
    spec.on = flat["on"]
    spec.height = flat["height"]
    spec.shapes = flat["shapes"]
    spec.orders.assign(<const uint8_t *>(<const char *>orders), <const uint8_t *>(<const char *>orders) + len(orders))
    spec.black = _race_side(flat["black"])
    spec.white = _race_side(flat["white"])
    why = check_race_spec(spec, cells).decode()
    if why:
        raise ValueError(f"the compiled core refuses the race patterns: {why}")
    return spec


cdef int _board_words(b, w, int words, uint64_t *bw, uint64_t *ww, bint disjoint) except -1:
    """The boards b, w (Python integers) as the core's `words` 64-bit words each, checked here,
    before a searcher releases the GIL: a cell off the bitboards (or, where `disjoint`, a cell
    with two stones) is a ValueError, never a board the core misreads."""
    cdef int i
    if b < 0 or w < 0 or b >> (64 * words) or w >> (64 * words) or (disjoint and b & w):
        raise ValueError("a board with cells off the core's bitboards" + (", or a cell with two stones" if disjoint else ""))
    mask = (1 << 64) - 1
    for i in range(words):
        bw[i] = (b >> (64 * i)) & mask
        ww[i] = (w >> (64 * i)) & mask
    return 0


def race_verdicts_flat(dict race, int cells, list positions):
    """The core's race verdicts (1: Black wins, 0: Black loses, None: unknown) on positions given
    as (black to move, black cells, white cells, plies left), the masks as Python integers."""
    cdef RaceSpec spec = _race_spec(race, cells)
    cdef vector[uint8_t] movers
    cdef vector[uint64_t] words
    cdef vector[int] plies, out
    # typed locals for push_back: Cython passes a conditional's temporary by a reference that
    # outlives it (ASan: stack-use-after-scope)
    cdef uint8_t mover
    cdef uint64_t word
    cdef int left
    mask = (1 << 64) - 1
    for black_to_move, b, w, r in positions:
        mover = 1 if black_to_move else 0
        movers.push_back(mover)
        for board in (b, w):
            for i in range(RACE_MAX_WORDS):
                word = (board >> (64 * i)) & mask
                words.push_back(word)
        left = r
        plies.push_back(left)
    race_verdicts(spec, cells, movers, words, plies, out)
    return [None if v < 0 else bool(v) for v in out]


def solve_bddl_pns_flat(dict flat, dict race, int depth, dict options, uint64_t max_positions, uint64_t table_bytes):
    """df-pn on the ground game with the race knowledge (`on` False: none), `depth` plies (at
    most MAX_BDDL_DEPTH); options: capacity, leaf_plies, mobility.  The report as a dict
    ("first_move": the index in Game.moves' list from the initial board).  Raises ValueError for
    specs the core refuses, and a signal's exception if one stopped it."""
    cdef BddlSpec spec = _bddl_spec(flat)
    cdef RaceSpec race_spec = _race_spec(race, flat["cells"])
    cdef PnsOptions opts
    cdef PnsReport report
    cdef list raised = []
    cdef uint64_t check_every = CHECK_EVERY
    if depth > BDDL_MAX_DEPTH:
        raise ValueError(f"the compiled core searches at most {BDDL_MAX_DEPTH} plies, not {depth}")
    opts.capacity = options["capacity"]
    opts.leaf_plies = options["leaf_plies"]
    opts.mobility = options["mobility"]
    with nogil:
        report = solve_bddl_pns(spec, race_spec, depth, opts, max_positions, table_bytes, _signalled, <void *>raised,
                                check_every)
    if raised:
        raise raised[0]
    if report.status == 3:
        raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")
    return {
        "status": report.status,
        "black_wins": report.black_wins,
        "first_move": None if report.first_move == -1 else report.first_move,
        "positions": report.positions,
        "knowledge_hits": report.knowledge_hits,
        "collections": report.collections,
        "forced_collections": report.forced_collections,
        "capacity": report.capacity,
        "table_entries": report.table_entries,
        "table_bytes": report.table_bytes,
        "table_bound_bytes": report.table_bound_bytes,
        "entry_bytes": report.entry_bytes,
        "words": report.words,
    }


# -- a persistent BDDL minimax: PPN²'s search leaf jobs (src/bddlcore.hpp, BddlSearcher) ----------

cdef extern from "src/bddlcore.hpp" namespace "bddlc":
    cdef cppclass BddlAnswer:
        int status
        bint black_wins
        uint64_t positions

    cdef cppclass BddlSearcher:
        bint ok()
        BddlAnswer ask(cbool black_to_move, const uint64_t *b, const uint64_t *w, int r, uint64_t budget,
                       StopCheck check, void *context, uint64_t check_every) nogil
        BddlReport totals()

    BddlSearcher *new_bddl_searcher(const BddlSpec &spec, const RaceSpec &race, uint64_t table_bytes) except +


cdef class BddlLeafSearcher:
    """One BDDL minimax kept alive between questions (`bddl.engines.compiled.leaf.CoreLeafSearch`
    is its face): `ask` is `Minimax.black_wins` on the same table each time, within a budget of
    positions, the GIL released while it searches.  The table is bounded by `table_bytes` and
    replaces past it; the race patterns are the knowledge where `race["on"]`."""

    cdef BddlSearcher *searcher
    cdef readonly int words

    def __cinit__(self, dict flat, dict race, uint64_t table_bytes):
        self.searcher = NULL
        cdef BddlSpec spec = _bddl_spec(flat)
        cdef RaceSpec race_spec = _race_spec(race, flat["cells"])
        self.words = words_for(spec.cells)
        self.searcher = new_bddl_searcher(spec, race_spec, table_bytes)
        if not self.searcher.ok():
            raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")

    def __dealloc__(self):
        del self.searcher

    def ask(self, bint black_to_move, b, w, int r, uint64_t budget):
        """(status, Black wins, positions counted by this question): status 0 decided, 1 the
        budget ran out.  Raises a signal's exception if one stopped it."""
        cdef uint64_t bw[6]
        cdef uint64_t ww[6]
        cdef BddlAnswer answer
        cdef list raised = []
        cdef uint64_t check_every = CHECK_EVERY
        cdef cbool black = black_to_move
        if r > BDDL_MAX_DEPTH:
            raise ValueError(f"the compiled core searches at most {BDDL_MAX_DEPTH} plies, not {r}")
        _board_words(b, w, self.words, bw, ww, False)
        with nogil:
            answer = self.searcher.ask(black, bw, ww, r, budget, _signalled, <void *>raised, check_every)
        if raised:
            raise raised[0]
        return answer.status, answer.black_wins, answer.positions

    def totals(self):
        """The positions, hits and table of every question so far, as a dict."""
        cdef BddlReport report = self.searcher.totals()
        return {
            "positions": report.positions,
            "knowledge_hits": report.knowledge_hits,
            "table_hits": report.table_hits,
            "table_stores": report.table_stores,
            "replacements": report.replacements,
            "table_entries": report.table_entries,
            "table_bytes": report.table_bytes,
            "table_bound_bytes": report.table_bound_bytes,
            "entry_bytes": report.entry_bytes,
            "words": report.words,
        }


# -- a persistent positional solver: PPN²'s search leaf jobs on .pg games (src/pgcore.hpp) --------

cdef extern from "src/pgcore.hpp" namespace "bddlc":
    cdef cppclass PgAnswer:
        int status
        bint black_wins
        uint64_t positions
        int move

    cdef cppclass PgSearcher:
        bint ok()
        PgAnswer ask(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                     uint64_t check_every) nogil
        PgAnswer decide(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                        uint64_t check_every) nogil
        PgAnswer refute(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                        uint64_t check_every) nogil
        SearchReport totals()

    PgSearcher *new_pg_searcher(const GameSpec &spec, uint64_t table_bytes) except +


cdef class PgLeafSearcher:
    """The positional solver's search kept alive between questions (`bddl.engines.compiled.leaf.
    CorePgLeafSearch` is its face): `ask` is the Python solver's `engine.black_wins` at a time
    point, on the same table each time, within a budget of positions, the GIL released.  `flat`
    is `flatten_full`'s; its symmetry fetch (kept here) is asked when the search needs it."""

    cdef PgSearcher *searcher
    cdef readonly int words
    cdef tuple fetching  # the symmetries' callable and its exceptions: alive as long as the searcher

    def __cinit__(self, dict flat, uint64_t table_bytes):
        self.searcher = NULL
        cdef GameSpec spec = _spec(flat)
        self.fetching = (flat.get("fetch_symmetries"), [])
        _full_fields(spec, flat, self.fetching)
        why = check_full_spec(spec).decode()
        if why:
            raise ValueError(f"the compiled core refuses the game: {why}")
        cells = flat["cells"]
        self.words = words_for(cells)
        self.searcher = new_pg_searcher(spec, table_bytes)
        if not self.searcher.ok():
            raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")

    def __dealloc__(self):
        del self.searcher

    def ask(self, b, w, int t, uint64_t budget):
        """(status, Black wins, positions counted by this question) at the t-th time point:
        status 0 decided, 1 the budget ran out.  Raises a signal's exception if one stopped it,
        or the symmetry fetch's."""
        status, wins, positions, _ = self._question(0, b, w, t, budget)
        return status, wins, positions

    def decide(self, b, w, int t, uint64_t budget):
        """The Python solver's `decide` at the t-th time point (the start settled by the caller):
        (status, Black wins, positions counted, Black's first winning claim in the search's order
        where Black moves and wins, else -1)."""
        return self._question(1, b, w, t, budget)

    def refute(self, b, w, int t, uint64_t budget):
        """The Python solver's `refutation`, White to move at the t-th time point: (status, Black
        wins, positions counted, White's first claim in the search's order after which Black does
        not win, -1 where there is none or the rules cut the position)."""
        return self._question(2, b, w, t, budget)

    cdef tuple _question(self, int which, b, w, int t, uint64_t budget):
        cdef uint64_t bw[6]
        cdef uint64_t ww[6]
        cdef PgAnswer answer
        cdef list raised = []
        cdef uint64_t check_every = CHECK_EVERY
        _board_words(b, w, self.words, bw, ww, False)
        with nogil:
            if which == 1:
                answer = self.searcher.decide(bw, ww, t, budget, _signalled, <void *>raised, check_every)
            elif which == 2:
                answer = self.searcher.refute(bw, ww, t, budget, _signalled, <void *>raised, check_every)
            else:
                answer = self.searcher.ask(bw, ww, t, budget, _signalled, <void *>raised, check_every)
        if self.fetching[1]:
            raise self.fetching[1][0]
        if raised:
            raise raised[0]
        return answer.status, answer.black_wins, answer.positions, answer.move

    def totals(self):
        """The positions, hits and table of every question so far, as a dict."""
        cdef SearchReport report = self.searcher.totals()
        return {
            "positions": report.positions,
            "table_hits": report.table_hits,
            "table_stores": report.table_stores,
            "replacements": report.replacements,
            "table_entries": report.table_entries,
            "table_bytes": report.table_bytes,
            "table_bound_bytes": report.table_bound_bytes,
            "symmetries_on": report.symmetries_on,
            "lost_causes": report.lost_causes,
            "carriers_dropped": report.carriers_dropped,
        }


# -- df-pn on .pg games: PositionalProofNumberSearch kept between questions (src/pgpns.hpp) -------

cdef extern from "src/pgpns.hpp" namespace "bddlc":
    cdef cppclass PgPnsOptions:
        uint64_t capacity
        double epsilon
        int leaf_plies
        bint initial_numbers

    cdef cppclass PgPnsReport:
        uint64_t positions, knowledge_hits, collections, forced_collections, capacity
        uint64_t table_entries, table_bytes, table_bound_bytes, pairing_searches
        int entry_bytes, words
        bint symmetries_on

    cdef cppclass PgPnsAnswer:
        int status
        bint black_wins
        int cell
        bint proved_no_claim

    cdef cppclass PgPnsSearcher:
        bint ok()
        PgPnsAnswer decide(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check,
                           void *context, uint64_t check_every) nogil
        PgPnsAnswer refutation(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check,
                               void *context, uint64_t check_every) nogil
        PgPnsReport totals()

    PgPnsSearcher *new_pg_pns_searcher(const GameSpec &spec, const PgPnsOptions &options, uint64_t table_bytes) except +
    int pg_pns_entry_bytes(int cells)


# df-pn's positions on the races cost far more than the minimax's (the cuts of every fresh child,
# White's pairings: the L-pentomino's 7x7 race expands 1,500 a second at its start, 13,000 on
# average), so it looks for a signal far more often (a check costs about a microsecond)
PG_PNS_CHECK_EVERY = 1 << 8


def pg_pns_entry_bytes_for(int cells):
    """Bytes per df-pn table entry on a .pg board of `cells` cells."""
    return pg_pns_entry_bytes(cells)


cdef class PgPnsCore:
    """The core's df-pn on a .pg game, its table kept between questions (`bddl.engines.compiled.
    pg_pns.CorePositionalProofNumberSearch` is its face): `decide` and `refutation` are
    `PositionalProofNumberSearch`'s, the GIL released, a Ctrl-C check every CHECK_EVERY positions.
    `flat` is `flatten_full`'s with its symmetries given (not fetched); options: capacity,
    epsilon, leaf_plies, initial_numbers."""

    cdef PgPnsSearcher *searcher
    cdef readonly int words

    def __cinit__(self, dict flat, dict options, uint64_t table_bytes):
        self.searcher = NULL
        cdef GameSpec spec = _spec(flat)
        cdef PgPnsOptions opts
        if flat.get("fetch_symmetries") is not None:
            raise ValueError("the core's df-pn takes its symmetries given, not fetched")
        _full_fields(spec, flat, (None, []))
        why = check_full_spec(spec).decode()
        if why:
            raise ValueError(f"the compiled core refuses the game: {why}")
        opts.capacity = options["capacity"]
        opts.epsilon = options["epsilon"]
        opts.leaf_plies = options["leaf_plies"]
        opts.initial_numbers = options["initial_numbers"]
        cells = flat["cells"]
        self.words = words_for(cells)
        self.searcher = new_pg_pns_searcher(spec, opts, table_bytes)
        if not self.searcher.ok():
            raise MemoryError(f"the compiled core could not allocate its table ({table_bytes:,} bytes)")

    def __dealloc__(self):
        del self.searcher

    def _ask(self, b, w, uint64_t max_positions, bint refute):
        cdef uint64_t bw[6]
        cdef uint64_t ww[6]
        cdef PgPnsAnswer answer
        cdef list raised = []
        cdef uint64_t check_every = PG_PNS_CHECK_EVERY
        _board_words(b, w, self.words, bw, ww, True)
        with nogil:
            if refute:
                answer = self.searcher.refutation(bw, ww, max_positions, _signalled, <void *>raised, check_every)
            else:
                answer = self.searcher.decide(bw, ww, max_positions, _signalled, <void *>raised, check_every)
        if raised:
            raise raised[0]
        return answer.status, answer.black_wins, None if answer.cell < 0 else answer.cell, answer.proved_no_claim

    def decide(self, b, w, uint64_t max_positions):
        """(status, Black wins, Black's winning claim or None, proved but no claim wins): status
        0 answered, 1 the positions of all questions passed `max_positions`.  Raises a signal's
        exception if one stopped it."""
        return self._ask(b, w, max_positions, False)

    def refutation(self, b, w, uint64_t max_positions):
        """(status, Black wins, White's refuting claim or None, proved but no claim refutes)."""
        return self._ask(b, w, max_positions, True)

    def totals(self):
        """The positions and the table of every question so far, as a dict."""
        cdef PgPnsReport report = self.searcher.totals()
        return {
            "positions": report.positions,
            "knowledge_hits": report.knowledge_hits,
            "collections": report.collections,
            "forced_collections": report.forced_collections,
            "capacity": report.capacity,
            "table_entries": report.table_entries,
            "table_bytes": report.table_bytes,
            "table_bound_bytes": report.table_bound_bytes,
            "pairing_searches": report.pairing_searches,
            "entry_bytes": report.entry_bytes,
            "words": report.words,
            "symmetries_on": report.symmetries_on,
        }
