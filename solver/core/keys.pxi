# Table keys: what identifies a position at a trick start.  An absolute key names the cards
# still in play (and who holds what where cards change hands); a canonical key names the
# position up to the ranks among the cards in play ("relative ranks"), so positions that
# differ only in which low cards are gone share their entries.  No game is named here.

cdef enum:
    CANON_FLAG = 1u << 31


cdef inline void absolute_key(Ctx* c, uint64_t* ka, uint64_t* kb, uint32_t* kc) noexcept nogil:
    """The position itself: cards in play, the split between hands where cards change
    hands (the stock), the leader, the objective and the history the value depends on."""
    ka[0] = c.inplay
    kb[0] = c.hand[0] if c.stock_layout else 0
    kc[0] = (<uint32_t> c.leader | ((c.obj_id & 63) << 7) | ((c.obj_id >> 6) << 25)
             | history_key(c))


cdef extern from *:
    """
    /* A key of up to 128 bits built plane by plane: one shift and one or per plane. */
    typedef unsigned __int128 st_key128;
    static inline st_key128 st_put(st_key128 key, unsigned long long plane, int off) {
        return key | ((st_key128) plane << off);
    }
    static inline st_key128 st_key_zero(void) { return 0; }
    static inline unsigned long long st_key_lo(st_key128 key) { return (unsigned long long) key; }
    static inline unsigned long long st_key_hi(st_key128 key) { return (unsigned long long) (key >> 64); }
    /* (hi, lo) = (hi, lo) << w | v, for 0 < w < 64 */
    static inline void st_shift_in(unsigned long long* hi, unsigned long long* lo, unsigned long long v, int w) {
        *hi = (*hi << w) | (*lo >> (64 - w));
        *lo = (*lo << w) | v;
    }
    """
    ctypedef struct st_key128:
        pass
    st_key128 st_key_zero() noexcept nogil
    st_key128 st_put(st_key128 key, uint64_t plane, int off) noexcept nogil
    uint64_t st_key_lo(st_key128 key) noexcept nogil
    uint64_t st_key_hi(st_key128 key) noexcept nogil
    void st_shift_in(uint64_t* hi, uint64_t* lo, uint64_t v, int w) noexcept nogil


cdef inline int index_bits(int width) noexcept nogil:
    """Bits to number ``width`` places."""
    return st_msb(<uint64_t> (width - 1)) + 1 if width > 1 else 0


cdef inline uint64_t pile_link(Ctx* c, uint64_t inplay, int y) noexcept nogil:
    """The link of face-down card ``y``: the place, among the cards in play, of the card on it."""
    return <uint64_t> st_popcount(inplay & (st_bit(c.over[y]) - 1))


cdef inline void set_canonical_objective(Ctx* c) noexcept nogil:
    """``c.canon_kc``: the canonical key's flag and objective bits, worked out once per
    objective (and per game, before any objective is set)."""
    c.canon_kc = CANON_FLAG | (canonical_objective(c.obj_id) << 25)


