# cython: language_level=3
# cython: freethreading_compatible=True
"""TER's edit counting, compiled (``_ter_py.py`` is the readable spec: same rules, same order).

What differs from the twin is only how the work is done:
- costs are int32 and INF (sacrebleu's 10**16) only has to exceed every reachable cost
  (n_hyp + n_ref < 2**28 is checked); a cell starts from its match/substitute cost rather than
  from INF, which picks the same move for every reachable cell (the only ones a path visits);
- the matrix rows of the current hypothesis are kept whole, INF outside their band, so that a
  cell reads its neighbours without a test;
- a shift candidate only changes a window of words [first, end): rows up to ``first`` are the
  current hypothesis' own, rows first + 1..end are computed (two rolled rows), and the rest of
  the way is the current hypothesis' *backward* distances from row ``end`` (the beam distance is
  a shortest path through the band's cells, so the distance is the least over row ``end`` of
  forward + backward cost). The window's rows stop as soon as one proves that the gain would be
  too small: a cell (i, j) costs
  at least |(n_hyp - i) - (n_ref - j)| more edits to reach the last one, so the least of
  cost + that over a row bounds the final distance from below; and a candidate whose gain is
  below the best one found (or below 1) can neither be chosen nor change what is made. Its
  count in the 1,000-candidate limit is the same;
- the last round's distance is the final distance (the words did not change after it).
"""
from libc.math cimport ceil, floor
from libc.stdint cimport int8_t, int32_t, int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from turbobleu._engine.scratch cimport tb_scratch_give, tb_scratch_take

cdef enum:
    MAX_SHIFT_SIZE = 10
    MAX_SHIFT_DIST = 50
    BEAM_WIDTH = 25
    MAX_CANDIDATES = 1000
    WORK_SLOT = 0
    # the move that reached a cell (the trace)
    MATCH = 0
    SUBSTITUTE = 1
    SKIP_HYP = 2
    SKIP_REF = 3
    UNREACHED = 4

cdef int32_t INF = 1 << 29
# per text: costs stay below INF, and INF + n_hyp + n_ref below 2**31
cdef int64_t MAX_WORDS = (1 << 27) - 1
# word ids: the table of their reference positions has one entry per id
cdef int64_t MAX_IDS = 1 << 28


cdef struct Work:
    # per row: its band [lo, hi) and where its cells start (i * (n_ref + 1))
    int64_t* lo
    int64_t* hi
    int64_t* at
    int64_t rows_cap
    int32_t* cost      # the current hypothesis' rows, whole, row after row
    int32_t* back      # its distances from each cell to the last one, in the same layout
    int8_t* move
    int64_t cells_cap
    int32_t* roll      # two rows of a candidate, each n_ref + 1 wide
    int32_t* aligned   # per reference word: the hypothesis position it is aligned to
    int8_t* ref_err
    int64_t ref_cap
    int8_t* hyp_err
    int32_t* words     # the hypothesis as shifted so far
    int32_t* cand      # a candidate shift of it
    int64_t hyp_cap
    # the reference's positions of each word: first_at[id] (-1: none; all -1 between pairs)
    # and next_same[r] (the next position of ref[r]'s word), for the shift search
    int32_t* first_at
    int64_t id_cap
    int32_t* next_same


cdef void work_free(Work* w) noexcept nogil:
    free(w.lo); free(w.hi); free(w.at); free(w.cost); free(w.back); free(w.move)
    free(w.roll); free(w.aligned); free(w.ref_err)
    free(w.hyp_err); free(w.words); free(w.cand); free(w.first_at); free(w.next_same)
    w.lo = w.hi = w.at = NULL
    w.first_at = w.next_same = NULL
    w.id_cap = 0
    w.cost = w.back = w.roll = w.aligned = w.words = w.cand = NULL
    w.move = w.ref_err = w.hyp_err = NULL
    w.rows_cap = w.cells_cap = w.ref_cap = w.hyp_cap = 0


cdef void release_work_box(void* box) noexcept nogil:
    work_free(<Work*>box)
    free(box)


