// The compiled core's search for .pg games (pgcore.hpp says what it answers).  Everything a search
// needs lives in one `Search` object made per call: no global state, so concurrent calls from
// several threads or processes never share a table.
#include "pgcore.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <utility>

namespace bddlc {
namespace {

// A set of cells as W 64-bit words (cell i is bit i % 64 of word i / 64).  W is fixed per board
// size at compile time, so every loop over the words unrolls.
template <int W>
struct Bits {
    uint64_t w[W];

    static Bits zero() {
        Bits b;
        for (int i = 0; i < W; i++) b.w[i] = 0;
        return b;
    }
    static Bits of(const int *cells, int count) {
        Bits b = zero();
        for (int k = 0; k < count; k++) b.set(cells[k]);
        return b;
    }
    void set(int c) { w[c >> 6] |= uint64_t(1) << (c & 63); }
    bool has(int c) const { return (w[c >> 6] >> (c & 63)) & 1; }
    bool any() const {
        uint64_t x = 0;
        for (int i = 0; i < W; i++) x |= w[i];
        return x != 0;
    }
    int count() const {
        int k = 0;
        for (int i = 0; i < W; i++) k += __builtin_popcountll(w[i]);
        return k;
    }
    // exactly one cell
    bool single() const {
        int k = 0;
        for (int i = 0; i < W; i++) {
            if (w[i] & (w[i] - 1)) return false;
            k += w[i] != 0;
        }
        return k == 1;
    }
    Bits operator|(const Bits &o) const {
        Bits r;
        for (int i = 0; i < W; i++) r.w[i] = w[i] | o.w[i];
        return r;
    }
    Bits operator&(const Bits &o) const {
        Bits r;
        for (int i = 0; i < W; i++) r.w[i] = w[i] & o.w[i];
        return r;
    }
    Bits minus(const Bits &o) const {
        Bits r;
        for (int i = 0; i < W; i++) r.w[i] = w[i] & ~o.w[i];
        return r;
    }
    Bits &operator|=(const Bits &o) {
        for (int i = 0; i < W; i++) w[i] |= o.w[i];
        return *this;
    }
    bool operator==(const Bits &o) const {
        uint64_t x = 0;
        for (int i = 0; i < W; i++) x |= w[i] ^ o.w[i];
        return x == 0;
    }
    bool within(const Bits &o) const {  // a subset of o
        uint64_t x = 0;
        for (int i = 0; i < W; i++) x |= w[i] & ~o.w[i];
        return x == 0;
    }
    bool meets(const Bits &o) const {
        uint64_t x = 0;
        for (int i = 0; i < W; i++) x |= w[i] & o.w[i];
        return x != 0;
    }
    int lowest() const {  // the first cell, or -1 for none
        for (int i = 0; i < W; i++)
            if (w[i]) return i * 64 + __builtin_ctzll(w[i]);
        return -1;
    }
};

// The transposition table: open addressing within a memory bound.  Keys are the exact bitboards
// (a hash collision costs a probe, never a wrong value); the value of a position does not depend
// on the path (the time point is the number of stones), so an entry is exact and losing one only
// costs a search again.
//
// A position lives in the first free slot of the WINDOW slots from its hash's home slot (slots
// never become free again, so a probe stops at the first free one).  The table starts small and
// grows once half its slots are taken, or a window is full: a small search touches a few pages
// instead of faulting in the whole bound (a 256 MB table allocated at once made Qubic 3x3x3's
// search of 80,000 positions 25 times slower).  While it grows, the old and the new array are
// both allocated, so the steps are sized for their sum to stay within the bound: it doubles while
// it is below a sixteenth of the bound, and the last step takes what the bound leaves beside the
// old array (the table ends at 7/8 of the bound or more: a million positions of 192 cells in 64 MB).  Then replacement: a new position takes the slot of its window whose
// subtree cost the fewest positions.
constexpr uint64_t WINDOW = 16;

// Zeroed memory for the table: a large array is mapped directly and asked for transparent huge
// pages (where the kernel gives them on request, as here: "madvise" mode), a small one comes from
// calloc.  A page fault zeroes one page, and on this VM a 4 KB fault costs about 5 us: a 224 MB
// table faulted in 4 KB pages took 0.3 s, about 57,000 faults, against one per 2 MB.
class Memory {
  public:
    Memory() = default;
    explicit Memory(size_t bytes) : bytes_(bytes) {
        if (bytes >= (size_t(2) << 20)) {
            void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return;
#ifdef MADV_HUGEPAGE
            madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused, the table works in small pages
#endif
            p_ = p;
            mapped_ = true;
        } else {
            p_ = std::calloc(bytes, 1);
        }
    }
    ~Memory() { release(); }
    Memory(Memory &&o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(o.bytes_), mapped_(o.mapped_) {}
    Memory &operator=(Memory &&o) noexcept {
        if (this != &o) {
            release();
            p_ = std::exchange(o.p_, nullptr);
            bytes_ = o.bytes_;
            mapped_ = o.mapped_;
        }
        return *this;
    }
    Memory(const Memory &) = delete;
    Memory &operator=(const Memory &) = delete;
    void *get() const { return p_; }

  private:
    void release() {
        if (!p_) return;
        if (mapped_)
            munmap(p_, bytes_);
        else
            std::free(p_);
        p_ = nullptr;
    }
    void *p_ = nullptr;
    size_t bytes_ = 0;
    bool mapped_ = false;
};

template <int W>
class Table {
  public:
    struct Entry {
        Bits<W> b, w;
        uint32_t work;   // positions expanded below this one (saturating): what evicting it costs
        uint32_t value;  // 0: free, 1: Black does not win, 2: Black wins
    };
    static constexpr uint64_t FIRST_SLOTS = 1 << 10;

