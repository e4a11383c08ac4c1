// The positional rules as the compiled core's searches read them: the game as bitboards, the
// minimax's table, and the positional solver's knowledge (`PgRules`: lost causes, pairings,
// verdicts, claims, relevance, symmetries), apart from any search.  The minimax (`FullSearch`,
// pgcore.cpp) and df-pn (`PgPns`, pgpns.cpp) both derive from `PgRules`, as the Python minimax
// (bddl/engines/positional.py) and df-pn (bddl/engines/positional_pns.py) both read
// bddl/engines/positional_rules.py: one definition of every cut.
#pragma once

#include "pgcore.hpp"
#include "bits.hpp"
#include "pairs.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bddlc {
namespace pg {

// The transposition table: open addressing within a memory bound.  Keys are the exact bitboards
// (a hash collision costs a probe, never a wrong value); the value of a position does not depend
// on the path (the time point is the number of stones), so an entry is exact and losing one only
// costs a search again.
//
// A position lives in the first free slot from its home slot (placed by its hash, or on a small
// board by the position itself: `PackedEntry`), within SPILL slots of it while the table can
// still grow and WINDOW once it has reached its bound (slots never become free again, so a probe
// stops at the first free one).  The table starts small and grows once half
// its slots are taken, or a position finds no free slot within reach: a small search touches a
// few pages instead of faulting in the whole bound (a 256 MB table allocated at once made Qubic
// 3x3x3's search of 80,000 positions 25 times slower).  It grows in place (`Memory::extend`): the
// kernel moves the old pages, the entries move up within the one array, and only the new pages
// are faulted in, so it grows fourfold up to the whole bound.  (It used to move to a new array,
// the old one beside it within the bound: so it doubled only below a sixteenth of the bound and
// then jumped to 7/8 of it, and a search of 300,000 positions faulted in 240 MB; Hein 08 at 11
// spent two thirds of its time so.)  The wider reach while it grows lets it fill to half before
// growing: with 16 slots, linear probing's runs of taken slots filled a window at a load of 0.3
// (a table four times the search's positions; simulated: 0.36 in 2^16 slots, 0.30 in 2^22), with
// 64 at 0.6-0.7.  The last growth puts every entry back within WINDOW of its home, so the full
// table's probes stay short.  Then replacement: a new position takes the slot of its window whose
// subtree cost the fewest positions.
constexpr uint64_t WINDOW = 16;
constexpr uint64_t SPILL = 64;

// An entry's position: Black's and White's stones, two bitboards ...
template <int W>
struct WideKey {
    Bits<W> b, w;
    static WideKey of(const Bits<W> &b, const Bits<W> &w) { return {b, w}; }
    bool operator==(const WideKey &o) const { return b == o.b && w == o.w; }
};
// ... or, on a board of at most 32 cells, one word: a 16-byte entry, four to a cache line, where
// two bitboards made 24 (the table a third smaller, so a third less to fault in, move and miss).
struct NarrowKey {
    uint64_t bw;
    template <int W>
    static NarrowKey of(const Bits<W> &b, const Bits<W> &w) { return {b.w[0] | w.w[0] << 32}; }
    bool operator==(const NarrowKey &o) const { return bw == o.bw; }
};

// An entry of either key: the position, then in 8 bytes the hash's top half (which alone places
// the entry, so growing needs no Zobrist sum), the work and the value.
template <class K>
struct KeyedEntry {
    using Key = K;
    static constexpr uint32_t MAX_WORK = (1u << 30) - 1;
    K position;
    uint32_t key;        // the hash's top half
    uint32_t work_ : 30;  // positions expanded below this one (saturating): what evicting it costs
    uint32_t value_ : 2;  // 0: free, 1: Black does not win, 2: Black wins

    static uint32_t key_of(const K &, uint64_t h) { return uint32_t(h >> 32); }
    uint32_t home_key() const { return key; }
    K key_position() const { return position; }
    bool holds(const K &p) const { return position == p; }
    uint32_t value() const { return value_; }
    uint32_t work() const { return work_; }
    void fill(const K &p, uint32_t k, uint32_t v, uint32_t w) {
        position = p;
        key = k;
        work_ = w;
        value_ = v;
    }
};

// On a board of at most 26 cells the whole entry is one word: Black's stones in bits 0-25,
// White's in 26-51, the value in 52-53 and the work in 54-63 (saturating at 1,023: it only ranks
// evictions, and a subtree of a thousand positions is costly enough).  Eight to a cache line, so
// a table half the bytes of 16-byte entries: half the pages to fault in and the lines to miss
// (the plain searches of GTTT 10%, Hein's 12-21% faster).  The home comes from the position by
// one multiplication, as there is no room for the hash (MurmurHash3's finaliser, two, cost the
// small searches 7-12%).
struct PackedKey {
    uint64_t bw;
    template <int W>
    static PackedKey of(const Bits<W> &b, const Bits<W> &w) { return {b.w[0] | w.w[0] << 26}; }
    bool operator==(const PackedKey &o) const { return bw == o.bw; }
};
struct PackedEntry {
    using Key = PackedKey;
    static constexpr int CELLS = 26;
    static constexpr uint32_t MAX_WORK = 1023;
    static constexpr uint64_t POSITION = (uint64_t(1) << 52) - 1;
    uint64_t bits;

