# The search: fail-soft alpha-beta over moves, the side named by the objective (max_side,
# objective.pxi) maximising what it still gains, the other side minimising it: every search
# is zero-sum in its own value.  A value is always "what the maximising side gains from this
# position on", so transposition-table entries depend on the history only through the tag
# in the key.  MTD(f) drives it with null windows.

ctypedef struct Searcher:
    Ctx c
    TT tt
    PartTT pt


# Two compiled copies of the search (Cython fused types): ``Plain`` for nodes that use the
# exact table only, and ``Tracking`` for nodes that collect relevant cards and use the
# partition table (part.pxi).  A node tracks iff ``part_node``; a tracking node's children
# track too (the stock never grows inside a search), so only a plain node asks.  A plain
# node never reads ``c.rel``: cards a plain subtree would mark are never used.

ctypedef struct Plain:
    int unused

ctypedef struct Tracking:
    int unused

ctypedef fused Mode:
    Plain
    Tracking


ctypedef struct TrickStart:     # what a trick start knows before its moves are searched
    uint64_t ka                 # its key (keys.pxi)
    uint64_t kb
    uint32_t kc
    uint64_t sm                 # the partition table's summary (part.pxi)
    int part                    # it uses the partition table (else the exact table)
    TTEntry* bucket
    PartEntry* pbucket
    int lo                      # bounds on its value, from the range, sure points, the table
    int hi
    uint64_t lo_cards           # the cards the bounds lo and hi rely on (tracking only)
    uint64_t hi_cards
    int ttmove                  # the best card stored for it, or -1


cdef inline void search_update(Ctx* c) noexcept nogil:
    """What the search reads at every node of the game, the switches and the objective,
    worked out once whenever one of them changes."""
    part_update(c)
    c.etc_from = c.use_etc if (c.use_etc and c.use_tt) else MAXPLY + 1
    c.sure_bounds = (c.use_bounds and c.mode == MODE_POINTS and not c.extras
                     and not c.beat_table)
    c.lean = c.mode == MODE_POINTS and not c.extras
    c.killer_leads = c.use_killer and c.killer_fits


cdef inline int search_child(Ctx* c, TT* tt, int alpha, int beta, Mode* mode) noexcept nogil:
    """The value of the position just reached, searched in the mode its node needs."""
    cdef uint64_t outer
    cdef int v
    if Mode is Plain:
        return alphabeta(c, tt, alpha, beta)
    else:
        outer = c.rel
        c.rel = 0
        v = search_node(c, tt, alpha, beta, mode)
        c.rel |= outer
        return v


cdef int alphabeta(Ctx* c, TT* tt, int alpha, int beta) noexcept nogil:
    """The value (what the maximising side still gains) of the position, fail-soft within
    (alpha, beta).  With partition search, ``c.rel`` collects this subtree's relevant cards
    while it is searched and adds them to the caller's afterwards."""
    cdef Tracking* tracking = NULL
    cdef Plain* plain = NULL
    if part_node(c):
        return search_child(c, tt, alpha, beta, tracking)
    return search_node(c, tt, alpha, beta, plain)


cdef inline int search_move(Ctx* c, TT* tt, int seat, int m, int alpha, int beta,
                            Mode* mode) noexcept nogil:
    """Play ``m`` for ``seat``, search on, take it back; counts what the move itself earned."""
    cdef int v
    cdef Undo u
    if c.lean:
        do_lean(c, seat, m, &u)
    else:
        do_move(c, seat, m, &u)
    if Mode is Tracking:
        if u.finished:
            c.rel |= winner_relevance(c, c.tb - c.nseats, c.nseats)
    if u.stop or c.tricks_left == 0:
        v = u.gain
    else:
        v = u.gain + search_child(c, tt, alpha - u.gain, beta - u.gain, mode)
    if c.lean:
        undo_lean(c, &u)
    else:
        undo_move(c, &u)
    return v


cdef inline bint tt_probe(Ctx* c, TT* tt, TTEntry* bucket, uint64_t ka, uint64_t kb, uint32_t kc,
                          TTHit* hit) noexcept nogil:
    """``tt_probe_bucket``, counted (the counts are the engine's: a table may be shared)."""
    c.tt_probes += 1
    if tt_probe_bucket(tt, bucket, ka, kb, kc, hit):
        c.tt_hits += 1
        return 1
    return 0


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


