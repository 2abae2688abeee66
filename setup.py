"""Builds the Cython search core (solver/core/_search.pyx) as an optimised C extension, and
installs the sources of solver/ and cli/ as the one import package ``stich`` (stich.core, ...,
stich.cli), so that no generic top-level name reaches site-packages.

Set STICH_PORTABLE=1 to build without -march=native (for a wheel that runs on other CPUs).
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

flags = ["-O3", "-fno-strict-aliasing"]
if not os.environ.get("STICH_PORTABLE"):
    flags.append("-march=native")

# every package under solver/ (so a new one is never left out of a plain `pip install .`), named stich.*
packages = ["stich", *(f"stich.{name}" for name in find_packages("solver")), "stich.cli"]
package_dir = {"stich": "solver", "stich.cli": "cli"}

extensions = [Extension("stich.core._search", ["solver/core/_search.pyx"], extra_compile_args=flags)]

setup(packages=packages, package_dir=package_dir,
      ext_modules=cythonize(extensions, language_level=3,
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True}))
