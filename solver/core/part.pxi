# Partition search (Ginsberg; the "winning ranks" of bridge solvers): a stored bound holds for
# every position that differs from the one searched only in cards too low to have mattered.
#
# While a subtree is searched, ``c.rel`` collects the cards in play whose rank mattered
# (``search_child`` saves and restores it around each node, so a node sees its own subtree's
# cards).  Per suit the cut is the lowest such card; every card above it counts too.  An entry
# stores the position's canonical planes (search.pxi) and per suit how many top cards are
# relevant; it holds for any position with the same leader, objective and suit lengths, the
# same (owner, value class) sequence of those top cards, and per suit, seat and value class
# the same number of cards (the "summary", which finds the bucket): map every low card of the
# stored position to a low card of the same seat, suit and value class; every comparison of
# ranks that decided a trick, a legal move or a bound involved a relevant card, which is mapped
# to itself, and the low cards all stay below it, so the proof of the bound carries over move
# for move.  The rules that mark cards (each argued where it is applied):
#   - a finished trick whose winner beat another card of its own effective suit: the winner
#     (above the cut the winner stays above every low card of its suit; a trump that beat only
#     plain cards, or a card nobody followed, wins by suit alone);
#   - a must-beat rule in force at a follow: the card winning so far (which cards beat it is
#     then the same set: the fixed cards above it and the trumps);
#   - a table hit whose bounds tightened the node's: that entry's top cards here;
#   - a sure-points bound (quick tricks, sure trumps) that moved a bound: the top cards it
#     counted (fixed, they stay the top cards with the same owners);
#   - a card dropped by ``merge_equivalent`` for the next lower card b, when the dropped card
#     ends above the cut: b too (otherwise the two need not be neighbours in the other
#     position, and the dropped card's subtree was never searched);
#   - a child's cards are the parent's (cards only leave play, so they are in play above).
# Only at trick starts with no stock left, no piles, no beat table and no extras; everything
# else keeps the exact table.  Stock games qualify once the stock is drawn (the follow
# phase; ``c.stock_rest`` never grows inside a search, so such a subtree is all eligible), but
# only with ``use_part == PART_STOCK``: measured there it cost nodes and time (README).

cdef enum:
    PART_WAYS = 4
    PART_ON = 1             # use_part: deals without a stock
    PART_STOCK = 2          # ... and stock games once the stock is drawn (measured: slower)
    PART_SHARE = 8          # the partition table gets this fraction of the table budget (1/8)


cdef int part_init(PartTT* t, uint64_t nbytes) noexcept nogil:
    """A table of as many buckets as ``nbytes`` holds (none if it holds none)."""
    cdef uint64_t n = nbytes // (sizeof(PartEntry) * PART_WAYS)
    t.entries = NULL
    t.nbuckets = 0
    t.epoch = 1
    t.shared_from = 1
    t.probes = 0
    t.hits = 0
    t.stores = 0
    if n == 0:
        return 0
    t.entries = <PartEntry*> st_alloc_table(n * PART_WAYS * sizeof(PartEntry))
    if t.entries == NULL:
        return -1
    t.nbuckets = n
    return 0


cdef void part_free(PartTT* t) noexcept nogil:
    if t.entries != NULL:
        st_free_table(t.entries, t.nbuckets * PART_WAYS * sizeof(PartEntry))
        t.entries = NULL
        t.nbuckets = 0


cdef void part_next_layout(PartTT* t) noexcept nogil:
    """``tt_next_layout`` for the partition table (its own epochs, bumped with the exact
    table's: so an engine sharing another's exact table clears its own partition table)."""
    t.epoch += 1
    if t.epoch == 0:          # wrapped after 65535 clears: wipe for real
        if t.entries != NULL:
            memset(t.entries, 0, t.nbuckets * PART_WAYS * sizeof(PartEntry))
        t.epoch = 1
        t.shared_from = 1


cdef void part_clear(PartTT* t) noexcept nogil:
    part_next_layout(t)
    t.shared_from = t.epoch


cdef void tables_clear(TT* tt, PartTT* pt) noexcept nogil:
    """Forget every entry of both tables."""
    tt_clear(tt)
    part_clear(pt)


cdef void tables_next_layout(TT* tt, PartTT* pt) noexcept nogil:
    """``tt_next_layout`` for both tables: only the shared entries stay."""
    tt_next_layout(tt)
    part_next_layout(pt)


cdef inline void part_update(Ctx* c) noexcept nogil:
    """What ``part_node`` needs of the game and the switches, worked out once per setup (it
    is asked at every node)."""
    c.part_on = (c.use_part and c.part_ok and c.use_tt and c.use_canon
                 and (c.stock_len == 0 or c.use_part == PART_STOCK))


cdef inline bint part_node(Ctx* c) noexcept nogil:
    """Does this node collect relevant cards and use the partition table?"""
    return c.part_on and c.stock_rest == 0


