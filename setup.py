"""Builds the Cython search core (solver/core/_search.pyx) as an optimised C extension, and
installs the sources of solver/ and cli/ as the one import package ``stich`` (stich.core, ...,
stich.cli), so that no generic top-level name reaches site-packages.

With gcc the core is built profile-guided: compiled once with counters, run on the quick
bench (``stich.run.bench``, a few deals of every game, value and whole solve), and compiled
again with what the counters saw, so that gcc lays out the hot branches and inlines by the
real workload (the same answers and nodes; 7% fewer instructions, up to 1.2x the speed).
If any step fails, or the compiler is not gcc, the core is built without a profile.
``stich.core._search.BUILD`` says which it got, and ``PLAIN_BECAUSE`` why it is plain.

On x86-64 the core is built for this machine's processor without its 512-bit vector
instructions (-march=native -mno-avx512f, measured faster).
Set STICH_PORTABLE=1 to build without -march=native (for a wheel that runs on other CPUs),
STICH_PGO=0 to build without a profile (a quicker build, a slower core).
"""

import os
import platform
import shutil
import subprocess
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

flags = ["-O3", "-fno-strict-aliasing"]
if not os.environ.get("STICH_PORTABLE"):
    flags.append("-march=native")
    if platform.machine().lower() in ("x86_64", "amd64"):
        # with AVX-512 gcc copies the search's small structures in 64-byte vector moves: 2-4%
        # more time on an AMD Zen 4 (docs/develop.md); and valgrind cannot count them
        flags.append("-mno-avx512f")

# every package under solver/ (so a new one is never left out of a plain `pip install .`), named stich.*
packages = ["stich", *(f"stich.{name}" for name in find_packages("solver")), "stich.cli"]
package_dir = {"stich": "solver", "stich.cli": "cli"}

extensions = [Extension("stich.core._search", ["solver/core/_search.pyx"], extra_compile_args=flags)]

# the profile's workload: the quick bench, run on the instrumented core from a copy of the
# sources (the standard library only, so it runs in pip's isolated build environment too)
TRAINING = """
import sys
sys.path.insert(0, sys.argv[1])
from stich.run.bench import builtin_sets, run
sets = builtin_sets(quick=True)
run(sets, mode="value")
run(sets, mode="solve")
"""
TRAINING_SECONDS = 600      # an instrumented quick bench takes about 15 s; past this, no profile

# why a core is plain (stich.core._search.PLAIN_BECAUSE; "" for a profile-guided one)
NOT_ASKED, NOT_GCC, FAILED = "STICH_PGO=0", "the compiler is not gcc", "its profile-guided build failed"


class ProfileGuidedBuild(build_ext):
    """build_ext that builds the core profile-guided where the compiler is gcc."""

    def build_extensions(self) -> None:
        if os.environ.get("STICH_PGO", "1") == "0":
            return self._build(NOT_ASKED, [], [])
        if not self._compiler_is_gcc():
            return self._build(NOT_GCC, [], [])
        profile = tempfile.mkdtemp(prefix="stich-profile-")
        try:
            self._build("", [f"-fprofile-generate={profile}"], [f"-fprofile-generate={profile}"])
            self._train(profile)
            self._build("", [f"-fprofile-use={profile}", "-fprofile-partial-training",
                             "-Werror=missing-profile"], [])
        except Exception as problem:        # any failure of the extra steps: the plain build
            print(f"stich: profile-guided build failed ({problem}); building without a profile",
                  file=sys.stderr)
            self._build(FAILED, [], [])
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def _compiler_is_gcc(self) -> bool:
        if self.compiler.compiler_type != "unix":
            return False
        try:
            version = subprocess.run([self.compiler.compiler_so[0], "--version"], capture_output=True,
                                     text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return False
        return "Free Software Foundation" in version and "clang" not in version

    def _build(self, plain_because: str, compile_extra: list[str], link_extra: list[str]) -> None:
        """Compile the core; ``plain_because`` is "" for a profiled stage, else why it is plain."""
        for ext in self.extensions:
            ext.extra_compile_args = [*flags, *compile_extra]
            ext.extra_link_args = list(link_extra)
            # both profiled stages define the same macros: the source the counters ran on must be
            # the one the profile is used on
            ext.define_macros = [("STICH_PLAIN_BECAUSE", f'"{plain_because}"')]
        self.force = True                   # every stage compiles again, whatever is on disk
        super().build_extensions()

    def _train(self, profile: str) -> None:
        with tempfile.TemporaryDirectory(prefix="stich-training-") as root:
            shutil.copytree("solver", os.path.join(root, "stich"),
                            ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                shutil.copy(built, os.path.join(root, *ext.name.split(".")[:-1], os.path.basename(built)))
            run = subprocess.run([sys.executable, "-S", "-E", "-c", TRAINING, root], cwd=root,
                                 timeout=TRAINING_SECONDS, stdout=subprocess.DEVNULL)
        if run.returncode != 0:
            raise RuntimeError(f"the training run on the instrumented core exited with {run.returncode}")
        # gcc names the file after the object's path: mangled into one name, or, for an
        # absolute path (pip's temporary build folder), in folders below the profile's
        if not any(name.endswith(".gcda") for _, _, names in os.walk(profile) for name in names):
            raise RuntimeError(f"the training run wrote no profile to {profile}")


setup(packages=packages, package_dir=package_dir, cmdclass={"build_ext": ProfileGuidedBuild},
      ext_modules=cythonize(extensions, language_level=3,
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True}))
