# The search: fail-soft alpha-beta over moves, the side named by the objective (max_side,
# objective.pxi) maximising what it still gains, the other side minimising it: every search
# is zero-sum in its own value.  A value is always "what the maximising side gains from this
# position on", so transposition-table entries depend on the history only through the tag
# in the key.  MTD(f) drives it with null windows.

ctypedef struct Searcher:
    Ctx c
    TT tt
    PartTT pt


cdef inline int search_move(Ctx* c, TT* tt, int seat, int m, int alpha, int beta) noexcept nogil:
    """Play ``m`` for ``seat``, search on, take it back; counts what the move itself earned."""
    cdef int v
    cdef Undo u
    do_move(c, seat, m, &u)
    if u.finished and part_node(c):
        c.rel |= winner_relevance(c, c.tb - c.nseats, c.nseats)
    if u.stop or c.tricks_left == 0:
        v = u.gain
    else:
        v = u.gain + alphabeta(c, tt, alpha - u.gain, beta - u.gain)
    undo_move(c, &u)
    return v


cdef inline bint child_decides(int maximize, int gain, int lo, int hi, int alpha, int beta,
                               int* value) noexcept nogil:
    """Does a child's stored bound (``lo``..``hi`` on what follows, after a move that earned
    ``gain``) already decide this node?  Then ``value`` is the node's fail-soft value."""
    if maximize and gain + lo >= beta:
        value[0] = gain + lo
        return 1
    if not maximize and gain + hi <= alpha:
        value[0] = gain + hi
        return 1
    return 0


cdef inline int etc_cutoff(Ctx* c, TT* tt, int seat, uint64_t legal, int maximize, int alpha,
                           int beta, int* value, uint64_t* ka, uint64_t* kb, uint32_t* kc,
                           uint64_t* keyed) noexcept nogil:
    """Enhanced transposition cutoff: at the last seat of a trick every card ends the trick,
    so look up each resulting position before searching any; one stored bound may already
    decide this node.  All the keys are computed and their buckets fetched first, then probed,
    so the memory latencies overlap; the keys (slot k: the k-th card of ``legal``) are handed
    to the children searched next (``keyed``: the cards whose child starts a keyed trick)."""
    cdef uint64_t m = legal
    cdef int x, k = 0, found = -1
    cdef int gain[MAXMOVES]
    cdef Undo u
    cdef TTEntry* e
    keyed[0] = 0
    while m:
        x = st_ctz(m)
        m &= m - 1
        do_move(c, seat, x, &u)
        if not u.stop and c.tricks_left >= 2 and part_node(c):
            # the trick drew the last stock cards: the child lives in the partition table
            if part_child_cutoff(c, tt, maximize, alpha, beta, u.gain, value):
                found = x
        elif not u.stop and c.tricks_left >= 2:
            position_key(c, &ka[k], &kb[k], &kc[k])
            st_prefetch(tt_bucket(tt, ka[k], kb[k], kc[k]))
            keyed[0] |= st_bit(x)
            gain[k] = u.gain
        undo_move(c, &u)
        if found >= 0:
            return found
        k += 1
    m = keyed[0]
    while m:
        x = st_ctz(m)
        m &= m - 1
        k = st_popcount(legal & (st_bit(x) - 1))
        e = tt_probe_bucket(tt, tt_bucket(tt, ka[k], kb[k], kc[k]), ka[k], kb[k], kc[k])
        if e != NULL and child_decides(maximize, gain[k], e.lo, e.hi, alpha, beta, value):
            return x
    return -1


cdef inline int search_keyed(Ctx* c, TT* tt, int seat, int m, int alpha, int beta, uint64_t legal,
                             uint64_t keyed, uint64_t* ka, uint64_t* kb, uint32_t* kc) noexcept nogil:
    """``search_move``, handing the child the key ``etc_cutoff`` computed for it."""
    cdef int k
    if (keyed >> m) & 1:
        k = st_popcount(legal & (st_bit(m) - 1))
        c.pre_valid = 1
        c.pre_ka = ka[k]
        c.pre_kb = kb[k]
        c.pre_kc = kc[k]
    return search_move(c, tt, seat, m, alpha, beta)


