# Move ordering: which card to try first.  Follows by what they do to the trick so far,
# leads by a one-trick look-ahead (with two seats, of two leads that win the trick the lower
# first), both after the card the table remembers and, with more than two seats, with the
# history of cut-offs as a tie-break; with more than two seats and no card worth points the
# lead that last cut a trick start with as many tricks left (the killer) comes before the
# look-ahead's leads.  Within what a card does to the trick, a card lying on
# a face-down pile card comes first (a duck even before one a few points cheaper): playing
# it turns that card up, and a card that can be played keeps more lines open than one that
# lies face down.  Of two leads that lose the trick, the one the other side must win with
# the higher card of a plain suit first: it draws out a card that would win later (making
# it spend a high trump instead was worse).
# With two seats, of two cards that win the trick the one some card still out could beat
# (face down, in the stock, or in the other hand but not playable now) first: a sure winner
# wins as well later, the other only while its beaters cannot come.  While a stock lasts, a
# card whose beaters all lie in the stock below the card the other seat draws next comes
# between the two: its beaters cannot come with the next draw.
# With more seats (two sides), a follow reads the seats still to play to the trick: a take
# counts as one only if no card the other side may still play could beat it, a trick a
# later partner would surely take counts as the partner's, and the last seat throws
# to its partner's trick rather than overtake it.  A lead loses score per card the other
# side may play to it (fewer replies, a smaller tree: DDS weighs a suit's replies alike).
#
# A move's place is one 64-bit sort key, ``(score << 6) | (63 - card)``: the larger first,
# equal scores lowest card first.  The search takes the largest first (``first_move``) and
# sorts the rest only if that did not cut: most nodes are cut by their first move.

cdef enum:
    F_TAKE = 0      # a follow that wins the trick from the other side
    F_OVER = 1      # a follow that overtakes the partner's winning card, more cards to come
    F_FEED = 2      # a follow that leaves the trick to the partner
    F_DUCK = 3      # a follow that loses the trick to the other side
    HIST_CAP = 65535
    UNCOVER_FOLLOW = 32     # a follow's score for turning up a pile card: less than the
                            # gap between two of the four cases (so only within one)
    UNCOVER_TAKE = 32       # ... a take's on top (64 in all: eight points at 8 a point)
    UNCOVER_DUCK = 64       # ... a duck's on top (96 in all: six points at 16 a point)
    UNCOVER_LEAD = 256      # a lead's: above the points of a trick (8 per point), less than
                            # the gap between a lead that wins the trick and one that loses it
    FORCE_LEAD = 32         # a losing lead's score per rank of the card that wins the trick,
                            # unless that card is a trump
    FORCE_RANKS = 15        # ... counted up to this rank (so that it stays within the gap)
    SURE_LEAD = -16         # with two seats, a winning lead's score if no card still out could
                            # beat it (a sure winner): below the winners of the same points;
                            # half as much if only stock cards below the next draw could
    NOHOLD_TAKE = -1000     # with more seats, a take that a card the other side may still play
                            # to the trick could beat: below a sure take, above the ducks
    REPLY_LEAD = 256        # with more seats, a lead's score less this per card the other side
                            # may play to it (fewer replies, a smaller tree: first); four
                            # replies outweigh the gap between a winning and a losing lead
    OWN_WIN = 128           # ... a winning lead's more if its own card wins (half a reply)
    KEEP_WINNER = -64       # with more seats, a card thrown to a trick (not taking it for the
                            # other side) that no card of the other side could beat: after
                            # the others (eight points), kept for a trick of its own
    SURE_TAKE = -64         # ... and a follow's that takes the trick with such a card


cdef inline void setup_follow_scores(Ctx* c) noexcept nogil:
    """What each card scores as a follow in each of the four cases (``fscore``, read by
    ``score_moves``), and what it adds to a lead's score (``lead_bonus``)."""
    cdef int x, v, r, f
    for x in range(MAXCARDS):
        v = c.value[x]
        r = c.rank[x]
        # take it with the card of most points (a trump's count a quarter: a trump of
        # points is worth keeping), then the lowest
        c.fscore[F_TAKE][x] = 3000 + (2 if (c.trump_mask >> x) & 1 else 8) * v - r
        c.fscore[F_OVER][x] = 1000 + v
        c.fscore[F_FEED][x] = 2000 + 16 * v - r     # give points to the partner
        c.fscore[F_DUCK][x] = 500 - 16 * v - r      # throw the cheapest
        c.lead_bonus[x] = UNCOVER_LEAD if c.uncover[x] else 0
        c.force_bonus[x] = 0 if (c.trump_mask >> x) & 1 else FORCE_LEAD * (
            r if r < FORCE_RANKS else FORCE_RANKS)
        if c.uncover[x]:
            for f in range(4):
                c.fscore[f][x] += UNCOVER_FOLLOW
            c.fscore[F_TAKE][x] += UNCOVER_TAKE
            c.fscore[F_DUCK][x] += UNCOVER_DUCK


