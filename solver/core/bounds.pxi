# Bounds at a trick start without a search: the points each side is sure of (trump tricks,
# the leader's quick tricks), and the last trick, which plays itself.

from libc.stdint cimport int8_t

cdef inline uint64_t above_top(uint64_t other) noexcept nogil:
    """Every bit above the highest bit of ``other`` (every bit if it is empty)."""
    return ~st_below_top(other)


cdef int8_t run_best[128]      # a run of 7 cards read from its top, 1 for mine and 0 for
cdef int8_t run_sum[128]       # theirs: the most, over its top k cards, of mine minus theirs;
                               # mine minus theirs over all 7


cdef void run_tables() noexcept nogil:
    """Fill ``run_best`` and ``run_sum`` (once, at import): ``trump_tricks`` reads a run of
    up to 14 cards in two lookups instead of a loop with a branch per card."""
    cdef int v, i, run, best
    for v in range(128):
        run = 0
        best = -7
        for i in range(6, -1, -1):
            run += 1 if (v >> i) & 1 else -1
            if run > best:
                best = run
        run_best[v] = <int8_t> best
        run_sum[v] = <int8_t> run


run_tables()


cdef inline int trump_tricks(uint64_t mine, uint64_t theirs) noexcept nogil:
    """Tricks one hand's trumps ``mine`` surely win against the other side's trumps
    ``theirs``: every trump of the hand falls in a trick of its own, which its side wins
    unless the other side plays a higher trump to it, and each of theirs beats at most one
    of them: all of ``mine`` but a largest matching of theirs to lower ones of ``mine``, which
    leaves unmatched the largest excess of mine over theirs among the top cards of the two
    (the most, over k, of mine minus theirs among the k highest).  Read from two 7-card
    tables where the two hold at most 14 cards (below them the pad counts as theirs, which
    cannot raise the most), else card by card."""
    cdef uint64_t both, x
    cdef int i, n, run = 0, won = 0
    theirs &= ~((mine & (0 - mine)) - 1)        # theirs below all of mine beat none of it
    if not theirs:
        return st_popcount(mine)
    both = mine | theirs
    n = st_popcount(both)
    x = st_pext(mine, both)
    if n <= 14:
        x <<= 14 - n
        won = run_best[x >> 7]
        run = run_sum[x >> 7] + run_best[x & 127]
        if run > won:
            won = run
        return won if won > 0 else 0
    for i in range(n - 1, -1, -1):
        run += <int> ((x >> i) & 1) * 2 - 1
        if run > won:
            won = run
    return won


cdef inline Rule rules_ahead(Ctx* c) noexcept nogil:
    """What the rules still to apply ask, for bounds that must hold under each: a duty to
    trump or to beat if any of them has it, following suit only if all ask for it.  The
    main rule always applies; the stock's applies too while a stock lasts."""
    cdef Rule r = c.rule_main
    if c.stock_ptr < c.stock_len:
        r.follow_suit = r.follow_suit and c.rule_stock.follow_suit
        r.must_trump = r.must_trump or c.rule_stock.must_trump
        r.must_beat = r.must_beat or c.rule_stock.must_beat
    return r


cdef inline bint split_tops(Ctx* c) noexcept nogil:
    """Do two trumps above every trump of the other side, in two hands of one side that
    hold three trumps between them, win two tricks (as in DDS's later-tricks bound)?  Both
    fall in one trick only if both hands must play them there: a hand can be made to play
    its top trump only if it is its one trump (and trumps are asked for) or its last card.
    Until the first trick with either top card, each hand keeps the trumps it has (it plays
    its top trump rather than another whenever the other hand need not play its top one, and
    no other trump unless made to), so the hand with two cannot be made to.  So whenever
    which cards a hand may play depends on the suit led alone: not with a must-beat rule (the
    card winning the trick decides), nor with face-down cards (a trump beneath cannot be
    played)."""
    return not (c.has_piles or rules_ahead(c).must_beat)


cdef inline int side_trump_tricks(Ctx* c, uint64_t* trumps, int side, uint64_t theirs,
                                  uint64_t* cards) noexcept nogil:
    """``trump_tricks`` of the best hand of ``side`` (seat s holding ``trumps[s]``; partners'
    trumps may fall in one trick), or 2 where two hands each hold a trump above all of
    ``theirs`` and one of them another trump (``split_tops``).  ``cards``: the trumps relied
    on."""
    cdef int s, n, best = 0, tops = 0, spare = 0
    cdef uint64_t top_cards = 0, t
    cards[0] = 0
    for s in range(c.nseats):
        if c.side[s] == side and trumps[s]:
            n = trump_tricks(trumps[s], theirs)
            if n > best:
                best = n
                cards[0] = trumps[s]
            t = trumps[s] & above_top(theirs)
            if t:
                tops += 1
                top_cards |= t
                spare |= trumps[s] != t or st_popcount(t) > 1
    if best < 2 and tops >= 2 and spare and split_tops(c):
        best = 2
        cards[0] = top_cards
    return best


