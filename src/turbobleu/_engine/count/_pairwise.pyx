# cython: language_level=3
# cython: freethreading_compatible=True
"""Statistics rows of every hypothesis against every single reference (see _pairwise_py.py for
the readable spec).

Texts are CSR-packed (text t is ``ids[off[t]:off[t+1]]``); hypotheses and references are texts of
one packing, so that an n-gram gets one number wherever it occurs. Each text is reduced once to
its profile: per order, its distinct n-gram numbers with their counts. A block of columns
(references) is turned into postings: per n-gram, the columns holding it and their counts. A
hypothesis row then visits only the (n-gram, column) pairs it shares, so unrelated texts cost
almost nothing and no cell re-hashes a text.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL   # the key of an unused slot


cdef struct GramTable:
    uint64_t* keys      # (number of the (n-1)-gram prefix + 1) << 32 | last id: exact identity
    int32_t* values     # the n-gram's number
    uint64_t mask       # capacity - 1 (a power of two)
    int64_t used


cdef inline uint64_t slot_of(uint64_t key, uint64_t mask) noexcept nogil:
    # The product's high half depends on every bit of the key.
    return ((key * 0x9E3779B97F4A7C15ULL) >> 32) & mask


cdef int gram_table_init(GramTable* t, int64_t capacity) noexcept nogil:
    cdef int64_t i
    t.keys = <uint64_t*>malloc(capacity * sizeof(uint64_t))
    t.values = <int32_t*>malloc(capacity * sizeof(int32_t))
    if t.keys == NULL or t.values == NULL:
        return -1
    for i in range(capacity):
        t.keys[i] = EMPTY
    t.mask = <uint64_t>(capacity - 1)
    t.used = 0
    return 0


cdef void gram_table_free(GramTable* t) noexcept nogil:
    free(t.keys)
    free(t.values)
    t.keys = NULL
    t.values = NULL


cdef int gram_table_grow(GramTable* t) noexcept nogil:
    """Double the capacity, keeping every key's number."""
    cdef GramTable bigger
    cdef uint64_t i, j
    if gram_table_init(&bigger, <int64_t>(2 * (t.mask + 1))) != 0:
        gram_table_free(&bigger)
        return -1
    for i in range(t.mask + 1):
        if t.keys[i] != EMPTY:
            j = slot_of(t.keys[i], bigger.mask)
            while bigger.keys[j] != EMPTY:
                j = (j + 1) & bigger.mask
            bigger.keys[j] = t.keys[i]
            bigger.values[j] = t.values[i]
    bigger.used = t.used
    gram_table_free(t)
    t[0] = bigger
    return 0


cdef inline int64_t number_of(GramTable* t, uint64_t key) noexcept nogil:
    """The n-gram's number, a new one (t.used) if the key is new; -1 when memory runs out."""
    cdef uint64_t i = slot_of(key, t.mask)
    cdef uint64_t k
    while True:
        k = t.keys[i]
        if k == key:
            return t.values[i]
        if k == EMPTY:
            break
        i = (i + 1) & t.mask
    if 2 * (t.used + 1) > <int64_t>(t.mask + 1):   # keep it at most half full
        if gram_table_grow(t) != 0:
            return -1
        i = slot_of(key, t.mask)
        while t.keys[i] != EMPTY:
            i = (i + 1) & t.mask
    t.keys[i] = key
    t.values[i] = <int32_t>t.used
    t.used += 1
    return t.used - 1


cdef int grow_seen(int32_t** text, int64_t** at, int64_t* cap, int64_t need) noexcept nogil:
    """Room for ``need`` entries in the per-n-gram arrays (doubling)."""
    cdef int64_t c = cap[0]
    cdef void* q
    if need <= c:
        return 0
    while c < need:
        c *= 2
    q = realloc(text[0], c * sizeof(int32_t))
    if q == NULL:
        return -1
    text[0] = <int32_t*>q
    q = realloc(at[0], c * sizeof(int64_t))
    if q == NULL:
        return -1
    at[0] = <int64_t*>q
    cap[0] = c
    return 0