cdef inline int canonical_key(Ctx* c, uint64_t* ka, uint64_t* kb, uint32_t* kc) noexcept nogil:
    """The position up to renaming cards by their rank among the cards still in play:
    per suit, the sequence of (owner, value class) from low to high, plus suit lengths.
    Positions with the same key are the same game (the "relative ranks" of bridge
    solvers).  A stock counts as one more owner; the stock pointer is part of the key, so
    within one deal the cards left in the stock are the same cards in the same order.
    With piles, a plane marks the face-down cards and each face-down card names the place
    of the card lying on it, so the piles are part of the key too.  Only at trick starts.
    Returns 0 if it does not fit in 128 bits (early in a deal).
    The planes, each ``width`` bits (one per card in play), low to high: the owner's bits
    and the value class's bits (``c.kplane``), with piles the face-down cards, then one link
    per face-down card.  Most keys (late in a deal) fit in one word: built there with one
    shift per piece."""
    cdef uint64_t inplay = c.inplay, m, down = 0, hi = 0, lo = 0
    cdef st_key128 key
    cdef int width = st_popcount(inplay)
    cdef int planes = c.owner_bits + c.value_bits
    cdef int off = 0, b, s, y, link_bits = 0, need = c.key_planes * width
    cdef uint32_t lengths = 0
    if need > 128:
        return 0
    if c.has_piles:
        for s in range(c.nseats):            # at a trick start every card in play is held
            down |= c.hand[s] & ~c.play[s]
        link_bits = c.link_bits[width]
        need += st_popcount(down) * link_bits
        if need > 128:
            return 0
    if need <= 64 and width < 64:
        # one word, shifted in from the top (the last link) down to the first owner plane
        m = down
        while m:
            y = st_msb(m)
            m &= ~st_bit(y)
            lo = (lo << link_bits) | pile_link(c, inplay, y)
        if c.has_piles:
            lo = (lo << width) | st_pext(down, inplay)
        for b in range(planes - 1, -1, -1):
            lo = (lo << width) | st_pext(c.kplane[b], inplay)
        ka[0] = lo
        kb[0] = 0
    elif width < 64:
        # two words: a shift of two words by less than 64 bits per piece
        m = down
        while m:
            y = st_msb(m)
            m &= ~st_bit(y)
            st_shift_in(&hi, &lo, pile_link(c, inplay, y), link_bits)
        if c.has_piles:
            st_shift_in(&hi, &lo, st_pext(down, inplay), width)
        for b in range(planes - 1, -1, -1):
            st_shift_in(&hi, &lo, st_pext(c.kplane[b], inplay), width)
        ka[0] = lo
        kb[0] = hi
    else:
        key = st_key_zero()
        for b in range(planes):
            key = st_put(key, st_pext(c.kplane[b], inplay), off)
            off += width
        if c.has_piles:                 # 64 cards in play: no room left for a link
            key = st_put(key, st_pext(down, inplay), off)
        ka[0] = st_key_lo(key)
        kb[0] = st_key_hi(key)
    for s in range(4):
        lengths |= (<uint32_t> st_popcount(inplay & c.suit_mask[s])) << (4 * s)
    kc[0] = c.canon_kc | (lengths << 9) | ((<uint32_t> c.stock_ptr) << 3) | <uint32_t> c.leader
    return 1


cdef inline uint32_t canonical_objective(uint32_t obj) noexcept nogil:
    """The objective's 6 bits of a canonical key: canonical keys are used only in games
    without extras (no goal either), so the goal's bit 5 carries trick_scale 0 (bit 6)."""
    return (obj & 31) | ((obj >> 6) << 5)


cdef inline void position_key(Ctx* c, uint64_t* ka, uint64_t* kb, uint32_t* kc) noexcept nogil:
    if c.use_canon and c.canon_ok and canonical_key(c, ka, kb, kc):
        return
    absolute_key(c, ka, kb, kc)


cdef inline bint portable(Ctx* c, uint32_t kc) noexcept nogil:
    """Whether an entry under this key holds for every layout of an information set, not only
    for this deal: a canonical key names the owner of every card in play and the piles, but
    not the order of a stock, so only once no stock card is left.  (Absolute keys assume the
    deal's hands.)"""
    return (kc & CANON_FLAG) != 0 and c.stock_rest == 0


cdef inline int move_to_entry(Ctx* c, uint32_t kc, int card) noexcept nogil:
    """Canonical entries remember the best card by its place among the cards in play."""
    if kc & CANON_FLAG:
        return st_popcount(c.inplay & (st_bit(card) - 1))
    return card


cdef inline int move_from_entry(Ctx* c, uint32_t kc, int stored) noexcept nogil:
    cdef uint64_t m
    if stored >= MAXCARDS:
        return -1
    if kc & CANON_FLAG:
        m = st_pdep(st_bit(stored), c.inplay)
        return st_ctz(m) if m else -1
    return stored