    // Fibonacci hashing: every bit of the position reaches the product's top half, the home
    static uint32_t key_of(const PackedKey &p, uint64_t) { return uint32_t((p.bw * 0x9E3779B97F4A7C15ULL) >> 32); }
    uint32_t home_key() const { return key_of(key_position(), 0); }
    PackedKey key_position() const { return {bits & POSITION}; }
    bool holds(const PackedKey &p) const { return (bits & POSITION) == p.bw; }
    uint32_t value() const { return uint32_t(bits >> 52) & 3; }
    uint32_t work() const { return uint32_t(bits >> 54); }
    void fill(const PackedKey &p, uint32_t, uint32_t v, uint32_t w) {
        bits = p.bw | uint64_t(v) << 52 | uint64_t(w) << 54;
    }
};

// The table's slots for one entry type (`Table` below chooses the type by the board's size).
template <class E>
class Slots {
  public:
    using Entry = E;
    using Key = typename E::Key;
    static constexpr uint64_t FIRST_SLOTS = 1 << 10;
    static constexpr uint64_t MAX_SLOTS = uint64_t(1) << 32;  // the homes a 32-bit key tells apart

    Slots() = default;  // unused: no memory
    explicit Slots(uint64_t bytes) {
        bound_entries_ = Memory::within(bytes) / sizeof(Entry);
        // the slots and the last window's overhang within the bound
        cap_ = bound_entries_ > 3 * SPILL ? bound_entries_ - SPILL : WINDOW;
        if (cap_ > MAX_SLOTS) cap_ = MAX_SLOTS;
        slots_ = cap_ < FIRST_SLOTS ? cap_ : FIRST_SLOTS;
        reach_ = growable() ? SPILL : WINDOW;
        memory_ = Memory(bytes_for(slots_));
        entries_ = static_cast<Entry *>(memory_.get());
    }
    bool ok() const { return entries_ != nullptr; }
    uint64_t entries() const { return slots_ + SPILL; }
    uint64_t bytes() const { return entries() * sizeof(Entry); }
    uint64_t max_bytes() const { return bound_entries_ * sizeof(Entry); }
    uint64_t lost_in_growth() const { return lost_; }
    // Ask the memory for the position's home slot ahead of the probe (a hint: no effect on any value).
    void prefetch(const Key &position, uint64_t h) const { __builtin_prefetch(home(position, h)); }

    // 0: unknown, else 1 + Black wins
    int probe(const Key &position, uint64_t h) const {
        const Entry *e = home(position, h);
        for (uint64_t k = 0; k < reach_ && e[k].value(); k++)
            if (e[k].holds(position)) return int(e[k].value());
        return 0;
    }

    // A position the search reaches at its last time point, whose value is 0 (Black has not won)
    // and which has no subtree: its value known (1 + Black wins), else `admit()` asked (false:
    // -1, nothing kept) and the position kept with a work of 1 (0; `evicted` says whether
    // another entry gave way).  One scan of its window where a probe and a store took two.
    template <class Admit>
    int visit_leaf(const Key &position, uint64_t h, Admit admit, bool &evicted) {
        uint32_t key = E::key_of(position, h);
        Entry *slot = free_slot(position, key);  // (a taken slot it returns holds the position)
        if (slot && slot->value()) return int(slot->value());
        if (!admit()) return -1;
        evicted = false;
        if (slot && !grow_due()) {
            used_++;
            slot->fill(position, key, 1, 1);
        } else {
            evicted = store(position, h, false, 1);
        }
        return 0;
    }

    // true when another position's entry was evicted
    bool store(const Key &position, uint64_t h, bool wins, uint64_t work) {
        uint32_t key = E::key_of(position, h);
        if (grow_due()) grow();
        Entry *slot = free_slot(position, key);
        if (!slot && growable() && grow()) slot = free_slot(position, key);
        bool evicted = slot == nullptr;
        if (evicted) slot = cheapest(key);
        else if (!slot->value()) used_++;
        slot->fill(position, key, wins ? 2 : 1, work > E::MAX_WORK ? E::MAX_WORK : uint32_t(work));
        return evicted;
    }

  private:
    static size_t bytes_for(uint64_t slots) { return (slots + SPILL) * sizeof(Entry); }
    // By multiply-high of the entry's 32-bit key: any slot count below 2^32, no modulo, and the
    // same slot from the entry alone.
    Entry *home(const Key &position, uint64_t h) const { return home_of(E::key_of(position, h)); }
    Entry *home_of(uint32_t key) const { return entries_ + ((uint64_t(key) * slots_) >> 32); }
    Entry *free_slot(const Key &position, uint32_t key) const {
        Entry *e = home_of(key);
        for (uint64_t k = 0; k < reach_; k++)
            if (!e[k].value() || e[k].holds(position)) return &e[k];
        return nullptr;
    }
    Entry *cheapest(uint32_t key) const {
        Entry *e = home_of(key), *slot = &e[0];
        for (uint64_t k = 1; k < WINDOW; k++)
            if (e[k].work() < slot->work()) slot = &e[k];
        return slot;
    }

