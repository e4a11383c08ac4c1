// A BDDL game ground to bitboards: the rules every compiled BDDL search reads.
//
// THE CONTRACT (read by the BDDL minimax, bddlcore.cpp, and by the BDDL df-pn): a search sees a
// game only through `BddlGame<W>`:
//   * `successors(black, b, w, out)` appends the mover's distinct successor boards, in exactly the
//     order of the Python reference (bddl.engines.minimax.game_sides over bddl.game.SideRules:
//     action order, then position index ascending, then the effect's outcomes in order; a board
//     reached twice is kept where it first appears);  `successors_hashed` does the same with each
//     board's Zobrist key (`hash`), computed from the parent's key by the cells the move names,
//     and `expand` as one list of `Child` (board, key, outcome): the searches' hot path;
//   * `won(black, b, w)`: one of that side's goals holds (Def 8; SideRules.won);
//   * `won_after(black, parent_won, outcome, b2, w2)`: the same for a successor, faster: given
//     whether the side's goal held at the parent (`won` there) and the outcome that made the
//     successor (`Child::outcome`, `successors_hashed`'s `outcomes`), only the goals that read a cell the move set
//     to a value they allow are read (the others hold at the successor as at the parent);
//   * `legal_count(black, b, w)`: the legal (action, position) pairs, SideRules' legal masks'
//     bits (game_sides' `count`: df-pn's mobility numbers);
//   * `all_successors(black, b, w, out)`: every (ground move, outcome) reached, duplicates kept
//     (Game.moves' order: the index of Black's first winning move is an index into this list);
//   * `hash(b, w)`: the position's Zobrist key (fixed seed: every run evicts alike).
// The game keeps no state between calls: one BddlGame may serve several searches at once.
// A board is (b, w): the black cells and the white cells; cell (x, y) is bit (y-1)*width + x-1
// (bddl.game.Geometry), every other cell open.  The rules a search adds (a stuck mover loses, the
// mover wins when its goal holds after its move, the plies) are the search's: see bddlcore.hpp.
//
// The spec is made by bddl/engines/compiled/bddl_spec.py (`flatten_bddl(game)`: the Python
// grounding, from the SideRules' own outcomes, position masks and goal masks, as a dict of flat
// lists), filled in by _core.pyx (`_bddl_spec(flat)`), and checked by `check_bddl_spec` before
// any game is built from it.  BddlGame<W> for W = words_for(cells): 1, 2, 3 or 6 words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "bits.hpp"

// Inlined whatever the compiler's estimate: the move loop's callbacks are the hot path, and a
// shared object's default visibility otherwise leaves them as calls through the PLT.
#define BDDLC_INLINE __attribute__((always_inline))

namespace bddlc {

// Allowed values of a cell in a ground condition (a set: bits OR-ed).
constexpr uint8_t ALLOW_OPEN = 1, ALLOW_BLACK = 2, ALLOW_WHITE = 4;
// The value an outcome leaves on a cell.
constexpr uint8_t SET_OPEN = 0, SET_BLACK = 1, SET_WHITE = 2;

// One side's ground rules.  Lists of lists are (offsets, items): list i is items[offsets[i] ..
// offsets[i+1]).
struct BddlSideSpec {
    // The ground moves, in Python's order (action order, then position index ascending): only
    // those whose effect is consistent there (SideRules.outcomes' keys) and whose precondition
    // can hold at all.
    std::vector<int> move_action, move_position;  // per ground move: action index, position index
    // Per ground move, its precondition: (cell, allowed values) pairs, one per cell the atoms name
    // (the values that satisfy every atom on that cell: a positive atom p allows p only, a
    // negated one every value but p).  As masks: the cells that must be black, white, occupied,
    // and that must not be black or white.
    std::vector<int> pre_offsets, pre_cells;
    std::vector<uint8_t> pre_allowed;
    // Per ground move, its outcomes (several where a negated effect atom leaves a choice),
    // in SideRules.outcomes' order: outcome k of move m is out_offsets[m] + k.  Per outcome, the
    // cells it names and the value it leaves on each (SET_*): names mask, black bits, white bits.
    std::vector<int> out_offsets;
    std::vector<int> out_cell_offsets, out_cells;
    std::vector<uint8_t> out_values;
    // The ground goals: per (goal, position of its goal mask), (cell, allowed values) pairs as
    // the preconditions; the side's goal holds when one ground goal does.
    std::vector<int> goal_offsets, goal_cells;
    std::vector<uint8_t> goal_allowed;
};

struct BddlSpec {
    int cells = 0;
    int width = 0;
    bool black_first = true;
    std::vector<int> black_initials, white_initials;
    BddlSideSpec black, white;
};

// Empty when the spec is well formed (every cell index in range, offsets ascending and ending
// at their lists' sizes, allowed sets nonempty, values valid, initials disjoint), else why not.
inline const char *check_bddl_side(const BddlSideSpec &s, int cells) {
    auto listed = [](const std::vector<int> &offsets, size_t items, size_t lists) {
        if (offsets.size() != lists + 1 || offsets[0] != 0 || size_t(offsets.back()) != items) return false;
        for (size_t i = 0; i + 1 < offsets.size(); i++)
            if (offsets[i] > offsets[i + 1]) return false;
        return true;
    };
    auto in_range = [cells](const std::vector<int> &items) {
        for (int c : items)
            if (c < 0 || c >= cells) return false;
        return true;
    };
    size_t moves = s.move_action.size();
    if (s.move_position.size() != moves) return "a ground move without its position";
    if (!in_range(s.move_position)) return "a ground move's position off the board";
    if (s.pre_allowed.size() != s.pre_cells.size() || !listed(s.pre_offsets, s.pre_cells.size(), moves))
        return "the preconditions' lists are malformed";
    if (!in_range(s.pre_cells)) return "a precondition's cell off the board";
    if (s.out_offsets.size() != moves + 1 || (moves && s.out_offsets[0] != 0)) return "the outcomes' lists are malformed";
    for (size_t m = 0; m < moves; m++)
        if (s.out_offsets[m] >= s.out_offsets[m + 1]) return "a ground move without an outcome";
    size_t outcomes = moves ? size_t(s.out_offsets.back()) : 0;
    if (s.out_values.size() != s.out_cells.size() || !listed(s.out_cell_offsets, s.out_cells.size(), outcomes))
        return "the outcomes' cells are malformed";
    if (!in_range(s.out_cells)) return "an outcome's cell off the board";
    for (uint8_t v : s.out_values)
        if (v > 2) return "an outcome's value is not open, black or white";
    if (s.goal_allowed.size() != s.goal_cells.size() || s.goal_offsets.empty() ||
        !listed(s.goal_offsets, s.goal_cells.size(), s.goal_offsets.size() - 1))
        return "the goals' lists are malformed";
    if (!in_range(s.goal_cells)) return "a goal's cell off the board";
    for (const std::vector<uint8_t> *allowed : {&s.pre_allowed, &s.goal_allowed})
        for (uint8_t a : *allowed)
            if (a == 0 || a > 7) return "a condition's cell allows no value";
    return "";
}

inline const char *check_bddl_spec(const BddlSpec &spec) {
    if (spec.cells < 1 || spec.cells > 384) return "the board's cell count is out of the core's range (1..384)";
    if (spec.width < 1 || spec.cells % spec.width) return "the board's width does not divide its cells";
    std::vector<uint8_t> stone(size_t(spec.cells), 0);
    for (const std::vector<int> *initials : {&spec.black_initials, &spec.white_initials})
        for (int c : *initials) {
            if (c < 0 || c >= spec.cells) return "an initial stone off the board";
            if (stone[size_t(c)]++) return "a cell with two initial stones";
        }
    const char *why = check_bddl_side(spec.black, spec.cells);
    return *why ? why : check_bddl_side(spec.white, spec.cells);
}

// Words per bitboard for a board of `cells` cells: 1, 2, 3 or 6 (the core's widths).
inline int words_for(int cells) { return cells <= 64 ? 1 : cells <= 128 ? 2 : cells <= 192 ? 3 : 6; }

template <int W>
class BddlGame {
  public:
    using B = Bits<W>;
    using Board = std::pair<B, B>;