cdef inline uint64_t near_out(Ctx* c, uint64_t out) noexcept nogil:
    """The cards of ``out`` that could reach the other seat's hand before the next trick
    after this one: ``out`` without the stock but its second card, the one the loser of this
    trick draws (with two seats, the other seat if the card played now wins)."""
    if c.stock_ptr >= c.stock_len:
        return out
    out &= ~c.stock_rest
    if c.stock_ptr + 1 < c.stock_len:
        out |= st_bit(c.stock[c.stock_ptr + 1])
    return out


cdef inline int cheapest(Ctx* c, uint64_t m) noexcept nogil:
    """The card of ``m`` that gives away least: lowest value, then lowest rank, then the
    lowest card (``cheap_key``, the least kept without a branch)."""
    cdef int best = 1 << 30, key
    while m:
        key = c.cheap_key[st_ctz(m)]
        m &= m - 1
        best = key if key < best else best
    return best & 63 if best != (1 << 30) else -1


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


cdef inline void follow_sets(Ctx* c, Rule* r, int leader, int first, int suit,
                             uint64_t* fol) noexcept nogil:
    """``fol[j]`` for the ``j``-th seat of a trick ``leader`` leads, from the ``first``-th on:
    what it may follow a lead of ``suit`` with under ``r`` (``follow_cards``)."""
    cdef int j
    for j in range(first, c.nseats):
        fol[j] = follow_cards(c, r, c.play[c.seat_of[leader + j]], suit)


cdef inline uint64_t later_cards(Ctx* c, Rule* r, const uint64_t* fol, int leader, int pos,
                                 int side, int lead) noexcept nogil:
    """Every card the seats after the ``pos``-th of a trick ``leader`` leads with ``lead``
    may play to it, of those not on ``side`` (``fol[j]``: what the ``j``-th seat of the trick
    may follow with, ``follow_cards``)."""
    cdef uint64_t t = 0
    cdef int j
    for j in range(pos + 1, c.nseats):
        if c.side[c.seat_of[leader + j]] != side:
            t |= beat_if_must(c, r, fol[j], lead)
    return t


cdef inline int lead_score(Ctx* c, int seat, int x, Rule* r, const uint64_t* fol) noexcept nogil:
    """Play the rest of the trick greedily after leading ``x``: opponents beat the winning
    card as cheaply as they can or throw their cheapest card, partners throw points on a
    trick their side wins (the last seat) or take it over with the cheapest card no later
    opponent could beat if the partner's card could be beaten (other seats), else throw
    their cheapest card.  Winning the trick scores high (a lower card first, its own card
    winning before the partner's), losing it low, by its points and then by the rank of the
    plain card that wins it (the higher, the better for the leader); both less
    ``REPLY_LEAD`` per card the other side may play to the trick.  ``fol[k]``: what the
    ``k``-th seat of the trick may follow ``x``'s suit with (``follow_cards`` under ``r``)."""
    cdef int n = c.nseats, k, s, y, j, wseat = seat, wcard = x, pts = c.value[x], nopp = 0
    cdef uint64_t a, b, bw, t
    for k in range(1, n):
        s = c.seat_of[seat + k]
        a = beat_if_must(c, r, fol[k], wcard)
        if not a:
            return 0
        if c.side[s] != c.side[seat]:
            nopp += st_popcount(a)
        bw = beaters(c, wcard)
        if c.side[s] != c.side[wseat]:
            b = a & bw
            y = cheapest(c, b) if b else cheapest(c, a)
        elif k == n - 1:
            y = richest(c, a & ~bw) if a & ~bw else cheapest(c, a)
        else:
            y = -1
            t = later_cards(c, r, fol, seat, k, c.side[s], x)
            if bw & t:      # the partner's card could be beaten: take over with a sure card
                b = a & bw
                while b:
                    j = st_ctz(b)
                    b &= b - 1
                    if (beaters(c, j) & t) == 0:
                        if y < 0 or c.cheap_key[j] < c.cheap_key[y]:
                            y = j
            if y < 0:
                y = cheapest(c, a)
        pts += c.value[y]
        if (bw >> y) & 1:
            wcard = y
            wseat = s
    pts += c.trick_bonus
    if c.side[wseat] == c.side[seat]:
        return (2048 + 8 * pts - c.value[x] + c.lead_bonus[x] - REPLY_LEAD * nopp
                + OWN_WIN * (wcard == x) - c.rank[x])
    return (1024 - 8 * pts - c.value[x] + c.lead_bonus[x] + c.force_bonus[wcard]
            - REPLY_LEAD * nopp)


