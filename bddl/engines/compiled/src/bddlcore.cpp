// The compiled minimax for BDDL games (bddlcore.hpp says what it answers).  Everything a search
// needs lives in one `BddlSearch` made per call: no global state.
#include "bddlcore.hpp"

#include <memory>
#include <vector>

namespace bddlc {
namespace {

constexpr uint64_t BDDL_WINDOW = 16;
constexpr uint16_t NO_WIN = 0xFFFF;  // no depth known to win (r <= BDDL_MAX_DEPTH < NO_WIN)

// The table of the BDDL minimax: entries keyed by (black to move, b, w), each with the smallest r
// Black is known to win with and the largest r it is known to lose with (monotonicity: a win
// stays a win with more plies, a loss with fewer).  Memory as pgcore's `Table` (which says why):
// open addressing in windows of 16 slots, growing within the bound (fourfold while below a 64th
// of it, doubling while below a sixteenth, then one last step to 7/8 of it or more), then
// replacing the entry of the window whose subtree cost the fewest positions.  An entry is two
// bitboards and 8 bytes: 24 bytes up to 64 cells, so a million positions take 24 MB (56 MB up
// to 192 cells); beside the entries, a bit per slot says whether it is filled (`filled_`).
template <int W>
class BddlTable {
  public:
    struct Entry {
        Bits<W> b, w;
        uint32_t side_work;  // bit 31: Black to move; bits 0-30: positions below it (saturating)
        uint16_t win;        // 0: a free slot; NO_WIN: none known
        uint16_t loss;       // 0: none known
        bool black_to_move() const { return side_work >> 31; }
        uint32_t work() const { return side_work & 0x7fffffffu; }
    };
    static constexpr uint64_t FIRST_SLOTS = 1 << 10;

    explicit BddlTable(uint64_t bytes) {
        bound_entries_ = Memory::within(bytes) / sizeof(Entry);
        cap_ = bound_entries_ > 3 * BDDL_WINDOW ? bound_entries_ - 2 * BDDL_WINDOW : BDDL_WINDOW;
        slots_ = cap_ < FIRST_SLOTS ? cap_ : FIRST_SLOTS;
        memory_ = allocate(slots_);
        entries_ = static_cast<Entry *>(memory_.get());
        filled_.assign(words_for_slots(slots_), 0);
    }
    bool ok() const { return entries_ != nullptr; }
    uint64_t entries() const { return slots_ + BDDL_WINDOW; }
    uint64_t bytes() const { return entries() * sizeof(Entry); }
    uint64_t max_bytes() const { return bound_entries_ * sizeof(Entry); }
    uint64_t lost_in_growth() const { return lost_; }
    // Fetched even where the home slot is free (`filled_` says so without it): the store that
    // follows writes the line, and fetching only filled windows measured slower.
    void prefetch(uint64_t h) const { __builtin_prefetch(home(h)); }

    const Entry *find(bool black, const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        uint64_t i = home_index(h);
        if (!filled(i)) return nullptr;  // the window's entries start at its home slot
        const Entry *e = entries_ + i;
        for (uint64_t k = 0; k < BDDL_WINDOW && e[k].win; k++)
            if (e[k].black_to_move() == black && e[k].b == b && e[k].w == w) return &e[k];
        return nullptr;
    }

    // Keeps that Black wins (or not) with r plies left; true when another entry was evicted.
    bool store(bool black, const Bits<W> &b, const Bits<W> &w, uint64_t h, int r, bool wins, uint64_t work) {
        if (2 * (used_ + 1) > slots_ && growable()) grow();
        Entry *slot = free_slot(black, b, w, h);
        if (!slot && growable() && grow()) slot = free_slot(black, b, w, h);
        bool evicted = slot == nullptr;
        if (evicted) slot = cheapest(h);
        if (evicted || !filled(uint64_t(slot - entries_))) {
            if (!evicted) fill(uint64_t(slot - entries_));
            slot->b = b;
            slot->w = w;
            slot->win = NO_WIN;
            slot->loss = 0;
            slot->side_work = 0;
        }
        if (wins) {
            if (r < slot->win) slot->win = uint16_t(r);
        } else if (r > slot->loss) {
            slot->loss = uint16_t(r);
        }
        uint64_t total = work + slot->work();
        slot->side_work = (black ? 0x80000000u : 0u) | (total > 0x7fffffffu ? 0x7fffffffu : uint32_t(total));
        return evicted;
    }

