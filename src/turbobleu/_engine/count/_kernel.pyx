# cython: language_level=3
# cython: freethreading_compatible=True
"""N-gram counting and clipping over int32 id spans (see _kernel_py.py for the readable spec).

Input is CSR-packed: segment i's hypothesis is ``hyp_ids[hyp_off[i]:hyp_off[i+1]]``; its references
are the spans ``r`` in ``seg_ref_off[i]..seg_ref_off[i+1]``, each
``ref_ids[ref_off[r]:ref_off[r+1]]``.
Output row i is ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int64), sacrebleu's layout.

Every segment's hypothesis n-grams go into an open-addressing table. An n-gram's key is the pair
(slot of its (n-1)-gram prefix, its last id), so by induction equal keys mean equal id spans: a
lookup compares one 64-bit key, never trusts a hash, and a narrow ``hash_mask`` (the tests' way to
force collisions) changes nothing but speed.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from turbobleu._engine.count.ngram_keys cimport (EMPTY, check_monotone, key_hash, ngram_key,
                                                 pow2_at_least)
from turbobleu._engine.scratch cimport (tb_scratch_give, tb_scratch_peek, tb_scratch_take,
                                        warm_memory)

# A key's high half stays below 0xC0000000 (a slot index is below DENSE_BASE, a dense prefix at
# most DENSE_BASE + MAX_DENSE_IDS), so no key is EMPTY.
cdef enum:
    ORDER_SHIFT = 32    # t.live entries: slot index | order << ORDER_SHIFT
    MAX_DENSE_IDS = 0x7FFFFFFF - 1   # ids below it: DENSE_BASE + id + 1 fits a key's high half
    DENSE_BASE = 1 << 30    # prefix of a bigram whose unigram is token id u (dense ids): u + this;
                            # slot indexes stay below it, so the two never meet in a key


cdef inline int64_t probe(Table* t, uint64_t start_mask, uint64_t wrap,
                          uint64_t key) noexcept nogil:
    """Index of the slot with this key, or of the empty slot where it belongs."""
    cdef int64_t i = <int64_t>(key_hash(key) & start_mask)
    cdef uint64_t k
    while True:
        k = t.slots[i].key
        if k == key or k == EMPTY:
            return i
        i = (i + 1) & <int64_t>wrap


cdef inline int64_t table_size(int max_order, int64_t hyp_len) noexcept nogil:
    """Slots for a hypothesis' n-grams: at most 1/8 full for ordinary segments, so that most
    probes end at their first slot; 1/2 for very long ones, to bound the memory. (1/16 counts
    faster in a warm loop but slower where the caches start cold, as after another library's
    call; 1/4 the other way round.) Never smaller for a longer hypothesis: a corpus reserves the
    table for its longest one, and every shorter segment must fit in it too."""
    cdef int64_t entries = max_order * hyp_len
    if entries <= 8192:
        return pow2_at_least(8 * entries)
    return pow2_at_least(2 * entries if 2 * entries > 65536 else 65536)


cdef int table_reserve_ids(Table* t, int64_t n_ids) noexcept nogil:
    """Make room for unigram entries of ids 0..n_ids-1 (count_segment's dense ids) and -1 (the
    entry after them); 0 on success, -1 when memory runs out. New entries are free (stamp 0)."""
    cdef Uni* grown
    if n_ids + 1 > t.uni_cap:
        grown = <Uni*>realloc(t.uni, (n_ids + 1) * sizeof(Uni))
        if grown == NULL:
            return -1
        memset(grown + t.uni_cap, 0, (n_ids + 1 - t.uni_cap) * sizeof(Uni))
        t.uni = grown
        t.uni_cap = n_ids + 1
    return 0


def table_slots_of(int max_order, int64_t hyp_len):
    """Test hook: the slots a hypothesis of ``hyp_len`` ids gets for orders 1..``max_order``."""
    return table_size(max_order, hyp_len)


cdef int table_reserve(Table* t, int max_order, int64_t longest) noexcept nogil:
    """Make room for a hypothesis of ``longest`` ids; 0 on success, -1 when memory runs out."""
    cdef int64_t need = table_size(max_order, longest)
    cdef Slot* slots
    cdef int32_t* ref_cur
    cdef int64_t* live
    if need >= DENSE_BASE:
        return -1
    if need > t.capacity:
        slots = <Slot*>malloc(need * sizeof(Slot))
        ref_cur = <int32_t*>malloc(need * sizeof(int32_t))
        if slots == NULL or ref_cur == NULL:
            free(slots)
            free(ref_cur)
            return -1
        memset(slots, 0xFF, need * sizeof(Slot))   # every key EMPTY
        free(t.slots)
        free(t.ref_cur)
        t.slots = slots
        t.ref_cur = ref_cur
        t.capacity = need
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
    free(t.ref_cur)
    free(t.live)
    free(t.pos)
    free(t.uni)
    table_init(t)


# Tables kept between calls, per thread (scratch.h): a corpus call's table is handed to the next
# call instead of going back to the allocator, which would return the memory to the system and
# fault it in again next time (measurable at a few milliseconds per call). The single-sentence
# paths keep theirs in a slot of their own, so that a corpus call's large table does not become
# theirs. Every slot of a kept table is empty again (count_segment empties what it used).
cdef void release_table_box(void* box) noexcept nogil:
    table_release(<Table*>box)
    free(box)


cdef Table* table_take(int slot) noexcept nogil:
    """This thread's kept table from ``slot`` (TABLE_FOR_CORPUS or TABLE_FOR_SENTENCE), or a
    fresh empty one; NULL when memory ran out. Give it back with table_give."""
    cdef Table* t = <Table*>tb_scratch_take(slot)
    if t == NULL:
        t = <Table*>calloc(1, sizeof(Table))
    return t


cdef void table_warm(Table* t, int max_order, int64_t longest, int64_t n_ids) noexcept nogil:
    """warm_memory for a corpus call's reserved table (table_reserve and table_reserve_ids):
    the slots (and their ref_cur counts) a hypothesis of ``longest`` ids probes, and the unigram
    entries of ids 0..n_ids-1 and of -1 (entry n_ids) when the ids are dense (n_ids > 0)."""
    cdef int64_t size = table_size(max_order, longest)
    if size <= t.capacity:
        warm_memory(t.slots, size * sizeof(Slot))
        warm_memory(t.ref_cur, size * sizeof(int32_t))
    if 0 < n_ids < t.uni_cap:   # (count_stats lets any n_ids <= 0 through: not dense)
        warm_memory(t.uni, (n_ids + 1) * sizeof(Uni))


cdef int64_t table_bytes(const Table* t) noexcept nogil:
    """The memory a table holds."""
    return (t.capacity * (sizeof(Slot) + sizeof(int32_t)) + t.live_cap * sizeof(int64_t)
            + t.pos_cap * sizeof(int64_t) + t.uni_cap * sizeof(Uni))


cdef void table_give(Table* t, int slot) noexcept nogil:
    """Done with ``t`` (NULL is allowed): keep it in ``slot`` for this thread's next call, unless
    it failed or is large (a very long input must not pin its memory), or the slot holds one
    already (a call made from inside this one gave its own back first)."""
    if t == NULL:
        return
    if t.failed:
        release_table_box(t)
        return
    tb_scratch_give(slot, t, table_bytes(t), release_table_box)


cdef int64_t kept_table_bytes(int slot) noexcept nogil:
    """The memory of the table this thread keeps in ``slot`` (0: none)."""
    cdef const Table* t = <const Table*>tb_scratch_peek(slot)
    return table_bytes(t) if t != NULL else 0


cdef inline int64_t add_hyp_ngram(Table* t, uint64_t start_mask, uint64_t wrap, uint64_t key,
                                  int order, int64_t* n_live, bint single) noexcept nogil:
    cdef int64_t idx = probe(t, start_mask, wrap, key)
    cdef Slot* s = &t.slots[idx]
    if s.key == EMPTY:
        s.key = key
        s.hyp_count = 0
        s.ref_max = 0
        if not single:
            t.ref_cur[idx] = 0
        t.live[n_live[0]] = idx | (<int64_t>order << ORDER_SHIFT)
        n_live[0] += 1
    s.hyp_count += 1
    return idx


cdef inline int64_t count_ref_ngram(Table* t, uint64_t start_mask, uint64_t wrap,
                                    uint64_t key, bint single) noexcept nogil:
    """Count one reference n-gram; returns its slot, which is empty when the hypothesis does not
    have the n-gram. The update has no branch on hit or miss (that pattern is random; ``single``
    is the same for a whole segment): an empty slot's counter is scratch, set afresh when a
    hypothesis n-gram claims the slot (unsigned arithmetic: a scratch count may wrap around,
    harmlessly). With a ``single`` reference the count goes straight into ref_max, which is then
    the maximum; with several it goes into ref_cur, and fold_reference takes the maximum after
    each reference."""
    cdef int64_t idx = probe(t, start_mask, wrap, key)
    cdef Slot* s = &t.slots[idx]
    if single:
        s.ref_max = <int32_t>(<uint32_t>s.ref_max + 1)
    else:
        t.ref_cur[idx] = <int32_t>(<uint32_t>t.ref_cur[idx] + 1)
    return idx


cdef inline void fold_unigrams(Table* t, const int64_t* rpos, const int64_t* found,
                               int64_t n_found) noexcept nogil:
    """fold_reference for the unigram entries of dense ids (``rpos``: DENSE_BASE + id)."""
    cdef int64_t m
    cdef Uni* u
    for m in range(n_found):
        u = &t.uni[rpos[found[m]] - DENSE_BASE]
        u.ref_max = u.ref_cur if u.ref_cur > u.ref_max else u.ref_max
        u.ref_cur = 0


cdef inline void fold_reference(Table* t, const int64_t* rpos, const int64_t* found,
                                int64_t n_found) noexcept nogil:
    """After one of several references: the n-grams it has (``found``: their positions in it,
    ``rpos``: their slots by position) take the maximum of their counts so far and start again
    from zero. A repeated n-gram is met again with a count of zero, which changes nothing."""
    cdef int64_t m, idx
    cdef int32_t cur
    cdef Slot* s
    for m in range(n_found):
        idx = rpos[found[m]]
        s = &t.slots[idx]
        cur = t.ref_cur[idx]
        s.ref_max = cur if cur > s.ref_max else s.ref_max
        t.ref_cur[idx] = 0


cdef inline void count_dense_unigrams(
        Table* t, const int32_t* hyp, int64_t hyp_len, const int32_t* ref_ids,
        const int64_t* ref_off, int64_t ref_first, int64_t ref_last, int64_t n_ids, bint single,
        int64_t* hpos, int64_t* hact, int64_t* rpos, int64_t* ract, int64_t* rcnt,
        int64_t* n_live, int64_t* h_n) noexcept nogil:
    """count_segment's unigram stage for dense ids: the same lists and counts, from ``t.uni``
    (id -1, an ordinary id as everywhere in the kernel, has the entry after the others). An
    entry belongs to this segment when its stamp is this segment's; a reference token the
    hypothesis lacks counts into a stale entry, scratch that is reset when a hypothesis claims
    the entry."""
    cdef int64_t i, j, k, r, base = 0, rlen, tok
    cdef const int32_t* ref
    cdef Uni* u
    cdef uint32_t stamp
    t.stamp += 1
    if t.stamp == 0:                     # wrapped: really free every entry
        memset(t.uni, 0, t.uni_cap * sizeof(Uni))
        t.stamp = 1
    stamp = t.stamp
    for i in range(hyp_len):
        tok = hyp[i]
        tok = tok if tok >= 0 else n_ids
        u = &t.uni[tok]
        if u.stamp != stamp:
            u.stamp = stamp
            u.hyp_count = 0
            u.ref_max = 0
            u.ref_cur = 0
            t.live[n_live[0]] = tok
            n_live[0] += 1
        u.hyp_count += 1
        hpos[i] = DENSE_BASE + tok
    for r in range(ref_first, ref_last):
        ref = ref_ids + ref_off[r]
        rlen = ref_off[r + 1] - ref_off[r]
        k = base
        for j in range(rlen):
            tok = ref[j]
            tok = tok if tok >= 0 else n_ids
            u = &t.uni[tok]
            if single:
                u.ref_max = <int32_t>(<uint32_t>u.ref_max + 1)
            else:
                u.ref_cur = <int32_t>(<uint32_t>u.ref_cur + 1)
            rpos[base + j] = DENSE_BASE + tok
            ract[k] = j
            k += u.stamp == stamp
        rcnt[r - ref_first] = k - base
        if not single:
            fold_unigrams(t, rpos + base, ract + base, k - base)
        base += rlen
    k = 0
    for i in range(hyp_len - 1):
        hact[k] = i
        k += t.uni[hpos[i] - DENSE_BASE].ref_max > 0
    h_n[0] = k


cdef void count_segment(Table* t, int64_t* row, int max_order, uint64_t hash_mask,
                        const int32_t* hyp, int64_t hyp_len,
                        const int32_t* ref_ids, const int64_t* ref_off,
                        int64_t ref_first, int64_t ref_last, int64_t n_ids) noexcept nogil:
    """One statistics row (``row`` must be zeroed).

    ``n_ids`` > 0 says the ids are dense: each -1 or in 0..n_ids-1 (reserved with
    table_reserve_ids). Unigrams are then counted in ``t.uni``, indexed by id,
    instead of the hash table: no probing for the most numerous lookups. 0: any int32 ids.

    Order by order: an n-gram can only occur in a reference if its (n-1)-gram prefix does, so
    order n looks only at the positions whose prefix was found in some reference. Per position,
    ``hpos``/``rpos`` keep the slot of the n-gram starting there; ``hact``/``ract`` list the
    positions still active (ascending, compacted without branches), per reference for ``ract``.
    The slots used are listed in ``t.live`` and emptied again at the end.
    """
    cdef int64_t i, j, m, k, r, n_live = 0, rlen, best = -1, dist, best_dist = 0, e, idx
    cdef int64_t ref_total = 0, base, n_refs = ref_last - ref_first, h_n, need
    cdef int n
    cdef bint single = n_refs == 1
    cdef int64_t size = table_size(max_order, hyp_len)
    cdef uint64_t wrap = <uint64_t>(size - 1)
    cdef uint64_t start_mask = wrap & hash_mask   # a narrow hash_mask forces collisions (tests)
    cdef Slot* s
    cdef const int32_t* ref
    cdef int64_t* grown
    cdef int64_t* hpos
    cdef int64_t* hact
    cdef int64_t* rpos
    cdef int64_t* ract
    cdef int64_t* rcnt
    cdef int64_t n_uni = 0
    cdef Uni* u

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
    if size > t.capacity or max_order * hyp_len > t.live_cap or (n_ids > 0
                                                                 and n_ids + 1 > t.uni_cap):
        # Not reserved for this hypothesis (a caller's bug): fail rather than probe beyond it.
        t.failed = 1
        row[0] = -1
        return

    need = 2 * hyp_len + 2 * ref_total + n_refs
    if need > t.pos_cap:
        grown = <int64_t*>realloc(t.pos, need * sizeof(int64_t))
        if grown == NULL:
            t.failed = 1
            row[0] = -1
            return
        t.pos = grown
        t.pos_cap = need
    hpos = t.pos
    hact = hpos + hyp_len
    rpos = hact + hyp_len
    ract = rpos + ref_total
    rcnt = ract + ref_total

    if n_ids > 0:
        count_dense_unigrams(t, hyp, hyp_len, ref_ids, ref_off, ref_first, ref_last, n_ids,
                             single, hpos, hact, rpos, ract, rcnt, &n_live, &h_n)
        n_uni = n_live
    else:
        # Unigrams: every position of the hypothesis and of each reference. (Written apart from
        # the loop over orders below: folding it in, with a prefix test per lookup, measured 10%
        # slower.)
        for i in range(hyp_len):
            hpos[i] = add_hyp_ngram(t, start_mask, wrap, ngram_key(-1, hyp[i]), 1, &n_live, single)
        base = 0
        for r in range(ref_first, ref_last):
            ref = ref_ids + ref_off[r]
            rlen = ref_off[r + 1] - ref_off[r]
            k = base
            for j in range(rlen):
                idx = count_ref_ngram(t, start_mask, wrap, ngram_key(-1, ref[j]), single)
                rpos[base + j] = idx
                ract[k] = j
                k += t.slots[idx].key != EMPTY
            rcnt[r - ref_first] = k - base
            if not single:
                fold_reference(t, rpos + base, ract + base, k - base)
            base += rlen
        h_n = 0
        for i in range(hyp_len - 1):
            hact[h_n] = i
            h_n += t.slots[hpos[i]].ref_max > 0

    for n in range(2, max_order + 1):
        if h_n == 0:
            break
        # Hypothesis n-grams whose prefix occurs in a reference.
        for m in range(h_n):
            i = hact[m]
            hpos[i] = add_hyp_ngram(t, start_mask, wrap, ngram_key(hpos[i], hyp[i + n - 1]), n,
                                    &n_live, single)
        # Reference n-grams extending a prefix the hypothesis has; max count over references.
        base = 0
        for r in range(ref_first, ref_last):
            ref = ref_ids + ref_off[r]
            rlen = ref_off[r + 1] - ref_off[r]
            k = base
            for m in range(base, base + rcnt[r - ref_first]):
                j = ract[m]
                if j > rlen - n:        # ascending: the rest cannot hold an n-gram either
                    break
                idx = count_ref_ngram(t, start_mask, wrap,
                                      ngram_key(rpos[base + j], ref[j + n - 1]), single)
                rpos[base + j] = idx
                ract[k] = j
                k += t.slots[idx].key != EMPTY
            rcnt[r - ref_first] = k - base
            if not single:
                fold_reference(t, rpos + base, ract + base, k - base)
            base += rlen
        # Positions whose n-gram some reference has can start an (n+1)-gram match.
        k = 0
        for m in range(h_n):
            i = hact[m]
            if i > hyp_len - n - 1:
                break
            hact[k] = i
            k += t.slots[hpos[i]].ref_max > 0
        h_n = k

    # Clip, and empty the slots for the next segment (the unigram entries are freed by the next
    # segment's stamp).
    for j in range(n_uni):
        u = &t.uni[t.live[j]]
        row[2] += u.hyp_count if u.hyp_count < u.ref_max else u.ref_max
    for j in range(n_uni, n_live):
        e = t.live[j]
        s = &t.slots[e & <int64_t>0xFFFFFFFF]
        row[1 + (e >> ORDER_SHIFT)] += s.hyp_count if s.hyp_count < s.ref_max else s.ref_max
        s.key = EMPTY


cdef int32_t check_dense(const int32_t[::1] ids, int64_t n_ids, str name) except -2:
    """Raise unless every id is -1 or below n_ids; the largest id (-1 when there is none)."""
    cdef Py_ssize_t k
    cdef int32_t largest = -1
    if n_ids > MAX_DENSE_IDS:
        raise ValueError(f"count_stats: n_ids must be at most {MAX_DENSE_IDS}, got {n_ids}")
    for k in range(ids.shape[0]):
        if not -1 <= ids[k] < n_ids:
            raise ValueError(f"count_stats: with n_ids={n_ids}, {name} must be -1 or in "
                             f"0..{n_ids - 1}; {name}[{k}] is {ids[k]}")
        largest = ids[k] if ids[k] > largest else largest
    return largest


def count_stats(const int32_t[::1] hyp_ids, const int64_t[::1] hyp_off,
                const int32_t[::1] ref_ids, const int64_t[::1] ref_off,
                const int64_t[::1] seg_ref_off, int max_order, int64_t[:, ::1] out,
                Py_ssize_t seg_start=0, Py_ssize_t seg_end=-1,
                uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL, int64_t n_ids=0):
    """Fill ``out[seg_start:seg_end]`` with the statistics rows of those segments.

    ``out`` must be zeroed and have ``2 + 2*max_order`` columns. The GIL is released while counting,
    so disjoint segment ranges may be counted from several threads at once. ``hash_mask`` exists for
    tests: a narrow mask forces hash collisions, which must not change any result. ``n_ids`` > 0
    promises dense ids (each -1 or below ``n_ids``; checked), counted faster (see count_segment).
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
                      or (ref_off.shape[0] > 0
                          and ref_off[ref_off.shape[0] - 1] > ref_ids.shape[0])):
        raise ValueError("count_stats: offsets point past the id buffers")
    if n_ids > 0:
        # Only as many entries as the ids use: an overstated n_ids costs no memory.
        n_ids = 1 + max(check_dense(hyp_ids, n_ids, "hyp_ids"),
                        check_dense(ref_ids, n_ids, "ref_ids"), 0)

    cdef int64_t longest = 0, seg
    for seg in range(seg_start, seg_end):
        if hyp_off[seg + 1] - hyp_off[seg] > longest:
            longest = hyp_off[seg + 1] - hyp_off[seg]
    cdef Table* t = table_take(TABLE_FOR_CORPUS)
    if t == NULL or table_reserve(t, max_order, longest) < 0 or (
            n_ids > 0 and table_reserve_ids(t, n_ids) < 0):
        table_give(t, TABLE_FOR_CORPUS)   # (it keeps what it has: every slot is still empty)
        raise MemoryError("count_stats: cannot allocate the n-gram table")
    table_warm(t, max_order, longest, n_ids)

    cdef const int32_t* hyp_base = &hyp_ids[0] if hyp_ids.shape[0] > 0 else NULL
    cdef const int32_t* ref_base = &ref_ids[0] if ref_ids.shape[0] > 0 else NULL
    cdef const int64_t* roff = &ref_off[0] if ref_off.shape[0] > 0 else NULL
    try:
        with nogil:
            for seg in range(seg_start, seg_end):
                count_segment(t, &out[seg, 0], max_order, hash_mask,
                              hyp_base + hyp_off[seg] if hyp_base != NULL else NULL,
                              hyp_off[seg + 1] - hyp_off[seg],
                              ref_base, roff, seg_ref_off[seg], seg_ref_off[seg + 1], n_ids)
        if t.failed:
            raise MemoryError("count_stats: out of memory")
    finally:
        table_give(t, TABLE_FOR_CORPUS)
