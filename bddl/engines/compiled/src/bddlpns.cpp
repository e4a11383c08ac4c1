// df-pn for BDDL games (bddlpns.hpp says what it answers).  Every piece follows one place of
// bddl/engines/pns.py, named where it is: the search must expand the positions the Python search
// expands, in its order, so that the two count alike and the tests can hold one to the other.
// Everything a search needs lives in one `Pns` object made per call: no global state.
#include "bddlpns.hpp"
#include "pntable.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace bddlc {
namespace {

// The df-pn table (its layout and why) is pntable.hpp's, shared with the positional games' df-pn.
using pn::INF;
using pn::NO_WIN;
using pn::Numbers;
template <int W>
using PnsTable = pn::PnTable<W>;

template <int W>
class Pns {
  public:
    using B = Bits<W>;
    using Board = std::pair<B, B>;
    using Child = typename BddlGame<W>::Child;  // a successor, its key, and the outcome that made it
    using Store = pn::Store<W>;

    Pns(const BddlSpec &spec, const RaceSpec &race, const PnsOptions &options, uint64_t max_positions, uint64_t table_bytes,
        StopCheck check, void *context, uint64_t check_every)
        : game_(spec), race_(race), store_(table_bytes, options.capacity, &Pns::rehash, this), options_(options), max_positions_(max_positions),
          check_(check), context_(context), check_every_(check_every ? check_every : 1) {
        next_check_ = check_every_;
    }
    bool ok() const { return store_.ok(); }

    // ProofNumberSearch.black_wins: df-pn from the root to a proof or a disproof
    bool black_wins(bool black_to_move, const B &b, const B &w, int r) {
        if (r < 1) return false;
        Numbers n = mid(black_to_move, b, w, game_.hash(b, w), r, INF, INF);
        bool mover_wins = n.phi == 0;
        return mover_wins == black_to_move;
    }
    // Minimax.known: the solved table's verdict (-1: it does not decide r)
    int known(bool black_to_move, const B &b, const B &w, int r) const {
        return store_.known(black_to_move, b, w, game_.hash(b, w), r);
    }
    // search_pns's _first_winning_move: the index in Game.moves' list (all_successors)
    int first_winning_move(int depth) {
        std::vector<Board> moves;
        game_.all_successors(true, game_.initial_black(), game_.initial_white(), moves);
        for (size_t i = 0; i < moves.size(); i++)
            if (game_.won(true, moves[i].first, moves[i].second)) return int(i);
        for (size_t i = 0; i < moves.size(); i++)
            if (known(false, moves[i].first, moves[i].second, depth - 1) == 1) return int(i);
        for (size_t i = 0; i < moves.size(); i++)
            if (depth > 1 && black_wins(false, moves[i].first, moves[i].second, depth - 1) && !stopped_) return int(i);
            else if (stopped_) return -1;
        return -2;  // "df-pn proved a win but no first move wins": the caller reports it
    }

    const BddlGame<W> &game() const { return game_; }
    int stopped() const { return stopped_; }
    void report(PnsReport &r) const {
        r.positions = positions_;
        r.knowledge_hits = knowledge_hits_;
        store_.report(r);
    }

  private:
    static uint64_t rehash(const void *owner, const B &b, const B &w) {
        return static_cast<const Pns *>(owner)->game_.hash(b, w);
    }

    // ProofNumberSearch._lookup: solved, remembered, or fresh (mobility numbers)
    Numbers lookup(bool black_to_move, const B &b, const B &w, uint64_t h, int r) const {
        Numbers n;
        if (store_.numbers(black_to_move, b, w, h, r, n)) return n;
        // the mover's legal (action, position) pairs, by shifts where the game can (BddlGame's moves by shape)
        if (options_.mobility) return Numbers{1, std::max<int64_t>(1, game_.legal_count(black_to_move, b, w))};
        return Numbers{1, 1};
    }

    // The children's home slots read before their lookups (PnsTable::warm says why)
    void warm(bool child, size_t base, size_t n) {
        uint64_t sum = 0;
        for (size_t i = base; i < base + n; i++) sum += store_.table().warm(child, kids_[i].key);
        warmed_ += sum;  // kept, so that the loads are not optimised away
    }

    // The knowledge (ProofNumberSearch._static): 1 Black wins, 0 Black loses, -1 unknown
    int statically(bool black_to_move, const B &b, const B &w, int r) {
        int v = race_.verdict(black_to_move, b, w, r);
        if (v >= 0) knowledge_hits_++;
        return v;
    }

