# Transposition table: bounds on the value still to come, stored only at trick boundaries so
# an entry never depends on how the position was reached.  Fixed size, 4-way buckets, full
# keys (an entry is used only for exactly the same position), replacement by age then depth.

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset

ctypedef struct TTEntry:
    uint64_t key_a          # every card still in play
    uint64_t key_b          # who holds what where the cards change hands (stock games)
    uint32_t key_c          # leader, suit lengths of a canonical key, search mode
    int16_t lo              # the remaining value is >= lo ...
    int16_t hi              # ... and <= hi
    uint8_t move            # best card found here (move ordering)
    uint8_t depth           # tricks left: what the entry cost to find; 0 = empty
    uint8_t gen             # search generation, for replacement
    uint8_t pad[5]

cdef enum:
    TT_WAYS = 4

ctypedef struct TT:
    TTEntry* entries
    uint64_t nbuckets       # a power of two
    uint8_t gen
    uint64_t probes
    uint64_t hits
    uint64_t stores


cdef int tt_init(TT* t, uint64_t megabytes) noexcept nogil:
    cdef uint64_t want = (megabytes << 20) // (sizeof(TTEntry) * TT_WAYS)
    cdef uint64_t n = 1
    while n * 2 <= want:
        n *= 2
    t.entries = <TTEntry*> calloc(n * TT_WAYS, sizeof(TTEntry))
    if t.entries == NULL:
        return -1
    t.nbuckets = n
    t.gen = 1
    t.probes = 0
    t.hits = 0
    t.stores = 0
    return 0


cdef void tt_free(TT* t) noexcept nogil:
    if t.entries != NULL:
        free(t.entries)
        t.entries = NULL


cdef void tt_clear(TT* t) noexcept nogil:
    memset(t.entries, 0, t.nbuckets * TT_WAYS * sizeof(TTEntry))


cdef inline uint64_t tt_hash(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    cdef uint64_t h = a * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= (b + <uint64_t>0x632BE59BD9B4E019ULL) * <uint64_t>0xC2B2AE3D27D4EB4FULL
    h ^= c * <uint64_t>0x165667B19E3779F9ULL
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    return h


cdef inline TTEntry* tt_probe(TT* t, uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    cdef TTEntry* bucket = t.entries + (tt_hash(a, b, c) & (t.nbuckets - 1)) * TT_WAYS
    cdef int i
    t.probes += 1
    for i in range(TT_WAYS):
        if bucket[i].depth and bucket[i].key_a == a and bucket[i].key_b == b and bucket[i].key_c == c:
            t.hits += 1
            return &bucket[i]
    return NULL


cdef inline void tt_store(TT* t, uint64_t a, uint64_t b, uint32_t c, int lo, int hi,
                          int move, int depth) noexcept nogil:
    cdef TTEntry* bucket = t.entries + (tt_hash(a, b, c) & (t.nbuckets - 1)) * TT_WAYS
    cdef TTEntry* e = NULL
    cdef TTEntry* victim = &bucket[0]
    cdef int i, score, best_score = 1 << 30
    t.stores += 1
    for i in range(TT_WAYS):
        if bucket[i].depth and bucket[i].key_a == a and bucket[i].key_b == b and bucket[i].key_c == c:
            e = &bucket[i]
            break
        # empty first, then older generations, then the cheapest to recompute
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
