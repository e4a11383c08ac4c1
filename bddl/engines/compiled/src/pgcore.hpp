// The compiled search core for positional (.pg) games: the game as bitboards and a memoised
// minimax with a fixed-size transposition table.  The Python side (bddl/engines/compiled/) reads
// and checks the game, flattens it into the plain arrays of `GameSpec` and asks one question:
// does Black win within the time points?  The rules are docs/positional.md's, the move order the
// Python plain minimax's (bddl/engines/positional_plain.py), so that the two count the same
// positions whenever the table loses no entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bddlc {

// One game, flattened.  Lists of lists are given as (offsets, items): list i is
// items[offsets[i] .. offsets[i+1]).  Every index is checked by the Python wrapper before it gets
// here (cell indices in range, offsets ascending), and again cheaply by `check_spec`.
struct GameSpec {
    int cells = 0;
    std::vector<uint8_t> black_turn;  // per time point: 1 when Black moves
    std::vector<int> black_set_offsets, black_set_cells;
    std::vector<int> white_set_offsets, white_set_cells;
    std::vector<int> black_initials, white_initials;
    bool has_first_moves = false;
    std::vector<int> first_moves;
    bool hex = false;  // Black's goal is a chain joining the borders, not the sets
    std::vector<int> neighbour_offsets, neighbour_cells;
    std::vector<int> start_border, end_border;
    // The one-move threats (bddl/engines/positional_plain.py says what they decide): where the
    // mover claims one cell before the other side's turn, two threats of the other side lose and
    // one must be blocked.  False: the plain minimax.
    bool threats = false;

    // The positional solver's knowledge (`solve_full`; bddl/engines/positional.py is the reference,
    // bddl/engines/positional_rules.py the rules it reads).  The wrapper computes what is cheap in
    // Python and costly to port (the static order, the checked symmetries, where White's pairing
    // argument applies) and passes it here.
    std::vector<int> order;                 // the static move order: every cell once
    bool relevance = false;                 // Maker-Breaker: the relevance tiers restrict and order the claims
    bool carriers = false;                  // Maker-Breaker: White skips replies outside a found win's carrier
    int lookahead_from = 3;                 // White's cheapest-tier blocks by how far they push Black's need
    std::vector<uint8_t> pairable;          // per time point: White's pairing argument applies (empty: no pairings)
    std::vector<int> pairing_set_offsets, pairing_set_cells;  // Black's sets for the pairings, ascending as masks
    uint64_t pairing_steps = 2000;          // the quick pairing search's steps before the complete one
    std::vector<int> symmetry_cells;        // the non-identity board symmetries, `cells` images each
    // Or, where given, asked for them when the search first needs them (the Python solver finds
    // them only once its search is not tiny: checking a torus's 128 candidates costs more than a
    // small search).  It fills the cells as above; nonzero stops the search (status 2).
    int (*fetch_symmetries)(void *context, std::vector<int> &cells) = nullptr;
    void *symmetries_context = nullptr;
    uint64_t symmetry_after = 2000;         // canonical keys once this many positions are expanded
    int symmetric_plies = 4;                // canonical keys before this time point only
};

// How the search ended and what it cost.
struct SearchReport {
    int status = 0;  // 0: decided; 1: the position budget ran out; 2: interrupted (the check said stop);
                     // 3: the table could not be allocated
    bool black_wins = false;
    int first_move = -1;   // Black's winning first claim, when Black moves first and wins
    uint64_t positions = 0;     // positions expanded (each counted once while its table entry lives)
    uint64_t table_hits = 0;
    uint64_t table_stores = 0;
    uint64_t replacements = 0;  // entries evicted by stores (or lost when the table doubled)
    uint64_t table_entries = 0;
    uint64_t table_bytes = 0;        // the table's size at the end (it doubles as it fills)
    uint64_t table_bound_bytes = 0;  // the size it may reach: the bound given, in whole buckets
    int entry_bytes = 0;
    int words = 0;              // 64-bit words per bitboard
    bool symmetries_on = false;         // `solve_full`: the canonical keys were switched on
    uint64_t lost_causes = 0;           // `solve_full`: positions the knowledge decided unexpanded
    uint64_t pairing_searches = 0;      // `solve_full`: pairing questions that ran past the quick steps
    uint64_t carriers_dropped = 0;      // `solve_full`: wins' carriers not kept (past the memory bound)
};