    explicit BddlGame(const BddlSpec &s) : cells_(s.cells) {
        uint64_t seed = 0x62646C63ULL;  // "bdlc", as pgcore's keys
        for (int c = 0; c < cells_; c++) {
            zobrist_black_.push_back(splitmix64(seed));
            zobrist_white_.push_back(splitmix64(seed));
        }
        index_keys();
        b0_ = B::of(s.black_initials.data(), int(s.black_initials.size()));
        w0_ = B::of(s.white_initials.data(), int(s.white_initials.size()));
        build(s.black, sides_[1]);
        build(s.white, sides_[0]);
        sides_[1].after = goals_through(s.black, sides_[1], s.black, cells_);
        sides_[1].after_rival = goals_through(s.black, sides_[1], s.white, cells_);
        sides_[0].after = goals_through(s.white, sides_[0], s.white, cells_);
        sides_[0].after_rival = goals_through(s.white, sides_[0], s.black, cells_);
        for (Side &side : sides_) mark_winning_positions(side);
    }

    const B &initial_black() const { return b0_; }
    const B &initial_white() const { return w0_; }
    int cells() const { return cells_; }

    // The XOR of the board's stones' keys, read a byte of each bitboard at a time
    // (`byte_keys_`): the same key as a loop over the stones, in a fixed number of loads.
    uint64_t hash(const B &b, const B &w) const {
        uint64_t h = 0;
        const uint64_t *kb = byte_keys_.data(), *kw = kb + size_t(key_bytes_) * 256;
        for (int i = 0; i < W; i++) {
            // the bytes up to the word's last stone (a byte past the board's cells holds none)
            const uint64_t *tb = kb + i * 8 * 256, *tw = kw + i * 8 * 256;
            for (uint64_t x = b.w[i], y = w.w[i]; x | y; x >>= 8, y >>= 8, tb += 256, tw += 256)
                h ^= tb[x & 255] ^ tw[y & 255];
        }
        return h;
    }

    bool won(bool black, const B &b, const B &w) const {
        const Side &side = sides_[black];
        for (const Anchor &a : side.anchors) {
            if (a.cell >= 0) {
                bool on_b = b.has(a.cell), on_w = w.has(a.cell);
                uint8_t value = on_b ? ALLOW_BLACK : on_w ? ALLOW_WHITE : ALLOW_OPEN;
                if (value != a.value) continue;
            }
            for (int k = a.begin; k < a.end; k++)
                if (goal_holds(side, side.anchored[k], b, w)) return true;
        }
        return false;
    }

    // `won(black, b2, w2)` for the successor the outcome made from a board where `won` was
    // `parent_won`: a goal that reads no cell the outcome set to a value it allows holds at the
    // successor only if it held at the parent.
    bool won_after(bool black, bool parent_won, int outcome, const B &b2, const B &w2) const {
        if (parent_won) return won(black, b2, w2);
        const Side &side = sides_[black];
        return any_goal(side.after, outcome, b2, w2);
    }

    // `won(black, b, w)` for a board the rival's outcome `rival_outcome` made from a board where
    // black's goal did not hold: the same reading, of black's goals through the rival's changes
    // (in most games none: the rival's stones are no cell of black's goals, so this is free).
    bool won_after_rival(bool black, int rival_outcome, const B &b, const B &w) const {
        return any_goal(sides_[black].after_rival, rival_outcome, b, w);
    }