    // the hash of a stored position, recomputed when the table grows
    uint64_t (*rehash)(const void *owner, bool black, const Bits<W> &b, const Bits<W> &w) = nullptr;
    const void *owner = nullptr;

  private:
    static Memory allocate(uint64_t slots) { return Memory((slots + BDDL_WINDOW) * sizeof(Entry)); }
    static size_t words_for_slots(uint64_t slots) { return size_t((slots + BDDL_WINDOW + 63) / 64); }
    uint64_t home_index(uint64_t h) const { return uint64_t((static_cast<unsigned __int128>(h) * slots_) >> 64); }
    Entry *home(uint64_t h) const { return entries_ + home_index(h); }
    bool filled(uint64_t i) const { return (filled_[size_t(i >> 6)] >> (i & 63)) & 1; }
    void fill(uint64_t i) {
        filled_[size_t(i >> 6)] |= uint64_t(1) << (i & 63);
        used_++;
    }
    // The slot holding the position, else the window's first free one, else null.  A free home
    // slot is known without reading the table (a write to it need not wait for its line).
    Entry *free_slot(bool black, const Bits<W> &b, const Bits<W> &w, uint64_t h) const {
        uint64_t i = home_index(h);
        Entry *e = entries_ + i;
        if (!filled(i)) return e;
        for (uint64_t k = 0; k < BDDL_WINDOW; k++)
            if (!filled(i + k) || (e[k].black_to_move() == black && e[k].b == b && e[k].w == w)) return &e[k];
        return nullptr;
    }
    Entry *cheapest(uint64_t h) const {
        Entry *e = home(h), *slot = &e[0];
        for (uint64_t k = 1; k < BDDL_WINDOW; k++)
            if (e[k].work() < slot->work()) slot = &e[k];
        return slot;
    }
    bool grow() {
        // fourfold while far below the bound: a small search's table grows a few times and each
        // growth rehashes every entry (a sixth of a 6,000-position search when doubling); the
        // same sizes as doubling from a 64th of the bound on
        uint64_t more = 64 * slots_ <= cap_ ? 4 * slots_ : 16 * slots_ <= cap_ ? 2 * slots_ : cap_ - slots_;
        Memory bigger = allocate(more);
        if (!bigger.get()) {
            cap_ = slots_;
            return false;
        }
        Memory kept = std::move(memory_);
        const Entry *old = entries_;
        uint64_t old_entries = slots_ + BDDL_WINDOW;
        memory_ = std::move(bigger);
        entries_ = static_cast<Entry *>(memory_.get());
        slots_ = more;
        used_ = 0;
        filled_.assign(words_for_slots(slots_), 0);
        for (uint64_t i = 0; i < old_entries; i++) {
            const Entry &e = old[i];
            if (!e.win) continue;
            uint64_t h = rehash(owner, e.black_to_move(), e.b, e.w);
            Entry *slot = free_slot(e.black_to_move(), e.b, e.w, h);
            if (!slot) {
                slot = cheapest(h);
                lost_++;
            } else {
                fill(uint64_t(slot - entries_));
            }
            *slot = e;
        }
        return true;
    }
    bool growable() const { return cap_ > 2 * slots_; }

    uint64_t slots_, cap_, bound_entries_;
    uint64_t used_ = 0;
    uint64_t lost_ = 0;
    Memory memory_;
    Entry *entries_ = nullptr;
    // A bit per slot, set when the slot is filled (slots are never emptied but by a growth,
    // which starts afresh): a slot's state without its table line, which the search would wait
    // for.  1/192 of the entries' bytes, kept beside them, near at hand in the caches.
    std::vector<uint64_t> filled_;
};

template <int W>
class BddlSearch {
    using B = Bits<W>;
    using Board = std::pair<B, B>;
    using Child = typename BddlGame<W>::Child;

