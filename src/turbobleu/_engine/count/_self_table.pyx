# cython: language_level=3
# cython: freethreading_compatible=True
"""Self-BLEU tables (``batch.self_bleu``): each text against all the others, from one table over
all texts (``_self_table_py.py`` is the readable twin).

For each n-gram the table keeps the largest count in any one text (max1, and the text that has
it) and the largest count in any other text (max2). Text i's references are all the other texts,
so its clip for an n-gram is max2 when it owns max1, else max1. Slot s is the words
table[3s..3s+2] = key, max1 | max2 << 32, owner; keys are ``ngram_keys.ngram_key``. Loaded on
first use (``count.chosen.self_table()``): it needs NumPy for its arrays.
"""
import numpy as _np

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from turbobleu._engine.count.batch_table cimport (BSlot, BTable, bt_init, bt_next_generation,
                                                  bt_probe, bt_release, bt_reserve)
from turbobleu._engine.count.ngram_keys cimport (EMPTY, check_monotone, exact_capacity, ngram_key,
                                                 ngram_occurrences, pow2_at_least, probe_slot,
                                                 slot_of_present)


def build_self_table(const int32_t[::1] ids, const int64_t[::1] off, int max_order,
                     uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """The self-BLEU table of texts ``ids[off[i]:off[i+1]]``: ``(table uint64, capacity)``."""
    cdef Py_ssize_t n_txt = off.shape[0] - 1
    cdef int64_t occ = 0, i, j, tlen, prefix, cap
    cdef int n, top
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if n_txt > 0x7FFFFFFF:
        raise ValueError("self-BLEU takes at most 2**31-1 texts")
    check_monotone(off, "off")
    if n_txt > 0 and off[n_txt] > ids.shape[0]:
        raise ValueError("build_self_table: offsets point past the id buffer")
    for i in range(n_txt):
        occ += ngram_occurrences(off[i + 1] - off[i], max_order)
    cap = exact_capacity(occ)
    if cap >= 0x7FFFFFFF:
        raise ValueError(f"the texts have {occ} n-grams; at most about 1.4e9 fit in one table")
    table = _np.empty(3 * cap, dtype=_np.uint64)
    cdef uint64_t[::1] tv = table
    cdef int32_t* cur = <int32_t*>malloc(cap * sizeof(int32_t) + 1)
    cdef int32_t* stamp = <int32_t*>malloc(cap * sizeof(int32_t) + 1)
    cdef uint64_t key, slot, word, hmask = hash_mask & 0xFFFFFFFFULL
    cdef uint32_t max1, max2, count
    cdef uint64_t* tab
    cdef const int32_t* txt
    if cur == NULL or stamp == NULL:
        free(cur)
        free(stamp)
        raise MemoryError("build_self_table: cannot allocate the scratch counts")
    try:
        with nogil:
            tab = &tv[0]
            for slot in range(<uint64_t>cap):
                tab[3 * slot] = EMPTY
                tab[3 * slot + 1] = 0
                tab[3 * slot + 2] = 0xFFFFFFFFULL
                stamp[slot] = -1
            for j in range(n_txt):
                txt = &ids[0] + off[j]
                tlen = off[j + 1] - off[j]
                for i in range(tlen):
                    prefix = -1
                    top = max_order if tlen - i >= max_order else <int>(tlen - i)
                    for n in range(1, top + 1):
                        key = ngram_key(prefix, txt[i + n - 1])
                        slot = probe_slot(tab, 3, <uint64_t>cap, hmask, key)
                        tab[3 * slot] = key
                        if stamp[slot] != <int32_t>j:
                            stamp[slot] = <int32_t>j
                            cur[slot] = 0
                        cur[slot] += 1
                        count = <uint32_t>cur[slot]
                        word = tab[3 * slot + 1]
                        max1 = <uint32_t>(word & 0xFFFFFFFFULL)
                        max2 = <uint32_t>(word >> 32)
                        if tab[3 * slot + 2] == <uint64_t>j:
                            max1 = count
                        elif count > max1:
                            max2 = max1
                            max1 = count
                            tab[3 * slot + 2] = <uint64_t>j
                        elif count > max2:
                            max2 = count
                        tab[3 * slot + 1] = <uint64_t>max1 | (<uint64_t>max2 << 32)
                        prefix = <int64_t>slot
    finally:
        free(cur)
        free(stamp)
    return table, cap


def score_self_table(const uint64_t[::1] table, int64_t cap, int table_order,
                     const int32_t[::1] ids, const int64_t[::1] off, int max_order,
                     int64_t[:, ::1] out, Py_ssize_t seg_start=0, Py_ssize_t seg_end=-1,
                     uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """Rows of texts ``seg_start..seg_end``, each against all the other texts (the table must be
    ``build_self_table`` of the same texts). ``ref_len`` (column 1) is left as -1: the caller
    picks it from the other texts' lengths. The GIL is released."""
    cdef Py_ssize_t n_txt = off.shape[0] - 1
    if seg_end < 0:
        seg_end = n_txt
    if not (1 <= max_order <= table_order):
        raise ValueError(f"max_order must be in 1..{table_order} (the table's order), "
                         f"got {max_order}")
    if not (0 <= seg_start <= seg_end <= n_txt) or table.shape[0] != 3 * cap:
        raise ValueError("score_self_table: inconsistent arguments")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("score_self_table: output array has the wrong shape")
    cdef int64_t seg, longest = 0, i, tlen, prefix, idx
    cdef int n, top
    cdef uint64_t slot, word, limit, wrap, hmask = hash_mask & 0xFFFFFFFFULL
    cdef const int32_t* txt
    cdef int64_t* row
    cdef BSlot* s
    for seg in range(seg_start, seg_end):
        if off[seg + 1] - off[seg] > longest:
            longest = off[seg + 1] - off[seg]
    cdef BTable used
    bt_init(&used)
    if bt_reserve(&used, max_order * longest) < 0:
        bt_release(&used)
        raise MemoryError("score_self_table: cannot allocate the scratch table")
    cdef const uint64_t* tab = &table[0] if cap > 0 else NULL
    try:
        with nogil:
            for seg in range(seg_start, seg_end):
                row = &out[seg, 0]
                txt = &ids[0] + off[seg] if ids.shape[0] > 0 else NULL
                tlen = off[seg + 1] - off[seg]
                for n in range(2 * max_order + 2):
                    row[n] = 0
                row[0] = tlen
                row[1] = -1
                for n in range(1, max_order + 1):
                    row[1 + max_order + n] = tlen - n + 1 if tlen >= n else 0
                if tlen == 0:
                    continue
                wrap = <uint64_t>(pow2_at_least(2 * max_order * tlen) - 1)
                bt_next_generation(&used)
                for i in range(tlen):
                    prefix = -1
                    top = max_order if tlen - i >= max_order else <int>(tlen - i)
                    for n in range(1, top + 1):
                        # the text's own n-grams are all in the table
                        slot = slot_of_present(tab, 3, <uint64_t>cap, hmask,
                                               ngram_key(prefix, txt[i + n - 1]))
                        word = tab[3 * slot + 1]
                        limit = (word >> 32) if tab[3 * slot + 2] == <uint64_t>seg \
                            else (word & 0xFFFFFFFFULL)
                        if limit == 0:                   # no other text has it, nor its extensions
                            break
                        idx = bt_probe(&used, wrap, wrap, slot)
                        s = &used.slots[idx]
                        if s.gen != used.gen:
                            s.gen = used.gen
                            s.key = slot
                            s.count = 0
                        if <uint64_t>s.count < limit:
                            s.count += 1
                            row[1 + n] += 1
                        prefix = <int64_t>slot
    finally:
        bt_release(&used)
