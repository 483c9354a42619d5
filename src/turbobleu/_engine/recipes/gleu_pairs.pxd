# NLTK's corpus GLEU in C, one (hypothesis, reference) pair at a time: the pair's clipped matches
# of the orders min_len..max_len (``tp``) and ``n_all``, then the choice of the reference with the
# best ratio (``recipes/gleu.py`` is the readable specification). Inline: the GLEU of token lists
# (intern/_intern.pyx) and of text (bleu/_text_rows.pyx) count and choose with it.
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memset

from turbobleu._engine.count._kernel cimport Table, count_segment


cdef inline int64_t ngram_total(int64_t length, int64_t min_len, int64_t max_len) noexcept nogil:
    """recipes.gleu.ngram_total: the n-grams of orders min_len..max_len in ``length`` items."""
    cdef int64_t top = max_len if max_len < length else length
    cdef int64_t orders
    if top < min_len:
        return 0
    orders = top - min_len + 1
    return orders * (length + 1) - (min_len + top) * orders // 2


# The reference chosen so far for one hypothesis: the first with the best tp / n_all (NLTK's
# max() with a key), among the references with n_all > 0.
cdef struct GleuChoice:
    bint chosen
    int64_t tp
    int64_t n_all
    double ratio


cdef inline void gleu_choice_reset(GleuChoice* c) noexcept nogil:
    c.chosen = False
    c.tp = 0
    c.n_all = 0
    c.ratio = 0.0


cdef inline int gleu_pair(GleuChoice* c, Table* t, int64_t* row, uint64_t hash_mask,
                          const int32_t* hyp, int64_t hyp_len, const int32_t* ref_ids,
                          const int64_t* ref_off, int64_t r, int64_t n_ids, int64_t min_len,
                          int64_t max_len) noexcept nogil:
    """Counts the hypothesis against reference ``r`` alone (the kernel's ``ref_ids``/``ref_off``)
    and keeps it in ``c`` when its ratio is the best so far. ``row`` has room for
    ``2 + 2 * min(max_len, hyp_len)`` values; the table is reserved for that many orders and this
    hypothesis. -1 when the table failed (out of memory), else 0."""
    cdef int64_t ref_len = ref_off[r + 1] - ref_off[r]
    cdef int64_t tpfp = ngram_total(hyp_len, min_len, max_len)
    cdef int64_t tpfn = ngram_total(ref_len, min_len, max_len)
    cdef int64_t n_all = tpfp if tpfp > tpfn else tpfn
    cdef int64_t tp = 0, top, order
    cdef double ratio
    if n_all == 0:
        return 0
    top = max_len if max_len < hyp_len else hyp_len
    if ref_len < top:
        top = ref_len
    if top >= min_len:
        memset(row, 0, (2 + 2 * top) * sizeof(int64_t))
        count_segment(t, row, <int>top, hash_mask, hyp, hyp_len, ref_ids, ref_off, r, r + 1,
                      n_ids)
        if t.failed:
            return -1
        for order in range(min_len, top + 1):
            tp += row[1 + order]   # [hyp_len, ref_len, matches_1..top, totals_1..top]
    # (int / int in Python: both exact as doubles, then one rounding, as here)
    ratio = <double>tp / <double>n_all
    if not c.chosen or ratio > c.ratio:
        c.chosen = True
        c.tp = tp
        c.n_all = n_all
        c.ratio = ratio
    return 0