def ngram_profiles(const int32_t[::1] ids, const int64_t[::1] off, int max_order):
    """``(prof_off, prof_gram, prof_count, n_grams)``: text t's distinct n-grams of order n
    (1..max_order) are ``prof_gram[prof_off[t*max_order + n-1] : prof_off[t*max_order + n]]``,
    numbered 0..n_grams-1 across all texts, each with its count in t."""
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    cdef Py_ssize_t n_texts = off.shape[0] - 1
    if n_texts < 0:
        raise ValueError("off must hold at least one offset")
    cdef int64_t total = 0, longest = 0, L, t, p, s, cnt, g, e = 0
    cdef int n
    for t in range(n_texts):
        L = off[t + 1] - off[t]
        if L < 0 or off[t] < 0 or off[t + 1] > ids.shape[0]:
            raise ValueError(f"off is not a valid CSR offset array at text {t}")
        longest = max(longest, L)
        for n in range(1, max_order + 1):
            total += max(<int64_t>0, L - n + 1)
    prof_off = np.zeros(n_texts * max_order + 1, dtype=np.int64)
    prof_gram = np.empty(max(total, 1), dtype=np.int32)
    prof_count = np.empty(max(total, 1), dtype=np.int32)
    cdef int64_t[::1] po = prof_off
    cdef int32_t[::1] pg = prof_gram
    cdef int32_t[::1] pc = prof_count
    cdef GramTable table
    cdef int64_t seen_cap = 1024, seen_n = 0
    cdef int32_t* seen_text = <int32_t*>malloc(seen_cap * sizeof(int32_t))
    cdef int64_t* seen_at = <int64_t*>malloc(seen_cap * sizeof(int64_t))
    cdef int32_t* prefix = <int32_t*>malloc(max(longest, 1) * sizeof(int32_t))
    cdef int64_t capacity = 1024
    cdef int failed = 0
    cdef uint64_t key
    while capacity < 2 * min(total, <int64_t>1 << 22):
        capacity *= 2
    if gram_table_init(&table, capacity) != 0 or seen_text == NULL or seen_at == NULL \
            or prefix == NULL:
        failed = 1
    try:
        with nogil:
            t = 0
            while t < n_texts and not failed:
                s = off[t]
                L = off[t + 1] - s
                for n in range(1, max_order + 1):
                    cnt = L - n + 1
                    p = 0
                    while p < cnt:
                        key = <uint64_t><uint32_t>ids[s + p + n - 1]
                        if n > 1:
                            key |= <uint64_t>(prefix[p] + 1) << 32
                        g = number_of(&table, key)
                        if g < 0:
                            failed = 1
                            break
                        if g == table.used - 1 and g >= seen_n:   # a new n-gram
                            if grow_seen(&seen_text, &seen_at, &seen_cap, g + 1) != 0:
                                failed = 1
                                break
                            seen_text[g] = -1   # seen in no text yet
                            seen_n = g + 1
                        prefix[p] = <int32_t>g
                        if seen_text[g] == t:
                            pc[seen_at[g]] += 1
                        else:
                            seen_text[g] = <int32_t>t
                            seen_at[g] = e
                            pg[e] = <int32_t>g
                            pc[e] = 1
                            e += 1
                        p += 1
                    if failed:
                        break
                    po[t * max_order + n] = e
                t += 1
    finally:
        n_grams = table.used
        gram_table_free(&table)
        free(seen_text)
        free(seen_at)
        free(prefix)
    if failed:
        raise MemoryError("ngram_profiles: out of memory")
    return prof_off, prof_gram[:e].copy(), prof_count[:e].copy(), n_grams


cdef check_block(int64_t start, int64_t end, int64_t n_texts, str what):
    if not 0 <= start <= end <= n_texts:
        raise ValueError(f"{what} range {start}..{end} is outside 0..{n_texts}")