cdef int alphabeta(Ctx* c, TT* tt, int alpha, int beta) noexcept nogil:
    """The value (what the maximising side still gains) of the position, fail-soft within
    (alpha, beta).  With partition search, ``c.rel`` collects this subtree's relevant cards
    while it is searched and adds them to the caller's afterwards."""
    cdef uint64_t outer
    cdef int v
    if not part_node(c):
        return search_node(c, tt, alpha, beta, 0)
    outer = c.rel
    c.rel = 0
    v = search_node(c, tt, alpha, beta, 1)
    c.rel |= outer
    return v


cdef int search_node(Ctx* c, TT* tt, int alpha, int beta, int track) noexcept nogil:
    """``alphabeta`` proper; ``track``: collect relevant cards (part.pxi), and at a trick
    start use the partition table."""
    cdef int n = c.nseats
    cdef int tpos = c.tlen
    cdef int seat, i, nm, m, v, best, bestmove, maximize, tried = 0
    cdef int lo, hi, ttmove = -1, alpha0 = alpha, beta0 = beta
    cdef int sure[2]
    cdef int moves[MAXMOVES]
    cdef uint64_t ka = 0, kb = 0, legal
    cdef uint32_t kc = 0
    cdef TTEntry* e
    cdef TTEntry* bucket = NULL
    cdef uint64_t eka[MAXMOVES]
    cdef uint64_t ekb[MAXMOVES]
    cdef uint32_t ekc[MAXMOVES]
    cdef uint64_t keyed = 0, etc_legal = 0, merged = 0, sm = 0
    cdef uint64_t counted[2]
    cdef uint64_t lo_cards = 0, hi_cards = 0     # the cards the bounds lo and hi rely on
    cdef int pre = c.pre_valid
    cdef int part = track
    cdef PartEntry* pe
    cdef PartEntry* pbucket = NULL
    c.pre_valid = 0
    c.nodes += 1
    if c.limited and limit_hit(c):
        return 0                # meaningless: the caller sees ``aborted`` and unwinds
    if tpos == 0:
        if c.tricks_left <= 1:
            if track and c.tricks_left == 1:
                c.rel |= last_trick_relevance(c)
            return last_trick(c) if c.tricks_left == 1 else 0
        if part:
            part = part_key(c, &sm, &ka, &kb, &kc)
            if part:
                pbucket = part_bucket(c.pt, sm, kc)
                st_prefetch(pbucket)
        if c.use_tt and not part:
            # find the bucket first and let the memory system fetch it while we compute bounds
            if pre:
                ka = c.pre_ka
                kb = c.pre_kb
                kc = c.pre_kc
            else:
                position_key(c, &ka, &kb, &kc)
            bucket = tt_bucket(tt, ka, kb, kc)
            st_prefetch(bucket)
        value_range(c, &lo, &hi)
        if c.use_bounds and c.mode == MODE_POINTS and not c.extras and not c.beat_table:
            sure_points(c, sure, counted)
            lo = c.trick_scale * sure[c.max_side]
            hi -= c.trick_scale * sure[1 - c.max_side]
            if track:
                lo_cards = counted[c.max_side] if sure[c.max_side] else 0
                hi_cards = counted[1 - c.max_side] if sure[1 - c.max_side] else 0
        if lo >= beta:
            if track:
                c.rel |= lo_cards
            return lo
        if hi <= alpha:
            if track:
                c.rel |= hi_cards
            return hi
        if part:
            pe = part_probe(c, tt, pbucket, sm, ka, kb, kc)
            if pe != NULL:
                if pe.lo > lo:
                    lo = pe.lo
                    lo_cards = part_cards(c, pe.cuts)
                if pe.hi < hi:
                    hi = pe.hi
                    hi_cards = part_cards(c, pe.cuts)
                if pe.key_a == ka and pe.key_b == kb:
                    ttmove = move_from_entry(c, kc, pe.move)
                if lo >= beta or lo == hi:
                    c.rel |= lo_cards | (hi_cards if lo == hi else 0)
                    return lo
                if hi <= alpha:
                    c.rel |= hi_cards
                    return hi
        elif c.use_tt:
            e = tt_probe_bucket(tt, bucket, ka, kb, kc)
            if e != NULL:
                if e.lo > lo:
                    lo = e.lo
                    lo_cards = c.inplay     # an exact entry relies on every card
                if e.hi < hi:
                    hi = e.hi
                    hi_cards = c.inplay
                ttmove = move_from_entry(c, kc, e.move)
                if lo >= beta or lo == hi:
                    if track:
                        c.rel |= lo_cards | hi_cards
                    return lo
                if hi <= alpha:
                    if track:
                        c.rel |= hi_cards
                    return hi
    seat = c.seat_of[c.leader + tpos]
    legal = legal_mask(c, seat)
    if track and tpos > 0:
        c.rel |= follow_relevance(c)
    if c.use_merge:
        merged = legal
        legal = merge_equivalent(c, legal)
        merged &= ~legal if track else 0
    maximize = c.side[seat] == c.max_side
    if c.use_etc and tpos == n - 1 and c.use_tt and c.tricks_left >= c.use_etc and legal & (legal - 1):
        if track:
            if part_etc_cutoff(c, tt, seat, legal, maximize, alpha, beta, &v) >= 0:
                return v
        else:
            etc_legal = legal
            if etc_cutoff(c, tt, seat, legal, maximize, alpha, beta, &v, eka, ekb, ekc, &keyed) >= 0:
                return v
    best = -INF if maximize else INF
    bestmove = 255
    # Stage 1: the move that was best here before, without scoring the others.
    if ttmove >= 0 and (legal >> ttmove) & 1:
        legal &= ~st_bit(ttmove)
        best = search_keyed(c, tt, seat, ttmove, alpha, beta, etc_legal, keyed, eka, ekb, ekc)
        if c.aborted:
            return best
        bestmove = ttmove
        tried = 1
        if maximize:
            if best > alpha:
                alpha = best
        elif best < beta:
            beta = best
    # Stage 2: the other moves, ordered.
    if alpha < beta and (legal or (c.npair and tpos == 0)):
        nm = order_moves(c, seat, legal, moves, -1)
        if c.npair and tpos == 0:
            nm = add_show_choices(c, seat, moves, nm, ttmove if tried else -1)
        for i in range(nm):
            m = moves[i]
            v = search_keyed(c, tt, seat, m, alpha, beta, etc_legal, keyed, eka, ekb, ekc)
            if c.aborted:
                return v
            if maximize:
                if v > best:
                    best = v
                    bestmove = m
                    if best > alpha:
                        alpha = best
            else:
                if v < best:
                    best = v
                    bestmove = m
                    if best < beta:
                        beta = best
            tried += 1
            if alpha >= beta:
                break
    if alpha >= beta:
        c.hist[seat][bestmove & CARD_MASK] += c.tricks_left * c.tricks_left
        c.stat_cut[tpos if tpos < 4 else 3] += 1
        if tried == 1:
            c.stat_cut_first[tpos if tpos < 4 else 3] += 1
    if track and merged:
        merge_relevance(c, merged)
    if tpos == 0 and c.use_tt:
        if best <= alpha0:
            if best < hi:
                hi = best
                hi_cards = 0        # proven by the children (their cards are in c.rel)
        elif best >= beta0:
            if best > lo:
                lo = best
                lo_cards = 0
        else:
            lo = best
            hi = best
            lo_cards = 0
            hi_cards = 0
        if track:
            c.rel |= lo_cards | hi_cards
        if part:
            part_store(c, tt, pbucket, sm, ka, kb, kc, lo, hi,
                       move_to_entry(c, kc, bestmove) if bestmove < MAXCARDS else 255,
                       c.tricks_left, portable(c, kc))
        else:
            tt_store(tt, ka, kb, kc, lo, hi,
                     move_to_entry(c, kc, bestmove) if bestmove < MAXCARDS else 255,
                     c.tricks_left, portable(c, kc))
    return best