    // Four times the slots (up to the bound) in place, every entry moved up to its new window;
    // false when memory is refused (the table then stays at its size and replaces from then on).
    // Fourfold: each growth moves every entry, and fourfold steps move an entry a third as often
    // as doubling (measured: within this machine's noise, Hein 20 at 15's 7 million positions
    // a median of 6.46 s of CPU fourfold against 6.50 doubling over five runs each).
    bool grow() {
        uint64_t more = 4 * slots_ <= cap_ ? 4 * slots_ : cap_;
        uint64_t old_entries = slots_ + SPILL, old_reach = reach_;
        if (!memory_.extend(bytes_for(more))) {
            cap_ = slots_;  // (the reach stays: the entries placed with it are found)
            return false;
        }
        entries_ = static_cast<Entry *>(memory_.get());
        // An entry at slot j (home o > j - reach) has its new home at o * more / slots or
        // beyond (the home is the hash times the slots, rounded down), which is j or beyond once
        // j >= low = (reach - 1) * more / (more - slots).  So, taken from the top down, every
        // entry from `low` up moves into slots that are new, emptied or already moved, never
        // onto one still waiting; the few below `low` wait aside and go in last.
        uint64_t low = uint64_t((static_cast<unsigned __int128>(old_reach - 1) * more + (more - slots_) - 1) / (more - slots_));
        if (low > old_entries) low = old_entries;
        std::vector<Entry> aside;
        for (uint64_t i = 0; i < low; i++) {
            if (!entries_[i].value()) continue;
            aside.push_back(entries_[i]);
            entries_[i] = Entry{};
        }
        slots_ = more;
        used_ = 0;
        reach_ = growable() ? SPILL : WINDOW;  // the last growth puts every entry within its window
        for (uint64_t i = old_entries; i-- > low;) {
            if (!entries_[i].value()) continue;
            Entry e = entries_[i];
            entries_[i] = Entry{};
            put_back(e);
        }
        for (const Entry &e : aside) put_back(e);
        return true;
    }

    // An entry of the table before it grew, in its slot now.
    void put_back(const Entry &e) {
        Entry *slot = free_slot(e.key_position(), e.home_key());
        if (!slot) {
            slot = cheapest(e.home_key());
            lost_++;
        } else {
            used_++;
        }
        *slot = e;
    }

    bool growable() const { return cap_ > slots_; }  // a step would add slots
    // Half full, where a step would add slots: the next store grows the table first (growing at
    // 0.7 instead lengthened the probes: Hein's plain searches 5-10% slower, 2026-11-29).
    bool grow_due() const { return 2 * (used_ + 1) > slots_ && growable(); }

    uint64_t slots_ = 0, cap_ = 0, bound_entries_ = 0;
    uint64_t reach_ = WINDOW;  // how far from its home a position may lie: SPILL while the table can grow, then WINDOW
    uint64_t used_ = 0;
    uint64_t lost_ = 0;  // entries that found no slot while moving: counted as evictions
    Memory memory_;
    Entry *entries_ = nullptr;
};

// The transposition table of a search on W-word bitboards: one-word entries on boards of at most
// 26 cells, 16-byte ones up to 32, else two bitboards and 8 bytes (the choice is made once; the
// branch on it is the same at every call).
template <int W>
class Table {
  public:
    Table(uint64_t bytes, int cells) : kind_(kind_for(cells)) {
        if (kind_ == PACKED) packed_ = Slots<PackedEntry>(bytes);
        else if (kind_ == NARROW) narrow_ = Slots<KeyedEntry<NarrowKey>>(bytes);
        else wide_ = Slots<KeyedEntry<WideKey<W>>>(bytes);
    }
    static int entry_bytes_for(int cells) {
        Kind kind = kind_for(cells);
        return kind == PACKED   ? int(sizeof(PackedEntry))
               : kind == NARROW ? int(sizeof(KeyedEntry<NarrowKey>))
                                : int(sizeof(KeyedEntry<WideKey<W>>));
    }
    bool ok() const {
        return on_slots([](const auto &s) { return s.ok(); });
    }
    uint64_t entries() const {
        return on_slots([](const auto &s) { return s.entries(); });
    }
    uint64_t bytes() const {
        return on_slots([](const auto &s) { return s.bytes(); });
    }
    uint64_t max_bytes() const {
        return on_slots([](const auto &s) { return s.max_bytes(); });
    }
    uint64_t lost_in_growth() const {
        return on_slots([](const auto &s) { return s.lost_in_growth(); });
    }
    void prefetch(const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        on_slots([&](const auto &s) { s.prefetch(key(s, b, w), h); });
    }
    // 0: unknown, else 1 + Black wins
    int probe(const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        return on_slots([&](const auto &s) { return s.probe(key(s, b, w), h); });
    }
    // Slots::visit_leaf for (b, w)
    template <class Admit>
    int visit_leaf(const Bits<W> &b, const Bits<W> &w, uint64_t h, Admit admit, bool &evicted) {
        return on_slots([&](auto &s) { return s.visit_leaf(key(s, b, w), h, admit, evicted); });
    }
    // true when another position's entry was evicted
    bool store(const Bits<W> &b, const Bits<W> &w, uint64_t h, bool wins, uint64_t work) {
        return on_slots([&](auto &s) { return s.store(key(s, b, w), h, wins, work); });
    }

  private:
    enum Kind { PACKED, NARROW, WIDE };
    static Kind kind_for(int cells) {
        return W == 1 && cells <= PackedEntry::CELLS ? PACKED : W == 1 && cells <= 32 ? NARROW : WIDE;
    }
    template <class S>
    static typename S::Key key(const S &, const Bits<W> &b, const Bits<W> &w) {
        return S::Key::of(b, w);
    }
    template <class F>
    auto on_slots(F f) const {
        return kind_ == PACKED ? f(packed_) : kind_ == NARROW ? f(narrow_) : f(wide_);
    }
    template <class F>
    auto on_slots(F f) {
        return kind_ == PACKED ? f(packed_) : kind_ == NARROW ? f(narrow_) : f(wide_);
    }