    BDDLC_INLINE int legal_count(bool black, const B &b, const B &w) const {
        const Side &side = sides_[black];
        int n = 0;
        if (W == 1 && side.by_shape) {
            Values v(b.w[0], w.w[0]);
            for (const Shape &sh : side.shapes) n += popcount(legal_at(side, sh, v));  // an action's shapes: disjoint positions
            return n;
        }
        for_each_legal(side, b, w, [&n](const Move &) BDDLC_INLINE {
            n++;
            return false;
        });
        return n;
    }

    // A successor with its Zobrist key and the outcome that made it (`expand`).
    struct Child {
        B b, w;
        uint64_t key;
        int outcome;
    };

    // The distinct successors in Python's order, with their Zobrist keys (h: the parent's) and the
    // outcome that made each (for `won_after`): the searches' hot path, one list.
    void expand(bool black, const B &b, const B &w, uint64_t h, std::vector<Child> &out) const {
        expand(black, b, w, h, out, [](uint64_t) {});
    }

    // The same, `listed(key)` called as each successor is listed: a search fetches the child's
    // table slot there, so the fetch overlaps the listing of the others.
    template <class Listed>
    void expand(bool black, const B &b, const B &w, uint64_t h, std::vector<Child> &out, Listed &&listed) const {
        size_t first = out.size();
        generate(black, b, w, h, [&](const B &b2, const B &w2, uint64_t h2, int o, bool twins) BDDLC_INLINE {
            if (twins)
                for (size_t i = first; i < out.size(); i++)
                    if (out[i].key == h2 && out[i].b == b2 && out[i].w == w2) return;
            listed(h2);
            // written in place, field by field: a Child built on the stack and copied in
            // 16-byte moves read back stores of other widths, a store-forwarding stall that was
            // a tenth of the minimax's time
            out.emplace_back();
            Child &c = out.back();
            c.b = b2;
            c.w = w2;
            c.key = h2;
            c.outcome = o;
        });
    }

    // The same as three lists (`outcomes` where given).
    void successors_hashed(bool black, const B &b, const B &w, uint64_t h, std::vector<Board> &out,
                           std::vector<uint64_t> &keys, std::vector<int> *outcomes = nullptr) const {
        size_t first = out.size();
        generate(black, b, w, h, [&](const B &b2, const B &w2, uint64_t h2, int o, bool twins) BDDLC_INLINE {
            if (twins)
                for (size_t i = first; i < out.size(); i++)
                    if (keys[i] == h2 && out[i].first == b2 && out[i].second == w2) return;
            out.emplace_back(b2, w2);
            keys.push_back(h2);
            if (outcomes) outcomes->push_back(o);
        });
    }

    void successors(bool black, const B &b, const B &w, std::vector<Board> &out) const {
        std::vector<uint64_t> keys(out.size(), 0);
        successors_hashed(black, b, w, hash(b, w), out, keys);
    }

    // Every (ground move, outcome) that applies, duplicates kept: Game.moves' list.
    void all_successors(bool black, const B &b, const B &w, std::vector<Board> &out) const {
        const Side &side = sides_[black];
        for_each_legal(side, b, w, [&](const Move &m) BDDLC_INLINE {
            for (int o = m.out_begin; o < m.out_end; o++) {
                B b2 = b, w2 = w;
                apply(side, side.outcomes[size_t(o)], b2, w2);
                out.emplace_back(b2, w2);
            }
            return false;
        });
    }

    // Has the side a goal at all?  (Without one, `won` and `won_after` are false everywhere.)
    bool has_goals(bool black) const { return sides_[black].goal_checks.size() > 1; }

    // Does a successor complete the mover's goal (`won_after` of one, `parent_won`: `won` here)?
    // The minimax's last ply with Black to move asks no more (a stuck mover has none): no
    // successor list, no keys, and the first win ends the reading.
    bool wins_at_once(bool black, bool parent_won, const B &b, const B &w) const {
        const Side &side = sides_[black];
        if (!has_goals(black)) return false;
        if (W == 1 && side.by_shape && !parent_won) {  // only the moves that may complete a goal
            Values v(b.w[0], w.w[0]);
            for (const Shape &sh : side.shapes) {
                if (!sh.may_win) continue;
                for (uint64_t x = legal_at(side, sh, v) & sh.may_win; x; x &= x - 1) {
                    const Move &m = side.moves[size_t(side.move_at[size_t(sh.move_at + __builtin_ctzll(x))])];
                    for (int o = m.out_begin; o < m.out_end; o++) {
                        B b2 = b, w2 = w;
                        apply(side, side.outcomes[size_t(o)], b2, w2);
                        if (any_goal(side.after, o, b2, w2)) return true;
                    }
                }
            }
            return false;
        }
        return for_each_legal(side, b, w, [&](const Move &m) BDDLC_INLINE {
            for (int o = m.out_begin; o < m.out_end; o++) {
                B b2 = b, w2 = w;
                apply(side, side.outcomes[size_t(o)], b2, w2);
                if (won_after(black, parent_won, o, b2, w2)) return true;
            }
            return false;
        });
    }

