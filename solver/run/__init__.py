"""Running many searches: the worker pool, the resumable results file, the benchmark sets."""


class RunError(ValueError):
    """Bad input to a run of many searches (exit 2): a results file that is locked or not a
    regular file, an unreachable Dask scheduler, Dask not installed."""
