# The position as the core sees it: 64-bit card masks, the trick in progress, the stock.
# Card indices run suit by suit, each suit from its lowest card up (see solver/core/tables.py), so
# "higher in the same suit" is "a higher bit inside the suit's mask".  No game is named here.

from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, uint16_t, int16_t, uint8_t, int8_t

cdef extern from *:
    """
    static inline int st_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int st_msb(unsigned long long x) { return 63 - __builtin_clzll(x); }
    static inline int st_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline unsigned long long st_bit(int i) { return 1ULL << i; }
    /* every bit up to the highest set bit of x (none if x is 0) */
    static inline unsigned long long st_below_top(unsigned long long x) { return x ? ~0ULL >> __builtin_clzll(x) : 0; }
    #ifdef __BMI2__
    #include <immintrin.h>
    static inline unsigned long long st_pext(unsigned long long x, unsigned long long m) { return _pext_u64(x, m); }
    static inline unsigned long long st_pdep(unsigned long long x, unsigned long long m) { return _pdep_u64(x, m); }
    #else
    static inline unsigned long long st_pext(unsigned long long x, unsigned long long m) {
        unsigned long long r = 0, b = 1;
        while (m) { if (x & m & (0ULL - m)) r |= b; m &= m - 1; b <<= 1; }
        return r;
    }
    static inline unsigned long long st_pdep(unsigned long long x, unsigned long long m) {
        unsigned long long r = 0, b = 1;
        while (m) { if (x & b) r |= m & (0ULL - m); m &= m - 1; b <<= 1; }
        return r;
    }
    #endif
    """
    int st_ctz(uint64_t x) noexcept nogil
    int st_msb(uint64_t x) noexcept nogil
    int st_popcount(uint64_t x) noexcept nogil
    uint64_t st_bit(int i) noexcept nogil
    uint64_t st_below_top(uint64_t x) noexcept nogil
    uint64_t st_pext(uint64_t x, uint64_t m) noexcept nogil
    uint64_t st_pdep(uint64_t x, uint64_t m) noexcept nogil

cdef enum:
    MAXSEATS = 8
    MAXCARDS = 64
    MAXMOVES = 32               # cards a seat may play, times the pairs it may show with a lead
    MAXSTOCK = 40
    MAXPLY = 80
    MAXVC = 12
    MAXPAIRS = 4
    MAXGOAL = 256
    INF = 30000
    ETC_FROM = 8                # enhanced transposition cutoffs pay from about this many tricks left

ctypedef struct Rule:
    int follow_suit
    int must_trump
    int must_beat

