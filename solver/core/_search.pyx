# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The search core: one alpha-beta for every game, reading the flat tables of stich.core.tables.

``Engine`` is the only Python-visible object.  It holds the game tables, the current position
(which Python moves along with ``push``/``pop``) and a transposition table of fixed size that
survives between searches of the same deal.  Every value is "what the maximising side of the
objective still gains from here", counting the trick in progress.  A move is a card index;
at a lead it may also say which pair it shows (``move``, ``shown_by``).
"""

include "part_types.pxi"
include "state.pxi"
include "objective.pxi"
include "tt.pxi"
include "limits.pxi"
include "keys.pxi"
include "bounds.pxi"
include "order.pxi"
include "part.pxi"
include "search.pxi"

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport PyThread_get_thread_ident
import threading

cdef extern from *:
    """
    #ifndef STICH_PLAIN_BECAUSE
    #define STICH_PLAIN_BECAUSE "it was not built by setup.py"
    #endif
    """
    const char* STICH_PLAIN_BECAUSE

# how setup.py compiled this core: "profile-guided" (gcc, trained on the quick bench) or "plain",
# and why a plain one is plain ("STICH_PGO=0", "the compiler is not gcc", "its profile-guided
# build failed"; "" for a profile-guided one)
PLAIN_BECAUSE = (<bytes>STICH_PLAIN_BECAUSE).decode()
BUILD = "plain" if PLAIN_BECAUSE else "profile-guided"

cdef unsigned long MAIN_THREAD = threading.main_thread().ident


class SearchLimit(Exception):
    """A node or time limit stopped the search: the value lies within [lo, hi], proven by
    the null-window searches that finished (the table holds only proven bounds)."""

    def __init__(self, int lo, int hi):
        super().__init__(f"search limit reached: the value is between {lo} and {hi}")
        self.lo = lo
        self.hi = hi


class SearchInterrupted(SearchLimit, KeyboardInterrupt):
    """Ctrl-C stopped the search: a KeyboardInterrupt that still says what was proven,
    the value lying within [lo, hi] (see ``SearchLimit``)."""

    def __init__(self, int lo, int hi):
        SearchLimit.__init__(self, lo, hi)
        self.args = (f"interrupted: the value is between {lo} and {hi}",)


def interrupt_handled():
    """Let searches run again after a Ctrl-C that the program has dealt with.  (A search
    started in the main thread does this itself; until then, or this call, every search in
    every thread stops at once with ``SearchInterrupted``.)"""
    st_acknowledge(st_interrupt_count())


def simulate_interrupt():
    """Count a Ctrl-C as the core's SIGINT handler does, without a signal (tests): every
    search running or started stops until ``interrupt_handled``."""
    st_simulate_interrupt()


cdef class Engine:
    cdef Searcher* s
    cdef TT* tt                         # the exact table searched: its own, or the owner's
    cdef int depth
    cdef Undo undo[MAXPLY]
    cdef readonly int megabytes
    cdef bint goal_ready
    cdef readonly object layouts_of     # the information set whose layouts the table serves
    cdef readonly Engine table_owner    # the engine whose exact table this one searches (share)
    # the line and ``classes(ordered=True)`` list moves in an order of the position alone
    # (``order_fixed``), not the table's stored card and the history: set after a search by
    # several threads, whose table and history differ run to run, so that the line does not
    cdef public bint fixed_order

    def __cinit__(self, int tt_megabytes=64, Engine share=None):
        """``share``: search that engine's exact table (``table_owner``), in another thread
        at the same time, on the same deal under the same rules: the threads of one solve
        (tt.pxi's seqlock keeps every entry whole).  The owner clears the table; this engine
        keeps only a partition table of its own (an eighth of the owner's budget), and starts
        with the owner's switches.  Make every sharing engine before searches start."""
        if share is not None:
            tt_megabytes = share.megabytes
        if tt_megabytes < 1:
            raise ValueError("the transposition table needs at least 1 MB")
        self.s = <Searcher*> calloc(1, sizeof(Searcher))
        if self.s == NULL:
            raise MemoryError()
        # the budget is shared: an eighth for the partition table (the deals it serves are
        # small), the rest for the exact table
        budget = (<uint64_t> tt_megabytes) << 20
        part_bytes = budget // PART_SHARE
        if share is None and tt_init(&self.s.tt, budget - part_bytes) != 0:
            free(self.s)
            self.s = NULL
            raise MemoryError(f"cannot allocate a {tt_megabytes} MB transposition table")
        if part_init(&self.s.pt, part_bytes) != 0:
            if share is None:
                tt_free(&self.s.tt)
            free(self.s)
            self.s = NULL
            raise MemoryError(f"cannot allocate a {tt_megabytes} MB transposition table")
        if share is None:
            self.tt = &self.s.tt
        else:
            self.table_owner = share
            self.tt = share.tt
            self.tt.concurrent += 1
        self.s.c.pt = &self.s.pt
        self.s.c.use_part = PART_ON if self.s.pt.nbuckets else 0
        self.megabytes = tt_megabytes
        self.s.c.use_tt = 1
        self.s.c.use_etc = ETC_FROM
        self.s.c.use_merge = 1
        self.s.c.use_bounds = 1
        self.s.c.use_order = 1
        self.s.c.use_killer = 1
        self.s.c.order_lead = 1
        self.s.c.use_canon = 1
        self.s.c.trick_scale = 1
        if share is not None:           # the owner's techniques (switches)
            self.s.c.use_tt = share.s.c.use_tt
            self.s.c.use_etc = share.s.c.use_etc
            self.s.c.use_merge = share.s.c.use_merge
            self.s.c.use_bounds = share.s.c.use_bounds
            self.s.c.use_order = share.s.c.use_order
            self.s.c.use_killer = share.s.c.use_killer
            self.s.c.order_lead = share.s.c.order_lead
            self.s.c.use_canon = share.s.c.use_canon
            self.s.c.use_part = share.s.c.use_part if self.s.pt.nbuckets else 0

    def __dealloc__(self):
        if self.s != NULL:
            if self.tt == &self.s.tt:
                tt_free(&self.s.tt)
            elif self.table_owner is not None:     # (None only if a cycle was broken first)
                self.tt.concurrent -= 1
            part_free(&self.s.pt)
            free(self.s)

    cdef void _forget(self) noexcept:
        """Clear the tables this engine may clear: both of its own, or (sharing another's
        exact table) only its partition table."""
        if self.table_owner is None:
            tables_clear(self.tt, &self.s.pt)
        else:
            part_clear(&self.s.pt)

    # --- set up ---------------------------------------------------------------------------

    def setup(self, dict t, bint keep_tt=False):
        """Load game tables and a position (see ``stich.core.tables.Tables.as_dict``).

        The transposition table is cleared unless ``keep_tt``: keep it only for another
        position of the same deal under the same rules (entries assume who holds which card)."""
        n = t["seats"]
        if not 2 <= n <= MAXSEATS:
            raise ValueError("2 to 8 seats")
        if len(t["stock"]) > MAXSTOCK or len(t["stock"]) >= 64:
            raise ValueError("stock too long")
        if not keep_tt:
            self._forget()
            self.layouts_of = None
        self._setup_cards(t)
        self._setup_rules(t)
        self._setup_extras(t)
        self._setup_value_classes()
        self._setup_key_layout(len(t["stock"]) > 0)
        self._setup_position(t)
        self._check_move_room()
        self.objective()
        search_update(&self.s.c)
        self.depth = 0
        history_clear(&self.s.c)

    def _setup_cards(self, dict t):
        """Seats and sides; each card's suit, value and pile (the card beneath, the card on it)."""
        cdef Ctx* c = &self.s.c
        cdef int i, j
        c.nseats = t["seats"]
        for i in range(c.nseats):
            c.side[i] = t["side"][i]
        for i in range(2 * MAXSEATS + 1):
            c.seat_of[i] = i % c.nseats
        c.two_sides_of_one = 1 if c.nseats == 2 and c.side[0] != c.side[1] else 0
        for i in range(c.nseats):
            c.nopponents[i] = 0
            for j in range(c.nseats):
                if c.side[j] != c.side[i]:
                    c.opponents[i][c.nopponents[i]] = j
                    c.nopponents[i] += 1
        c.killer_fits = 0 if c.two_sides_of_one else 1
        for i in range(MAXCARDS):
            c.suit[i] = t["suit"][i]
            c.value[i] = t["value"][i]
            c.under[i] = t["under"][i]
            c.over[i] = -1
            if c.value[i]:
                c.killer_fits = 0
        c.has_piles = 0
        for i in range(MAXCARDS):
            c.uncover[i] = 0
            if c.under[i] >= 0:
                c.over[c.under[i]] = i
                c.uncover[i] = st_bit(c.under[i])
                c.has_piles = 1
        for i in range(4):
            c.suit_mask[i] = t["suit_mask"][i]
        c.trump = t["trump"]
        c.trump_mask = t["trump_mask"]
        for i in range(MAXCARDS):
            c.rank[i] = 0
            if 0 <= c.suit[i] < 4 and c.suit_mask[c.suit[i]]:
                c.rank[i] = i - st_ctz(c.suit_mask[c.suit[i]])
            c.cheap_key[i] = (((c.value[i] << 8) + c.rank[i]) << 6) + i
        setup_follow_scores(c)
        c.nomerge = t["nomerge"]

    def _setup_rules(self, dict t):
        """The follow rules of both phases, trick bonuses, how the stock is dealt, and who
        beats whom where the game's table says so (``beat_by``)."""
        cdef Ctx* c = &self.s.c
        cdef int i
        c.rule_main.follow_suit, c.rule_main.must_trump, c.rule_main.must_beat = t["rule_main"]
        c.rule_stock.follow_suit, c.rule_stock.must_trump, c.rule_stock.must_beat = t["rule_stock"]
        c.trick_bonus = t["trick_bonus"]
        c.last_bonus = t["last_bonus"]
        c.stock_layout = 1 if t["stock_layout"] else 0
        c.beat_table = 1 if t["beat_by"] else 0        # the order-based bounds are off then
        for i in range(MAXCARDS):
            c.beat_by[i] = t["beat_by"][i] if t["beat_by"] else 0
        for i in range(MAXCARDS):
            c.beats[i] = beaters_of(c, i)

    def _setup_value_classes(self):
        """Cards grouped by value: a sum of values is a few popcounts (``value_sum``)."""
        cdef Ctx* c = &self.s.c
        cdef int i, k
        values = sorted({c.value[i] for i in range(MAXCARDS) if c.value[i] != 0})
        if len(values) > MAXVC:
            raise ValueError("too many distinct card values")
        c.nvc = len(values)
        c.valued = 0
        for k, v in enumerate(values):
            c.vc_val[k] = v
            c.vc_mask[k] = 0
            for i in range(MAXCARDS):
                if c.value[i] == v:
                    c.vc_mask[k] |= st_bit(i)
            c.valued |= c.vc_mask[k]

    def _setup_key_layout(self, bint has_stock):
        """The widths of the canonical key's planes (search.pxi), and whether it may be used."""
        cdef Ctx* c = &self.s.c
        cdef int i, k
        c.owner_bits = 1
        while (1 << c.owner_bits) < c.nseats + (1 if has_stock else 0):
            c.owner_bits += 1
        c.value_bits = 0
        while (1 << c.value_bits) < c.nvc + 1:
            c.value_bits += 1
        c.key_planes = c.owner_bits + c.value_bits + c.has_piles
        for i in range(c.nseats):
            c.oflip[i] = (i ^ c.nseats) & ((1 << c.owner_bits) - 1)
        for i in range(4):
            c.vc_plane[i] = 0
            for k in range(c.nvc):
                if ((k + 1) >> i) & 1:
                    c.vc_plane[i] |= c.vc_mask[k]
        for i in range(c.value_bits):
            c.kplane[c.owner_bits + i] = c.vc_plane[i]
        for i in range(MAXCARDS + 1):
            c.link_bits[i] = index_bits(i)
        set_canonical_objective(c)
        c.canon_ok = 0 if (c.nomerge or c.extras) else 1
        self._setup_partition()

    def _setup_partition(self):
        """Whether partition search may be used (part.pxi), and the summary's layout: per
        suit, seat and value code a count wide enough for the most cards of that code in a
        suit; all of it must fit 64 bits."""
        cdef Ctx* c = &self.s.c
        cdef int k, s, most, total = 0
        cdef uint64_t valued = 0
        c.ncode = c.nvc + 1
        for k in range(c.nvc):
            valued |= c.vc_mask[k]
        c.code_mask[0] = ~valued
        for k in range(c.nvc):
            c.code_mask[k + 1] = c.vc_mask[k]
        fits = True
        for k in range(c.ncode):
            most = 0
            for s in range(4):
                most = max(most, st_popcount(c.suit_mask[s] & c.code_mask[k]))
            c.code_width[k] = index_bits(most + 1)
            total += c.code_width[k]
        for s in range(4):
            if st_popcount(c.suit_mask[s]) > 15:
                fits = False
        c.part_ok = 1 if (fits and c.canon_ok and not c.has_piles and not c.beat_table
                          and not c.extras and 4 * c.nseats * total <= 64) else 0

    def _setup_position(self, dict t):
        """Hands, playable cards, the stock, the leader and the cards of the trick in progress."""
        cdef Ctx* c = &self.s.c
        cdef int k, seat, card, n = c.nseats
        cdef uint64_t inplay = 0
        for seat in range(n):
            c.hand[seat] = t["hand"][seat]
            c.play[seat] = t["playable"][seat]
            inplay |= c.hand[seat]
        c.stock_len = len(t["stock"])
        c.stock_ptr = 0
        c.stock_rest = 0
        for k in range(c.stock_len):
            c.stock[k] = t["stock"][k]
            c.stock_rest |= st_bit(c.stock[k])
        inplay |= c.stock_rest
        c.leader = t["leader"]
        c.tlen = 0
        c.tb = 0
        c.tcards = 0
        trick = t["trick"]
        for card in trick:
            inplay |= st_bit(card)
        c.inplay = inplay
        c.inplay_points = value_sum(c, inplay)
        c.tricks_left = st_popcount(inplay) // n
        for k, card in enumerate(trick):
            seat = c.seat_of[c.leader + k]
            c.hand[seat] |= st_bit(card)
            c.play[seat] |= st_bit(card)
        for k in range(c.owner_bits):       # who owns each card (canonical keys)
            c.kplane[k] = c.stock_rest if (n >> k) & 1 else 0
            for seat in range(n):
                if (seat >> k) & 1:
                    c.kplane[k] |= c.hand[seat]
        for k, card in enumerate(trick):
            play_card(c, c.seat_of[c.leader + k], card)

    def _setup_extras(self, dict t):
        """The pair bonus, the run bonus and the final payoff table (objective.pxi)."""
        cdef Ctx* c = &self.s.c
        cdef int k, w, i
        pairs = t.get("pairs", ())
        if len(pairs) > MAXPAIRS:
            raise ValueError(f"the pair bonus takes at most {MAXPAIRS} pairs")
        c.npair = len(pairs)
        c.pair_cards = 0
        for k, (a, b, worth) in enumerate(pairs):
            c.pair_a[k] = a
            c.pair_b[k] = b
            c.pair_val[k] = worth
            c.pair_cards |= st_bit(a) | st_bit(b)
        c.nomerge |= c.pair_cards
        c.mergeable = 0
        for k in range(MAXCARDS):
            if c.under[k] < 0 and not (c.nomerge >> k) & 1:
                c.mergeable |= st_bit(k)
        c.run_tricks, c.run_value = t.get("run", (0, 0))
        goal = t.get("goal")
        c.goal = 0
        c.goal_pts = t.get("goal_points", 0)
        self.goal_ready = goal is not None
        if goal is not None:
            if len(goal) != 4 or any(len(row) != MAXGOAL for row in goal):
                raise ValueError(f"the goal table is 4 rows of {MAXGOAL} payoffs")
            for w in range(4):
                for i in range(MAXGOAL):
                    c.goal_pay[w][i] = goal[w][i]
            c.goal_lo = min(min(row) for row in goal)
            c.goal_hi = max(max(row) for row in goal)
        c.extras = 1 if (c.npair or c.run_tricks or goal is not None) else 0
        c.tag = t.get("tag", 0)

    def _check_move_room(self):
        """A lead with pairs to show lists each card once per pair: it must fit the move list."""
        cdef Ctx* c = &self.s.c
        cdef int seat, most = 0
        for seat in range(c.nseats):
            most = max(most, st_popcount(c.play[seat]) + c.stock_len)
        if c.npair and most * c.npair > MAXMOVES:
            raise ValueError(f"the pair bonus: {c.npair} pairs times {most} playable cards "
                             f"exceed the {MAXMOVES} moves a node can list")

    def switches(self, tt=None, merge=None, bounds=None, order=None, lead=None, canon=None,
                 etc=None, part=None, killer=None):
        """Turn single techniques off (or on again) to measure what each one is worth.
        ``etc``: True or False, or from how many tricks left it is used (default ETC_FROM).
        ``part``: partition search (part.pxi; needs canonical keys and the table): True in
        deals without a stock, ``"stock"`` also in stock games once the stock is drawn."""
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
        if killer is not None:
            c.use_killer = 1 if killer else 0
        if canon is not None:
            c.use_canon = 1 if canon else 0
        if etc is not None:
            c.use_etc = (ETC_FROM if etc else 0) if isinstance(etc, bool) else int(etc)
        if part is not None:
            if part not in (True, False, "stock"):
                raise ValueError("part: True, False or 'stock'")
            c.use_part = 0 if not (part and self.s.pt.nbuckets) else (
                PART_STOCK if part == "stock" else PART_ON)
        search_update(c)
        return {"tt": bool(c.use_tt), "merge": bool(c.use_merge), "bounds": bool(c.use_bounds),
                "order": bool(c.use_order), "lead": bool(c.order_lead),
                "canon": bool(c.use_canon), "etc": bool(c.use_etc), "part": bool(c.use_part),
                "killer": bool(c.use_killer)}

    def clear(self):
        """Forget the tables (sharing another engine's table: only this engine's partition
        table).  The history of cut-offs and the killer leads are forgotten by ``setup``,
        which every search of a new position starts with."""
        self._forget()
        self.layouts_of = None
        self.s.c.nodes = 0
        self.s.c.trick_nodes = 0
        recheck(&self.s.c)

    def next_layout(self, token):
        """Prepare the table for another hidden layout of the information set ``token`` (any
        hashable naming it: same rules, cards played and cards seen; then ``setup`` with
        ``keep_tt``).  If the table last served a layout of the same set, the entries valid for
        every layout are kept (canonical keys once no stock card is left: they name who holds
        each card in play and the piles); all others are forgotten.  Returns whether any were
        kept."""
        if self.table_owner is not None:
            raise ValueError("an engine sharing another's table does not keep layouts")
        if token is not None and token == self.layouts_of:
            tables_next_layout(self.tt, &self.s.pt)
            return True
        tables_clear(self.tt, &self.s.pt)
        self.layouts_of = token
        return False

    def new_search(self):
        """Start a new generation: older entries are replaced first.  (The owner of a shared
        table starts them.)"""
        if self.table_owner is None:
            self.tt.gen = <uint8_t> ((self.tt.gen % 255) + 1)

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

    def objective(self, str mode="points", int side=0, int trick_scale=1, int extra_own=0,
                  int extra_other=0, bint goal=False):
        """Choose what the search maximises (objective.pxi): ``points`` that ``side`` takes
        (trick points times ``trick_scale``, extras weighted ``extra_own``/``-extra_other``,
        with ``goal`` the final payoff table of side 0), or ``streak``: the tricks ``side``
        wins in a row from here."""
        cdef Ctx* c = &self.s.c
        if mode not in ("points", "streak") or side not in (0, 1) or trick_scale not in (0, 1, 2) \
                or extra_own not in (0, 1) or extra_other not in (0, 1) \
                or (goal and (not self.goal_ready or side != 0 or mode != "points")):
            raise ValueError("bad objective")
        c.goal = 1 if goal else 0
        c.mode = MODE_STREAK if mode == "streak" else MODE_POINTS
        c.max_side = side
        c.trick_scale = trick_scale
        c.extra_own = extra_own
        c.extra_other = extra_other
        c.obj_id = objective_id(c)
        set_canonical_objective(c)
        search_update(c)

    @property
    def value_range(self):
        """The lowest and highest value the current position can have (objective units)."""
        cdef int lo, hi
        value_range(&self.s.c, &lo, &hi)
        return lo, hi

    def move(self, int card, int pair=-2):
        """The move that plays ``card`` and, at a lead, shows ``pair`` (-1: shows none; -2:
        the search's choice, the first pair it may show)."""
        if pair == -2:
            return card
        return card | ((SHOW_NONE if pair == -1 else 1 + pair) << SHOW_SHIFT)

    def shown_by(self, int move):
        """The pair the move would show here (-1: none)."""
        cdef Ctx* c = &self.s.c
        if c.tlen or not c.npair:
            return -1
        return pair_shown_by(c, to_move(c), move >> SHOW_SHIFT)

    def showable(self):
        """The pairs the seat to move may show with its lead now (pair numbers)."""
        cdef Ctx* c = &self.s.c
        if c.tlen or not c.npair or c.tricks_left == 0:
            return []
        return _bits(<uint64_t> showable_pairs(c, to_move(c)))

    def push(self, int move):
        """Play a move (``card``, or ``move(card, pair)``) for the seat to move; returns what
        it earned the maximising side (a pair shown with a lead, a finished trick)."""
        cdef Ctx* c = &self.s.c
        cdef int seat = to_move(c)
        cdef int card = move & CARD_MASK, code = move >> SHOW_SHIFT
        if c.tricks_left == 0:
            raise ValueError("the deal is over")
        if move < 0 or not (legal_mask(c, seat) >> card) & 1:
            raise ValueError(f"card index {card} is not legal here")
        if code != SHOW_AUTO and code != SHOW_NONE and (c.tlen or not c.npair
                                                        or pair_shown_by(c, seat, code) == -2):
            raise ValueError(f"move {move}: that pair may not be shown here")
        if self.depth >= MAXPLY:
            raise ValueError("line too long")
        do_move(c, seat, move, &self.undo[self.depth])
        self.depth += 1
        return self.undo[self.depth - 1].gain

    @property
    def stopped(self):
        """True when the last move ended the objective (a streak was broken)."""
        return self.depth > 0 and bool(self.undo[self.depth - 1].stop)

    def pop(self):
        if self.depth == 0:
            raise ValueError("nothing to take back")
        self.depth -= 1
        undo_move(&self.s.c, &self.undo[self.depth])

    def legal(self):
        """Every legal card of the seat to move (bit indices, low to high)."""
        cdef Ctx* c = &self.s.c
        if c.tricks_left == 0:
            return []
        return _bits(legal_mask(c, to_move(c)))

    def classes(self, bint ordered=False):
        """The legal moves (cards; at a lead with several pairs to show, each card also with
        each further pair, see ``move``) grouped into runs of equivalent cards, each run low to high; the
        runs by lowest card, or with ``ordered`` as the search would try them (the card stored
        for this position first, then the move ordering)."""
        cdef Ctx* c = &self.s.c
        cdef uint64_t a, below, reps = 0
        cdef int x, b, rep, n, i
        cdef int moves[MAXMOVES]
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
        if not ordered:
            return self._with_shows([groups[k] for k in sorted(groups)])
        for rep in groups:
            reps |= st_bit(rep)
        n = self._choice_order(to_move(c), reps, moves)
        return self._with_shows([groups[moves[i]] for i in range(n)])

    cdef int _choice_order(self, int seat, uint64_t legal, int* moves) noexcept nogil:
        """The order in which the line and ``classes(ordered=True)`` try moves."""
        cdef Ctx* c = &self.s.c
        if self.fixed_order:
            return order_fixed(c, seat, legal, moves)
        return order_moves(c, seat, legal, moves, stored_move(c, self.tt, legal))

    def _with_shows(self, list groups):
        """At a lead with several pairs to show: each group again with each further pair."""
        pairs = self.showable()
        out = list(groups)
        for p in pairs[1:]:
            out += [[x | ((1 + p) << SHOW_SHIFT) for x in group] for group in groups]
        return out

    def line(self, int value):
        """One optimal continuation from here (moves: card indices, at a lead maybe with the
        pair shown, see ``move``), ``value`` being the current value: at each step the first
        move, in the order of ``classes(ordered=True)``, that keeps the value.  The same line as stepping with push, test and pop from Python,
        without the interpreter in the loop."""
        cdef Ctx* c = &self.s.c
        cdef Undo undo[MAXPLY]
        cdef int moves[MAXMOVES]
        cdef int k = 0, i, n, seat, x, keeps, current = value, chosen, lo, hi
        cdef uint64_t legal
        out = []
        self._enter()
        try:
            while c.tricks_left > 0 and self.depth + k < MAXPLY:
                seat = to_move(c)
                legal = legal_mask(c, seat)
                if c.use_merge:
                    legal = merge_equivalent(c, legal)
                n = self._choice_order(seat, legal, moves)
                if c.npair and c.tlen == 0:
                    n = add_show_choices(c, seat, moves, n, -1)
                chosen = -1
                for i in range(n):
                    x = moves[i]
                    with nogil:
                        keeps = keeps_value(c, self.tt, seat, x, current, &undo[k])
                    if c.aborted:
                        value_range(c, &lo, &hi)
                        raise self._stopped(lo, hi)
                    if keeps:
                        chosen = x
                        break
                if chosen < 0:
                    raise RuntimeError("no card keeps the value: the search contradicts itself")
                do_move(c, seat, chosen, &undo[k])
                current -= undo[k].gain
                out.append(chosen)
                k += 1
                if undo[k - 1].stop:
                    break
        finally:
            while k > 0:
                k -= 1
                undo_move(c, &undo[k])
        return out

    # --- searching ------------------------------------------------------------------------

    cdef void _enter(self) except *:
        """Before a search: the core's Ctrl-C handler in place; in the main thread a pending
        KeyboardInterrupt raised now, else any interrupt counted so far is acknowledged; a
        stop by an interrupt that is acknowledged is forgotten (limits stay)."""
        cdef Ctx* c = &self.s.c
        cdef int seen
        st_arm()
        if PyThread_get_thread_ident() == MAIN_THREAD:
            seen = st_interrupt_count()
            PyErr_CheckSignals()
            st_acknowledge(seen)
        if c.interrupted and not st_interrupt_pending():
            c.aborted = 0
            c.interrupted = 0
        recheck(c)

    cdef object _stopped(self, int lo, int hi):
        """The exception for a search the limits or Ctrl-C stopped, with its proven bounds.
        In the main thread Python's SIGINT handler runs first (its KeyboardInterrupt becomes
        this exception, which is one too)."""
        if not self.s.c.interrupted:
            return SearchLimit(lo, hi)
        if PyThread_get_thread_ident() == MAIN_THREAD:
            try:
                PyErr_CheckSignals()
            except KeyboardInterrupt:
                pass
        return SearchInterrupted(lo, hi)

    def value(self, guess=None, str driver="mtdf", str first="half", at_least=None,
              at_most=None):
        """The exact value of the current position under the objective.  ``at_least`` and
        ``at_most``: bounds already known (a child of a node of known value is bounded by it
        on one side), which save the searches that would prove them.  Raises
        ``SearchLimit`` with the proven bounds when a limit (``limit``) stops the search."""
        cdef Ctx* c = &self.s.c
        cdef int lo, hi, g, r
        cdef int step = 1 if driver == "step" else 0
        value_range(c, &lo, &hi)
        if c.tricks_left == 0 or self.stopped:
            return 0
        if at_least is not None and at_least > lo:
            lo = at_least
        if at_most is not None and at_most < hi:
            hi = at_most
        if lo > hi:
            raise ValueError(f"the known bounds [{lo}, {hi}] are empty")
        self._enter()
        if c.aborted:
            raise self._stopped(lo, hi)
        g = guess if guess is not None else self._first_guess(first, lo, hi)
        with nogil:
            if step:
                r = mtd_step(c, self.tt, g, &lo, &hi)
            else:
                r = mtdf(c, self.tt, g, &lo, &hi)
        if c.aborted:
            raise self._stopped(lo, hi)
        return r

    cdef int _first_guess(self, str first, int lo, int hi):
        """The first guess ``first`` names (see ``first_guess``) within ``lo``..``hi``."""
        cdef Ctx* c = &self.s.c
        cdef int plies, shift
        if first == "greedy":
            return greedy_playout(c)
        if first.startswith(("greedy+", "greedy-")):
            tail = first[7:]
            if not tail.isdigit() or int(tail) > 1000:
                raise ValueError(f"first guess {first!r}: greedy+N or greedy-N, N a number of points")
            shift = int(tail) if first[6] == "+" else -int(tail)
            return min(max(greedy_playout(c) + shift, lo), hi)
        if first.startswith("shallow"):
            plies = int(first[7:]) if len(first) > 7 else c.nseats
            if not 0 <= plies <= 12:      # uninterruptible, and b**plies play-outs at worst
                raise ValueError(f"first guess {first!r}: the depth must lie in 0..12 moves")
            with nogil:
                return shallow_guess(c, plies, -INF, INF)
        if first != "half":
            raise ValueError(f"unknown first guess {first!r}: half, greedy, greedy+N, greedy-N, shallow or shallowN")
        return (lo + hi) // 2

    def first_guess(self, str first="half"):
        """The first guess ``value`` starts from for this position: "half" (the middle of
        the value range), "greedy" (every seat plays the card the move ordering likes best),
        "greedy+N" / "greedy-N" (that moved by N points, within the value range), "shallow"
        (every card of the next trick tried, greedy play-outs after it),
        "shallowN" (the same over the next N moves, N at most 12)."""
        cdef int lo, hi
        value_range(&self.s.c, &lo, &hi)
        return self._first_guess(first, lo, hi)

    def test(self, int target):
        """Is the value at least ``target``? (one null-window search; ``SearchLimit`` with
        the position's whole range when a limit stops it)"""
        cdef Ctx* c = &self.s.c
        cdef int r, lo, hi
        value_range(c, &lo, &hi)
        if c.tricks_left == 0 or self.stopped:
            return target <= 0
        if target <= lo:
            return True
        if target > hi:
            return False
        self._enter()
        if c.aborted:
            raise self._stopped(lo, hi)
        with nogil:
            r = alphabeta(c, self.tt, target - 1, target)
        if c.aborted:
            raise self._stopped(lo, hi)
        return r >= target

    def window(self, int target):
        """One null-window test at ``target`` with its fail-soft value: at least ``target``
        proves the value is at least that much, below it proves the value is at most that.
        None when another thread halted it (``halt``: nothing of it is stored); the threads
        of a parallel value search (``stich.search.parallel``) run these."""
        cdef Ctx* c = &self.s.c
        cdef int r, lo, hi
        value_range(c, &lo, &hi)
        if c.tricks_left == 0 or self.stopped:
            return 0
        self._enter()
        if c.aborted:
            raise self._stopped(lo, hi)
        c.haltable = 1
        with nogil:
            r = alphabeta(c, self.tt, target - 1, target)
        c.haltable = 0
        if c.aborted:
            if st_load_flag(&c.halted) and not c.interrupted and not (
                    c.node_limit and c.nodes >= c.node_limit) and not (
                    c.deadline > 0 and st_now() >= c.deadline):
                c.aborted = 0
                recheck(c)
                return None
            raise self._stopped(lo, hi)
        return r

    def halt(self, bint on=True):
        """Stop this engine's ``window`` test under way in another thread, within a few
        thousand nodes (it returns None); safe from any thread.  The flag stays until
        ``halt(False)``: a test started while it is set stops at once."""
        st_store_flag(&self.s.c.halted, 1 if on else 0)

    def limit(self, nodes=None, seconds=None):
        """Allow ``nodes`` more search nodes and ``seconds`` more seconds from now (None: no
        limit of that kind); ``limit()`` lifts both.  Once one is hit every search raises
        ``SearchLimit`` until the next ``limit`` call.  (``reset_nodes`` after this call
        would move the node limit.)"""
        cdef uint64_t n = 0
        cdef double t = 0
        if nodes is not None:
            if nodes < 1:
                raise ValueError("a node limit must be at least 1")
            n = nodes
        if seconds is not None:
            if not seconds > 0:
                raise ValueError("a time limit must be more than 0 seconds")
            t = seconds
        set_limit(&self.s.c, n, t)

    @property
    def limit_reached(self):
        """True once a limit stopped a search (until the next ``limit`` call)."""
        return bool(self.s.c.aborted)

    @property
    def nodes(self):
        return self.s.c.nodes

    @property
    def trick_nodes(self):
        """The nodes at a trick's start (the root's too): what DDS counts as its nodes, for
        comparing node counts with it."""
        return self.s.c.trick_nodes

    def reset_nodes(self):
        self.s.c.nodes = 0
        self.s.c.trick_nodes = 0
        recheck(&self.s.c)

    def stats(self):
        """Cut-offs by position in the trick and how many the first card tried made: the
        measure of move ordering (since the last ``reset_stats``)."""
        cdef Ctx* c = &self.s.c
        return {"cut": [c.stat_cut[i] for i in range(4)], "cut_first": [c.stat_cut_first[i] for i in range(4)]}

    def reset_stats(self):
        cdef Ctx* c = &self.s.c
        cdef int i
        for i in range(4):
            c.stat_cut[i] = 0
            c.stat_cut_first[i] = 0

    def tt_stats(self):
        cdef TT* t = self.tt
        cdef Ctx* c = &self.s.c
        cdef uint64_t used = 0, i
        for i in range(t.nbuckets * TT_WAYS):
            if t.entries[i].depth and t.entries[i].epoch == t.epoch:
                used += 1
        return {"megabytes": self.megabytes, "entries": t.nbuckets * TT_WAYS, "used": used,
                "probes": c.tt_probes, "hits": c.tt_hits, "stores": c.tt_stores,
                "entry_bytes": sizeof(TTEntry), "part_probes": self.s.pt.probes,
                "part_hits": self.s.pt.hits, "part_stores": self.s.pt.stores}


def _bits(uint64_t m):
    out = []
    while m:
        out.append(st_ctz(m))
        m &= m - 1
    return out
