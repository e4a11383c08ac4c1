// White's pairing argument's one question: do disjoint pairs of cells fit, one inside each of
// some sets?  (bddl/pg/pairing.py's `_quick_pairing`, its `fits`.)  One definition for the
// positional solver's cut (`PgRules::pairing_exists`) and for a certificate's builder, which asks
// it of every White reply (`pairs_fit_words`, pgcore.hpp).
#pragma once

#include "bits.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bddlc {

// 1: disjoint pairs fit one inside each set; 0: none do; -1: out of `budget` steps.  The search
// pairs first inside the set with the fewest cells not `used`, and hands on the sets the chosen
// pair does not cover; `scratch[level]` holds them (the caller sizes it to one more than the sets:
// each level covers one set at least).
template <int W>
int pairs_fit(const std::vector<Bits<W>> &sets, const Bits<W> &used, int64_t &budget,
              std::vector<std::vector<Bits<W>>> &scratch, size_t level) {
    using B = Bits<W>;
    B best = B::zero();
    int fewest = 1 << 30;
    for (const B &cells : sets) {
        B free_ = cells.minus(used);
        int count = free_.count();
        if (count < 2) return 0;
        if (count < fewest) {
            best = free_;
            fewest = count;
        }
    }
    if (!best.any()) return 1;
    for (B x = best; x.any();) {
        int a = x.lowest();
        x.clear(a);
        for (B y = x; y.any();) {
            int c = y.lowest();
            y.clear(c);
            if (--budget < 0) return -1;
            B pair = B::zero();
            pair.set(a);
            pair.set(c);
            std::vector<B> &rest = scratch[level];
            rest.clear();
            for (const B &cells : sets)
                if (!pair.within(cells)) rest.push_back(cells);
            int found = pairs_fit(rest, used | pair, budget, scratch, level + 1);
            if (found != 0) return found;
        }
    }
    return 0;
}

// `pairs_fit` from the start, within `steps` steps (1 fit, 0 none, -1 out of steps).
template <int W>
int pairs_fit_within(const std::vector<Bits<W>> &sets, int64_t steps) {
    std::vector<std::vector<Bits<W>>> scratch(sets.size() + 1);
    return pairs_fit(sets, Bits<W>::zero(), steps, scratch, 0);
}

}  // namespace bddlc
