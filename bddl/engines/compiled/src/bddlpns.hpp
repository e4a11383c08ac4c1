// df-pn for BDDL games in the compiled core: bddl.engines.pns.ProofNumberSearch with
// search_pns's defaults (weak proof numbers, epsilon 1, the last `leaf_plies` plies decided by the
// minimax on the solved table, mobility numbers for fresh positions, the SmallTreeGC policy over a
// capacity of entries), over a BddlGame<W> (bddlgame.hpp), with Breakthrough's race patterns
// (race.hpp) as its knowledge where given.  The same numbers, the same child order, the same
// collections: it expands the same positions in the same order as the Python search, and counts
// the same positions, wherever its table never had to collect early (`forced_collections` 0).
#pragma once

#include <cstdint>

#include "bddlgame.hpp"
#include "pgcore.hpp"  // StopCheck
#include "race.hpp"

namespace bddlc {

struct PnsOptions {
    uint64_t capacity = 2000000;  // table entries (solved and unsolved) kept at once (DEFAULT_CAPACITY)
    int leaf_plies = 5;           // DEFAULT_LEAF_PLIES
    bool mobility = true;         // mobility_numbers for fresh positions (search_pns's `mobility`)
};

struct PnsReport {
    int status = 0;  // 0: decided; 1: the position budget ran out; 2: interrupted; 3: no memory for the table
    bool black_wins = false;
    // Black's first move as search_pns's _first_winning_move chooses it: an index into Game.moves'
    // list (BddlGame::all_successors), -1 where Black does not move first or does not win
    int first_move = -1;
    uint64_t positions = 0;       // expanded, as ProofNumberSearch counts them (df-pn's and the leaf minimax's)
    uint64_t knowledge_hits = 0;  // positions the race patterns decided
    uint64_t collections = 0;     // SmallTreeGC passes (the Python engine's `collections`)
    uint64_t forced_collections = 0;  // passes the memory bound forced before the capacity was reached
    uint64_t capacity = 0;        // the capacity used: the one asked for, or less where the bound holds fewer
    uint64_t table_entries = 0;   // entries held at the end
    uint64_t table_bytes = 0;     // the table's array at the end
    uint64_t table_bound_bytes = 0;
    int entry_bytes = 0;
    int words = 0;
};

// Does Black win within `depth` plies from the spec's initial board?  `table_bytes` bounds the
// table (entries of `entry_bytes` each; the capacity shrinks to what fits).  The specs must have
// passed check_bddl_spec and check_race_spec.
PnsReport solve_bddl_pns(const BddlSpec &spec, const RaceSpec &race, int depth, const PnsOptions &options,
                         uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
                         uint64_t check_every);

// The race verdicts (-1 unknown, 0 Black loses, 1 Black wins) on a list of positions, for the tests
// against RaceKnowledge.__call__: position k is (black_to_move[k], the boards' words
// [k * 2 * MAX_WORDS, ...) (Black's 6 words, then White's), plies[k]).
constexpr int RACE_MAX_WORDS = 6;
void race_verdicts(const RaceSpec &race, int cells, const std::vector<uint8_t> &black_to_move,
                   const std::vector<uint64_t> &words, const std::vector<int> &plies, std::vector<int> &out);

// Bytes per df-pn table entry on a board of `cells` cells.
int pns_entry_bytes(int cells);

}  // namespace bddlc