cdef int greedy_playout(Ctx* c) noexcept nogil:
    """What the maximising side gains if every seat plays the card the move ordering likes
    best: a cheap first guess for the exact search."""
    cdef Undo undo[MAXPLY]
    cdef int moves[MAXMOVES]
    cdef int k = 0, seat, total = 0, i
    cdef uint64_t legal
    while c.tricks_left > 0 and k < MAXPLY:
        seat = to_move(c)
        legal = merge_equivalent(c, legal_mask(c, seat))
        if not legal:
            break
        order_moves(c, seat, legal, moves, -1)
        do_move(c, seat, moves[0], &undo[k])
        total += undo[k].gain
        k += 1
        if undo[k - 1].stop:
            break
    for i in range(k - 1, -1, -1):
        undo_move(c, &undo[i])
    return total


cdef int mtd_step(Ctx* c, TT* tt, int guess, int* lo_io, int* hi_io) noexcept nogil:
    """Exact value by null-window tests that gallop from ``guess`` (steps 1, 2, 4, ... in the
    direction the tests point) and then bisect: O(log distance) tests instead of one per
    point of distance.  ``lo_io``/``hi_io``: the range on entry, the proven bounds on return
    (equal unless a limit stopped the search)."""
    cdef int lo = lo_io[0], hi = hi_io[0]
    cdef int r, step = 1, b
    if guess < lo:
        guess = lo
    if guess > hi:
        guess = hi
    b = guess if guess > lo else lo + 1
    while lo < hi:
        if b <= lo:
            b = lo + 1
        if b > hi:
            b = hi
        r = alphabeta(c, tt, b - 1, b)
        if c.aborted:
            break
        if r >= b:
            lo = r
            b = lo + step
        else:
            hi = r
            b = hi - step + 1
        step *= 2
        if lo < hi and hi - lo <= step:
            b = (lo + hi + 1) // 2
            step = 1
    lo_io[0] = lo
    hi_io[0] = hi
    return lo


