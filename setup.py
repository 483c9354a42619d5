"""Build the compiled kernels. All metadata lives in pyproject.toml.

Which build you get (``turbobleu.implementation`` tells at run time):
- default, on CPython: the Cython extension modules. Where they cannot be built (no C compiler,
  no Cython), the build warns and goes on without them: the package runs on its pure-Python twins.
- other interpreters (PyPy, GraalPy, ...): no extension (the modules read CPython's object layout,
  see src/turbobleu/_engine/cpython_layout.h); the build says so and installs the pure package.
- ``TURBOBLEU_PURE_PYTHON=1``: no extension at all; the wheel is tagged ``py3-none-any``.
- ``TURBOBLEU_REQUIRE_EXTENSION=1``: a failed extension build is an error (wheel builders set it, so
  that a broken compiler never ships a wheel without its kernels).
"""
import os
import platform
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def flag(name):
    return os.environ.get(name, "") not in ("", "0")


PURE = flag("TURBOBLEU_PURE_PYTHON")
REQUIRE = flag("TURBOBLEU_REQUIRE_EXTENSION")
# One compiled module per engine stage, each with its pure-Python twin beside it (<name>_py.py),
# listed once in src/turbobleu/_engine/compiled_modules.py (read here without importing turbobleu).
# (relative to the project root, where builds run setup.py, as the sources below are)
_LIST = runpy.run_path("src/turbobleu/_engine/compiled_modules.py")
SOURCES = {name: _LIST["source_of"](name) for name in _LIST["COMPILED"]}
# The shared C headers (scratch.h: per-thread memory kept between calls; cpython_layout.h).
HEADERS = "src/turbobleu/_engine"


def say(message):
    print(f"turbobleu build: {message}", file=sys.stderr)


def fall_back(reason):
    """Go on without the extension, or stop when the builder asked for it."""
    if REQUIRE:
        raise SystemExit(f"turbobleu build: TURBOBLEU_REQUIRE_EXTENSION=1 and {reason}")
    say(f"{reason}; installing the pure-Python implementation (slower, same results)")


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compile into the pure-Python fallback."""

    def finalize_options(self):
        super().finalize_options()
        # The twelve modules compile independently: one job per core (pip passes no -j, and a
        # serial build is most of the install's time). ``build_ext -j N`` still overrides it.
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        try:
            super().run()
        except Exception as exc:  # compiler missing or broken: the causes vary per platform
            fall_back(f"the C extension could not be built ({type(exc).__name__}: {exc})")
            # A module built before the failure, or a stale one from an earlier in-place build,
            # would otherwise be imported instead of the twins.
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            return
        say("built the compiled (Cython) extension")


def extensions():
    if PURE:
        say("TURBOBLEU_PURE_PYTHON=1: building the pure-Python package (no extension)")
        return []
    interpreter = platform.python_implementation()
    if interpreter != "CPython":
        say(f"{interpreter} is not CPython: installing the pure-Python implementation (the "
            f"compiled modules read CPython's object layout)")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        fall_back(f"Cython is not importable ({exc})")
        return []
    modules = [Extension(name, [path], include_dirs=[HEADERS]) for name, path in SOURCES.items()]
    return cythonize(
        modules,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