    explicit Table(uint64_t bytes) {
        bound_entries_ = bytes / sizeof(Entry);
        // the old and the new array live together while the table doubles: their slots and
        // windows within the bound
        cap_ = bound_entries_ > 3 * WINDOW ? bound_entries_ - 2 * WINDOW : WINDOW;
        slots_ = cap_ < FIRST_SLOTS ? cap_ : FIRST_SLOTS;
        memory_ = allocate(slots_);
        entries_ = static_cast<Entry *>(memory_.get());
    }
    bool ok() const { return entries_ != nullptr; }
    uint64_t entries() const { return slots_ + WINDOW; }
    uint64_t bytes() const { return entries() * sizeof(Entry); }
    uint64_t max_bytes() const { return bound_entries_ * sizeof(Entry); }
    uint64_t lost_in_growth() const { return lost_; }
    // Ask the memory for h's home slot ahead of the probe (a hint: no effect on any value).
    void prefetch(uint64_t h) const { __builtin_prefetch(home(h)); }

    // 0: unknown, else 1 + Black wins
    int probe(const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        const Entry *e = home(h);
        for (uint64_t k = 0; k < WINDOW && e[k].value; k++)
            if (e[k].b == b && e[k].w == w) return int(e[k].value);
        return 0;
    }

    // true when another position's entry was evicted
    bool store(const Bits<W> &b, const Bits<W> &w, uint64_t h, bool wins, uint64_t work) {
        if (2 * (used_ + 1) > slots_ && growable()) grow();
        Entry *slot = free_slot(b, w, h);
        if (!slot && growable() && grow()) slot = free_slot(b, w, h);
        bool evicted = slot == nullptr;
        if (evicted) slot = cheapest(h);
        else if (!slot->value) used_++;
        fill(slot, b, w, wins ? 2 : 1, work > 0xffffffffu ? 0xffffffffu : uint32_t(work));
        return evicted;
    }

    // the hash of a stored position, recomputed when the table doubles
    uint64_t (*rehash)(const void *owner, const Bits<W> &b, const Bits<W> &w) = nullptr;
    const void *owner = nullptr;

  private:
    static Memory allocate(uint64_t slots) { return Memory((slots + WINDOW) * sizeof(Entry)); }
    static void fill(Entry *slot, const Bits<W> &b, const Bits<W> &w, uint32_t value, uint32_t work) {
        slot->b = b;
        slot->w = w;
        slot->work = work;
        slot->value = value;
    }
    Entry *home(uint64_t h) const {  // by multiply-high: any slot count, no modulo
        return entries_ + uint64_t((static_cast<unsigned __int128>(h) * slots_) >> 64);
    }
    Entry *free_slot(const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        Entry *e = home(h);
        for (uint64_t k = 0; k < WINDOW; k++)
            if (!e[k].value || (e[k].b == b && e[k].w == w)) return &e[k];
        return nullptr;
    }
    Entry *cheapest(uint64_t h) const {
        Entry *e = home(h), *slot = &e[0];
        for (uint64_t k = 1; k < WINDOW; k++)
            if (e[k].work < slot->work) slot = &e[k];
        return slot;
    }

