// The df-pn table of the compiled core, shared by the BDDL df-pn (bddlpns.cpp) and the positional
// games' df-pn (pgpns.cpp): both follow a Python engine's two dicts (bddl/engines/pns.py,
// positional_pns.py) and its SmallTreeGC, so one table keeps both counts equal to their references.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "bits.hpp"

namespace bddlc {
namespace pn {

constexpr int64_t INF = int64_t(1) << 40;  // pns.INF: only ever "solved"
constexpr int64_t NO_WIN = INF;            // a solved entry's smallest winning r where none is known

// The df-pn table: the Python engine's two dicts in one open-addressing array within a memory
// bound.  A solved entry is keyed by (side, board) and holds the smallest r Black wins with and
// the largest it loses with (monotonicity); an unsolved one by (side, board, r) and holds (phi,
// delta).  Both hold their work, SmallTreeGC's measure.  Linear probing without wrap-around (a
// tail of spare slots past the last home), deletion by backward shift (Knuth's Algorithm R), so
// that a collection drops entries in place and the entries' order never matters: which entries a
// collection keeps depends only on their works, as in the Python engine.  A position's solved
// entry and its unsolved ones (every r) share one home slot, so that a lookup, which reads both,
// meets one cache miss and not two.
template <int W>
class PnTable {
  public:
    using B = Bits<W>;
    enum Kind : uint8_t { FREE = 0, SOLVED = 1, UNSOLVED = 2 };
    // Two bitboards and two words (32 bytes on a board of up to 64 cells, two to a cache line):
    // q0 = x (41 bits) | r << 41 (13 bits) | kind << 54 (2) | black << 56; q1 = y (41) | work << 41 (23).
    // x, y: solved, the smallest r Black wins with (INF: none) and the largest it loses with;
    // unsolved, phi and delta (below INF).  The work saturates at 2^23 - 1: a collection keeps
    // the same entries as the Python one while the median work is below that (8 million).
    struct Entry {
        B b, w;
        uint64_t q0, q1;
        static constexpr uint64_t M41 = (uint64_t(1) << 41) - 1, WORK_MAX = (uint64_t(1) << 23) - 1;
        int kind() const { return int(q0 >> 54) & 3; }
        bool black() const { return (q0 >> 56) & 1; }
        int r() const { return int(q0 >> 41) & 0x1fff; }
        int64_t x() const { return int64_t(q0 & M41); }
        int64_t y() const { return int64_t(q1 & M41); }
        uint64_t work() const { return q1 >> 41; }
        void set_x(int64_t v) { q0 = (q0 & ~M41) | uint64_t(v); }
        void set_y(int64_t v) { q1 = (q1 & ~M41) | uint64_t(v); }
        void set_work(uint64_t v) { q1 = (q1 & M41) | (std::min(v, WORK_MAX) << 41); }
    };
    static constexpr uint64_t TAIL = 1024;  // spare slots past the last home slot
    static constexpr uint64_t FIRST_SLOTS = uint64_t(1) << 14;
    static constexpr double MAX_LOAD = 0.9;  // past it a table that cannot grow collects
    // Past it a table that can still grow does: linear probing's scans lengthen as 1/(1-load)^2, and
    // every lookup scans its position's cluster to a free slot (the solved and unsolved entries
    // share it), so a table kept at 0.9 until its last step spent a fifth of df-pn's time probing.
    // When the table grows never changes what it holds (entries' order never matters): the
    // counts stay the Python engine's.
    static constexpr double GROW_LOAD = 0.5;
    static constexpr int MAX_R = 0x1fff;