  public:
    BddlSearch(const BddlSpec &s, int depth, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
               void *context, uint64_t check_every, const BddlKnowledge *knowledge)
        : game_(s), black_first_(s.black_first), depth_(depth), max_positions_(max_positions), check_(check),
          context_(context), check_every_(check_every ? check_every : 1), table_(table_bytes) {
        if (knowledge && knowledge->verdict) knowledge_ = *knowledge;
        uint64_t seed = 0x73696465ULL;  // "side"
        side_key_ = splitmix64(seed);
        table_.rehash = &BddlSearch::rehash;
        table_.owner = this;
        children_.resize(size_t(depth > 0 ? depth : 0) + 1);
    }
    BddlSearch(const BddlSearch &) = delete;  // the table holds `this`
    BddlSearch &operator=(const BddlSearch &) = delete;

    BddlReport run() {
        if (!table_.ok()) {
            BddlReport report = shape();
            report.status = 3;
            return report;
        }
        const B &b0 = game_.initial_black(), &w0 = game_.initial_white();
        bool wins = false;
        int first = -1;
        if (depth_ < 1) {
            wins = false;
        } else if (black_first_) {
            // bddl.engines.minimax.first_winning_move: a win at once, else the first move after
            // which Black wins (Game.moves' list: every outcome, duplicates kept)
            std::vector<Board> moves;
            game_.all_successors(true, b0, w0, moves);
            for (size_t i = 0; i < moves.size() && first < 0; i++)
                if (game_.won(true, moves[i].first, moves[i].second)) first = int(i);
            for (size_t i = 0; i < moves.size() && first < 0 && depth_ > 1; i++) {
                const Board &m = moves[i];
                // no move above won at once: Black's goal does not hold after any
                bool v = value(false, m.first, m.second, game_.hash(m.first, m.second), depth_ - 1, -1, true);
                if (stopped_) break;
                if (v) first = int(i);
            }
            wins = first >= 0;
        } else {
            wins = value(false, b0, w0, game_.hash(b0, w0), depth_, -1, false);
        }
        BddlReport report = totals();
        report.status = stopped_ ? status_ : 0;
        report.black_wins = !stopped_ && wins;
        report.first_move = stopped_ ? -1 : first;
        return report;
    }

    // One question of a persistent searcher (BddlSearcher): Minimax.black_wins on this search's
    // table, counting on from the positions of the questions before, within `budget` more.
    // Returns the status (0 decided, 1 the budget ran out, 2 interrupted) and sets `wins`.
    int ask(bool black, const B &b, const B &w, int r, uint64_t budget, StopCheck check, void *context,
            uint64_t check_every, bool &wins) {
        wins = false;
        stopped_ = false;
        status_ = 0;
        check_ = check;
        context_ = context;
        check_every_ = check_every ? check_every : 1;
        next_check_ = (positions_ / check_every_ + 1) * check_every_;
        max_positions_ = positions_ + budget < positions_ ? ~uint64_t(0) : positions_ + budget;
        if (r < 1) return 0;  // Minimax.black_wins: no plies left, Black has not won
        if (r > BDDL_MAX_DEPTH) r = BDDL_MAX_DEPTH;  // the wrapper refuses deeper questions first
        if (children_.size() < size_t(r) + 1) children_.resize(size_t(r) + 1);
        bool v = value(black, b, w, game_.hash(b, w), r, -1, false);
        wins = !stopped_ && v;
        return stopped_ ? status_ : 0;
    }

    // The totals so far (positions, hits, the table), as `run`'s report without a verdict.
    BddlReport totals() const {
        BddlReport report = shape();
        report.positions = positions_;
        report.knowledge_hits = knowledge_hits_;
        report.table_hits = hits_;
        report.table_stores = stores_;
        report.replacements = replacements_ + table_.lost_in_growth();
        report.table_entries = table_.entries();
        report.table_bytes = table_.bytes();
        return report;
    }
    bool ok() const { return table_.ok(); }

    // What a report says of the board and the table before any search: its words, its entries' size, its bound.
    BddlReport shape() const {
        BddlReport report;
        report.words = W;
        report.entry_bytes = int(sizeof(typename BddlTable<W>::Entry));
        report.table_bound_bytes = table_.max_bytes();
        return report;
    }

  private:
    static uint64_t rehash(const void *owner, bool black, const B &b, const B &w) {
        const BddlSearch *self = static_cast<const BddlSearch *>(owner);
        return self->game_.hash(b, w) ^ (black ? self->side_key_ : 0);
    }

