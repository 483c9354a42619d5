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
from libc.string cimport memcpy, memset

from turbobleu._engine.scratch cimport (tb_scratch_give, tb_scratch_peek, tb_scratch_take,
                                        warm_memory)

cdef inline uint64_t ngram_key(int64_t prefix_slot, int32_t token) noexcept nogil:
    """prefix_slot is -1 for unigrams. The high half is below 0xC0000000 (a slot index is below
    DENSE_BASE, a dense prefix at most DENSE_BASE + MAX_DENSE_IDS), so no key is EMPTY."""
    return (<uint64_t>(prefix_slot + 1) << 32) | <uint64_t><uint32_t>token


cdef enum:
    ORDER_SHIFT = 32    # t.live entries: slot index | order << ORDER_SHIFT
    MAX_DENSE_IDS = 0x7FFFFFFF - 1   # ids below it: DENSE_BASE + id + 1 fits a key's high half
    DENSE_BASE = 1 << 30    # prefix of a bigram whose unigram is token id u (dense ids): u + this;
                            # slot indexes stay below it, so the two never meet in a key

cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL   # the key of an unused slot


cdef inline int64_t probe(Table* t, uint64_t start_mask, uint64_t wrap,
                          uint64_t key) noexcept nogil:
    """Index of the slot with this key, or of the empty slot where it belongs. The start is
    taken from the product's high half, which depends on every bit of the key (its low bits see
    only the last id, so n-grams ending in the same id would crowd together there)."""
    cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
    cdef int64_t i = <int64_t>((h >> 32) & start_mask)
    cdef uint64_t k
    while True:
        k = t.slots[i].key
        if k == key or k == EMPTY:
            return i
        i = (i + 1) & <int64_t>wrap


cdef inline int64_t pow2_at_least(int64_t n) noexcept nogil:
    cdef int64_t c = 16
    while c < n:
        c <<= 1
    return c


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


cdef check_monotone(const int64_t[::1] off, str name):
    cdef Py_ssize_t k
    if off.shape[0] and off[0] < 0:
        raise ValueError(f"{name} must be non-decreasing from 0")
    for k in range(off.shape[0] - 1):
        if off[k] > off[k + 1]:
            raise ValueError(f"{name} must be non-decreasing from 0")


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
                          double* logs, double* precisions=NULL,
                          double* bp_out=NULL) noexcept nogil:
    """The score of one row; ``logs`` is N doubles of scratch. ``precisions`` (N doubles) and
    ``bp_out``, unless NULL, receive sacrebleu's percent precisions and brevity penalty."""
    cdef int64_t sys_len = row[0], ref_len = row[1]
    cdef double bp = 1.0, halvings = 1.0, p, c, t
    cdef int n, used = N
    cdef bint any_match = False
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(N):
        if row[2 + n] != 0:
            any_match = True
    if bp_out != NULL:
        bp_out[0] = bp
    if precisions != NULL:
        memset(precisions, 0, N * sizeof(double))
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
    if precisions != NULL:
        memcpy(precisions, logs, N * sizeof(double))
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


cdef tuple score_parts_of_row(const int64_t* row, int max_order, str smooth_method,
                              smooth_value, bint effective_order, bint neumaier):
    """sacrebleu_score_parts of a row in C memory (max_order <= 16 values checked by the caller
    or here)."""
    cdef int method = SMOOTH_CODES[smooth_method]
    cdef double logs[16]
    cdef double prec[16]
    cdef double bp
    cdef Py_ssize_t k
    if method == 2 or not 1 <= max_order <= 16:
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    if smooth_value is None:
        smooth_value = 0.1 if method == 1 else 0
    score = sacrebleu_row(row, max_order, method, <double>smooth_value, False, effective_order,
                          neumaier, logs, prec, &bp)
    return score, [prec[k] for k in range(max_order)], bp


def sacrebleu_score_parts(row, int max_order, str smooth_method, smooth_value,
                          bint effective_order, bint neumaier):
    """(score, precisions, bp) of one statistics row (a sequence of ints), as
    ``recipes.sacrebleu_score`` computes them; not for add-k, whose counts change type."""
    cdef int64_t buf[34]
    cdef Py_ssize_t k
    if not 1 <= max_order <= 16:
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    for k in range(2 + 2 * max_order):
        buf[k] = row[k]
    return score_parts_of_row(buf, max_order, smooth_method, smooth_value, effective_order,
                              neumaier)


# =============================================================================================
# Token-id batch path (batch.py): packing id sequences, prepared reference groups, NLTK's
# sentence recipe in C and self-BLEU. _kernel_py.py has the readable twin of every function.
# =============================================================================================
from cpython.ref cimport PyObject
from libc.math cimport ldexp
from libc.float cimport DBL_MIN
from libc.stdint cimport uint8_t
from libc.stdlib cimport realloc
# NumPy is imported by the functions that build arrays, not here: the plain corpus and sentence
# paths never need it, and `import turbobleu` stays light.

cdef extern from "Python.h":
    object PySequence_Fast(object o, const char* m)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    bint PySequence_Check(object o)
    bint PyLong_Check(PyObject* o)
    bint PyIndex_Check(PyObject* o)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow) except? -1
    bint PyList_Check(object o)
    object PyList_AsTuple(object o)


cdef object snapshot_fast(object seq):
    """PySequence_Fast(seq), copied when it is a list (the caller's own list): the Python code
    that reading its items can run (an iterator, __index__) cannot then change what is read."""
    fast = PySequence_Fast(seq, b"not a sequence")
    return PyList_AsTuple(fast) if PyList_Check(fast) else fast


cdef changed_size(str what, Py_ssize_t i):
    raise RuntimeError(f"{what}[{i}] changed size while its token ids were read (by the "
                       f"Python code of one of its items)")

cdef extern from "cpython_layout.h":
    bint PyLong_CheckExact(PyObject* o)
    int tb_compact_int(PyObject* o, long long* out)

cdef extern from *:
    """
    #include <math.h>
    /* pow() through a volatile pointer: the compiler must not fold pow(x, 2.0) into x*x, because
       CPython's float ** 2 calls libm's pow and the two may differ in the last bit. */
    static double tb_libm_pow(double x, double y) {
        double (*volatile f)(double, double) = pow;
        return f(x, y);
    }
    """
    double tb_libm_pow(double x, double y) nogil


# -- packing -----------------------------------------------------------------------------------
cdef str _describe(object item):
    return f"{type(item).__name__} {item!r}" if not isinstance(item, (list, tuple)) else \
        type(item).__name__