  private:
    // A ground condition on one word of the board: (b & bm) == bv, (w & wm) == wv, and every
    // cell of `occupied` black or white.  A condition is its words' checks, sparse: a move's
    // precondition names a few cells, so it reads one or two words whatever the board's size.
    struct Check {
        int word;
        bool last;  // a goal's last check (`any_goal`: the goals of a list, one after another)
        uint64_t bm, bv, wm, wv, occupied;
    };
    struct Op {  // an outcome on one word: the cells it names, those it makes black, white
        int word;
        uint64_t names, black, white;
        uint64_t unknown;  // the named cells whose value before the precondition does not fix
    };
    struct Outcome {
        int ops_begin, ops_end;
        // The Zobrist key of its change: the stones it places, and those it replaces where the
        // move's precondition fixes them (the others, its ops' `unknown` cells, are read at play).
        uint64_t key;
        // Another outcome may reach the board this one reaches (`may_meet`): only then are the
        // successors searched for a repeat.
        bool twins;
        Op one;  // on a one-word board, its only op (none: nothing named), read without the list
    };
    // Per outcome (of one side), some goals: the goals an outcome may complete (`won_after`).
    // On a one-word board a goal that asks only for black cells (or only white) is its mask,
    // read in three instructions; the others are their checks, each goal's run ending at a
    // `last` check.
    struct GoalRun {
        int masks_begin, blacks_end, whites_end;  // in `masks`: the black goals', the white goals'
        int checks_begin, checks_end;             // in `checks`
    };
    struct GoalLists {
        std::vector<GoalRun> runs;  // per outcome
        std::vector<uint64_t> masks;
        std::vector<Check> checks;
    };
    // The goals grouped by a cell each needs to hold one value (the first such of its cells):
    // `won` reads a group only when the board has that value there.  cell -1: goals with no such
    // cell, always read.
    struct Anchor {
        int cell;
        uint8_t value;  // ALLOW_*
        int begin, end;  // in `anchored`
    };
    struct Move {
        int check_begin, check_end, out_begin, out_end;
    };
    struct ShapeAtom {
        int shift;    // the cell asked of, relative to the position, mod 64 (a rotation)
        int allowed;  // ALLOW_* bits
    };
    struct Shape {  // listed by action (a run of ground moves of one action, by ascending position)
        uint64_t positions;  // the positions of the action's ground moves of this shape
        // its first two atoms, read without a loop (most games' moves ask two cells or fewer;
        // a missing one allows every value), and the rest, from `more` on, in `atoms`
        ShapeAtom two[2];
        int atoms_begin, more, atoms_end;
        int move_at;  // its action's 64 entries in `move_at`
        bool closes;  // the action's last shape: its legal positions are complete
        uint64_t may_win;  // the positions where an outcome may complete a goal (`wins_at_once`)
    };
    struct Side {
        std::vector<Check> checks;
        std::vector<Move> moves;
        std::vector<Outcome> outcomes;
        std::vector<Op> ops;
        std::vector<int> goal_checks;  // goal g's checks: [goal_checks[g], goal_checks[g+1])
        // The moves by anchor: a cell each move's precondition needs to hold one value (a stone
        // where it has one: fewer cells hold stones than are open), as bitsets over the moves
        // (`move_words` words each) per (cell, value); the moves without one in `unanchored`.
        // The legal moves are among the anchors' moves whose cell holds their value, found in
        // ascending order (Python's) by their bits.
        int move_words = 0;
        std::vector<uint64_t> move_bits;   // [(cell * 3 + value slot) * move_words + word]
        std::vector<uint64_t> unanchored;  // move_words words
        B anchored_cells[3];               // per value slot (open, black, white): cells anchoring a move
        std::vector<Anchor> anchors;
        std::vector<int> anchored;  // goal ids, by anchor
        // The moves by shape, where the board is one word and each action's ground moves come by
        // ascending position (`by_shape`): the ground moves of an action that ask the same values
        // of the same cells relative to their position are one shape, legal at the positions of
        // one AND of shifted value masks (as bddl.game's compiled conditions), so no candidate
        // is tried and failed.  The anchors above serve the other boards.
        bool by_shape = false;
        std::vector<ShapeAtom> atoms;
        std::vector<Shape> shapes;
        std::vector<int> move_at;   // per action, 64 entries: the ground move at each position
        GoalLists after;            // by this side's outcomes: its goals through their changes
        GoalLists after_rival;      // by the rival's outcomes: this side's goals through theirs
    };

    // emit(b2, w2, key, outcome, twins) for every (legal move, outcome) in Python's order, twins:
    // another outcome may reach the same board (the caller looks for the repeat).
    template <class Emit>
    BDDLC_INLINE void generate(bool black, const B &b, const B &w, uint64_t h, Emit &&emit) const {
        const Side &side = sides_[black];
        for_each_legal(side, b, w, [&](const Move &m) BDDLC_INLINE {
            for (int o = m.out_begin; o < m.out_end; o++) {
                const Outcome &oc = side.outcomes[o];
                B b2 = b, w2 = w;
                uint64_t h2 = h ^ oc.key;
                if (W == 1) {
                    change(oc.one, b, w, b2, w2, h2);
                } else {
                    for (int k = oc.ops_begin; k < oc.ops_end; k++) change(side.ops[size_t(k)], b, w, b2, w2, h2);
                }
                emit(b2, w2, h2, o, oc.twins);
            }
            return false;
        });
    }

    // One op of an outcome on the successor (b2, w2) of (b, w) and on its key h2.
    BDDLC_INLINE void change(const Op &op, const B &b, const B &w, B &b2, B &w2, uint64_t &h2) const {
        // the stones it replaces where the precondition left them open to the board
        const int i = W == 1 ? 0 : op.word;  // known at compile time on one word
        if (op.unknown) {
            uint64_t gone_b = b.w[i] & op.unknown, gone_w = w.w[i] & op.unknown;
            for (uint64_t x = gone_b; x; x &= x - 1) h2 ^= zobrist_black_[size_t(i * 64 + __builtin_ctzll(x))];
            for (uint64_t x = gone_w; x; x &= x - 1) h2 ^= zobrist_white_[size_t(i * 64 + __builtin_ctzll(x))];
        }
        put(op, b2, w2);
    }