    // Double the slots (up to the bound) and move every entry; false when memory is refused
    // (the table then stays at its size and replaces from then on).
    bool grow() {
        // double while the table is small against the bound; then one last step takes what the
        // bound leaves beside the old array (7/8 of the bound or more, then)
        uint64_t more = 16 * slots_ <= cap_ ? 2 * slots_ : cap_ - slots_;
        Memory bigger = allocate(more);
        if (!bigger.get()) {
            cap_ = slots_;
            return false;
        }
        Memory kept = std::move(memory_);  // freed when the entries have moved
        const Entry *old = entries_;
        uint64_t old_entries = slots_ + WINDOW;
        memory_ = std::move(bigger);
        entries_ = static_cast<Entry *>(memory_.get());
        slots_ = more;
        used_ = 0;
        for (uint64_t i = 0; i < old_entries; i++) {
            const Entry &e = old[i];
            if (!e.value) continue;
            uint64_t h = rehash(owner, e.b, e.w);
            Entry *slot = free_slot(e.b, e.w, h);
            if (!slot) {
                slot = cheapest(h);
                lost_++;
            } else {
                used_++;
            }
            *slot = e;
        }
        return true;
    }

    bool growable() const { return cap_ > 2 * slots_; }  // a step would add slots

    uint64_t slots_, cap_, bound_entries_;
    uint64_t used_ = 0;
    uint64_t lost_ = 0;  // entries that found no slot while moving: counted as evictions
    Memory memory_;
    Entry *entries_ = nullptr;
};

uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

template <int W>
class Search {
    using B = Bits<W>;

  public:
    Search(const GameSpec &s, uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
           uint64_t check_every)
        : n_(s.cells), depth_(int(s.black_turn.size())), black_turn_(s.black_turn), hex_(s.hex),
          max_positions_(max_positions), check_(check), context_(context), check_every_(check_every ? check_every : 1),
          table_(table_bytes) {
        full_ = B::zero();
        for (int c = 0; c < n_; c++) full_.set(c);
        for (size_t i = 0; i + 1 < s.black_set_offsets.size(); i++)
            black_sets_.push_back(B::of(s.black_set_cells.data() + s.black_set_offsets[i],
                                        s.black_set_offsets[i + 1] - s.black_set_offsets[i]));
        for (size_t i = 0; i + 1 < s.white_set_offsets.size(); i++)
            white_sets_.push_back(B::of(s.white_set_cells.data() + s.white_set_offsets[i],
                                        s.white_set_offsets[i + 1] - s.white_set_offsets[i]));
        b0_ = B::of(s.black_initials.data(), int(s.black_initials.size()));
        w0_ = B::of(s.white_initials.data(), int(s.white_initials.size()));
        first_ = s.has_first_moves ? B::of(s.first_moves.data(), int(s.first_moves.size())) : full_;
        start_count_ = (b0_ | w0_).count();
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
        for (int t = 0; t < depth_; t++)
            one_stone_.push_back(s.threats && t + 1 < depth_ && black_turn_[t + 1] != black_turn_[t]);
        table_.rehash = &Search::hash_of;
        table_.owner = this;
    }

    SearchReport run() {
        SearchReport report;
        report.words = W;
        report.entry_bytes = int(sizeof(typename Table<W>::Entry));
        report.table_bound_bytes = table_.max_bytes();
        if (!table_.ok()) {
            report.status = 3;
            return report;
        }
        int r;
        if (white_won(w0_)) {
            r = 0;
        } else if (black_won(b0_)) {
            r = 1;
        } else {
            r = value(b0_, w0_, hash_of(this, b0_, w0_), 0);
        }
        report.status = r < 0 ? status_ : 0;
        report.black_wins = r == 1;
        report.first_move = r == 1 ? first_move_ : -1;
        report.positions = positions_;
        report.table_hits = hits_;
        report.table_stores = stores_;
        report.replacements = replacements_ + table_.lost_in_growth();
        report.table_entries = table_.entries();
        report.table_bytes = table_.bytes();
        return report;
    }

