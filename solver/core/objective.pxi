# What the search maximises.  The value is always "what the maximising side (max_side, set by
# the objective) still gains from here"; the other side minimises it.  Stored bounds never
# depend on the history: the little history that rules do depend on (which sides have won a
# trick, who has won the tricks of the run window so far, which pairs were shown, and with a
# final payoff side 0's trick points so far) is kept in a small tag that is part of the key.
#
#   POINTS: trick points (card values and bonuses) of the maximising side, times trick_scale
#           (0, 1 or 2), plus extras (pair and run bonuses) weighted extra_own for the
#           maximising side and -extra_other for the other side, plus with a goal the final
#           payoff goal_pay once the last trick is won.  With trick_scale 2 and both weights
#           1 the value is own minus other plus a constant: the right zero-sum measure when
#           extras make the game non-constant-sum.
#   STREAK: tricks the maximising side wins in a row from here, ending at its first lost
#           trick (every trick, a majority before the other side wins one: thresholds on it).
#
# Three generic mechanisms make a game non-constant-sum (all off in most games):
#   pair bonus: the seat on lead, once its side has won a trick, may show one pair of cards
#           that lie face up among its playable cards and have not been shown, with any lead
#           card; it earns pair_val.  A lead move carries which pair it shows (SHOW_*).
#   run bonus: winning each of the last run_tricks tricks earns run_value.
#   goal:   a payoff to side 0 at the end, by side 0's trick points and which sides won a
#           trick (strokes of a game won at a threshold of points).

cdef enum:
    MODE_POINTS = 0
    MODE_STREAK = 1
    TAG_WON_0 = 1           # side 0 has won a trick
    TAG_WON_1 = 2
    TAG_RUN_SHIFT = 2       # 2 bits: 0 window not reached, 1 + side: that side won all so far, 3 broken
    TAG_SHOWN_SHIFT = 4     # one bit per pair: shown already
    CARD_MASK = 63          # a move is a card index, plus with a lead which pair it shows:
    SHOW_SHIFT = 6          #   move >> SHOW_SHIFT is SHOW_AUTO, 1 + pair, or SHOW_NONE
    SHOW_AUTO = 0           # the search's choice: the first pair that may be shown, if any
    SHOW_NONE = 7           # lead without showing a pair that could be shown (a replayed game)

ctypedef struct Undo:
    uint64_t cards          # the cards of the trick the move finished
    int seat
    int card
    int finished
    int old_leader
    int winner
    int drew
    int old_tag
    int old_pts
    int shown               # the pair shown with this lead, -1: none
    int gain                # what the move earned the maximising side
    int stop                # the objective ends here (the streak is broken)


cdef inline int extra_gain(Ctx* c, int side, int value) noexcept nogil:
    return c.extra_own * value if side == c.max_side else -c.extra_other * value


cdef inline int showable_pairs(Ctx* c, int seat) noexcept nogil:
    """The pairs ``seat`` may show with a lead now (bit p: pair p): its side has won a trick,
    both cards lie face up among its playable cards, and the pair was not shown before."""
    cdef int p, m = 0
    cdef uint64_t up = c.play[seat]
    if not (c.tag >> c.side[seat]) & 1:
        return 0
    for p in range(c.npair):
        if not (c.tag >> (TAG_SHOWN_SHIFT + p)) & 1 and (up >> c.pair_a[p]) & 1 \
                and (up >> c.pair_b[p]) & 1:
            m |= 1 << p
    return m


cdef inline int pair_shown_by(Ctx* c, int seat, int code) noexcept nogil:
    """The pair a lead with show code ``code`` shows (-1: none; -2: a pair it may not show)."""
    cdef int m = showable_pairs(c, seat)
    if code == SHOW_NONE:
        return -1
    if code == SHOW_AUTO:
        return st_ctz(m) if m else -1
    if code - 1 < c.npair and (m >> (code - 1)) & 1:
        return code - 1
    return -2