    // `rehash(owner, b, w)`: the board's Zobrist key (recomputed when entries move)
    PnTable(uint64_t bytes, uint64_t (*rehash)(const void *, const B &, const B &), const void *owner)
        : rehash_(rehash), owner_(owner) {
        uint64_t bound = bytes / sizeof(Entry);
        cap_ = bound > 2 * TAIL + 64 ? bound - 2 * TAIL : 64;
        slots_ = std::min(cap_, FIRST_SLOTS);
        memory_ = Memory((slots_ + TAIL) * sizeof(Entry));
        entries_ = static_cast<Entry *>(memory_.get());
        bound_bytes_ = bound * sizeof(Entry);
    }
    // The bytes a table needs to end with `slots` slots or more (the growth's last step ends at
    // 7/8 of the bound or above)
    static uint64_t bytes_for(uint64_t slots) { return (slots / 7 * 8 + 8 + 2 * TAIL) * sizeof(Entry); }
    bool ok() const { return entries_ != nullptr; }
    // Read a position's home slot ahead of its lookup (no effect on any value).  A plain load, not
    // __builtin_prefetch: on this VM the prefetches of a node's children gained nothing measurable,
    // where loads independent of each other let the CPU overlap the children's cache misses
    // (Breakthrough 4x5: 2.9 s -> 1.9 s of CPU; the probe's miss was 30% of the search).
    uint64_t warm(bool black, uint64_t h) const {
        const Entry *e = home(mix(black, h));
        return e[0].q0 + e[1].q0;  // (the tail: e + 1 is always in the array)
    }
    uint64_t size() const { return used_; }
    uint64_t bytes() const { return (slots_ + TAIL) * sizeof(Entry); }
    uint64_t bound_bytes() const { return bound_bytes_; }
    // The slots the table ends with once grown as far as the bound lets it (growth's steps, played out)
    uint64_t final_slots() const {
        uint64_t s = slots_;
        while (growable(s)) s = next_slots(s);
        return s;
    }
    // Entries it can hold now (beyond them it grows, or a store must collect first)
    uint64_t limit() const { return uint64_t(double(slots_) * MAX_LOAD); }

    // The solved entry (kind SOLVED) or the unsolved one at r (UNSOLVED) of a position
    Entry *find(int kind, bool black, const B &b, const B &w, int r, uint64_t h) const {
        Entry *e = home(mix(black, h)), *end = entries_ + slots_ + TAIL;
        for (; e < end && e->kind(); e++)
            if (e->kind() == kind && e->black() == black && (kind == SOLVED || e->r() == r) && e->b == b && e->w == w) return e;
        return nullptr;
    }
    // Both in one pass over the position's cluster
    void find_both(bool black, const B &b, const B &w, int r, uint64_t h, const Entry *&solved, const Entry *&unsolved) const {
        solved = unsolved = nullptr;
        Entry *e = home(mix(black, h)), *end = entries_ + slots_ + TAIL;
        for (; e < end && e->kind(); e++)
            if (e->black() == black && e->b == b && e->w == w) {
                if (e->kind() == SOLVED)
                    solved = e;
                else if (e->r() == r)
                    unsolved = e;
            }
    }
    // A new entry, zeroed (the key must be absent), or nullptr where no slot is left (the caller collects)
    Entry *insert(int kind, bool black, const B &b, const B &w, int r, uint64_t h) {
        if (used_ + 1 > uint64_t(double(slots_) * GROW_LOAD) && growable(slots_)) grow();
        if (used_ + 1 > limit()) return nullptr;
        Entry *e = free_slot(mix(black, h));
        if (!e) return nullptr;
        e->b = b;
        e->w = w;
        e->q0 = uint64_t(kind == UNSOLVED ? r : 0) << 41 | uint64_t(kind) << 54 | uint64_t(black) << 56;
        e->q1 = 0;
        used_++;
        return e;
    }
    void erase(Entry *e) {
        uint64_t hole = uint64_t(e - entries_);
        uint64_t end = slots_ + TAIL;
        for (uint64_t j = hole + 1; j < end && entries_[j].kind(); j++) {
            if (home_index(entries_[j]) <= hole) {
                entries_[hole] = entries_[j];
                hole = j;
            }
        }
        entries_[hole].q0 = 0;  // free
        used_--;
    }
    // SmallTreeGC: drop every entry whose work is at most the median work (pns._bound_memory:
    // `cut = sorted(works)[n // 2]`, keep work > cut)
    void collect() {
        std::vector<uint32_t> works;
        works.reserve(used_);
        uint64_t end = slots_ + TAIL;
        for (uint64_t i = 0; i < end; i++)
            if (entries_[i].kind()) works.push_back(uint32_t(entries_[i].work()));
        if (works.empty()) return;
        auto middle = works.begin() + ptrdiff_t(works.size() / 2);
        std::nth_element(works.begin(), middle, works.end());
        uint64_t cut = *middle;
        for (uint64_t i = 0; i < end; i++)
            while (entries_[i].kind() && entries_[i].work() <= cut) erase(&entries_[i]);
    }

