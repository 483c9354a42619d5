# cython: language_level=3
# cython: freethreading_compatible=True
"""pycocoevalcap's per-image BLEU-1..n in C over statistics rows (``pycocoevalcap.py`` beside it
is the readable specification; ``_pycocoevalcap_scores_py.py`` is the twin, which calls it).

The float operations are the library's, in its order, on doubles: each int count becomes a
double exactly (counts are far below 2**53), ``+``, ``*`` and ``/`` round as Python's float
operations do, and ``pow`` and ``exp`` are libm's, the functions that Python's ``float ** float``
and ``math.exp`` call for these arguments (a positive finite base; a finite, non-positive
exponent). Loaded on first use (``recipes.chosen.pycocoevalcap_scores()``).
"""
from libc.stdint cimport int64_t

cdef extern from *:
    """
    #include <math.h>
    /* libm through volatile pointers: the compiler must not replace pow(x, 1.0/2) by sqrt or
       fold anything, since CPython calls these functions as they are. */
    static double tb_coco_pow(double x, double y) {
        double (*volatile f)(double, double) = pow;
        return f(x, y);
    }
    static double tb_coco_exp(double x) {
        double (*volatile f)(double) = exp;
        return f(x);
    }
    """
    double tb_coco_pow(double x, double y) nogil
    double tb_coco_exp(double x) nogil

cdef double SMALL = 1e-9
cdef double TINY = 1e-15


def image_scores(const int64_t[:, ::1] rows, const double[::1] reflens, int orders,
                 double[:, ::1] out):
    """``out[k, i]`` = BLEU-(k+1) of image ``i``, from its row ``[testlen, _, matches_1..N,
    totals_1..N]`` and its effective reference length ``reflens[i]``."""
    cdef Py_ssize_t images = rows.shape[0], i
    cdef Py_ssize_t row_order = (rows.shape[1] - 2) // 2
    cdef int k
    cdef double bleu, ratio, penalty
    if orders < 0:
        raise ValueError(f"orders must be >= 0, got {orders}")
    if rows.shape[1] < 4 or rows.shape[1] % 2 or row_order < orders:
        raise ValueError(
            f"image_scores: rows must have 2 + 2*N columns with N >= max(orders, 1), "
            f"got {rows.shape[1]} for orders={orders}"
        )
    if reflens.shape[0] != images or out.shape[0] != orders or out.shape[1] != images:
        raise ValueError(
            "image_scores: reflens must have one value per row and out the shape (orders, rows)"
        )
    with nogil:
        for i in range(images):
            bleu = 1.0
            for k in range(orders):
                bleu = bleu * (((<double>rows[i, 2 + k]) + TINY)
                               / ((<double>rows[i, 2 + row_order + k]) + SMALL))
                out[k, i] = tb_coco_pow(bleu, 1.0 / (k + 1))
            ratio = ((<double>rows[i, 0]) + TINY) / (reflens[i] + SMALL)
            if ratio < 1:
                penalty = tb_coco_exp(1.0 - 1.0 / ratio)
                for k in range(orders):
                    out[k, i] = out[k, i] * penalty
