// df-pn for positional (.pg) games in the compiled core: bddl.engines.positional_pns's
// PositionalProofNumberSearch (df-pn of bddl.engines.pns on the positional rules: weak proof
// numbers, epsilon PG_EPSILON, the last PG_LEAF_PLIES plies decided by the minimax on the solved
// table, the rules' verdicts as static knowledge, df-pn+ initial numbers from Black's need, the
// SmallTreeGC policy over a capacity of entries), on the rules of pgrules.hpp that the core's
// positional solver reads too.  The same numbers, the same claims in the same order, the same
// collections: it counts the positions the Python search counts wherever its table never had to
// collect early (`forced_collections` 0).
#pragma once

#include <cstdint>

#include "pgcore.hpp"

namespace bddlc {

struct PgPnsOptions {
    uint64_t capacity = 2000000;  // table entries kept at once (pns.DEFAULT_CAPACITY)
    double epsilon = 0.5;         // positional_pns.PG_EPSILON
    int leaf_plies = 3;           // positional_pns.PG_LEAF_PLIES
    bool initial_numbers = true;  // positional_pns._InitialNumbers (false: every fresh position at (1, 1))
};

// What the searcher did so far (every question's positions and the table at the end).
struct PgPnsReport {
    uint64_t positions = 0;        // as ProofNumberSearch counts them (df-pn's, the leaf minimax's, the verdicts')
    uint64_t knowledge_hits = 0;   // positions the rules' verdicts decided
    uint64_t collections = 0;      // SmallTreeGC passes (the Python engine's `collections`)
    uint64_t forced_collections = 0;  // passes the memory bound forced before the capacity was reached
    uint64_t capacity = 0;         // the capacity used: the one asked for, or less where the bound holds fewer
    uint64_t table_entries = 0;
    uint64_t table_bytes = 0;
    uint64_t table_bound_bytes = 0;
    uint64_t pairing_searches = 0;
    int entry_bytes = 0;
    int words = 0;
    bool symmetries_on = false;
};

// One question's answer.
struct PgPnsAnswer {
    int status = 0;       // 0: answered; 1: the position budget ran out; 2: interrupted
    bool black_wins = false;
    int cell = -1;        // decide: Black's winning claim (Black to move and wins); refutation: White's claim
    bool proved_no_claim = false;  // a value was proved but no claim keeps it (the caller raises)
};

// PositionalProofNumberSearch kept between questions, its table and all: `decide` and `refutation`
// are the Python engine's, at a position (b, w: the board's words) the caller has not settled
// (`PositionalRules.decided_at_once` at the first time point is the caller's: a SAT question).
// The spec is `solve_full`'s (check_full_spec) with its symmetries given, not fetched: the Python
// df-pn reads them from the start.  A question stops once the positions of all questions so far
// pass its `max_positions` (the Python engine's `max_positions`, which its caller may raise).
class PgPnsSearcher {
  public:
    virtual ~PgPnsSearcher() = default;
    virtual bool ok() const = 0;  // false: the table could not be allocated
    virtual PgPnsAnswer decide(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check,
                               void *context, uint64_t check_every) = 0;
    virtual PgPnsAnswer refutation(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check,
                                   void *context, uint64_t check_every) = 0;
    virtual PgPnsReport totals() const = 0;
};
PgPnsSearcher *new_pg_pns_searcher(const GameSpec &spec, const PgPnsOptions &options, uint64_t table_bytes);

// Bytes per df-pn table entry on a board of `cells` cells.
int pg_pns_entry_bytes(int cells);

}  // namespace bddlc
