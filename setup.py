"""The compiled search core (bddl/engines/compiled/, docs/engines-core.md): a C++17 extension
built through Cython.  Everything else about the package is in pyproject.toml.

The core is optional: where Cython or a C++17 compiler is missing, or the build fails, the install
goes on without it (with a warning) and the Python engines do all the searching.
BDDLC_CORE_CFLAGS adds compiler and linker flags (the sanitizer build, scripts/sanitize_core.sh)."""

import os
import shlex
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = "bddl.engines.compiled._core"
HERE = os.path.dirname(os.path.abspath(__file__))
PYX = os.path.join("bddl", "engines", "compiled", "_core.pyx")


def warn(message: str) -> None:
    print(f"bddlc: warning: {message}; installing without the compiled core (the Python engines search)", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the core where the machine can; a failure is a warning, never a failed install."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler at all (distutils' CCompilerError and friends)
            warn(f"the compiled core could not be built ({exc})")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            warn(f"the compiled core could not be built ({exc})")


def extensions():
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is missing (it is a build requirement: pip install Cython, or let pip build in isolation)")
        return []
    extra = shlex.split(os.environ.get("BDDLC_CORE_CFLAGS", ""))
    core = Extension(
        CORE,
        sources=[PYX, *(os.path.join("bddl", "engines", "compiled", "src", name) for name in ("pgcore.cpp", "bddlcore.cpp", "bddlpns.cpp", "pgpns.cpp"))],
        # the headers: a rebuild when they change, and a source distribution that holds them
        depends=[os.path.join("bddl", "engines", "compiled", "src", name)
                 for name in ("pgcore.hpp", "bits.hpp", "bddlgame.hpp", "bddlcore.hpp", "race.hpp", "bddlpns.hpp",
                               "pgrules.hpp", "pntable.hpp", "pgpns.hpp")],
        language="c++",
        extra_compile_args=["-std=c++17", "-O2", *extra],
        extra_link_args=extra,
    )
    try:
        return cythonize([core], compiler_directives={"language_level": 3}, quiet=True)
    except Exception as exc:
        warn(f"Cython could not translate {PYX} ({exc})")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
