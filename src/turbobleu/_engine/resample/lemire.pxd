# A bounded draw as NumPy makes it, from any generator behind NumPy's C interface (``bitgen_t``):
# _resample.pyx draws through NumPy's own generators, _draws.pyx through its PCG64 without NumPy.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    """
    typedef struct {            /* numpy/random/bitgen.h: bitgen_t */
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } tb_bitgen_t;
    """
    ctypedef struct tb_bitgen_t:
        void *state
        uint32_t (*next_uint32)(void *st) noexcept nogil


cdef inline uint32_t lemire_threshold(uint32_t n) noexcept nogil:
    """Below this, a draw for [0, n) is rejected: (2**32 - n) % n."""
    cdef uint32_t wrapped = 0
    wrapped -= n                # 2**32 - n, in uint32 arithmetic
    return wrapped % n


cdef inline uint32_t bounded_draw(tb_bitgen_t* g, uint32_t n, uint32_t threshold) noexcept nogil:
    """An integer in [0, n), n >= 2, as NumPy draws it (``buffered_bounded_lemire_uint32``);
    for n == 1 NumPy draws nothing, which callers handle."""
    cdef uint64_t m = <uint64_t>g.next_uint32(g.state) * n
    cdef uint32_t leftover = <uint32_t>m
    if leftover < n:
        while leftover < threshold:     # rejection keeps the draw unbiased
            m = <uint64_t>g.next_uint32(g.state) * n
            leftover = <uint32_t>m
    return <uint32_t>(m >> 32)
