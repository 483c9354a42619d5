"""Chooses the compiled modules or their pure-Python twins.

``TURBOBLEU_IMPL`` selects: ``auto`` (default: compiled when importable, else the twins),
``cython`` (compiled, or ImportError) or ``python`` (the twins, always).
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Tuple

_CHOICES = ("auto", "cython", "python")


def _load() -> Tuple[str, ModuleType, ModuleType]:
    choice = os.environ.get("TURBOBLEU_IMPL", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ImportError(f"TURBOBLEU_IMPL must be one of {_CHOICES}, got {choice!r}")
    if choice != "python":
        try:
            from . import _kernel, _tokenize
            from . import _hashable  # noqa: F401  (used by _token_stats; all three or none)
            return "cython", _kernel, _tokenize
        except ImportError as exc:
            if choice == "cython":
                raise ImportError(
                    "TURBOBLEU_IMPL=cython but the compiled extension is missing "
                    f"({exc}); reinstall turbobleu with a C compiler or from a wheel") from exc
    from . import _kernel_py, _tokenize_py
    return "python", _kernel_py, _tokenize_py


implementation, kernel, tokenize = _load()