    // Does Black win with r >= 1 plies left?  h: the board's key (without the side).  Once the
    // search is stopped (`stopped_`) every answer is meaningless and nothing more is stored.
    // What the caller knows of the goals, so that they are not read again: `rival_clear`, the
    // rival's goal does not hold here (the caller read it, or the position is a child the
    // caller tested); `made_by` (-1: unknown), the rival's outcome that made this board from one
    // where the mover's goal did not hold (the caller's own `rival_clear`).
    bool value(bool black, const B &b, const B &w, uint64_t h, int r, int made_by, bool rival_clear) {
        uint64_t key = h ^ (black ? side_key_ : 0);
        if (const auto *e = table_.find(black, b, w, key)) {
            if (r >= e->win) {
                hits_++;
                return true;
            }
            if (r <= e->loss) {
                hits_++;
                return false;
            }
        }
        if (knowledge_.verdict) {
            int v = knowledge_.verdict(knowledge_.context, black, b.w, w.w, r);
            if (v >= 0) {
                knowledge_hits_++;
                return v == 1;
            }
        }
        if (++positions_ > max_positions_) return stop(1);
        if (positions_ == next_check_) {  // every check_every_ positions (a division per position cost more)
            next_check_ += check_every_;
            if (check_ && check_(context_)) return stop(2);
        }
        uint64_t before = positions_;
        if (r == 1 && !black) {  // White stuck loses; else Black has not won: White's moves need not be made
            bool stuck = game_.legal_count(false, b, w) == 0;
            stores_++;
            replacements_ += table_.store(black, b, w, key, r, stuck, 1);
            return stuck;
        }
        if (r == 1 && black) {  // Black wins now or not at all: its moves need not be listed
            bool parent_won = made_by >= 0 ? game_.won_after_rival(true, made_by, b, w) : game_.won(true, b, w);
            bool wins = game_.wins_at_once(true, parent_won, b, w);
            stores_++;
            replacements_ += table_.store(black, b, w, key, r, wins, 1);
            return wins;
        }
        std::vector<Child> &children = children_[size_t(r)];
        children.clear();
        // each child's table slot is fetched as it is listed: the first child's probe comes
        // right after the listing and would wait on memory (a probe that misses the cache was
        // the most time of any one instruction); the others' wait behind the first's subtree
        uint64_t child_side = black ? 0 : side_key_;
        game_.expand(black, b, w, h, children, [&](uint64_t key) BDDLC_INLINE { table_.prefetch(key ^ child_side); });
        bool result = !black;  // the mover loses unless a successor wins for it (stuck: none)
        bool decided = children.empty();
        if (!decided && game_.has_goals(black)) {
            bool parent_won = made_by >= 0 ? game_.won_after_rival(black, made_by, b, w) : game_.won(black, b, w);
            for (const Child &c : children)
                if (game_.won_after(black, parent_won, c.outcome, c.b, c.w)) {
                    result = black;
                    decided = true;
                    break;
                }
        }
        if (!decided) {  // r >= 2 here: the last ply returned above
            bool child = !black;
            for (size_t i = 0; i < children.size(); i++) {
                const Child &c = children[i];
                // the next child's slot again: fetched at the listing, it may have left the
                // nearer caches during this child's subtree
                if (i + 1 < children.size()) table_.prefetch(children[i + 1].key ^ child_side);
                // the list of r - 1 plies is another; no child completed the mover's goal
                bool v = value(child, c.b, c.w, c.key, r - 1, rival_clear ? c.outcome : -1, true);
                if (stopped_) return false;
                if (v == black) {
                    result = black;
                    break;
                }
            }
        }
        stores_++;
        replacements_ += table_.store(black, b, w, key, r, result, positions_ - before + 1);
        return result;
    }

    bool stop(int status) {
        stopped_ = true;
        status_ = status;
        return false;
    }

