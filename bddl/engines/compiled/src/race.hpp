// Breakthrough's race patterns as a static verdict, the compiled twin of
// bddl.engines.race.knowledge.RaceKnowledge.__call__ (the reference it is tested against on random
// positions): for each side, the smallest order of a pattern matching one of its windows placed on
// the board, and whether the other side's nearest pawn is too far from its goal row to get there
// first.
//
// Why arrays and not the patterns: the Python side (bddl/engines/compiled/race_spec.py) reads the
// pattern file once and flattens a RaceKnowledge into what a verdict reads: per side the
// placements (window cells as (board cell, window bit) pairs), a dense order table per (window
// shape, attacker first) indexed by the window's attacker and defender masks, and the side's rows
// by distance to its goal row.  The core never sees a pattern, so the patterns have one reader.
#pragma once

#include <cstdint>
#include <vector>

#include "bits.hpp"

namespace bddlc {

// The window masks are at most RACE_WINDOW_BITS bits (3x3 windows: bddl.engines.race.patterns).
constexpr int RACE_WINDOW_BITS = 9;
constexpr int RACE_TABLE = 1 << (2 * RACE_WINDOW_BITS);  // one (window, mover) table: a << 9 | d

// One side's view as the attacker.  Lists of lists are (offsets, items) as in BddlSpec.
struct RaceSideSpec {
    std::vector<int> placement_table;                  // per placement: its window's shape index
    std::vector<int> placement_offsets;                // placement p's cells: [offsets[p], offsets[p+1])
    std::vector<int> placement_cells, placement_bits;  // board cell, and its bit in the window
    // The side's rows by the moves a pawn there needs to reach its goal row, nearest first (the
    // Python sort's order: by distance, then by the row's mask)
    std::vector<int> row_distance;
    std::vector<int> row_offsets, row_cells;
};

struct RaceSpec {
    bool on = false;  // false: no race knowledge (every verdict unknown)
    int height = 0;   // the board's rows: the reach of a side without pawns
    // orders[(shape * 2 + attacker_first) * RACE_TABLE + (a << 9 | d)]: the smallest order of a
    // pattern matching (a, d) on that window, 0 where none matches
    std::vector<uint8_t> orders;
    int shapes = 0;
    RaceSideSpec black, white;
};

// Empty when the spec is well formed for a board of `cells` cells, else why not.
inline const char *check_race_spec(const RaceSpec &spec, int cells) {
    if (!spec.on) return "";
    if (spec.shapes < 0 || spec.orders.size() != size_t(spec.shapes) * 2 * RACE_TABLE) return "race: order tables of the wrong size";
    for (const RaceSideSpec *s : {&spec.black, &spec.white}) {
        size_t n = s->placement_table.size();
        if (s->placement_offsets.size() != n + 1 || s->placement_offsets[0] != 0) return "race: placement offsets";
        if (size_t(s->placement_offsets[n]) != s->placement_cells.size() || s->placement_cells.size() != s->placement_bits.size())
            return "race: placement cells";
        for (size_t p = 0; p < n; p++) {
            if (s->placement_offsets[p] > s->placement_offsets[p + 1]) return "race: placement offsets not ascending";
            if (s->placement_table[p] < 0 || s->placement_table[p] >= spec.shapes) return "race: a placement's window out of range";
        }
        for (size_t k = 0; k < s->placement_cells.size(); k++) {
            if (s->placement_cells[k] < 0 || s->placement_cells[k] >= cells) return "race: a window cell off the board";
            if (s->placement_bits[k] < 0 || s->placement_bits[k] >= RACE_WINDOW_BITS) return "race: a window bit out of range";
        }
        size_t rows = s->row_distance.size();
        if (s->row_offsets.size() != rows + 1 || s->row_offsets[0] != 0 || size_t(s->row_offsets[rows]) != s->row_cells.size())
            return "race: row offsets";
        for (size_t r = 0; r < rows; r++)
            if (s->row_offsets[r] > s->row_offsets[r + 1]) return "race: row offsets not ascending";
        for (int c : s->row_cells)
            if (c < 0 || c >= cells) return "race: a row cell off the board";
    }
    return "";
}

// The verdicts on bitboards of W words.  Built once per search from a checked spec.
template <int W>
class RaceKnowledge {
  public:
    using B = Bits<W>;

    explicit RaceKnowledge(const RaceSpec &spec) : on_(spec.on), height_(spec.height), orders_(spec.orders) {
        build(spec.black, sides_[1]);
        build(spec.white, sides_[0]);
    }
    bool on() const { return on_; }

