# What the compiled text modules (_tokenize, _chrf) do alike to their C arrays: grow them (one
# realloc policy) and compare code-point spans. Inline, so that their loops keep them inlined.
from libc.stdint cimport int64_t, uint32_t
from libc.stdlib cimport realloc


cdef inline int grow_array(void** data, int64_t* cap, int64_t want, size_t item) noexcept nogil:
    """Room for ``want`` items of ``item`` bytes in the array ``data[0]`` of ``cap[0]`` items:
    at least doubled, so that appending one item at a time stays linear, and never NULL, even
    for 0 items (memcpy of 0 bytes to or from NULL is undefined). -1 when memory runs out, the
    array then left as it was."""
    cdef int64_t new_cap = 2 * cap[0]
    cdef void* p
    if want <= cap[0] and data[0] != NULL:
        return 0
    if new_cap < want:
        new_cap = want
    if new_cap < 64:
        new_cap = 64
    p = realloc(data[0], new_cap * item)
    if p == NULL:
        return -1
    data[0] = p
    cap[0] = new_cap
    return 0


cdef inline bint same_span(const uint32_t* a, const uint32_t* b, int64_t n) noexcept nogil:
    """Whether the ``n`` code points at ``a`` and at ``b`` are equal."""
    cdef int64_t i
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True
