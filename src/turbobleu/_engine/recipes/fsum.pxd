# math.fsum in C: the NLTK recipe sums its weighted logs with it, once per row, in
# _nltk_scores.pyx and in _intern.pyx's sentence path. Inline, so that neither imports the other.
from libc.math cimport fabs


cdef inline double exact_sum(const double* x, int n, double* partials) noexcept nogil:
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
