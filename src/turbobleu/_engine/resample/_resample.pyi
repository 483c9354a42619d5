"""Type stubs for ``_resample.pyx`` (``_resample_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

import numpy as np
import numpy.typing as npt

_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]

def resample_counts(
    rng: np.random.Generator, n_segments: int, counts: npt.NDArray[np.float32]
) -> None:
    """``counts[b, i]``: how often segment i is in resample b of NumPy's
    ``rng.choice(n_segments, size=(len(counts), n_segments), replace=True)``."""

def bounded_integers(rng: np.random.Generator, n: int, size: int) -> _I64:
    """``rng.integers(0, n, size)`` through the same draw (a test hook)."""

def libm_map(name: str, x: _F64, out: _F64) -> bool:
    """``out[i] = math.<name>(x[i])`` ("log" or "exp") in C; False where ``math`` must decide."""
