# The token-id batch path's small open-addressing table (BTable), shared by _ref_tables.pyx and
# _self_table.pyx: n-gram keys (ngram_keys.ngram_key, exact) or region slots -> counts. It is
# emptied in O(1) by starting a new generation. (count_stats' Table is tuned for counting and may
# change with it.) Inline, so that the probing loops keep it inlined.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from turbobleu._engine.count.ngram_keys cimport key_hash, pow2_at_least


cdef struct BSlot:
    uint64_t key
    uint32_t gen        # live only when gen == the table's generation
    uint32_t stamp      # which reference ``cur`` counts for
    int32_t count       # max count over references (collect) or matches used (score)
    int32_t cur         # count within reference ``stamp``
    int64_t moved       # the slot this n-gram got in its group region (emit)

cdef struct BTable:
    BSlot* slots
    int64_t* live       # slots used in this generation, in first-seen order
    int64_t capacity    # a power of two
    int64_t live_cap
    uint32_t gen
    uint32_t stamp


cdef inline void bt_init(BTable* t) noexcept nogil:
    memset(t, 0, sizeof(BTable))


cdef inline void bt_release(BTable* t) noexcept nogil:
    free(t.slots)
    free(t.live)
    bt_init(t)


cdef inline int bt_reserve(BTable* t, int64_t entries) noexcept nogil:
    """Room for ``entries`` distinct keys at load <= 1/2; 0, or -1 when memory runs out."""
    cdef int64_t need = pow2_at_least(2 * entries)
    cdef BSlot* slots
    cdef int64_t* live
    if need > t.capacity:
        slots = <BSlot*>calloc(need, sizeof(BSlot))
        if slots == NULL:
            return -1
        free(t.slots)
        t.slots = slots
        t.capacity = need
        t.gen = 0
    if entries + 1 > t.live_cap:
        live = <int64_t*>malloc((entries + 1) * sizeof(int64_t))
        if live == NULL:
            return -1
        free(t.live)
        t.live = live
        t.live_cap = entries + 1
    return 0


cdef inline void bt_next_generation(BTable* t) noexcept nogil:
    t.gen += 1
    if t.gen == 0:              # wrapped: really empty the table
        memset(t.slots, 0, t.capacity * sizeof(BSlot))
        t.gen = 1


cdef inline int64_t bt_probe(BTable* t, uint64_t start_mask, uint64_t wrap,
                             uint64_t key) noexcept nogil:
    """Index of the live slot with this key, or of the free slot where it belongs."""
    cdef int64_t i = <int64_t>(key_hash(key) & start_mask)
    cdef BSlot* s
    while True:
        s = &t.slots[i]
        if s.gen != t.gen or s.key == key:
            return i
        i = (i + 1) & <int64_t>wrap
