"""The search engine: a position compiled into flat tables, the Cython alpha-beta, limits."""
