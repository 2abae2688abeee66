# Transposition table: bounds on the value still to come, stored only at trick boundaries so
# an entry never depends on how the position was reached.  Fixed size, 4-way buckets, full
# keys (an entry is used only for exactly the same position), replacement by age then depth.

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A zeroed block aligned to 2 MB.  On Linux: anonymous memory, which the kernel zeroes
       lazily page by page as the search touches it (a small search never pays for the whole
       table), with transparent huge pages to save most TLB misses of random probes. */
    #if defined(__linux__)
    static void* st_alloc_table(size_t bytes) {
        size_t align = 2u << 20;
        char* raw = (char*) mmap(NULL, bytes + align, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return NULL;
        size_t lead = (align - ((size_t) raw % align)) % align;
        if (lead) munmap(raw, lead);
        if (align - lead) munmap(raw + lead + bytes, align - lead);
    #if defined(MADV_HUGEPAGE)
        madvise(raw + lead, bytes, MADV_HUGEPAGE);
    #endif
        return raw + lead;
    }
    static void st_free_table(void* p, size_t bytes) { if (p) munmap(p, bytes); }
    #else
    static void* st_alloc_table(size_t bytes) {
        void* p = NULL;
        if (posix_memalign(&p, 2u << 20, bytes) != 0) return NULL;
        memset(p, 0, bytes);
        return p;
    }
    static void st_free_table(void* p, size_t bytes) { free(p); }
    #endif
    static inline void st_prefetch(const void* p) { __builtin_prefetch(p); __builtin_prefetch((const char*)p + 64); }
    /* The bucket of a hash among n buckets, n any count: the high word of hash * n. */
    static inline unsigned long long st_scale(unsigned long long h, unsigned long long n) {
        return (unsigned long long) (((unsigned __int128) h * n) >> 64);
    }
    """
    void* st_alloc_table(size_t bytes) noexcept nogil
    void st_free_table(void* p, size_t bytes) noexcept nogil
    void st_prefetch(const void* p) noexcept nogil
    uint64_t st_scale(uint64_t h, uint64_t n) noexcept nogil

ctypedef struct TTEntry:     # 32 bytes: a bucket of TT_WAYS entries is two whole cache lines
    uint64_t key_a          # every card still in play
    uint64_t key_b          # who holds what where the cards change hands (stock games)
    uint32_t key_c          # leader, suit lengths of a canonical key, search mode
    int16_t lo              # the remaining value is >= lo ...
    int16_t hi              # ... and <= hi
    uint16_t epoch          # the entry is valid only in the table's current epoch ...
    uint8_t move            # best card found here (move ordering)
    uint8_t depth           # tricks left: what the entry cost to find; 0 = empty
    uint8_t gen             # search generation, for replacement
    uint8_t shared          # set: valid since ``shared_from`` too (valid for every layout)
    uint8_t pad[2]

cdef enum:
    TT_WAYS = 4

ctypedef struct TT:
    TTEntry* entries
    uint64_t nbuckets       # as many as the budget holds (any count: ``st_scale``)
    uint8_t gen
    uint16_t epoch          # bumped to clear the table without touching its memory
    uint16_t shared_from    # shared entries of epochs shared_from..epoch are valid
    uint64_t probes
    uint64_t hits
    uint64_t stores


cdef int tt_init(TT* t, uint64_t nbytes) noexcept nogil:
    """A table of as many buckets as ``nbytes`` holds (at least one)."""
    cdef uint64_t n = nbytes // (sizeof(TTEntry) * TT_WAYS)
    if n == 0:
        n = 1
    t.entries = <TTEntry*> st_alloc_table(n * TT_WAYS * sizeof(TTEntry))
    if t.entries == NULL:
        return -1
    t.nbuckets = n
    t.gen = 1
    t.epoch = 1
    t.shared_from = 1
    t.probes = 0
    t.hits = 0
    t.stores = 0
    return 0


cdef void tt_free(TT* t) noexcept nogil:
    if t.entries != NULL:
        st_free_table(t.entries, t.nbuckets * TT_WAYS * sizeof(TTEntry))
        t.entries = NULL


cdef void tt_clear(TT* t) noexcept nogil:
    tt_next_layout(t)
    t.shared_from = t.epoch


cdef void tt_next_layout(TT* t) noexcept nogil:
    """Forget every entry but the shared ones: another layout of the same information set
    (same rules, cards played and cards seen) is about to be searched.  Shared entries are
    those whose key names every card that may differ between such layouts (see
    ``search.pxi``'s ``portable``)."""
    t.epoch += 1
    if t.epoch == 0:          # wrapped after 65535 clears: wipe for real
        memset(t.entries, 0, t.nbuckets * TT_WAYS * sizeof(TTEntry))
        t.epoch = 1
        t.shared_from = 1


cdef inline bint tt_live(TT* t, TTEntry* e) noexcept nogil:
    return e.epoch == t.epoch or (e.shared and e.epoch >= t.shared_from)


cdef inline uint64_t tt_hash(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    cdef uint64_t h = a * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= (b + <uint64_t>0x632BE59BD9B4E019ULL) * <uint64_t>0xC2B2AE3D27D4EB4FULL
    h ^= c * <uint64_t>0x165667B19E3779F9ULL
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    return h


cdef inline TTEntry* tt_bucket(TT* t, uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    return t.entries + st_scale(tt_hash(a, b, c), t.nbuckets) * TT_WAYS


cdef inline TTEntry* tt_probe_bucket(TT* t, TTEntry* bucket, uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    cdef int i
    t.probes += 1
    for i in range(TT_WAYS):
        if bucket[i].key_a == a and bucket[i].key_b == b and bucket[i].key_c == c \
                and bucket[i].depth and tt_live(t, &bucket[i]):
            t.hits += 1
            return &bucket[i]
    return NULL


cdef inline void tt_store(TT* t, uint64_t a, uint64_t b, uint32_t c, int lo, int hi,
                          int move, int depth, bint shared) noexcept nogil:
    cdef TTEntry* bucket = t.entries + st_scale(tt_hash(a, b, c), t.nbuckets) * TT_WAYS
    cdef TTEntry* e = NULL
    cdef TTEntry* victim = &bucket[0]
    cdef int i, score, best_score = 1 << 30
    t.stores += 1
    for i in range(TT_WAYS):
        if not tt_live(t, &bucket[i]):       # stale: as good as empty
            if best_score > -1:
                best_score = -1
                victim = &bucket[i]
            continue
        if bucket[i].key_a == a and bucket[i].key_b == b and bucket[i].key_c == c and bucket[i].depth:
            e = &bucket[i]
            break
        # older generations first, then the cheapest to recompute
        score = bucket[i].depth + (256 if bucket[i].gen == t.gen else 0)
        if score < best_score:
            best_score = score
            victim = &bucket[i]
    if e != NULL:
        if lo < e.lo:
            lo = e.lo
        if hi > e.hi:
            hi = e.hi
        if lo > hi:          # cannot happen with exact keys; keep the newer bounds whole
            return
    else:
        e = victim
        e.key_a = a
        e.key_b = b
        e.key_c = c
    e.lo = <int16_t> lo
    e.hi = <int16_t> hi
    e.move = <uint8_t> move
    e.depth = <uint8_t> depth
    e.gen = t.gen
    e.epoch = t.epoch
    e.shared = shared