cdef int64_t work_bytes(Work* w) noexcept nogil:
    return (w.rows_cap * 3 * 8 + w.cells_cap * 9 + w.ref_cap * (2 * 4 * 2 + 4 + 1)
            + w.hyp_cap * 9 + w.id_cap * 4)


cdef int64_t grown(int64_t cap, int64_t need) noexcept nogil:
    if cap >= need:
        return cap
    if cap < 64:
        cap = 64
    while cap < need:
        cap *= 2
    return cap


cdef int work_reserve(Work* w, int64_t n_hyp, int64_t n_ref) noexcept nogil:
    """Room for one (hypothesis, reference) pair, but the cells (``cells_reserve``)."""
    cdef int64_t cap
    if w.rows_cap < n_hyp + 1:
        cap = grown(w.rows_cap, n_hyp + 1)
        free(w.lo); free(w.hi); free(w.at)
        w.lo = <int64_t*>malloc(cap * sizeof(int64_t))
        w.hi = <int64_t*>malloc(cap * sizeof(int64_t))
        w.at = <int64_t*>malloc(cap * sizeof(int64_t))
        w.rows_cap = cap
        if w.lo == NULL or w.hi == NULL or w.at == NULL:
            return -1
    if w.ref_cap < n_ref + 1:
        cap = grown(w.ref_cap, n_ref + 1)
        free(w.roll); free(w.aligned); free(w.ref_err); free(w.next_same)
        w.roll = <int32_t*>malloc(2 * cap * sizeof(int32_t))
        w.aligned = <int32_t*>malloc(cap * sizeof(int32_t))
        w.ref_err = <int8_t*>malloc(cap)
        w.next_same = <int32_t*>malloc(cap * sizeof(int32_t))
        w.ref_cap = cap
        if w.roll == NULL or w.aligned == NULL or w.ref_err == NULL or w.next_same == NULL:
            return -1
    if w.hyp_cap < n_hyp + 1:
        cap = grown(w.hyp_cap, n_hyp + 1)
        free(w.hyp_err); free(w.words); free(w.cand)
        w.hyp_err = <int8_t*>malloc(cap)
        w.words = <int32_t*>malloc(cap * sizeof(int32_t))
        w.cand = <int32_t*>malloc(cap * sizeof(int32_t))
        w.hyp_cap = cap
        if w.hyp_err == NULL or w.words == NULL or w.cand == NULL:
            return -1
    return 0


cdef int ids_reserve(Work* w, int64_t ids) noexcept nogil:
    """``first_at`` for word ids 0..ids - 1, all -1."""
    cdef int64_t cap, i
    if w.id_cap < ids:
        cap = grown(w.id_cap, ids)
        free(w.first_at)
        w.first_at = <int32_t*>malloc(cap * sizeof(int32_t))
        w.id_cap = cap if w.first_at != NULL else 0
        if w.first_at == NULL:
            return -1
        for i in range(cap):
            w.first_at[i] = -1
    return 0


cdef int cells_reserve(Work* w, int64_t cells) noexcept nogil:
    cdef int64_t cap
    if w.cells_cap < cells:
        cap = grown(w.cells_cap, cells)
        free(w.cost); free(w.back); free(w.move)
        w.cost = <int32_t*>malloc(cap * sizeof(int32_t))
        w.back = <int32_t*>malloc(cap * sizeof(int32_t))
        w.move = <int8_t*>malloc(cap)
        w.cells_cap = cap
        if w.cost == NULL or w.back == NULL or w.move == NULL:
            return -1
    return 0


cdef int64_t set_bands(Work* w, int64_t n_hyp, int64_t n_ref) noexcept nogil:
    """Each row's band (the twin's ``BeamDistance.band``); returns the cells of all rows."""
    cdef double ratio = (<double>n_ref / <double>n_hyp) if n_hyp else 1.0
    cdef int64_t beam = BEAM_WIDTH, i, diagonal
    if BEAM_WIDTH < ratio / 2:
        beam = <int64_t>ceil(ratio / 2 + BEAM_WIDTH)
    w.lo[0] = 0
    w.hi[0] = n_ref + 1
    w.at[0] = 0
    for i in range(1, n_hyp + 1):
        diagonal = <int64_t>floor(<double>i * ratio)
        w.lo[i] = max(0, diagonal - beam)
        w.hi[i] = n_ref + 1 if i == n_hyp else min(n_ref + 1, diagonal + beam)
        w.at[i] = i * (n_ref + 1)
    return (n_hyp + 1) * (n_ref + 1)