    // Count a position; true where the search must stop (`stopped_`: 1 the budget, 2 the stop
    // check).  Every frame then unwinds at once, storing nothing (no C++ exception: the
    // sanitizer build's runtime cannot intercept a throw inside an extension the interpreter
    // loaded, and a return per frame costs nothing measurable).
    bool count() {
        positions_++;
        if (positions_ > max_positions_) stopped_ = 1;
        if (!stopped_ && positions_ >= next_check_) {
            next_check_ += check_every_;
            if (check_ && check_(context_)) stopped_ = 2;
        }
        return stopped_ != 0;
    }

    // Minimax.value (no judge, key, carriers or turn pattern: a BDDL game), the leaf search.
    // `asked`: the knowledge was asked of this position already (df-pn asks before the leaf search)
    bool value(bool black_to_move, const B &b, const B &w, uint64_t h, int r, bool asked) {
        int k = store_.known(black_to_move, b, w, h, r);
        if (k >= 0) return k == 1;
        if (!asked) {
            int v = statically(black_to_move, b, w, r);
            if (v >= 0) {
                store_.store_solved(black_to_move, b, w, h, r, v == 1, 0);  // _remember_verdict
                return v == 1;
            }
        }
        if (count()) return false;
        size_t base = kids_.size();
        game_.expand(black_to_move, b, w, h, kids_);
        size_t n = kids_.size() - base;
        warm(!black_to_move, base, n);
        int result = -1;
        if (!n) {
            result = !black_to_move;  // the mover is stuck: it loses
        } else if (r == 1 && !black_to_move) {
            result = 0;  // White wins or not, Black has not won
        } else {
            bool parent_won = game_.won(black_to_move, b, w);
            for (size_t i = base; i < base + n; i++)
                if (game_.won_after(black_to_move, parent_won, kids_[i].outcome, kids_[i].b, kids_[i].w)) {
                    result = black_to_move;
                    break;
                }
            if (result < 0 && r == 1) result = 0;
        }
        if (result < 0) {
            bool child = !black_to_move;
            result = black_to_move ? 0 : 1;
            for (size_t i = base; i < base + n; i++) {
                Child kid = kids_[i];  // copied: the recursion appends to kids_
                bool v = value(child, kid.b, kid.w, kid.key, r - 1, false);
                if (stopped_) break;
                if (black_to_move ? v : !v) {
                    result = v;
                    break;
                }
            }
        }
        kids_.resize(base);
        if (stopped_) return false;
        store_.remember(black_to_move, b, w, h, r, result == 1);
        return result == 1;
    }

    // ProofNumberSearch._mid (weak numbers, epsilon 1, no pause)
    Numbers mid(bool black_to_move, const B &b, const B &w, uint64_t h, int r, int64_t th_phi, int64_t th_delta) {
        Numbers n = lookup(black_to_move, b, w, h, r);
        if (n.phi >= th_phi || n.delta >= th_delta) return n;
        int v = statically(black_to_move, b, w, r);
        if (v >= 0) return store_.store_solved(black_to_move, b, w, h, r, v == 1, 0);
        if (r <= options_.leaf_plies) {
            uint64_t start = positions_;
            bool wins = value(black_to_move, b, w, h, r, true);
            if (stopped_) return n;
            return store_.store_solved(black_to_move, b, w, h, r, wins, positions_ - start);
        }
        if (count()) return n;
        uint64_t start = positions_;
        size_t base = kids_.size();
        game_.expand(black_to_move, b, w, h, kids_);
        size_t n_kids = kids_.size() - base;
        warm(!black_to_move, base, n_kids);
        auto done = [&](bool black_wins_, uint64_t work) {
            kids_.resize(base);
            return store_.store_solved(black_to_move, b, w, h, r, black_wins_, work);
        };
        if (!n_kids) return done(!black_to_move, 1);  // the mover is stuck: it loses
        bool parent_won = game_.won(black_to_move, b, w);
        for (size_t i = base; i < base + n_kids; i++)
            if (game_.won_after(black_to_move, parent_won, kids_[i].outcome, kids_[i].b, kids_[i].w)) return done(black_to_move, 1);
        if (r == 1) return done(false, 1);  // the plies run out: Black has not won

        bool child = !black_to_move;
        int r2 = r - 1;
        // the children's numbers as the opponent of this node's mover sees them (its own: the
        // sides alternate)
        size_t nb = numbers_.size();
        for (size_t i = base; i < base + n_kids; i++) numbers_.push_back(lookup(child, kids_[i].b, kids_[i].w, kids_[i].key, r2));
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
            // epsilon 1: max(second + 1, int(second * 2) + 1) is 2 * second + 1
            int64_t child_th_delta = second >= INF ? th_phi : std::min(th_phi, 2 * second + 1);
            Child kid = kids_[base + best];
            Numbers found = mid(child, kid.b, kid.w, kid.key, r2, child_th_phi, child_th_delta);
            numbers_[nb + best] = found;  // (after the call: the recursion may move numbers_)
            if (stopped_) break;
        }
        numbers_.resize(nb);
        if (stopped_) {
            kids_.resize(base);
            return here;
        }
        uint64_t work = positions_ - start + 1;
        if (here.phi == 0) return done(black_to_move, work);
        if (here.delta == 0) return done(!black_to_move, work);
        kids_.resize(base);
        store_.store_unsolved(black_to_move, b, w, h, r, here, work);
        return here;
    }