cdef inline int least_points(Ctx* c, uint64_t cards, int k) noexcept nogil:
    """The least that ``k`` of ``cards`` can be worth (the lowest value classes first)."""
    cdef int i, n, total = 0
    k -= st_popcount(cards & ~c.valued)         # cards worth nothing
    i = 0
    while k > 0 and i < c.nvc:
        n = st_popcount(cards & c.vc_mask[i])
        if n > k:
            n = k
        total += n * c.vc_val[i]
        k -= n
        i += 1
    return total


cdef inline int captured(Ctx* c, int side, int k) noexcept nogil:
    """The least the other side's cards are worth in ``k`` tricks ``side`` wins: each seat of
    the other side plays one card to each, of the cards it holds or may still draw.  (In
    the partition search the bound needs no cards of its own: it depends only on how many
    cards of each value class each seat holds, which every position of an entry shares.)"""
    cdef int s, total = 0
    if k <= 0 or not c.nvc:
        return 0
    for s in range(c.nseats):
        if c.side[s] != side:
            total += least_points(c, c.hand[s] | c.stock_rest, k)
    return total


cdef inline void sure_points(Ctx* c, int* sure_pts, uint64_t* counted) noexcept nogil:
    """Points each side is sure of at a trick start.  (1) Its trump tricks, whoever leads
    (``side_trump_tricks``); the trumps above every trump the other side holds or could draw
    win whichever trick they fall in.  Not where cards lie face down: in the games measured
    there (two seats, whose leader's top trumps (2) counts anyway) it spared 2-3% of the
    nodes for 14% more instructions, where a four-seat game without piles takes half as
    many nodes again without it (the performance page).  (2) Quick tricks: the leader's
    playable cards above every other card still out in their suit win when led, one after
    the other (nobody can overtake, so the leader keeps the lead): top trumps always, plain
    winners once no opponent can ruff.  Cashing k top trumps draws every opponent trump when
    each opponent holds at most k and must follow suit (all playable: not with face-down pile
    cards).  Each trick counted also brings the least the other side's cards in it can be
    worth (``captured``).
    ``counted``: per side, the cards its sure points relied on (partition search, part.pxi)."""
    cdef uint64_t trumps[2]
    cdef uint64_t hand_trumps[MAXSEATS]
    cdef uint64_t stock_trumps, sure, outside, top_cards, lead_play, theirs, used
    cdef int s, k, best, side, lead_side = c.side[c.leader], drawn = 1, qv
    cdef Rule ahead = rules_ahead(c)
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
            hand_trumps[s] = c.hand[s] & c.trump_mask
            trumps[c.side[s]] |= hand_trumps[s]
        stock_trumps = c.stock_rest & c.trump_mask
        for side in range(0 if c.has_piles else 2):      # (1), not with piles
            theirs = trumps[1 - side] | stock_trumps
            best = side_trump_tricks(c, hand_trumps, side, theirs, &used)
            if best:
                sure = trumps[side] & above_top(theirs)
                sure_pts[side] = (value_sum(c, sure) + best * c.trick_bonus
                                  + captured(c, side, best))
                counted[side] = sure | used
        # quick tricks of the leader: top trumps first
        top_cards = lead_play & c.trump_mask & above_top(outside & c.trump_mask)
        if trumps[1 - lead_side] | stock_trumps:
            if c.has_piles or stock_trumps or not ahead.follow_suit:
                drawn = 0       # (a hand free not to follow keeps its trumps)
            else:
                k = st_popcount(top_cards)
                for s in range(c.nseats):
                    if c.side[s] != lead_side and st_popcount(hand_trumps[s]) > k:
                        drawn = 0
    if drawn and (ahead.must_trump or ahead.must_beat):
        # a void partner made to ruff (to trump, or to beat the card led) would take the
        # lead away
        for s in range(c.nseats):
            if s != c.leader and c.side[s] == lead_side and c.hand[s] & c.trump_mask:
                drawn = 0
    if drawn:
        for s in range(4):
            if s != c.trump:
                top_cards |= lead_play & c.suit_mask[s] & above_top(outside & c.suit_mask[s])
    if top_cards:
        k = st_popcount(top_cards)
        qv = value_sum(c, top_cards) + k * c.trick_bonus + captured(c, lead_side, k)
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