def column_postings(const int64_t[::1] prof_off, const int32_t[::1] prof_gram,
                    const int32_t[::1] prof_count, int64_t n_grams, int max_order,
                    int64_t c_start, int64_t c_end):
    """``(post_off, post_col, post_count)``: for n-gram g, the texts ``c_start + post_col[q]``
    holding it, with their counts ``post_count[q]``, for q in ``post_off[g]..post_off[g+1]``
    (columns ascending)."""
    check_block(c_start, c_end, (prof_off.shape[0] - 1) // max_order, "column")
    cdef int64_t e0 = prof_off[c_start * max_order], e1 = prof_off[c_end * max_order]
    post_off = np.zeros(n_grams + 1, dtype=np.int64)
    post_col = np.empty(max(e1 - e0, 1), dtype=np.int32)
    post_count = np.empty(max(e1 - e0, 1), dtype=np.int32)
    cdef int64_t[::1] po = post_off
    cdef int32_t[::1] pcol = post_col
    cdef int32_t[::1] pcnt = post_count
    cdef int64_t c, e, g, q
    for e in range(e0, e1):
        if not 0 <= prof_gram[e] < n_grams:
            raise ValueError(f"prof_gram[{e}] = {prof_gram[e]} is not below n_grams")
    cdef int64_t* cursor = <int64_t*>malloc(max(n_grams, 1) * sizeof(int64_t))
    if cursor == NULL:
        raise MemoryError()
    with nogil:
        for e in range(e0, e1):
            po[prof_gram[e] + 1] += 1
        for g in range(n_grams):
            po[g + 1] += po[g]
            cursor[g] = po[g]
        for c in range(c_start, c_end):
            for e in range(prof_off[c * max_order], prof_off[(c + 1) * max_order]):
                g = prof_gram[e]
                q = cursor[g]
                cursor[g] = q + 1
                pcol[q] = <int32_t>(c - c_start)
                pcnt[q] = prof_count[e]
    free(cursor)
    return post_off, post_col[:e1 - e0], post_count[:e1 - e0]


def pairwise_stats(const int64_t[::1] prof_off, const int32_t[::1] prof_gram,
                   const int32_t[::1] prof_count, const int64_t[::1] lengths, int max_order,
                   const int64_t[::1] post_off, const int32_t[::1] post_col,
                   const int32_t[::1] post_count, int64_t r_start, int64_t r_end,
                   int64_t c_start, int64_t c_end, int64_t[:, ::1] out):
    """Row ``(i - r_start) * (c_end - c_start) + (j - c_start)`` of ``out`` = the statistics
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` of text i (i in ``r_start..r_end``)
    against text j alone (j in ``c_start..c_end``, the columns of the postings)."""
    cdef int64_t n_texts = lengths.shape[0]
    check_block(r_start, r_end, n_texts, "row")
    check_block(c_start, c_end, n_texts, "column")
    cdef int64_t nc = c_end - c_start
    if prof_off.shape[0] != n_texts * max_order + 1:
        raise ValueError("prof_off does not match lengths and max_order")
    if out.shape[0] != (r_end - r_start) * nc or out.shape[1] != 2 + 2 * max_order:
        raise ValueError(f"out must have shape ({(r_end - r_start) * nc}, {2 + 2 * max_order})")
    if post_off.shape[0] < 1 or post_off[post_off.shape[0] - 1] > post_col.shape[0] \
            or post_col.shape[0] != post_count.shape[0]:
        raise ValueError("the postings are not a valid CSR")
    cdef int64_t n_grams = post_off.shape[0] - 1
    cdef int64_t e, q, g, i, j, hyp_len, ch, cr
    cdef int n
    cdef int64_t* row
    cdef int64_t* band
    for e in range(prof_off[r_start * max_order], prof_off[r_end * max_order]):
        if not 0 <= prof_gram[e] < n_grams:
            raise ValueError(f"prof_gram[{e}] = {prof_gram[e]} has no postings")
    for q in range(post_off[n_grams]):
        if not 0 <= post_col[q] < nc:
            raise ValueError(f"post_col[{q}] = {post_col[q]} is outside the {nc} columns")
    if out.shape[0] == 0:
        return
    with nogil:
        for i in range(r_start, r_end):
            band = &out[(i - r_start) * nc, 0]
            hyp_len = lengths[i]
            for j in range(nc):
                row = band + j * (2 + 2 * max_order)
                row[0] = hyp_len
                row[1] = lengths[c_start + j]
                for n in range(max_order):
                    row[2 + n] = 0
                    row[2 + max_order + n] = hyp_len - n if hyp_len > n else 0
            for n in range(max_order):
                for e in range(prof_off[i * max_order + n], prof_off[i * max_order + n + 1]):
                    g = prof_gram[e]
                    ch = prof_count[e]
                    for q in range(post_off[g], post_off[g + 1]):
                        cr = post_count[q]
                        band[post_col[q] * (2 + 2 * max_order) + 2 + n] += ch if ch < cr else cr