cdef int32_t fill_row(const int32_t* above, int32_t* cost, int8_t* move, int64_t lo,
                      int64_t hi, int32_t word, const int32_t* ref,
                      int64_t rest) noexcept nogil:
    """Row i's band from row i - 1 (``above``, whole; ``move`` may be NULL). Returns the row's
    lower bound of the final distance; ``rest`` is (n_hyp - i) - n_ref, so that cell j is
    |rest + j| edits from the last cell at least."""
    cdef int64_t j = lo, gap
    cdef int32_t best, c, left = INF, bound = INF
    cdef int8_t m
    if lo == 0:
        best = above[0] + 1
        cost[0] = best
        if move != NULL:
            move[0] = SKIP_HYP
        left = best
        bound = best + <int32_t>(rest if rest >= 0 else -rest)
        j = 1
    while j < hi:
        # the first strictly cheaper of: match/substitute, skip hyp word, skip ref word
        if word == ref[j - 1]:
            best = above[j - 1]
            m = MATCH
        else:
            best = above[j - 1] + 1
            m = SUBSTITUTE
        c = above[j] + 1
        if c < best:
            best = c
            m = SKIP_HYP
        c = left + 1
        if c < best:
            best = c
            m = SKIP_REF
        cost[j] = best
        if move != NULL:
            move[j] = m
        left = best
        gap = rest + j
        if gap < 0:
            gap = -gap
        if best + <int32_t>gap < bound:
            bound = best + <int32_t>gap
        j += 1
    return bound


cdef void fill_inf(int32_t* row, int64_t first, int64_t last) noexcept nogil:
    cdef int64_t j
    for j in range(first, last):
        row[j] = INF


cdef int32_t full_distance(Work* w, const int32_t* words, int64_t n_hyp,
                           const int32_t* ref, int64_t n_ref) noexcept nogil:
    """Every row of ``words`` (kept in ``w``, INF outside the bands); the distance."""
    cdef int64_t i, j
    cdef int32_t* row
    for j in range(n_ref + 1):
        w.cost[j] = <int32_t>j
        w.move[j] = SKIP_REF
    for i in range(1, n_hyp + 1):
        row = w.cost + w.at[i]
        fill_inf(row, 0, w.lo[i])
        fill_inf(row, w.hi[i], n_ref + 1)
        fill_row(w.cost + w.at[i - 1], row, w.move + w.at[i], w.lo[i], w.hi[i], words[i - 1],
                 ref, n_hyp - i - n_ref)
    return w.cost[w.at[n_hyp] + n_ref]


cdef void backward(Work* w, const int32_t* words, int64_t n_hyp,
                   const int32_t* ref, int64_t n_ref) noexcept nogil:
    """``w.back``: each band cell's distance to the last cell through the band (the moves the
    forward pass takes, walked the other way), INF outside; rows 1..n_hyp."""
    cdef int64_t i, j, width = n_ref + 1
    cdef int32_t best, c
    cdef int32_t* row
    cdef const int32_t* below
    row = w.back + w.at[n_hyp]
    for j in range(width):   # the last row is whole: only reference words left to skip
        row[j] = <int32_t>(n_ref - j)
    for i in range(n_hyp - 1, 0, -1):
        row = w.back + w.at[i]
        below = w.back + w.at[i + 1]
        fill_inf(row, 0, w.lo[i])
        fill_inf(row, w.hi[i], width)
        # (row i + 1 is INF outside its band; its band is at or right of row i's)
        j = w.hi[i] - 1
        while j >= w.lo[i]:
            best = below[j] + 1                      # skip hypothesis word i
            if j + 1 < width:
                c = below[j + 1] + (words[i] != ref[j])   # match / substitute word i
                if c < best:
                    best = c
                if j + 1 < w.hi[i]:
                    c = row[j + 1] + 1               # skip reference word j
                    if c < best:
                        best = c
            row[j] = best
            j -= 1