cdef int32_t _as_id(PyObject* item, str what, Py_ssize_t i, Py_ssize_t j, bint has_pad,
                    long long pad, bint* skip) except? -1:
    cdef int overflow = 0
    cdef long long v
    if not PyLong_Check(item) and not PyIndex_Check(item):
        raise TypeError(f"{what}[{i}][{j}] must be an integer token id, got "
                        f"{_describe(<object>item)}")
    v = PyLong_AsLongLongAndOverflow(item, &overflow)
    skip[0] = has_pad and overflow == 0 and v == pad
    if skip[0]:
        return 0
    if overflow != 0 or v < 0 or v > 2147483647:
        raise ValueError(f"{what}[{i}][{j}] = {<object>item!r}: token ids must be integers in "
                         f"0..2**31-1 (negative ids are reserved)")
    return <int32_t>v


def pack_sequences(rows, str what, pad=None, Py_ssize_t first=0):
    """Pack a sequence of integer sequences into ``(ids int32, offsets int64)`` (CSR).

    Every id must be an integer in 0..2**31-1; a bad item raises naming ``what[i][j]``. Items
    equal to ``pad`` (an int, or None) are left out. Messages count rows from ``first``.
    """
    cdef Py_ssize_t n, i, j, m, total = 0, pos = 0
    cdef list fast = []
    cdef object row, seq
    cdef bint has_pad = pad is not None, skip = False
    cdef long long padv = pad if pad is not None else 0
    cdef long long small_v = 0
    cdef int32_t v
    cdef PyObject* item
    cdef object token
    if isinstance(rows, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of token-id sequences, "
                        f"got {type(rows).__name__}")
    rows = snapshot_fast(rows)
    n = PySequence_Fast_GET_SIZE(rows)
    for i in range(n):
        row = <object>PySequence_Fast_GET_ITEM(rows, i)
        if isinstance(row, (str, bytes)):
            raise TypeError(f"{what}[{i + first}] is a {type(row).__name__}: give token ids, "
                            "or pass text with a tokenizer (tokenize=...)")
        # A dict or a set would be iterated (keys, hash order): only sequences are rows.
        if not PySequence_Check(row):
            raise TypeError(f"{what}[{i + first}] must be a sequence of token ids, got "
                            f"{type(row).__name__}")
        seq = PySequence_Fast(row, b"not a sequence")
        fast.append(seq)
        total += PySequence_Fast_GET_SIZE(seq)
    import numpy as _np
    ids = _np.empty(total, dtype=_np.int32)
    off = _np.empty(n + 1, dtype=_np.int64)
    cdef int32_t[::1] idv = ids
    cdef int64_t[::1] offv = off
    offv[0] = 0
    for i in range(n):
        seq = fast[i]
        m = PySequence_Fast_GET_SIZE(seq)
        # A row (a list) that Python code lengthened since it was measured would not fit.
        if pos + m > total:
            changed_size(what, i + first)
        for j in range(m):
            item = PySequence_Fast_GET_ITEM(seq, j)
            # Fast path: a small non-negative exact int that is not the pad id.
            if PyLong_CheckExact(item) and tb_compact_int(item, &small_v) \
                    and 0 <= small_v <= 2147483647 and not (has_pad and small_v == padv):
                idv[pos] = <int32_t>small_v
                pos += 1
                continue
            token = <object>item    # held: its __index__ may drop the row's reference to it
            v = _as_id(<PyObject*>token, what, i + first, j, has_pad, padv, &skip)
            if PySequence_Fast_GET_SIZE(seq) != m:
                changed_size(what, i + first)
            if not skip:
                idv[pos] = v
                pos += 1
        offv[i + 1] = pos
    return (ids if pos == total else ids[:pos].copy()), off


def pack_groups(groups, str what, pad=None, Py_ssize_t first=0):
    """Pack a sequence of groups (each a sequence of integer sequences) into
    ``(ids int32, offsets int64, group_offsets int64)``: group g is the sequences
    ``group_offsets[g]..group_offsets[g+1]``. Bad items raise naming ``what[g][k][j]``; items
    equal to ``pad`` are left out. Messages count groups from ``first``."""
    cdef Py_ssize_t n, g, k
    cdef list flat = []
    cdef object grp, seq
    if isinstance(groups, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of reference lists, "
                        f"got {type(groups).__name__}")
    groups = snapshot_fast(groups)
    n = PySequence_Fast_GET_SIZE(groups)
    import numpy as _np
    goff = _np.empty(n + 1, dtype=_np.int64)
    cdef int64_t[::1] goffv = goff
    goffv[0] = 0
    for g in range(n):
        grp = <object>PySequence_Fast_GET_ITEM(groups, g)
        if isinstance(grp, (str, bytes)):
            raise TypeError(f"{what}[{g + first}] is a {type(grp).__name__}: give a list of "
                            "token-id references, or pass text with a tokenizer (tokenize=...)")
        if not PySequence_Check(grp):
            raise TypeError(f"{what}[{g + first}] must be a list of references "
                            f"(token-id sequences), got {type(grp).__name__}")
        seq = PySequence_Fast(grp, b"not a sequence")
        for k in range(PySequence_Fast_GET_SIZE(seq)):
            item = <object>PySequence_Fast_GET_ITEM(seq, k)
            if PyLong_Check(<PyObject*>item) or PyIndex_Check(<PyObject*>item):
                raise TypeError(f"{what}[{g + first}][{k}] is an integer: {what}[{g + first}] must "
                                f"be a list of "
                                f"references, each a sequence of ids (for one reference per "
                                f"row, wrap it: [[ref] for ref in refs])")
            flat.append(item)
        goffv[g + 1] = len(flat)
    try:
        ids, off = pack_sequences(flat, what, pad)
    except (TypeError, ValueError) as exc:
        raise type(exc)(_regroup_message(str(exc), what, goff, first)) from None
    return ids, off, goff


cdef str _regroup_message(str message, str what, object goff, Py_ssize_t first):
    """Rewrite 'what[r][j]' (r a flat reference index) as 'what[g][k][j]'."""
    import re
    import numpy as _np
    found = re.match(re.escape(what) + r"\[(\d+)\]", message)
    if not found:
        return message
    r = int(found.group(1))
    g = int(_np.searchsorted(goff, r, side="right")) - 1
    return f"{what}[{g + first}][{r - int(goff[g])}]" + message[found.end():]


# -- scratch tables ----------------------------------------------------------------------------
# The batch path keeps its own small open-addressing scratch table (the segment Table above is
# tuned for count_stats and may change with it). Keys are exact: see ngram_key.
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


