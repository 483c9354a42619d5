/* Every read of CPython's object layout that turbobleu makes, in one place, each gated by version.
 * Where CPython has a public or PyUnstable_ function for it, that is used; elsewhere a portable
 * fallback. Each says which CPython versions its direct read holds for. Only CPython builds the
 * extensions (setup.py), so PyPy and others never include this.
 */
#ifndef TURBOBLEU_CPYTHON_LAYOUT_H
#define TURBOBLEU_CPYTHON_LAYOUT_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A str's characters are readable once it is "ready": always from 3.12 on (no legacy strs). */
#if PY_VERSION_HEX < 0x030C0000
#define tb_unicode_ready(o) PyUnicode_READY(o)
#else
#define tb_unicode_ready(o) 0
#endif

/* A str's cached hash, -1 until first computed (the caller then calls PyObject_Hash).
 * - 3.15+: PyUnstable_Unicode_GET_CACHED_HASH (an atomic load on free-threaded builds);
 * - free-threaded 3.13/3.14: another thread may be storing the hash: an atomic relaxed load;
 * - 3.9-3.14 with the GIL: the field PyASCIIObject.hash, present in all of them. */
#if PY_VERSION_HEX >= 0x030F00A1
#define tb_cached_str_hash(o) PyUnstable_Unicode_GET_CACHED_HASH(o)
#elif defined(Py_GIL_DISABLED)
#define tb_cached_str_hash(o) _Py_atomic_load_ssize_relaxed(&((PyASCIIObject *)(o))->hash)
#else
#define tb_cached_str_hash(o) (((PyASCIIObject *)(o))->hash)
#endif

/* 1 where another thread may change a list while this one reads its items: free-threaded
 * builds, whose lists have no GIL to keep them still. Readers copy lists into tuples there. */
#ifdef Py_GIL_DISABLED
#define TB_LISTS_SHARED 1
#else
#define TB_LISTS_SHARED 0
#endif

/* A token's head: its first min(nbytes, 8) bytes copied into a zeroed 64-bit number (the rest
   is compared with memcmp). Every token of a table must get the same value for the same bytes,
   whichever way it is computed below: _intern's str_find tells equal tokens by it. */
static inline uint64_t tb_str_head_copied(const unsigned char *d, Py_ssize_t nbytes) {
    uint64_t x = 0;
    memcpy(&x, d, nbytes < 8 ? (size_t)nbytes : 8);
    return x;
}

/* The same value without a branch on the length (which real text makes unpredictable): the 8
 * bytes that end with the last character, shifted down to the characters. A compact str's header
 * lies right before its characters (3.3-3.14 at least: PyASCIIObject/PyCompactUnicodeObject
 * precede the data), so the load stays inside the object; the header bytes are shifted out.
 * Not on free-threaded builds, where another thread may write those header bytes (the hash, the
 * interned state) meanwhile: a race a sanitizer rightly reports even though the bytes are
 * discarded. Legacy (non-compact) strs (3.11 and older) and big-endian builds copy. */
static inline uint64_t tb_str_head(PyObject *o, const unsigned char *d, Py_ssize_t nbytes) {
#if PY_LITTLE_ENDIAN && !defined(Py_GIL_DISABLED) && PY_VERSION_HEX < 0x030F0000
    if (PyUnicode_IS_COMPACT(o)) {
        Py_ssize_t back = (8 - nbytes) & -(Py_ssize_t)(nbytes < 8);   /* no branch */
        uint64_t x;
        memcpy(&x, d - back, 8);
        return (x >> (4 * back)) >> (4 * back);
    }
#else
    (void)o;
#endif
    return tb_str_head_copied(d, nbytes);
}

/* The value of an exact int that fits one internal digit, without a call: 1 if done, 0 if the
 * caller must use PyLong_AsLongLongAndOverflow.
 * - 3.12+ (free-threaded builds included): PyUnstable_Long_IsCompact/CompactValue;
 * - 3.9-3.11: the sign-and-size in ob_size and the first of ob_digit, the layout of those. */
static inline int tb_compact_int(PyObject *o, long long *out) {
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *out = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 1;
    }
    return 0;
#else
    Py_ssize_t size = Py_SIZE(o);
    if (size == 0) { *out = 0; return 1; }
    if (size == 1) { *out = (long long)((PyLongObject *)o)->ob_digit[0]; return 1; }
    if (size == -1) { *out = -(long long)((PyLongObject *)o)->ob_digit[0]; return 1; }
    return 0;
#endif
}

#endif /* TURBOBLEU_CPYTHON_LAYOUT_H */