cdef int align(Work* w, int64_t n_hyp, int64_t n_ref) noexcept nogil:
    """The twin's ``alignment`` from the kept moves; -1 if the path leaves the bands."""
    cdef int64_t i = n_hyp, j = n_ref
    cdef int8_t m
    while i > 0 or j > 0:
        if j < w.lo[i] or j >= w.hi[i]:
            return -1
        m = w.move[w.at[i] + j]
        if m == MATCH or m == SUBSTITUTE:
            i -= 1
            j -= 1
            w.aligned[j] = <int32_t>i
            w.hyp_err[i] = w.ref_err[j] = (m == SUBSTITUTE)
        elif m == SKIP_HYP:
            i -= 1
            w.hyp_err[i] = 1
        elif m == SKIP_REF:
            j -= 1
            w.ref_err[j] = 1
            w.aligned[j] = <int32_t>(i - 1)
        else:
            return -1
    return 0


cdef int64_t make_shift(const int32_t* words, int64_t n, int64_t start, int64_t length,
                        int64_t target, int32_t* out) noexcept nogil:
    """The twin's ``shifted``, written over ``out`` (a copy of ``words``) where it differs:
    positions [min(start, target), end); returns end."""
    cdef int64_t mid_end
    if target < start:
        memcpy(out + target, words + start, length * sizeof(int32_t))
        memcpy(out + target + length, words + target, (start - target) * sizeof(int32_t))
        return start + length
    if target > start + length:
        mid_end = target
    else:
        mid_end = min(n, length + target)
    # words[start + length:mid_end], then the block; the rest is in place
    memcpy(out + start, words + start + length, (mid_end - start - length) * sizeof(int32_t))
    memcpy(out + mid_end - length, words + start, length * sizeof(int32_t))
    return mid_end


cdef int32_t candidate_distance(Work* w, const int32_t* cand, int64_t first, int64_t end,
                                int64_t n_hyp, const int32_t* ref, int64_t n_ref,
                                int32_t limit) noexcept nogil:
    """The distance of ``cand``, which differs from the current words in [first, end) only; or
    some value above ``limit`` as soon as it is sure to exceed it."""
    cdef const int32_t* above = w.cost + w.at[first]
    cdef const int32_t* rest
    cdef int64_t i, j, width = n_ref + 1
    cdef int32_t* row
    cdef int32_t bound, best, c
    # cells a row leaves out read as INF from the next one
    fill_inf(w.roll, 0, 2 * width)
    for i in range(first + 1, end + 1):
        row = w.roll + (i & 1) * width
        if w.lo[i] > 0:
            row[w.lo[i] - 1] = INF   # (left there by the row before the last)
        bound = fill_row(above, row, NULL, w.lo[i], w.hi[i], cand[i - 1], ref, n_hyp - i - n_ref)
        if bound > limit:
            return bound
        above = row
    rest = w.back + w.at[end]
    best = INF
    for j in range(w.lo[end], w.hi[end]):
        c = above[j] + rest[j]
        if c < best:
            best = c
    return best


cdef int64_t pair_edits_c(Work* w, const int32_t* hyp, int64_t n_hyp,
                          const int32_t* ref, int64_t n_ref) noexcept nogil:
    """TER's edits from ``hyp`` to ``ref`` (the twin's ``pair_edits``; ids below w.id_cap,
    the reference's not negative); -1: out of memory, -2: the beam left no path (sacrebleu
    raises too)."""
    cdef int64_t r, edits
    if n_ref > 0 and work_reserve(w, n_hyp, n_ref) != 0:
        return -1
    for r in range(n_ref - 1, -1, -1):   # each word's positions, in increasing order
        w.next_same[r] = w.first_at[ref[r]]
        w.first_at[ref[r]] = <int32_t>r
    edits = search(w, hyp, n_hyp, ref, n_ref)
    for r in range(n_ref):
        w.first_at[ref[r]] = -1
    return edits


