# Limits: a search may be given a node budget or a deadline, and Ctrl-C stops it too.  When
# one is hit the search unwinds at once (``c.aborted``), storing nothing in the table, so
# every stored bound is still proven; the drivers (search.pxi) report the bounds their
# finished null-window searches proved.  Checking costs one comparison per node
# (``c.nodes >= c.next_check``); every TICK nodes the clock and the interrupt counter are read.
#
# Ctrl-C: Python's own SIGINT handler only notes the signal, and the interpreter acts on it
# when it runs bytecode again, which a search without the GIL does not.  So the core puts its
# own C handler in front of the process's (``st_arm``, at every search's start: Python code
# may have set another since): it counts the signal in ``st_interrupts`` and then calls the
# handler it replaced, so Python still raises KeyboardInterrupt as before.  Every search in
# every thread stops while an interrupt is not yet acknowledged (``st_acked``); the main
# thread acknowledges one when it starts a new search after Python has had its say
# (``PyErr_CheckSignals``), i.e. once the program has handled the KeyboardInterrupt.  A
# process that ignores SIGINT (a worker) is left alone.
#
# Another thread may also halt one engine's ``window`` test (``Engine.halt``: a test another
# thread's answer made useless); the flag is read at the same tick as the clock.

cdef extern from *:
    """
    #include <time.h>
    #include <signal.h>
    #include <string.h>
    static inline double st_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
    }
    static volatile sig_atomic_t st_interrupts = 0;   /* SIGINTs seen by st_on_sigint */
    static volatile sig_atomic_t st_acked = 0;        /* ... of them handled by the program */
    static struct sigaction st_prev;                  /* the handler st_on_sigint calls on */

    static void st_on_sigint(int sig, siginfo_t* info, void* ctx) {
        st_interrupts = st_interrupts + 1;
        if (st_prev.sa_flags & SA_SIGINFO) {
            if (st_prev.sa_sigaction) st_prev.sa_sigaction(sig, info, ctx);
        } else if (st_prev.sa_handler != SIG_DFL && st_prev.sa_handler != SIG_IGN
                   && st_prev.sa_handler != NULL) {
            st_prev.sa_handler(sig);
        }
    }

    /* Put st_on_sigint in front of the process's SIGINT handler, unless it is there
       already or SIGINT is ignored or left to its default (which ends the process). */
    static void st_arm(void) {
        struct sigaction cur, mine;
        if (sigaction(SIGINT, NULL, &cur) != 0) return;
        if (cur.sa_flags & SA_SIGINFO) {
            if (cur.sa_sigaction == st_on_sigint) return;
        } else if (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN) {
            return;
        }
        st_prev = cur;
        memset(&mine, 0, sizeof mine);
        mine.sa_sigaction = st_on_sigint;
        mine.sa_mask = cur.sa_mask;
        mine.sa_flags = (cur.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
        sigaction(SIGINT, &mine, NULL);
    }

    static inline int st_interrupt_pending(void) { return st_interrupts != st_acked; }
    static inline int st_interrupt_count(void) { return st_interrupts; }
    static inline void st_acknowledge(int seen) { st_acked = seen; }
    static inline void st_simulate_interrupt(void) { st_interrupts = st_interrupts + 1; }
    /* A flag one thread sets and another's search reads (Engine.halt). */
    static inline int st_load_flag(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void st_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    double st_now() noexcept nogil
    void st_arm() noexcept nogil
    int st_interrupt_pending() noexcept nogil
    int st_interrupt_count() noexcept nogil
    void st_acknowledge(int seen) noexcept nogil
    void st_simulate_interrupt() noexcept nogil
    int st_load_flag(int* p) noexcept nogil
    void st_store_flag(int* p, int v) noexcept nogil

cdef enum:
    TICK = 4096                 # read the clock and the interrupt counter every this many nodes


cdef int limit_hit(Ctx* c) noexcept nogil:
    """Called once ``c.nodes`` reaches ``c.next_check``: has the search run out of nodes or
    time, or been interrupted?  (Sets ``aborted`` for good, and when to look next.)"""
    if c.aborted:
        return 1
    if c.node_limit and c.nodes >= c.node_limit:
        c.aborted = 1
    elif c.nodes >= c.next_tick:
        c.next_tick = c.nodes + TICK
        if st_interrupt_pending():
            c.aborted = 1
            c.interrupted = 1
        elif c.deadline > 0 and st_now() >= c.deadline:
            c.aborted = 1
        elif c.haltable and st_load_flag(&c.halted):
            c.aborted = 1
    if c.aborted:
        c.next_check = 0
    else:
        c.next_check = c.next_tick
        if c.node_limit and c.node_limit < c.next_check:
            c.next_check = c.node_limit
    return c.aborted


cdef inline void recheck(Ctx* c) noexcept nogil:
    """Look at the limits and the interrupt counter again at the next node (the node count
    or the limits changed)."""
    c.next_check = 0
    c.next_tick = 0


cdef inline void set_limit(Ctx* c, uint64_t nodes, double seconds) noexcept nogil:
    """Allow ``nodes`` more nodes and ``seconds`` more seconds from now (0: unlimited)."""
    c.node_limit = c.nodes + nodes if nodes else 0
    c.deadline = st_now() + seconds if seconds > 0 else 0
    c.aborted = 0
    c.interrupted = 0
    recheck(c)