cdef inline bint child_refuted(int maximize, int gain, int lo, int hi, int alpha, int beta,
                               int* value) noexcept nogil:
    """Does a child's stored bound show that its move cannot improve on the window (the
    opposite of ``child_decides``)?  Then ``value`` is the move's fail-soft value."""
    if maximize and gain + hi <= alpha:
        value[0] = gain + hi
        return 1
    if not maximize and gain + lo >= beta:
        value[0] = gain + lo
        return 1
    return 0


ctypedef struct Keyed:          # the keys etc_cutoff worked out for the children's trick starts
    uint64_t legal              # slot k: the k-th card of ``legal``
    uint64_t keyed              # the cards whose child starts a keyed trick
    uint64_t refuted            # the keyed cards whose stored bound shows they cannot help
    int bound[MAXMOVES]         # the value that bound proves for each refuted card
    uint64_t ka[MAXMOVES]
    uint64_t kb[MAXMOVES]
    uint32_t kc[MAXMOVES]
    TTEntry* bucket[MAXMOVES]


cdef inline int etc_cutoff(Ctx* c, TT* tt, int seat, uint64_t legal, int maximize, int alpha,
                           int beta, int* value, Keyed* ks) noexcept nogil:
    """Enhanced transposition cutoff: at the last seat of a trick every card ends the trick,
    so look up each resulting position before searching any; one stored bound may already
    decide this node.  All the keys are computed and their buckets fetched first, then probed,
    so the memory latencies overlap; the keys are handed to the children searched next.
    A card whose child's bound cannot reach the window is marked refuted, with the value that
    bound proves: ``search_keyed`` takes it without playing the card (the window only narrows
    while the node searches, so the card stays refuted)."""
    cdef uint64_t m = legal
    cdef int x, k = 0, found = -1
    cdef int gain[MAXMOVES]
    cdef Undo u
    cdef TTHit e
    ks.legal = legal
    ks.keyed = 0
    ks.refuted = 0
    while m:
        x = st_ctz(m)
        m &= m - 1
        if c.lean:
            do_lean(c, seat, x, &u)
        else:
            do_move(c, seat, x, &u)
        if not u.stop and c.tricks_left >= 2 and part_node(c):
            # the trick drew the last stock cards: the child lives in the partition table
            if part_child_cutoff(c, tt, maximize, alpha, beta, u.gain, value):
                found = x
        elif not u.stop and c.tricks_left >= 2:
            position_key(c, &ks.ka[k], &ks.kb[k], &ks.kc[k])
            ks.bucket[k] = tt_bucket(tt, ks.ka[k], ks.kb[k], ks.kc[k])
            st_prefetch(ks.bucket[k])
            ks.keyed |= st_bit(x)
            gain[k] = u.gain
        if c.lean:
            undo_lean(c, &u)
        else:
            undo_move(c, &u)
        if found >= 0:
            return found
        k += 1
    m = ks.keyed
    while m:
        x = st_ctz(m)
        m &= m - 1
        k = st_popcount(legal & (st_bit(x) - 1))
        if tt_probe(c, tt, ks.bucket[k], ks.ka[k], ks.kb[k], ks.kc[k], &e):
            if child_decides(maximize, gain[k], e.lo, e.hi, alpha, beta, value):
                return x
            if child_refuted(maximize, gain[k], e.lo, e.hi, alpha, beta, &ks.bound[k]):
                ks.refuted |= st_bit(x)
    return -1


cdef inline int search_keyed(Ctx* c, TT* tt, int seat, int m, int alpha, int beta, Keyed* ks,
                             Mode* mode) noexcept nogil:
    """``search_move``, handing the child the key ``etc_cutoff`` worked out for it; a card
    ``etc_cutoff`` refuted is not searched, its bound is its fail-soft value."""
    cdef int k
    if ks != NULL and (ks.keyed >> m) & 1:
        k = st_popcount(ks.legal & (st_bit(m) - 1))
        if (ks.refuted >> m) & 1:
            return ks.bound[k]
        c.pre_valid = 1
        c.pre_ka = ks.ka[k]
        c.pre_kb = ks.kb[k]
        c.pre_kc = ks.kc[k]
        c.pre_bucket = <void*> ks.bucket[k]
    return search_move(c, tt, seat, m, alpha, beta, mode)


