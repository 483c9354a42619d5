# sacrebleu's sentence recipe for one statistics row in C (``sacrebleu.sacrebleu_score`` is the
# readable specification; the operations and their order are the same, so the doubles are the
# same). Inline: _sacrebleu_scores.pyx scores many rows with it, and bleu/_text_rows.pyx's sentence
# path one, without importing that module (``import turbobleu`` does not load it).
from libc.math cimport exp, fabs, isfinite, log
from libc.stdint cimport int64_t
from libc.string cimport memcpy, memset


cdef inline int smooth_code(str smooth_method) except -1:
    """The code sacrebleu_row switches on (KeyError for an unknown method, as a dict lookup)."""
    if smooth_method == "none":
        return 0
    if smooth_method == "floor":
        return 1
    if smooth_method == "add-k":
        return 2
    if smooth_method == "exp":
        return 3
    raise KeyError(smooth_method)


cdef inline double python_sum(const double* x, int n, bint neumaier) noexcept nogil:
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


cdef inline double sacrebleu_row(const int64_t* row, int N, int method, double value,
                                 bint value_is_int, bint effective_order, bint neumaier,
                                 double* logs, double* precisions, double* bp_out) noexcept nogil:
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


cdef inline tuple score_parts_of_row(const int64_t* row, int max_order, str smooth_method,
                                     smooth_value, bint effective_order, bint neumaier):
    """sacrebleu_score_parts of a row in C memory. Raises, without reading ``row``, for more
    than 16 orders (the caller's C arrays hold no more) and for add-k."""
    cdef double logs[16]
    cdef double prec[16]
    cdef double bp
    cdef Py_ssize_t k
    cdef int method = -1
    if 1 <= max_order <= 16:
        method = smooth_code(smooth_method)
    if method == -1 or method == 2:
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    if smooth_value is None:
        smooth_value = 0.1 if method == 1 else 0
    score = sacrebleu_row(row, max_order, method, <double>smooth_value, False, effective_order,
                          neumaier, logs, prec, &bp)
    return score, [prec[k] for k in range(max_order)], bp
