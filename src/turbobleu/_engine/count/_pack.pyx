# cython: language_level=3
# cython: freethreading_compatible=True
"""Packing token-id inputs: Python sequences of integer sequences -> CSR buffers (int32 ids, int64
offsets) that the counting modules read (``_pack_py.py`` is the readable twin).

Items are read through CPython's sequence protocol; a bad item raises naming where it is
(``what[i][j]``). Loaded on first use (``count.chosen.packer()``): it needs NumPy for its arrays.
"""
import re
from operator import index as _index

import numpy as _np

from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, int64_t

cdef extern from "Python.h":
    object PySequence_Fast(object o, const char* m)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    bint PySequence_Check(object o)
    bint PyLong_Check(PyObject* o)
    bint PyIndex_Check(PyObject* o)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow) except? -1
    bint PyList_Check(object o)
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    object PyList_AsTuple(object o)
    object PyNumber_Index(object o)

cdef extern from "cpython_layout.h":
    bint PyLong_CheckExact(PyObject* o)
    int tb_compact_int(PyObject* o, long long* out)


cdef object snapshot_fast(object seq):
    """PySequence_Fast(seq), copied when it is a list (the caller's own list): the Python code
    that reading its items can run (an iterator, __index__) cannot then change what is read."""
    fast = PySequence_Fast(seq, b"not a sequence")
    return PyList_AsTuple(fast) if PyList_Check(fast) else fast


cdef inline object fast_items(object seq, str what, Py_ssize_t i, str give, str expected):
    """PySequence_Fast of the input ``what[i]``, which must not be text (``give`` says what to
    pass instead) and must be ``expected``: a sequence (a dict or a set would be iterated in key
    or hash order, whatever it holds)."""
    if PyList_CheckExact(seq) or PyTuple_CheckExact(seq):   # the common case, already fast
        return seq
    if isinstance(seq, (str, bytes)):
        raise TypeError(f"{what}[{i}] is a {type(seq).__name__}: {give}, or pass text with a "
                        "tokenizer (tokenize=...)")
    if not PySequence_Check(seq):
        raise TypeError(f"{what}[{i}] must be {expected}, got {type(seq).__name__}")
    try:
        return PySequence_Fast(seq, b"not a sequence")
    except TypeError:  # a sequence type that cannot be iterated: a 0-d array
        raise TypeError(f"{what}[{i}] must be {expected}, got {_describe(seq)}") from None


cdef changed_size(str what, Py_ssize_t i):
    raise RuntimeError(f"{what}[{i}] changed size while its token ids were read (by the "
                       f"Python code of one of its items)")


cdef str _describe(object item):
    return f"{type(item).__name__} {item!r}" if not isinstance(item, (list, tuple)) else \
        type(item).__name__


cdef str _id_rule(object pad):
    """The range rule of the ids, as ``_pack_py._id_rule`` words it."""
    if pad is None:
        return "token ids must be integers in 0..2**31-1 (negative ids are reserved)"
    return (f"the ids left after dropping pad_id={pad} must be integers in 0..2**31-1 "
            f"(negative ids are reserved)")


cdef int32_t _as_id(PyObject* item, str what, Py_ssize_t i, Py_ssize_t j, bint small_pad,
                    long long pad, object pad_obj, bint* skip) except? -1:
    """The id of ``item``; ``skip[0]`` set when it equals the pad id: ``pad`` where it fits a
    long long (``small_pad``), else the Python int ``pad_obj`` (None: no pad id)."""
    cdef int overflow = 0
    cdef long long v
    cdef object number
    if PyLong_Check(item):
        number = <object>item
    else:
        # __index__ may refuse (an array of several values): the message is ours all the same.
        try:
            if not PyIndex_Check(item):
                raise TypeError
            number = PyNumber_Index(<object>item)
        except TypeError:
            raise TypeError(f"{what}[{i}][{j}] must be an integer token id, got "
                            f"{_describe(<object>item)}") from None
    v = PyLong_AsLongLongAndOverflow(<PyObject*>number, &overflow)
    if overflow == 0:
        skip[0] = small_pad and v == pad
    else:
        # Beyond 64 bits: only a pad id beyond them too can equal it (e.g. 2**64-1).
        skip[0] = not small_pad and pad_obj is not None and number == pad_obj
    if skip[0]:
        return 0
    if overflow != 0 or v < 0 or v > 2147483647:
        raise ValueError(f"{what}[{i}][{j}] = {<object>item!r}: {_id_rule(pad_obj)}")
    return <int32_t>v


