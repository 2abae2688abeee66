# What the search maximises.  The value is always "what the maximising side still gains
# from here", so stored bounds never depend on the history: the little history that rules do
# depend on (has a side won a trick yet, who has won the last tricks so far) is kept in a small
# tag that is part of the table key.
#
#   POINTS: trick points (card values and bonuses) of the maximising side, times trick_scale,
#           plus extras (announced marriages, the Wäsche) weighted extra_own for the
#           maximising side and -extra_other for the other side.  With trick_scale 2 and both
#           weights 1 the value is own minus other plus a constant: the right zero-sum measure
#           when extras make the game non-constant-sum.
#   STREAK: tricks the maximising side wins in a row from here, ending at its first lost
#           trick (tout, "for the first", Schwarz are thresholds on it).

cdef enum:
    MODE_POINTS = 0
    MODE_STREAK = 1
    TAG_WON_0 = 1           # side 0 has won a trick (a marriage may be announced)
    TAG_WON_1 = 2
    TAG_RUN_SHIFT = 2       # 2 bits: 0 window not reached, 1 + side: that side won all so far, 3 broken

ctypedef struct Undo:
    int seat
    int card
    int finished
    int old_leader
    int winner
    int drew
    int old_tag
    int gain                # what the move earned the maximising side
    int stop                # the objective ends here (the streak is broken)


cdef inline int extra_gain(Ctx* c, int side, int value) noexcept nogil:
    return c.extra_own * value if side == c.max_side else -c.extra_other * value


cdef inline int lead_gain(Ctx* c, int seat, int card) noexcept nogil:
    """A marriage is announced by leading its King or Ober while the other card lies face up,
    once the leader's side has won a trick."""
    cdef int p, other
    if not (c.mar_cards >> card) & 1 or not (c.tag >> c.side[seat]) & 1:
        return 0
    for p in range(c.nmar):
        if card == c.mar_k[p] or card == c.mar_o[p]:
            other = c.mar_o[p] if card == c.mar_k[p] else c.mar_k[p]
            if (c.play[seat] >> other) & 1:
                return extra_gain(c, c.side[seat], c.mar_val[p])
    return 0


cdef inline void tag_after_trick(Ctx* c, int winner) noexcept nogil:
    """Update the history tag once a trick is won (``tricks_left`` already counts it done)."""
    cdef int side = c.side[winner], before, run
    if c.nmar:
        c.tag |= 1 << side
    if c.wasche_tricks:
        before = c.tricks_left + 1
        if before <= c.wasche_tricks:
            run = (c.tag >> TAG_RUN_SHIFT) & 3
            if before == c.wasche_tricks:
                run = 1 + side
            elif run != 1 + side:
                run = 3
            c.tag = (c.tag & ~(3 << TAG_RUN_SHIFT)) | (run << TAG_RUN_SHIFT)


cdef inline int trick_gain(Ctx* c, int winner, int points, int* stop) noexcept nogil:
    """What a finished trick earns the maximising side (after ``finish_trick``)."""
    cdef int side = c.side[winner], g, run
    if c.mode == MODE_STREAK:
        if side == c.max_side:
            return 1
        stop[0] = 1
        return 0
    g = c.trick_scale * points if side == c.max_side else 0
    if c.wasche_tricks and c.tricks_left == 0:
        run = (c.tag >> TAG_RUN_SHIFT) & 3
        if run == 1 or run == 2:
            g += extra_gain(c, run - 1, c.wasche_value)
    return g


cdef inline void do_move(Ctx* c, int seat, int card, Undo* u) noexcept nogil:
    """Play a card; if it ends a trick, settle the trick (stock, lead, tag) and its gain."""
    cdef int points
    u.seat = seat
    u.card = card
    u.finished = 0
    u.stop = 0
    u.gain = lead_gain(c, seat, card) if c.tlen == 0 and c.nmar else 0
    play_card(c, seat, card)
    if c.tlen == c.nseats:
        u.winner = trick_winner(c)
        points = trick_points(c)
        u.old_leader = c.leader
        u.old_tag = c.tag
        u.drew = finish_trick(c, u.winner)
        tag_after_trick(c, u.winner)
        u.finished = 1
        u.gain += trick_gain(c, u.winner, points, &u.stop)


cdef inline void undo_move(Ctx* c, Undo* u) noexcept nogil:
    if u.finished:
        c.tag = u.old_tag
        unfinish_trick(c, u.old_leader, u.winner, u.drew)
    unplay_card(c, u.seat, u.card)


cdef inline int possible_extras(Ctx* c) noexcept nogil:
    """Extras still to be won: marriages whose two cards are both in play, the Wäsche."""
    cdef int p, total = 0, run
    for p in range(c.nmar):
        if (c.inplay >> c.mar_k[p]) & 1 and (c.inplay >> c.mar_o[p]) & 1:
            total += c.mar_val[p]
    if c.wasche_tricks and c.tricks_left > 0:
        run = (c.tag >> TAG_RUN_SHIFT) & 3
        if run != 3:
            total += c.wasche_value
    return total


cdef inline void value_range(Ctx* c, int* lo, int* hi) noexcept nogil:
    """Every value the position can still have under the current objective."""
    cdef int extra
    if c.mode == MODE_STREAK:
        lo[0] = 0
        hi[0] = c.tricks_left
        return
    extra = possible_extras(c) if (c.nmar or c.wasche_tricks) else 0
    lo[0] = -c.extra_other * extra
    hi[0] = c.trick_scale * remaining_total(c) + c.extra_own * extra


cdef inline uint32_t objective_id(Ctx* c) noexcept nogil:
    return <uint32_t> (c.mode | (c.max_side << 1) | ((c.trick_scale - 1) << 2)
                       | (c.extra_own << 3) | (c.extra_other << 4))
