"""Chooses the compiled modules or their pure-Python twins.

``TURBOBLEU_IMPL`` selects: ``auto`` (default: compiled when importable, else the twins, with a
RuntimeWarning on CPython: see ``missing_core``), ``cython`` (compiled, or ImportError) or
``python`` (the twins, always, silently).
"""

from __future__ import annotations

import os
import sys

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Callable, Dict, Tuple

_CHOICES = ("auto", "cython", "python")


def _load() -> Tuple[str, ModuleType, ModuleType]:
    choice = os.environ.get("TURBOBLEU_IMPL", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ImportError(f"TURBOBLEU_IMPL must be one of {_CHOICES}, got {choice!r}")
    if choice != "python":
        module = "turbobleu._engine.count._kernel"
        try:
            from turbobleu._engine.count import _kernel

            module = "turbobleu._engine.text._tokenize"
            from turbobleu._engine.text import _tokenize

            return "cython", _kernel, _tokenize
        except ImportError as exc:
            if choice == "cython":
                raise ImportError(
                    "TURBOBLEU_IMPL=cython but the compiled extension is missing "
                    f"({exc}); reinstall turbobleu with a C compiler or from a wheel"
                ) from exc
            _warn_missing_core(module, exc)
    from turbobleu._engine.count import _kernel_py
    from turbobleu._engine.text import _tokenize_py

    return "python", _kernel_py, _tokenize_py


def _warn_missing_core(module: str, error: ImportError) -> None:
    """Under ``auto``, on CPython: one RuntimeWarning that the compiled ``module`` failed to
    import (its module, imported on this path only, says why and how to fix it)."""
    from turbobleu._engine import missing_core

    if missing_core.applies():
        missing_core.warn(module, error)


# All compiled modules or none: they share the kernel's tables through cimports. These are the
# ones `import turbobleu` loads; the others load on first use (below).
implementation, kernel, tokenize = _load()

_loaded: Dict[str, ModuleType] = {}


def _on_first_use(stage: str) -> ModuleType:
    """The compiled module ``turbobleu._engine.<stage>`` of the chosen implementation (or its
    twin, ``<stage>_py``), imported on the first call: ``import turbobleu`` stays light (most
    of these need NumPy, which it does not load)."""
    module = _loaded.get(stage)
    if module is not None:
        return module
    name = f"turbobleu._engine.{stage}" + ("" if implementation == "cython" else "_py")
    try:
        __import__(name)  # (not importlib: importing it would cost `import turbobleu` 0.3 ms)
    except ImportError as exc:
        if implementation != "cython":
            raise
        raise ImportError(
            f"the compiled module {stage} is missing ({exc}); rebuild turbobleu "
            "(python setup.py build_ext --inplace) or set TURBOBLEU_IMPL=python"
        ) from exc
    module = _loaded[stage] = sys.modules[name]
    return module


def _stage(stage: str, doc: str) -> Callable[[], ModuleType]:
    """The accessor of one stage loaded on first use (the table below)."""

    def module() -> ModuleType:
        return _on_first_use(stage)

    module.__doc__ = f"{doc} (``{stage}``)."
    return module


pairwise_kernel = _stage("count._pairwise", "Pairwise BLEU matrices")
sacrebleu_scores = _stage(
    "recipes._sacrebleu_scores", "sacrebleu's sentence recipe over statistics rows"
)
packer = _stage("count._pack", "Token-id inputs -> CSR buffers")
ref_tables = _stage("count._ref_tables", "Prepared reference groups")
self_table = _stage("count._self_table", "Self-BLEU tables")
nltk_scores = _stage("recipes._nltk_scores", "NLTK's sentence recipe over statistics rows")
pycocoevalcap_scores = _stage(
    "recipes._pycocoevalcap_scores", "pycocoevalcap's per-image BLEU over statistics rows"
)
resample = _stage("resample._resample", "Bootstrap resample counts and libm over arrays")
text_rows = _stage(
    "bleu._text_rows", "BLEU's fused paths: lines -> statistics rows (and a sentence's score)"
)
chrf_counts = _stage("chrf._chrf", "chrF / chrF++ n-gram counting and scores")
ter_edits = _stage("ter._ter", "TER's edit counting (beam edit distance and shifts)")
interning = _stage("intern._intern", "Hashable tokens (NLTK, MATLAB, evaluate) -> ids and rows")
