// The compiled minimax for BDDL games (bddlgame.hpp is the game it reads).  The reference is
// bddl.engines.minimax (`Minimax.value` without judge, key or carriers, and `search`'s first-move
// loop): the same tree in the same order, so the two count the same positions wherever the table
// evicts nothing.  The rules, at a position with r >= 1 plies left:
//   the table (a win known with r' <= r plies, a loss with r' >= r), then the knowledge hook (not
//   counted), then the position is counted; the mover stuck: it loses; r == 1 with White to move:
//   Black has not won; a successor where the mover's goal holds: the mover wins; r == 1: Black has
//   not won; else the successors in order, the sides alternating, r - 1 plies left.
#pragma once

#include <cstdint>

#include "bddlgame.hpp"
#include "pgcore.hpp"  // StopCheck, MAX_CELLS
#include "race.hpp"

namespace bddlc {

// Knowledge: a verdict without a search, asked of a position before it is counted (Minimax's
// `knowledge`; the race patterns of bddl.engines.race plug in here).  `verdict` answers 1 (Black
// wins), 0 (Black does not win) or -1 (unknown) for the board b, w (words_for(cells) words each:
// Bits<W>::w) with `black_to_move` and r plies left.  A verdict is not stored in the table (as the
// Python minimax: asking again is what knowledge is for), and is counted in `knowledge_hits`.
// A C++ hook passes its function and its state as the context; the hook must not throw.
struct BddlKnowledge {
    int (*verdict)(void *context, bool black_to_move, const uint64_t *b, const uint64_t *w, int r) = nullptr;
    void *context = nullptr;
};

struct BddlReport {
    int status = 0;  // 0: decided; 1: the position budget ran out; 2: interrupted; 3: no table memory
    bool black_wins = false;
    // Black's winning first move, where Black moves first and wins: its index in
    // BddlGame::all_successors(true, initial) (Game.moves(initial, BLACK)'s list); -1 else
    int first_move = -1;
    uint64_t positions = 0;  // positions counted (each once while its table entry lives)
    uint64_t knowledge_hits = 0;
    uint64_t table_hits = 0, table_stores = 0;
    uint64_t replacements = 0;  // entries evicted (or lost while the table grew)
    uint64_t table_entries = 0, table_bytes = 0, table_bound_bytes = 0;
    int entry_bytes = 0, words = 0;
};

// The deepest search the core takes (its recursion is one C++ frame per ply).
constexpr int BDDL_MAX_DEPTH = 4096;

// Does Black win within `depth` plies from the initial board (bddl.engines.minimax.search)?
// Black first: a first move winning at once, else the first after which Black wins with
// depth - 1 plies left; White first: the question with White to move.  One table serves the
// whole loop.  `table_bytes` bounds the table; `check` is called every `check_every` positions.
BddlReport solve_bddl(const BddlSpec &spec, int depth, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                      void *context, uint64_t check_every, const BddlKnowledge *knowledge = nullptr);

// One question's answer from a BddlSearcher.
struct BddlAnswer {
    int status = 0;  // 0: decided; 1: the question's budget ran out; 2: interrupted
    bool black_wins = false;
    uint64_t positions = 0;  // positions this question counted
};

// A persistent minimax (PPN²'s search leaf jobs, bddl.engines.leaf_search.LeafSearch): one
// engine asked question after question, its table kept between them, so a subtree proved for one
// leaf is not searched again for the next.  `ask` is Minimax.black_wins from any position (b, w:
// words_for(cells) words each) with r plies left, within `budget` more positions; the race
// patterns (race.hpp) are its knowledge where the spec is on.  The table is bounded by
// `table_bytes` and replaces past it (never restarted), so memory stays bounded without
// forgetting everything at once.  After a question stopped by its budget or a signal, the table
// holds only what was decided before the stop, so the next question's answers stay exact.
class BddlSearcher {
  public:
    virtual ~BddlSearcher() = default;
    virtual bool ok() const = 0;  // false: the table could not be allocated
    virtual BddlAnswer ask(bool black_to_move, const uint64_t *b, const uint64_t *w, int r, uint64_t budget,
                           StopCheck check, void *context, uint64_t check_every) = 0;
    virtual BddlReport totals() const = 0;  // every question's positions, hits and the table so far
};

// A new searcher (delete it when done); the specs must have passed check_bddl_spec and
// check_race_spec.
BddlSearcher *new_bddl_searcher(const BddlSpec &spec, const RaceSpec &race, uint64_t table_bytes);

// Bytes per table entry of the BDDL minimax on a board of `cells` cells.
int bddl_entry_bytes_for(int cells);

}  // namespace bddlc