cdef int mtdf(Ctx* c, TT* tt, int guess, int* lo_io, int* hi_io) noexcept nogil:
    """Exact value by a sequence of null-window searches, starting at ``guess``.
    ``lo_io``/``hi_io``: the range on entry, the proven bounds on return (equal unless a
    limit stopped the search)."""
    cdef int lo = lo_io[0], hi = hi_io[0]
    cdef int g = guess, b
    if g < lo:
        g = lo
    if g > hi:
        g = hi
    while lo < hi:
        b = g + 1 if g == lo else g
        g = alphabeta(c, tt, b - 1, b)
        if c.aborted:
            break
        if g < b:
            hi = g
        else:
            lo = g
    lo_io[0] = lo
    hi_io[0] = hi
    return lo


cdef inline int stored_move(Ctx* c, TT* tt, uint64_t candidates) noexcept nogil:
    """The best card stored for this position at a trick start, if it is a candidate."""
    cdef uint64_t ka, kb
    cdef uint32_t kc
    cdef TTEntry* e
    cdef int move
    cdef uint64_t sm
    cdef PartEntry* pe
    if c.tlen != 0 or not c.use_tt:
        return -1
    if part_node(c) and part_key(c, &sm, &ka, &kb, &kc):
        pe = part_probe(c, tt, part_bucket(c.pt, sm, kc), sm, ka, kb, kc)
        if pe == NULL:
            return -1
        move = move_from_entry(c, kc, pe.move)
    else:
        position_key(c, &ka, &kb, &kc)
        e = tt_probe_bucket(tt, tt_bucket(tt, ka, kb, kc), ka, kb, kc)
        if e == NULL:
            return -1
        move = move_from_entry(c, kc, e.move)
    if move < 0 or not (candidates >> move) & 1:
        return -1
    return move


cdef int at_least(Ctx* c, TT* tt, int target) noexcept nogil:
    """Is the value of the position at least ``target``?  (``Engine.test`` in C.)"""
    cdef int lo, hi
    if c.tricks_left == 0:
        return target <= 0
    value_range(c, &lo, &hi)
    if target <= lo:
        return 1
    if target > hi:
        return 0
    return alphabeta(c, tt, target - 1, target) >= target


cdef int keeps_value(Ctx* c, TT* tt, int seat, int card, int value, Undo* u) noexcept nogil:
    """Does playing ``card`` keep the value ``value`` of the position?  For the maximising
    side: is the child still worth ``value``; for the other side: is it worth no more."""
    cdef int rest, keeps
    do_move(c, seat, card, u)
    rest = value - u.gain
    if u.stop:
        keeps = rest == 0
    elif c.side[seat] == c.max_side:
        keeps = at_least(c, tt, rest)
    else:
        keeps = not at_least(c, tt, rest + 1)
    undo_move(c, u)
    return keeps