cdef int64_t search(Work* w, const int32_t* hyp, int64_t n_hyp,
                    const int32_t* ref, int64_t n_ref) noexcept nogil:
    """``pair_edits_c`` once the reference's word positions are in ``w``."""
    cdef int64_t shifts = 0, checked = 0, hs, rs, r, length, target, previous, first, end
    cdef int64_t best_hs = 0, best_len = 0, best_target = 0
    cdef int32_t before, d, gain, best_gain, limit
    cdef bint found, hyp_bad, ref_bad, stop, backward_done
    if n_ref == 0:
        return n_hyp
    if work_reserve(w, n_hyp, n_ref) != 0:
        return -1
    if cells_reserve(w, set_bands(w, n_hyp, n_ref)) != 0:
        return -1
    memcpy(w.words, hyp, n_hyp * sizeof(int32_t))
    while True:
        before = full_distance(w, w.words, n_hyp, ref, n_ref)
        if n_hyp == 0:
            break
        if before == 0:
            break   # nothing to gain: no shift is made
        if align(w, n_hyp, n_ref) != 0:
            return -2
        backward_done = False   # (most pairs have no candidate: computed for the first one)
        memcpy(w.cand, w.words, n_hyp * sizeof(int32_t))
        found = False
        best_gain = 0
        stop = False
        for hs in range(n_hyp):
            # the reference positions holding this word, at most MAX_SHIFT_DIST away (a block
            # starting anywhere else matches nothing)
            rs = w.first_at[w.words[hs]] if w.words[hs] >= 0 else -1
            while 0 <= rs < hs - MAX_SHIFT_DIST:
                rs = w.next_same[rs]
            while 0 <= rs <= hs + MAX_SHIFT_DIST:
                length = 0
                hyp_bad = ref_bad = False
                while length < MAX_SHIFT_SIZE and w.words[hs + length] == ref[rs + length]:
                    hyp_bad = hyp_bad or w.hyp_err[hs + length]
                    ref_bad = ref_bad or w.ref_err[rs + length]
                    length += 1
                    if hyp_bad and ref_bad and not (hs <= w.aligned[rs] < hs + length):
                        previous = -1
                        for r in range(rs - 1, rs + length):
                            target = 0 if r == -1 else w.aligned[r] + 1
                            if target == previous:
                                continue
                            previous = target
                            if not backward_done:
                                backward(w, w.words, n_hyp, ref, n_ref)
                                backward_done = True
                            first = min(hs, target)
                            end = make_shift(w.words, n_hyp, hs, length, target, w.cand)
                            # worth finishing only for a gain of at least max(1, best_gain)
                            limit = before - (best_gain if found else 1)
                            d = candidate_distance(w, w.cand, first, end, n_hyp, ref, n_ref,
                                                   limit)
                            # back to a copy of the words for the next candidate
                            memcpy(w.cand + first, w.words + first, (end - first) * sizeof(int32_t))
                            checked += 1
                            gain = before - d
                            if gain >= 1 and (not found or gain > best_gain or (
                                    gain == best_gain and (length > best_len or (
                                        length == best_len and (hs < best_hs or (
                                            hs == best_hs and target < best_target)))))):
                                found = True
                                best_gain = gain
                                best_hs = hs
                                best_len = length
                                best_target = target
                        if checked >= MAX_CANDIDATES:
                            stop = True
                            break
                    if hs + length == n_hyp or rs + length == n_ref:
                        break
                if stop:
                    break
                rs = w.next_same[rs]
            if stop:
                break
        if checked >= MAX_CANDIDATES or not found:
            break
        shifts += 1
        first = min(best_hs, best_target)
        end = make_shift(w.words, n_hyp, best_hs, best_len, best_target, w.cand)
        memcpy(w.words + first, w.cand + first, (end - first) * sizeof(int32_t))
    return shifts + before


