"""The core's build.  With gcc, setup.py builds it profile-guided: compiled with counters, run
on the quick bench, compiled again.  If a step fails it falls back to a plain build and pip
hides why, so this test is what notices (a third-party import reaching the bench, say: the
training run has only the standard library)."""

from __future__ import annotations

import os
import subprocess
import sysconfig

import pytest

from stich.core import _search


def _compiler_is_gcc() -> bool:
    """The test of setup.py: the C compiler Python builds extensions with calls itself gcc."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in version and "clang" not in version


@pytest.mark.skipif(os.environ.get("STICH_PGO") == "0", reason="STICH_PGO=0: built without a profile")
def test_gcc_builds_the_core_profile_guided():
    if not _compiler_is_gcc():
        pytest.skip("the compiler is not gcc: setup.py builds the core without a profile")
    assert _search.BUILD == "profile-guided", (
        "the core was built without a profile: its training step failed (`pip install -v .` says "
        "why), or it was built with STICH_PGO=0 (then set STICH_PGO=0 for the tests too)")
