# Declarations shared with bleu/_text_rows.pyx and _intern.pyx (their fused paths count with this
# kernel's tables).
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef struct Slot:
    uint64_t key        # (slot of the (n-1)-gram prefix + 1) << 32 | last token: exact identity;
                        # all ones when the slot is unused
    int32_t hyp_count
    int32_t ref_max     # max count over the references counted so far (with one reference:
                        # its count, growing while it is scanned)

cdef struct Uni:
    int32_t hyp_count   # unigram counts of one token id, kept apart from the slots when the
    int32_t ref_max     # ids are dense (see count_segment's n_ids); same meanings as in Slot
    int32_t ref_cur     # and Table.ref_cur
    uint32_t stamp      # the segment (Table.stamp) that claimed it; any other: free

cdef struct Table:
    Slot* slots         # 16 bytes each
    int32_t* ref_cur    # per slot: its count within the current reference; meaningful only
                        # for claimed slots of segments with several references (reset when
                        # claimed and by fold_reference; garbage otherwise). Kept apart so
                        # that the slots stay small.
    int64_t* live       # the slots used by the current segment: index | order << 32
    int64_t capacity    # allocated slots (a power of two)
    int64_t live_cap
    int64_t* pos        # per hypothesis/reference position: slot of the n-gram starting there
    int64_t pos_cap
    int failed          # set when memory ran out inside count_segment
    Uni* uni            # per token id below the call's n_ids, and entry n_ids for id -1
    int64_t uni_cap
    uint32_t stamp      # counts the segments counted with uni (0: none yet)

cdef enum:
    TABLE_FOR_CORPUS = 0      # the scratch.h slots of the tables kept between calls, per thread
    TABLE_FOR_SENTENCE = 1

cdef void table_init(Table* t) noexcept nogil
cdef int table_reserve(Table* t, int max_order, int64_t longest) noexcept nogil
cdef int table_reserve_ids(Table* t, int64_t n_ids) noexcept nogil
cdef void table_release(Table* t) noexcept nogil
cdef int64_t table_bytes(const Table* t) noexcept nogil
cdef Table* table_take(int slot) noexcept nogil
cdef void table_warm(Table* t, int max_order, int64_t longest, int64_t n_ids) noexcept nogil
cdef void table_give(Table* t, int slot) noexcept nogil
cdef int64_t kept_table_bytes(int slot) noexcept nogil
cdef void count_segment(Table* t, int64_t* row, int max_order, uint64_t hash_mask,
                        const int32_t* hyp, int64_t hyp_len,
                        const int32_t* ref_ids, const int64_t* ref_off,
                        int64_t ref_first, int64_t ref_last, int64_t n_ids) noexcept nogil
