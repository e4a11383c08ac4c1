// df-pn for positional games (pgpns.hpp says what it answers).  Every piece follows one place of
// bddl/engines/pns.py (`ProofNumberSearch`, and the `Minimax.value` it runs near the horizon) or
// bddl/engines/positional_pns.py, named where it is: the search must expand the positions the
// Python search expands, in its order, so that the two count alike and the tests can hold one to
// the other.  The rules are PgRules (pgrules.hpp), the positional solver's own.
#include "pgpns.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "pgrules.hpp"
#include "pntable.hpp"

namespace bddlc {
namespace {

using namespace pg;
using pn::INF;
using pn::Numbers;

template <int W>
class PgPns : PgRules<W> {
    BDDLC_SEARCH_BASE_NAMES;
    BDDLC_PG_RULES_NAMES;
    using Store = pn::Store<W>;
    struct Kid {
        B b, w;
        uint64_t h;
    };

  public:
    // The minimax's table of SearchBase is not used: df-pn keeps its own (`table_`).
    PgPns(const GameSpec &s, const PgPnsOptions &options, uint64_t table_bytes)
        : Rules(s, 0, 0, nullptr, nullptr, 1),
          pns_(table_bytes, std::max<uint64_t>(options.capacity, 16), &PgPns::rehash, this), options_(options) {
        set_up_symmetries();  // (given in the spec: the Python df-pn sets them up at once)
        initial_count_ = b0_.count() + w0_.count();
        // the cuts' cache: 2^16 slots (Python's CUT_CACHE), fewer where they would pass 16 MB
        uint64_t slot_bytes = sizeof(CutSlot) + uint64_t(this->stride_) * sizeof(B), slots = uint64_t(1) << 16;
        while (slots > 64 && slots * slot_bytes > (uint64_t(16) << 20)) slots /= 2;
        cut_slots_.resize(slots);
        cut_tiers_.assign(slots * uint64_t(this->stride_), B::zero());
        cut_mask_ = slots - 1;
    }
    bool ok() const { return pns_.ok(); }

    // PositionalProofNumberSearch.decide (the caller settled `decided_at_once` at the first time point)
    PgPnsAnswer decide(const B &b, const B &w) {
        PgPnsAnswer a;
        int t = time_of(b, w);
        if (t >= depth_) return a;
        bool btm = black_turn_[t];
        int v = value_at(btm, b, w, t);
        if (v < 0) return stopped(a);
        if (!v) return a;
        a.black_wins = true;
        if (!btm) return a;
        a.cell = first_claim(b, w, t, true);
        if (a.cell == -2) return stopped(a);
        a.proved_no_claim = a.cell < 0;
        return a;
    }

    // PositionalProofNumberSearch.refutation: White to move, a claim after which Black does not win
    PgPnsAnswer refutation(const B &b, const B &w) {
        PgPnsAnswer a;
        int t = time_of(b, w);
        Cuts<W> c;
        if (depth_ - t < 1 || black_turn_[t] || !compute_cuts(b, w, t, c)) return a;
        int v = value_at(false, b, w, t);
        if (v < 0) return stopped(a);
        if (v) {
            a.black_wins = true;
            return a;
        }
        a.cell = first_claim(b, w, t, false);
        if (a.cell == -2) return stopped(a);
        a.proved_no_claim = a.cell < 0;
        return a;
    }

    void rearm(uint64_t max_positions, StopCheck check, void *context, uint64_t check_every) {
        this->max_positions_ = max_positions;
        this->check_ = check;
        this->context_ = context;
        this->check_every_ = check_every ? check_every : 1;
        this->next_check_ = this->first_check();
        status_ = 0;
    }

    PgPnsReport totals() const {
        PgPnsReport r;
        r.positions = positions_;
        r.knowledge_hits = knowledge_hits_;
        pns_.report(r);
        r.pairing_searches = pairing_searches_;
        r.symmetries_on = symmetries_on_;
        return r;
    }