cdef inline bint start_decided(Ctx* c, TrickStart* t, int alpha, int beta, int* value,
                               Mode* mode) noexcept nogil:
    """Do the trick start's bounds decide it?  (Tracking: its cards are marked.)"""
    if t.lo >= beta:
        if Mode is Tracking:
            c.rel |= t.lo_cards
        value[0] = t.lo
        return 1
    if t.hi <= alpha:
        if Mode is Tracking:
            c.rel |= t.hi_cards
        value[0] = t.hi
        return 1
    return 0


cdef inline bint probe_start(Ctx* c, TT* tt, TrickStart* t, int alpha, int beta, int* value,
                             Mode* mode) noexcept nogil:
    """Tighten the trick start's bounds by its table entry; does that decide it?"""
    cdef TTHit e
    cdef PartEntry* pe
    if Mode is Tracking:
        if t.part:
            pe = part_probe(c, tt, t.pbucket, t.sm, t.ka, t.kb, t.kc)
            if pe == NULL:
                return 0
            if pe.lo > t.lo:
                t.lo = pe.lo
                t.lo_cards = part_cards(c, pe.cuts)
            if pe.hi < t.hi:
                t.hi = pe.hi
                t.hi_cards = part_cards(c, pe.cuts)
            if pe.key_a == t.ka and pe.key_b == t.kb:
                t.ttmove = move_from_entry(c, t.kc, pe.move)
            if t.lo >= beta or t.lo == t.hi:
                c.rel |= t.lo_cards | (t.hi_cards if t.lo == t.hi else 0)
                value[0] = t.lo
                return 1
            if t.hi <= alpha:
                c.rel |= t.hi_cards
                value[0] = t.hi
                return 1
            return 0
    if not c.use_tt:
        return 0
    if not tt_probe(c, tt, t.bucket, t.ka, t.kb, t.kc, &e):
        return 0
    if e.lo > t.lo:
        t.lo = e.lo
        t.lo_cards = c.inplay     # an exact entry relies on every card
    if e.hi < t.hi:
        t.hi = e.hi
        t.hi_cards = c.inplay
    t.ttmove = move_from_entry(c, t.kc, e.move)
    if t.lo >= beta or t.lo == t.hi:
        if Mode is Tracking:
            c.rel |= t.lo_cards | t.hi_cards
        value[0] = t.lo
        return 1
    if t.hi <= alpha:
        if Mode is Tracking:
            c.rel |= t.hi_cards
        value[0] = t.hi
        return 1
    return 0


cdef inline bint trick_start(Ctx* c, TT* tt, TrickStart* t, int alpha, int beta, int pre,
                             int* value, Mode* mode) noexcept nogil:
    """At a trick start: its key (handed down by the parent's ETC when ``pre``) and bucket,
    fetched while the bounds without a search are worked out (the value range, sure
    points), then the table.  Returns whether that decides the node (``value``).  Where
    the value range alone decides it (what is left to win cannot reach the window), the key
    is worked out only if the sure points, which still set the fail-soft value, leave the
    node undecided after all."""
    cdef int sure[2]
    cdef uint64_t counted[2]
    cdef bint keyed = 0
    t.part = 0
    t.ttmove = -1
    t.lo_cards = 0
    t.hi_cards = 0
    value_range(c, &t.lo, &t.hi)
    if t.lo < beta and t.hi > alpha:
        start_key(c, tt, t, pre, mode)
        keyed = 1
    if c.sure_bounds:
        sure_points(c, sure, counted)
        t.lo = c.trick_scale * sure[c.max_side]
        t.hi -= c.trick_scale * sure[1 - c.max_side]
        if Mode is Tracking:
            t.lo_cards = counted[c.max_side] if sure[c.max_side] else 0
            t.hi_cards = counted[1 - c.max_side] if sure[1 - c.max_side] else 0
    if start_decided(c, t, alpha, beta, value, mode):
        return 1
    if not keyed:
        start_key(c, tt, t, pre, mode)
    return probe_start(c, tt, t, alpha, beta, value, mode)