ctypedef struct Ctx:
    # --- static tables of the game (filled by Engine.setup) ---
    int nseats
    int side[MAXSEATS]
    int nopponents[MAXSEATS]            # how many seats are of the other side than each seat's,
    int opponents[MAXSEATS][MAXSEATS]   # and which (``other_side``)
    int suit[MAXCARDS]
    int value[MAXCARDS]
    int under[MAXCARDS]
    int over[MAXCARDS]          # the card lying on it in its pile (-1: none)
    uint64_t uncover[MAXCARDS]  # the card beneath it, which playing it turns up (or none)
    int rank[MAXCARDS]          # places above the lowest card of its suit (move ordering)
    int cheap_key[MAXCARDS]     # value, then rank, then the card (its low 6 bits): what a card
                                # gives away, one key per card (move ordering)
    int fscore[4][MAXCARDS]     # each card's score as a follow, in four cases (order.pxi)
    int lead_bonus[MAXCARDS]    # what a lead's score adds for the card (order.pxi)
    int force_bonus[MAXCARDS]   # what a losing lead's score adds for the card that wins it
    uint64_t suit_mask[4]
    uint64_t trump_mask
    int trump
    Rule rule_main
    Rule rule_stock
    int trick_bonus
    int last_bonus
    int stock_layout
    int has_piles               # some card lies under another
    int stock[MAXSTOCK]
    int stock_len
    uint64_t nomerge            # cards never merged with their neighbours
    uint64_t mergeable          # cards that may be merged: not nomerge, no pile card beneath
    int beat_table              # 1: beaters() reads beat_by (a higher card need not beat a lower)
    uint64_t beat_by[MAXCARDS]  # the cards that beat a card winning the trick (beat_table only)
    uint64_t beats[MAXCARDS]    # every card that beats a card winning the trick (``beaters``)
    int seat_of[2 * MAXSEATS + 1]   # seat_of[i] = i mod nseats: seat arithmetic without a division
    # --- the objective (see objective.pxi) ---
    int max_side
    int mode
    int trick_scale
    int extra_own
    int extra_other
    int npair                   # pair bonus: pairs of cards the leader may show, once each, with
    int pair_a[MAXPAIRS]        # any lead while both lie face up in his playable cards, once his
    int pair_b[MAXPAIRS]        # side has won a trick; showing pair p earns pair_val[p]
    int pair_val[MAXPAIRS]
    uint64_t pair_cards
    int run_tricks              # run bonus: winning each of the last run_tricks tricks brings
    int run_value               # run_value
    int goal                    # final payoff in use: goal_pay[sides that won a trick][side 0's
    int goal_pay[4][MAXGOAL]    # trick points at the end], for side 0 (objective.pxi)
    int goal_lo                 # the least and the most of goal_pay
    int goal_hi
    int goal_pts                # side 0's trick points so far (kept with extras; keyed with a goal)
    int extras                  # any of the three above: the value depends on a little history
    int tag                     # history the value depends on (objective.pxi)
    int nvc                     # value classes: sum of values = sum vc_val * popcount
    int vc_val[MAXVC]
    uint64_t vc_mask[MAXVC]
    uint64_t valued             # every card of some value class (worth more than nothing)
    uint64_t vc_plane[4]        # bit b of (value class + 1), card by card: canonical keys
    # --- dynamic state ---
    uint64_t hand[MAXSEATS]     # every card a seat holds (face-down pile cards included)
    uint64_t play[MAXSEATS]     # the cards it could play now (face-up)
    uint64_t inplay             # not yet in a finished trick: hands, stock, current trick
    int inplay_points           # value_sum(inplay), kept up to date trick by trick
    uint64_t tcards             # the cards of the trick in progress
    int leader
    int tlen
    int tb                      # where the trick in progress starts in the three arrays below
    int tcard[MAXPLY]           # cards of the tricks being searched, trick after trick
    int twin[MAXPLY]            # position in its trick of the card winning after k+1 cards
    int tval[MAXPLY]            # card points in the trick after k+1 cards
    int stock_ptr
    uint64_t stock_rest         # the cards still in the stock
    int tricks_left             # tricks not finished, the current one included
    # --- search switches and statistics ---
    int use_tt
    int use_merge
    int use_bounds
    int use_order
    int use_killer              # the lead that last cut with as many tricks left first (order.pxi)
    int use_canon
    int use_etc                 # enhanced transposition cutoffs at the last seat of a trick,
                                # from this many tricks left (0: never; ETC_FROM by default)
    int pre_valid               # the parent computed this trick start's key (pre_ka..pre_kc)
    uint64_t pre_ka
    uint64_t pre_kb
    uint32_t pre_kc
    void* pre_bucket            # ... and fetched its bucket (a TTEntry*)
    int etc_from                # use_etc where it is in force (the table on), else never
    int sure_bounds             # sure points bound trick starts (switches, objective, game)
    int lean                    # plain points, no extras: moves by do_lean (objective.pxi)
    int two_sides_of_one        # two seats, each a side of its own (leads: score_leads_two)
    int killer_fits             # more than two seats and no card worth points (order.pxi)
    int killer_leads            # ... and the killer lead switched on (search_update)
    int canon_ok                # canonical keys possible: no extras, no card kept apart from its
                                # neighbours (nomerge: a beat table, pair cards)
    int owner_bits              # bits to number a seat
    int key_planes              # owner_bits + value_bits + has_piles: planes of a canonical key
    uint64_t kplane[8]          # the canonical key's planes, low to high: bit b of each card's
                                # owner (seat; nseats: the stock) for b < owner_bits, kept up to
                                # date as the stock is drawn, then bit b of (value class + 1)
    int link_bits[MAXCARDS + 1] # bits to number ``width`` places (a pile's link), by width
    uint32_t canon_kc           # CANON_FLAG and the objective's bits of a canonical key
    int oflip[MAXSEATS]         # the owner bits a card drawn by this seat flips (seat ^ nseats)
    uint32_t obj_id             # objective_id, worked out when the objective is set
    int value_bits              # bits to number a value class
    uint64_t nodes
    uint64_t trick_nodes        # nodes at a trick's start, the root's too (DDS counts these)
    uint64_t tt_probes          # this engine's probes, hits and stores of the exact table
    uint64_t tt_hits
    uint64_t tt_stores
    uint64_t next_check         # the node count at which limit_hit looks next (limits.pxi)
    uint64_t next_tick          # ... reads the clock and the interrupt counter next
    int interrupted             # the search was stopped by Ctrl-C (SIGINT), not by a limit
    int halted                  # another thread asked this search to stop (``Engine.halt``):
                                # read and written atomically (st_load_flag, st_store_flag)
    int haltable                # ... which only a ``window`` test heeds
    uint64_t node_limit         # stop once ``nodes`` reaches this (0: no node limit)
    double deadline             # stop at this monotonic time in seconds (0: no time limit)
    int aborted                 # a limit was hit: searches unwind at once and store nothing
    int order_lead              # lead ordering: 0 history only, 1 one-trick look-ahead
    uint64_t stat_cut[4]        # cutoffs at trick position k (0 = leading)
    uint64_t stat_cut_first[4]  # ... achieved by the first move tried
    int hist[MAXSEATS][MAXCARDS]        # cut-offs by each card, weighted (capped: order.pxi)
    int hist_key[MAXSEATS][MAXCARDS]    # its part of the card's sort key
    int killer[MAXPLY]          # per tricks left: the lead that last cut there (-1: none)
    # --- partition search (part.pxi) ---
    int use_part                # 0 off, PART_ON, PART_STOCK (part.pxi)
    int part_on                 # use_part in force for this game and these switches (part_update)
    int part_ok                 # the game allows it: canonical keys, no piles, no beat table,
                                # no extras, a summary that fits 64 bits, suits of <= 15 cards
    uint64_t rel                # cards whose rank mattered in the subtree being searched
    int ncode                   # value codes: 0 (no points) and 1 + value class
    uint64_t code_mask[MAXVC + 1]
    int code_width[MAXVC + 1]   # bits of a count of one code in one suit and hand
    PartTT* pt