  private:
    PgPnsAnswer stopped(PgPnsAnswer a) const {
        a.status = status_;
        a.black_wins = false;
        a.cell = -1;
        return a;
    }
    int time_of(const B &b, const B &w) const { return (b | w).count() - initial_count_; }

    static uint64_t rehash(const void *owner, const B &b, const B &w) {
        return static_cast<const PgPns *>(owner)->hash_of(b, w);
    }

    // -- the root's questions (positional_pns) ---------------------------------------------------

    // `_stored`: the board under which the table holds a position of time point t (its canonical
    // board in the first half of the game, as `successors` names the children there)
    void stored(const B &b, const B &w, int t, B &kb, B &kw) const {
        kb = b;
        kw = w;
        if (0 < t && t < symmetric_plies_ && symmetries_on_) canonical(b, w, kb, kw);
    }

    // `_value`: the table's verdict under the stored key, else a df-pn search from it (-1: stopped)
    int value_at(bool btm, const B &b, const B &w, int t) {
        int r = depth_ - t;
        if (r < 1) return 0;
        B kb, kw;
        stored(b, w, t, kb, kw);
        uint64_t h = hash_of(kb, kw);
        int k = known(btm, kb, kw, h, r);
        if (k >= 0) return k;
        Numbers n = mid(btm, kb, kw, h, r, INF, INF);
        if (status_) return -1;
        return (n.phi == 0) == btm;
    }

    // Minimax.known: the solved table's verdict (-1: it does not decide r)
    int known(bool btm, const B &b, const B &w, uint64_t h, int r) const { return pns_.known(btm, b, w, h, r); }

    // `_first_claim`: the mover's first claim keeping its side's claim (Black's win, White's
    // refutation), one the table holds first, then one searched in the rules' order.  -1 none,
    // -2 stopped.
    int first_claim(const B &b, const B &w, int t, bool black) {
        int r = depth_ - t;
        bool mover_after = r > 1 ? black_turn_[t + 1] : false;
        std::vector<int> claims;
        Cuts<W> c;
        if (compute_cuts(b, w, t, c)) claims_of(b, w, t, c, claims, false);
        auto after = [&](int m, B &b2, B &w2) {
            b2 = b;
            w2 = w;
            (black ? b2 : w2).set(m);
        };
        for (int m : claims) {
            B b2, w2;
            after(m, b2, w2);
            if (black ? this->black_won(b2) : this->white_won(w2)) return m;
            int k = 0;  // (no time point left: Black has not won, which is White's refutation)
            if (r > 1) {
                B kb, kw;
                stored(b2, w2, t + 1, kb, kw);
                k = known(mover_after, kb, kw, hash_of(kb, kw), r - 1);
            }
            if (k == int(black)) return m;
        }
        for (int m : claims) {
            B b2, w2;
            after(m, b2, w2);
            int v = value_at(mover_after, b2, w2, t + 1);
            if (v < 0) return -2;
            if (v == int(black)) return m;
        }
        return -1;
    }

    // -- the rules as df-pn reads them (positional_pns) ------------------------------------------

    // `PositionalRules.cuts`: the cuts of (b, w) at time point t (false: a lost cause), the tiers
    // left in within(t) as compute_cuts leaves them; kept for the positions met last (df-pn asks
    // its verdict, its claims and its initial numbers at different times: computing them, the
    // pairings' search most of all, was 80% of the search before the cache)
    bool cuts(const B &b, const B &w, uint64_t h, int t, Cuts<W> &c) {
        uint64_t i = (h ^ (h >> 29)) & cut_mask_;
        CutSlot &slot = cut_slots_[i];
        B *tiers = &cut_tiers_[i * uint64_t(this->stride_)];
        if (slot.used && slot.b == b && slot.w == w) {
            if (!slot.live) return false;
            c = slot.c;
            if (relevance_) std::copy(tiers, tiers + this->stride_, within(t));
            return true;
        }
        bool live = compute_cuts(b, w, t, c);
        slot.used = true;
        slot.b = b;
        slot.w = w;
        slot.live = live;
        slot.c = c;
        if (live && relevance_) std::copy(within(t), within(t) + this->stride_, tiers);
        return live;
    }