    BddlGame<W> game_;
    RaceKnowledge<W> race_;
    Store store_;
    PnsOptions options_;
    uint64_t max_positions_;
    StopCheck check_;
    void *context_;
    uint64_t check_every_, next_check_;
    uint64_t positions_ = 0, knowledge_hits_ = 0;
    int stopped_ = 0;  // 1: the budget ran out, 2: the stop check said stop
    // the frames' children, their keys and numbers: stacks the recursion pushes and pops
    std::vector<Child> kids_;
    std::vector<Numbers> numbers_;
    uint64_t warmed_ = 0;
};

template <int W>
PnsReport solve_on(const BddlSpec &spec, const RaceSpec &race, int depth, const PnsOptions &options, uint64_t max_positions,
                   uint64_t table_bytes, StopCheck check, void *context, uint64_t check_every) {
    PnsReport report;
    Pns<W> search(spec, race, options, max_positions, table_bytes, check, context, check_every);
    if (!search.ok()) {
        report.status = 3;
        search.report(report);
        return report;
    }
    const auto &game = search.game();
    bool wins = search.black_wins(spec.black_first, game.initial_black(), game.initial_white(), depth);
    if (!search.stopped()) {
        report.black_wins = wins;
        if (wins && spec.black_first) report.first_move = search.first_winning_move(depth);
    }
    report.status = search.stopped();
    search.report(report);
    return report;
}

template <int W>
void verdicts_on(const RaceSpec &race, const std::vector<uint8_t> &black_to_move, const std::vector<uint64_t> &words,
                 const std::vector<int> &plies, std::vector<int> &out) {
    RaceKnowledge<W> knowledge(race);
    for (size_t k = 0; k < plies.size(); k++) {
        Bits<W> b, w;
        for (int i = 0; i < W; i++) {
            b.w[i] = words[k * 2 * RACE_MAX_WORDS + i];
            w.w[i] = words[k * 2 * RACE_MAX_WORDS + RACE_MAX_WORDS + i];
        }
        out.push_back(knowledge.verdict(black_to_move[k] != 0, b, w, plies[k]));
    }
}

}  // namespace

PnsReport solve_bddl_pns(const BddlSpec &spec, const RaceSpec &race, int depth, const PnsOptions &options,
                         uint64_t max_positions, uint64_t table_bytes, StopCheck check, void *context,
                         uint64_t check_every) {
    switch (words_for(spec.cells)) {
        case 1: return solve_on<1>(spec, race, depth, options, max_positions, table_bytes, check, context, check_every);
        case 2: return solve_on<2>(spec, race, depth, options, max_positions, table_bytes, check, context, check_every);
        case 3: return solve_on<3>(spec, race, depth, options, max_positions, table_bytes, check, context, check_every);
        default: return solve_on<6>(spec, race, depth, options, max_positions, table_bytes, check, context, check_every);
    }
}

void race_verdicts(const RaceSpec &race, int cells, const std::vector<uint8_t> &black_to_move,
                   const std::vector<uint64_t> &words, const std::vector<int> &plies, std::vector<int> &out) {
    switch (words_for(cells)) {
        case 1: return verdicts_on<1>(race, black_to_move, words, plies, out);
        case 2: return verdicts_on<2>(race, black_to_move, words, plies, out);
        case 3: return verdicts_on<3>(race, black_to_move, words, plies, out);
        default: return verdicts_on<6>(race, black_to_move, words, plies, out);
    }
}

int pns_entry_bytes(int cells) {
    switch (words_for(cells)) {
        case 1: return int(sizeof(PnsTable<1>::Entry));
        case 2: return int(sizeof(PnsTable<2>::Entry));
        case 3: return int(sizeof(PnsTable<3>::Entry));
        default: return int(sizeof(PnsTable<6>::Entry));
    }
}

}  // namespace bddlc