    BddlGame<W> game_;
    bool black_first_;
    int depth_;
    uint64_t max_positions_;
    StopCheck check_;
    void *context_;
    uint64_t check_every_;
    uint64_t next_check_ = check_every_;  // the next multiple of check_every_ (`check_` is called there)
    BddlKnowledge knowledge_;
    BddlTable<W> table_;
    uint64_t side_key_ = 0;
    // per r: the successors of the position being expanded with r plies left
    std::vector<std::vector<Child>> children_;
    uint64_t positions_ = 0, knowledge_hits_ = 0, hits_ = 0, stores_ = 0, replacements_ = 0;
    bool stopped_ = false;
    int status_ = 0;
};

template <int W>
BddlReport solve_on(const BddlSpec &spec, int depth, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                    void *context, uint64_t check_every, const BddlKnowledge *knowledge) {
    // the search holds its per-ply lists and the table: on the heap, not on the caller's stack
    std::unique_ptr<BddlSearch<W>> search(
        new BddlSearch<W>(spec, depth, max_positions, table_bytes, check, context, check_every, knowledge));
    return search->run();
}

// The persistent searcher on W words: the race knowledge (when on) plugged into the minimax's
// knowledge hook, and one BddlSearch whose table lives as long as the searcher.
template <int W>
class Searcher final : public BddlSearcher {
    using B = Bits<W>;

  public:
    Searcher(const BddlSpec &spec, const RaceSpec &race, uint64_t table_bytes) : race_(race) {
        BddlKnowledge hook;
        if (race_.on()) {
            hook.verdict = &Searcher::race_verdict;
            hook.context = &race_;
        }
        search_.reset(new BddlSearch<W>(spec, 0, 0, table_bytes, nullptr, nullptr, 1, &hook));
    }
    bool ok() const override { return search_->ok(); }
    BddlAnswer ask(bool black_to_move, const uint64_t *b, const uint64_t *w, int r, uint64_t budget, StopCheck check,
                   void *context, uint64_t check_every) override {
        B bb, ww;
        for (int i = 0; i < W; i++) {
            bb.w[i] = b[i];
            ww.w[i] = w[i];
        }
        BddlAnswer answer;
        uint64_t before = search_->totals().positions;
        answer.status = search_->ask(black_to_move, bb, ww, r, budget, check, context, check_every, answer.black_wins);
        answer.positions = search_->totals().positions - before;
        return answer;
    }
    BddlReport totals() const override { return search_->totals(); }

  private:
    static int race_verdict(void *context, bool black_to_move, const uint64_t *b, const uint64_t *w, int r) {
        B bb, ww;
        for (int i = 0; i < W; i++) {
            bb.w[i] = b[i];
            ww.w[i] = w[i];
        }
        return static_cast<const RaceKnowledge<W> *>(context)->verdict(black_to_move, bb, ww, r);
    }

    RaceKnowledge<W> race_;  // before search_: the hook's context
    std::unique_ptr<BddlSearch<W>> search_;
};

}  // namespace

BddlSearcher *new_bddl_searcher(const BddlSpec &spec, const RaceSpec &race, uint64_t table_bytes) {
    switch (words_for(spec.cells)) {
        case 1: return new Searcher<1>(spec, race, table_bytes);
        case 2: return new Searcher<2>(spec, race, table_bytes);
        case 3: return new Searcher<3>(spec, race, table_bytes);
        default: return new Searcher<6>(spec, race, table_bytes);
    }
}

BddlReport solve_bddl(const BddlSpec &spec, int depth, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                      void *context, uint64_t check_every, const BddlKnowledge *knowledge) {
    if (depth > BDDL_MAX_DEPTH) depth = BDDL_MAX_DEPTH;  // the wrapper refuses deeper searches first
    switch (words_for(spec.cells)) {
        case 1: return solve_on<1>(spec, depth, max_positions, table_bytes, check, context, check_every, knowledge);
        case 2: return solve_on<2>(spec, depth, max_positions, table_bytes, check, context, check_every, knowledge);
        case 3: return solve_on<3>(spec, depth, max_positions, table_bytes, check, context, check_every, knowledge);
        default: return solve_on<6>(spec, depth, max_positions, table_bytes, check, context, check_every, knowledge);
    }
}

int bddl_entry_bytes_for(int cells) {
    switch (words_for(cells)) {
        case 1: return int(sizeof(BddlTable<1>::Entry));
        case 2: return int(sizeof(BddlTable<2>::Entry));
        case 3: return int(sizeof(BddlTable<3>::Entry));
        default: return int(sizeof(BddlTable<6>::Entry));
    }
}

}  // namespace bddlc