    // `_sides`' successors: the rules' claims (none for a lost cause), each child named by its
    // canonical board in the first half of the game, symmetric children once (first come first)
    void successors(bool black, const B &b, const B &w, uint64_t h, int t) {
        Cuts<W> c;
        if (!cuts(b, w, h, t, c)) return;
        std::vector<int> &moves = moves_;
        claims_of(b, w, t, c, moves, false);
        bool symmetric = t + 1 < symmetric_plies_ && symmetries_on_;
        const std::vector<uint64_t> &keys = black ? zobrist_black_ : zobrist_white_;
        size_t base = kids_.size();
        for (int m : moves) {
            Kid k{b, w, h ^ keys[m]};
            (black ? k.b : k.w).set(m);
            if (symmetric) {
                B kb = k.b, kw = k.w;
                canonical(k.b, k.w, kb, kw);
                bool seen = false;
                for (size_t i = base; i < kids_.size() && !seen; i++) seen = kids_[i].b == kb && kids_[i].w == kw;
                if (seen) continue;
                k.b = kb;
                k.w = kw;
                k.h = hash_of(kb, kw);
            }
            kids_.push_back(k);
        }
    }

    // `_Verdicts` (ProofNumberSearch._static): 1 Black wins, 0 Black loses, -1 unknown; a verdict of
    // a position Black can still win counts as expanded (-2: that count stopped the search)
    int statically(const B &b, const B &w, uint64_t h, int r) {
        int t = depth_ - r;
        if (t >= depth_) {
            knowledge_hits_++;
            return 0;
        }
        Cuts<W> c;
        if (!cuts(b, w, h, t, c)) {
            knowledge_hits_++;
            return 0;
        }
        int v = verdict_of(c, t);
        if (v >= 0) {
            knowledge_hits_++;
            if (!count_position()) return -2;
        }
        return v;
    }

    // `_InitialNumbers`: Black's proof grows with need^3, its disproof with (k - need + 1)^3 times
    // the open cells of its cheapest goals; White's own goals count in a Maker-Maker game
    Numbers initial(bool btm, const B &b, const B &w, uint64_t h, int r) {
        if (!options_.initial_numbers) return Numbers{1, 1};
        int t = depth_ - r;
        Cuts<W> c;
        if (!cuts(b, w, h, t, c)) return Numbers{1, 1};
        int64_t need = c.need, k = c.k;
        int64_t cheapest = relevance_ && need <= k ? within(t)[need].count() : 1;
        int64_t n1 = std::max<int64_t>(need, 1);
        int64_t proof = n1 * n1 * n1;
        int64_t spare = k - need + 1;
        int64_t disproof = spare * spare * spare * std::max<int64_t>(cheapest, 1);
        if (!white_sets_.empty()) {
            int64_t white_need = UNREACHABLE;
            for (const B &m : white_sets_)
                if (!m.meets(b)) white_need = std::min<int64_t>(white_need, m.minus(w).count());
            if (white_need <= r - k) {
                proof *= std::min<int64_t>(r - k - white_need + 1, 4);
                int64_t wn = std::max<int64_t>(white_need, 1);
                disproof = std::min(disproof, wn * wn * wn * wn * wn);
            }
        }
        return btm ? Numbers{proof, disproof} : Numbers{disproof, proof};
    }

    // -- df-pn (ProofNumberSearch) ---------------------------------------------------------------

    // `_lookup`: solved, remembered, or fresh (the initial numbers)
    Numbers lookup(bool btm, const B &b, const B &w, uint64_t h, int r) {
        Numbers n;
        if (pns_.numbers(btm, b, w, h, r, n)) return n;
        return initial(btm, b, w, h, r);
    }