cdef inline uint64_t part_summary(Ctx* c) noexcept nogil:
    """Per suit, seat and value code the number of cards, packed (exact: widths from setup)."""
    cdef uint64_t out = 0, h
    cdef int s, o, k, off = 0
    for s in range(4):
        for o in range(c.nseats):
            h = c.hand[o] & c.suit_mask[s]
            for k in range(c.ncode):
                out |= (<uint64_t> st_popcount(h & c.code_mask[k])) << off
                off += c.code_width[k]
    return out


cdef inline int part_key(Ctx* c, uint64_t* sm, uint64_t* ka, uint64_t* kb, uint32_t* kc) noexcept nogil:
    """The summary and canonical key of a trick start; 0 if the canonical key does not fit."""
    if not canonical_key(c, ka, kb, kc):
        return 0
    sm[0] = part_summary(c)
    return 1


cdef inline PartEntry* part_bucket(PartTT* t, uint64_t sm, uint32_t kc) noexcept nogil:
    return t.entries + st_scale(tt_hash(sm, 0x5bd1e995, kc), t.nbuckets) * PART_WAYS


cdef inline uint64_t top_of_suit(uint64_t m, int k) noexcept nogil:
    """The ``k`` highest set bits of ``m``."""
    cdef int n = st_popcount(m)
    if k <= 0:
        return 0
    if k >= n:
        return m
    return st_pdep(((st_bit(k) - 1) << (n - k)), m)


cdef inline void part_match_mask(Ctx* c, int cuts, uint64_t* mka, uint64_t* mkb) noexcept nogil:
    """The bits of the canonical planes that name the top ``cuts`` cards of each suit."""
    cdef uint64_t inplay = c.inplay, top = 0, pos
    cdef int s, b, width = st_popcount(inplay), planes = c.owner_bits + c.value_bits
    for s in range(4):
        top |= top_of_suit(inplay & c.suit_mask[s], (cuts >> (4 * s)) & 15)
    cdef st_key128 key = st_key_zero()
    pos = st_pext(top, inplay)
    for b in range(planes):
        key = st_put(key, pos, b * width)
    mka[0] = st_key_lo(key)
    mkb[0] = st_key_hi(key)


cdef inline uint64_t part_cards(Ctx* c, int cuts) noexcept nogil:
    """The cards of this position an entry with ``cuts`` relies on."""
    cdef uint64_t out = 0
    cdef int s
    for s in range(4):
        out |= top_of_suit(c.inplay & c.suit_mask[s], (cuts >> (4 * s)) & 15)
    return out


cdef inline int part_cuts(Ctx* c, uint64_t rel) noexcept nogil:
    """Per suit, how many top cards are relevant: down to the lowest relevant card."""
    cdef uint64_t r, m
    cdef int s, cuts = 0
    for s in range(4):
        m = c.inplay & c.suit_mask[s]
        r = rel & m
        if r:
            cuts |= st_popcount(m & ~(st_bit(st_ctz(r)) - 1)) << (4 * s)
    return cuts


cdef inline bint part_live(PartTT* t, PartEntry* e) noexcept nogil:
    return e.depth and (e.epoch == t.epoch or (e.shared and e.epoch >= t.shared_from))


cdef inline bint part_matches(Ctx* c, PartEntry* e, uint64_t sm, uint64_t ka, uint64_t kb,
                              uint32_t kc) noexcept nogil:
    cdef uint64_t mka, mkb
    if e.summary != sm or e.key_c != kc:
        return 0
    part_match_mask(c, e.cuts, &mka, &mkb)
    return ((e.key_a ^ ka) & mka) == 0 and ((e.key_b ^ kb) & mkb) == 0


cdef inline PartEntry* part_probe(Ctx* c, TT* tt, PartEntry* bucket, uint64_t sm, uint64_t ka,
                                  uint64_t kb, uint32_t kc) noexcept nogil:
    """An entry that holds for this position: same summary and key word, same top cards."""
    cdef int i
    cdef PartTT* t = c.pt
    t.probes += 1
    for i in range(PART_WAYS):
        if part_live(t, &bucket[i]) and part_matches(c, &bucket[i], sm, ka, kb, kc):
            t.hits += 1
            return &bucket[i]
    return NULL


