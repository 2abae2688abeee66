"""The core's build.  With gcc, setup.py builds it profile-guided: compiled with counters, run
on the quick bench, compiled again.  If a step fails it falls back to a plain build and pip
hides why, so this test is what notices (a third-party import reaching the bench, say: the
training run has only the standard library)."""

from __future__ import annotations

from stich.core import _search


def test_the_core_is_plain_only_where_that_was_asked_for_or_gcc_is_missing():
    assert _search.PLAIN_BECAUSE in {"", "STICH_PGO=0", "the compiler is not gcc"}, (
        f"the core is plain because {_search.PLAIN_BECAUSE}: `pip install -v .` says why")

