# What every n-gram table of the count stage shares: exact keys, their hash, power-of-two sizes
# and the check of CSR offsets. Inline here, so that each module's probing loops keep them inlined.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef extern from *:
    """
    #define TB_EMPTY_KEY 0xFFFFFFFFFFFFFFFFULL
    """
    const uint64_t EMPTY "TB_EMPTY_KEY"   # the key of an unused slot (all bits set)


cdef inline uint64_t ngram_key(int64_t prefix_slot, int32_t token) noexcept nogil:
    """(slot of the (n-1)-gram prefix + 1) << 32 | last id; prefix_slot is -1 for unigrams. By
    induction equal keys are equal id spans: a lookup compares keys and never trusts a hash."""
    return (<uint64_t>(prefix_slot + 1) << 32) | <uint64_t><uint32_t>token


cdef inline uint64_t key_hash(uint64_t key) noexcept nogil:
    """32 bits where a key's probe starts: the product's high half, which depends on every bit
    of the key (its low bits see only the last id, so n-grams ending in the same id would crowd
    together there)."""
    return (key * 0x9E3779B97F4A7C15ULL) >> 32


cdef inline uint64_t scaled_start(uint64_t key, uint64_t hmask, uint64_t cap) noexcept nogil:
    """Where a key's probe starts in a table of exactly ``cap`` slots (not a power of two); a
    narrow ``hmask`` (a test hook) forces collisions."""
    return ((key_hash(key) & hmask) * cap) >> 32


cdef inline uint64_t probe_slot(const uint64_t* keys, int stride, uint64_t cap, uint64_t hmask,
                                uint64_t key) noexcept nogil:
    """The slot of ``key``, or of the empty slot where it would go, in an exact-size table of
    ``cap`` slots whose slot s has its key at ``keys[stride * s]``."""
    cdef uint64_t s = scaled_start(key, hmask, cap)
    cdef uint64_t k
    while True:
        k = keys[stride * s]
        if k == key or k == EMPTY:
            return s
        s += 1
        if s == cap:
            s = 0


cdef inline uint64_t slot_of_present(const uint64_t* keys, int stride, uint64_t cap,
                                     uint64_t hmask, uint64_t key) noexcept nogil:
    """``probe_slot`` of a key the table holds: no test for the empty slot (measured: that test
    cost 5.7% of ``score_self_table``'s instructions)."""
    cdef uint64_t s = scaled_start(key, hmask, cap)
    while keys[stride * s] != key:
        s += 1
        if s == cap:
            s = 0
    return s


cdef inline int64_t exact_capacity(int64_t entries) noexcept nogil:
    """Slots of an exact-size table for ``entries`` keys: load at most 2/3, and always one empty
    slot (so that a probe for an absent key ends)."""
    return entries + entries // 2 + 1


cdef inline int64_t pow2_at_least(int64_t n) noexcept nogil:
    cdef int64_t c = 16
    while c < n:
        c <<= 1
    return c


cdef inline int64_t ngram_occurrences(int64_t length, int max_order) noexcept nogil:
    """The n-grams of orders 1..max_order in a sequence of ``length`` ids."""
    cdef int64_t total = 0
    cdef int n
    for n in range(1, max_order + 1):
        if length >= n:
            total += length - n + 1
    return total


cdef inline check_monotone(const int64_t[::1] off, str name):
    cdef Py_ssize_t k
    if off.shape[0] and off[0] < 0:
        raise ValueError(f"{name} must be non-decreasing from 0")
    for k in range(off.shape[0] - 1):
        if off[k] > off[k + 1]:
            raise ValueError(f"{name} must be non-decreasing from 0")