    Kind kind_;
    Slots<PackedEntry> packed_;
    Slots<KeyedEntry<NarrowKey>> narrow_;
    Slots<KeyedEntry<WideKey<W>>> wide_;
};

// Whole permutations of the cells, `cells` images each (the symmetries the full search reads).
inline bool permutations(const std::vector<int> &images, int cells) {
    if (cells == 0) return images.empty();
    if (images.size() % size_t(cells)) return false;
    for (size_t i = 0; i < images.size(); i += cells) {
        std::vector<uint8_t> hit(cells, 0);
        for (int k = 0; k < cells; k++) {
            int c = images[i + k];
            if (c < 0 || c >= cells || hit[c]) return false;
            hit[c] = 1;
        }
    }
    return true;
}

// What the two searches share: the game as bitboards, the table and its Zobrist keys, the
// position budget and the report.  Each search derives from it and adds its own move rules.
template <int W>
class SearchBase {
  protected:
    using B = Bits<W>;

    SearchBase(const GameSpec &s, uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
               uint64_t check_every)
        : n_(s.cells), depth_(int(s.black_turn.size())), black_turn_(s.black_turn), hex_(s.hex),
          max_positions_(max_positions), check_(check), context_(context), check_every_(check_every ? check_every : 1),
          table_(table_bytes, s.cells) {
        next_check_ = check_every_;
        full_ = B::zero();
        for (int c = 0; c < n_; c++) full_.set(c);
        black_sets_ = sets_of(s.black_set_offsets, s.black_set_cells);
        white_sets_ = sets_of(s.white_set_offsets, s.white_set_cells);
        b0_ = B::of(s.black_initials.data(), int(s.black_initials.size()));
        w0_ = B::of(s.white_initials.data(), int(s.white_initials.size()));
        first_ = s.has_first_moves ? B::of(s.first_moves.data(), int(s.first_moves.size())) : full_;
        start_border_ = end_border_ = B::zero();
        if (hex_) {
            for (int c = 0; c < n_; c++)
                neighbours_.push_back(B::of(s.neighbour_cells.data() + s.neighbour_offsets[c],
                                            s.neighbour_offsets[c + 1] - s.neighbour_offsets[c]));
            start_border_ = B::of(s.start_border.data(), int(s.start_border.size()));
            end_border_ = B::of(s.end_border.data(), int(s.end_border.size()));
        }
        uint64_t seed = 0x62646C63ULL;  // "bdlc": the same keys on every run, so the same evictions
        for (int c = 0; c < n_; c++) {
            zobrist_black_.push_back(splitmix64(seed));
            zobrist_white_.push_back(splitmix64(seed));
        }
    }
    SearchBase(const SearchBase &) = delete;  // one search, one table (its memory is not copied)
    SearchBase &operator=(const SearchBase &) = delete;

    static std::vector<B> sets_of(const std::vector<int> &offsets, const std::vector<int> &cells) {
        std::vector<B> out;
        for (size_t i = 0; i + 1 < offsets.size(); i++)
            out.push_back(B::of(cells.data() + offsets[i], offsets[i + 1] - offsets[i]));
        return out;
    }

    static uint64_t hash_of(const void *owner, const B &b, const B &w) {
        const SearchBase *self = static_cast<const SearchBase *>(owner);
        uint64_t h = 0;
        for (int i = 0; i < W; i++) {
            for (uint64_t x = b.w[i]; x; x &= x - 1) h ^= self->zobrist_black_[i * 64 + __builtin_ctzll(x)];
            for (uint64_t x = w.w[i]; x; x &= x - 1) h ^= self->zobrist_white_[i * 64 + __builtin_ctzll(x)];
        }
        return h;
    }
    uint64_t hash_of(const B &b, const B &w) const { return hash_of(this, b, w); }

    // The table's value of (b, w) under hash h: 0 unknown, else 1 + Black wins (a hit counted).
    int probe(const B &b, const B &w, uint64_t h) {
        int known = table_.probe(b, w, h);
        if (known) hits_++;
        return known;
    }

    // Counts one more position expanded; false (the status set) when the budget or the check
    // stops the search.
    bool count_position() {
        if (++positions_ > max_positions_) {
            status_ = 1;
            return false;
        }
        if (positions_ == next_check_ && (next_check_ += check_every_, check_) && check_(context_)) {
            status_ = 2;
            return false;
        }
        return true;
    }

    // A persistent searcher's next question (PgSearcher): `budget` more positions, this check.
    void rearm(uint64_t budget, StopCheck check, void *context, uint64_t check_every) {
        max_positions_ = positions_ + budget < positions_ ? ~uint64_t(0) : positions_ + budget;
        check_ = check;
        context_ = context;
        check_every_ = check_every ? check_every : 1;
        next_check_ = first_check();
        status_ = 0;
    }

    // Asks the memory for the table slot of the child after claim c by Black (`black`) or White
    // at (b, w) under hash h, ahead of its probe (a hint: no effect on any value).
    void prefetch_child(const B &b, const B &w, uint64_t h, bool black, int c) const {
        B b2 = b, w2 = w;
        (black ? b2 : w2).set(c);
        table_.prefetch(b2, w2, h ^ (black ? zobrist_black_ : zobrist_white_)[c]);
    }