cdef inline uint64_t bkey(int64_t prefix_slot, int32_t token) noexcept nogil:
    """(slot of the (n-1)-gram prefix + 1) << 32 | last id; prefix_slot is -1 for unigrams."""
    return (<uint64_t>(prefix_slot + 1) << 32) | <uint64_t><uint32_t>token


cdef inline int64_t bpow2(int64_t n) noexcept nogil:
    cdef int64_t c = 16
    while c < n:
        c <<= 1
    return c


cdef void bt_init(BTable* t) noexcept nogil:
    memset(t, 0, sizeof(BTable))


cdef void bt_release(BTable* t) noexcept nogil:
    free(t.slots)
    free(t.live)
    bt_init(t)


cdef int bt_reserve(BTable* t, int64_t entries) noexcept nogil:
    """Room for ``entries`` distinct keys at load <= 1/2; 0, or -1 when memory runs out."""
    cdef int64_t need = bpow2(2 * entries)
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
    cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
    cdef int64_t i = <int64_t>((h >> 32) & start_mask)
    cdef BSlot* s
    while True:
        s = &t.slots[i]
        if s.gen != t.gen or s.key == key:
            return i
        i = (i + 1) & <int64_t>wrap


# -- prepared reference groups ----------------------------------------------------------------
# A group's table holds every n-gram (orders 1..N) of its references with its maximum count in
# any one reference. Slot s of a group is the pair (key, count) at table[2*(base+s)], where
# key = (slot of the (n-1)-gram prefix + 1) << 32 | last id, as in the segment tables above:
# equal keys are equal id spans, so a lookup never trusts a hash. Capacities are exact (not
# powers of two): the probe start is the hash's high 32 bits scaled to the capacity.

cdef inline int64_t group_capacity(int64_t distinct) noexcept nogil:
    """Slots for ``distinct`` n-grams: load at most 2/3, and always one empty slot."""
    return distinct + distinct // 2 + 1


def group_capacity_of(int64_t distinct):
    """Test hook: the capacity a group with ``distinct`` n-grams gets."""
    return group_capacity(distinct)


cdef inline int64_t group_probe(const uint64_t* tab, uint64_t cap, uint64_t hmask,
                                uint64_t key) noexcept nogil:
    """Index of the slot holding ``key``, or of the empty slot where it would go."""
    cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
    cdef uint64_t i = (((h >> 32) & hmask) * cap) >> 32
    cdef uint64_t k
    while True:
        k = tab[2 * i]
        if k == key or k == EMPTY:
            return <int64_t>i
        i += 1
        if i == cap:
            i = 0


cdef inline int64_t ngram_occurrences(int64_t length, int max_order) noexcept nogil:
    cdef int64_t total = 0
    cdef int n
    for n in range(1, max_order + 1):
        if length >= n:
            total += length - n + 1
    return total


cdef int64_t collect_group(BTable* t, int max_order, const int32_t* ref_ids,
                           const int64_t* ref_off, int64_t r_first, int64_t r_last,
                           int64_t occurrences, uint64_t hash_mask) noexcept nogil:
    """Count the n-grams of references r_first..r_last into the scratch table ``t`` (max count
    over references in ``count``); returns how many distinct n-grams ``t.live`` lists, in
    first-seen order (a prefix always before its extensions)."""
    cdef uint64_t wrap = <uint64_t>(bpow2(2 * occurrences) - 1)
    cdef int64_t r, i, idx, prefix, rlen, n_live = 0
    cdef int n, top
    cdef uint64_t key
    cdef BSlot* s
    cdef const int32_t* ref
    bt_next_generation(t)
    for r in range(r_first, r_last):
        ref = ref_ids + ref_off[r]
        rlen = ref_off[r + 1] - ref_off[r]
        t.stamp += 1
        for i in range(rlen):
            prefix = -1
            top = max_order if rlen - i >= max_order else <int>(rlen - i)
            for n in range(1, top + 1):
                key = bkey(prefix, ref[i + n - 1])
                idx = bt_probe(t, wrap & hash_mask, wrap, key)
                s = &t.slots[idx]
                if s.gen != t.gen:
                    s.gen = t.gen
                    s.key = key
                    s.count = 0
                    s.cur = 0
                    s.stamp = t.stamp - 1
                    t.live[n_live] = idx
                    n_live += 1
                if s.stamp != t.stamp:
                    s.stamp = t.stamp
                    s.cur = 0
                s.cur += 1
                if s.cur > s.count:
                    s.count = s.cur
                prefix = idx
    return n_live


cdef void emit_group(BTable* t, int64_t n_live, uint64_t* region, int64_t cap,
                     uint64_t hmask) noexcept nogil:
    """Re-insert the scratch table's n-grams into a group region of ``cap`` slots, re-keying
    each by its prefix's slot in the region (``moved`` of a scratch slot keeps that slot)."""
    cdef int64_t j, old_prefix, new_prefix, pos
    cdef uint64_t key
    cdef BSlot* s
    for j in range(cap):
        region[2 * j] = EMPTY
        region[2 * j + 1] = 0
    for j in range(n_live):
        s = &t.slots[t.live[j]]
        old_prefix = <int64_t>(s.key >> 32) - 1
        new_prefix = -1 if old_prefix < 0 else t.slots[old_prefix].moved
        key = bkey(new_prefix, <int32_t><uint32_t>(s.key & 0xFFFFFFFFULL))
        pos = group_probe(region, <uint64_t>cap, hmask, key)
        region[2 * pos] = key
        region[2 * pos + 1] = <uint64_t>s.count
        s.moved = pos