def pack_sequences(rows, str what, pad=None, Py_ssize_t first=0):
    """Pack a sequence of integer sequences into ``(ids int32, offsets int64)`` (CSR).

    Every id must be an integer in 0..2**31-1; a bad item raises naming ``what[i][j]``. Items
    equal to ``pad`` (an int of any size, or None) are left out. Messages count rows from
    ``first``.
    """
    cdef Py_ssize_t n, i, j, m, total = 0, pos = 0
    cdef list fast = []
    cdef object row, seq
    cdef bint small_pad = False, skip = False
    cdef long long padv = 0
    if pad is not None:
        pad = _index(pad)
        try:
            padv = pad
            small_pad = True
        except OverflowError:  # any int may pad a Python list: compared as a Python int
            pass
    cdef long long small_v = 0
    cdef int32_t v
    cdef PyObject* item
    cdef object token
    if isinstance(rows, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of token-id sequences, "
                        f"got {type(rows).__name__}")
    rows = snapshot_fast(rows)
    n = PySequence_Fast_GET_SIZE(rows)
    for i in range(n):
        row = <object>PySequence_Fast_GET_ITEM(rows, i)
        seq = fast_items(row, what, i + first, "give token ids", "a sequence of token ids")
        fast.append(seq)
        total += PySequence_Fast_GET_SIZE(seq)
    ids = _np.empty(total, dtype=_np.int32)
    off = _np.empty(n + 1, dtype=_np.int64)
    cdef int32_t[::1] idv = ids
    cdef int64_t[::1] offv = off
    offv[0] = 0
    for i in range(n):
        seq = fast[i]
        m = PySequence_Fast_GET_SIZE(seq)
        # A row (a list) that Python code lengthened since it was measured would not fit.
        if pos + m > total:
            changed_size(what, i + first)
        for j in range(m):
            item = PySequence_Fast_GET_ITEM(seq, j)
            # Fast path: a small non-negative exact int that is not the pad id.
            if PyLong_CheckExact(item) and tb_compact_int(item, &small_v) \
                    and 0 <= small_v <= 2147483647 and not (small_pad and small_v == padv):
                idv[pos] = <int32_t>small_v
                pos += 1
                continue
            token = <object>item    # held: its __index__ may drop the row's reference to it
            v = _as_id(<PyObject*>token, what, i + first, j, small_pad, padv, pad, &skip)
            if PySequence_Fast_GET_SIZE(seq) != m:
                changed_size(what, i + first)
            if not skip:
                idv[pos] = v
                pos += 1
        offv[i + 1] = pos
    return (ids if pos == total else ids[:pos].copy()), off


def pack_groups(groups, str what, pad=None, Py_ssize_t first=0):
    """Pack a sequence of groups (each a sequence of integer sequences) into
    ``(ids int32, offsets int64, group_offsets int64)``: group g is the sequences
    ``group_offsets[g]..group_offsets[g+1]``. Bad items raise naming ``what[g][k][j]``; items
    equal to ``pad`` are left out. Messages count groups from ``first``."""
    cdef Py_ssize_t n, g, k
    cdef list flat = []
    cdef object grp, seq
    if isinstance(groups, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of reference lists, "
                        f"got {type(groups).__name__}")
    groups = snapshot_fast(groups)
    n = PySequence_Fast_GET_SIZE(groups)
    goff = _np.empty(n + 1, dtype=_np.int64)
    cdef int64_t[::1] goffv = goff
    goffv[0] = 0
    for g in range(n):
        grp = <object>PySequence_Fast_GET_ITEM(groups, g)
        seq = fast_items(grp, what, g + first, "give a list of token-id references",
                         "a list of references (token-id sequences)")
        for k in range(PySequence_Fast_GET_SIZE(seq)):
            item = <object>PySequence_Fast_GET_ITEM(seq, k)
            if PyLong_Check(<PyObject*>item) or PyIndex_Check(<PyObject*>item):
                raise TypeError(f"{what}[{g + first}][{k}] is an integer: {what}[{g + first}] must "
                                f"be a list of "
                                f"references, each a sequence of ids (for one reference per "
                                f"row, wrap it: [[ref] for ref in refs])")
            flat.append(item)
        goffv[g + 1] = len(flat)
    try:
        ids, off = pack_sequences(flat, what, pad)
    except (TypeError, ValueError) as exc:
        raise type(exc)(_regroup_message(str(exc), what, goff, first)) from None
    return ids, off, goff


cdef str _regroup_message(str message, str what, object goff, Py_ssize_t first):
    """Rewrite 'what[r][j]' (r a flat reference index) as 'what[g][k][j]'."""
    found = re.match(re.escape(what) + r"\[(\d+)\]", message)
    if not found:
        return message
    r = int(found.group(1))
    g = int(_np.searchsorted(goff, r, side="right")) - 1
    return f"{what}[{g + first}][{r - int(goff[g])}]" + message[found.end():]
