"""Builds the Cython search core (solver/core/_search.pyx) as an optimised C extension.

Set STICH_PORTABLE=1 to build without -march=native (for a wheel that runs on other CPUs).
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

flags = ["-O3", "-fno-strict-aliasing"]
if not os.environ.get("STICH_PORTABLE"):
    flags.append("-march=native")

extensions = [Extension("solver.core._search", ["solver/core/_search.pyx"], extra_compile_args=flags)]

setup(ext_modules=cythonize(extensions, language_level=3,
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True}))
