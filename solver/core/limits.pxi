# Limits: a search may be given a node budget or a deadline.  When one is hit the search
# unwinds at once (``c.aborted``), storing nothing in the table, so every stored bound is
# still proven; the drivers (search.pxi) report the bounds their finished null-window
# searches proved.  Checking costs one flag test per node while no limit is set.

cdef extern from *:
    """
    #include <time.h>
    static inline double st_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
    }
    """
    double st_now() noexcept nogil

cdef enum:
    CLOCK_EVERY = 4095          # read the clock once in this many + 1 nodes


cdef inline int limit_hit(Ctx* c) noexcept nogil:
    """Has the search run out of nodes or time?  (Sets ``aborted`` for good.)"""
    if c.aborted:
        return 1
    if c.node_limit and c.nodes >= c.node_limit:
        c.aborted = 1
    elif c.deadline > 0 and (c.nodes & CLOCK_EVERY) == 0 and st_now() >= c.deadline:
        c.aborted = 1
    return c.aborted


cdef inline void set_limit(Ctx* c, uint64_t nodes, double seconds) noexcept nogil:
    """Allow ``nodes`` more nodes and ``seconds`` more seconds from now (0: unlimited)."""
    c.node_limit = c.nodes + nodes if nodes else 0
    c.deadline = st_now() + seconds if seconds > 0 else 0
    c.aborted = 0
    c.limited = 1 if (nodes or seconds > 0) else 0