    // A position at the last time point (value 0, no subtree), probed, counted and kept as a
    // probe, `count_position` and a store would: 0, or -1 when the search stops.
    int visit_leaf(const B &b, const B &w, uint64_t h) {
        bool evicted = false;
        int known = table_.visit_leaf(b, w, h, [this] { return count_position(); }, evicted);
        if (known > 0) {
            hits_++;
            return 0;
        }
        if (known < 0) return -1;
        stores_++;
        replacements_ += evicted;
        return 0;
    }

    // Keeps r, the value of (b, w) under hash h, whose subtree began at the count `before`.
    void store(const B &b, const B &w, uint64_t h, int r, uint64_t before) {
        stores_++;
        replacements_ += table_.store(b, w, h, r == 1, positions_ - before + 1);
    }

    // The report's table sizes; false (status 3) when the table could not be allocated.
    bool report_table(SearchReport &report) const {
        report.words = W;
        report.entry_bytes = Table<W>::entry_bytes_for(n_);
        report.table_bound_bytes = table_.max_bytes();
        if (table_.ok()) return true;
        report.status = 3;
        return false;
    }

    // The report of a search whose root value is r (-1: stopped).
    void report_result(SearchReport &report, int r) const {
        report.status = r < 0 ? status_ : 0;
        report.black_wins = r == 1;
        report.first_move = r == 1 ? first_move_ : -1;
        report.positions = positions_;
        report.table_hits = hits_;
        report.table_stores = stores_;
        report.replacements = replacements_ + table_.lost_in_growth();
        report.table_entries = table_.entries();
        report.table_bytes = table_.bytes();
    }

    bool black_won(const B &b) const {
        if (hex_) {
            B near = B::zero();
            return flood(b & start_border_, b, near).meets(end_border_);
        }
        for (const B &m : black_sets_)
            if (m.within(b)) return true;
        return false;
    }

    bool white_won(const B &w) const {
        for (const B &m : white_sets_)
            if (m.within(w)) return true;
        return false;
    }

    // Hex: the open cells whose claim joins the borders (they touch, or lie on, both the start
    // border's group and the end border's group).
    B joining(const B &b, const B &open) const {
        B near_start = start_border_, near_end = end_border_;
        flood(b & start_border_, b, near_start);
        flood(b & end_border_, b, near_end);
        return open & near_start & near_end;
    }

    // The cells of `within` connected to `seeds`; `near` gathers their neighbours.
    B flood(const B &seeds, const B &within, B &near) const {
        B reach = seeds, todo = seeds;
        for (int c = todo.lowest(); c >= 0; c = todo.lowest()) {
            todo.clear(c);
            const B &around = neighbours_[c];
            near |= around;
            B grow = (around & within).minus(reach);
            reach |= grow;
            todo |= grow;
        }
        return reach;
    }

    int n_, depth_;
    std::vector<uint8_t> black_turn_;
    bool hex_;
    uint64_t max_positions_;
    StopCheck check_;
    void *context_;
    uint64_t check_every_;
    uint64_t next_check_ = 0;  // the count at which the check is next asked (a multiple of check_every_)
    // the next multiple of check_every_ after the count: the check is asked there, with no division per position
    uint64_t first_check() const { return (positions_ / check_every_ + 1) * check_every_; }
    Table<W> table_;
    B full_, b0_, w0_, first_, start_border_, end_border_;
    std::vector<B> black_sets_, white_sets_, neighbours_;
    std::vector<uint8_t> one_stone_;  // per time point: the threats apply (the mover claims one cell, then the other side)
    std::vector<uint64_t> zobrist_black_, zobrist_white_;
    uint64_t positions_ = 0, hits_ = 0, stores_ = 0, replacements_ = 0;
    int status_ = 0;
    int first_move_ = -1;
};

// The base's names in a search (a template's base is not searched for unqualified names).
#define BDDLC_SEARCH_BASE_NAMES                                                                      \
    using Base = SearchBase<W>;                                                                      \
    using B = Bits<W>;                                                                               \
    using Base::n_, Base::depth_, Base::black_turn_, Base::hex_, Base::table_, Base::full_;          \
    using Base::b0_, Base::w0_, Base::first_, Base::start_border_, Base::end_border_;                \
    using Base::black_sets_, Base::white_sets_, Base::neighbours_, Base::one_stone_;                 \
    using Base::zobrist_black_, Base::zobrist_white_, Base::positions_, Base::status_;               \
    using Base::first_move_, Base::hash_of, Base::probe, Base::count_position, Base::store;          \
    using Base::black_won, Base::white_won, Base::joining, Base::flood

// ---------------------------------------------------------------------------------------------
// The positional solver's search (knowledge "full").  Every piece mirrors one definition of
// bddl/engines/positional_rules.py, bddl/engines/relevance.py, bddl/pg/pairing.py or
// bddl/engines/minimax.py (named beside it), in the same order of operations, so that the two
// expand the same positions in the same order: the tests compare the counts, not only verdicts.

constexpr int UNREACHABLE = 1 << 30;

// What the rules read from a position before it is expanded (`PositionalRules.compute_cuts`).
template <int W>
struct Cuts {
    Bits<W> allowed;      // the cells the mover may claim
    Bits<W> own, other;   // the open cells completing a goal of the mover's, of the other side's
    Bits<W> completing;   // Black's completing cells (the carriers of the judge's Black wins)
    int k = 0;            // Black's claims from this time point on
    int need = 0;         // the fewest open cells Black needs for a goal
};

// A board as a hash-map key (the carriers are kept per raw board, as the Python dict keeps them).
template <int W>
struct Board {
    Bits<W> b, w;
    uint64_t h;
    bool operator==(const Board &o) const { return b == o.b && w == o.w; }
};
template <int W>
struct BoardHash {
    size_t operator()(const Board<W> &k) const { return size_t(k.h); }
};

// The rules and the knowledge of the positional solver (`PositionalRules`): what a search asks of
// a position, never a search itself.  The searches derive from it (FullSearch, PgPns).
template <int W>
class PgRules : public SearchBase<W> {
  protected:
    using Base = SearchBase<W>;
    using B = Bits<W>;
    using Base::n_, Base::depth_, Base::black_turn_, Base::hex_, Base::full_;
    using Base::first_, Base::start_border_, Base::end_border_;
    using Base::black_sets_, Base::white_sets_, Base::neighbours_, Base::one_stone_;
    using Base::joining, Base::flood;