  private:
    // The slot key: the Zobrist key is already uniform (an XOR of splitmix64 outputs), so the side
    // to move is XOR-ed in and no finaliser is run (it was 4% of df-pn's instructions).  Where an
    // entry sits never changes what a lookup finds: the counts do not depend on it.
    static uint64_t mix(bool black, uint64_t h) { return h ^ (black ? 0x9E3779B97F4A7C15ULL : 0); }
    uint64_t home_of(uint64_t key, uint64_t slots) const {  // multiply-high: any slot count
        return uint64_t((static_cast<unsigned __int128>(key) * slots) >> 64);
    }
    Entry *home(uint64_t key) const { return entries_ + home_of(key, slots_); }
    uint64_t home_index(const Entry &e) const { return home_of(mix(e.black(), rehash_(owner_, e.b, e.w)), slots_); }
    Entry *free_slot(uint64_t key) const {
        Entry *e = home(key), *end = entries_ + slots_ + TAIL;
        for (; e < end; e++)
            if (!e->kind()) return e;
        return nullptr;
    }
    // The growth steps of the .pg table (pgcore.cpp): double while small against the bound, then
    // one last step to what the bound leaves beside the old array (both live while entries move)
    uint64_t next_slots(uint64_t s) const { return 16 * s <= cap_ ? 2 * s : cap_ - s; }
    bool growable(uint64_t s) const { return cap_ > 2 * s; }
    void grow() {
        uint64_t more = next_slots(slots_);
        Memory bigger((more + TAIL) * sizeof(Entry));
        if (!bigger.get()) {
            cap_ = slots_;  // memory refused: the table stays and collects from now on
            return;
        }
        Memory kept = std::move(memory_);
        Entry *old = entries_;
        uint64_t old_end = slots_ + TAIL;
        memory_ = std::move(bigger);
        entries_ = static_cast<Entry *>(memory_.get());
        slots_ = more;
        for (uint64_t i = 0; i < old_end; i++) {
            if (!old[i].kind()) continue;
            Entry *e = free_slot(mix(old[i].black(), rehash_(owner_, old[i].b, old[i].w)));
            if (e) *e = old[i];  // (a tail this long never overflows at this load; were it to, the entry is lost)
            else used_--;
        }
    }

    uint64_t (*rehash_)(const void *, const B &, const B &);
    const void *owner_;
    uint64_t cap_, slots_, bound_bytes_;
    uint64_t used_ = 0;
    Memory memory_;
    Entry *entries_ = nullptr;
};

// A position's (phi, delta) for the side to move
struct Numbers {
    int64_t phi, delta;
};

// df-pn's entries over the table, as both Python engines keep them (bddl/engines/pns.py's
// ProofNumberSearch, which positional_pns.py inherits): `_lookup`'s table part, `_store_solved`,
// `_remember`, the unsolved entry a frame leaves, and `_bound_memory`'s collection past the
// capacity, with the collections counted.  One piece for the BDDL df-pn (bddlpns.cpp) and the
// positional games' (pgpns.cpp), so that both follow their reference through the same code.
template <int W>
class Store {
  public:
    using B = Bits<W>;
    using Table = PnTable<W>;
    using Entry = typename Table::Entry;

    // The table's bound: `table_bytes`, or less where the capacity needs less (a table larger than
    // the capacity's entries at 80% load would only spread them over more pages); the capacity
    // within what the bound holds, with room for the leaf searches' entries (stored without a
    // collection, as the Python leaf search stores them)
    Store(uint64_t table_bytes, uint64_t capacity, uint64_t (*rehash)(const void *, const B &, const B &), const void *owner)
        : table_(std::min(table_bytes, Table::bytes_for(uint64_t(double(std::max<uint64_t>(capacity, 16)) / 0.8) + 1)),
                 rehash, owner) {
        uint64_t room = uint64_t(double(table_.final_slots()) * 0.8);
        capacity_ = std::max<uint64_t>(16, std::min(capacity, room));
    }
    bool ok() const { return table_.ok(); }
    const Table &table() const { return table_; }

