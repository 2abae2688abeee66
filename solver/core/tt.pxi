# Transposition table: bounds on the value still to come, stored only at trick boundaries so
# an entry never depends on how the position was reached.  Fixed size, 4-way buckets, full
# keys (an entry is used only for exactly the same position), replacement by age then depth.
#
# Several engines may search one table at once, each in its own thread (``Engine(share=)``:
# the threads of one solve).  Then every entry is guarded by its own sequence number, as a
# seqlock: a writer makes it odd (one compare-and-swap; a writer that finds it odd or loses
# the swap leaves the entry alone: a table may always forget), writes, and makes it even
# again; a reader copies the entry and uses the copy only if the number was even and did
# not change meanwhile.  So a reader never sees half of one entry and half of another, and
# every bound used is one some search proved.  One engine alone (``concurrent`` 0) reads and
# writes plainly.

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
    /* Sequence numbers of entries shared between threads (a seqlock per entry). */
    static inline unsigned short st_seq_read(unsigned short* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline int st_seq_same(unsigned short* p, unsigned short s) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        return __atomic_load_n(p, __ATOMIC_RELAXED) == s;
    }
    static inline int st_seq_lock(unsigned short* p) {      /* the number before, or -1 */
        unsigned short s = __atomic_load_n(p, __ATOMIC_RELAXED);
        if (s & 1) return -1;
        if (!__atomic_compare_exchange_n(p, &s, (unsigned short) (s + 1), 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return -1;
        return s;
    }
    static inline void st_seq_unlock(unsigned short* p, int s) { __atomic_store_n(p, (unsigned short) (s + 2), __ATOMIC_RELEASE); }
    /* The bucket of a hash among n buckets, n any count: the high word of hash * n. */
    static inline unsigned long long st_scale(unsigned long long h, unsigned long long n) {
        return (unsigned long long) (((unsigned __int128) h * n) >> 64);
    }
    """
    void* st_alloc_table(size_t bytes) noexcept nogil
    void st_free_table(void* p, size_t bytes) noexcept nogil
    void st_prefetch(const void* p) noexcept nogil
    uint64_t st_scale(uint64_t h, uint64_t n) noexcept nogil
    uint16_t st_seq_read(uint16_t* p) noexcept nogil
    bint st_seq_same(uint16_t* p, uint16_t s) noexcept nogil
    int st_seq_lock(uint16_t* p) noexcept nogil
    void st_seq_unlock(uint16_t* p, int s) noexcept nogil

ctypedef struct TTEntry:     # 32 bytes: a bucket of TT_WAYS entries is two whole cache lines
    uint64_t key_a          # absolute keys: every card still in play; canonical: planes, low word
    uint64_t key_b          # absolute: who holds what where cards change hands; canonical: high word
    uint32_t key_c          # leader, suit lengths of a canonical key, search mode
    int16_t lo              # the remaining value is >= lo ...
    int16_t hi              # ... and <= hi
    uint16_t epoch          # the entry is valid only in the table's current epoch ...
    uint8_t move            # best card found here (move ordering)
    uint8_t depth           # tricks left: what the entry cost to find; 0 = empty
    uint8_t gen             # search generation, for replacement
    uint8_t shared          # set: valid since ``shared_from`` too (valid for every layout)
    uint16_t seq            # odd while a thread writes it (a table shared by threads)

cdef enum:
    TT_WAYS = 4

ctypedef struct TT:
    TTEntry* entries
    uint64_t nbuckets       # as many as the budget holds (any count: ``st_scale``)
    uint8_t gen
    uint16_t epoch          # bumped to clear the table without touching its memory
    uint16_t shared_from    # shared entries of epochs shared_from..epoch are valid
    int concurrent          # engines other than its owner search it too (the seqlock in use)


ctypedef struct TTHit:      # what a probe found: a copy, which no other thread can change
    int lo
    int hi
    int move


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
    t.concurrent = 0
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


cdef inline bint tt_matches(TT* t, TTEntry* e, uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    return e.key_a == a and e.key_b == b and e.key_c == c and e.depth and tt_live(t, e)


cdef inline bint tt_probe_bucket(TT* t, TTEntry* bucket, uint64_t a, uint64_t b, uint32_t c,
                                 TTHit* hit) noexcept nogil:
    """Is this position's entry in the bucket?  Then ``hit`` is a copy of its bounds."""
    cdef int i
    cdef uint16_t seq
    cdef TTEntry e
    if not t.concurrent:
        for i in range(TT_WAYS):
            if tt_matches(t, &bucket[i], a, b, c):
                hit.lo = bucket[i].lo
                hit.hi = bucket[i].hi
                hit.move = bucket[i].move
                return 1
        return 0
    for i in range(TT_WAYS):
        seq = st_seq_read(&bucket[i].seq)
        if seq & 1:
            continue
        e = bucket[i]
        if st_seq_same(&bucket[i].seq, seq) and tt_matches(t, &e, a, b, c):
            hit.lo = e.lo
            hit.hi = e.hi
            hit.move = e.move
            return 1
    return 0


cdef inline int replace_score(bint live, int depth, int gen, int current_gen) noexcept nogil:
    """How much an entry is worth keeping (the lowest is replaced): -1 stale (as good as
    empty), else older generations first, then the cheapest to recompute.  Both tables."""
    if not live:
        return -1
    return depth + (256 if gen == current_gen else 0)


cdef inline void tt_store(TT* t, uint64_t a, uint64_t b, uint32_t c, int lo, int hi,
                          int move, int depth, bint shared) noexcept nogil:
    """Store bounds for a position.  Its entry, if there is one, keeps the tighter of the old
    and the new bounds; else the entry ``replace_score`` ranks lowest is replaced."""
    cdef TTEntry* bucket = t.entries + st_scale(tt_hash(a, b, c), t.nbuckets) * TT_WAYS
    cdef TTEntry* e = NULL
    cdef TTEntry* victim = &bucket[0]
    cdef int i, score, best_score = 1 << 30, seq = 0
    cdef bint live
    for i in range(TT_WAYS):
        live = tt_live(t, &bucket[i])
        if live and bucket[i].key_a == a and bucket[i].key_b == b and bucket[i].key_c == c \
                and bucket[i].depth:
            e = &bucket[i]
            break
        score = replace_score(live, bucket[i].depth, bucket[i].gen, t.gen)
        if score < best_score:
            best_score = score
            victim = &bucket[i]
    if t.concurrent:
        # the entry chosen is locked first; if another thread writes it, this store is
        # dropped; if it holds another position by now, it is replaced whole
        seq = st_seq_lock(&(e if e != NULL else victim).seq)
        if seq < 0:
            return
        if e != NULL and not tt_matches(t, e, a, b, c):
            victim = e
            e = NULL
    if e != NULL:
        if lo < e.lo:
            lo = e.lo
        if hi > e.hi:
            hi = e.hi
        if lo > hi:          # cannot happen with exact keys: the entry is left as it was
            if t.concurrent:
                st_seq_unlock(&e.seq, seq)
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
    if t.concurrent:
        st_seq_unlock(&e.seq, seq)
