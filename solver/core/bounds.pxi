# Bounds at a trick start without a search: the points each side is sure of (sure trumps,
# the leader's quick tricks), and the last trick, which plays itself.

cdef inline uint64_t above_top(uint64_t other) noexcept nogil:
    """Every bit above the highest bit of ``other`` (every bit if it is empty)."""
    return ~st_below_top(other)


cdef inline void sure_points(Ctx* c, int* sure_pts, uint64_t* counted) noexcept nogil:
    """Points each side is sure of at a trick start.  (1) Trumps above every trump the other
    side holds or could draw win their tricks, whoever leads.  (2) Quick tricks: the leader's
    playable cards above every other card still out in their suit win when led, one after
    the other (nobody can overtake, so the leader keeps the lead): top trumps always, plain
    winners once no opponent can ruff.  Cashing k top trumps draws every opponent trump when
    each opponent holds at most k (all playable: not with face-down pile cards).
    ``counted``: per side, the top cards its sure points counted (partition search, part.pxi)."""
    cdef uint64_t trumps[2], stock_trumps, sure, outside, top_cards, lead_play
    cdef int s, k, best, side, lead_side = c.side[c.leader], drawn = 1, qv
    sure_pts[0] = 0
    sure_pts[1] = 0
    counted[0] = 0
    counted[1] = 0
    outside = c.inplay & ~c.hand[c.leader]
    lead_play = c.play[c.leader]
    top_cards = 0
    if c.trump_mask:
        trumps[0] = 0
        trumps[1] = 0
        for s in range(c.nseats):
            trumps[c.side[s]] |= c.hand[s]
        trumps[0] &= c.trump_mask
        trumps[1] &= c.trump_mask
        stock_trumps = c.stock_rest & c.trump_mask
        for side in range(2):
            sure = trumps[side] & above_top(trumps[1 - side] | stock_trumps)
            if sure:
                best = 0
                for s in range(c.nseats):
                    if c.side[s] == side:
                        k = st_popcount(c.hand[s] & sure)
                        if k > best:
                            best = k
                sure_pts[side] = value_sum(c, sure) + best * c.trick_bonus
                counted[side] = sure
        # quick tricks of the leader: top trumps first
        top_cards = lead_play & c.trump_mask & above_top(outside & c.trump_mask)
        if trumps[1 - lead_side] | stock_trumps:
            if c.has_piles or stock_trumps:
                drawn = 0
            else:
                k = st_popcount(top_cards)
                for s in range(c.nseats):
                    if c.side[s] != lead_side and st_popcount(c.hand[s] & c.trump_mask) > k:
                        drawn = 0
    if drawn and c.rule_main.must_trump:
        # a void partner would have to ruff and take the lead away
        for s in range(c.nseats):
            if s != c.leader and c.side[s] == lead_side and c.hand[s] & c.trump_mask:
                drawn = 0
    if drawn:
        for s in range(4):
            if s != c.trump:
                top_cards |= lead_play & c.suit_mask[s] & above_top(outside & c.suit_mask[s])
    if top_cards:
        qv = value_sum(c, top_cards) + st_popcount(top_cards) * c.trick_bonus
        if qv > sure_pts[lead_side]:
            sure_pts[lead_side] = qv
            counted[lead_side] = top_cards


cdef inline int last_trick(Ctx* c) noexcept nogil:
    """The last trick plays itself: every seat has one card left."""
    cdef int n = c.nseats, k, s, x
    cdef int wseat = c.leader
    cdef int wcard = st_ctz(c.hand[c.leader])
    cdef int pts = c.value[wcard]
    for k in range(1, n):
        s = c.seat_of[c.leader + k]
        x = st_ctz(c.hand[s])
        pts += c.value[x]
        if (beaters(c, wcard) >> x) & 1:
            wcard = x
            wseat = s
    pts += c.trick_bonus + c.last_bonus
    return last_trick_gain(c, wseat, pts)