// Called every `check_every` positions; a nonzero answer stops the search (status 2).
typedef int (*StopCheck)(void *context);

// The largest board the core takes (the widest bitboard it is compiled for).
constexpr int MAX_CELLS = 384;

// Empty when the spec is well formed, else why not (the wrapper raises it as a ValueError).
const char *check_spec(const GameSpec &spec);
// The same for `solve_full`, with what it reads beside (the order, pairings, symmetries).
const char *check_full_spec(const GameSpec &spec);

// The plain memoised minimax (with the one-move threats where `spec.threats`).  `table_bytes`
// bounds the table.
SearchReport solve_plain(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes,
                         StopCheck check, void *context, uint64_t check_every);

// The positional solver's search (bddl/engines/positional.py) on the same table: lost causes,
// White's pairings within the depth, one-ply verdicts, forced blocks, Maker-Breaker relevance
// with its carriers and look-ahead, canonical keys under the board's symmetries.  Counts the same
// positions as the Python solver wherever the table evicts nothing.
SearchReport solve_full(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes,
                        StopCheck check, void *context, uint64_t check_every);

// One question's answer from a PgSearcher.
struct PgAnswer {
    int status = 0;  // 0: decided; 1: the question's budget ran out; 2: interrupted
    bool black_wins = false;
    uint64_t positions = 0;  // positions this question counted
    int move = -1;           // `decide`: Black's winning claim; `refute`: White's refuting claim (-1: none)
};

// The positional solver's search kept between questions (PPN²'s search leaf jobs on .pg games,
// bddl.engines.leaf_search.pg_leaf_search): `ask` is the Python solver's `engine.black_wins` at
// (b, w: the board's words), the t-th time point, within `budget` more positions, on one table
// (bounded by `table_bytes`, replacing past it) and one carriers' map kept between questions.
// The spec is `solve_full`'s (check_full_spec); its symmetry fetch, if any, must outlive the
// searcher.  After a stopped question nothing decided after the stop was kept.
class PgSearcher {
  public:
    virtual ~PgSearcher() = default;
    virtual bool ok() const = 0;  // false: the table could not be allocated
    virtual PgAnswer ask(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check,
                         void *context, uint64_t check_every) = 0;
    // The certificates' questions (bddl.engines.compiled.oracle): the Python solver's `decide`
    // (Black's value and, Black to move, its first winning claim in the search's order) and
    // `refutation` (White to move: its first claim in that order after which Black does not win),
    // with the start settled by the wrapper (`decided_at_once`).
    virtual PgAnswer decide(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check,
                            void *context, uint64_t check_every) = 0;
    virtual PgAnswer refute(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check,
                            void *context, uint64_t check_every) = 0;
    virtual SearchReport totals() const = 0;  // every question's positions and the table so far
};
PgSearcher *new_pg_searcher(const GameSpec &spec, uint64_t table_bytes);

// Bytes per table entry for a board of `cells` cells (the table's unit of memory).
int entry_bytes_for(int cells);

// Do disjoint pairs of cells fit, one inside each of `sets` sets (pairs.hpp), within `steps` steps
// of the search?  1 yes, 0 no, -1 out of steps.  The sets are given as words_for(cells) 64-bit
// words each, one after the other, on a board of `cells` cells (at most MAX_CELLS).  A
// certificate's builder asks it of every White reply (bddl/pg/pairing.py's
// `PairingFinder.exists`), the live sets found in Python.
int pairs_fit_words(int cells, const uint64_t *set_words, size_t sets, int64_t steps);

}  // namespace bddlc