cdef inline int add_show_choices(Ctx* c, int seat, int* moves, int n, int searched) noexcept nogil:
    """At a lead where more than one pair may be shown, the cards in ``moves`` (and the card
    ``searched``, already tried with the first pair) also with each further pair.  Showing
    never costs, so not showing is never searched; which pair to show first is a choice."""
    cdef int m = showable_pairs(c, seat), p, i, k = n
    if m & (m - 1) == 0:
        return n
    m &= m - 1                                  # the first pair is shown by the plain card
    while m:
        p = st_ctz(m)
        m &= m - 1
        for i in range(n):
            moves[k] = (moves[i] & CARD_MASK) | ((1 + p) << SHOW_SHIFT)
            k += 1
        if searched >= 0:
            moves[k] = searched | ((1 + p) << SHOW_SHIFT)
            k += 1
    return k


cdef inline void tag_after_trick(Ctx* c, int winner, int points) noexcept nogil:
    """Update the history once a trick is won (``tricks_left`` already counts it done)."""
    cdef int side = c.side[winner], before, run
    c.tag |= 1 << side
    if c.side[winner] == 0:
        c.goal_pts += points
    if c.run_tricks:
        before = c.tricks_left + 1
        if before <= c.run_tricks:
            run = (c.tag >> TAG_RUN_SHIFT) & 3
            if before == c.run_tricks:
                run = 1 + side
            elif run != 1 + side:
                run = 3
            c.tag = (c.tag & ~(3 << TAG_RUN_SHIFT)) | (run << TAG_RUN_SHIFT)


cdef inline int goal_payoff(Ctx* c) noexcept nogil:
    cdef int pts = c.goal_pts
    if pts < 0:
        pts = 0
    if pts >= MAXGOAL:
        pts = MAXGOAL - 1
    return c.goal_pay[c.tag & 3][pts]


cdef inline int trick_gain(Ctx* c, int winner, int points, int* stop) noexcept nogil:
    """What a finished trick earns the maximising side (after ``finish_trick``)."""
    cdef int side = c.side[winner], g, run
    if c.mode == MODE_STREAK:
        if side == c.max_side:
            return 1
        stop[0] = 1
        return 0
    g = c.trick_scale * points if side == c.max_side else 0
    if c.extras and c.tricks_left == 0:
        if c.run_tricks:
            run = (c.tag >> TAG_RUN_SHIFT) & 3
            if run == 1 or run == 2:
                g += extra_gain(c, run - 1, c.run_value)
        if c.goal:
            g += goal_payoff(c)
    return g


cdef inline void do_move(Ctx* c, int seat, int move, Undo* u) noexcept nogil:
    """Play a move (a card; with a lead, maybe a pair shown); if it ends a trick, settle the
    trick (stock, lead, history) and its gain."""
    cdef int points, p, card = move & CARD_MASK
    u.seat = seat
    u.card = card
    u.finished = 0
    u.stop = 0
    u.shown = -1
    u.gain = 0
    if c.npair and c.tlen == 0:
        p = pair_shown_by(c, seat, move >> SHOW_SHIFT)
        if p >= 0:
            u.shown = p
            c.tag |= 1 << (TAG_SHOWN_SHIFT + p)
            u.gain = extra_gain(c, c.side[seat], c.pair_val[p])
    play_card(c, seat, card)
    if c.tlen == c.nseats:
        u.winner = trick_winner(c)
        points = trick_points(c)
        u.old_leader = c.leader
        u.old_tag = c.tag
        u.old_pts = c.goal_pts
        u.cards = c.tcards
        u.drew = finish_trick(c, u.winner)
        if c.extras:
            tag_after_trick(c, u.winner, points)
        u.finished = 1
        u.gain += trick_gain(c, u.winner, points, &u.stop)


cdef inline void undo_move(Ctx* c, Undo* u) noexcept nogil:
    if u.finished:
        c.tag = u.old_tag
        c.goal_pts = u.old_pts
        unfinish_trick(c, u.old_leader, u.winner, u.drew, u.cards)
    unplay_card(c, u.seat, u.card)
    if u.shown >= 0:
        c.tag &= ~(1 << (TAG_SHOWN_SHIFT + u.shown))