cdef inline void start_key(Ctx* c, TT* tt, TrickStart* t, int pre, Mode* mode) noexcept nogil:
    """The trick start's key and bucket (the partition table's where it applies), the
    bucket fetched ahead of its probe."""
    if Mode is Tracking:
        t.part = part_key(c, &t.sm, &t.ka, &t.kb, &t.kc)
        if t.part:
            t.pbucket = part_bucket(c.pt, t.sm, t.kc)
            st_prefetch(t.pbucket)
    if c.use_tt and not t.part:
        if pre:
            t.ka = c.pre_ka
            t.kb = c.pre_kb
            t.kc = c.pre_kc
            t.bucket = <TTEntry*> c.pre_bucket
        else:
            position_key(c, &t.ka, &t.kb, &t.kc)
            t.bucket = tt_bucket(tt, t.ka, t.kb, t.kc)
            st_prefetch(t.bucket)


cdef inline void store_start(Ctx* c, TT* tt, TrickStart* t, int best, int alpha0, int beta0,
                             int bestmove, Mode* mode) noexcept nogil:
    """Store what the search of a trick start proved, with the bounds it knew before."""
    cdef int lo = t.lo, hi = t.hi, move
    cdef uint64_t lo_cards = t.lo_cards, hi_cards = t.hi_cards
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
    move = move_to_entry(c, t.kc, bestmove) if bestmove < MAXCARDS else 255
    if Mode is Tracking:
        c.rel |= lo_cards | hi_cards
        if t.part:
            part_store(c, tt, t.pbucket, t.sm, t.ka, t.kb, t.kc, lo, hi, move, c.tricks_left,
                       portable(c, t.kc))
            return
    c.tt_stores += 1
    tt_store(tt, t.ka, t.kb, t.kc, lo, hi, move, c.tricks_left, portable(c, t.kc))


cdef inline void better(int maximize, int v, int m, int* best, int* bestmove, int* alpha,
                        int* beta) noexcept nogil:
    """Take a searched move's value into the node's best and window."""
    if maximize:
        if v > best[0]:
            best[0] = v
            bestmove[0] = m
            if v > alpha[0]:
                alpha[0] = v
    elif v < best[0]:
        best[0] = v
        bestmove[0] = m
        if v < beta[0]:
            beta[0] = v


cdef int search_node(Ctx* c, TT* tt, int alpha, int beta, Mode* mode) noexcept nogil:
    """``alphabeta`` proper: the trick start's bounds and table entry, then the moves (the
    stored card first, then the others in order), then what was proven is stored."""
    cdef int n = c.nseats
    cdef int tpos = c.tlen
    cdef int seat, i, nm, m, v, best, bestmove, maximize, tried = 0, shows
    cdef int alpha0 = alpha, beta0 = beta
    cdef int moves[MAXMOVES]
    cdef int64_t keys[MAXMOVES]
    cdef uint64_t legal, merged = 0
    cdef TrickStart t
    cdef Keyed ks
    cdef Keyed* keyed = NULL
    cdef int pre = c.pre_valid
    c.pre_valid = 0
    c.nodes += 1
    if c.nodes >= c.next_check and limit_hit(c):
        return 0                # meaningless: the caller sees ``aborted`` and unwinds
    t.ttmove = -1
    if tpos == 0:
        c.trick_nodes += 1
        if c.tricks_left <= 1:
            if Mode is Tracking:
                if c.tricks_left == 1:
                    c.rel |= last_trick_relevance(c)
            return last_trick(c) if c.tricks_left == 1 else 0
        if trick_start(c, tt, &t, alpha, beta, pre, &v, mode):
            return v
    seat = c.seat_of[c.leader + tpos]
    legal = legal_mask(c, seat)
    if Mode is Tracking:
        if tpos > 0:
            c.rel |= follow_relevance(c)
    if c.use_merge:
        merged = legal
        legal = merge_equivalent(c, legal)
        merged &= ~legal
    maximize = c.side[seat] == c.max_side
    if tpos == n - 1 and c.tricks_left >= c.etc_from and legal & (legal - 1):
        if Mode is Tracking:
            if part_etc_cutoff(c, tt, seat, legal, maximize, alpha, beta, &v) >= 0:
                return v
        else:
            keyed = &ks
            if etc_cutoff(c, tt, seat, legal, maximize, alpha, beta, &v, keyed) >= 0:
                return v
    best = -INF if maximize else INF
    bestmove = 255
    # Stage 1: the move that was best here before, without scoring the others.
    if t.ttmove >= 0 and (legal >> t.ttmove) & 1:
        legal &= ~st_bit(t.ttmove)
        best = search_keyed(c, tt, seat, t.ttmove, alpha, beta, keyed, mode)
        if c.aborted:
            return best
        bestmove = t.ttmove
        tried = 1
        if maximize:
            if best > alpha:
                alpha = best
        elif best < beta:
            beta = best
    # Stage 2: the other moves, ordered (a lead's killer first); sorted only once the first
    # has not cut.
    if alpha < beta and (legal or (c.npair and tpos == 0)):
        shows = c.npair and tpos == 0
        if shows:
            nm = order_moves(c, seat, legal, moves, -1)
            nm = add_show_choices(c, seat, moves, nm, t.ttmove if tried else -1)
        else:
            nm = score_moves(c, seat, legal, keys,
                             killer_lead(c, legal) if tpos == 0 and c.killer_leads else -1)
        for i in range(nm):
            if shows:
                m = moves[i]
            elif i == 0:
                m = first_move(keys, nm)
            else:
                if i == 1:
                    sort_keys(keys, nm)
                m = <int> (63 - (keys[i] & 63))
            v = search_keyed(c, tt, seat, m, alpha, beta, keyed, mode)
            if c.aborted:
                return v
            better(maximize, v, m, &best, &bestmove, &alpha, &beta)
            tried += 1
            if alpha >= beta:
                break
    if alpha >= beta:
        history_cut(c, seat, bestmove & CARD_MASK)
        c.stat_cut[tpos if tpos < 4 else 3] += 1
        if tried == 1:
            c.stat_cut_first[tpos if tpos < 4 else 3] += 1
    if Mode is Tracking:
        if merged:
            merge_relevance(c, merged)
    if tpos == 0 and c.use_tt:
        store_start(c, tt, &t, best, alpha0, beta0, bestmove, mode)
    return best