    // Minimax.value, the leaf search (no judge, key or carriers: df-pn's engine has none); -1 stopped.
    // `asked`: the knowledge was asked of this position already (df-pn asks before the leaf search).
    // The generic win test over the children is left out: with no verdict, the mover has no
    // completing claim among its allowed cells (`verdict_of`), and every claim is an allowed cell.
    int value(bool btm, const B &b, const B &w, uint64_t h, int r, bool asked) {
        int k = known(btm, b, w, h, r);
        if (k >= 0) return k;
        if (!asked) {
            int v = statically(b, w, h, r);
            if (v == -2) return -1;
            if (v >= 0) {
                pns_.store_solved(btm, b, w, h, r, v == 1, 0);  // _remember_verdict
                return v;
            }
        }
        if (!count_position()) return -1;
        int t = depth_ - r;
        size_t base = kids_.size();
        successors(btm, b, w, h, t);
        size_t n = kids_.size() - base;
        int result = -1;
        if (!n || r == 1) result = 0;  // the mover is stuck: the game is over; or the plies run out
        if (result < 0) {
            bool child = black_turn_[t + 1];
            result = btm ? 0 : 1;
            for (size_t i = base; i < base + n; i++) {
                Kid kid = kids_[i];  // copied: the recursion appends to kids_
                int v = value(child, kid.b, kid.w, kid.h, r - 1, false);
                if (v < 0) {
                    result = -1;
                    break;
                }
                if (btm ? v == 1 : v == 0) {
                    result = v;
                    break;
                }
            }
        }
        kids_.resize(base);
        if (result < 0) return -1;
        pns_.remember(btm, b, w, h, r, result == 1);
        return result;
    }

    // `_mid` (weak numbers, no pause)
    Numbers mid(bool btm, const B &b, const B &w, uint64_t h, int r, int64_t th_phi, int64_t th_delta) {
        Numbers n = lookup(btm, b, w, h, r);
        if (n.phi >= th_phi || n.delta >= th_delta) return n;
        int v = statically(b, w, h, r);
        if (v == -2) return n;
        if (v >= 0) return pns_.store_solved(btm, b, w, h, r, v == 1, 0);
        if (r <= options_.leaf_plies) {
            uint64_t start = positions_;
            int wins = value(btm, b, w, h, r, true);
            if (wins < 0) return n;
            return pns_.store_solved(btm, b, w, h, r, wins == 1, positions_ - start);
        }
        if (!count_position()) return n;
        uint64_t start = positions_;
        int t = depth_ - r;
        size_t base = kids_.size();
        successors(btm, b, w, h, t);
        size_t n_kids = kids_.size() - base;
        // (no child, or the plies run out: Black has not won; the win test is `value`'s, left out)
        if (!n_kids || r == 1) {
            kids_.resize(base);
            return pns_.store_solved(btm, b, w, h, r, false, 1);
        }
        bool child = black_turn_[t + 1];
        bool again = child == btm;  // (p,q) turns: the same side moves again
        int r2 = r - 1;
        // the children's numbers as the opponent of this node's mover sees them
        size_t nb = numbers_.size();
        for (size_t i = base; i < base + n_kids; i++) {
            Kid kid = kids_[i];
            Numbers x = lookup(child, kid.b, kid.w, kid.h, r2);
            numbers_.push_back(again ? Numbers{x.delta, x.phi} : x);
        }
        const double grow = 1 + options_.epsilon;
        Numbers here;
        while (true) {
            size_t best = 0;
            int64_t first = INF, second = INF, largest = 0, open = 0;
            for (size_t i = 0; i < n_kids; i++) {
                int64_t d = numbers_[nb + i].delta;
                if (d < first) {
                    second = first;
                    first = d;
                    best = i;
                } else if (d < second) {
                    second = d;
                }
                int64_t p = numbers_[nb + i].phi;
                if (p) {
                    open++;
                    if (p > largest) largest = p;
                }
            }
            if (first == 0)
                here = Numbers{0, INF};  // a child the opponent loses: the mover wins
            else
                here = Numbers{first, open ? std::min(largest + open - 1, INF - 1) : 0};  // weak numbers
            if (here.phi >= th_phi || here.delta >= th_delta) break;
            int64_t child_th_phi = th_delta - (open - 1);
            // max(second + 1, int(second * (1 + epsilon)) + 1), in the Python engine's doubles
            int64_t child_th_delta =
                second >= INF ? th_phi : std::min(th_phi, std::max(second + 1, int64_t(double(second) * grow) + 1));
            Kid kid = kids_[base + best];
            // (where the same side moves again, the child's thresholds and numbers are its own, swapped)
            Numbers found = again ? mid(child, kid.b, kid.w, kid.h, r2, child_th_delta, child_th_phi)
                                  : mid(child, kid.b, kid.w, kid.h, r2, child_th_phi, child_th_delta);
            if (again) found = Numbers{found.delta, found.phi};
            numbers_[nb + best] = found;  // (after the call: the recursion may move numbers_)
            if (status_) break;
        }
        numbers_.resize(nb);
        kids_.resize(base);
        if (status_) return n;
        uint64_t work = positions_ - start + 1;
        if (here.phi == 0) return pns_.store_solved(btm, b, w, h, r, btm, work);
        if (here.delta == 0) return pns_.store_solved(btm, b, w, h, r, !btm, work);
        pns_.store_unsolved(btm, b, w, h, r, here, work);
        return here;
    }