    // One op on the board (b2, w2), in place: the cells it names take its values.
    BDDLC_INLINE static void put(const Op &op, B &b2, B &w2) {
        const int i = W == 1 ? 0 : op.word;
        b2.w[i] = (b2.w[i] & ~op.names) | op.black;
        w2.w[i] = (w2.w[i] & ~op.names) | op.white;
    }

    // The board the outcome leaves (b2, w2: the parent's, changed in place).
    BDDLC_INLINE static void apply(const Side &side, const Outcome &oc, B &b2, B &w2) {
        if (W == 1) {
            put(oc.one, b2, w2);
        } else {
            for (int k = oc.ops_begin; k < oc.ops_end; k++) put(side.ops[size_t(k)], b2, w2);
        }
    }

    // Per allowed set (ALLOW_* bits, 0..7), the cells of a one-word board holding one of its values.
    struct Values {
        uint64_t of[8];
        Values(uint64_t bb, uint64_t ww) : of{0, ~(bb | ww), bb, ~ww, ww, ~bb, bb | ww, ~uint64_t(0)} {}
    };

    // Where the shape's ground moves are legal (a one-word board): its atoms' cells rotated onto
    // their positions (a position's cells are on the board, so what a rotation wraps around
    // lands on no position of the shape).
    BDDLC_INLINE static uint64_t legal_at(const Side &side, const Shape &sh, const Values &v) {
        auto rotated = [&v](const ShapeAtom &at) BDDLC_INLINE {
            uint64_t x = v.of[at.allowed];
            return (x >> at.shift) | (x << ((64 - at.shift) & 63));
        };
        uint64_t here = sh.positions & rotated(sh.two[0]) & rotated(sh.two[1]);
        const ShapeAtom *at = side.atoms.data() + sh.more, *end = side.atoms.data() + sh.atoms_end;
        for (; at != end; at++) {
            uint64_t x = v.of[at->allowed];
            here &= (x >> at->shift) | (x << ((64 - at->shift) & 63));
        }
        return here;
    }

    // f(move) for every legal move of the side, in order, until f returns true (then true).
    template <class F>
    BDDLC_INLINE static bool for_each_legal(const Side &side, const B &b, const B &w, F &&f) {
        if (W == 1 && side.by_shape) {
            Values v(b.w[0], w.w[0]);
            uint64_t legal = 0;  // the action's so far
            for (const Shape &sh : side.shapes) {
                legal |= legal_at(side, sh, v);
                if (!sh.closes) continue;
                for (uint64_t x = legal; x; x &= x - 1)
                    if (f(side.moves[size_t(side.move_at[size_t(sh.move_at + __builtin_ctzll(x))])])) return true;
                legal = 0;
            }
            return false;
        }
        const int mw = side.move_words;
        uint64_t on_stack[16];
        std::vector<uint64_t> on_heap;
        uint64_t *cand = on_stack;
        if (mw > 16) {
            on_heap.resize(size_t(mw));
            cand = on_heap.data();
        }
        for (int i = 0; i < mw; i++) cand[i] = side.unanchored[size_t(i)];
        B open = B::zero();
        for (int i = 0; i < W; i++) open.w[i] = ~(b.w[i] | w.w[i]);
        const B *values[3] = {&open, &b, &w};
        for (int v = 0; v < 3; v++) {
            B cells = *values[v] & side.anchored_cells[v];
            for (int i = 0; i < W; i++)
                for (uint64_t x = cells.w[i]; x; x &= x - 1) {
                    const uint64_t *row = &side.move_bits[size_t(((i * 64 + __builtin_ctzll(x)) * 3 + v) * mw)];
                    for (int k = 0; k < mw; k++) cand[k] |= row[k];
                }
        }
        for (int k = 0; k < mw; k++)
            for (uint64_t x = cand[k]; x; x &= x - 1) {
                const Move &m = side.moves[size_t(k * 64 + __builtin_ctzll(x))];
                if (holds(side.checks, m.check_begin, m.check_end, b, w) && f(m)) return true;
            }
        return false;
    }

    // The anchors of the moves (`Side::move_bits`).
    void index_moves(const BddlSideSpec &s, Side &side) {
        int moves = int(s.move_action.size());
        int mw = (moves + 63) / 64;
        side.move_words = mw;
        side.move_bits.assign(size_t(cells_) * 3 * size_t(mw), 0);
        side.unanchored.assign(size_t(mw), 0);
        for (int v = 0; v < 3; v++) side.anchored_cells[v] = B::zero();
        for (int m = 0; m < moves; m++) {
            int cell = -1, slot = -1;
            for (int k = s.pre_offsets[m]; k < s.pre_offsets[m + 1]; k++) {
                uint8_t a = s.pre_allowed[k];
                int here = a == ALLOW_BLACK ? 1 : a == ALLOW_WHITE ? 2 : a == ALLOW_OPEN ? 0 : -1;
                if (here > 0 || (here == 0 && slot < 0)) {
                    cell = s.pre_cells[k];
                    slot = here;
                    if (here > 0) break;  // a stone: the best anchor
                }
            }
            uint64_t bit = uint64_t(1) << (m & 63);
            if (slot < 0) {
                side.unanchored[size_t(m >> 6)] |= bit;
            } else {
                side.move_bits[size_t((cell * 3 + slot) * mw + (m >> 6))] |= bit;
                side.anchored_cells[slot].set(cell);
            }
        }
    }

