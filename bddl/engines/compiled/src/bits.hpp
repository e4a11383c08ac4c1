// What every search of the compiled core builds on (the .pg searches of pgcore.cpp, the BDDL
// minimax of bddlcore.cpp, the BDDL df-pn): bitboards of W 64-bit words, zeroed memory for the
// tables, and the Zobrist keys' generator.  Header-only: everything is inline or a template, so
// each search's translation unit compiles its own copy for its own W's.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace bddlc {

// The bits of x, inline: the build targets plain x86-64 (no POPCNT instruction), where
// __builtin_popcountll is a call into libgcc; the full search counts every live set's open
// cells at every position.
inline int popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((x * 0x0101010101010101ULL) >> 56);
}

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
        for (int i = 0; i < W; i++) k += popcount(w[i]);
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
    int highest() const {  // the last cell, or -1 for none
        for (int i = W - 1; i >= 0; i--)
            if (w[i]) return i * 64 + 63 - __builtin_clzll(w[i]);
        return -1;
    }
    // Every cell: the Python solver's carrier -1 (a win whose carrier is not known).
    static Bits all() {
        Bits b;
        for (int i = 0; i < W; i++) b.w[i] = ~uint64_t(0);
        return b;
    }
    void clear(int c) { w[c >> 6] &= ~(uint64_t(1) << (c & 63)); }
    Bits &operator&=(const Bits &o) {
        for (int i = 0; i < W; i++) w[i] &= o.w[i];
        return *this;
    }
    // As integers (the Python masks): the symmetries' canonical key is the least board
    bool less(const Bits &o) const {
        for (int i = W - 1; i >= 0; i--)
            if (w[i] != o.w[i]) return w[i] < o.w[i];
        return false;
    }
};

// Zeroed memory for the table: a large array is mapped directly and asked for transparent huge
// pages (where the kernel gives them on request, as here: "madvise" mode), a small one comes from
// calloc.  A page fault zeroes one page, and on this VM a 4 KB fault costs about 5 us: a 224 MB
// table faulted in 4 KB pages took 0.3 s, about 57,000 faults, against one per 2 MB.  From 1 MB
// on a mapping is whole huge pages on a 2 MB boundary: the kernel backs only the aligned 2 MB
// stretches of a mapping with huge pages, and an unaligned table's ends were faulted in 4 KB
// pages (up to 4 MB of them: 2 ms at ~2 us a fault); one huge page's fault (~0.2 ms) costs less
// than the small pages a search touches.
class Memory {
  public:
    Memory() = default;
    explicit Memory(size_t bytes) {
        if (bytes >= HUGE / 2) {
            map(bytes);
        } else {
            p_ = std::calloc(bytes, 1);
            bytes_ = bytes;
        }
    }
    // Mapped whatever its size, so that `extend` can grow it in place.
    static Memory mapped(size_t bytes) {
        Memory m;
        m.map(bytes);
        return m;
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
    // The most a table bounded by `bytes` may ask for: a block of 1 MB or more is whole huge
    // pages, so a bound is taken down to them (below 2 MB, to just under 1 MB).
    static size_t within(size_t bytes) {
        if (bytes >= HUGE) return bytes / HUGE * HUGE;
        return bytes < HUGE / 2 ? bytes : HUGE / 2 - 1;
    }

    // Grows the block to `bytes` or more, its contents kept and the new bytes zero; false (the
    // block unchanged) when refused.  A mapped block grows in place: on Linux the kernel moves
    // the pages (mremap), never copies them, and the old block is never beside the new, so a
    // table grown so stays within its bound and only the new pages are faulted in (elsewhere: a
    // new mapping and a copy).  From 1 MB on the block moves to a 2 MB boundary, as `map` places
    // it.  A small one from calloc is copied into the new block (a table's first steps: calloc
    // costs less than a mapping of its own for the many searches of a few thousand positions).
    bool extend(size_t bytes) {
        if (!p_) return false;
        size_t whole = rounded(bytes);
        if (whole <= bytes_) return true;
        if (!mapped_) return moved_to(Memory(bytes));  // a small block from calloc: copied (below 1 MB)
#ifdef MREMAP_MAYMOVE
        void *p;
        if (whole >= HUGE / 2) {
            void *target = reserve_aligned(whole);  // replaced by the moved pages
            if (!target) return false;
            p = mremap(p_, bytes_, whole, MREMAP_MAYMOVE | MREMAP_FIXED, target);
            if (p == MAP_FAILED) munmap(target, whole);
        } else {
            p = mremap(p_, bytes_, whole, MREMAP_MAYMOVE);
        }
        if (p == MAP_FAILED) return false;
        p_ = p;
        bytes_ = whole;
        advise();
        return true;
#else
        return moved_to(mapped(bytes));
#endif
    }

  private:
    static constexpr size_t HUGE = size_t(2) << 20;  // a transparent huge page
    // This block's contents copied into `bigger`, which takes its place (false: not allocated)
    bool moved_to(Memory &&bigger) {
        if (!bigger.p_) return false;
        std::memcpy(bigger.p_, p_, bytes_);
        *this = std::move(bigger);
        return true;
    }
    // From 1 MB on, whole huge pages
    static size_t rounded(size_t bytes) { return bytes >= HUGE / 2 ? (bytes + HUGE - 1) / HUGE * HUGE : bytes; }
    // `bytes` of address space on a 2 MB boundary, mapped and not yet touched (null: refused)
    static void *reserve_aligned(size_t bytes) {
        void *p = mmap(nullptr, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return nullptr;
        uintptr_t start = uintptr_t(p), aligned = (start + HUGE - 1) & ~uintptr_t(HUGE - 1);
        if (aligned > start) munmap(p, aligned - start);  // the slack before and after
        munmap(reinterpret_cast<void *>(aligned + bytes), start + HUGE - aligned);
        return reinterpret_cast<void *>(aligned);
    }
    void map(size_t bytes) {
        size_t whole = rounded(bytes);
        void *p;
        if (whole >= HUGE / 2) {
            p = reserve_aligned(whole);
        } else {
            p = mmap(nullptr, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) p = nullptr;
        }
        if (!p) return;
        p_ = p;
        bytes_ = whole;
        mapped_ = true;
        advise();
    }
    void advise() {
#ifdef MADV_HUGEPAGE
        if (bytes_ >= HUGE) madvise(p_, bytes_, MADV_HUGEPAGE);  // a hint: refused, the table works in small pages
#endif
    }
    void release() {
        if (!p_) return;
        if (mapped_)
            munmap(p_, bytes_);
        else
            std::free(p_);
        p_ = nullptr;
    }
    void *p_ = nullptr;
    size_t bytes_ = 0;  // mapped: from 1 MB on, the whole huge pages
    bool mapped_ = false;
};

// The Zobrist keys' generator (a fixed seed gives the same keys, so the same evictions, on every run).
inline uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace bddlc