    PgRules(const GameSpec &s, uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
            uint64_t check_every)
        : Base(s, max_positions, table_bytes, check, context, check_every),
          relevance_(s.relevance), lookahead_from_(s.lookahead_from), order_(s.order), pairable_(s.pairable),
          pairing_steps_(s.pairing_steps), symmetric_plies_(s.symmetric_plies) {
        pairing_sets_ = Base::sets_of(s.pairing_set_offsets, s.pairing_set_cells);
        take_symmetries(s.symmetry_cells);
        fetch_symmetries_ = s.fetch_symmetries;
        symmetries_context_ = s.symmetries_context;
        black_left_.assign(depth_ + 1, 0);
        for (int t = depth_ - 1; t >= 0; t--) black_left_[t] = black_left_[t + 1] + black_turn_[t];
        for (int t = 0; t < depth_; t++) one_stone_.push_back(t + 1 < depth_ && black_turn_[t + 1] != black_turn_[t]);
        // per time point, the tiers of the position whose cuts were computed there last (a line
        // of play meets each time point once, so one slot each serves a search)
        int most = black_left_[0] + 1;
        tiers_.assign(size_t(depth_ + 1) * most, B::zero());
        layers_start_.assign(most, B::zero());
        layers_end_.assign(most, B::zero());
        rest_moves_.assign(n_ + 1, 0);
        stride_ = most;
    }

    // -- the cuts: claims and verdicts (`PositionalRules`) --------------------------------------
    // False for a lost cause: no Black goal can be completed in time, or White's pairing keeps
    // Black from every one it could (`compute_cuts`).
    bool compute_cuts(const B &b, const B &w, int t, Cuts<W> &c) {
        B open = full_.minus(b | w);
        c.allowed = t == 0 ? open & first_ : open;
        c.k = black_left_[t];
        B completing = B::zero(), threats = B::zero();
        if (relevance_) {
            c.need = tiers(b, w, c.k, within(t));
            if (c.need > c.k) return false;
            if (c.k) completing = within(t)[1];
        } else {
            c.need = black_status(b, w, completing);
            if (c.need > c.k) return false;
            if (!white_sets_.empty()) threats = white_completing(b, w);
        }
        if (c.need > 1 && !pairable_.empty() && t < depth_ && pairable_[t] && pairing_exists(b, w, t)) return false;
        c.completing = completing;
        c.own = black_turn_[t] ? completing : threats;
        c.other = black_turn_[t] ? threats : completing;
        return true;
    }

    B *within(int t) { return &tiers_[size_t(t) * stride_]; }

    // What one ply decides (`verdict_of`): 1 Black wins, 0 it does not, -1 no verdict.
    int verdict_of(const Cuts<W> &c, int t) const {
        if (!c.allowed.any()) return 0;  // the mover has no open cell: the game is over
        int black = black_turn_[t];
        if (c.own.meets(c.allowed)) return black;
        if (c.other.any() && one_stone_[t] && (!c.other.single() || !c.other.meets(c.allowed))) return !black;
        return -1;
    }

    // The claims to try, in order (`claims_of`, and the solver's look-ahead for White).
    // `moves` is the time point's own list (its memory kept from one position to the next).
    // `lookahead`: with the positional solver's look-ahead for White (`PositionalSolver._claims`),
    // which df-pn's claims (`PositionalRules.claims`) do without.
    void claims_of(const B &b, const B &w, int t, const Cuts<W> &c, std::vector<int> &moves, bool lookahead) {
        moves.clear();
        B winning = c.own & c.allowed;
        if (winning.any()) {
            moves.push_back(winning.highest());  // (the Python mask's bit_length() - 1)
            return;
        }
        bool cornered = c.other.any() && one_stone_[t];
        if (cornered && c.other.single() && c.other.meets(c.allowed)) {
            moves.push_back(c.other.lowest());
            return;
        }
        if (!relevance_) {
            by_order(c.allowed & c.other, moves);
            by_order(c.allowed.minus(c.other), moves);
        } else {
            relevant_ordered(c.allowed, within(t), c.k, moves);
        }
        if (cornered && moves.size() > 1) moves.resize(1);
        else if (lookahead && !black_turn_[t] && relevance_ && c.k >= lookahead_from_ && moves.size() > 1)
            strongest_blocks_first(b, w, c.k, within(t)[c.need], moves);
    }

    // The cells of `cells` in the static order (`Relevance._by_rank`, the rules' `ordered`).
    void by_order(const B &cells, std::vector<int> &out) const {
        if (!cells.any()) return;
        for (int c : order_)
            if (cells.has(c)) out.push_back(c);
    }

