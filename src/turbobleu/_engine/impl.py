"""Chooses the compiled modules or their pure-Python twins.

``TURBOBLEU_IMPL`` selects: ``auto`` (default: compiled when importable, else the twins),
``cython`` (compiled, or ImportError) or ``python`` (the twins, always).
"""

from __future__ import annotations

import os
from types import ModuleType

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Tuple

_CHOICES = ("auto", "cython", "python")


def _load() -> Tuple[str, ModuleType, ModuleType, ModuleType, ModuleType]:
    choice = os.environ.get("TURBOBLEU_IMPL", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ImportError(f"TURBOBLEU_IMPL must be one of {_CHOICES}, got {choice!r}")
    if choice != "python":
        try:
            from turbobleu._engine.count import _chrf, _kernel
            from turbobleu._engine.intern import _intern
            from turbobleu._engine.text import _tokenize

            return "cython", _kernel, _tokenize, _intern, _chrf
        except ImportError as exc:
            if choice == "cython":
                raise ImportError(
                    "TURBOBLEU_IMPL=cython but the compiled extension is missing "
                    f"({exc}); reinstall turbobleu with a C compiler or from a wheel"
                ) from exc
    from turbobleu._engine.count import _chrf_py, _kernel_py
    from turbobleu._engine.intern import _intern_py
    from turbobleu._engine.text import _tokenize_py

    return "python", _kernel_py, _tokenize_py, _intern_py, _chrf_py


# All compiled modules or none: they share the kernel's tables through cimports.
implementation, kernel, tokenize, intern, chrf = _load()


def pairwise_kernel() -> ModuleType:
    """The pairwise-BLEU kernel of the chosen implementation, imported on first use (it needs
    NumPy, which ``import turbobleu`` does not load)."""
    if implementation == "cython":
        try:
            from turbobleu._engine.count import _pairwise
        except ImportError as exc:
            raise ImportError(
                f"the compiled pairwise kernel is missing ({exc}); rebuild turbobleu "
                "(python setup.py build_ext --inplace) or set TURBOBLEU_IMPL=python"
            ) from exc
        return _pairwise
    from turbobleu._engine.count import _pairwise_py

    return _pairwise_py