cdef inline void part_store(Ctx* c, TT* tt, PartEntry* bucket, uint64_t sm, uint64_t ka,
                            uint64_t kb, uint32_t kc, int lo, int hi, int move, int depth,
                            bint shared) noexcept nogil:
    """Store bounds that hold for every position matching this one down to the cuts of
    ``c.rel``.  An entry that already holds for this position is merged in: the merged entry
    keeps the cuts of both (per suit the larger), so it holds where both held."""
    cdef PartEntry* e = NULL
    cdef PartEntry* victim = &bucket[0]
    cdef int i, s, score, best_score = 1 << 30, cuts = part_cuts(c, c.rel), a, b
    cdef bint live
    c.pt.stores += 1
    for i in range(PART_WAYS):
        live = part_live(c.pt, &bucket[i])
        if live and part_matches(c, &bucket[i], sm, ka, kb, kc):
            e = &bucket[i]
            break
        score = replace_score(live, bucket[i].depth, bucket[i].gen, tt.gen)
        if score < best_score:
            best_score = score
            victim = &bucket[i]
    if e != NULL and e.cuts != cuts and not (e.key_a == ka and e.key_b == kb):
        pass                # another position's entry: the newer bounds replace it whole
    elif e != NULL:
        if lo < e.lo:
            lo = e.lo
        if hi > e.hi:
            hi = e.hi
        if lo > hi:
            return
        for s in range(4):
            a = (cuts >> (4 * s)) & 15
            b = (e.cuts >> (4 * s)) & 15
            if b > a:
                cuts = (cuts & ~(15 << (4 * s))) | (b << (4 * s))
        if not e.shared:
            shared = 0
    else:
        e = victim
    e.summary = sm
    e.key_a = ka
    e.key_b = kb
    e.key_c = kc
    e.cuts = <uint16_t> cuts
    e.lo = <int16_t> lo
    e.hi = <int16_t> hi
    e.move = <uint8_t> move
    e.depth = <uint8_t> depth
    e.gen = tt.gen
    e.epoch = c.pt.epoch
    e.shared = shared


# --- the rules that mark relevant cards (see the head of this file) ------------------------

cdef inline uint64_t winner_relevance(Ctx* c, int tb, int n) noexcept nogil:
    """The winner of the trick at ``tb`` if it beat another card of its own effective suit."""
    cdef int w = c.tcard[tb + c.twin[tb + n - 1]], k
    for k in range(n):
        if c.tcard[tb + k] != w and c.suit[c.tcard[tb + k]] == c.suit[w]:
            return st_bit(w)
    return 0


cdef inline uint64_t last_trick_relevance(Ctx* c) noexcept nogil:
    """``last_trick``'s winner, by the same rule (every seat holds one card)."""
    cdef int n = c.nseats, k, s, x
    cdef int wcard = st_ctz(c.hand[c.leader])
    cdef uint64_t cards = st_bit(wcard)
    for k in range(1, n):
        s = c.seat_of[c.leader + k]
        x = st_ctz(c.hand[s])
        cards |= st_bit(x)
        if (beaters(c, wcard) >> x) & 1:
            wcard = x
    if cards & c.suit_mask[c.suit[wcard]] & ~st_bit(wcard):
        return st_bit(wcard)
    return 0


cdef inline uint64_t follow_relevance(Ctx* c) noexcept nogil:
    """At a follow under a must-beat rule: the card winning so far."""
    cdef Rule* r = rule_now(c)
    if r.must_beat:
        return st_bit(c.tcard[c.tb + c.twin[c.tb + c.tlen - 1]])
    return 0


cdef inline void merge_relevance(Ctx* c, uint64_t merged) noexcept nogil:
    """``merged``: cards dropped for the next lower card in play.  If a dropped card ends at
    or above its suit's cut, the card it was dropped for becomes relevant (high to low, so a
    run of merged cards is followed down)."""
    cdef uint64_t m = merged, sm
    cdef int x
    while m:
        x = st_msb(m)
        m &= ~st_bit(x)
        sm = c.suit_mask[c.suit[x]]
        if c.rel & sm & ((st_bit(x) << 1) - 1):
            c.rel |= st_bit(st_msb(c.inplay & sm & (st_bit(x) - 1)))


cdef inline int part_etc_cutoff(Ctx* c, TT* tt, int seat, uint64_t legal, int maximize,
                                int alpha, int beta, int* value) noexcept nogil:
    """``etc_cutoff`` (search.pxi) with the partition table: a child's entry that decides
    this node marks its own top cards and the winner of the trick the card finished."""
    cdef uint64_t m = legal, sm, ka, kb, rel
    cdef uint32_t kc
    cdef int x, cut
    cdef Undo u
    cdef PartEntry* e
    while m:
        x = st_ctz(m)
        m &= m - 1
        do_move(c, seat, x, &u)
        cut = 0
        if not u.stop and c.tricks_left >= 2 and part_key(c, &sm, &ka, &kb, &kc):
            e = part_probe(c, tt, part_bucket(c.pt, sm, kc), sm, ka, kb, kc)
            if e != NULL and child_decides(maximize, u.gain, e.lo, e.hi, alpha, beta, value):
                cut = 1
                rel = part_cards(c, e.cuts) | winner_relevance(c, c.tb - c.nseats, c.nseats)
        undo_move(c, &u)
        if cut:
            c.rel |= rel
            return x
    return -1


cdef inline bint part_child_cutoff(Ctx* c, TT* tt, int maximize, int alpha, int beta, int gain,
                                   int* value) noexcept nogil:
    """For ``etc_cutoff`` at a node that collects no cards (the stock was not yet drawn): does
    the partition table's entry for the trick start just reached decide the parent?"""
    cdef uint64_t sm, ka, kb
    cdef uint32_t kc
    cdef PartEntry* e
    if not part_key(c, &sm, &ka, &kb, &kc):
        return 0
    e = part_probe(c, tt, part_bucket(c.pt, sm, kc), sm, ka, kb, kc)
    return e != NULL and child_decides(maximize, gain, e.lo, e.hi, alpha, beta, value)
