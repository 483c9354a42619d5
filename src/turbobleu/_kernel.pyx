# cython: language_level=3
"""N-gram counting and clipping over int32 id spans (see _kernel_py.py for the readable spec).

Input is CSR-packed: segment i's hypothesis is ``hyp_ids[hyp_off[i]:hyp_off[i+1]]``; its references
are the spans ``r`` in ``seg_ref_off[i]..seg_ref_off[i+1]``, each ``ref_ids[ref_off[r]:ref_off[r+1]]``.
Output row i is ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int64), sacrebleu's layout.

Every segment's hypothesis n-grams go into an open-addressing table. An n-gram's key is the pair
(slot of its (n-1)-gram prefix, its last id), so by induction equal keys mean equal id spans: a
lookup compares one 64-bit key, never trusts a hash, and a narrow ``hash_mask`` (the tests' way to
force collisions) changes nothing but speed.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

cdef inline uint64_t ngram_key(int64_t prefix_slot, int32_t token) noexcept nogil:
    """prefix_slot is -1 for unigrams."""
    return (<uint64_t>(prefix_slot + 1) << 32) | <uint64_t><uint32_t>token


cdef inline int64_t probe(Table* t, uint64_t start_mask, uint64_t wrap, uint64_t key) noexcept nogil:
    """Index of the live slot with this key, or of the empty slot where it belongs."""
    cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
    cdef int64_t i = <int64_t>((h ^ (h >> 29)) & start_mask)
    cdef Slot* s
    while True:
        s = &t.slots[i]
        if s.gen != t.gen or s.key == key:
            return i
        i = (i + 1) & <int64_t>wrap


cdef inline int64_t pow2_at_least(int64_t n) noexcept nogil:
    cdef int64_t c = 16
    while c < n:
        c <<= 1
    return c


cdef int table_reserve(Table* t, int max_order, int64_t longest) noexcept nogil:
    """Make room for a hypothesis of ``longest`` ids; 0 on success, -1 when memory runs out."""
    cdef int64_t need = pow2_at_least(2 * max_order * longest)
    cdef Slot* slots
    cdef int64_t* live
    if need > t.capacity:
        slots = <Slot*>calloc(need, sizeof(Slot))
        if slots == NULL:
            return -1
        free(t.slots)
        t.slots = slots
        t.capacity = need
        t.gen = 0
    if max_order * longest + 1 > t.live_cap:
        live = <int64_t*>malloc((max_order * longest + 1) * sizeof(int64_t))
        if live == NULL:
            return -1
        free(t.live)
        t.live = live
        t.live_cap = max_order * longest + 1
    return 0


cdef void table_init(Table* t) noexcept nogil:
    memset(t, 0, sizeof(Table))


cdef void table_release(Table* t) noexcept nogil:
    free(t.slots)
    free(t.live)
    free(t.pos)
    table_init(t)


cdef inline Slot* add_hyp_ngram(Table* t, uint64_t start_mask, uint64_t wrap, uint64_t key,
                               int order, int64_t* n_live) noexcept nogil:
    cdef int64_t idx = probe(t, start_mask, wrap, key)
    cdef Slot* s = &t.slots[idx]
    if s.gen != t.gen:
        s.gen = t.gen
        s.key = key
        s.order = order
        s.hyp_count = 0
        s.ref_max = 0
        s.ref_cur = 0
        s.ref_stamp = t.ref_stamp - 1
        t.live[n_live[0]] = idx
        n_live[0] += 1
    s.hyp_count += 1
    return s


cdef inline int64_t count_ref_ngram(Table* t, uint64_t start_mask, uint64_t wrap,
                                    uint64_t key) noexcept nogil:
    """Count one reference n-gram if the hypothesis has it; its slot, or -1."""
    cdef int64_t idx = probe(t, start_mask, wrap, key)
    cdef Slot* s = &t.slots[idx]
    if s.gen != t.gen:
        return -1
    if s.ref_stamp != t.ref_stamp:
        s.ref_stamp = t.ref_stamp
        s.ref_cur = 0
    s.ref_cur += 1
    if s.ref_cur > s.ref_max:
        s.ref_max = s.ref_cur
    return idx


cdef void count_segment(Table* t, int64_t* row, int max_order, uint64_t hash_mask,
                        const int32_t* hyp, int64_t hyp_len,
                        const int32_t* ref_ids, const int64_t* ref_off,
                        int64_t ref_first, int64_t ref_last) noexcept nogil:
    """One statistics row (``row`` must be zeroed).

    Order by order: an n-gram can only occur in a reference if its (n-1)-gram prefix does, so
    order n looks only at the positions whose prefix was found in some reference. ``t.pos`` keeps,
    per position, the slot of the n-gram starting there (or -1 once it cannot match any more).
    """
    cdef int64_t i, j, r, n_live = 0, rlen, best = -1, dist, best_dist = 0, p, active
    cdef int64_t ref_total = 0, base
    cdef int n
    cdef uint64_t wrap = <uint64_t>(pow2_at_least(2 * max_order * hyp_len) - 1)
    cdef uint64_t start_mask = wrap & hash_mask   # a narrow hash_mask forces collisions (tests)
    cdef Slot* s
    cdef const int32_t* ref
    cdef int64_t* grown
    cdef int64_t* hpos
    cdef int64_t* rpos

    for r in range(ref_first, ref_last):
        rlen = ref_off[r + 1] - ref_off[r]
        ref_total += rlen
        dist = rlen - hyp_len if rlen >= hyp_len else hyp_len - rlen
        if best < 0 or dist < best_dist or (dist == best_dist and rlen < best):
            best = rlen
            best_dist = dist
    row[0] = hyp_len
    row[1] = best  # -1 when the segment has no reference, as sacrebleu reports it
    for n in range(1, max_order + 1):
        row[1 + max_order + n] = hyp_len - n + 1 if hyp_len >= n else 0
    if hyp_len == 0 or ref_total == 0:
        return

    if hyp_len + ref_total > t.pos_cap:
        grown = <int64_t*>realloc(t.pos, (hyp_len + ref_total) * sizeof(int64_t))
        if grown == NULL:
            t.failed = 1
            row[0] = -1
            return
        t.pos = grown
        t.pos_cap = hyp_len + ref_total
    hpos = t.pos
    rpos = t.pos + hyp_len
    t.gen += 1
    if t.gen == 0:              # the generation counter wrapped: really empty the table
        memset(t.slots, 0, t.capacity * sizeof(Slot))
        t.gen = 1

    for n in range(1, max_order + 1):
        if hyp_len < n:
            break
        # Hypothesis n-grams whose prefix occurs in a reference.
        active = 0
        for i in range(hyp_len - n + 1):
            if n == 1:
                p = -1
            else:
                p = hpos[i]
                if p < 0 or t.slots[p].ref_max == 0:
                    hpos[i] = -1
                    continue
            hpos[i] = <int64_t>(add_hyp_ngram(t, start_mask, wrap, ngram_key(p, hyp[i + n - 1]),
                                              n, &n_live) - t.slots)
            active += 1
        if active == 0:
            break
        # Reference n-grams that extend a prefix the hypothesis shares; max count over references.
        base = 0
        for r in range(ref_first, ref_last):
            ref = ref_ids + ref_off[r]
            rlen = ref_off[r + 1] - ref_off[r]
            t.ref_stamp += 1
            for j in range(rlen - n + 1):
                if n == 1:
                    p = -1
                else:
                    p = rpos[base + j]
                    if p < 0:
                        continue
                rpos[base + j] = count_ref_ngram(t, start_mask, wrap, ngram_key(p, ref[j + n - 1]))
            base += rlen

    # Clip.
    for j in range(n_live):
        s = &t.slots[t.live[j]]
        row[1 + s.order] += s.hyp_count if s.hyp_count < s.ref_max else s.ref_max


cdef check_monotone(const int64_t[::1] off, str name):
    cdef Py_ssize_t k
    if off.shape[0] and off[0] < 0:
        raise ValueError(f"count_stats: {name} must be non-decreasing from 0")
    for k in range(off.shape[0] - 1):
        if off[k] > off[k + 1]:
            raise ValueError(f"count_stats: {name} must be non-decreasing from 0")


def count_stats(const int32_t[::1] hyp_ids, const int64_t[::1] hyp_off,
                const int32_t[::1] ref_ids, const int64_t[::1] ref_off,
                const int64_t[::1] seg_ref_off, int max_order, int64_t[:, ::1] out,
                Py_ssize_t seg_start=0, Py_ssize_t seg_end=-1,
                uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """Fill ``out[seg_start:seg_end]`` with the statistics rows of those segments.

    ``out`` must be zeroed and have ``2 + 2*max_order`` columns. The GIL is released while counting,
    so disjoint segment ranges may be counted from several threads at once. ``hash_mask`` exists for
    tests: a narrow mask forces hash collisions, which must not change any result.
    """
    cdef Py_ssize_t n_seg = hyp_off.shape[0] - 1
    if seg_end < 0:
        seg_end = n_seg
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if not (0 <= seg_start <= seg_end <= n_seg) or seg_ref_off.shape[0] != n_seg + 1:
        raise ValueError("count_stats: inconsistent segment offsets")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("count_stats: output array has the wrong shape")
    check_monotone(hyp_off, "hyp_off")
    check_monotone(ref_off, "ref_off")
    check_monotone(seg_ref_off, "seg_ref_off")
    if n_seg > 0 and (hyp_off[n_seg] > hyp_ids.shape[0]
                      or seg_ref_off[n_seg] > ref_off.shape[0] - 1
                      or (ref_off.shape[0] > 0 and ref_off[ref_off.shape[0] - 1] > ref_ids.shape[0])):
        raise ValueError("count_stats: offsets point past the id buffers")

    cdef int64_t longest = 0, seg
    for seg in range(seg_start, seg_end):
        if hyp_off[seg + 1] - hyp_off[seg] > longest:
            longest = hyp_off[seg + 1] - hyp_off[seg]
    cdef Table t
    table_init(&t)
    if table_reserve(&t, max_order, longest) < 0:
        table_release(&t)
        raise MemoryError("count_stats: cannot allocate the n-gram table")

    cdef const int32_t* hyp_base = &hyp_ids[0] if hyp_ids.shape[0] > 0 else NULL
    cdef const int32_t* ref_base = &ref_ids[0] if ref_ids.shape[0] > 0 else NULL
    cdef const int64_t* roff = &ref_off[0] if ref_off.shape[0] > 0 else NULL
    try:
        with nogil:
            for seg in range(seg_start, seg_end):
                count_segment(&t, &out[seg, 0], max_order, hash_mask,
                              hyp_base + hyp_off[seg] if hyp_base != NULL else NULL,
                              hyp_off[seg + 1] - hyp_off[seg],
                              ref_base, roff, seg_ref_off[seg], seg_ref_off[seg + 1])
        if t.failed:
            raise MemoryError("count_stats: out of memory")
    finally:
        table_release(&t)


# ---------------------------------------------------------------------------------------------
# sacrebleu's sentence recipe over many rows (recipes.sacrebleu_score is the readable spec; the
# operations and their order are the same, so the doubles are the same).
from libc.math cimport exp, log, fabs, isfinite

SMOOTH_CODES = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}


cdef double python_sum(const double* x, int n, bint neumaier) noexcept nogil:
    """The built-in sum() of n floats: left to right before Python 3.12, Neumaier-compensated
    (as CPython does it) from 3.12 on."""
    cdef double total = x[0], comp = 0.0, t
    cdef int i
    for i in range(1, n):
        if neumaier:
            t = total + x[i]
            if fabs(total) >= fabs(x[i]):
                comp += (total - t) + x[i]
            else:
                comp += (x[i] - t) + total
            total = t
        else:
            total += x[i]
    if neumaier and comp != 0.0 and isfinite(comp):
        total += comp
    return total


cdef double sacrebleu_row(const int64_t* row, int N, int method, double value,
                          bint value_is_int, bint effective_order, bint neumaier,
                          double* logs) noexcept nogil:
    cdef int64_t sys_len = row[0], ref_len = row[1]
    cdef double bp = 1.0, halvings = 1.0, p, c, t
    cdef int n, used = N
    cdef bint any_match = False
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(N):
        if row[2 + n] != 0:
            any_match = True
    if not any_match:
        return 0.0
    for n in range(N):
        logs[n] = 0.0
    for n in range(1, N + 1):
        c = <double>row[1 + n]
        t = <double>row[1 + N + n]
        if method == 2 and n > 1:   # add-k (an int k keeps the counts integral, as in Python)
            if value_is_int:
                c = <double>(row[1 + n] + <int64_t>value)
                t = <double>(row[1 + N + n] + <int64_t>value)
            else:
                c = c + value
                t = t + value
        if t == 0.0:
            break
        if effective_order:
            used = n
        if c == 0.0:
            if method == 3:
                halvings *= 2
                logs[n - 1] = 100. / (halvings * t)
            elif method == 1:
                logs[n - 1] = 100. * value / t
        else:
            logs[n - 1] = 100. * c / t
    for n in range(used):
        p = logs[n]
        if p == 0.0:        # sacrebleu's log(0) = -9999999999: the score is exactly 0
            return bp * 0.0
        logs[n] = log(p)
    return bp * exp(python_sum(logs, used, neumaier) / used)


def sacrebleu_sentence_scores(const int64_t[:, ::1] rows, int max_order, str smooth_method,
                              smooth_value, bint effective_order, bint neumaier,
                              double[::1] out):
    """out[i] = sacrebleu's score of statistics row i (see recipes.sacrebleu_score)."""
    cdef int method = SMOOTH_CODES[smooth_method]
    cdef double value = 0.0
    cdef bint value_is_int = True
    cdef Py_ssize_t i
    if smooth_value is None:
        smooth_value = {1: 0.1, 2: 1}.get(method, 0)
    value_is_int = isinstance(smooth_value, int)
    value = smooth_value
    if rows.shape[1] != 2 + 2 * max_order or out.shape[0] != rows.shape[0]:
        raise ValueError("sacrebleu_sentence_scores: shapes do not match")
    cdef double* logs = <double*>malloc(max_order * sizeof(double))
    if logs == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(rows.shape[0]):
                out[i] = sacrebleu_row(&rows[i, 0], max_order, method, value, value_is_int,
                                       effective_order, neumaier, logs)
    finally:
        free(logs)
