# cython: language_level=3
# cython: freethreading_compatible=True
"""NLTK's sentence_bleu recipe in C over statistics rows (``nltk.py`` is the readable
specification; ``_nltk_scores_py.py`` is the twin, which calls it).

NLTK computes with Python numbers whose types matter: unreduced Fractions (exact), ints (int/int
true division rounds once), and floats. A Val carries the same three kinds; rationals are kept
reduced in int64 with every product checked. Whatever cannot be done exactly here (an overflow,
a division by zero, a non-finite float, a rule NLTK enforces by raising) sets the row's status,
and the caller recomputes that row with the Python recipe, which gives NLTK's value or error.
Loaded on first use (``recipes.chosen.nltk_scores()``).
"""
from libc.float cimport DBL_MIN
from libc.math cimport exp, isfinite, ldexp, log
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from turbobleu._engine.recipes.fsum cimport exact_sum

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