  private:
    static uint64_t hash_of(const void *owner, const B &b, const B &w) {
        const Search *self = static_cast<const Search *>(owner);
        uint64_t h = 0;
        for (int i = 0; i < W; i++) {
            for (uint64_t x = b.w[i]; x; x &= x - 1) h ^= self->zobrist_black_[i * 64 + __builtin_ctzll(x)];
            for (uint64_t x = w.w[i]; x; x &= x - 1) h ^= self->zobrist_white_[i * 64 + __builtin_ctzll(x)];
        }
        return h;
    }

    // Black's value at (b, w), the t-th time point; -1 when the search stops (budget, check).
    int value(const B &b, const B &w, uint64_t h, int t) {
        int known = table_.probe(b, w, h);
        if (known) {
            hits_++;
            return known - 1;
        }
        if (++positions_ > max_positions_) {
            status_ = 1;
            return -1;
        }
        if (check_ && positions_ % check_every_ == 0 && check_(context_)) {
            status_ = 2;
            return -1;
        }
        uint64_t before = positions_;
        int r = 0;
        if (t < depth_) {
            B open = full_.minus(b | w);
            if (t == 0) open = open & first_;
            // the children's table slots are fetched while this position's goals are read
            const std::vector<uint64_t> &keys = black_turn_[t] ? zobrist_black_ : zobrist_white_;
            for (int i = 0; i < W; i++)
                for (uint64_t x = open.w[i]; x; x &= x - 1) table_.prefetch(h ^ keys[i * 64 + __builtin_ctzll(x)]);
            r = black_turn_[t] ? black_to_move(b, w, h, t, open) : white_to_move(b, w, h, t, open);
            if (r < 0) return -1;
        }
        stores_++;
        replacements_ += table_.store(b, w, h, r == 1, positions_ - before + 1);
        return r;
    }

    int black_to_move(const B &b, const B &w, uint64_t h, int t, const B &open) {
        B wins = black_completing(b, open);
        if (wins.any()) {  // a completing claim: the value needs no child
            if (t == 0) first_move_ = wins.lowest();
            return 1;
        }
        B claims = open;
        if (one_stone_[t]) {  // White's threats: two lose, one must be blocked (if Black may take it)
            B threats = white_completing(w, full_.minus(b | w));
            if (threats.any() && (!threats.single() || !threats.meets(open))) return 0;
            if (threats.any()) claims = threats;
        }
        for (int i = 0; i < W; i++) {
            for (uint64_t x = claims.w[i]; x; x &= x - 1) {
                int c = i * 64 + __builtin_ctzll(x);
                B b2 = b;
                b2.set(c);
                int r = value(b2, w, h ^ zobrist_black_[c], t + 1);
                if (r != 0) {
                    if (r == 1 && t == 0) first_move_ = c;
                    return r;
                }
            }
        }
        return 0;
    }

    int white_to_move(const B &b, const B &w, uint64_t h, int t, const B &open) {
        if (white_completes(w, open)) return 0;
        // White's blocks of Black's completing cells first, then the other cells, each in file order
        B blocks = black_completing(b, open);
        B rest = open.minus(blocks);
        if (one_stone_[t] && open.any()) {  // Black's threats: two win, one must be blocked (if White may take it)
            B threats = black_completing(b, full_.minus(b | w));
            if (threats.any() && (!threats.single() || !threats.meets(open))) return 1;
            if (threats.any()) {
                blocks = threats;
                rest = B::zero();
            }
        }
        for (const B *part : {&blocks, &rest}) {
            for (int i = 0; i < W; i++) {
                for (uint64_t x = part->w[i]; x; x &= x - 1) {
                    int c = i * 64 + __builtin_ctzll(x);
                    B w2 = w;
                    w2.set(c);
                    int r = value(b, w2, h ^ zobrist_white_[c], t + 1);
                    if (r != 1) return r;
                }
            }
        }
        return open.any() ? 1 : 0;  // no open cell: the game is over and Black has not won
    }