    // One of the goals listed for outcome o holds.
    static bool any_goal(const GoalLists &lists, int o, const B &b, const B &w) {
        const GoalRun &run = lists.runs[size_t(o)];
        const uint64_t *m = lists.masks.data();
        if (W == 1) {
            uint64_t not_b = ~b.w[0], not_w = ~w.w[0];
            for (int k = run.masks_begin; k < run.blacks_end; k++)
                if (!(m[k] & not_b)) return true;
            for (int k = run.blacks_end; k < run.whites_end; k++)
                if (!(m[k] & not_w)) return true;
        }
        if (run.checks_begin == run.checks_end) return false;  // on one word, the usual case
        const Check *c = lists.checks.data() + run.checks_begin, *end = lists.checks.data() + run.checks_end;
        bool ok = true;
        for (; c != end; c++) {
            const int i = W == 1 ? 0 : c->word;
            uint64_t x = b.w[i], y = w.w[i];
            ok = ok && !(((x & c->bm) ^ c->bv) | ((y & c->wm) ^ c->wv) | (c->occupied & ~(x | y)));
            if (c->last) {
                if (ok) return true;
                ok = true;
            }
        }
        return false;
    }

    static bool goal_holds(const Side &side, int g, const B &b, const B &w) {
        return holds(side.checks, side.goal_checks[size_t(g)], side.goal_checks[size_t(g) + 1], b, w);
    }

    static bool holds(const std::vector<Check> &checks, int begin, int end, const B &b, const B &w) {
        for (int k = begin; k < end; k++) {
            const Check &c = checks[k];
            uint64_t x = b.w[c.word], y = w.w[c.word];
            if (((x & c.bm) ^ c.bv) | ((y & c.wm) ^ c.wv) | (c.occupied & ~(x | y))) return false;
        }
        return true;
    }

    // The checks of a ground condition (its (cell, allowed) pairs), appended; the checks' end.
    static int add_checks(std::vector<Check> &checks, const int *cells, const uint8_t *allowed, int n) {
        Check words[W];
        bool used[W] = {};
        for (int i = 0; i < W; i++) words[i] = Check{i, false, 0, 0, 0, 0, 0};
        for (int k = 0; k < n; k++) {
            int c = cells[k], i = c >> 6;
            uint64_t bit = uint64_t(1) << (c & 63);
            used[i] = true;
            Check &ck = words[i];
            switch (allowed[k] & 7) {
                case ALLOW_BLACK: ck.bm |= bit; ck.bv |= bit; break;
                case ALLOW_WHITE: ck.wm |= bit; ck.wv |= bit; break;
                case ALLOW_OPEN: ck.bm |= bit; ck.wm |= bit; break;
                case ALLOW_BLACK | ALLOW_WHITE: ck.occupied |= bit; break;
                case ALLOW_BLACK | ALLOW_OPEN: ck.wm |= bit; break;
                case ALLOW_WHITE | ALLOW_OPEN: ck.bm |= bit; break;
                case 0: ck.bm |= bit; ck.bv |= bit; ck.wm |= bit; ck.wv |= bit; break;  // never holds
                default: break;  // every value
            }
        }
        // the first cell's word first: it holds the mover's piece in most games (an early out)
        int first = n ? cells[0] >> 6 : 0;
        if (used[first]) checks.push_back(words[first]);
        for (int i = 0; i < W; i++)
            if (used[i] && i != first) checks.push_back(words[i]);
        if (n) checks.back().last = true;
        return int(checks.size());
    }

    // What an outcome is known to do before the board is read: per cell it names, the value it
    // leaves and the values the move's precondition allows there before.
    struct Known {
        B names, sure;    // sure: the cells it certainly changes (its value is not one allowed before)
        B black, white;   // the values it leaves
    };

    // Can the outcomes reach one board from one parent?  Only if each makes every certain change
    // of the other (the same value on the same cell): a necessary condition, so "no" is sure.
    static bool may_meet(const Known &x, const Known &y) {
        auto covers = [](const Known &a, const Known &b) {  // b makes a's certain changes
            return a.sure.within(b.names) && (a.sure & a.black) == (a.sure & b.black) && (a.sure & a.white) == (a.sure & b.white);
        };
        return covers(x, y) && covers(y, x);
    }

