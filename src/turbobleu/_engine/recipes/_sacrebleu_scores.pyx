# cython: language_level=3
# cython: freethreading_compatible=True
"""sacrebleu's sentence recipe in C over statistics rows (``sacrebleu.sacrebleu_score`` is the
readable specification; the operations and their order are the same, so the doubles are the
same). ``_sacrebleu_scores_py.py`` is the twin, which calls that specification.
"""
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc

from turbobleu._engine.recipes.sacrebleu_row cimport (sacrebleu_row, score_parts_of_row,
                                                      smooth_code)

SMOOTH_CODES = {name: smooth_code(name) for name in ("none", "floor", "add-k", "exp")}


def sacrebleu_sentence_scores(const int64_t[:, ::1] rows, int max_order, str smooth_method,
                              smooth_value, bint effective_order, bint neumaier,
                              double[::1] out):
    """out[i] = sacrebleu's score of statistics row i (see recipes.sacrebleu_score)."""
    cdef int method = smooth_code(smooth_method)
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
                                       effective_order, neumaier, logs, NULL, NULL)
    finally:
        free(logs)


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