cdef inline void do_lean(Ctx* c, int seat, int card, Undo* u) noexcept nogil:
    """``do_move`` where the objective is plain points and the game has no extras
    (``c.lean``): no pair to show, no history, no streak to stop."""
    cdef int w
    u.seat = seat
    u.card = card
    u.stop = 0
    play_card(c, seat, card)
    if c.tlen == c.nseats:
        w = trick_winner(c)
        u.winner = w
        u.gain = c.trick_scale * trick_points(c) if c.side[w] == c.max_side else 0
        u.old_leader = c.leader
        u.cards = c.tcards
        u.drew = finish_trick(c, w)
        u.finished = 1
    else:
        u.gain = 0
        u.finished = 0


cdef inline void undo_lean(Ctx* c, Undo* u) noexcept nogil:
    if u.finished:
        unfinish_trick(c, u.old_leader, u.winner, u.drew, u.cards)
    unplay_card(c, u.seat, u.card)


cdef inline int last_trick_gain(Ctx* c, int wseat, int pts) noexcept nogil:
    """What the last trick (won by ``wseat``, worth ``pts``) earns, played without moving."""
    cdef int g, stop = 0, old_tag = c.tag, old_pts = c.goal_pts
    if c.mode == MODE_POINTS and not c.extras:
        return c.trick_scale * pts if c.side[wseat] == c.max_side else 0
    c.tricks_left = 0
    if c.extras:
        tag_after_trick(c, wseat, pts)
    g = trick_gain(c, wseat, pts, &stop)
    c.tricks_left = 1
    c.tag = old_tag
    c.goal_pts = old_pts
    return g


cdef inline int possible_extras(Ctx* c) noexcept nogil:
    """Extras still to be won: pairs not shown whose two cards one seat still holds, the run."""
    cdef int p, s, total = 0, run
    for p in range(c.npair):
        if (c.tag >> (TAG_SHOWN_SHIFT + p)) & 1:
            continue
        for s in range(c.nseats):
            if (c.hand[s] >> c.pair_a[p]) & 1 and (c.hand[s] >> c.pair_b[p]) & 1:
                total += c.pair_val[p]
                break
    if c.run_tricks and c.tricks_left > 0:
        run = (c.tag >> TAG_RUN_SHIFT) & 3
        if run != 3:
            total += c.run_value
    return total


cdef inline void value_range(Ctx* c, int* lo, int* hi) noexcept nogil:
    """Every value the position can still have under the current objective."""
    cdef int extra
    if c.mode == MODE_STREAK:
        lo[0] = 0
        hi[0] = c.tricks_left
        return
    extra = possible_extras(c) if c.extras else 0
    lo[0] = -c.extra_other * extra
    hi[0] = c.trick_scale * remaining_total(c) + c.extra_own * extra
    if c.goal:
        lo[0] += c.goal_lo
        hi[0] += c.goal_hi


cdef inline uint32_t objective_id(Ctx* c) noexcept nogil:
    """The objective's part of a table key: every parameter that changes a value (kept in
    ``c.obj_id`` when the objective is set).  Bits 0..5: the mode, the side, trick_scale 2,
    the two extra weights, the goal; bit 6: trick_scale 0 (so 0, 1 and 2 all differ; the
    keys place bit 6 apart, keys.pxi)."""
    return <uint32_t> (c.mode | (c.max_side << 1) | ((1 if c.trick_scale == 2 else 0) << 2)
                       | (c.extra_own << 3) | (c.extra_other << 4) | (c.goal << 5)
                       | ((1 if c.trick_scale == 0 else 0) << 6))


cdef inline uint32_t history_key(Ctx* c) noexcept nogil:
    """The history bits of the table key (above the leader's 3 bits, around the objective's
    bits at 7..12 and 25): won tricks and the run at 3..6, shown pairs at 13..16, with a goal
    side 0's trick points at 17..24.  All zero in games without extras."""
    cdef uint32_t k = ((<uint32_t> c.tag & 15) << 3) | ((<uint32_t> (c.tag >> 4) & 15) << 13)
    if c.goal:
        k |= (<uint32_t> (c.goal_pts & 255)) << 17
    return k
