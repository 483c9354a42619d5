# cython: language_level=3
# cython: freethreading_compatible=True
"""sacrebleu's sentence recipe in C over statistics rows (``sacrebleu.sacrebleu_score`` is the
readable specification; the operations and their order are the same, so the doubles are the
same). ``_sacrebleu_scores_py.py`` is the twin, which calls that specification.

With ``arithmetic="float32"`` the rows are bootstrap resamples, scored as sacrebleu does under
NumPy 2: their statistics are float32 and so is the arithmetic on them (the specification is
``recipes.sacrebleu_batch.bleu_scores`` with ``"float32"``); C's float is that IEEE single
precision.
"""
from libc.math cimport exp, log
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc

from turbobleu._engine.recipes.sacrebleu_row cimport (python_sum, sacrebleu_row,
                                                      score_parts_of_row, smooth_code)

SMOOTH_CODES = {name: smooth_code(name) for name in ("none", "floor", "add-k", "exp")}


cdef double float32_row(const int64_t* row, int N, int method, double value, bint effective_order,
                        bint neumaier, double* logs) noexcept nogil:
    """sacrebleu's score of one resample row (exact integers below 2**24, so exact as float32)."""
    cdef int64_t sys_len = row[0], ref_len = row[1]
    cdef double bp = 1.0, halvings = 1.0
    cdef float hundred = 100.0, k = <float>value, c, t
    cdef int n, used = N
    cdef bint any_match = False
    for n in range(N):
        if row[2 + n] != 0:
            any_match = True
    if not any_match:           # checked before add-k changes the counts
        return 0.0
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(N):
        logs[n] = 0.0
    for n in range(N):
        c = <float>row[2 + n]
        t = <float>row[2 + N + n]
        if method == 2 and n > 0:   # add-k: float32(k) added in float32
            c = c + k
            t = t + k
        if t == 0:
            break
        if effective_order:
            used = n + 1
        if c != 0:
            logs[n] = (hundred * c) / t
        elif method == 3:
            halvings *= 2
            logs[n] = hundred / (<float>halvings * t)
        elif method == 1:           # 100. * value is a Python float, rounded to meet t
            logs[n] = <float>(100.0 * value) / t
    for n in range(used):
        if logs[n] == 0.0:          # sacrebleu's log(0) = -9999999999: the score is exactly 0
            return bp * 0.0
        logs[n] = log(logs[n])
    return bp * exp(python_sum(logs, used, neumaier) / used)


def sacrebleu_sentence_scores(const int64_t[:, ::1] rows, int max_order, str smooth_method,
                              smooth_value, bint effective_order, bint neumaier,
                              double[::1] out, str arithmetic="int64"):
    """out[i] = sacrebleu's score of statistics row i (see recipes.sacrebleu_score), with the
    row's values as sacrebleu holds them: ``"int64"`` (ints), or ``"float32"`` (a bootstrap
    resample's sums under NumPy 2: every value must be exact in float32, below 2**24)."""
    cdef int method = smooth_code(smooth_method)
    cdef double value = 0.0
    cdef bint value_is_int = True, as_float32 = arithmetic == "float32"
    cdef Py_ssize_t i, k
    if not as_float32 and arithmetic != "int64":
        raise ValueError(f"arithmetic must be 'int64' or 'float32', got {arithmetic!r}")
    if smooth_value is None:
        smooth_value = {1: 0.1, 2: 1}.get(method, 0)
    value_is_int = isinstance(smooth_value, int)
    value = smooth_value
    if rows.shape[1] != 2 + 2 * max_order or out.shape[0] != rows.shape[0]:
        raise ValueError("sacrebleu_sentence_scores: shapes do not match")
    for i in range(rows.shape[0] if as_float32 else 0):
        for k in range(rows.shape[1]):
            if not -16777216 < rows[i, k] < 16777216:
                raise ValueError("sacrebleu_sentence_scores: a value is not exact in float32")
    cdef double* logs = <double*>malloc(max_order * sizeof(double))
    if logs == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(rows.shape[0]):
                if as_float32:
                    out[i] = float32_row(&rows[i, 0], max_order, method, value,
                                         effective_order, neumaier, logs)
                else:
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
