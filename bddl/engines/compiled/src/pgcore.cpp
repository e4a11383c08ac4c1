// The compiled core's search for .pg games (pgcore.hpp says what it answers).  Everything a search
// needs lives in one `Search` object made per call: no global state, so concurrent calls from
// several threads or processes never share a table.
#include "pgcore.hpp"
#include "pgrules.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>

namespace bddlc {
namespace {

using namespace pg;

template <int W>
class Search : SearchBase<W> {
    BDDLC_SEARCH_BASE_NAMES;

  public:
    Search(const GameSpec &s, uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
           uint64_t check_every)
        : Base(s, max_positions, table_bytes, check, context, check_every) {
        for (int t = 0; t < depth_; t++)
            one_stone_.push_back(s.threats && t + 1 < depth_ && black_turn_[t + 1] != black_turn_[t]);
        if (hex_) groups_.assign(depth_ + 1, Groups{});
    }

    SearchReport run() {
        SearchReport report;
        if (!this->report_table(report)) return report;
        int r;
        if (white_won(w0_)) {
            r = 0;
        } else if (black_won(b0_)) {
            r = 1;
        } else {
            if (hex_) groups_[0] = groups_of(b0_);
            r = value(b0_, w0_, hash_of(b0_, w0_), 0);
        }
        this->report_result(report, r);
        return report;
    }

  private:
    // Hex: Black's stones joined to each border and the cells next to them (the border's own cells
    // among them), kept per time point along the search's path: a claim that touches neither
    // group leaves them as they are and one that does adds only what it joins, where two floods
    // per position took a fifth of the search's instructions (Hein 08 at 11).  White's claims
    // never change them.
    struct Groups {
        B start, near_start, end, near_end;
    };
    Groups groups_of(const B &b) const {
        Groups g;
        g.near_start = start_border_;
        g.near_end = end_border_;
        g.start = flood(b & start_border_, b, g.near_start);
        g.end = flood(b & end_border_, b, g.near_end);
        return g;
    }
    // The groups after Black claims c (b2: Black's stones with c).
    Groups grown(const Groups &g, int c, const B &b2) const {
        Groups n = g;
        B seed = B::zero();
        seed.set(c);
        if (g.near_start.has(c)) n.start |= flood(seed, b2.minus(g.start), n.near_start);
        if (g.near_end.has(c)) n.end |= flood(seed, b2.minus(g.end), n.near_end);
        return n;
    }

    // Black's value at (b, w), the t-th time point; -1 when the search stops (budget, check).
    int value(const B &b, const B &w, uint64_t h, int t) {
        int known = probe(b, w, h);
        if (known) return known - 1;
        if (!count_position()) return -1;
        uint64_t before = positions_;
        int r = 0;
        if (t < depth_) {
            B open = full_.minus(b | w);
            if (t == 0) open = open & first_;
            r = black_turn_[t] ? black_to_move(b, w, h, t, open) : white_to_move(b, w, h, t, open);
            if (r < 0) return -1;
        }
        store(b, w, h, r, before);
        return r;
    }

    // The children's table slots asked for ahead of their probes, once the position is known to
    // need its children (a position decided by the rules at once would waste a fetch a claim).
    void prefetch_children(const B &b, const B &w, uint64_t h, bool black, const B &claims) const {
        for (int i = 0; i < W; i++)
            for (uint64_t x = claims.w[i]; x; x &= x - 1)
                this->prefetch_child(b, w, h, black, i * 64 + __builtin_ctzll(x));
    }

