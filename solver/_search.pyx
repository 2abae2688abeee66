# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The search core: one alpha-beta for every game, reading the flat tables of solver.tables.

``Engine`` is the only Python-visible object.  It holds the game tables, the current position
(which Python moves along with ``push``/``pop``) and a transposition table of fixed size that
survives between searches of the same deal.  Every value is "the points side 0 still takes
from here", counting the trick in progress.
"""

include "core/state.pxi"
include "core/tt.pxi"
include "core/search.pxi"


cdef class Engine:
    cdef Searcher* s
    cdef int depth
    cdef int u_card[MAXPLY]
    cdef int u_seat[MAXPLY]
    cdef int u_leader[MAXPLY]
    cdef int u_winner[MAXPLY]
    cdef int u_drew[MAXPLY]
    cdef int u_done[MAXPLY]
    cdef readonly int megabytes

    def __cinit__(self, int tt_megabytes=64):
        if tt_megabytes < 1:
            raise ValueError("the transposition table needs at least 1 MB")
        self.s = <Searcher*> calloc(1, sizeof(Searcher))
        if self.s == NULL:
            raise MemoryError()
        if tt_init(&self.s.tt, <uint64_t> tt_megabytes) != 0:
            free(self.s)
            self.s = NULL
            raise MemoryError(f"cannot allocate a {tt_megabytes} MB transposition table")
        self.megabytes = tt_megabytes
        self.s.c.use_tt = 1
        self.s.c.use_merge = 1
        self.s.c.use_bounds = 1
        self.s.c.use_order = 1
        self.s.c.order_lead = 1
        self.s.c.use_canon = 1
        self.s.c.tt_min_left = 2

    def __dealloc__(self):
        if self.s != NULL:
            tt_free(&self.s.tt)
            free(self.s)

    # --- set up ---------------------------------------------------------------------------

    def setup(self, dict t, bint keep_tt=False):
        """Load game tables and a position (see ``solver.tables.Tables.as_dict``).

        The transposition table is cleared unless ``keep_tt``: keep it only for another
        position of the same deal under the same rules (entries assume who holds which card)."""
        cdef Ctx* c = &self.s.c
        cdef int i, k, n, seat, card, nv
        cdef uint64_t inplay = 0
        n = t["seats"]
        if not 2 <= n <= MAXSEATS:
            raise ValueError("2 to 8 seats")
        if len(t["stock"]) > MAXSTOCK or len(t["stock"]) >= 64:
            raise ValueError("stock too long")
        if not keep_tt:
            tt_clear(&self.s.tt)
        c.nseats = n
        for i in range(n):
            c.side[i] = t["side"][i]
        for i in range(MAXCARDS):
            c.suit[i] = t["suit"][i]
            c.value[i] = t["value"][i]
            c.under[i] = t["under"][i]
        for i in range(4):
            c.suit_mask[i] = t["suit_mask"][i]
        c.trump = t["trump"]
        c.trump_mask = t["trump_mask"]
        c.rule_main.follow_suit, c.rule_main.must_trump, c.rule_main.must_beat = t["rule_main"]
        c.rule_stock.follow_suit, c.rule_stock.must_trump, c.rule_stock.must_beat = t["rule_stock"]
        c.trick_bonus = t["trick_bonus"]
        c.last_bonus = t["last_bonus"]
        c.stock_layout = 1 if t["stock_layout"] else 0
        c.nomerge = t["nomerge"]
        values = sorted({c.value[i] for i in range(MAXCARDS) if c.value[i] != 0})
        if len(values) > MAXVC:
            raise ValueError("too many distinct card values")
        c.nvc = len(values)
        for k, v in enumerate(values):
            c.vc_val[k] = v
            c.vc_mask[k] = 0
            for i in range(MAXCARDS):
                if c.value[i] == v:
                    c.vc_mask[k] |= st_bit(i)
        c.owner_bits = 1
        while (1 << c.owner_bits) < n + (1 if len(t["stock"]) else 0):
            c.owner_bits += 1
        c.value_bits = 0
        while (1 << c.value_bits) < c.nvc + 1:
            c.value_bits += 1
        c.canon_ok = 1
        for i in range(MAXCARDS):
            if c.under[i] >= 0:
                c.canon_ok = 0
        if c.nomerge:
            c.canon_ok = 0
        for seat in range(n):
            c.hand[seat] = t["hand"][seat]
            c.play[seat] = t["playable"][seat]
            inplay |= c.hand[seat]
        c.stock_len = len(t["stock"])
        for k in range(c.stock_len):
            c.stock[k] = t["stock"][k]
            inplay |= st_bit(c.stock[k])
        c.stock_ptr = 0
        c.stock_rest = 0
        for k in range(c.stock_len):
            c.stock_rest |= st_bit(c.stock[k])
        c.leader = t["leader"]
        c.tlen = 0
        c.tb = 0
        trick = t["trick"]
        for card in trick:
            inplay |= st_bit(card)
        c.inplay = inplay
        c.tricks_left = st_popcount(inplay) // n
        for k, card in enumerate(trick):
            seat = (c.leader + k) % n
            c.hand[seat] |= st_bit(card)
            c.play[seat] |= st_bit(card)
            play_card(c, seat, card)
        self.depth = 0
        for seat in range(MAXSEATS):
            for i in range(MAXCARDS):
                c.hist[seat][i] = 0

    def switches(self, tt=None, merge=None, bounds=None, order=None, lead=None, canon=None,
                 tt_min_left=None):
        """Turn single techniques off (or on again) to measure what each one is worth."""
        cdef Ctx* c = &self.s.c
        if tt is not None:
            c.use_tt = 1 if tt else 0
        if merge is not None:
            c.use_merge = 1 if merge else 0
        if bounds is not None:
            c.use_bounds = 1 if bounds else 0
        if order is not None:
            c.use_order = 1 if order else 0
        if lead is not None:
            c.order_lead = 1 if lead else 0
        if canon is not None:
            c.use_canon = 1 if canon else 0
        if tt_min_left is not None:
            c.tt_min_left = tt_min_left

        return {"tt": bool(c.use_tt), "merge": bool(c.use_merge), "bounds": bool(c.use_bounds),
                "order": bool(c.use_order), "lead": bool(c.order_lead),
                "canon": bool(c.use_canon)}

    def clear(self):
        """Forget everything learnt: transposition table and history."""
        tt_clear(&self.s.tt)
        self.s.c.nodes = 0

    def new_search(self):
        """Start a new generation: older entries are replaced first."""
        self.s.tt.gen = <uint8_t> ((self.s.tt.gen % 255) + 1)

    # --- moving along a line ----------------------------------------------------------------

    @property
    def to_move(self):
        return to_move(&self.s.c)

    @property
    def tricks_left(self):
        return self.s.c.tricks_left

    @property
    def trick_length(self):
        return self.s.c.tlen

    @property
    def remaining(self):
        """Points still to be won from here (the current trick's cards included)."""
        return remaining_total(&self.s.c)

    def push(self, int card):
        """Play ``card`` for the seat to move; returns what side 0 gains if a trick ends."""
        cdef Ctx* c = &self.s.c
        cdef int seat = to_move(c)
        cdef int gain = 0, winner
        if c.tricks_left == 0:
            raise ValueError("the deal is over")
        if not (legal_mask(c, seat) >> card) & 1:
            raise ValueError(f"card index {card} is not legal here")
        if self.depth >= MAXPLY:
            raise ValueError("line too long")
        play_card(c, seat, card)
        self.u_card[self.depth] = card
        self.u_seat[self.depth] = seat
        self.u_done[self.depth] = 0
        if c.tlen == c.nseats:
            winner = trick_winner(c)
            gain = trick_points(c) if c.side[winner] == 0 else 0
            self.u_leader[self.depth] = c.leader
            self.u_winner[self.depth] = winner
            self.u_drew[self.depth] = finish_trick(c, winner)
            self.u_done[self.depth] = 1
        self.depth += 1
        return gain

    def pop(self):
        cdef Ctx* c = &self.s.c
        if self.depth == 0:
            raise ValueError("nothing to take back")
        self.depth -= 1
        d = self.depth
        if self.u_done[d]:
            unfinish_trick(c, self.u_leader[d], self.u_winner[d], self.u_drew[d])
        unplay_card(c, self.u_seat[d], self.u_card[d])

    def legal(self):
        """Every legal card of the seat to move (bit indices, low to high)."""
        cdef Ctx* c = &self.s.c
        if c.tricks_left == 0:
            return []
        return _bits(legal_mask(c, to_move(c)))

    def classes(self):
        """The legal cards grouped into runs of equivalent cards, each run low to high."""
        cdef Ctx* c = &self.s.c
        cdef uint64_t a, below
        cdef int x, b, rep
        if c.tricks_left == 0:
            return []
        a = legal_mask(c, to_move(c))
        groups = {}
        for x in _bits(a):
            rep = x
            while True:
                if c.under[rep] >= 0 or (c.nomerge >> rep) & 1:
                    break
                below = c.inplay & c.suit_mask[c.suit[rep]] & (st_bit(rep) - 1)
                if not below:
                    break
                b = st_msb(below)
                if not ((a >> b) & 1) or c.value[b] != c.value[rep] or c.under[b] >= 0 \
                        or (c.nomerge >> b) & 1:
                    break
                rep = b
            groups.setdefault(rep, []).append(x)
        return [groups[k] for k in sorted(groups)]

    # --- searching ------------------------------------------------------------------------

    def value(self, int guess=-1, str driver="mtdf", str first="half"):
        """The exact value of the current position (points side 0 still takes)."""
        cdef Ctx* c = &self.s.c
        cdef int hi, g, r
        cdef int step = 1 if driver == "step" else 0
        hi = remaining_total(c)
        if guess >= 0:
            g = guess
        elif first == "greedy":
            g = greedy_playout(c)
        else:
            g = hi // 2
        with nogil:
            if step:
                r = mtd_step(c, &self.s.tt, g, 0, hi)
            else:
                r = mtdf(c, &self.s.tt, g, 0, hi)
        return r

    def test(self, int target):
        """Can side 0 take at least ``target`` more points from here? (one null-window search)"""
        cdef Ctx* c = &self.s.c
        cdef int r
        if target <= 0:
            return True
        if target > remaining_total(c):
            return False
        with nogil:
            r = alphabeta(c, &self.s.tt, target - 1, target)
        return r >= target

    def window(self, int alpha, int beta):
        """One fail-soft alpha-beta search with the window (alpha, beta); for experiments."""
        cdef int r
        with nogil:
            r = alphabeta(&self.s.c, &self.s.tt, alpha, beta)
        return r

    @property
    def nodes(self):
        return self.s.c.nodes

    def reset_nodes(self):
        self.s.c.nodes = 0

    def stats(self):
        cdef Ctx* c = &self.s.c
        return {"cut": [c.stat_cut[i] for i in range(4)], "cut_first": [c.stat_cut_first[i] for i in range(4)],
                "nodes_by_tricks_left": [c.stat_nodes_left[i] for i in range(20)]}

    def reset_stats(self):
        cdef Ctx* c = &self.s.c
        cdef int i
        for i in range(4):
            c.stat_cut[i] = 0
            c.stat_cut_first[i] = 0
        for i in range(20):
            c.stat_nodes_left[i] = 0

    def tt_stats(self):
        cdef TT* t = &self.s.tt
        cdef uint64_t used = 0, i
        for i in range(t.nbuckets * TT_WAYS):
            if t.entries[i].depth and t.entries[i].epoch == t.epoch:
                used += 1
        return {"megabytes": self.megabytes, "entries": t.nbuckets * TT_WAYS, "used": used,
                "probes": t.probes, "hits": t.hits, "stores": t.stores,
                "entry_bytes": sizeof(TTEntry)}


def _bits(uint64_t m):
    out = []
    while m:
        out.append(st_ctz(m))
        m &= m - 1
    return out