    // `Relevance.ordered`: the relevant claims, cheapest goals first; all when none is relevant.
    void relevant_ordered(const B &allowed, const B *within, int k, std::vector<int> &out) const {
        B pool = allowed & within[k];
        if (!pool.any()) {
            by_order(allowed, out);
            return;
        }
        B seen = B::zero();
        for (int m = 1; m <= k; m++) {
            B tier = (pool & within[m]).minus(seen);
            by_order(tier, out);
            seen |= tier;
        }
    }

    // `Relevance.strongest_blocks_first`: White's claims on Black's cheapest goals first, those
    // leaving Black the greatest need first of all (ties in the given order).
    void strongest_blocks_first(const B &b, const B &w, int k, const B &cheapest, std::vector<int> &moves) {
        std::vector<std::pair<int, int>> &scored = scored_;  // (-need, index)
        std::vector<int> &rest = rest_;
        scored.clear();
        rest.clear();
        for (size_t i = 0; i < moves.size(); i++) {
            int m = moves[i];
            if (cheapest.has(m)) {
                B w2 = w;
                w2.set(m);
                scored.emplace_back(-need_of(b, w2, k), int(i));
            } else {
                rest.push_back(m);
            }
        }
        std::sort(scored.begin(), scored.end());
        size_t i = 0;
        for (auto &s : scored) rest_moves_[i++] = moves[s.second];  // (the cheapest tier's, in order)
        for (size_t j = 0; j < i; j++) moves[j] = rest_moves_[j];
        for (int m : rest) moves[i++] = m;
    }

    // -- relevance (`Relevance.tiers`) -----------------------------------------------------------
    // The fewest open cells of a live goal, and within[m] (m = 0..k): the open cells on a live
    // goal of cost at most m.
    int tiers(const B &b, const B &w, int k, B *within) {
        if (hex_) return chain_tiers(b, w, k, within);
        int need = UNREACHABLE;
        for (int m = 0; m <= k; m++) within[m] = B::zero();
        for (const B &m : black_sets_) {
            if (m.meets(w)) continue;
            B missing = m.minus(b);
            int cost = missing.count();
            if (cost < need) need = cost;
            if (cost <= k) within[cost] |= missing;
        }
        for (int m = 1; m <= k; m++) within[m] |= within[m - 1];
        return need;
    }

    int need_of(const B &b, const B &w, int k) {
        if (!hex_) {
            int need = UNREACHABLE;
            for (const B &m : black_sets_) {
                if (m.meets(w)) continue;
                int cost = m.minus(b).count();
                if (cost < need) need = cost;
            }
            return need;
        }
        layers(b, w, start_border_, k, layers_start_.data());
        for (int i = 0; i <= k; i++)
            if (layers_start_[i].meets(end_border_)) return i;
        return UNREACHABLE;
    }

    // `Relevance._layers`: layers[i], the cells reached from `border` through at most i open
    // cells (Black's cells free, White's blocking).
    void layers(const B &b, const B &w, const B &border, int k, B *out) const {
        B open = full_.minus(b | w), reached = B::zero(), touching = border;
        for (int i = 0; i <= k; i++) {
            B frontier = (touching & (i == 0 ? b : open)).minus(reached);
            B fresh = frontier;
            while (frontier.any()) {
                B grow = B::zero();
                for (int c = frontier.lowest(); c >= 0; c = frontier.lowest()) {
                    grow |= neighbours_[c];
                    frontier.clear(c);
                }
                touching |= grow;
                frontier = (grow & b).minus(reached).minus(fresh);
                fresh |= frontier;
            }
            reached |= fresh;
            out[i] = reached;
        }
    }

    int chain_tiers(const B &b, const B &w, int k, B *within) {
        B *from_start = layers_start_.data(), *from_end = layers_end_.data();
        layers(b, w, start_border_, k, from_start);
        int need = UNREACHABLE;
        for (int i = 0; i <= k; i++)
            if (from_start[i].meets(end_border_)) {
                need = i;
                break;
            }
        for (int m = 0; m <= k; m++) within[m] = B::zero();
        if (need > k) return need;
        layers(b, w, end_border_, k, from_end);
        B open = full_.minus(b | w);
        for (int m = need > 1 ? need : 1; m <= k; m++) {
            // an open cell lies on a chain of cost m iff d_start = i and d_end <= m + 1 - i
            B found = B::zero();
            for (int i = 1; i <= m; i++) found |= from_start[i] & from_end[m + 1 - i];
            within[m] = found & open;
        }
        return need;
    }

    // -- goals without relevance (`black_status`, `white_completing`) -----------------------------
    int black_status(const B &b, const B &w, B &completing) const {
        B open = full_.minus(b | w);
        if (hex_) {
            completing = joining(b, open);
            return completing.any() ? 1 : border_need(b, w);
        }
        int best = UNREACHABLE;
        completing = B::zero();
        for (const B &m : black_sets_) {
            if (m.meets(w)) continue;
            B missing = m.minus(b);
            int k = missing.count();
            if (k == 1) completing |= missing;
            if (k < best) best = k;
        }
        return best;
    }

    B white_completing(const B &b, const B &w) const {
        B found = B::zero();
        for (const B &m : white_sets_) {
            if (m.meets(b)) continue;
            B missing = m.minus(w);
            if (missing.single()) found |= missing;
        }
        return found;
    }