cdef inline int64_t sort_key(Ctx* c, int seat, int x, int score) noexcept nogil:
    return c.hist_key[seat][x] + (<int64_t> score) * 64


cdef inline void history_cut(Ctx* c, int seat, int x) noexcept nogil:
    """A cut-off by ``x``: it scores higher in the history (capped), and so its sort key;
    at a trick start it is the killer lead (``killer_leads``).  Not with two seats: there ties
    broken by the history took more nodes than ties broken by the card (lowest first), in all
    but one of the sets and seed ranges measured."""
    cdef int h
    if c.two_sides_of_one:
        return
    if c.tlen == 0 and c.killer_leads:
        c.killer[c.tricks_left] = x
    h = c.hist[seat][x] + c.tricks_left * c.tricks_left
    if h > HIST_CAP:
        h = HIST_CAP
    c.hist[seat][x] = h
    c.hist_key[seat][x] = h * 64 + (63 - x)


cdef inline void history_clear(Ctx* c) noexcept nogil:
    cdef int s, x
    for s in range(MAXSEATS):
        for x in range(MAXCARDS):
            c.hist[s][x] = 0
            c.hist_key[s][x] = 63 - x
    for x in range(MAXPLY):
        c.killer[x] = -1


cdef inline int killer_lead(Ctx* c, uint64_t legal) noexcept nogil:
    """The killer to try first among ``legal`` leads (-1: none): the lead that last cut a
    trick start with as many tricks left, whichever seat leads there (most often the one that
    won the trick before).  Asked only with more than two seats where no card is worth points
    (``killer_leads``): there the look-ahead scores every winning lead alike and misses what
    the deeper tricks taught (4–9% fewer nodes in the four-hand values measured).  Where cards
    are worth points the look-ahead tells the leads apart, and with two seats its lead is
    right more often than the killer (up to 5% and 10–71% more nodes with it: the
    performance page)."""
    cdef int x = c.killer[c.tricks_left]
    return x if x >= 0 and (legal >> x) & 1 else -1


cdef inline int order_fixed(Ctx* c, int seat, uint64_t moves, int* out) noexcept nogil:
    """``order_moves`` as from a cleared history and with no stored card: an order that
    depends on the position alone, not on what searches learnt before (the history is put
    back afterwards)."""
    cdef int kept[MAXCARDS]
    cdef int x, n
    for x in range(MAXCARDS):
        kept[x] = c.hist_key[seat][x]
        c.hist_key[seat][x] = 63 - x
    n = order_moves(c, seat, moves, out, -1)
    for x in range(MAXCARDS):
        c.hist_key[seat][x] = kept[x]
    return n