    // The open cells whose claim completes a Black goal.
    B black_completing(const B &b, const B &open) const {
        if (hex_) {
            // a claim joins the borders when it touches (or lies on) both the start border's
            // group and the end border's group
            B near_start = start_border_, near_end = end_border_;
            flood(b & start_border_, b, near_start);
            flood(b & end_border_, b, near_end);
            return open & near_start & near_end;
        }
        B found = B::zero();
        for (const B &m : black_sets_) {
            B missing = m.minus(b);
            if (missing.single() && missing.meets(open)) found |= missing;
        }
        return found;
    }

    // Does some open cell complete a White set?
    bool white_completes(const B &w, const B &open) const {
        for (const B &m : white_sets_) {
            B missing = m.minus(w);
            if (missing.single() && missing.meets(open)) return true;
        }
        return false;
    }

    // The open cells whose claim completes a White set.
    B white_completing(const B &w, const B &open) const {
        B found = B::zero();
        for (const B &m : white_sets_) {
            B missing = m.minus(w);
            if (missing.single() && missing.meets(open)) found |= missing;
        }
        return found;
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

    // The cells of `within` connected to `seeds`; `near` gathers their neighbours.
    B flood(const B &seeds, const B &within, B &near) const {
        B reach = seeds, todo = seeds;
        for (int c = todo.lowest(); c >= 0; c = todo.lowest()) {
            todo.w[c >> 6] &= ~(uint64_t(1) << (c & 63));
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
    Table<W> table_;
    B full_, b0_, w0_, first_, start_border_, end_border_;
    int start_count_ = 0;
    std::vector<B> black_sets_, white_sets_, neighbours_;
    std::vector<uint8_t> one_stone_;  // per time point: the threats apply (the mover claims one cell, then the other side)
    std::vector<uint64_t> zobrist_black_, zobrist_white_;
    uint64_t positions_ = 0, hits_ = 0, stores_ = 0, replacements_ = 0;
    int status_ = 0;
    int first_move_ = -1;
};

template <int W>
SearchReport solve_with(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                        void *context, uint64_t check_every) {
    Search<W> search(spec, max_positions, table_bytes, check, context, check_every);
    return search.run();
}

bool lists_ok(const std::vector<int> &offsets, const std::vector<int> &items, int cells) {
    if (offsets.empty() || offsets[0] != 0 || size_t(offsets.back()) != items.size()) return false;
    for (size_t i = 0; i + 1 < offsets.size(); i++)
        if (offsets[i] > offsets[i + 1]) return false;
    for (int c : items)
        if (c < 0 || c >= cells) return false;
    return true;
}

bool cells_ok(const std::vector<int> &items, int cells) {
    for (int c : items)
        if (c < 0 || c >= cells) return false;
    return true;
}

}  // namespace

const char *check_spec(const GameSpec &s) {
    if (s.cells < 0 || s.cells > MAX_CELLS) return "the board has more cells than the core takes (384)";
    if (!lists_ok(s.black_set_offsets, s.black_set_cells, s.cells)) return "bad Black winning sets";
    if (!lists_ok(s.white_set_offsets, s.white_set_cells, s.cells)) return "bad White winning sets";
    if (!cells_ok(s.black_initials, s.cells) || !cells_ok(s.white_initials, s.cells)) return "bad initial stones";
    if (!cells_ok(s.first_moves, s.cells)) return "bad first moves";
    if (s.hex) {
        if (s.neighbour_offsets.size() != size_t(s.cells) + 1 || !lists_ok(s.neighbour_offsets, s.neighbour_cells, s.cells))
            return "bad neighbours";
        if (!cells_ok(s.start_border, s.cells) || !cells_ok(s.end_border, s.cells)) return "bad borders";
    }
    return "";
}

int entry_bytes_for(int cells) {
    if (cells <= 64) return int(sizeof(Table<1>::Entry));
    if (cells <= 128) return int(sizeof(Table<2>::Entry));
    if (cells <= 192) return int(sizeof(Table<3>::Entry));
    return int(sizeof(Table<6>::Entry));
}

SearchReport solve_plain(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                         void *context, uint64_t check_every) {
    if (spec.cells <= 64) return solve_with<1>(spec, max_positions, table_bytes, check, context, check_every);
    if (spec.cells <= 128) return solve_with<2>(spec, max_positions, table_bytes, check, context, check_every);
    if (spec.cells <= 192) return solve_with<3>(spec, max_positions, table_bytes, check, context, check_every);
    return solve_with<6>(spec, max_positions, table_bytes, check, context, check_every);
}

}  // namespace bddlc
