# Move ordering: which card to try first.  Follows by what they do to the trick so far,
# leads by a one-trick look-ahead, both after the card the table remembers and with the
# history of cut-offs as a tie-break.

cdef inline int follow_score(Ctx* c, int seat, int x) noexcept nogil:
    """How promising it is to play ``x`` to the trick in progress (bigger first)."""
    cdef int wpos = c.twin[c.tb + c.tlen - 1]
    cdef int wcard = c.tcard[c.tb + wpos]
    cdef int wseat = c.seat_of[c.leader + wpos]
    cdef int mine = c.side[seat]
    cdef int wins = (beaters(c, wcard) >> x) & 1
    cdef int last = c.tlen == c.nseats - 1
    if wins:
        if last or c.side[wseat] != mine:
            # take it as cheaply as possible
            return 3000 + 8 * c.value[x] - c.rank[x]
        return 1000 + c.value[x]
    if c.side[wseat] == mine:
        return 2000 + 16 * c.value[x] - c.rank[x]     # give points to the partner
    return 500 - 16 * c.value[x] - c.rank[x]         # throw the cheapest


cdef inline int cheapest(Ctx* c, uint64_t m) noexcept nogil:
    """The card of ``m`` that gives away least: lowest value, then lowest rank."""
    cdef int best = -1, key, best_key = 1 << 30, x
    while m:
        x = st_ctz(m)
        m &= m - 1
        key = c.cheap_key[x]
        if key < best_key:
            best_key = key
            best = x
    return best


cdef inline int richest(Ctx* c, uint64_t m) noexcept nogil:
    cdef int best = -1, key, best_key = -1, x
    while m:
        x = st_ctz(m)
        m &= m - 1
        key = (c.value[x] << 8) - c.rank[x]
        if key > best_key:
            best_key = key
            best = x
    return best


cdef inline int lead_score(Ctx* c, int seat, int x) noexcept nogil:
    """Play the rest of the trick greedily after leading ``x``: opponents beat the winning
    card as cheaply as they can or throw their cheapest card, partners throw points on a
    trick their side wins.  Winning the trick scores high, losing it low, by its points."""
    cdef int n = c.nseats, k, s, y, wseat = seat, wcard = x, pts = c.value[x]
    cdef uint64_t a, b
    for k in range(1, n):
        s = c.seat_of[seat + k]
        a = allowed_after(c, s, x, wcard)
        if not a:
            return 0
        if c.side[s] != c.side[wseat]:
            b = a & beaters(c, wcard)
            y = cheapest(c, b) if b else cheapest(c, a)
        elif k == n - 1:
            y = richest(c, a & ~beaters(c, wcard)) if a & ~beaters(c, wcard) else cheapest(c, a)
        else:
            y = cheapest(c, a)
        pts += c.value[y]
        if (beaters(c, wcard) >> y) & 1:
            wcard = y
            wseat = s
    pts += c.trick_bonus
    if c.side[wseat] == c.side[seat]:
        return 2048 + 8 * pts - c.value[x]
    return 1024 - 8 * pts - c.value[x]


cdef inline int order_moves(Ctx* c, int seat, uint64_t moves, int* out, int ttmove) noexcept nogil:
    cdef int n = 0, j, x, sc, h
    cdef int scores[MAXMOVES]
    while moves:
        x = st_ctz(moves)
        moves &= moves - 1
        if c.use_order:
            h = c.hist[seat][x]
            sc = h if h < 65535 else 65535
            if x == ttmove:
                sc += 1 << 30
            elif c.tlen > 0:
                sc += follow_score(c, seat, x) << 16
            elif c.order_lead:
                sc += lead_score(c, seat, x) << 16
        else:
            sc = 0
        # insertion sort, descending
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            out[j] = out[j - 1]
            j -= 1
        scores[j] = sc
        out[j] = x
        n += 1
    return n
