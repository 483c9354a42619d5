# cython: language_level=3
"""Exact sacrebleu tokenizers that go straight from ``str`` to int32 token ids.

Each line is read as code points, rewritten by the tokenizer's rules into a code-point buffer, split
on Python's whitespace set and every token interned in a ``Vocab`` (a C hash table over code-point
spans). No Python object is made per token; the GIL is released while lines are processed.
``_tokenize_py.py`` is the readable twin of every rule here.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memcmp, memcpy, memmove
from cpython.unicode cimport PyUnicode_Check
import numpy as np

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)

# Tokenizer codes; tokenizers.py maps names to them.
TOK_NONE = 0
TOK_13A = 1

cdef int32_t UNKNOWN_ID = -1  # the id of a token missing from a frozen vocabulary


cdef inline bint py_space(uint32_t c) noexcept nogil:
    """Python's str.isspace() (what str.split() splits on); tests check it on every code point."""
    if c <= 0x20:
        return c == 0x20 or (0x09 <= c <= 0x0D) or (0x1C <= c <= 0x1F)
    if c < 0x85:
        return False
    return (c == 0x85 or c == 0xA0 or c == 0x1680 or (0x2000 <= c <= 0x200A) or c == 0x2028
            or c == 0x2029 or c == 0x202F or c == 0x205F or c == 0x3000)


def is_python_space(uint32_t c):
    """Test hook: the C whitespace predicate for one code point."""
    return py_space(c)


# ---------------------------------------------------------------------------------------------
# Growable code-point buffers
cdef struct Buf:
    uint32_t* data
    Py_ssize_t size
    Py_ssize_t cap

cdef int buf_reserve(Buf* b, Py_ssize_t cap) noexcept nogil:
    cdef uint32_t* p
    if cap <= b.cap:
        return 0
    if cap < 2 * b.cap:
        cap = 2 * b.cap
    p = <uint32_t*>realloc(b.data, cap * sizeof(uint32_t))
    if p == NULL:
        return -1
    b.data = p
    b.cap = cap
    return 0


# ---------------------------------------------------------------------------------------------
# Vocabulary: code-point spans -> dense int32 ids
cdef struct Entry:
    uint64_t hash
    int64_t start   # offset of the token's code points in the arena
    int32_t length
    int32_t id      # -1 marks an empty entry


cdef inline uint64_t span_hash(const uint32_t* s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 0xCBF29CE484222325ULL ^ <uint64_t>n
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ s[i]) * 0x100000001B3ULL
        h ^= h >> 31
    return h