    void build(const BddlSideSpec &s, Side &side) {
        size_t moves = s.move_action.size();
        std::vector<Known> known;  // per outcome
        for (size_t m = 0; m < moves; m++) {
            Move mv;
            mv.check_begin = int(side.checks.size());
            mv.check_end = add_checks(side.checks, s.pre_cells.data() + s.pre_offsets[m],
                                      s.pre_allowed.data() + s.pre_offsets[m], s.pre_offsets[m + 1] - s.pre_offsets[m]);
            mv.out_begin = int(side.outcomes.size());
            for (int o = s.out_offsets[m]; o < s.out_offsets[m + 1]; o++) {
                Outcome oc;
                oc.ops_begin = int(side.ops.size());
                oc.key = 0;
                oc.twins = false;
                Known k0{B::zero(), B::zero(), B::zero(), B::zero()};
                Op words[W];
                bool used[W] = {};
                for (int i = 0; i < W; i++) words[i] = Op{i, 0, 0, 0, 0};
                for (int k = s.out_cell_offsets[o]; k < s.out_cell_offsets[o + 1]; k++) {
                    int c = s.out_cells[k], i = c >> 6;
                    uint64_t bit = uint64_t(1) << (c & 63);
                    used[i] = true;
                    words[i].names |= bit;
                    k0.names.set(c);
                    uint8_t after = ALLOW_OPEN;
                    if (s.out_values[k] == SET_BLACK) {
                        words[i].black |= bit;
                        k0.black.set(c);
                        oc.key ^= zobrist_black_[c];
                        after = ALLOW_BLACK;
                    } else if (s.out_values[k] == SET_WHITE) {
                        words[i].white |= bit;
                        k0.white.set(c);
                        oc.key ^= zobrist_white_[c];
                        after = ALLOW_WHITE;
                    }
                    uint8_t before = ALLOW_OPEN | ALLOW_BLACK | ALLOW_WHITE;  // what the precondition allows on c
                    for (int q = s.pre_offsets[m]; q < s.pre_offsets[m + 1]; q++)
                        if (s.pre_cells[q] == c) before = s.pre_allowed[q];
                    if (!(before & after)) k0.sure.set(c);
                    // the stone it replaces: known where the precondition allows one value, else
                    // read from the board at play (`unknown`)
                    if (before == ALLOW_BLACK)
                        oc.key ^= zobrist_black_[c];
                    else if (before == ALLOW_WHITE)
                        oc.key ^= zobrist_white_[c];
                    else if (before != ALLOW_OPEN)
                        words[i].unknown |= bit;
                }
                for (int i = 0; i < W; i++)
                    if (used[i]) side.ops.push_back(words[i]);
                oc.ops_end = int(side.ops.size());
                oc.one = used[0] ? words[0] : Op{0, 0, 0, 0, 0};
                known.push_back(k0);
                side.outcomes.push_back(oc);
            }
            mv.out_end = int(side.outcomes.size());
            side.moves.push_back(mv);
        }
        // the outcomes that may reach a board another one reaches (beyond a few thousand
        // outcomes, every one is searched for repeats: the pairs cost more than they save)
        size_t n = side.outcomes.size();
        for (size_t x = 0; x < n; x++)
            for (size_t y = x + 1; y < n && !side.outcomes[x].twins; y++)
                if (n > 4096 || may_meet(known[x], known[y])) {
                    side.outcomes[x].twins = true;
                    side.outcomes[y].twins = true;
                }
        side.goal_checks.push_back(int(side.checks.size()));
        int goals = int(s.goal_offsets.size()) - 1;
        for (int g = 0; g < goals; g++)
            side.goal_checks.push_back(add_checks(side.checks, s.goal_cells.data() + s.goal_offsets[g],
                                                  s.goal_allowed.data() + s.goal_offsets[g],
                                                  s.goal_offsets[g + 1] - s.goal_offsets[g]));
        index_goals(s, side, goals);
        index_moves(s, side);
        index_shapes(s, side);
    }

    // The anchors of `won`: the goals grouped by a cell each needs to hold one value.
    void index_goals(const BddlSideSpec &s, Side &side, int goals) {
        std::vector<std::vector<int>> anchored(size_t(cells_) * 3 + 1);  // the last: no anchor
        for (int g = 0; g < goals; g++) {
            int anchor = -1;
            for (int k = s.goal_offsets[g]; k < s.goal_offsets[g + 1] && anchor < 0; k++) {
                uint8_t a = s.goal_allowed[k];
                if (a == ALLOW_OPEN || a == ALLOW_BLACK || a == ALLOW_WHITE) anchor = s.goal_cells[k] * 3 + slot_of(a);
            }
            anchored[anchor < 0 ? anchored.size() - 1 : size_t(anchor)].push_back(g);
        }
        const uint8_t values[3] = {ALLOW_OPEN, ALLOW_BLACK, ALLOW_WHITE};
        for (size_t i = 0; i < anchored.size(); i++) {
            if (anchored[i].empty()) continue;
            bool none = i + 1 == anchored.size();
            Anchor a{none ? -1 : int(i / 3), none ? uint8_t(0) : values[i % 3], int(side.anchored.size()), 0};
            side.anchored.insert(side.anchored.end(), anchored[i].begin(), anchored[i].end());
            a.end = int(side.anchored.size());
            // the goals that always need reading first: one with no cells holds everywhere
            if (none)
                side.anchors.insert(side.anchors.begin(), a);
            else
                side.anchors.push_back(a);
        }
    }

    // The moves by shape (`Side::by_shape`), where the board is one word, each action's run of
    // ground moves ascends by position, and the shapes are few (beyond two per ground move's
    // action on average, the anchors' candidates cost less).
    static void index_shapes(const BddlSideSpec &s, Side &side) {
        side.by_shape = false;
        if (W != 1) return;
        size_t moves = s.move_action.size();
        std::vector<std::pair<int, int>> atoms;  // a move's (shift, allowed) pairs
        size_t actions = 0;
        for (size_t m = 0; m < moves; actions++) {
            size_t next = m;
            while (next < moves && s.move_action[next] == s.move_action[m]) next++;
            int first = int(side.shapes.size()), move_at = int(side.move_at.size());
            side.move_at.resize(side.move_at.size() + 64, -1);
            for (size_t i = m; i < next; i++) {
                int p = s.move_position[i];
                if (i > m && p <= s.move_position[i - 1]) return;  // not by ascending position
                side.move_at[size_t(move_at + p)] = int(i);
                atoms.clear();
                for (int k = s.pre_offsets[i]; k < s.pre_offsets[i + 1]; k++)
                    if ((s.pre_allowed[k] & 7) != 7) atoms.emplace_back(s.pre_cells[k] - p, s.pre_allowed[k] & 7);
                int found = first;
                for (; found < int(side.shapes.size()); found++)
                    if (same_shape(side, side.shapes[size_t(found)], atoms)) break;
                if (found == int(side.shapes.size())) {
                    Shape sh{0, {{0, 7}, {0, 7}}, int(side.atoms.size()), 0, 0, move_at, false, 0};
                    for (const auto &at : atoms) side.atoms.push_back(ShapeAtom{at.first & 63, at.second});
                    sh.atoms_end = int(side.atoms.size());
                    sh.more = std::min(sh.atoms_begin + 2, sh.atoms_end);
                    for (int k = sh.atoms_begin; k < sh.more; k++) sh.two[k - sh.atoms_begin] = side.atoms[size_t(k)];
                    side.shapes.push_back(sh);
                }
                side.shapes[size_t(found)].positions |= uint64_t(1) << p;
            }
            side.shapes.back().closes = true;
            m = next;
        }
        side.by_shape = side.shapes.size() <= 2 * actions + 8;
    }