cdef inline int score_moves(Ctx* c, int seat, uint64_t moves, int64_t* keys,
                            int ttmove) noexcept nogil:
    """The sort key of each card of ``moves`` (low to high); returns how many.  The card
    ``ttmove`` first (the card the table remembers, or a lead's killer), then follows by
    ``fscore`` and leads by ``lead_score`` (with ``order_lead``), each above the history of
    cut-offs."""
    cdef int n = 0, x, wpos, sel, score, ours, suit = -1
    cdef uint64_t beat, out, near, other
    cdef uint64_t fol[MAXSEATS]
    cdef int* wins
    cdef int* loses
    cdef Rule* r
    if not c.use_order:
        while moves:
            x = st_ctz(moves)
            moves &= moves - 1
            keys[n] = 63 - x
            n += 1
        return n
    if c.tlen > 0:
        wpos = c.twin[c.tb + c.tlen - 1]
        beat = beaters(c, c.tcard[c.tb + wpos])
        ours = c.side[c.seat_of[c.leader + wpos]] == c.side[seat]
        if c.nseats > 2 and c.tlen < c.nseats - 1:
            return score_follows_many(c, seat, moves, keys, ttmove, beat, ours)
        if ours:    # (the last seat: its partner's trick whatever it plays)
            wins = c.fscore[F_OVER if c.tlen != c.nseats - 1 else F_FEED]
            loses = c.fscore[F_FEED]
        else:
            wins = c.fscore[F_TAKE]
            loses = c.fscore[F_DUCK]
        out = c.inplay & ~c.hand[seat]
        if c.two_sides_of_one:
            near = near_out(c, out)
            while moves:
                x = st_ctz(moves)
                moves &= moves - 1
                if x == ttmove:
                    keys[n] = sort_key(c, seat, x, 1 << 30)
                else:
                    sel = <int> ((beat >> x) & 1)
                    score = loses[x] + sel * (wins[x] - loses[x] + SURE_TAKE // 2 * unbeaten(
                        beaters(c, x), out, near))
                    keys[n] = sort_key(c, seat, x, score * 65536)
                n += 1
            return n
        other = other_side(c, seat)
        while moves:
            x = st_ctz(moves)
            moves &= moves - 1
            if x == ttmove:
                keys[n] = sort_key(c, seat, x, 1 << 30)
            else:
                sel = <int> ((beat >> x) & 1)
                score = loses[x] + sel * (wins[x] - loses[x])
                if other and (ours or not sel) and (beaters(c, x) & other) == 0:
                    score += KEEP_WINNER
                keys[n] = sort_key(c, seat, x, score * 65536)
            n += 1
        return n
    if not c.order_lead:
        while moves:
            x = st_ctz(moves)
            moves &= moves - 1
            keys[n] = sort_key(c, seat, x, 1 << 30 if x == ttmove else 0)
            n += 1
        return n
    if c.two_sides_of_one:
        return score_leads_two(c, seat, moves, keys, ttmove)
    # with more seats: what each seat may follow with, once for the leads of a suit (the
    # cards run suit by suit)
    r = rule_now(c)
    while moves:
        x = st_ctz(moves)
        moves &= moves - 1
        if x == ttmove:
            keys[n] = sort_key(c, seat, x, 1 << 30)
        else:
            if c.suit[x] != suit:
                suit = c.suit[x]
                follow_sets(c, r, seat, 1, suit, fol)
            keys[n] = sort_key(c, seat, x, lead_score(c, seat, x, r, fol) * 65536)
        n += 1
    return n


cdef inline int unbeaten(uint64_t bw, uint64_t out, uint64_t near) noexcept nogil:
    """How sure a card that wins the trick is (``bw``: its beaters): 2 if no card of ``out``
    could beat it, 1 if only cards of ``out`` not ``near`` (``near_out``) could, else 0."""
    return <int> ((out & bw) == 0) + <int> ((near & bw) == 0)