cdef class Vocab:
    """Interns tokens (code-point strings) as ids 0, 1, 2, ... for the lifetime of one scoring job."""
    cdef Entry* entries
    cdef Py_ssize_t cap          # a power of two
    cdef Py_ssize_t count
    cdef Buf arena

    def __cinit__(self):
        self.cap = 1024
        self.count = 0
        self.entries = <Entry*>malloc(self.cap * sizeof(Entry))
        self.arena.data = NULL
        self.arena.size = 0
        self.arena.cap = 0
        if self.entries == NULL or buf_reserve(&self.arena, 4096) < 0:
            raise MemoryError()
        cdef Py_ssize_t i
        for i in range(self.cap):
            self.entries[i].id = -1

    def __dealloc__(self):
        free(self.entries)
        free(self.arena.data)

    def __len__(self):
        return self.count

    def token(self, int32_t token_id):
        """The string of an id (for debugging and tests)."""
        cdef Py_ssize_t i
        for i in range(self.cap):
            if self.entries[i].id == token_id:
                return "".join(chr(self.arena.data[self.entries[i].start + k])
                               for k in range(self.entries[i].length))
        raise KeyError(token_id)

    cdef int grow(self) noexcept nogil:
        cdef Py_ssize_t new_cap = self.cap * 2, i, j
        cdef Entry* fresh = <Entry*>malloc(new_cap * sizeof(Entry))
        if fresh == NULL:
            return -1
        for i in range(new_cap):
            fresh[i].id = -1
        for i in range(self.cap):
            if self.entries[i].id >= 0:
                j = <Py_ssize_t>(self.entries[i].hash & <uint64_t>(new_cap - 1))
                while fresh[j].id >= 0:
                    j = (j + 1) & (new_cap - 1)
                fresh[j] = self.entries[i]
        free(self.entries)
        self.entries = fresh
        self.cap = new_cap
        return 0

    cdef int32_t intern(self, const uint32_t* s, Py_ssize_t n, bint frozen) noexcept nogil:
        """Id of the token s[:n]; new tokens get the next id, or -1 when frozen; -2 on no memory."""
        cdef uint64_t h = span_hash(s, n)
        cdef Py_ssize_t j = <Py_ssize_t>(h & <uint64_t>(self.cap - 1))
        cdef Entry* e
        while True:
            e = &self.entries[j]
            if e.id < 0:
                break
            if (e.hash == h and e.length == n
                    and memcmp(&self.arena.data[e.start], s, n * sizeof(uint32_t)) == 0):
                return e.id
            j = (j + 1) & (self.cap - 1)
        if frozen:
            return UNKNOWN_ID
        if buf_reserve(&self.arena, self.arena.size + n) < 0:
            return -2
        memcpy(&self.arena.data[self.arena.size], s, n * sizeof(uint32_t))
        e.hash = h
        e.start = self.arena.size
        e.length = <int32_t>n
        e.id = <int32_t>self.count
        self.arena.size += n
        self.count += 1
        if 2 * self.count > self.cap:
            if self.grow() < 0:
                return -2
        return <int32_t>(self.count - 1)


# ---------------------------------------------------------------------------------------------
# Rewriting passes. Each one reproduces one step of sacrebleu's tokenizer exactly.

cdef Py_ssize_t replace_shrinking(uint32_t* s, Py_ssize_t n, const char* pat, Py_ssize_t plen,
                                  const char* rep, Py_ssize_t rlen) noexcept nogil:
    """In place, str.replace(pat, rep) for ASCII pat/rep with len(rep) <= len(pat)."""
    cdef Py_ssize_t i = 0, o = 0, k
    cdef bint hit
    while i < n:
        hit = i + plen <= n
        if hit:
            for k in range(plen):
                if s[i + k] != <uint32_t>pat[k]:
                    hit = False
                    break
        if hit:
            for k in range(rlen):
                s[o + k] = <uint32_t>rep[k]
            o += rlen
            i += plen
        else:
            s[o] = s[i]
            o += 1
            i += 1
    return o


cdef inline bint contains(const uint32_t* s, Py_ssize_t n, uint32_t c) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if s[i] == c:
            return True
    return False