    int black_to_move(const B &b, const B &w, uint64_t h, int t, const B &open) {
        B wins = black_completing(b, open, t);
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
        prefetch_children(b, w, h, true, claims);
        for (int i = 0; i < W; i++) {
            for (uint64_t x = claims.w[i]; x; x &= x - 1) {
                int c = i * 64 + __builtin_ctzll(x);
                B b2 = b;
                b2.set(c);
                if (t + 1 == depth_) {
                    if (this->visit_leaf(b2, w, h ^ zobrist_black_[c]) < 0) return -1;
                    continue;
                }
                if (hex_) groups_[t + 1] = grown(groups_[t], c, b2);
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
        B blocks = black_completing(b, open, t);
        B rest = open.minus(blocks);
        if (one_stone_[t] && open.any()) {  // Black's threats: two win, one must be blocked (if White may take it)
            B threats = black_completing(b, full_.minus(b | w), t);
            if (threats.any() && (!threats.single() || !threats.meets(open))) return 1;
            if (threats.any()) {
                blocks = threats;
                rest = B::zero();
            }
        }
        if (t + 1 == depth_) {  // White's last claim: the first child, a leaf, is Black's loss
            int c = blocks.any() ? blocks.lowest() : rest.lowest();
            if (c < 0) return 0;  // no open cell: the game is over and Black has not won
            B w2 = w;
            w2.set(c);
            return this->visit_leaf(b, w2, h ^ zobrist_white_[c]);
        }
        prefetch_children(b, w, h, false, blocks | rest);
        for (const B *part : {&blocks, &rest}) {
            for (int i = 0; i < W; i++) {
                for (uint64_t x = part->w[i]; x; x &= x - 1) {
                    int c = i * 64 + __builtin_ctzll(x);
                    B w2 = w;
                    w2.set(c);
                    if (hex_) groups_[t + 1] = groups_[t];
                    int r = value(b, w2, h ^ zobrist_white_[c], t + 1);
                    if (r != 1) return r;
                }
            }
        }
        return open.any() ? 1 : 0;  // no open cell: the game is over and Black has not won
    }

    // The open cells whose claim completes a Black goal.
    B black_completing(const B &b, const B &open, int t) const {
        if (hex_) return open & groups_[t].near_start & groups_[t].near_end;
        return one_short(black_sets_, b, open);
    }

    // Does some open cell complete a White set?
    bool white_completes(const B &w, const B &open) const { return white_completing(w, open).any(); }

    // The open cells whose claim completes a White set.
    B white_completing(const B &w, const B &open) const { return one_short(white_sets_, w, open); }

    // The open cells that complete one of `sets` for the side holding `mine`.  On a board of one
    // word (W == 1) with no branch a set: the sets' tests as branches were half a search's
    // instructions on the animal races (96 sets a side on 5x5) and mispredicted often.
    static B one_short(const std::vector<B> &sets, const B &mine, const B &open) {
        B found = B::zero();
        if constexpr (W == 1) {
            uint64_t have = mine.w[0], free = open.w[0];
            for (const B &m : sets) {
                uint64_t missing = m.w[0] & ~have;  // one cell (x & (x - 1) == 0), or none: complete, which adds nothing
                found.w[0] |= (missing & (missing - 1)) == 0 ? missing & free : 0;
            }
        } else {
            for (const B &m : sets) {
                B missing = m.minus(mine);
                if (missing.single() && missing.meets(open)) found |= missing;
            }
        }
        return found;
    }

    std::vector<Groups> groups_;  // Hex: per time point, the groups of the position the search is at
};

template <int W>
class FullSearch : PgRules<W> {
    BDDLC_SEARCH_BASE_NAMES;
    BDDLC_PG_RULES_NAMES;

  public:
    FullSearch(const GameSpec &s, uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
               uint64_t check_every)
        : Rules(s, max_positions, table_bytes, check, context, check_every),
          carriers_on_(s.carriers && s.relevance), symmetry_after_(s.symmetry_after ? s.symmetry_after : 1) {
        // a carrier's node: the board and its hash, the carrier, the node's link and its bucket
        max_carriers_ = table_bytes / (sizeof(Board<W>) + sizeof(B) + 2 * sizeof(void *));
        // per time point, the cuts and the claims of the position being expanded there
        moves_.assign(depth_ + 1, std::vector<int>());
        cuts_.assign(depth_ + 1, Cuts<W>());
    }

    SearchReport run() {
        SearchReport report;
        if (!this->report_table(report)) return report;
        this->report_result(report, decide());
        report.symmetries_on = symmetries_on_;
        report.lost_causes = lost_causes_;
        report.pairing_searches = pairing_searches_;
        report.carriers_dropped = carriers_dropped_;
        return report;
    }

    // One question of a persistent searcher (PgSearcher): `Minimax.black_wins` of the positional
    // solver's engine at (b, w), the t-th time point, on this search's table, within `budget`
    // more positions.  The value (0, 1; -1 stopped: `status_` says why).
    int ask(const B &b, const B &w, int t, uint64_t budget, StopCheck check, void *context, uint64_t check_every) {
        this->rearm(budget, check, context, check_every);
        if (t < 0 || t >= depth_) return 0;  // no time point left: Black has not won
        return value(b, w, hash_of(b, w), t);
    }
    // `PositionalSolver.decide` at (b, w), the t-th time point (the wrapper settled
    // `decided_at_once`): Black's value, and where Black moves and wins, its first claim in the
    // search's order that wins (`move`, else -1), the claims tried uncounted, as at the root.
    int decide_at(const B &b, const B &w, int t, int &move, uint64_t budget, StopCheck check, void *context,
                  uint64_t check_every) {
        this->rearm(budget, check, context, check_every);
        move = -1;
        if (t < 0 || t >= depth_) return 0;
        if (!black_turn_[t]) return value(b, w, hash_of(b, w), t);
        return first_claim_at(b, w, t, move);
    }

    // `PositionalSolver.refutation` at (b, w), White to move at the t-th time point: White's first
    // claim in the search's order (the look-ahead's too) after which Black does not win, in
    // `move`; -1 where Black wins, or where the rules cut the position (a lost cause: the search
    // has no order there).  The value returned is Black's (0, 1; -1 stopped).
    int refute_at(const B &b, const B &w, int t, int &move, uint64_t budget, StopCheck check, void *context,
                  uint64_t check_every) {
        this->rearm(budget, check, context, check_every);
        move = -1;
        if (t < 0 || t >= depth_ || black_turn_[t]) return 0;
        return first_claim_at(b, w, t, move);
    }

    // The mover's first claim in the search's order (the minimax's, look-ahead included) that
    // keeps its side's claim (Black's win, White's refutation), in `move`: Black's value, the one
    // the mover sought where a claim keeps it, else the other; 0 where the rules cut the
    // position; -1 stopped.
    int first_claim_at(const B &b, const B &w, int t, int &move) {
        bool black = black_turn_[t];
        Cuts<W> &c = cuts_[t];
        if (!compute_cuts(b, w, t, c)) return 0;
        uint64_t h = hash_of(b, w);
        const std::vector<uint64_t> &zobrist = black ? zobrist_black_ : zobrist_white_;
        int sought = black ? 1 : 0;
        std::vector<int> moves;
        claims_of(b, w, t, c, moves, true);
        for (int m : moves) {
            B b2 = b, w2 = w;
            (black ? b2 : w2).set(m);
            bool won = black ? black_won(b2) : white_won(w2);
            int r = won ? sought : t + 1 < depth_ ? value(b2, w2, h ^ zobrist[m], t + 1) : 0;
            if (r < 0) return -1;
            if (r == sought) {
                move = m;
                return sought;
            }
        }
        return 1 - sought;
    }

    SearchReport totals() const {
        SearchReport report;
        this->report_table(report);
        this->report_result(report, 0);
        report.black_wins = false;
        report.status = 0;
        report.symmetries_on = symmetries_on_;
        report.lost_causes = lost_causes_;
        report.pairing_searches = pairing_searches_;
        report.carriers_dropped = carriers_dropped_;
        return report;
    }
    bool ok() const { return table_.ok(); }
    int status() const { return status_; }

  private:
    // -- the root (`PositionalSolver.decide`; the wrapper settled the start: `decided_at_once`) --
    int decide() {
        uint64_t h = hash_of(b0_, w0_);
        if (!black_turn_[0]) return value(b0_, w0_, h, 0);
        // Black's first claims are tried here, uncounted, each child searched from the table
        Cuts<W> &c = cuts_[0];
        if (!compute_cuts(b0_, w0_, 0, c)) return 0;
        std::vector<int> moves;
        claims_of(b0_, w0_, 0, c, moves, true);
        for (int m : moves) {
            B b2 = b0_;
            b2.set(m);
            int r = black_won(b2) ? 1 : depth_ >= 2 ? value(b2, w0_, h ^ zobrist_black_[m], 1) : 0;
            if (r < 0) return -1;
            if (r == 1) {
                first_move_ = m;
                return 1;
            }
        }
        return 0;
    }

    // -- the minimax (`Minimax.value` with the solver's hooks) ---------------------------------
    // Black's value at (b, w), the t-th time point; -1 when the search stops (budget, check).
    int value(const B &b, const B &w, uint64_t h, int t) {
        B kb = b, kw = w;  // the table key: the canonical board early in the game (`_keys`)
        uint64_t kh = h;
        if (symmetries_on_ && t < symmetric_plies_) {
            canonical(b, w, kb, kw);
            kh = hash_of(kb, kw);
        }
        int known = probe(kb, kw, kh);
        if (known) return known - 1;
        Cuts<W> &c = cuts_[t];
        if (!compute_cuts(b, w, t, c)) {  // the knowledge: a lost cause, neither counted nor kept
            lost_causes_++;
            return 0;
        }
        if (!count_position()) return -1;
        // (`_symmetries_on`: the watch fires at the first count at or past it, which is the count
        // itself in one search; a persistent searcher's question may have stopped just before)
        if (!symmetries_asked_ && positions_ >= symmetry_after_) {
            symmetries_asked_ = true;
            if (!set_up_symmetries()) {
                status_ = 2;
                return -1;
            }
        }
        uint64_t before = positions_;
        int r = expand(b, w, h, t, c);
        if (r < 0) return -1;
        store(kb, kw, kh, r, before);
        return r;
    }

    // The judge, then the children (the counted part of `Minimax.value`).
    int expand(const B &b, const B &w, uint64_t h, int t, const Cuts<W> &c) {
        int verdict = verdict_of(c, t);
        if (verdict >= 0) {
            if (verdict == 1 && carriers_on_) remember_carrier(b, w, h, c.completing);
            return verdict;
        }
        if (t == depth_ - 1) return 0;  // the time points run out: Black has not won
        std::vector<int> &moves = moves_[t];
        claims_of(b, w, t, c, moves, true);
        // the children's table slots are fetched ahead (a hint: the probe's cache miss was the
        // search's largest single cost); under canonical keys their slots are not known yet
        if (!(symmetries_on_ && t + 1 < symmetric_plies_)) {
            for (int m : moves) this->prefetch_child(b, w, h, black_turn_[t], m);
        }
        if (black_turn_[t]) return black_node(b, w, h, t, moves);
        if (carriers_on_) return white_node_with_carriers(b, w, h, t, moves, c.completing);
        for (int m : moves) {
            B w2 = w;
            w2.set(m);
            int r = value(b, w2, h ^ zobrist_white_[m], t + 1);
            if (r != 1) return r;
        }
        return 1;
    }

    int black_node(const B &b, const B &w, uint64_t h, int t, const std::vector<int> &moves) {
        for (int m : moves) {
            B b2 = b;
            b2.set(m);
            uint64_t h2 = h ^ zobrist_black_[m];
            int r = value(b2, w, h2, t + 1);
            if (r != 0) {
                if (r == 1 && carriers_on_) {  // this claim and the child's carrier
                    B carrier = carrier_of(b2, w, h2);
                    carrier.set(m);
                    remember_carrier(b, w, h, carrier);
                }
                return r;
            }
        }
        return 0;
    }

    // White to move: replies outside the carrier of a win already found are skipped
    // (`Minimax._white_node_with_carriers`; `use_carriers` says why that is sound).
    int white_node_with_carriers(const B &b, const B &w, uint64_t h, int t, const std::vector<int> &moves,
                                 const B &threats) {
        B worth_trying = B::all(), union_ = threats;
        for (int m : moves) {
            if (!worth_trying.has(m)) continue;
            B w2 = w;
            w2.set(m);
            uint64_t h2 = h ^ zobrist_white_[m];
            int r = value(b, w2, h2, t + 1);
            if (r != 1) return r;
            B carrier = carrier_of(b, w2, h2);
            worth_trying &= carrier;
            union_ |= carrier;
        }
        remember_carrier(b, w, h, union_);
        return 1;
    }

    B carrier_of(const B &b, const B &w, uint64_t h) const {
        auto found = carriers_.find(Board<W>{b, w, h});
        return found == carriers_.end() ? B::all() : found->second;
    }
    // The carriers are bounded by the table's memory bound (the Python dict grows without one):
    // past it a new win's carrier is dropped, which reads as every cell later (sound: it only
    // prunes less) and is reported, since counts may then differ from the Python solver's.
    void remember_carrier(const B &b, const B &w, uint64_t h, const B &carrier) {
        Board<W> key{b, w, h};
        if (carriers_.size() >= max_carriers_) {
            auto found = carriers_.find(key);
            if (found == carriers_.end()) {
                carriers_dropped_++;
                return;
            }
            found->second = carrier;
            return;
        }
        carriers_[key] = carrier;
    }

    bool carriers_on_;
    uint64_t symmetry_after_;
    std::vector<std::vector<int>> moves_;
    std::vector<Cuts<W>> cuts_;
    std::unordered_map<Board<W>, B, BoardHash<W>> carriers_;
    uint64_t max_carriers_ = 0, carriers_dropped_ = 0;
    uint64_t lost_causes_ = 0;
    bool symmetries_asked_ = false;
};

// The search S run on the narrowest bitboard that holds the board.
template <template <int> class S>
SearchReport solve_on_words(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                            void *context, uint64_t check_every) {
    if (spec.cells <= 64) return S<1>(spec, max_positions, table_bytes, check, context, check_every).run();
    if (spec.cells <= 128) return S<2>(spec, max_positions, table_bytes, check, context, check_every).run();
    if (spec.cells <= 192) return S<3>(spec, max_positions, table_bytes, check, context, check_every).run();
    return S<6>(spec, max_positions, table_bytes, check, context, check_every).run();
}

template <int W>
int pairs_fit_on(const uint64_t *set_words, size_t count, int64_t steps) {
    std::vector<Bits<W>> sets(count);
    for (size_t k = 0; k < count; k++)
        for (int i = 0; i < W; i++) sets[k].w[i] = set_words[k * W + i];
    return pairs_fit_within(sets, steps);
}

// The persistent positional solver on W words (PgSearcher).
template <int W>
class PgSearcherOn final : public PgSearcher {
  public:
    PgSearcherOn(const GameSpec &spec, uint64_t table_bytes)
        : search_(new FullSearch<W>(spec, 0, table_bytes, nullptr, nullptr, 1)) {}
    bool ok() const override { return search_->ok(); }
    PgAnswer ask(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                 uint64_t check_every) override {
        Bits<W> bb, ww;
        for (int i = 0; i < W; i++) {
            bb.w[i] = b[i];
            ww.w[i] = w[i];
        }
        PgAnswer answer;
        uint64_t before = search_->totals().positions;
        int r = search_->ask(bb, ww, t, budget, check, context, check_every);
        answer.status = r < 0 ? search_->status() : 0;
        answer.black_wins = r == 1;
        answer.positions = search_->totals().positions - before;
        return answer;
    }
    PgAnswer decide(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                    uint64_t check_every) override {
        return choose(false, b, w, t, budget, check, context, check_every);
    }
    PgAnswer refute(const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check, void *context,
                    uint64_t check_every) override {
        return choose(true, b, w, t, budget, check, context, check_every);
    }
    SearchReport totals() const override { return search_->totals(); }

  private:
    PgAnswer choose(bool white, const uint64_t *b, const uint64_t *w, int t, uint64_t budget, StopCheck check,
                    void *context, uint64_t check_every) {
        Bits<W> bb, ww;
        for (int i = 0; i < W; i++) {
            bb.w[i] = b[i];
            ww.w[i] = w[i];
        }
        PgAnswer answer;
        uint64_t before = search_->totals().positions;
        int move = -1;
        int r = white ? search_->refute_at(bb, ww, t, move, budget, check, context, check_every)
                      : search_->decide_at(bb, ww, t, move, budget, check, context, check_every);
        answer.status = r < 0 ? search_->status() : 0;
        answer.black_wins = r == 1;
        answer.move = r < 0 ? -1 : move;
        answer.positions = search_->totals().positions - before;
        return answer;
    }

    std::unique_ptr<FullSearch<W>> search_;
};

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

// What `solve_full` reads beside the plain search's spec, checked as cheaply.
const char *check_full_spec(const GameSpec &s) {
    const char *plain = check_spec(s);
    if (*plain) return plain;
    if (s.order.size() != size_t(s.cells)) return "bad static order";
    std::vector<uint8_t> seen(s.cells, 0);
    for (int c : s.order) {
        if (c < 0 || c >= s.cells || seen[c]) return "bad static order";
        seen[c] = 1;
    }
    if (!s.pairable.empty() && s.pairable.size() != s.black_turn.size()) return "bad pairing time points";
    if (!s.pairable.empty() && !lists_ok(s.pairing_set_offsets, s.pairing_set_cells, s.cells)) return "bad pairing sets";
    if (!permutations(s.symmetry_cells, s.cells)) return "bad symmetries";
    if (s.relevance && s.hex && s.neighbour_offsets.size() != size_t(s.cells) + 1) return "bad neighbours";
    return "";
}

int entry_bytes_for(int cells) {
    if (cells <= 64) return Table<1>::entry_bytes_for(cells);
    if (cells <= 128) return Table<2>::entry_bytes_for(cells);
    if (cells <= 192) return Table<3>::entry_bytes_for(cells);
    return Table<6>::entry_bytes_for(cells);
}

SearchReport solve_plain(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                         void *context, uint64_t check_every) {
    return solve_on_words<Search>(spec, max_positions, table_bytes, check, context, check_every);
}

SearchReport solve_full(const GameSpec &spec, uint64_t max_positions, uint64_t table_bytes, StopCheck check,
                        void *context, uint64_t check_every) {
    return solve_on_words<FullSearch>(spec, max_positions, table_bytes, check, context, check_every);
}

int pairs_fit_words(int cells, const uint64_t *set_words, size_t sets, int64_t steps) {
    if (cells <= 64) return pairs_fit_on<1>(set_words, sets, steps);
    if (cells <= 128) return pairs_fit_on<2>(set_words, sets, steps);
    if (cells <= 192) return pairs_fit_on<3>(set_words, sets, steps);
    return pairs_fit_on<6>(set_words, sets, steps);
}

PgSearcher *new_pg_searcher(const GameSpec &spec, uint64_t table_bytes) {
    if (spec.cells <= 64) return new PgSearcherOn<1>(spec, table_bytes);
    if (spec.cells <= 128) return new PgSearcherOn<2>(spec, table_bytes);
    if (spec.cells <= 192) return new PgSearcherOn<3>(spec, table_bytes);
    return new PgSearcherOn<6>(spec, table_bytes);
}

}  // namespace bddlc
