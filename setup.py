"""Build the compiled kernels. All metadata lives in pyproject.toml.

Set TURBOBLEU_PURE_PYTHON=1 to build without the extension modules (the package then runs on its
pure-Python twins).
"""
import os

from setuptools import Extension, setup

PURE = os.environ.get("TURBOBLEU_PURE_PYTHON", "") not in ("", "0")


def extensions():
    if PURE:
        return []
    from Cython.Build import cythonize

    modules = [
        Extension("turbobleu._kernel", ["src/turbobleu/_kernel.pyx"]),
        Extension("turbobleu._tokenize", ["src/turbobleu/_tokenize.pyx"]),
    ]
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


setup(ext_modules=extensions())