    // Per shape, the positions whose ground move has an outcome that may complete a goal
    // (`Shape::may_win`: an outcome with goals listed in `after`).
    static void mark_winning_positions(Side &side) {
        for (Shape &sh : side.shapes)
            for (uint64_t x = sh.positions; x; x &= x - 1) {
                const Move &m = side.moves[size_t(side.move_at[size_t(sh.move_at + __builtin_ctzll(x))])];
                for (int o = m.out_begin; o < m.out_end; o++) {
                    const GoalRun &run = side.after.runs[size_t(o)];
                    if (run.whites_end > run.masks_begin || run.checks_end > run.checks_begin) sh.may_win |= x & -x;
                }
            }
    }

    static bool same_shape(const Side &side, const Shape &sh, const std::vector<std::pair<int, int>> &atoms) {
        if (size_t(sh.atoms_end - sh.atoms_begin) != atoms.size()) return false;
        for (size_t k = 0; k < atoms.size(); k++) {
            const ShapeAtom &at = side.atoms[size_t(sh.atoms_begin) + k];
            if (at.shift != (atoms[k].first & 63) || at.allowed != atoms[k].second) return false;
        }
        return true;
    }

    static int slot_of(uint8_t one) { return one == ALLOW_OPEN ? 0 : one == ALLOW_BLACK ? 1 : 2; }

    // Per outcome of `movers` (a side's spec), the checks of `side`'s goals (spec `goals`) that
    // read a cell the outcome sets to a value the goal allows there, copied in one run per
    // outcome: the goals a change may complete, read without an index per goal.
    static GoalLists goals_through(const BddlSideSpec &goals, const Side &side, const BddlSideSpec &movers, int cells) {
        int count = int(goals.goal_offsets.size()) - 1;
        std::vector<std::vector<int>> by_value(size_t(cells) * 3);  // per (cell, value): the goals allowing it
        for (int g = 0; g < count; g++)
            for (int k = goals.goal_offsets[g]; k < goals.goal_offsets[g + 1]; k++)
                for (uint8_t one : {ALLOW_OPEN, ALLOW_BLACK, ALLOW_WHITE})
                    if (goals.goal_allowed[k] & one) by_value[size_t(goals.goal_cells[k]) * 3 + size_t(slot_of(one))].push_back(g);
        GoalLists lists;
        std::vector<int> mark(size_t(count), -1);
        std::vector<uint64_t> whites;
        int outcomes = movers.out_offsets.empty() ? 0 : movers.out_offsets.back();
        for (int o = 0; o < outcomes; o++) {
            GoalRun run;
            run.masks_begin = int(lists.masks.size());
            run.checks_begin = int(lists.checks.size());
            whites.clear();
            for (int k = movers.out_cell_offsets[o]; k < movers.out_cell_offsets[o + 1]; k++) {
                uint8_t v = movers.out_values[k];
                uint8_t one = v == SET_OPEN ? ALLOW_OPEN : v == SET_BLACK ? ALLOW_BLACK : ALLOW_WHITE;
                for (int g : by_value[size_t(movers.out_cells[k]) * 3 + size_t(slot_of(one))]) {
                    if (mark[size_t(g)] == o) continue;
                    mark[size_t(g)] = o;
                    const Check *first = side.checks.data() + side.goal_checks[size_t(g)];
                    const Check *last = side.checks.data() + side.goal_checks[size_t(g) + 1];
                    const Check &c = *first;
                    bool single = W == 1 && last - first == 1 && !c.occupied;
                    if (single && c.bm == c.bv && !c.wm)
                        lists.masks.push_back(c.bm);
                    else if (single && c.wm == c.wv && !c.bm)
                        whites.push_back(c.wm);
                    else
                        lists.checks.insert(lists.checks.end(), first, last);
                }
            }
            run.blacks_end = int(lists.masks.size());
            lists.masks.insert(lists.masks.end(), whites.begin(), whites.end());
            run.whites_end = int(lists.masks.size());
            run.checks_end = int(lists.checks.size());
            lists.runs.push_back(run);
        }
        return lists;
    }

    // The keys of `hash` by byte: per side, per byte k of the board's bitboard (cells 8k ..
    // 8k+7) and per value of that byte, the XOR of its cells' keys.  A table's growth rekeys
    // every entry it holds (the Zobrist key is not stored), and a loop over the stones made that
    // a fifth of a small search's instructions; a board of c cells takes 2 * ceil(c / 8) * 2 KB.
    void index_keys() {
        key_bytes_ = (cells_ + 7) / 8;
        byte_keys_.assign(size_t(2 * key_bytes_) * 256, 0);
        for (int side = 0; side < 2; side++) {
            const std::vector<uint64_t> &keys = side ? zobrist_white_ : zobrist_black_;
            for (int k = 0; k < key_bytes_; k++) {
                uint64_t *t = byte_keys_.data() + size_t(side * key_bytes_ + k) * 256;
                for (int v = 1; v < 256; v++) {  // v's lowest cell's key and the rest's, listed before v
                    int c = k * 8 + __builtin_ctz(unsigned(v));
                    t[v] = t[v & (v - 1)] ^ (c < cells_ ? keys[size_t(c)] : 0);
                }
            }
        }
    }

    int cells_;
    std::vector<uint64_t> zobrist_black_, zobrist_white_;
    int key_bytes_ = 0;
    std::vector<uint64_t> byte_keys_;  // [(side * key_bytes_ + k) * 256 + value]: side 0 Black, 1 White
    B b0_, w0_;
    Side sides_[2];  // [0]: White's, [1]: Black's (indexed by `black`)
};

}  // namespace bddlc