cdef inline uint64_t higher_in_suit(Ctx* c, int card) noexcept nogil:
    """Cards of the same effective suit that outrank ``card``."""
    return c.suit_mask[c.suit[card]] & ~((st_bit(card) << 1) - 1)


cdef inline uint64_t beaters_of(Ctx* c, int card) noexcept nogil:
    """Every card that would beat ``card`` if it is the one winning the trick (worked out at
    setup into ``c.beats``: read it with ``beaters``)."""
    cdef uint64_t m
    if c.beat_table:
        return c.beat_by[card]
    m = higher_in_suit(c, card)
    if c.suit[card] != c.trump:
        m |= c.trump_mask
    return m


cdef inline uint64_t beaters(Ctx* c, int card) noexcept nogil:
    return c.beats[card]


cdef inline int value_sum(Ctx* c, uint64_t mask) noexcept nogil:
    cdef int i, total = 0
    for i in range(c.nvc):
        total += c.vc_val[i] * st_popcount(mask & c.vc_mask[i])
    return total


cdef inline int remaining_total(Ctx* c) noexcept nogil:
    """Everything still to be won: cards not in finished tricks plus trick bonuses."""
    return c.inplay_points + c.trick_bonus * c.tricks_left + (c.last_bonus if c.tricks_left > 0 else 0)


cdef inline int to_move(Ctx* c) noexcept nogil:
    return c.seat_of[c.leader + c.tlen]


cdef inline Rule* rule_now(Ctx* c) noexcept nogil:
    """The follow rule in force: the stock's while one lasts."""
    return &c.rule_stock if c.stock_ptr < c.stock_len else &c.rule_main


cdef inline uint64_t follow_cards(Ctx* c, Rule* r, uint64_t p, int suit) noexcept nogil:
    """The cards of ``p`` that ``r`` lets follow a lead of ``suit``, before ``must_beat``
    (the part that depends on the suit led alone, worked out once for many leads)."""
    cdef uint64_t f
    if r.follow_suit:
        f = p & c.suit_mask[suit]
        if f:
            return f
        if r.must_trump:
            f = p & c.trump_mask
            if f:
                return f
    return p


cdef inline uint64_t beat_if_must(Ctx* c, Rule* r, uint64_t a, int winning) noexcept nogil:
    """Of the cards ``a`` that may follow, those ``r`` lets be played to a trick won so far
    by ``winning`` (with ``must_beat``, its beaters if any)."""
    cdef uint64_t f
    if r.must_beat:
        f = a & beaters(c, winning)
        if f:
            return f
    return a


cdef inline uint64_t allowed_after(Ctx* c, int seat, int lead, int winning) noexcept nogil:
    """The cards ``seat`` may play to a trick led with ``lead`` and won so far by ``winning``."""
    cdef Rule* r = rule_now(c)
    return beat_if_must(c, r, follow_cards(c, r, c.play[seat], c.suit[lead]), winning)


cdef inline uint64_t legal_mask(Ctx* c, int seat) noexcept nogil:
    """The cards ``seat`` may play to the current trick under the follow rule of the phase."""
    if c.tlen == 0:
        return c.play[seat]
    return allowed_after(c, seat, c.tcard[c.tb], c.tcard[c.tb + c.twin[c.tb + c.tlen - 1]])


