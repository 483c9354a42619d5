"""Pure-Python twin of ``_resample.pyx``: NumPy's own resampling draws (the compiled module
reproduces them through the generator's C interface) and ``math`` over arrays."""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from turbobleu._engine.buffer_types import F32, F64, I64

import numpy as _np

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["bounded_integers", "libm_map", "resample_counts"]


def resample_counts(rng: _np.random.Generator, n_segments: int, counts: F32) -> None:
    """``counts[b, i]`` = how often segment i is in resample b, for the next ``len(counts)`` rows
    of ``rng.choice(n_segments, size=(rows, n_segments), replace=True)`` (sacrebleu's draw)."""
    if counts.shape[1] != n_segments:
        raise ValueError("resample_counts: counts must have n_segments columns")
    indices = rng.choice(n_segments, size=counts.shape, replace=True)
    for b, row in enumerate(indices):
        counts[b] = _np.bincount(row, minlength=n_segments)


def bounded_integers(rng: _np.random.Generator, n: int, size: int) -> I64:
    """``rng.integers(0, n, size)`` (the draw the compiled ``resample_counts`` reproduces)."""
    return rng.integers(0, n, size=size, dtype=_np.int64)


def libm_map(name: str, x: F64, out: F64) -> bool:
    """``out[i] = math.<name>(x[i])`` for name "log" or "exp" (the compiled module calls the same
    libm functions in C); always succeeds here (``math`` raises where it would)."""
    if name not in ("log", "exp"):
        raise ValueError(f"libm_map: name must be 'log' or 'exp', got {name!r}")
    if len(out) != len(x):
        raise ValueError("libm_map: out must have the length of x")
    out[:] = _np.fromiter(map(getattr(math, name), x.tolist()), dtype=_np.float64, count=len(x))
    return True
