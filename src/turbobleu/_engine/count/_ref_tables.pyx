# cython: language_level=3
# cython: freethreading_compatible=True
"""Prepared reference groups (``batch.ReferenceSets``): each group's n-gram table is built once,
then many hypotheses are scored against it (``_ref_tables_py.py`` is the readable twin).

A group's table holds every n-gram (orders 1..N) of its references with its maximum count in
any one reference. Slot s of a group is the pair (key, count) at table[2*(base+s)], where key is
``ngram_keys.ngram_key`` of the slot of the (n-1)-gram prefix and the last id: equal keys are
equal id spans, so a lookup never trusts a hash. Capacities are exact (not powers of two): the
probe start is the hash's high 32 bits scaled to the capacity. Loaded on first use
(``count.chosen.ref_tables()``): it needs NumPy for its arrays.
"""
import numpy as _np

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from turbobleu._engine.count.batch_table cimport (BSlot, BTable, bt_init, bt_next_generation,
                                                  bt_probe, bt_release, bt_reserve)
from turbobleu._engine.count.ngram_keys cimport (EMPTY, check_monotone, exact_capacity, ngram_key,
                                                 ngram_occurrences, pow2_at_least, probe_slot)


def group_capacity_of(int64_t distinct):
    """Test hook: the capacity a group with ``distinct`` n-grams gets."""
    return exact_capacity(distinct)


cdef int64_t collect_group(BTable* t, int max_order, const int32_t* ref_ids,
                           const int64_t* ref_off, int64_t r_first, int64_t r_last,
                           int64_t occurrences, uint64_t hash_mask) noexcept nogil:
    """Count the n-grams of references r_first..r_last into the scratch table ``t`` (max count
    over references in ``count``); returns how many distinct n-grams ``t.live`` lists, in
    first-seen order (a prefix always before its extensions)."""
    cdef uint64_t wrap = <uint64_t>(pow2_at_least(2 * occurrences) - 1)
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
                key = ngram_key(prefix, ref[i + n - 1])
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
        key = ngram_key(new_prefix, <int32_t><uint32_t>(s.key & 0xFFFFFFFFULL))
        pos = <int64_t>probe_slot(region, 2, <uint64_t>cap, hmask, key)
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
    if exact_capacity(occ_max) >= 0x7FFFFFFF:
        raise ValueError(f"a reference group has {occ_max} n-grams; at most about 1.4e9 fit "
                         "in one group table")
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
                cap = exact_capacity(n_live)
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
    cdef uint64_t wrap = <uint64_t>(pow2_at_least(2 * max_order * hyp_len) - 1)
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
            key = ngram_key(prefix, hyp[i + n - 1])
            pos = <int64_t>probe_slot(region, 2, <uint64_t>cap, hmask, key)
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