cdef inline uint64_t merge_equivalent(Ctx* c, uint64_t moves) noexcept nogil:
    """Keep one card of each run of equivalent moves: same suit, nothing still in play
    between them, same value, and no pile card beneath either.  The lowest card stands for
    its run; any line with another card of the run can be copied move for move.
    Worked out without a loop over the cards: compressed to the cards in play (``pext``),
    a card's next lower card in play is the bit below it, so a card is dropped where that
    bit is a move too, both may merge, no suit starts between them (``firsts``) and their
    value classes agree plane by plane."""
    cdef uint64_t inplay = c.inplay, firsts = 0, m, cm, ok, diff = 0, v
    cdef int s, b
    for s in range(4):
        m = inplay & c.suit_mask[s]
        firsts |= m & (0 - m)
    for b in range(c.value_bits):
        v = st_pext(c.vc_plane[b], inplay)
        diff |= v ^ (v << 1)
    cm = st_pext(moves, inplay)
    ok = st_pext(c.mergeable, inplay)
    cm &= ok
    cm &= (cm << 1) & ~(st_pext(firsts, inplay) | diff)
    return moves & ~st_pdep(cm, inplay)


cdef inline void play_card(Ctx* c, int seat, int card) noexcept nogil:
    cdef uint64_t b = st_bit(card)
    cdef int pos = c.tlen
    cdef int* twin = &c.twin[c.tb]
    cdef int* tval = &c.tval[c.tb]
    cdef int wp
    c.hand[seat] &= ~b
    c.play[seat] = (c.play[seat] & ~b) | c.uncover[card]
    c.tcard[c.tb + pos] = card
    c.tcards |= b
    if pos == 0:
        twin[0] = 0
        tval[0] = c.value[card]
    else:
        wp = twin[pos - 1]
        twin[pos] = pos if (beaters(c, c.tcard[c.tb + wp]) >> card) & 1 else wp
        tval[pos] = tval[pos - 1] + c.value[card]
    c.tlen = pos + 1


cdef inline void unplay_card(Ctx* c, int seat, int card) noexcept nogil:
    cdef uint64_t b = st_bit(card)
    c.tlen -= 1
    c.tcards &= ~b
    c.hand[seat] |= b
    c.play[seat] = (c.play[seat] & ~c.uncover[card]) | b


cdef inline int trick_winner(Ctx* c) noexcept nogil:
    return c.seat_of[c.leader + c.twin[c.tb + c.nseats - 1]]


cdef inline int trick_points(Ctx* c) noexcept nogil:
    return c.tval[c.tb + c.nseats - 1] + c.trick_bonus + (c.last_bonus if c.tricks_left == 1 else 0)


cdef inline void flip_owner(Ctx* c, int seat, int card) noexcept nogil:
    """``card`` moves between the stock and ``seat`` (either way): its owner bits change."""
    cdef int f = c.oflip[seat], b
    while f:
        b = st_ctz(<uint64_t> f)
        f &= f - 1
        c.kplane[b] ^= st_bit(card)


cdef inline int finish_trick(Ctx* c, int winner) noexcept nogil:
    """Clear the full trick, hand the lead to the winner and let the stock be drawn, winner
    first.  Returns how many cards were drawn (for ``unfinish_trick``)."""
    cdef int k, x, s, n = c.nseats
    cdef int drew = 0
    c.inplay &= ~c.tcards
    c.inplay_points -= c.tval[c.tb + n - 1]
    c.tcards = 0
    c.leader = winner
    c.tricks_left -= 1
    c.tlen = 0
    c.tb += n
    if c.stock_ptr < c.stock_len:
        for k in range(n):
            s = c.seat_of[winner + k]
            x = c.stock[c.stock_ptr]
            c.stock_ptr += 1
            c.stock_rest &= ~st_bit(x)
            c.hand[s] |= st_bit(x)
            c.play[s] |= st_bit(x)
            flip_owner(c, s, x)
        drew = n
    return drew


cdef inline void unfinish_trick(Ctx* c, int old_leader, int winner, int drew,
                                uint64_t cards) noexcept nogil:
    """Undo ``finish_trick`` of the trick of ``cards``."""
    cdef int k, x, s, n = c.nseats
    if drew:
        for k in range(n - 1, -1, -1):
            s = c.seat_of[winner + k]
            c.stock_ptr -= 1
            x = c.stock[c.stock_ptr]
            c.stock_rest |= st_bit(x)
            c.hand[s] &= ~st_bit(x)
            c.play[s] &= ~st_bit(x)
            flip_owner(c, s, x)
    c.tricks_left += 1
    c.tlen = n
    c.tb -= n
    c.leader = old_leader
    c.tcards = cards
    c.inplay |= cards
    c.inplay_points += c.tval[c.tb + n - 1]
