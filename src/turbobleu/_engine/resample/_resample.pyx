# cython: language_level=3
# cython: freethreading_compatible=True
"""What the significance tests need in C (``_resample_py.py`` is the readable twin).

Bootstrap resample counts: sacrebleu draws resamples with ``rng.choice(n, size=(samples, n),
replace=True)``, which for n < 2**32 is NumPy's Lemire draw on 32-bit words of the generator
(``lemire.pxd``). Drawing them here, through the generator's own ``bitgen_t`` (NumPy's public C
interface), consumes the same words in the same order, so the resamples (and the generator's state
afterwards) are NumPy's; counting each index as it is drawn saves the (samples, n) index array
and a bincount per row.

``libm_map``: ``math.log`` / ``math.exp`` over arrays, for scoring the resamples
(``recipes.sacrebleu_batch``). Loaded on first use (``resample.chosen.resample()``): it needs NumPy.
"""
import numpy as np

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.math cimport exp, isfinite, log
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset

from turbobleu._engine.resample.lemire cimport bounded_draw, lemire_threshold, tb_bitgen_t


cdef tb_bitgen_t* bitgen_of(bit_generator, uint64_t n) except NULL:
    if n < 1 or n > 0xFFFFFFFF:
        raise ValueError(f"the number of segments must be in 1..2**32-1, got {n}")
    return <tb_bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


def resample_counts(rng, Py_ssize_t n_segments, float[:, ::1] counts):
    """``counts[b, i]`` = how often segment i is in resample b, for the next ``len(counts)`` rows
    of ``rng.choice(n_segments, size=(rows, n_segments), replace=True)`` (rng: a NumPy
    Generator), leaving ``rng`` where that call would."""
    if counts.shape[1] != n_segments:
        raise ValueError("resample_counts: counts must have n_segments columns")
    bit_generator = rng.bit_generator
    cdef tb_bitgen_t* g = bitgen_of(bit_generator, n_segments)
    cdef uint32_t n = <uint32_t>n_segments
    cdef uint32_t threshold = lemire_threshold(n)
    cdef Py_ssize_t b, _i
    cdef float* row
    with bit_generator.lock, nogil:
        for b in range(counts.shape[0]):
            row = &counts[b, 0]
            memset(row, 0, n_segments * sizeof(float))
            if n == 1:              # NumPy draws nothing for a range of one value
                row[0] = 1
                continue
            for _i in range(n_segments):
                row[bounded_draw(g, n, threshold)] += 1


def bounded_integers(rng, uint64_t n, Py_ssize_t size):
    """``rng.integers(0, n, size)`` through ``bounded_draw`` (int64): lets the tests check the
    draw against NumPy for any n, including those where rejections are frequent."""
    bit_generator = rng.bit_generator
    cdef tb_bitgen_t* g = bitgen_of(bit_generator, n)
    cdef uint32_t threshold = lemire_threshold(<uint32_t>n)
    out = np.zeros(size, dtype=np.int64)
    cdef int64_t[::1] view = out
    cdef Py_ssize_t i
    if n == 1:
        return out
    with bit_generator.lock, nogil:
        for i in range(size):
            view[i] = bounded_draw(g, <uint32_t>n, threshold)
    return out


def libm_map(str name, const double[::1] x, double[::1] out):
    """``out[i] = math.<name>(x[i])`` for name "log" or "exp", through the same libm function
    that ``math`` calls (NumPy's own log/exp may differ in the last bit). Returns False, leaving
    ``out`` unspecified, when some value is outside the range where ``math`` just calls libm
    (log: finite and > 0; exp: finite with a finite result): the caller then maps ``math``."""
    cdef Py_ssize_t i, n = x.shape[0]
    cdef bint is_log = name == "log"
    cdef bint ok = True
    if not is_log and name != "exp":
        raise ValueError(f"libm_map: name must be 'log' or 'exp', got {name!r}")
    if out.shape[0] != n:
        raise ValueError("libm_map: out must have the length of x")
    with nogil:
        for i in range(n):
            if is_log:
                ok = isfinite(x[i]) and x[i] > 0.0
                out[i] = log(x[i])
            else:
                out[i] = exp(x[i])
                ok = isfinite(x[i]) and isfinite(out[i])
            if not ok:
                break
    return ok