    // `_border_need`: the fewest open cells joining the borders (a 0-1 breadth-first search).
    int border_need(const B &b, const B &w) const {
        std::vector<int> dist(n_, UNREACHABLE);
        std::deque<int> queue;
        for (int c = 0; c < n_; c++) {
            if (start_border_.has(c) && !w.has(c)) {
                int d = b.has(c) ? 0 : 1;
                dist[c] = d;
                if (d == 0) queue.push_front(c);
                else queue.push_back(c);
            }
        }
        while (!queue.empty()) {
            int c = queue.front();
            queue.pop_front();
            int d = dist[c];
            if (end_border_.has(c)) return d;
            B around = neighbours_[c].minus(w);
            for (int j = around.lowest(); j >= 0; j = around.lowest()) {
                around.clear(j);
                int nd = d + (b.has(j) ? 0 : 1);
                if (nd < dist[j]) {
                    dist[j] = nd;
                    if (nd == d) queue.push_front(j);
                    else queue.push_back(j);
                }
            }
        }
        return UNREACHABLE;
    }

    // -- White's pairings within the depth (`PairingFinder.exists`, within_depth) -----------------
    // The Python solver asks a SAT solver where its quick search runs out of steps; here the same
    // search goes on without a step bound instead: both answer whether a pairing exists, exactly.
    bool pairing_exists(const B &b, const B &w, int t) {
        int most = black_left_[t];
        B occupied = b | w;
        std::vector<B> &live = live_;
        live.clear();
        for (const B &s : pairing_sets_) {
            if (s.meets(w)) continue;
            B open = s.minus(occupied);
            if (open.count() > most) continue;  // Black has too few moves left to complete it
            if (!open.any() || open.single()) return false;  // no pair fits in it
            bool seen = false;  // (`dict.fromkeys`: each set once, first come first)
            for (const B &l : live) seen = seen || l == open;
            if (!seen) live.push_back(open);
        }
        int64_t budget = int64_t(pairing_steps_);
        // a level of the search covers one set at least: as many scratch lists as sets, sized
        // before the search, which holds references into them
        if (fit_rest_.size() < live.size() + 1) fit_rest_.resize(live.size() + 1);
        int quick = pairs_fit(live, B::zero(), budget, 0);
        if (quick >= 0) return quick == 1;
        pairing_searches_++;
        budget = INT64_MAX;
        return pairs_fit(live, B::zero(), budget, 0) == 1;
    }

    // `_quick_pairing`'s `fits` (pairs.hpp), this rules' scratch lists for its levels
    int pairs_fit(const std::vector<B> &sets, const B &used, int64_t &budget, size_t level) {
        return bddlc::pairs_fit(sets, used, budget, fit_rest_, level);
    }

    // -- symmetries (`PositionalRules.key`) ------------------------------------------------------
    void take_symmetries(const std::vector<int> &cells) {
        for (size_t i = 0; n_ > 0 && i + n_ <= cells.size(); i += n_)
            perms_.emplace_back(cells.begin() + i, cells.begin() + i + n_);
    }

    // The canonical keys from now on (`set_up_symmetries`), the symmetries fetched if they are
    // asked for now; false when the fetch failed or gave no permutations of the cells.
    bool set_up_symmetries() {
        if (fetch_symmetries_) {
            std::vector<int> cells;
            if (fetch_symmetries_(symmetries_context_, cells) || !permutations(cells, n_)) return false;
            take_symmetries(cells);
        }
        symmetries_on_ = !perms_.empty();
        return true;
    }

    // The least board of the position's orbit, as the Python masks compare (Black's cells first).
    void canonical(const B &b, const B &w, B &kb, B &kw) const {
        for (const std::vector<int> &p : perms_) {
            B pb = image(b, p), pw = image(w, p);
            if (pb.less(kb) || (pb == kb && pw.less(kw))) {
                kb = pb;
                kw = pw;
            }
        }
    }
    static B image(const B &cells, const std::vector<int> &perm) {
        B out = B::zero();
        for (int i = 0; i < W; i++)
            for (uint64_t x = cells.w[i]; x; x &= x - 1) out.set(perm[i * 64 + __builtin_ctzll(x)]);
        return out;
    }

    bool relevance_;
    int lookahead_from_;
    std::vector<int> order_;
    std::vector<uint8_t> pairable_;
    uint64_t pairing_steps_;
    int symmetric_plies_;
    std::vector<B> pairing_sets_;
    std::vector<std::vector<int>> perms_;
    int (*fetch_symmetries_)(void *, std::vector<int> &) = nullptr;
    void *symmetries_context_ = nullptr;
    std::vector<int> black_left_;
    std::vector<B> tiers_, layers_start_, layers_end_;
    int stride_ = 1;
    std::vector<std::pair<int, int>> scored_;  // the look-ahead's scratch
    std::vector<int> rest_, rest_moves_;
    std::vector<B> live_;                      // the pairings' live sets
    std::vector<std::vector<B>> fit_rest_;     // per level of the pairing search: the sets handed on
    uint64_t pairing_searches_ = 0;
    bool symmetries_on_ = false;
};

// The rules' names in a search (a template's base is not searched for unqualified names).
#define BDDLC_PG_RULES_NAMES                                                                        \
    using Rules = PgRules<W>;                                                                        \
    using Rules::compute_cuts, Rules::within, Rules::verdict_of, Rules::claims_of, Rules::black_left_; \
    using Rules::canonical, Rules::set_up_symmetries, Rules::symmetries_on_, Rules::symmetric_plies_; \
    using Rules::pairing_searches_, Rules::relevance_, Rules::perms_

}  // namespace pg
}  // namespace bddlc