cdef int rows_of(Work* w, const int32_t[::1] hyp_ids, const int64_t[::1] hyp_offsets,
                 const int32_t[::1] ref_ids, const int64_t[::1] ref_offsets,
                 const int64_t[::1] ref_groups, int64_t[::1] out,
                 int64_t first, int64_t last) noexcept nogil:
    """Segments [first, last) into ``out``; 0, or the failing pair's code."""
    cdef int64_t s, r, edits, fewest, lengths, n_ref
    for s in range(first, last):
        fewest = -1
        lengths = 0
        for r in range(ref_groups[s], ref_groups[s + 1]):
            n_ref = ref_offsets[r + 1] - ref_offsets[r]
            edits = pair_edits_c(w, &hyp_ids[0] + hyp_offsets[s],
                                 hyp_offsets[s + 1] - hyp_offsets[s],
                                 &ref_ids[0] + ref_offsets[r], n_ref)
            if edits < 0:
                return <int>edits
            if fewest < 0 or edits < fewest:
                fewest = edits
            lengths += n_ref
        out[2 * s] = fewest
        out[2 * s + 1] = lengths
    return 0


def corpus_rows(hyp_ids, hyp_offsets, ref_ids, ref_offsets, ref_groups, out):
    """For each segment s, ``out[2s] = fewest edits over its references`` and ``out[2s + 1] =
    the sum of their lengths`` (the twin says the layout). The GIL is released while counting:
    callers run windows of segments in threads."""
    cdef const int32_t[::1] h = hyp_ids
    cdef const int64_t[::1] ho = hyp_offsets
    cdef const int32_t[::1] rw = ref_ids
    cdef const int64_t[::1] ro = ref_offsets
    cdef const int64_t[::1] rg = ref_groups
    cdef int64_t[::1] o = out
    cdef int64_t n = ho.shape[0] - 1, longest = 0, s, top
    cdef int failed = 0
    cdef Work* w
    if n < 0 or rg.shape[0] != n + 1 or o.shape[0] < 2 * n:
        raise ValueError("TER rows: the offsets, groups and out buffers do not agree")
    if n == 0:
        return
    for s in range(n):
        longest = max(longest, ho[s + 1] - ho[s])
    for s in range(ro.shape[0] - 1):
        longest = max(longest, ro[s + 1] - ro[s])
    if longest > MAX_WORDS:
        raise ValueError(f"TER: a segment of {longest} words is over the limit of {MAX_WORDS}")
    # word ids index the shift search's table of positions
    top = -1
    for s in range(rw.shape[0]):
        if rw[s] < 0:
            raise ValueError(f"TER: reference word ids must be >= 0, got {rw[s]}")
        top = max(top, rw[s])
    for s in range(h.shape[0]):
        top = max(top, h[s])
    if top >= MAX_IDS:
        raise ValueError(f"TER: word ids must be below {MAX_IDS}, got {top}")
    with nogil:
        w = <Work*>tb_scratch_take(WORK_SLOT)
        if w == NULL:
            w = <Work*>malloc(sizeof(Work))
            if w != NULL:
                w.rows_cap = w.cells_cap = w.ref_cap = w.hyp_cap = 0
                w.lo = w.hi = w.at = NULL
                w.cost = w.back = w.roll = w.aligned = w.words = w.cand = NULL
                w.move = w.ref_err = w.hyp_err = NULL
                w.first_at = w.next_same = NULL
                w.id_cap = 0
        if w == NULL or ids_reserve(w, top + 1) != 0:
            failed = -1
        else:
            failed = rows_of(w, h, ho, rw, ro, rg, o, 0, n)
        if w != NULL:
            tb_scratch_give(WORK_SLOT, w, work_bytes(w), release_work_box)
    if failed == -1:
        raise MemoryError("TER: out of memory for the edit distance")
    if failed == -2:
        raise RuntimeError("TER: the beam left no path through the edit distance matrix")


def pair_edits(hyp, ref):
    """TER's number of edits from ``hyp`` to ``ref`` (sequences of int32 ids)."""
    from array import array

    out = array("q", [0, 0])
    corpus_rows(array("i", hyp), array("q", [0, len(hyp)]), array("i", ref),
                array("q", [0, len(ref)]), array("q", [0, 1]), out)
    return out[0]