cdef int greedy_playout(Ctx* c) noexcept nogil:
    """What the maximising side gains if every seat plays the card the move ordering likes
    best: a cheap first guess for the exact search."""
    cdef Undo undo[MAXPLY]
    cdef int64_t keys[MAXMOVES]
    cdef int k = 0, seat, total = 0, i, nm
    cdef uint64_t legal
    while c.tricks_left > 0 and k < MAXPLY:
        seat = to_move(c)
        legal = merge_equivalent(c, legal_mask(c, seat))
        if not legal:
            break
        nm = score_moves(c, seat, legal, keys, -1)
        do_move(c, seat, first_move(keys, nm), &undo[k])
        total += undo[k].gain
        k += 1
        if undo[k - 1].stop:
            break
    for i in range(k - 1, -1, -1):
        undo_move(c, &undo[i])
    return total


cdef int shallow_guess(Ctx* c, int plies, int alpha, int beta) noexcept nogil:
    """A first guess by a shallow search: fail-soft alpha-beta over the next ``plies`` moves
    (the cards the move ordering offers, one of each equivalent run), the greedy play-out
    (``greedy_playout``) as the value of each position it reaches.  No table, no node count:
    the exact search that follows proves the value whatever this returns."""
    cdef Undo u
    cdef int moves[MAXMOVES]
    cdef int nm, i, seat, maximize, v, best
    cdef uint64_t legal
    if plies <= 0 or c.tricks_left <= 0:
        return greedy_playout(c)
    seat = to_move(c)
    legal = merge_equivalent(c, legal_mask(c, seat))
    if not legal:
        return greedy_playout(c)
    maximize = c.side[seat] == c.max_side
    best = -INF if maximize else INF
    nm = order_moves(c, seat, legal, moves, -1)
    for i in range(nm):
        do_move(c, seat, moves[i], &u)
        if u.stop or c.tricks_left == 0:
            v = u.gain
        else:
            v = u.gain + shallow_guess(c, plies - 1, alpha - u.gain, beta - u.gain)
        undo_move(c, &u)
        if maximize:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
        elif v < best:
            best = v
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    return best


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
    cdef TTHit e
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
        if not tt_probe(c, tt, tt_bucket(tt, ka, kb, kc), ka, kb, kc, &e):
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
