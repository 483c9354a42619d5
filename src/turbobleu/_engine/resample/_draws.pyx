# cython: language_level=3
# cython: freethreading_compatible=True
"""Bootstrap resample sums without NumPy (``_draws_py.py`` is the readable twin, ``pcg64.py``
the specification of the generator).

sacrebleu draws its resamples from ``numpy.random.default_rng(seed)``: PCG64 seeded through
SeedSequence. ``pcg64.seeded_pcg64`` computes the seeded state in Python; here the generator runs
in C behind NumPy's ``bitgen_t`` interface, and ``lemire.pxd`` draws the indices from it exactly
as NumPy does, so the command line's paired bootstrap needs no NumPy import (most of its
start-up). The 128-bit step is written with 64-bit halves, which every C compiler has.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from turbobleu._engine.resample.lemire cimport bounded_draw, lemire_threshold, tb_bitgen_t

cdef extern from *:
    """
    typedef struct {
        uint64_t state_hi, state_lo, inc_hi, inc_lo;
        int has_spare;          /* the high half of the last 64-bit output is unused */
        uint32_t spare;
    } tb_pcg64;

    /* The high 64 bits of a 64 x 64-bit product. */
    static inline uint64_t tb_mulhi64(uint64_t a, uint64_t b) {
        uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
        uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
        uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
        return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
    }

    /* state = state * multiplier + increment (mod 2**128), then the XSL-RR output. */
    static inline uint64_t tb_pcg64_next64(tb_pcg64 *g) {
        const uint64_t m_hi = 0x2360ED051FC65DA4ULL, m_lo = 0x4385DF649FCCF645ULL;
        uint64_t lo = g->state_lo * m_lo;
        uint64_t hi = tb_mulhi64(g->state_lo, m_lo) + g->state_hi * m_lo + g->state_lo * m_hi;
        uint64_t new_lo = lo + g->inc_lo;
        g->state_hi = hi + g->inc_hi + (new_lo < lo);
        g->state_lo = new_lo;
        uint64_t x = g->state_hi ^ g->state_lo;
        unsigned rot = (unsigned)(g->state_hi >> 58);
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }

    static uint32_t tb_pcg64_next32(void *st) {
        tb_pcg64 *g = (tb_pcg64 *)st;
        if (g->has_spare) {
            g->has_spare = 0;
            return g->spare;
        }
        uint64_t x = tb_pcg64_next64(g);
        g->has_spare = 1;
        g->spare = (uint32_t)(x >> 32);
        return (uint32_t)x;
    }
    """
    ctypedef struct tb_pcg64:
        uint64_t state_hi, state_lo, inc_hi, inc_lo
        int has_spare
        uint32_t spare
    uint32_t tb_pcg64_next32(void *st) noexcept nogil


def resample_sums(state, increment, list systems, Py_ssize_t n_samples, int64_t[:, ::1] out,
                  int64_t limit=0x80000000):
    """``out[b]`` = the column sums of resample b, for b < n_samples, of every system's rows side
    by side: resample b is row b of ``rng.choice(n, size=(n_samples, n), replace=True)`` for
    the PCG64 generator ``(state, increment)`` (128-bit ints, as ``pcg64.seeded_pcg64`` gives
    them); ``systems`` are (n, width) int64 buffers, one index draw serving them all. Returns
    True; or False, drawing nothing, where a sum could reach ``limit`` (n * max |value| >=
    limit), which is at most 2**31: the sums are added in int32."""
    if not 0 < limit <= 0x80000000:
        raise ValueError(f"resample_sums: limit must be in 1..2**31, got {limit}")
    cdef Py_ssize_t n_systems = len(systems), width, n, s, b, i, k, _draw
    if n_systems < 1:
        raise ValueError("resample_sums: systems is empty")
    views = [memoryview(x) for x in systems]
    cdef const int64_t[:, ::1] first = views[0]
    n, width = first.shape[0], first.shape[1]
    if n < 1 or n > 0xFFFFFFFF:
        raise ValueError(f"resample_sums: the number of segments must be in 1..2**32-1, got {n}")
    if out.shape[0] < n_samples or out.shape[1] != n_systems * width:
        raise ValueError("resample_sums: out must have n_samples rows of every system's columns")
    # Every system's row i side by side, in int32: one short contiguous run of columns to add
    # per draw, twice as many per vector instruction as int64 (A/B on en-zh, 4 x 2074 segments,
    # 1000 resamples: 46 ms per-system int64 loops, 26 ms stacked int64, 19 ms stacked int32).
    cdef Py_ssize_t columns = n_systems * width
    cdef int32_t* stacked = <int32_t*>malloc((n + 1) * columns * sizeof(int32_t))
    if stacked == NULL:
        raise MemoryError()
    cdef int32_t* acc = stacked + n * columns
    cdef int64_t largest = 0
    cdef const int64_t[:, ::1] view
    cdef tb_pcg64 pcg
    cdef tb_bitgen_t gen
    cdef uint32_t threshold = lemire_threshold(<uint32_t>n) if n > 1 else 0
    cdef uint32_t index = 0
    cdef const int32_t* src
    try:
        for s in range(n_systems):
            view = views[s]
            if view.shape[0] != n or view.shape[1] != width:
                raise ValueError("resample_sums: every system needs the same (n, width) shape")
            for i in range(n):
                for k in range(width):
                    largest = max(largest, abs(view[i, k]))
                    stacked[i * columns + s * width + k] = <int32_t>view[i, k]
        if largest > (limit - 1) // n:
            return False
        pcg.state_hi, pcg.state_lo = state >> 64, state & 0xFFFFFFFFFFFFFFFF
        pcg.inc_hi, pcg.inc_lo = increment >> 64, increment & 0xFFFFFFFFFFFFFFFF
        pcg.has_spare = 0
        gen.state = &pcg
        gen.next_uint32 = tb_pcg64_next32
        with nogil:
            for b in range(n_samples):
                memset(acc, 0, columns * sizeof(int32_t))
                for _draw in range(n):
                    if n > 1:           # NumPy draws nothing for a range of one value
                        index = bounded_draw(&gen, <uint32_t>n, threshold)
                    src = stacked + index * columns
                    for k in range(columns):
                        acc[k] += src[k]
                for k in range(columns):
                    out[b, k] = acc[k]
    finally:
        free(stacked)
    return True
