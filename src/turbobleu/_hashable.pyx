# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``_token_stats.py``: kernel statistics for sequences of hashable tokens.

The tokens are interned with a Python dict (so ``hash`` and ``==`` decide token identity, as in
the libraries mirrored) straight from the sequences into C buffers, and every segment is counted
with the kernel's ``count_segment``. Only hypothesis tokens get ids; a reference token that no
hypothesis has gets -1 (no hypothesis token has it, so it can never match).

Like the twin, both functions return None instead of raising when the input is unusual (no
``len``, a length that disagrees with iteration, an unhashable token, a segment without
references, ...): the caller then follows its library's own order of operations.
"""
import numpy as _np

from cpython.object cimport PyObject
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc, realloc

from turbobleu._kernel cimport Table, count_segment, table_init, table_release, table_reserve

cdef extern from "Python.h":
    object PySequence_Fast(object o, const char* message)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    PyObject* PyDict_SetDefault(object d, object key, object default_value) except NULL
    PyObject* PyDict_GetItemWithError(object d, object key) except? NULL
    long PyLong_AsLong(object o) except? -1

cdef Py_ssize_t MAX_TOKENS = 2147483646

# One table for all single-sentence calls: counting runs no Python code and holds the GIL, so
# no other call can use it meanwhile (interning, which can run Python code, uses per-call memory).
cdef Table SENTENCE_TABLE
table_init(&SENTENCE_TABLE)


cdef struct Ids:
    int32_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int ids_reserve(Ids* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t need = b.size + extra, cap
    cdef int32_t* grown
    if need <= b.cap:
        return 0
    cap = b.cap * 2 if b.cap else 256
    while cap < need:
        cap *= 2
    grown = <int32_t*>realloc(b.data, cap * sizeof(int32_t))
    if grown == NULL:
        raise MemoryError()
    b.data = grown
    b.cap = cap
    return 0


cdef object fast_of(object seq):
    """A list/tuple view of ``seq`` whose size agrees with ``len(seq)``, or None."""
    cdef Py_ssize_t n = len(seq)
    fast = PySequence_Fast(seq, b"not iterable")
    if PySequence_Fast_GET_SIZE(fast) != n:
        return None
    return fast


cdef int intern_hypothesis(dict vocab, object fast, Ids* ids, Py_ssize_t* next_id) except -1:
    cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(fast)
    cdef PyObject* found
    cdef object token
    ids_reserve(ids, n)
    for i in range(n):
        token = <object>PySequence_Fast_GET_ITEM(fast, i)
        # Look up first: a repeated token (most of them) then costs no new int object.
        found = PyDict_GetItemWithError(vocab, token)
        if found == NULL:
            found = PyDict_SetDefault(vocab, token, next_id[0])
            next_id[0] += 1
        ids.data[ids.size] = <int32_t>PyLong_AsLong(<object>found)
        ids.size += 1
    return 0


cdef int look_up_reference(dict vocab, object fast, Ids* ids) except -1:
    cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(fast)
    cdef PyObject* found
    ids_reserve(ids, n)
    for i in range(n):
        found = PyDict_GetItemWithError(vocab, <object>PySequence_Fast_GET_ITEM(fast, i))
        ids.data[ids.size] = -1 if found == NULL else <int32_t>PyLong_AsLong(<object>found)
        ids.size += 1
    return 0


def sentence_row(references, hypothesis, int orders):
    """``[hyp_len, closest_ref_len, matches_1..N, totals_1..N]`` for one hypothesis, or None."""
    cdef Ids ids
    cdef int64_t* offsets = NULL
    cdef int64_t* row = NULL
    cdef Py_ssize_t n_refs, k, hyp_len, next_id = 0, width = 2 + 2 * orders
    cdef dict vocab = {}
    if orders < 1:
        return None
    ids.data = NULL
    ids.size = ids.cap = 0
    ids_reserve(&ids, 1)  # never a NULL buffer, even for empty input
    try:
        try:
            n_refs = len(references)  # before iterating: a one-shot iterator stays untouched
            if n_refs == 0:
                return None
            hyp_fast = fast_of(hypothesis)
            refs_fast = fast_of(references)
            if hyp_fast is None or refs_fast is None:
                return None
            hyp_len = PySequence_Fast_GET_SIZE(hyp_fast)
            intern_hypothesis(vocab, hyp_fast, &ids, &next_id)
            offsets = <int64_t*>malloc((n_refs + 1) * sizeof(int64_t))
            if offsets == NULL:
                raise MemoryError()
            offsets[0] = hyp_len
            for k in range(n_refs):
                ref_fast = fast_of(<object>PySequence_Fast_GET_ITEM(refs_fast, k))
                if ref_fast is None:
                    return None
                look_up_reference(vocab, ref_fast, &ids)
                offsets[k + 1] = ids.size
        except MemoryError:
            raise
        except Exception:
            return None
        row = <int64_t*>calloc(width, sizeof(int64_t))
        if row == NULL or table_reserve(&SENTENCE_TABLE, orders, hyp_len) < 0:
            raise MemoryError("sentence_row: cannot allocate the n-gram table")
        count_segment(&SENTENCE_TABLE, row, orders, 0xFFFFFFFFFFFFFFFFULL, ids.data, hyp_len,
                      ids.data, offsets, 0, n_refs)
        if SENTENCE_TABLE.failed:
            SENTENCE_TABLE.failed = 0
            raise MemoryError("sentence_row: out of memory while counting")
        return [row[k] for k in range(width)]
    finally:
        free(ids.data)
        free(offsets)
        free(row)


def corpus_rows(reference_lists, hypotheses, int orders):
    """One kernel row per segment (an int64 array of shape (segments, 2 + 2*orders)), or None."""
    cdef Ids hyp_ids, ref_ids
    cdef int64_t* hyp_off = NULL
    cdef int64_t* ref_off = NULL
    cdef int64_t* seg_ref = NULL
    cdef Py_ssize_t n, i, k, m, n_refs_total = 0, cap_refs = 0, next_id = 0, longest = 0
    cdef dict vocab = {}
    cdef Table table
    cdef int64_t[:, ::1] out
    cdef int64_t* grown
    if orders < 1:
        return None
    hyp_ids.data = ref_ids.data = NULL
    hyp_ids.size = hyp_ids.cap = ref_ids.size = ref_ids.cap = 0
    table_init(&table)
    ids_reserve(&hyp_ids, 1)  # never NULL buffers, even for empty input
    ids_reserve(&ref_ids, 1)
    try:
        try:
            n = len(hypotheses)
            if n == 0 or len(reference_lists) != n:
                return None
            hyps_fast = fast_of(hypotheses)
            lists_fast = fast_of(reference_lists)
            if hyps_fast is None or lists_fast is None:
                return None
            hyp_off = <int64_t*>malloc((n + 1) * sizeof(int64_t))
            seg_ref = <int64_t*>malloc((n + 1) * sizeof(int64_t))
            if hyp_off == NULL or seg_ref == NULL:
                raise MemoryError()
            hyp_off[0] = 0
            for i in range(n):
                fast = fast_of(<object>PySequence_Fast_GET_ITEM(hyps_fast, i))
                if fast is None:
                    return None
                intern_hypothesis(vocab, fast, &hyp_ids, &next_id)
                hyp_off[i + 1] = hyp_ids.size
                if hyp_off[i + 1] - hyp_off[i] > longest:
                    longest = hyp_off[i + 1] - hyp_off[i]
                if hyp_ids.size > MAX_TOKENS:
                    return None
            seg_ref[0] = 0
            for i in range(n):
                refs_fast = fast_of(<object>PySequence_Fast_GET_ITEM(lists_fast, i))
                if refs_fast is None:
                    return None
                m = PySequence_Fast_GET_SIZE(refs_fast)
                if m == 0:
                    return None  # the library raises here; its own loop decides how
                if n_refs_total + m + 1 > cap_refs:
                    cap_refs = 2 * (n_refs_total + m + 1)
                    grown = <int64_t*>realloc(ref_off, cap_refs * sizeof(int64_t))
                    if grown == NULL:
                        raise MemoryError()
                    ref_off = grown
                    if n_refs_total == 0:
                        ref_off[0] = 0
                for k in range(m):
                    fast = fast_of(<object>PySequence_Fast_GET_ITEM(refs_fast, k))
                    if fast is None:
                        return None
                    look_up_reference(vocab, fast, &ref_ids)
                    n_refs_total += 1
                    ref_off[n_refs_total] = ref_ids.size
                seg_ref[i + 1] = n_refs_total
        except MemoryError:
            raise
        except Exception:
            return None
        vocab = None
        rows = _np.zeros((n, 2 + 2 * orders), dtype=_np.int64)
        out = rows
        if table_reserve(&table, orders, longest) < 0:
            raise MemoryError("corpus_rows: cannot allocate the n-gram table")
        with nogil:
            for i in range(n):
                count_segment(&table, &out[i, 0], orders, 0xFFFFFFFFFFFFFFFFULL,
                              hyp_ids.data + hyp_off[i], hyp_off[i + 1] - hyp_off[i],
                              ref_ids.data, ref_off, seg_ref[i], seg_ref[i + 1])
        if table.failed:
            raise MemoryError("corpus_rows: out of memory while counting")
        return rows
    finally:
        table_release(&table)
        free(hyp_ids.data)
        free(ref_ids.data)
        free(hyp_off)
        free(ref_off)
        free(seg_ref)