    // `_lookup` without the fresh position's numbers: false where the table holds none for r
    bool numbers(bool btm, const B &b, const B &w, uint64_t h, int r, Numbers &n) const {
        const Entry *e, *u;
        table_.find_both(btm, b, w, r, h, e, u);
        if (e) {
            if (r >= e->x()) return n = btm ? Numbers{0, INF} : Numbers{INF, 0}, true;  // Black wins
            if (r <= e->y()) return n = btm ? Numbers{INF, 0} : Numbers{0, INF}, true;  // Black loses
        }
        if (u) return n = Numbers{u->x(), u->y()}, true;
        return false;
    }

    // Minimax.known: the solved entry's verdict on Black with r plies left (-1: it does not decide r)
    int known(bool btm, const B &b, const B &w, uint64_t h, int r) const {
        const Entry *e = table_.find(Table::SOLVED, btm, b, w, 0, h);
        if (e) {
            if (r >= e->x()) return 1;
            if (r <= e->y()) return 0;
        }
        return -1;
    }

    // `_store_solved`: the mover's numbers after the verdict
    Numbers store_solved(bool btm, const B &b, const B &w, uint64_t h, int r, bool black_wins, uint64_t work) {
        Entry *e = solved_entry(btm, b, w, h, 0);
        set_verdict(e, r, black_wins);
        e->set_work(e->work() + work);
        Entry *u = table_.find(Table::UNSOLVED, btm, b, w, r, h);
        if (u) table_.erase(u);
        bound_memory();
        return black_wins == btm ? Numbers{0, INF} : Numbers{INF, 0};
    }

    // `_remember`: a value the leaf search found (one expansion of work; no collection)
    void remember(bool btm, const B &b, const B &w, uint64_t h, int r, bool black_wins) {
        set_verdict(solved_entry(btm, b, w, h, 1), r, black_wins);
    }

    // The numbers a frame leaves where it ran out of thresholds (`_store`), then `_bound_memory`
    void store_unsolved(bool btm, const B &b, const B &w, uint64_t h, int r, Numbers n, uint64_t work) {
        Entry *u = table_.find(Table::UNSOLVED, btm, b, w, r, h);
        if (!u) u = insert(Table::UNSOLVED, btm, b, w, r, h);
        u->set_x(n.phi);
        u->set_y(n.delta);
        u->set_work(work);
        bound_memory();
    }

    // The table's part of a search's report
    template <class Report>
    void report(Report &r) const {
        r.collections = collections_;
        r.forced_collections = forced_;
        r.capacity = capacity_;
        r.table_entries = table_.size();
        r.table_bytes = table_.bytes();
        r.table_bound_bytes = table_.bound_bytes();
        r.entry_bytes = int(sizeof(Entry));
        r.words = W;
    }

  private:
    // The position's solved entry, a new one (no win known, `work` done) where there is none
    Entry *solved_entry(bool btm, const B &b, const B &w, uint64_t h, uint64_t work) {
        Entry *e = table_.find(Table::SOLVED, btm, b, w, 0, h);
        if (!e) {
            e = insert(Table::SOLVED, btm, b, w, 0, h);
            e->set_x(NO_WIN);
            e->set_work(work);
        }
        return e;
    }
    static void set_verdict(Entry *e, int r, bool black_wins) {
        if (black_wins)
            e->set_x(std::min<int64_t>(e->x(), r));
        else
            e->set_y(std::max<int64_t>(e->y(), r));
    }
    // A new entry, collecting first where the table has no room left (the bound forced it)
    Entry *insert(int kind, bool btm, const B &b, const B &w, int r, uint64_t h) {
        Entry *e = table_.insert(kind, btm, b, w, r, h);
        while (!e) {
            forced_++;
            table_.collect();
            e = table_.insert(kind, btm, b, w, r, h);
        }
        return e;
    }
    // `_bound_memory`
    void bound_memory() {
        if (table_.size() <= capacity_) return;
        collections_++;
        table_.collect();
    }

    Table table_;
    uint64_t capacity_ = 0, collections_ = 0, forced_ = 0;
};

}  // namespace pn
}  // namespace bddlc