cdef inline int score_leads_two(Ctx* c, int seat, uint64_t moves, int64_t* keys,
                                int ttmove) noexcept nogil:
    """``score_moves`` for leads with two seats, one a side: ``lead_score`` with what the
    other seat may play to each suit worked out once for all the leads, and among leads that
    win the trick the lower card first (with more seats that was worse), a sure winner after
    the others."""
    cdef int n = 0, x, y, s, pts, score
    cdef uint64_t p = c.play[c.seat_of[seat + 1]], a, b, bw
    cdef uint64_t out = c.inplay & ~c.hand[seat]        # every card the leader does not hold
    cdef uint64_t near = near_out(c, out)               # ... but the stock below the next draw
    cdef uint64_t follow[4]
    cdef Rule* r = rule_now(c)
    for s in range(4):
        follow[s] = follow_cards(c, r, p, s)
    while moves:
        x = st_ctz(moves)
        moves &= moves - 1
        if x == ttmove:
            keys[n] = sort_key(c, seat, x, 1 << 30)
            n += 1
            continue
        bw = beaters(c, x)
        a = beat_if_must(c, r, follow[c.suit[x]], x)
        if not a:
            score = 0
        else:
            b = a & bw
            y = cheapest(c, b if b else a)
            pts = c.value[x] + c.value[y] + c.trick_bonus
            if (bw >> y) & 1:
                score = 1024 - 8 * pts - c.value[x] + c.lead_bonus[x] + c.force_bonus[y]
            else:   # a lead that wins: the lowest of its suit first (keeps the higher), a
                    # sure winner after the others (half as far if sure but for the stock
                    # below the next draw)
                score = (2048 + 8 * pts - c.value[x] + c.lead_bonus[x] - c.rank[x]
                         + SURE_LEAD // 2 * unbeaten(bw, out, near))
        keys[n] = sort_key(c, seat, x, score * 65536)
        n += 1
    return n


cdef inline uint64_t other_side(Ctx* c, int seat) noexcept nogil:
    """Every card the other side than ``seat``'s holds."""
    cdef uint64_t o = 0
    cdef int k
    for k in range(c.nopponents[seat]):
        o |= c.hand[c.opponents[seat][k]]
    return o


cdef inline int score_follows_many(Ctx* c, int seat, uint64_t moves, int64_t* keys,
                                   int ttmove, uint64_t beat, int partner) noexcept nogil:
    """``score_moves`` for a follow with more than two seats and more cards to come.  A card
    that takes the trick from the other side scores as a take only if no card the other
    side may still play to it could beat it (a sure take), else below; over a partner's
    card that could be beaten, a sure take first.  If a later seat is a partner with a
    card that would take the trick surely, the trick counts as the partner's: cards are
    thrown to it as to a partner's trick, a sure take of ours among them, before the takes
    that could be beaten.  A card thrown that no card of the other side could beat comes
    after the others thrown (``KEEP_WINNER``)."""
    cdef int n = 0, x, score, p, y, k, covered = 0, pw_holds
    cdef int lead = c.tcard[c.tb], wcard = c.tcard[c.tb + c.twin[c.tb + c.tlen - 1]]
    cdef Rule* r = rule_now(c)
    cdef uint64_t fol[MAXSEATS]     # what each seat still to play may follow with
    cdef uint64_t m, t, o = other_side(c, seat)
    follow_sets(c, r, c.leader, c.tlen + 1, c.suit[lead], fol)
    t = later_cards(c, r, fol, c.leader, c.tlen, c.side[seat], lead)
    pw_holds = partner and (beaters(c, wcard) & t) == 0
    if not pw_holds:
        # a later partner can beat the trick with a card nothing of the other side still
        # to come could beat: the trick is as good as the partner's
        for k in range(c.tlen + 1, c.nseats):
            p = c.seat_of[c.leader + k]
            if covered or c.side[p] != c.side[seat]:
                continue
            m = beat_if_must(c, r, fol[k], wcard) & beaters(c, wcard)
            while m:
                y = st_ctz(m)
                m &= m - 1
                if (beaters(c, y) & t) == 0:
                    covered = 1
                    break
    while moves:
        x = st_ctz(moves)
        moves &= moves - 1
        if x == ttmove:
            keys[n] = sort_key(c, seat, x, 1 << 30)
            n += 1
            continue
        if covered:     # a card of ours that takes the trick surely is as good as a feed
            score = (c.fscore[F_FEED][x] if not (beat >> x) & 1 or (beaters(c, x) & t) == 0
                     else c.fscore[F_OVER][x])
        elif (beat >> x) & 1:
            if (beaters(c, x) & t) == 0 and not pw_holds:
                score = c.fscore[F_TAKE][x]
            elif partner:
                score = c.fscore[F_OVER][x]
            else:
                score = c.fscore[F_TAKE][x] + NOHOLD_TAKE + 2 * c.rank[x]
        elif partner:
            score = c.fscore[F_FEED][x]
        else:
            score = c.fscore[F_DUCK][x]
        if not (beat >> x) & 1 and (beaters(c, x) & o) == 0:
            score += KEEP_WINNER
        keys[n] = sort_key(c, seat, x, score * 65536)
        n += 1
    return n


cdef inline int first_move(int64_t* keys, int n) noexcept nogil:
    """The card of the largest key (one branch-free scan)."""
    cdef int i
    cdef int64_t k = keys[0]
    for i in range(1, n):
        k = keys[i] if keys[i] > k else k
    return <int> (63 - (k & 63))


cdef inline void sort_keys(int64_t* keys, int n) noexcept nogil:
    """Sort the sort keys, largest first (insertion sort: a handful of moves)."""
    cdef int i, j
    cdef int64_t k
    for i in range(1, n):
        k = keys[i]
        j = i
        while j > 0 and keys[j - 1] < k:
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = k


cdef inline int order_moves(Ctx* c, int seat, uint64_t moves, int* out, int ttmove) noexcept nogil:
    """Every card of ``moves`` in the order the search tries them (into ``out``)."""
    cdef int64_t keys[MAXMOVES]
    cdef int n = score_moves(c, seat, moves, keys, ttmove), i
    sort_keys(keys, n)
    for i in range(n):
        out[i] = <int> (63 - (keys[i] & 63))
    return n
