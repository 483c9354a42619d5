# Declarations shared with _tokenize.pyx (its sentence path scores a row in C memory).
from libc.stdint cimport int64_t

cdef tuple score_parts_of_row(const int64_t* row, int max_order, str smooth_method,
                              smooth_value, bint effective_order, bint neumaier)