def build_ref_tables(const int32_t[::1] ref_ids, const int64_t[::1] ref_off,
                     const int64_t[::1] grp_ref_off, int max_order,
                     Py_ssize_t g_start=0, Py_ssize_t g_end=-1,
                     uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """Max-count tables of groups ``g_start..g_end``: returns ``(table, caps)`` where ``table``
    (uint64) is the groups' regions back to back, ``2*caps[g]`` entries each.

    Group g's references are the spans ``grp_ref_off[g]..grp_ref_off[g+1]`` of ``ref_off``.
    The GIL is released; disjoint group ranges may be built from several threads.
    """
    cdef Py_ssize_t n_grp = grp_ref_off.shape[0] - 1
    if g_end < 0:
        g_end = n_grp
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if not (0 <= g_start <= g_end <= n_grp):
        raise ValueError("build_ref_tables: inconsistent group range")
    check_monotone(ref_off, "ref_off")
    check_monotone(grp_ref_off, "grp_ref_off")
    if n_grp > 0 and (grp_ref_off[n_grp] > ref_off.shape[0] - 1
                      or (ref_off.shape[0] > 0
                          and ref_off[ref_off.shape[0] - 1] > ref_ids.shape[0])):
        raise ValueError("build_ref_tables: offsets point past the id buffers")
    cdef int64_t g, r, occ, occ_max = 0, n_live, cap, used = 0, out_cap = 0
    for g in range(g_start, g_end):
        occ = 0
        for r in range(grp_ref_off[g], grp_ref_off[g + 1]):
            occ += ngram_occurrences(ref_off[r + 1] - ref_off[r], max_order)
        if occ > occ_max:
            occ_max = occ
    if group_capacity(occ_max) >= 0x7FFFFFFF:
        raise ValueError(f"a reference group has {occ_max} n-grams; at most about 1.4e9 fit "
                         "in one group table")
    import numpy as _np
    caps = _np.empty(g_end - g_start, dtype=_np.int64)
    cdef int64_t[::1] capv = caps
    cdef BTable t
    bt_init(&t)
    if bt_reserve(&t, occ_max) < 0:
        bt_release(&t)
        raise MemoryError("build_ref_tables: cannot allocate the scratch table")
    cdef uint64_t* out = NULL
    cdef uint64_t* grown
    cdef bint failed = False
    cdef const int32_t* ids = &ref_ids[0] if ref_ids.shape[0] > 0 else NULL
    cdef const int64_t* roff = &ref_off[0] if ref_off.shape[0] > 0 else NULL
    cdef uint64_t hmask = hash_mask & 0xFFFFFFFFULL
    try:
        with nogil:
            for g in range(g_start, g_end):
                occ = 0
                for r in range(grp_ref_off[g], grp_ref_off[g + 1]):
                    occ += ngram_occurrences(roff[r + 1] - roff[r], max_order)
                n_live = collect_group(&t, max_order, ids, roff, grp_ref_off[g],
                                       grp_ref_off[g + 1], occ, hash_mask)
                cap = group_capacity(n_live)
                if used + cap > out_cap:
                    out_cap = 2 * out_cap if 2 * out_cap >= used + cap else used + cap
                    grown = <uint64_t*>realloc(out, 2 * out_cap * sizeof(uint64_t))
                    if grown == NULL:
                        failed = True
                        break
                    out = grown
                emit_group(&t, n_live, out + 2 * used, cap, hmask)
                capv[g - g_start] = cap
                used += cap
        if failed:
            raise MemoryError("build_ref_tables: cannot allocate the group tables")
        table = _np.empty(2 * used, dtype=_np.uint64)
        if used > 0:
            _copy_u64(table, out, 2 * used)
    finally:
        free(out)
        bt_release(&t)
    return table, caps


cdef void _copy_u64(uint64_t[::1] dst, const uint64_t* src, int64_t n):
    with nogil:
        memcpy(&dst[0], src, n * sizeof(uint64_t))


cdef inline int64_t closest_length(int64_t hyp_len, const int64_t* lens, int64_t first,
                                   int64_t last) noexcept nogil:
    """The length in lens[first:last] nearest hyp_len, the shorter on a tie; -1 if none."""
    cdef int64_t best = -1, best_dist = 0, dist, r, rlen
    for r in range(first, last):
        rlen = lens[r]
        dist = rlen - hyp_len if rlen >= hyp_len else hyp_len - rlen
        if best < 0 or dist < best_dist or (dist == best_dist and rlen < best):
            best = rlen
            best_dist = dist
    return best


def score_ref_tables(const uint64_t[::1] table, const int64_t[::1] tab_base,
                     const int64_t[::1] tab_cap, const int64_t[::1] len_off,
                     const int64_t[::1] ref_lens, int table_order,
                     const int32_t[::1] hyp_ids, const int64_t[::1] hyp_off,
                     const int64_t[::1] hyp_group, int max_order, int64_t[:, ::1] out,
                     Py_ssize_t seg_start=0, Py_ssize_t seg_end=-1,
                     uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """Statistics rows of hypotheses ``seg_start..seg_end`` against their groups' tables.

    Hypothesis i is scored against group ``hyp_group[i]``; the row is the one ``count_stats``
    gives for the group's references. The GIL is released.
    """
    cdef Py_ssize_t n_seg = hyp_off.shape[0] - 1, n_grp = tab_base.shape[0]
    if seg_end < 0:
        seg_end = n_seg
    if not (1 <= max_order <= table_order):
        raise ValueError(f"max_order must be in 1..{table_order} (the tables' order), "
                         f"got {max_order}")
    if not (0 <= seg_start <= seg_end <= n_seg) or hyp_group.shape[0] != n_seg:
        raise ValueError("score_ref_tables: inconsistent segment offsets")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("score_ref_tables: output array has the wrong shape")
    if tab_cap.shape[0] != n_grp or len_off.shape[0] != n_grp + 1:
        raise ValueError("score_ref_tables: inconsistent group arrays")
    check_monotone(hyp_off, "hyp_off")
    check_monotone(len_off, "len_off")
    if n_seg > 0 and hyp_off[n_seg] > hyp_ids.shape[0]:
        raise ValueError("score_ref_tables: offsets point past the id buffer")
    if n_grp > 0 and len_off[n_grp] > ref_lens.shape[0]:
        raise ValueError("score_ref_tables: len_off points past ref_lens")
    cdef int64_t seg, longest = 0, g, widest = 0
    for seg in range(seg_start, seg_end):
        g = hyp_group[seg]
        if g < 0 or g >= n_grp:
            raise ValueError(f"score_ref_tables: group {g} of hypothesis {seg} out of range")
        if tab_base[g] < 0 or tab_cap[g] < 1 or 2 * (tab_base[g] + tab_cap[g]) > table.shape[0]:
            raise ValueError(f"score_ref_tables: group {g}'s region lies outside the table")
        if hyp_off[seg + 1] - hyp_off[seg] > longest:
            longest = hyp_off[seg + 1] - hyp_off[seg]
        if tab_cap[g] > widest:
            widest = tab_cap[g]
    cdef uint64_t hmask = hash_mask & 0xFFFFFFFFULL
    cdef BTable used
    cdef Direct direct
    cdef Direct* use_direct = NULL
    bt_init(&used)
    memset(&direct, 0, sizeof(Direct))
    # Matches used per region slot: direct arrays when the groups are small enough (the usual
    # case); a hash map keyed by slot otherwise, and always under a test hash_mask.
    if widest <= DIRECT_LIMIT and hmask == 0xFFFFFFFFULL:
        direct.gen = <uint32_t*>calloc(widest + 1, sizeof(uint32_t))
        direct.cnt = <uint32_t*>malloc((widest + 1) * sizeof(uint32_t))
        direct.size = widest + 1
        use_direct = &direct
        if direct.gen == NULL or direct.cnt == NULL:
            free(direct.gen)
            free(direct.cnt)
            raise MemoryError("score_ref_tables: cannot allocate the scratch counts")
    elif bt_reserve(&used, max_order * longest) < 0:
        bt_release(&used)
        raise MemoryError("score_ref_tables: cannot allocate the scratch table")
    cdef const uint64_t* tab = &table[0] if table.shape[0] > 0 else NULL
    cdef const int32_t* hyp_base = &hyp_ids[0] if hyp_ids.shape[0] > 0 else NULL
    try:
        with nogil:
            for seg in range(seg_start, seg_end):
                g = hyp_group[seg]
                score_one(&used, use_direct, &out[seg, 0], max_order, hmask,
                          hyp_base + hyp_off[seg] if hyp_base != NULL else NULL,
                          hyp_off[seg + 1] - hyp_off[seg],
                          tab + 2 * tab_base[g] if tab != NULL else NULL, tab_cap[g])
                out[seg, 1] = closest_length(out[seg, 0], &ref_lens[0], len_off[g],
                                             len_off[g + 1]) if len_off[g + 1] > len_off[g] \
                    else -1
    finally:
        bt_release(&used)
        free(direct.gen)
        free(direct.cnt)


cdef int64_t DIRECT_LIMIT = 1 << 18     # region slots: 2 MiB of direct counters per call

cdef struct Direct:
    uint32_t* gen       # counts are live when gen[slot] == cur
    uint32_t* cnt
    uint32_t cur
    int64_t size


cdef void score_one(BTable* used, Direct* direct, int64_t* row, int max_order, uint64_t hmask,
                    const int32_t* hyp, int64_t hyp_len, const uint64_t* region,
                    int64_t cap) noexcept nogil:
    """Row of one hypothesis against one group region (ref_len is left to the caller).

    Each n-gram occurrence of the hypothesis is looked up along the prefix chain (a miss ends the
    chain: no extension of an absent n-gram is present); an occurrence matches while fewer than
    the reference maximum of its n-gram have matched, counted per region slot in ``direct``
    (when given) or in the hash map ``used``."""
    cdef int64_t i, pos, prefix, idx
    cdef int n, top
    cdef uint64_t key, refmax
    cdef uint64_t wrap = <uint64_t>(bpow2(2 * max_order * hyp_len) - 1)
    cdef BSlot* s
    for n in range(1, 2 * max_order + 2):
        row[n] = 0
    for n in range(1, max_order + 1):
        row[1 + max_order + n] = hyp_len - n + 1 if hyp_len >= n else 0
    row[0] = hyp_len
    if cap == 0 or hyp_len == 0:
        return
    if direct != NULL:
        direct.cur += 1
        if direct.cur == 0:              # wrapped: really forget the old counts
            memset(direct.gen, 0, direct.size * sizeof(uint32_t))
            direct.cur = 1
    else:
        bt_next_generation(used)
    for i in range(hyp_len):
        prefix = -1
        top = max_order if hyp_len - i >= max_order else <int>(hyp_len - i)
        for n in range(1, top + 1):
            key = bkey(prefix, hyp[i + n - 1])
            pos = group_probe(region, <uint64_t>cap, hmask, key)
            if region[2 * pos] != key:
                break
            refmax = region[2 * pos + 1]
            if direct != NULL:
                if direct.gen[pos] != direct.cur:
                    direct.gen[pos] = direct.cur
                    direct.cnt[pos] = 0
                if direct.cnt[pos] < refmax:
                    direct.cnt[pos] += 1
                    row[1 + n] += 1
            else:
                idx = bt_probe(used, wrap, wrap, <uint64_t>pos)
                s = &used.slots[idx]
                if s.gen != used.gen:
                    s.gen = used.gen
                    s.key = <uint64_t>pos
                    s.count = 0
                if <uint64_t>s.count < refmax:
                    s.count += 1
                    row[1 + n] += 1
            prefix = pos


# -- NLTK's sentence_bleu recipe ----------------------------------------------------------------
# NLTK computes with Python numbers whose types matter: unreduced Fractions (exact), ints (int/int
# true division rounds once), and floats. A Val carries the same three kinds; rationals are kept
# reduced in int64 with every product checked. Whatever cannot be done exactly here (an overflow,
# a division by zero, a non-finite float, a rule NLTK enforces by raising) sets the row's status,
# and the caller recomputes that row with the Python recipe, which gives NLTK's value or error.

cdef enum:
    V_INT = 0
    V_RAT = 1
    V_DBL = 2

cdef struct Val:
    int kind
    int64_t num
    int64_t den
    double d

cdef int64_t RAT_LIMIT = 4611686018427387904  # 2**62: sums of two stay inside int64
cdef uint64_t EXACT_DBL = 9007199254740992    # 2**53


cdef inline uint64_t ugcd(uint64_t a, uint64_t b) noexcept nogil:
    cdef uint64_t t
    while b:
        t = a % b
        a = b
        b = t
    return a


cdef inline int bit_length(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x >>= 1
        n += 1
    return n


cdef double rat_to_double(int64_t num, int64_t den) noexcept nogil:
    """num/den (den > 0) rounded once to the nearest double, ties to even (as int/int and
    float(Fraction) do in Python). Quotient bits come from binary long division."""
    cdef bint neg = num < 0
    cdef uint64_t n = <uint64_t>(-num) if neg else <uint64_t>num
    cdef uint64_t d = <uint64_t>den, q, r, low
    cdef int e = 0, shift
    cdef bint sticky, round_bit
    cdef double v
    if n == 0:
        return 0.0
    if n <= EXACT_DBL and d <= EXACT_DBL:      # both exact: IEEE division rounds once
        v = <double>n / <double>d
        return -v if neg else v
    q = n // d
    r = n % d
    while bit_length(q) < 55:                  # value = (q + r/d) * 2**-e
        r <<= 1
        q <<= 1
        e += 1
        if r >= d:
            q |= 1
            r -= d
    sticky = r != 0
    shift = bit_length(q) - 55
    if shift > 0:
        sticky = sticky or (q & ((1ULL << shift) - 1)) != 0
        q >>= shift
        e -= shift
    low = q & 3                                # 55 bits -> 53: a round bit and one more
    q >>= 2
    e -= 2
    round_bit = (low >> 1) != 0
    sticky = sticky or (low & 1) != 0
    if round_bit and (sticky or (q & 1)):
        q += 1
    v = ldexp(<double>q, -e)
    return -v if neg else v


def rat_to_double_of(int64_t num, int64_t den):
    """Test hook: rat_to_double (den must be > 0)."""
    if den <= 0:
        raise ValueError("den must be > 0")
    return rat_to_double(num, den)


cdef double exact_sum(const double* x, int n, double* partials) noexcept nogil:
    """math.fsum of n finite doubles: the exactly rounded sum (Shewchuk's non-overlapping
    partials, then a half-way correction on the final rounding). ``partials`` holds n+1."""
    cdef int i, j, k, m = 0
    cdef double a, b, t, hi, lo = 0.0, yr
    for i in range(n):
        a = x[i]
        k = 0
        for j in range(m):
            b = partials[j]
            if fabs(a) < fabs(b):
                t = a
                a = b
                b = t
            hi = a + b
            lo = b - (hi - a)
            if lo != 0.0:
                partials[k] = lo
                k += 1
            a = hi
        m = k
        partials[m] = a
        m += 1
    if m == 0:
        return 0.0
    m -= 1
    hi = partials[m]
    lo = 0.0
    while m > 0:
        a = hi
        m -= 1
        b = partials[m]
        hi = a + b
        yr = hi - a
        lo = b - yr
        if lo != 0.0:
            break
    if m > 0 and ((lo < 0.0 and partials[m - 1] < 0.0) or (lo > 0.0 and partials[m - 1] > 0.0)):
        b = lo * 2.0
        a = hi + b
        yr = a - hi
        if b == yr:
            hi = a
    return hi


def exact_sum_of(values):
    """Test hook: exact_sum over a list of finite floats."""
    cdef int n = len(values), i
    cdef double* buf = <double*>malloc((2 * n + 1) * sizeof(double))
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            buf[i] = values[i]
        return exact_sum(buf, n, buf + n)
    finally:
        free(buf)


cdef inline Val v_int(int64_t x) noexcept nogil:
    cdef Val v
    v.kind = V_INT
    v.num = x
    v.den = 1
    v.d = 0.0
    return v


cdef inline Val v_dbl(double x) noexcept nogil:
    cdef Val v
    v.kind = V_DBL
    v.num = 0
    v.den = 1
    v.d = x
    return v


cdef inline bint small(int64_t x) noexcept nogil:
    return -RAT_LIMIT <= x <= RAT_LIMIT


cdef inline bint mul_checked(int64_t a, int64_t b, int64_t* out) noexcept nogil:
    """a*b when both and the product lie within +-2**62."""
    cdef uint64_t ua, ub
    if a == 0 or b == 0:
        out[0] = 0
        return True
    if not small(a) or not small(b):
        return False
    ua = <uint64_t>(-a) if a < 0 else <uint64_t>a
    ub = <uint64_t>(-b) if b < 0 else <uint64_t>b
    if ua > <uint64_t>RAT_LIMIT // ub:
        return False
    out[0] = a * b
    return True


cdef inline Val v_rat(int64_t num, int64_t den, bint* fail) noexcept nogil:
    """The reduced rational num/den; den == 0 fails (Python raises ZeroDivisionError)."""
    cdef Val v
    cdef uint64_t g
    v.kind = V_RAT
    v.d = 0.0
    if den == 0 or not small(num) or not small(den):
        fail[0] = True
        v.num = 0
        v.den = 1
        return v
    if den < 0:
        num = -num
        den = -den
    g = ugcd(<uint64_t>(-num) if num < 0 else <uint64_t>num, <uint64_t>den)
    if g > 1:
        num = num // <int64_t>g
        den = den // <int64_t>g
    v.num = num
    v.den = den
    return v


cdef inline double v_float(Val a) noexcept nogil:
    if a.kind == V_DBL:
        return a.d
    if a.kind == V_INT:
        return <double>a.num
    return rat_to_double(a.num, a.den)


cdef inline bint v_zero(Val a) noexcept nogil:
    return a.d == 0.0 if a.kind == V_DBL else a.num == 0


cdef inline bint v_positive(Val a) noexcept nogil:
    return a.d > 0.0 if a.kind == V_DBL else a.num > 0


cdef inline Val v_checked_dbl(double x, bint* fail) noexcept nogil:
    if not isfinite(x):
        fail[0] = True
    return v_dbl(x)


cdef Val v_add(Val a, Val b, bint* fail) noexcept nogil:
    cdef int64_t x, y, z
    cdef uint64_t g
    if a.kind == V_DBL or b.kind == V_DBL:
        return v_checked_dbl(v_float(a) + v_float(b), fail)
    if a.kind == V_INT and b.kind == V_INT:
        if not small(a.num) or not small(b.num):
            fail[0] = True
        return v_int(a.num + b.num)
    # a.num/a.den + b.num/b.den over the common denominator lcm(a.den, b.den)
    g = ugcd(<uint64_t>a.den, <uint64_t>b.den)
    if (not mul_checked(a.num, b.den // <int64_t>g, &x)
            or not mul_checked(b.num, a.den // <int64_t>g, &y)
            or not mul_checked(a.den // <int64_t>g, b.den, &z)):
        fail[0] = True
        return v_int(0)
    return v_rat(x + y, z, fail)


cdef Val v_mul(Val a, Val b, bint* fail) noexcept nogil:
    cdef int64_t x, y
    if a.kind == V_DBL or b.kind == V_DBL:
        return v_checked_dbl(v_float(a) * v_float(b), fail)
    if a.kind == V_INT and b.kind == V_INT:
        if not mul_checked(a.num, b.num, &x):
            fail[0] = True
        return v_int(x)
    if not mul_checked(a.num, b.num, &x) or not mul_checked(a.den, b.den, &y):
        fail[0] = True
        return v_int(0)
    return v_rat(x, y, fail)


cdef Val v_div(Val a, Val b, bint* fail) noexcept nogil:
    cdef int64_t x, y
    if v_zero(b):
        fail[0] = True                 # Python: ZeroDivisionError
        return v_int(0)
    if a.kind == V_DBL or b.kind == V_DBL:
        return v_checked_dbl(v_float(a) / v_float(b), fail)
    if a.kind == V_INT and b.kind == V_INT:   # int / int: true division, one rounding
        if b.num < 0:
            return v_dbl(rat_to_double(-a.num, -b.num))
        return v_dbl(rat_to_double(a.num, b.num))
    if not mul_checked(a.num, b.den, &x) or not mul_checked(a.den, b.num, &y):
        fail[0] = True
        return v_int(0)
    return v_rat(x, y, fail)


cdef Val v_square(Val a, bint* fail) noexcept nogil:
    if a.kind == V_DBL:                # float ** 2 is libm's pow in CPython
        return v_checked_dbl(tb_libm_pow(a.d, 2.0), fail)
    return v_mul(a, a, fail)


NLTK_METHODS = 8


cdef int nltk_row(const int64_t* row, int N, int K, const double* weights, int method,
                  double epsilon, Val alpha, double k_value, bint auto_reweigh,
                  Val* p, Val* ext, double* terms, double* partials, uint8_t* zero_orders,
                  double* result) noexcept nogil:
    """NLTK's sentence_bleu of one statistics row (N orders counted, K weights). Returns 0, or 1
    when the Python recipe must take this row."""
    cdef int64_t c = row[0], r = row[1], n_i, d_i, t_i
    cdef int i, j, n_terms = 0, n_weights
    cdef bint fail = False, reweigh
    cdef Val m, third = v_int(3), pi0, l_i
    cdef double bp, s, w
    if row[2] == 0:                    # no unigram match: NLTK returns 0 before smoothing
        result[0] = 0.0
        return 0
    for i in range(K):
        n_i = row[2 + i]
        d_i = row[2 + N + i] if row[2 + N + i] > 1 else 1
        p[i].kind = V_RAT              # NLTK's unreduced Fraction(n_i, max(1, total_i))
        p[i].num = n_i
        p[i].den = d_i
        p[i].d = 0.0

    if method == 0:
        for i in range(K):
            if p[i].num == 0:
                p[i] = v_dbl(DBL_MIN)   # sys.float_info.min, with a warning
                zero_orders[i] = 1
    elif method == 1:
        for i in range(K):
            if p[i].num == 0:
                p[i] = v_dbl(epsilon / <double>p[i].den)
    elif method == 2:
        for i in range(1, K):
            p[i].num += 1
            p[i].den += 1
    elif method == 3:
        j = 1
        for i in range(K):
            if p[i].num == 0:
                p[i] = v_dbl(1.0 / ldexp(<double>p[i].den, j))
                j += 1
    if method == 4 or method == 7:
        j = 1
        for i in range(K):
            if p[i].kind == V_RAT and p[i].num == 0 and c > 1:
                s = ldexp(k_value, j) / log(<double>c)
                if s == 0.0:
                    return 1            # 1 / 0.0: ZeroDivisionError in Python
                p[i] = v_checked_dbl((1.0 / s) / <double>p[i].den, &fail)
                j += 1
    if method == 5 or method == 7:
        if N < 5:
            return 1
        for i in range(K):
            ext[i] = p[i]
        ext[K].kind = V_RAT             # always the 5-gram precision (NLTK's quirk)
        ext[K].num = row[2 + 4]
        ext[K].den = row[2 + N + 4] if row[2 + N + 4] > 1 else 1
        ext[K].d = 0.0
        m = v_add(p[0], v_int(1), &fail)
        for i in range(K):
            m = v_div(v_add(v_add(m, ext[i], &fail), ext[i + 1], &fail), third, &fail)
            p[i] = m
    elif method == 6:
        if K < 3 or row[2 + 2] == 0:    # NLTK raises (IndexError / AssertionError)
            return 1
        for i in range(2, K):
            if v_zero(p[i - 2]):
                pi0 = v_int(0)
            else:
                pi0 = v_div(v_square(p[i - 1], &fail), p[i - 2], &fail)
            t_i = c - i if c > i else 0           # n-grams of order i+1 in the hypothesis
            l_i = v_int(t_i)
            p[i] = v_div(v_add(v_int(row[2 + i]), v_mul(alpha, pi0, &fail), &fail),
                         v_add(l_i, alpha, &fail), &fail)
    if fail:
        return 1

    if c > r:
        bp = 1.0
    else:
        bp = exp(1.0 - <double>r / <double>c)
    # auto_reweigh (only passed for NLTK's default weight tuple): (1/c,)*c for c < 4, zipped
    # with the K precisions.
    reweigh = auto_reweigh and c < 4
    n_weights = <int>c if reweigh and c < K else K
    for i in range(n_weights):
        if v_positive(p[i]):
            w = 1.0 / <double>c if reweigh else weights[i]
            terms[n_terms] = w * log(v_float(p[i]))
            if not isfinite(terms[n_terms]):
                return 1
            n_terms += 1
    s = exact_sum(terms, n_terms, partials)
    s = exp(s)
    if not isfinite(s):
        return 1
    result[0] = bp * s
    return 0


def nltk_sentence_scores(const int64_t[:, ::1] rows, int row_order, const double[::1] weights,
                         int method, double epsilon, alpha, double k_value, bint auto_reweigh,
                         double[::1] out, uint8_t[::1] status, uint8_t[::1] zero_orders,
                         Py_ssize_t start=0, Py_ssize_t end=-1):
    """out[i] = NLTK's sentence_bleu of statistics row i (rows have ``row_order`` orders;
    ``len(weights)`` is NLTK's max order). ``status[i]`` = 1 marks a row to redo with the Python
    recipe; ``zero_orders[n-1]`` = 1 when method0 met a zero precision of order n (NLTK warns).
    ``alpha`` keeps its Python type (int or float): method6's arithmetic depends on it."""
    cdef int K = weights.shape[0]
    cdef Py_ssize_t i
    if end < 0:
        end = rows.shape[0]
    if not (0 <= method < NLTK_METHODS):
        raise ValueError(f"method must be 0..7, got {method}")
    if K < 1 or K > row_order or rows.shape[1] != 2 + 2 * row_order:
        raise ValueError("nltk_sentence_scores: weights and rows do not match")
    if not (0 <= start <= end <= rows.shape[0]) or out.shape[0] < end or status.shape[0] < end \
            or zero_orders.shape[0] < K:
        raise ValueError("nltk_sentence_scores: inconsistent shapes")
    cdef Val a
    if isinstance(alpha, int):
        if not -RAT_LIMIT <= alpha <= RAT_LIMIT:
            raise ValueError("alpha is too large")
        a = v_int(alpha)
    else:
        a = v_dbl(alpha)
    cdef Val* p = <Val*>malloc((2 * K + 2) * sizeof(Val))
    cdef double* work = <double*>malloc((2 * K + 2) * sizeof(double))
    if p == NULL or work == NULL:
        free(p)
        free(work)
        raise MemoryError()
    cdef const double* w = &weights[0]
    try:
        with nogil:
            for i in range(start, end):
                status[i] = nltk_row(&rows[i, 0], row_order, K, w, method, epsilon, a, k_value,
                                     auto_reweigh, p, p + K + 1, work, work + K + 1,
                                     &zero_orders[0], &out[i])
    finally:
        free(p)
        free(work)


# -- self-BLEU --------------------------------------------------------------------------------
# One table over all texts: for each n-gram, the largest count in any one text (max1, and the
# text that has it) and the largest count in any other text (max2). Text i's references are all
# the other texts, so its clip for an n-gram is max2 when it owns max1, else max1. Slot s is the
# words table[3s..3s+2] = key, max1 | max2 << 32, owner.

cdef int64_t self_capacity(int64_t occurrences) noexcept nogil:
    return occurrences + occurrences // 2 + 1


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
    cap = self_capacity(occ)
    if cap >= 0x7FFFFFFF:
        raise ValueError(f"the texts have {occ} n-grams; at most about 1.4e9 fit in one table")
    import numpy as _np
    table = _np.empty(3 * cap, dtype=_np.uint64)
    cdef uint64_t[::1] tv = table
    cdef int32_t* cur = <int32_t*>malloc(cap * sizeof(int32_t) + 1)
    cdef int32_t* stamp = <int32_t*>malloc(cap * sizeof(int32_t) + 1)
    cdef uint64_t key, h, slot, word, hmask = hash_mask & 0xFFFFFFFFULL
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
                        key = bkey(prefix, txt[i + n - 1])
                        h = key * 0x9E3779B97F4A7C15ULL
                        slot = (((h >> 32) & hmask) * <uint64_t>cap) >> 32
                        while tab[3 * slot] != key and tab[3 * slot] != EMPTY:
                            slot += 1
                            if slot == <uint64_t>cap:
                                slot = 0
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
    cdef uint64_t key, h, slot, word, limit, wrap, hmask = hash_mask & 0xFFFFFFFFULL
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
                wrap = <uint64_t>(bpow2(2 * max_order * tlen) - 1)
                bt_next_generation(&used)
                for i in range(tlen):
                    prefix = -1
                    top = max_order if tlen - i >= max_order else <int>(tlen - i)
                    for n in range(1, top + 1):
                        key = bkey(prefix, txt[i + n - 1])
                        h = key * 0x9E3779B97F4A7C15ULL
                        slot = (((h >> 32) & hmask) * <uint64_t>cap) >> 32
                        while tab[3 * slot] != key:      # the text's own n-grams are all there
                            slot += 1
                            if slot == <uint64_t>cap:
                                slot = 0
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


# -- bootstrap resample counts ------------------------------------------------------------------
# sacrebleu draws resamples with ``rng.choice(n, size=(samples, n), replace=True)``, which for
# n < 2**32 is NumPy's Lemire draw on 32-bit words of the generator. Drawing them here, through
# the generator's own ``bitgen_t`` (NumPy's public C interface), consumes the same words in the
# same order, so the resamples (and the generator's state afterwards) are NumPy's; counting each
# index as it is drawn saves the (samples, n) index array and a bincount per row.
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

from cpython.pycapsule cimport PyCapsule_GetPointer


cdef inline uint32_t bounded_draw(tb_bitgen_t* g, uint32_t n, uint32_t threshold) noexcept nogil:
    """An integer in [0, n) as NumPy draws it (``buffered_bounded_lemire_uint32``)."""
    cdef uint64_t m = <uint64_t>g.next_uint32(g.state) * n
    cdef uint32_t leftover = <uint32_t>m
    if leftover < n:
        while leftover < threshold:     # rejection keeps the draw unbiased
            m = <uint64_t>g.next_uint32(g.state) * n
            leftover = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef tb_bitgen_t* bitgen_of(bit_generator, uint64_t n) except NULL:
    if n < 1 or n > 0xFFFFFFFF:
        raise ValueError(f"the number of segments must be in 1..2**32-1, got {n}")
    return <tb_bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


def resample_counts(rng, Py_ssize_t n_segments, float[:, ::1] counts):
    """``counts[b, i]`` = how often segment i is in resample b, for the next ``len(counts)`` rows
    of ``rng.choice(n_segments, size=(rows, n_segments), replace=True)`` (rng: a NumPy
    Generator), leaving ``rng`` where that call would."""
    if counts.shape[1] != n_segments:
        raise ValueError("resample_counts: counts must have n_segments columns")
    bit_generator = rng.bit_generator
    cdef tb_bitgen_t* g = bitgen_of(bit_generator, n_segments)
    cdef uint32_t n = <uint32_t>n_segments
    cdef uint32_t threshold = (<uint32_t>(0xFFFFFFFF - (n - 1))) % n
    cdef Py_ssize_t b, _i
    cdef float* row
    with bit_generator.lock, nogil:
        for b in range(counts.shape[0]):
            row = &counts[b, 0]
            memset(row, 0, n_segments * sizeof(float))
            if n == 1:              # NumPy draws nothing for a range of one value
                row[0] = 1
                continue
            for _i in range(n_segments):
                row[bounded_draw(g, n, threshold)] += 1


def bounded_integers(rng, uint64_t n, Py_ssize_t size):
    """``rng.integers(0, n, size)`` through ``bounded_draw`` (int64): lets the tests check the
    draw against NumPy for any n, including those where rejections are frequent."""
    import numpy as np
    bit_generator = rng.bit_generator
    cdef tb_bitgen_t* g = bitgen_of(bit_generator, n)
    cdef uint32_t threshold = (<uint32_t>(0xFFFFFFFF - (n - 1))) % <uint32_t>n
    out = np.zeros(size, dtype=np.int64)
    cdef int64_t[::1] view = out
    cdef Py_ssize_t i
    if n == 1:
        return out
    with bit_generator.lock, nogil:
        for i in range(size):
            view[i] = bounded_draw(g, <uint32_t>n, threshold)
    return out


# -- libm over arrays --------------------------------------------------------------------------
def libm_map(str name, const double[::1] x, double[::1] out):
    """``out[i] = math.<name>(x[i])`` for name "log" or "exp", through the same libm function
    that ``math`` calls (NumPy's own log/exp may differ in the last bit). Returns False, leaving
    ``out`` unspecified, when some value is outside the range where ``math`` just calls libm
    (log: finite and > 0; exp: finite with a finite result): the caller then maps ``math``."""
    cdef Py_ssize_t i, n = x.shape[0]
    cdef bint is_log = name == "log"
    cdef bint ok = True
    if not is_log and name != "exp":
        raise ValueError(f"libm_map: name must be 'log' or 'exp', got {name!r}")
    if out.shape[0] != n:
        raise ValueError("libm_map: out must have the length of x")
    with nogil:
        for i in range(n):
            if is_log:
                ok = isfinite(x[i]) and x[i] > 0.0
                out[i] = log(x[i])
            else:
                out[i] = exp(x[i])
                ok = isfinite(x[i]) and isfinite(out[i])
            if not ok:
                break
    return ok