    // RaceKnowledge.__call__: 1 when Black surely wins within r plies, 0 when Black surely loses,
    // -1 when the patterns say nothing.
    int verdict(bool black_to_move, const B &b, const B &w, int r) const {
        if (!on_) return -1;
        for (int s = 1; s >= 0; s--) {  // Black as the attacker first, as the Python loop
            bool black = s == 1;
            const B &mine = black ? b : w;
            const B &theirs = black ? w : b;
            bool moving = black_to_move == black;
            int order = order_of(sides_[s], mine, theirs, moving);
            if (!order) continue;
            int defender_moves = moving ? order - 1 : order;
            if (reach(sides_[1 - s], theirs) <= defender_moves) continue;
            if (!black) return 0;  // White gets there first: Black never wins
            if ((moving ? 2 * order - 1 : 2 * order) <= r) return 1;
        }
        return -1;
    }

    // The smallest order of a pattern matching one of the side's windows (0: none), and the
    // fewest moves a pawn of the side needs (`_order`, `_reach`): exposed for the tests.
    int order(bool black, const B &mine, const B &theirs, bool attacker_first) const {
        return order_of(sides_[black], mine, theirs, attacker_first);
    }
    int reach_of(bool black, const B &pawns) const { return reach(sides_[black], pawns); }

  private:
    // A run of window cells that lie side by side on the board, in one word, and take consecutive
    // window bits (a window row: one run where the window is not mirrored left to right): read as
    // one shift and mask, not cell by cell (the verdict is asked at every df-pn node; cell by cell
    // it was a tenth of the search's time on Breakthrough 4x5).  Cells that are not side by side
    // are runs of one, so the reading is exactly the cells'.
    struct Cell {
        int word, shift, bit;  // the run's first cell: its word and bit there, its bit in the window
        uint64_t mask;         // the run's length as low bits
    };
    struct Placement {
        int table;  // the window shape's index
        int begin, end;
    };
    struct Row {
        int distance;
        B cells;
    };
    struct Side {
        std::vector<Placement> placements;
        std::vector<Cell> cells;
        std::vector<Row> rows;
    };

    static void build(const RaceSideSpec &s, Side &side) {
        for (size_t p = 0; p + 1 < s.placement_offsets.size(); p++) {
            Placement pl{s.placement_table[p], int(side.cells.size()), 0};
            for (int k = s.placement_offsets[p]; k < s.placement_offsets[p + 1]; k++) {
                int c = s.placement_cells[k], bit = s.placement_bits[k];
                if (int(side.cells.size()) > pl.begin) {  // the next cell of the run before?
                    Cell &run = side.cells.back();
                    int length = __builtin_popcountll(run.mask);
                    if (run.word == c >> 6 && run.shift + length == (c & 63) && run.bit + length == bit) {
                        run.mask = run.mask << 1 | 1;
                        continue;
                    }
                }
                side.cells.push_back(Cell{c >> 6, c & 63, bit, 1});
            }
            pl.end = int(side.cells.size());
            side.placements.push_back(pl);
        }
        for (size_t r = 0; r < s.row_distance.size(); r++)
            side.rows.push_back(Row{s.row_distance[r], B::of(s.row_cells.data() + s.row_offsets[r], s.row_offsets[r + 1] - s.row_offsets[r])});
    }

    int order_of(const Side &side, const B &mine, const B &theirs, bool first) const {
        int best = 0;
        for (const Placement &pl : side.placements) {
            // (the sides' cells are disjoint: the Python scan's `elif` is an `if`; branchless)
            uint64_t a = 0, d = 0;
            for (int k = pl.begin; k < pl.end; k++) {
                const Cell &c = side.cells[k];
                a |= (mine.w[c.word] >> c.shift & c.mask) << c.bit;
                d |= (theirs.w[c.word] >> c.shift & c.mask) << c.bit;
            }
            int order = orders_[size_t(pl.table * 2 + (first ? 1 : 0)) * RACE_TABLE + (a << RACE_WINDOW_BITS | d)];
            if (order && (!best || order < best)) best = order;
        }
        return best;
    }

    int reach(const Side &side, const B &pawns) const {
        for (const Row &row : side.rows)
            if (pawns.meets(row.cells)) return row.distance;
        return height_;
    }

    bool on_;
    int height_;
    std::vector<uint8_t> orders_;
    Side sides_[2];  // [0]: White as the attacker, [1]: Black
};

}  // namespace bddlc