    Store pns_;
    PgPnsOptions options_;
    int initial_count_ = 0;
    uint64_t knowledge_hits_ = 0;
    // the frames' children and their numbers: stacks the recursion pushes and pops
    std::vector<Kid> kids_;
    std::vector<Numbers> numbers_;
    std::vector<int> moves_;  // one expansion's claims (read before any recursion)
    // the cuts' cache (`PositionalRules.cuts`' CUT_CACHE): slots of (board, cuts), their tiers apart
    struct CutSlot {
        B b, w;
        bool used = false, live = false;
        Cuts<W> c;
    };
    std::vector<CutSlot> cut_slots_;
    std::vector<B> cut_tiers_;
    uint64_t cut_mask_ = 0;
};

template <int W>
class PgPnsOn final : public PgPnsSearcher {
  public:
    PgPnsOn(const GameSpec &spec, const PgPnsOptions &options, uint64_t table_bytes)
        : search_(new PgPns<W>(spec, options, table_bytes)) {}
    bool ok() const override { return search_->ok(); }
    PgPnsAnswer decide(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check, void *context,
                       uint64_t check_every) override {
        search_->rearm(max_positions, check, context, check_every);
        return search_->decide(board(b), board(w));
    }
    PgPnsAnswer refutation(const uint64_t *b, const uint64_t *w, uint64_t max_positions, StopCheck check,
                           void *context, uint64_t check_every) override {
        search_->rearm(max_positions, check, context, check_every);
        return search_->refutation(board(b), board(w));
    }
    PgPnsReport totals() const override { return search_->totals(); }

  private:
    static Bits<W> board(const uint64_t *words) {
        Bits<W> x;
        for (int i = 0; i < W; i++) x.w[i] = words[i];
        return x;
    }
    std::unique_ptr<PgPns<W>> search_;
};

}  // namespace

PgPnsSearcher *new_pg_pns_searcher(const GameSpec &spec, const PgPnsOptions &options, uint64_t table_bytes) {
    if (spec.cells <= 64) return new PgPnsOn<1>(spec, options, table_bytes);
    if (spec.cells <= 128) return new PgPnsOn<2>(spec, options, table_bytes);
    if (spec.cells <= 192) return new PgPnsOn<3>(spec, options, table_bytes);
    return new PgPnsOn<6>(spec, options, table_bytes);
}

int pg_pns_entry_bytes(int cells) {
    if (cells <= 64) return int(sizeof(pn::PnTable<1>::Entry));
    if (cells <= 128) return int(sizeof(pn::PnTable<2>::Entry));
    if (cells <= 192) return int(sizeof(pn::PnTable<3>::Entry));
    return int(sizeof(pn::PnTable<6>::Entry));
}

}  // namespace bddlc
