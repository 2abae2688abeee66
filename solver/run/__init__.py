"""Running many searches: the worker pool, the resumable results file, the benchmark sets."""