cdef inline bint is_digit(uint32_t c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint is_13a_symbol(uint32_t c) noexcept nogil:
    # [\{-\~\[-\` -\&\(-\+\:-\@\/]: ASCII punctuation and symbols except ' , - . (and the space)
    return ((0x7B <= c <= 0x7E) or (0x5B <= c <= 0x60) or (0x20 <= c <= 0x26)
            or (0x28 <= c <= 0x2B) or (0x3A <= c <= 0x40) or c == 0x2F)


cdef Py_ssize_t pad_symbols(const uint32_t* s, Py_ssize_t n, uint32_t* out) noexcept nogil:
    """re.sub(r'([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])', r' \\1 ')"""
    cdef Py_ssize_t i, o = 0
    for i in range(n):
        if is_13a_symbol(s[i]):
            out[o] = 0x20
            out[o + 1] = s[i]
            out[o + 2] = 0x20
            o += 3
        else:
            out[o] = s[i]
            o += 1
    return o


cdef Py_ssize_t pair_rule(const uint32_t* s, Py_ssize_t n, uint32_t* out, int rule) noexcept nogil:
    """One two-character re.sub with its leftmost, non-overlapping scan.

    rule 2: ([^0-9])([.,]) -> '\\1 \\2 '   rule 3: ([.,])([^0-9]) -> ' \\1 \\2'
    rule 4: ([0-9])(-)     -> '\\1 \\2 '
    """
    cdef Py_ssize_t i = 0, o = 0
    cdef uint32_t a, b
    cdef bint hit
    while i < n:
        if i + 1 < n:
            a = s[i]
            b = s[i + 1]
            if rule == 2:
                hit = not is_digit(a) and (b == 0x2E or b == 0x2C)
            elif rule == 3:
                hit = (a == 0x2E or a == 0x2C) and not is_digit(b)
            else:
                hit = is_digit(a) and b == 0x2D
            if hit:
                if rule == 3:
                    out[o] = 0x20
                    out[o + 1] = a
                    out[o + 2] = 0x20
                    out[o + 3] = b
                else:
                    out[o] = a
                    out[o + 1] = 0x20
                    out[o + 2] = b
                    out[o + 3] = 0x20
                o += 4
                i += 2
                continue
        out[o] = s[i]
        o += 1
        i += 1
    return o


cdef struct Work:
    Buf a
    Buf b


cdef Py_ssize_t rewrite_13a(Work* w, Py_ssize_t n) noexcept nogil:
    """sacrebleu's Tokenizer13a on w.a.data[:n] (already rstripped); result in w.a. -1 on no memory."""
    cdef uint32_t* s = w.a.data
    if contains(s, n, 0x3C):  # '<'
        n = replace_shrinking(s, n, b"<skipped>", 9, b"", 0)
    if contains(s, n, 0x0A):  # '\n'
        n = replace_shrinking(s, n, b"-\n", 2, b"", 0)
        n = replace_shrinking(s, n, b"\n", 1, b" ", 1)
    if contains(s, n, 0x26):  # '&'
        n = replace_shrinking(s, n, b"&quot;", 6, b"\"", 1)
        n = replace_shrinking(s, n, b"&amp;", 5, b"&", 1)
        n = replace_shrinking(s, n, b"&lt;", 4, b"<", 1)
        n = replace_shrinking(s, n, b"&gt;", 4, b">", 1)
    # f' {line} ', then the four regex rules. Rule 1 adds at most 2 per character; rules 2 and 3 add
    # 2 per '.' or ',' and rule 4 2 per '-': 7n + 6 code points at most.
    if buf_reserve(&w.a, 8 * n + 16) < 0 or buf_reserve(&w.b, 8 * n + 16) < 0:
        return -1
    s = w.a.data
    memmove(s + 1, s, n * sizeof(uint32_t))
    s[0] = 0x20
    s[n + 1] = 0x20
    n = pad_symbols(s, n + 2, w.b.data)
    n = pair_rule(w.b.data, n, w.a.data, 2)
    n = pair_rule(w.a.data, n, w.b.data, 3)
    n = pair_rule(w.b.data, n, w.a.data, 4)
    return n


cdef int split_intern(Vocab vocab, const uint32_t* s, Py_ssize_t n, bint frozen, Buf* ids) noexcept nogil:
    """str.split() of s[:n], each token interned and its id appended to ids (as uint32 bits)."""
    cdef Py_ssize_t i = 0, start
    cdef int32_t tid
    while i < n:
        while i < n and py_space(s[i]):
            i += 1
        if i >= n:
            break
        start = i
        while i < n and not py_space(s[i]):
            i += 1
        tid = vocab.intern(s + start, i - start, frozen)
        if tid == -2 or buf_reserve(ids, ids.size + 1) < 0:
            return -1
        ids.data[ids.size] = <uint32_t>tid
        ids.size += 1
    return 0


cdef int tokenize_line(int kind, Vocab vocab, bint frozen, int pykind, const void* data,
                       Py_ssize_t length, Work* w, Buf* ids) noexcept nogil:
    cdef Py_ssize_t i, n = length
    if buf_reserve(&w.a, length + 16) < 0:
        return -1
    if pykind == 1:
        for i in range(length):
            w.a.data[i] = (<const unsigned char*>data)[i]
    elif pykind == 2:
        for i in range(length):
            w.a.data[i] = (<const unsigned short*>data)[i]
    else:
        memcpy(w.a.data, data, length * sizeof(uint32_t))
    while n > 0 and py_space(w.a.data[n - 1]):   # str.rstrip()
        n -= 1
    if kind == 1:
        n = rewrite_13a(w, n)
        if n < 0:
            return -1
    return split_intern(vocab, w.a.data, n, frozen, ids)


def tokenize(list lines, int kind, bint lowercase, Vocab vocab, bint frozen=False,
             str what="lines"):
    """Tokenize every str in ``lines`` into ids; returns (ids int32 array, offsets int64 array).

    With ``frozen``, tokens not already in ``vocab`` get id -1 (they can match nothing).
    """
    cdef Py_ssize_t n_lines = len(lines), i
    cdef list keep = lines
    if lowercase:
        keep = [None] * n_lines
    cdef int* kinds = <int*>malloc((n_lines + 1) * sizeof(int))
    cdef void** datas = <void**>malloc((n_lines + 1) * sizeof(void*))
    cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc((n_lines + 1) * sizeof(Py_ssize_t))
    cdef int64_t* offsets = <int64_t*>malloc((n_lines + 1) * sizeof(int64_t))
    cdef Work w
    cdef Buf ids
    cdef int status = 0
    w.a.data = NULL; w.a.size = 0; w.a.cap = 0
    w.b.data = NULL; w.b.size = 0; w.b.cap = 0
    ids.data = NULL; ids.size = 0; ids.cap = 0
    try:
        if kinds == NULL or datas == NULL or lengths == NULL or offsets == NULL:
            raise MemoryError()
        for i in range(n_lines):
            line = lines[i]
            if not PyUnicode_Check(line):
                raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
            if lowercase:
                line = line.lower()
                keep[i] = line
            kinds[i] = PyUnicode_KIND(line)
            datas[i] = PyUnicode_DATA(line)
            lengths[i] = PyUnicode_GET_LENGTH(line)
        offsets[0] = 0
        with nogil:
            for i in range(n_lines):
                if tokenize_line(kind, vocab, frozen, kinds[i], datas[i], lengths[i], &w, &ids) < 0:
                    status = -1
                    break
                offsets[i + 1] = ids.size
        if status < 0:
            raise MemoryError("tokenize: out of memory")
        id_arr = np.empty(ids.size, dtype=np.int32)
        off_arr = np.empty(n_lines + 1, dtype=np.int64)
        if ids.size:
            memcpy(<void*><Py_ssize_t>id_arr.ctypes.data, ids.data, ids.size * sizeof(int32_t))
        memcpy(<void*><Py_ssize_t>off_arr.ctypes.data, offsets, (n_lines + 1) * sizeof(int64_t))
        return id_arr, off_arr
    finally:
        free(kinds); free(datas); free(lengths); free(offsets)
        free(w.a.data); free(w.b.data); free(ids.data)


def tokenize_strings(list lines, int kind, bint lowercase):
    """Test hook: the tokenizer's output as lists of token strings (sacrebleu's ``.split()``)."""
    cdef Vocab vocab = Vocab()
    id_arr, off_arr = tokenize(lines, kind, lowercase, vocab)
    names = {}
    result = []
    for i in range(len(lines)):
        toks = []
        for t in id_arr[off_arr[i]:off_arr[i + 1]].tolist():
            if t not in names:
                names[t] = vocab.token(t)
            toks.append(names[t])
        result.append(toks)
    return result
