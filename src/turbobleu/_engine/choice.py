"""Which implementation runs: the compiled modules or their pure-Python twins.

``TURBOBLEU_IMPL`` selects: ``auto`` (default: compiled when importable, else the twins, with a
RuntimeWarning on CPython: see ``missing_core``), ``cython`` (compiled, or ImportError) or
``python`` (the twins, always, silently).

The choice is made once, on the two modules that ``import turbobleu`` loads (``count._kernel``
and ``text._tokenize``): the other compiled modules cimport them, so all are compiled or none.
This module holds the rule only; each package names its own pairs in its ``chosen.py``, with
:func:`loaded` or :func:`on_first_use`.
"""

from __future__ import annotations

import os
import sys

from turbobleu._engine.compiled_modules import COMPILED
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Callable

_CHOICES = ("auto", "cython", "python")
_ENGINE = "turbobleu._engine."


def decide() -> str:
    """``"cython"`` or ``"python"`` under ``TURBOBLEU_IMPL``, importing the two modules that
    every path needs (ImportError for an unknown choice, or for ``cython`` without them)."""
    choice = os.environ.get("TURBOBLEU_IMPL", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ImportError(f"TURBOBLEU_IMPL must be one of {_CHOICES}, got {choice!r}")
    if choice != "python":
        module = "turbobleu._engine.count._kernel"
        try:
            from turbobleu._engine.count import _kernel  # noqa: F401

            module = "turbobleu._engine.text._tokenize"
            from turbobleu._engine.text import _tokenize  # noqa: F401

            return "cython"
        except ImportError as exc:
            if choice == "cython":
                raise ImportError(
                    "TURBOBLEU_IMPL=cython but the compiled extension is missing "
                    f"({exc}); reinstall turbobleu with a C compiler or from a wheel"
                ) from exc
            _warn_missing_core(module, exc)
    from turbobleu._engine.count import _kernel_py  # noqa: F401
    from turbobleu._engine.text import _tokenize_py  # noqa: F401

    return "python"


def _warn_missing_core(module: str, error: ImportError) -> None:
    """Under ``auto``, on CPython: one RuntimeWarning that the compiled ``module`` failed to
    import (its module, imported on this path only, says why and how to fix it)."""
    from turbobleu._engine import missing_core

    if missing_core.applies():
        missing_core.warn(module, error)


implementation = decide()


def _name(stage: str) -> str:
    """The module of ``stage`` (``"count._kernel"``) in the chosen implementation."""
    compiled = _ENGINE + stage
    if compiled not in COMPILED:  # (a misspelt stage fails at import, not on first use)
        raise ValueError(f"{compiled} is not in compiled_modules.COMPILED")
    return compiled if implementation == "cython" else compiled + "_py"


def loaded(stage: str) -> ModuleType:
    """A module that :func:`decide` imported already (``count._kernel``, ``text._tokenize``)."""
    return sys.modules[_name(stage)]


def on_first_use(stage: str, doc: str) -> Callable[[], ModuleType]:
    """An accessor of ``stage``'s module, imported on the first call: ``import turbobleu``
    stays light (most of these need NumPy, which it does not load)."""
    name = _name(stage)
    found: list = []

    def module() -> ModuleType:
        if found:
            return found[0]
        try:
            __import__(name)  # (not importlib: importing it would cost `import turbobleu` 0.3 ms)
        except ImportError as exc:
            if implementation != "cython":
                raise
            raise ImportError(
                f"the compiled module {stage} is missing ({exc}); rebuild turbobleu "
                "(python setup.py build_ext --inplace) or set TURBOBLEU_IMPL=python"
            ) from exc
        found.append(sys.modules[name])
        return found[0]

    module.__doc__ = f"{doc} (``{stage}``, loaded on first use)."
    return module
