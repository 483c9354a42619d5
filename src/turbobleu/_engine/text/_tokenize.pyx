# cython: language_level=3
# cython: freethreading_compatible=True
"""Exact sacrebleu tokenizers (none, 13a, intl, zh, char) that go straight from ``str`` to int32
ids.

Each line is read as code points, rewritten by the tokenizer's rules into a code-point buffer, split
on Python's whitespace set and every token interned in a ``Vocab`` (a C hash table over code-point
spans). No Python object is made per token; the GIL is released while lines are processed.
``_tokenize_py.py`` is the readable twin of every rule here.

BLEU's fused paths from text to statistics rows (``bleu/_text_rows.pyx``) tokenize with this
module through ``_tokenize.pxd``: its structs, ``Vocab`` and the functions they call.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memchr, memcpy, memset
from cpython.unicode cimport PyUnicode_Check
cimport cython

from turbobleu._engine.c_arrays cimport grow_array, same_span
from turbobleu._engine.scratch cimport (prefetch, tb_load_acquire, tb_scratch_give,
                                        tb_scratch_take, tb_store_release, warm_memory)
from _thread import RLock  # threading's C lock, without importing threading

# Tokenizer codes; tokenizers.py maps names to them.
TOK_NONE = 0
TOK_13A = 1
TOK_INTL = 2
TOK_ZH = 3
TOK_CHAR = 4
cdef int LAST_KIND = 4

cdef int32_t UNKNOWN_ID = -1  # the id of a token missing from a frozen vocabulary


cdef enum:
    LAST_SPACE = 0x3000     # no code point above U+3000 is whitespace

# Bit c of SPACE_BITS says whether code point c <= LAST_SPACE is Python whitespace.
cdef uint64_t SPACE_BITS[193]   # LAST_SPACE // 64 + 1


cdef inline bint py_space_slow(uint32_t c) noexcept nogil:
    if c <= 0x20:
        return c == 0x20 or (0x09 <= c <= 0x0D) or (0x1C <= c <= 0x1F)
    return (c == 0x85 or c == 0xA0 or c == 0x1680 or (0x2000 <= c <= 0x200A) or c == 0x2028
            or c == 0x2029 or c == 0x202F or c == 0x205F or c == 0x3000)


def _init_space_bits():
    cdef uint32_t c
    for c in range(LAST_SPACE + 1):
        if py_space_slow(c):
            SPACE_BITS[c >> 6] |= (<uint64_t>1) << (c & 63)


_init_space_bits()


cdef inline bint py_space(uint32_t c) noexcept nogil:
    """Python's str.isspace() (what str.split() splits on); tests check it on every code point."""
    if c <= 0x20:
        return c == 0x20 or (0x09 <= c <= 0x0D) or (0x1C <= c <= 0x1F)
    if c < 0x85:
        return False
    return c <= LAST_SPACE and (SPACE_BITS[c >> 6] >> (c & 63)) & 1


def is_python_space(uint32_t c):
    """Test hook: the C whitespace predicate for one code point."""
    return py_space(c)


# ---------------------------------------------------------------------------------------------
# Growable code-point buffers (Buf, in _tokenize.pxd)
cdef int buf_reserve(Buf* b, Py_ssize_t cap) noexcept nogil:
    """Room for ``cap`` code points; -1 when memory runs out."""
    return grow_array(<void**>&b.data, &b.cap, cap, sizeof(uint32_t))


# ---------------------------------------------------------------------------------------------
# Vocabulary: code-point spans -> dense int32 ids (VocabMem and TokenInfo, in _tokenize.pxd)

cdef enum:
    HASH_BASIS = 0xCBF29CE484222325ULL   # FNV-1a over code points, then a final mix

cdef inline uint64_t hash_step(uint64_t h, uint32_t c) noexcept nogil:
    return (h ^ c) * 0x100000001B3ULL


cdef inline uint64_t hash_finish(uint64_t h, Py_ssize_t n) noexcept nogil:
    h ^= <uint64_t>n
    h ^= h >> 32               # FNV-1a's low bits are weak: mix before masking
    h *= 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef inline uint64_t span_hash(const uint32_t* s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = HASH_BASIS
    cdef Py_ssize_t i
    for i in range(n):
        h = hash_step(h, s[i])
    return hash_finish(h, n)


cdef inline uint64_t slot_value(uint64_t h, Py_ssize_t token_id) noexcept nogil:
    return (h & 0xFFFFFFFF00000000ULL) | <uint64_t>(token_id + 1)


# A vocabulary interns tokens (code-point strings) as ids 0, 1, 2, ... for one scoring job. Its
# hash table holds 8-byte slots (the hash's high half as a tag, and id + 1; 0 is empty) so that
# it stays in cache; a tag match is verified against the token's code points.
#
# Its memory is kept for this thread's next vocabulary (scratch.h): a corpus call's vocabulary
# otherwise goes back to the allocator, which returns it to the system, and the next call faults
# it in again. A kept one has every slot zero and char_ids zero (or NULL).
cdef enum:
    VOCAB_SLOT = 0              # this module's scratch.h slot


cdef void vocab_release(VocabMem* v) noexcept nogil:
    free(v.char_ids)
    free(v.slots)
    free(v.info)
    free(v.arena.data)
    memset(v, 0, sizeof(VocabMem))


cdef void release_vocab_box(void* box) noexcept nogil:
    vocab_release(<VocabMem*>box)
    free(box)


cdef int vocab_init(VocabMem* v) noexcept nogil:
    """A new empty vocabulary in ``v`` (zeroed); -1 when memory runs out."""
    v.cap = v.slots_alloc = 1024
    v.info_cap = 512
    v.slots = <uint64_t*>calloc(v.cap, sizeof(uint64_t))
    v.info = <TokenInfo*>malloc(v.info_cap * sizeof(TokenInfo))
    if v.slots == NULL or v.info == NULL or buf_reserve(&v.arena, 4096) < 0:
        return -1
    return 0


cdef VocabMem* vocab_take() noexcept nogil:
    """An empty vocabulary: this thread's kept memory, or new; NULL when memory runs out."""
    cdef VocabMem* v = <VocabMem*>tb_scratch_take(VOCAB_SLOT)
    if v != NULL:
        # The table starts small again (a sparse large one would cost cache misses) and grows
        # in place.
        v.cap = 1024 if v.slots_alloc >= 1024 else v.slots_alloc
        warm_memory(v.slots, v.cap * sizeof(uint64_t))
        v.count = 0
        v.arena.size = 0
        v.char_blocks = 0
        v.char_cache = False
        return v
    v = <VocabMem*>calloc(1, sizeof(VocabMem))
    if v != NULL and vocab_init(v) < 0:
        release_vocab_box(v)
        v = NULL
    return v


cdef void vocab_give(VocabMem* v) noexcept nogil:
    """Done with ``v`` (NULL is allowed): keep its memory for this thread's next vocabulary."""
    if v == NULL:
        return
    if v.slots == NULL or v.info == NULL or v.arena.data == NULL:
        release_vocab_box(v)
        return
    memset(v.slots, 0, v.cap * sizeof(uint64_t))   # the rest is zero already
    vocab_clear_char_ids(v)
    tb_scratch_give(VOCAB_SLOT, v, v.slots_alloc * sizeof(uint64_t)
                    + v.info_cap * sizeof(TokenInfo) + v.arena.cap * sizeof(uint32_t)
                    + (65536 * sizeof(int32_t) if v.char_ids != NULL else 0), release_vocab_box)


cdef void vocab_clear_char_ids(VocabMem* v) noexcept nogil:
    """Zero char_ids again, block by block: only the blocks written since it was zero
    (``char_blocks``), not its 256 KiB (a corpus touches few of them)."""
    cdef int b
    if v.char_ids == NULL:
        return
    for b in range(64):
        if v.char_blocks >> b & 1:
            memset(&v.char_ids[b << 10], 0, 1024 * sizeof(int32_t))
    v.char_blocks = 0


cdef int vocab_reset(VocabMem* v) noexcept nogil:
    """Forget every token (keeps the memory unless the table grew large)."""
    cdef uint64_t* fresh
    if v.cap > 4096:
        fresh = <uint64_t*>malloc(1024 * sizeof(uint64_t))
        if fresh == NULL:
            return -1
        free(v.slots)
        v.slots = fresh
        v.cap = v.slots_alloc = 1024
    memset(v.slots, 0, v.cap * sizeof(uint64_t))
    free(v.char_ids)
    v.char_ids = NULL
    v.char_blocks = 0
    v.char_cache = False
    v.count = 0
    v.arena.size = 0
    return 0


cdef int vocab_grow(VocabMem* v) noexcept nogil:
    """Double the table; every entry is re-inserted from ``info``."""
    cdef Py_ssize_t new_cap = v.cap * 2, i, j
    cdef uint64_t h
    cdef uint64_t* fresh
    if new_cap <= v.slots_alloc:
        memset(v.slots, 0, v.cap * sizeof(uint64_t))   # beyond cap: zero already
        warm_memory(v.slots + v.cap, v.cap * sizeof(uint64_t))
        fresh = v.slots
    else:
        fresh = <uint64_t*>calloc(new_cap, sizeof(uint64_t))
        if fresh == NULL:
            return -1
    for i in range(v.count):
        h = v.info[i].hash
        j = <Py_ssize_t>(h & <uint64_t>(new_cap - 1))
        while fresh[j] != 0:
            j = (j + 1) & (new_cap - 1)
        fresh[j] = slot_value(h, i)
    if fresh != v.slots:
        free(v.slots)
        v.slots = fresh
        v.slots_alloc = new_cap
    v.cap = new_cap
    return 0


cdef inline int32_t vocab_intern(VocabMem* v, const uint32_t* s, Py_ssize_t n,
                                 bint frozen) noexcept nogil:
    """Id of the token s[:n]; new tokens get the next id, or -1 when frozen; -2 on no memory."""
    return vocab_intern_hashed(v, s, n, span_hash(s, n), frozen)


cdef inline int32_t vocab_intern_char(VocabMem* v, uint32_t c, bint frozen) noexcept nogil:
    """intern() of a one-character token. With ``char_cache`` on, a character below 65536
    seen once is looked up by index (char and zh tokens are mostly single characters)."""
    cdef int32_t tid
    if v.char_cache and c < 65536:
        if v.char_ids == NULL and not frozen:
            v.char_ids = <int32_t*>calloc(65536, sizeof(int32_t))
        if v.char_ids != NULL and v.char_ids[c] != 0:
            return v.char_ids[c] - 1
    tid = vocab_intern(v, &c, 1, frozen)
    # A frozen lookup writes nothing: threads may look up in one vocabulary at once (a
    # BLEU with cached references). Its id is in the cache already unless it is unknown.
    if tid >= 0 and c < 65536 and v.char_ids != NULL and not frozen:
        v.char_ids[c] = tid + 1
        v.char_blocks |= 1ULL << (c >> 10)
    return tid


cdef int32_t vocab_intern_hashed(VocabMem* v, const uint32_t* s, Py_ssize_t n, uint64_t h,
                                 bint frozen) noexcept nogil:
    """intern() with h == span_hash(s, n) already computed."""
    cdef uint64_t tag = h & 0xFFFFFFFF00000000ULL, sv
    cdef Py_ssize_t j, tid
    cdef TokenInfo* t
    cdef TokenInfo* grown
    if 2 * v.count > v.cap and vocab_grow(v) < 0:
        return -2   # a growth failed before and fails again: the table must keep empty slots
    j = <Py_ssize_t>(h & <uint64_t>(v.cap - 1))
    while True:
        sv = v.slots[j]
        if sv == 0:
            break
        if (sv & 0xFFFFFFFF00000000ULL) == tag:
            tid = <Py_ssize_t>(sv & 0xFFFFFFFFULL) - 1
            t = &v.info[tid]
            if t.length == n and same_span(&v.arena.data[t.start], s, n):
                return <int32_t>tid
        j = (j + 1) & (v.cap - 1)
    if frozen:
        return UNKNOWN_ID
    if v.count >= 0x7FFFFFFF:
        return -2
    if v.count == v.info_cap:
        grown = <TokenInfo*>realloc(v.info, 2 * v.info_cap * sizeof(TokenInfo))
        if grown == NULL:
            return -2
        v.info = grown
        v.info_cap *= 2
    if buf_reserve(&v.arena, v.arena.size + n) < 0:
        return -2
    memcpy(&v.arena.data[v.arena.size], s, n * sizeof(uint32_t))
    tid = v.count
    v.info[tid].hash = h
    v.info[tid].start = v.arena.size
    v.info[tid].length = n
    v.slots[j] = slot_value(h, tid)
    v.arena.size += n
    v.count += 1
    if 2 * v.count > v.cap:
        if vocab_grow(v) < 0:
            return -2
    return <int32_t>tid


@cython.final
cdef class Vocab:
    """A vocabulary (see VocabMem) for the lifetime of one scoring job. Shared between threads
    it must only be read: frozen lookups (tokenize(..., frozen=True)) write nothing; adding
    tokens from two threads at once is not supported (a BLEU with cached references adds them
    once, when it is made)."""

    def __cinit__(self):
        self.m = vocab_take()
        if self.m == NULL:
            raise MemoryError()

    def __dealloc__(self):
        vocab_give(self.m)
        self.m = NULL

    def __len__(self):
        return self.m.count

    def token(self, int32_t token_id):
        """The string of an id (for debugging and tests)."""
        if not 0 <= token_id < self.m.count:
            raise KeyError(token_id)
        cdef TokenInfo t = self.m.info[token_id]
        return "".join(chr(self.m.arena.data[t.start + k]) for k in range(t.length))


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


cdef inline Py_ssize_t count_cp(const uint32_t* s, Py_ssize_t n, uint32_t c) noexcept nogil:
    """How often c occurs in s[:n]: a loop without an early exit, which compilers vectorize
    (the characters looked for this way are rare, so an early exit would rarely be taken)."""
    cdef Py_ssize_t i, hits = 0
    for i in range(n):
        hits += s[i] == c
    return hits


cdef inline bint is_digit(uint32_t c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint is_13a_symbol(uint32_t c) noexcept nogil:
    # [\{-\~\[-\` -\&\(-\+\:-\@\/]: ASCII punctuation and symbols except ' , - . (and the space)
    return ((0x7B <= c <= 0x7E) or (0x5B <= c <= 0x60) or (0x20 <= c <= 0x26)
            or (0x28 <= c <= 0x2B) or (0x3A <= c <= 0x40) or c == 0x2F)


# ---------------------------------------------------------------------------------------------
# The streaming pipeline. A line's code points flow through the tokenizer's rules into the
# splitter, which interns each token as soon as whitespace ends it; nothing is materialised.
#
# Each of 13a's two-character rules (re.sub of a pattern `(A)(B)`, scanned leftmost and
# non-overlapping) is exactly a transducer with one pending character: when the next character
# arrives, either the pair matches (emit the replacement, nothing pending) or the pending
# character is emitted unchanged and the new one becomes pending.

cdef uint32_t NOTHING = 0xFFFFFFFF
cdef uint32_t SPACE = 0x20

# (Pipe, the pipeline's state, is declared in _tokenize.pxd.)
cdef inline void sink(Pipe* p, uint32_t c) noexcept nogil:
    """str.split(): whitespace ends the current token, anything else extends it."""
    cdef uint32_t* grown
    if py_space(c):
        end_token(p)
        return
    if p.tok_len == p.tok_cap:
        grown = <uint32_t*>realloc(p.tok, 2 * p.tok_cap * sizeof(uint32_t))
        if grown == NULL:
            p.failed = 1
            return
        p.tok = grown
        p.tok_cap *= 2
    p.tok[p.tok_len] = c
    p.tok_len += 1


cdef inline void append_id(Pipe* p, int32_t tid) noexcept nogil:
    """Append an interned token's id (-2 from the vocabulary means it ran out of memory)."""
    if tid == -2 or buf_reserve(p.ids, p.ids.size + 1) < 0:
        p.failed = 1
        return
    p.ids.data[p.ids.size] = <uint32_t>tid
    p.ids.size += 1


cdef inline void emit_span(Pipe* p, const uint32_t* tok, Py_ssize_t n) noexcept nogil:
    """Intern one token and append its id."""
    append_id(p, vocab_intern(p.vocab, tok, n, p.frozen))


cdef inline void emit_char(Pipe* p, uint32_t c) noexcept nogil:
    """emit_span() of the one-character token c."""
    append_id(p, vocab_intern_char(p.vocab, c, p.frozen))


cdef inline void emit_span_hashed(Pipe* p, const uint32_t* tok, Py_ssize_t n,
                                  uint64_t h) noexcept nogil:
    """emit_span() with h == span_hash(tok, n) already computed."""
    append_id(p, vocab_intern_hashed(p.vocab, tok, n, h, p.frozen))


cdef inline void end_token(Pipe* p) noexcept nogil:
    if p.tok_len == 0:
        return
    emit_span(p, p.tok, p.tok_len)
    p.tok_len = 0


cdef inline void rule4(Pipe* p, uint32_t c) noexcept nogil:
    """([0-9])(-) -> '\\1 \\2 '"""
    cdef uint32_t a = p.pend4
    if a == NOTHING:
        p.pend4 = c
    elif c == 0x2D and is_digit(a):
        sink(p, a); sink(p, SPACE); sink(p, c); sink(p, SPACE)
        p.pend4 = NOTHING
    else:
        sink(p, a)
        p.pend4 = c


cdef inline void rule3(Pipe* p, uint32_t c) noexcept nogil:
    """([.,])([^0-9]) -> ' \\1 \\2'"""
    cdef uint32_t a = p.pend3
    if a == NOTHING:
        p.pend3 = c
    elif (a == 0x2E or a == 0x2C) and not is_digit(c):
        rule4(p, SPACE); rule4(p, a); rule4(p, SPACE); rule4(p, c)
        p.pend3 = NOTHING
    else:
        rule4(p, a)
        p.pend3 = c


cdef inline void rule2(Pipe* p, uint32_t c) noexcept nogil:
    """([^0-9])([.,]) -> '\\1 \\2 '"""
    cdef uint32_t a = p.pend2
    if a == NOTHING:
        p.pend2 = c
    elif (c == 0x2E or c == 0x2C) and not is_digit(a):
        rule3(p, a); rule3(p, SPACE); rule3(p, c); rule3(p, SPACE)
        p.pend2 = NOTHING
    else:
        rule3(p, a)
        p.pend2 = c


cdef inline void finish_13a(Pipe* p) noexcept nogil:
    """End of line: flush the pending characters rule by rule, then the last token."""
    if p.pend2 != NOTHING:
        rule3(p, p.pend2)
        p.pend2 = NOTHING
    if p.pend3 != NOTHING:
        rule4(p, p.pend3)
        p.pend3 = NOTHING
    if p.pend4 != NOTHING:
        sink(p, p.pend4)
        p.pend4 = NOTHING
    end_token(p)


# Character classes for the ASCII range (everything else is PLAIN unless it is whitespace).
cdef enum:
    PLAIN = 0
    WHITE = 1     # Python whitespace: splits tokens
    SYMBOL = 2    # 13a rule 1: always a token of its own
    SPECIAL = 4   # . and , : rules 2 and 3 may split around them
    HYPHEN = 8    # - : rule 4 splits it off after a digit

cdef unsigned char ASCII_CLASS[128]


def _init_classes():
    cdef int c
    for c in range(128):
        ASCII_CLASS[c] = PLAIN
        if py_space(c):
            ASCII_CLASS[c] = WHITE
        elif is_13a_symbol(c):
            ASCII_CLASS[c] = SYMBOL
        elif c == 0x2E or c == 0x2C:
            ASCII_CLASS[c] = SPECIAL
        elif c == 0x2D:
            ASCII_CLASS[c] = HYPHEN


_init_classes()


cdef inline int char_class(uint32_t c) noexcept nogil:
    if c < 128:
        return ASCII_CLASS[c]
    return WHITE if py_space(c) else PLAIN


cdef inline bint digit_hyphen(const uint32_t* s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """Whether s[start:end] has a digit followed by '-' (where 13a's rule 4 splits)."""
    cdef Py_ssize_t k
    for k in range(start + 1, end):
        if s[k] == 0x2D and is_digit(s[k - 1]):
            return True
    return False


cdef inline Py_ssize_t split_off(Pipe* p, const uint32_t* s, Py_ssize_t piece,
                                 Py_ssize_t k) noexcept nogil:
    """Emit the token s[piece:k] (if not empty), then s[k] as a token of its own; returns where
    the next token starts."""
    if k > piece:
        emit_span(p, s + piece, k - piece)
    emit_char(p, s[k])
    return k + 1


cdef inline bint is_mark(uint32_t c) noexcept nogil:
    return c == 0x2E or c == 0x2C


cdef bint split_marks(Pipe* p, const uint32_t* s, Py_ssize_t start, Py_ssize_t end,
                      bint open_before, bint open_after) noexcept nogil:
    """Rules 2-4 on a chunk (between whitespace and tokens of their own) whose every '.' and ','
    has no '.' or ',' next to it and which has no digit followed by '-': emit its tokens and
    return True; otherwise emit nothing and return False (the transducers handle the chunk).

    Under those conditions rule 4 changes nothing and each mark is alone in its rules' matches:
    rule 2 splits it off after a non-digit, rule 3 before a non-digit, so it becomes a token of
    its own unless digits stand on both sides ("1,000"). Outside the chunk stands a space
    (``open_before``/``open_after``: a non-digit) or the line's unpadded edge (zh), where the
    rule needing a character there cannot match: like a digit.
    """
    cdef Py_ssize_t k, piece = start
    cdef bint digit_before, digit_after
    for k in range(start, end):
        if is_mark(s[k]) and k + 1 < end and is_mark(s[k + 1]):
            return False
        if s[k] == 0x2D and k > start and is_digit(s[k - 1]):
            return False
    for k in range(start, end):
        if not is_mark(s[k]):
            continue
        digit_before = is_digit(s[k - 1]) if k > start else not open_before
        digit_after = is_digit(s[k + 1]) if k + 1 < end else not open_after
        if digit_before and digit_after:
            continue
        piece = split_off(p, s, piece, k)
    if end > piece:
        emit_span(p, s + piece, end - piece)
    return True


cdef void feed_13a(Pipe* p, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    """Rules 1-4 on f' {line} ', then str.split(), interning every token.

    Whitespace and rule-1 symbols (which rule 1 surrounds with spaces) act on rules 2-4 only as
    "a non-digit that is not . , -": every rule's scan is in its initial state after one. So the
    line falls into chunks between them, handled independently: a chunk without . , or - is one
    token as it stands; most others split at their marks directly (split_marks); the rest go
    through the rule 2-4 transducers, padded by a space.
    """
    cdef Py_ssize_t i = 0, start, k
    cdef int cls, seen
    cdef uint64_t h
    while i < n:
        cls = char_class(s[i])
        if cls == WHITE:
            i += 1
            continue
        if cls == SYMBOL:
            emit_char(p, s[i])
            i += 1
            continue
        start = i
        seen = 0
        h = HASH_BASIS
        while i < n:
            cls = char_class(s[i])
            if cls == WHITE or cls == SYMBOL:
                break
            seen |= cls
            h = hash_step(h, s[i])
            i += 1
        if seen == 0 or (seen == HYPHEN and not digit_hyphen(s, start, i)):
            # "word", "well-known": no rule applies
            emit_span_hashed(p, s + start, i - start, hash_finish(h, i - start))
        elif not split_marks(p, s, start, i, True, True):   # "word.", "U.S.", "1,000"
            rule2(p, SPACE)
            for k in range(start, i):
                rule2(p, s[k])
            rule2(p, SPACE)
            finish_13a(p)


# ---------------------------------------------------------------------------------------------
# intl (mteval-v14): three regex.sub passes on the rstripped line, then str.split():
#   1. (\P{N})(\p{P}) -> '\1 \2 '    punctuation after a non-number
#   2. (\p{P})(\P{N}) -> ' \1 \2'    punctuation before a non-number
#   3. (\p{S})        -> ' \1 '      every symbol
# N, P and S are the `regex` package's Unicode classes (see unicode_classes.py), looked up in a
# two-level table: block index per 128 code points, then the class of each code point. The
# table also marks Python whitespace (I_WHITE, in no class), so the splitter needs one lookup per
# character, whatever its script.
cdef enum:
    I_NUMBER = 1
    I_PUNCT = 2
    I_SYMBOL = 4
    I_CLASSES = 7
    I_WHITE = 8     # Python whitespace (never in a class)

cdef const uint16_t* INTL_INDEX = NULL
cdef const uint8_t* INTL_BLOCKS = NULL
cdef uint8_t INTL_BMP[65536]     # the same, flat for U+0000-U+FFFF: one load per character
cdef object INTL_ARRAYS = None   # keeps the table's arrays alive


cdef inline int intl_char(uint32_t c) noexcept nogil:
    """intl_class, or I_WHITE for whitespace (code points beyond U+10FFFF cannot occur)."""
    if c < 65536:
        return INTL_BMP[c]
    return INTL_BLOCKS[(<Py_ssize_t>INTL_INDEX[c >> 7] << 7) | (c & 127)]


cdef inline int intl_class(uint32_t c) noexcept nogil:
    """I_NUMBER, I_PUNCT, I_SYMBOL or 0."""
    return intl_char(c) & I_CLASSES


cdef tuple with_spaces_marked(index, blocks):
    """The class table (uint16 index, uint8 blocks) with I_WHITE added to every whitespace code
    point: each block holding one gets a copy of its own (blocks are shared between ranges)."""
    import numpy as np
    index = np.array(index, dtype=np.uint16)    # a copy: the caller's table stays as it was
    blocks = np.ascontiguousarray(blocks, dtype=np.uint8)
    cdef dict marked = {}                        # block number -> its copy, whitespace marked
    cdef uint32_t c
    for c in range(LAST_SPACE + 1):
        if py_space(c):
            if (c >> 7) not in marked:
                first = 128 * int(index[c >> 7])
                marked[c >> 7] = blocks[first:first + 128].copy()
            marked[c >> 7][c & 127] |= I_WHITE
    for j, k in enumerate(marked):
        index[k] = blocks.shape[0] // 128 + j
    return index, np.concatenate([blocks] + list(marked.values()))


# One thread builds the table; the others wait for it. Re-entrant: building runs Python code (an
# import, NumPy), and a gc callback or a finalizer there may tokenize with intl on this thread.
INTL_LOCK = RLock()


cdef int ensure_intl_table() except -1:
    """Load the class table on first use (it comes from Python: the shipped or `regex`'s). It is
    built once, under INTL_LOCK, and published by storing INTL_INDEX last with release order:
    a thread that loads a non-NULL INTL_INDEX (acquire) sees the whole table, with or without a
    GIL."""
    global INTL_BLOCKS, INTL_ARRAYS
    cdef Py_ssize_t k
    cdef const uint8_t* blocks_data
    cdef const uint16_t* index_data
    if tb_load_acquire(<void**>&INTL_INDEX) != NULL:
        return 0
    with INTL_LOCK:
        if tb_load_acquire(<void**>&INTL_INDEX) != NULL:
            return 0    # another thread built it while this one waited
        from turbobleu._engine.text.unicode_classes import two_level_table
        index, blocks = two_level_table()
        index, blocks = with_spaces_marked(index, blocks)
        if index.shape[0] != (0x110000 >> 7) or blocks.shape[0] != 128 * (int(index.max()) + 1):
            raise ValueError("intl class table has the wrong shape")
        if tb_load_acquire(<void**>&INTL_INDEX) != NULL:
            return 0    # a re-entrant call on this thread built it meanwhile: leave it as is
        blocks_data = <const uint8_t*><Py_ssize_t>blocks.ctypes.data
        index_data = <const uint16_t*><Py_ssize_t>index.ctypes.data
        INTL_ARRAYS = (index, blocks)   # keeps them alive for good
        for k in range(512):
            memcpy(INTL_BMP + (k << 7), blocks_data + (<Py_ssize_t>index_data[k] << 7), 128)
        INTL_BLOCKS = blocks_data
        tb_store_release(<void**>&INTL_INDEX, <void*>index_data)
    return 0


def intl_char_of(uint32_t c):
    """Test hook: what the intl splitter looks up for code point ``c``: its class, plus 8 for
    whitespace."""
    if c > 0x10FFFF:
        raise ValueError("not a code point")
    ensure_intl_table()
    return intl_char(c)


def intl_class_of(uint32_t c):
    """Test hook: the intl class code of one code point (1 N, 2 P, 4 S, 0 none)."""
    if c > 0x10FFFF:
        raise ValueError("not a code point")
    ensure_intl_table()
    return intl_class(c)


cdef inline void intl_rule3(Pipe* p, uint32_t c, int cls) noexcept nogil:
    """(\\p{S}) -> ' \\1 '"""
    if cls == I_SYMBOL:
        sink(p, SPACE); sink(p, c); sink(p, SPACE)
    else:
        sink(p, c)


cdef inline void intl_rule2(Pipe* p, uint32_t c, int cls) noexcept nogil:
    """(\\p{P})(\\P{N}) -> ' \\1 \\2'"""
    cdef uint32_t a = p.pend3
    cdef int a_cls = p.pend3_cls
    if a == NOTHING:
        p.pend3 = c
        p.pend3_cls = cls
    elif a_cls == I_PUNCT and cls != I_NUMBER:
        intl_rule3(p, SPACE, 0); intl_rule3(p, a, a_cls)
        intl_rule3(p, SPACE, 0); intl_rule3(p, c, cls)
        p.pend3 = NOTHING
    else:
        intl_rule3(p, a, a_cls)
        p.pend3 = c
        p.pend3_cls = cls


cdef inline void intl_rule1(Pipe* p, uint32_t c, int cls) noexcept nogil:
    """(\\P{N})(\\p{P}) -> '\\1 \\2 '; ``cls`` is c's class (carried down the passes)."""
    cdef uint32_t a = p.pend2
    cdef int a_cls = p.pend2_cls
    if a == NOTHING:
        p.pend2 = c
        p.pend2_cls = cls
    elif cls == I_PUNCT and a_cls != I_NUMBER:
        intl_rule2(p, a, a_cls); intl_rule2(p, SPACE, 0)
        intl_rule2(p, c, cls); intl_rule2(p, SPACE, 0)
        p.pend2 = NOTHING
    else:
        intl_rule2(p, a, a_cls)
        p.pend2 = c
        p.pend2_cls = cls


cdef inline void finish_intl(Pipe* p) noexcept nogil:
    if p.pend2 != NOTHING:
        intl_rule2(p, p.pend2, p.pend2_cls)
        p.pend2 = NOTHING
    if p.pend3 != NOTHING:
        intl_rule3(p, p.pend3, p.pend3_cls)
        p.pend3 = NOTHING
    end_token(p)


cdef bint split_intl_word(Pipe* p, const uint32_t* s, Py_ssize_t start, Py_ssize_t end,
                          bint at_line_start, bint at_line_end) noexcept nogil:
    """intl's passes on a word (a run without whitespace) none of whose punctuation or symbol
    characters stand next to each other: emit its tokens and return True; otherwise emit
    nothing and return False (the transducers handle the word).

    Then each such character is alone in its passes' matches. A symbol is always a token of its
    own (pass 3). Punctuation is split off by pass 1 after a non-number (whitespace included),
    or else by pass 2 before a non-number; it stays inside the word only with a number or the
    line's edge on each side ("1.5", the line "5." or ".5"): the line is not padded, so a pass
    needing a character beyond its edge cannot match there.
    """
    cdef Py_ssize_t k, piece = start
    cdef int cls
    cdef bint number_before, number_after
    for k in range(start, end - 1):
        if intl_char(s[k]) & (I_PUNCT | I_SYMBOL) and intl_char(s[k + 1]) & (I_PUNCT | I_SYMBOL):
            return False
    for k in range(start, end):
        cls = intl_char(s[k])
        if cls == I_PUNCT:
            # "edge" counts as a number here: neither pass can match across it
            number_before = intl_char(s[k - 1]) == I_NUMBER if k > start else at_line_start
            number_after = intl_char(s[k + 1]) == I_NUMBER if k + 1 < end else at_line_end
            if number_before and number_after:
                continue
        elif cls != I_SYMBOL:
            continue
        piece = split_off(p, s, piece, k)
    if end > piece:
        emit_span(p, s + piece, end - piece)
    return True


cdef void feed_intl(Pipe* p, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    """The three passes and str.split() on an rstripped line, interning every token.

    Whitespace is outside all three classes, so for every pass it is just "a non-number that is
    no punctuation": each pass's scan is in the same state after a whitespace character wherever
    it occurs. Runs of non-whitespace ("words") are therefore handled independently: a word with
    no punctuation or symbol is a token as it stands; the others go through the passes between
    the whitespace that surrounds them (none at the line's start: no padding here, unlike 13a).
    """
    cdef Py_ssize_t i = 0, start, k
    cdef int cls, seen
    cdef uint64_t h
    while i < n:
        if intl_char(s[i]) == I_WHITE:
            i += 1
            continue
        start = i
        seen = 0
        h = HASH_BASIS
        while i < n:
            cls = intl_char(s[i])
            if cls == I_WHITE:
                break
            seen |= cls
            h = hash_step(h, s[i])
            i += 1
        if (seen & (I_PUNCT | I_SYMBOL)) == 0:
            emit_span_hashed(p, s + start, i - start, hash_finish(h, i - start))
        elif not split_intl_word(p, s, start, i, start == 0, i == n):   # "word.", "(a)"
            if start > 0:
                intl_rule1(p, SPACE, 0)
            for k in range(start, i):
                intl_rule1(p, s[k], intl_class(s[k]))
            if i < n:
                intl_rule1(p, SPACE, 0)
            finish_intl(p)


# ---------------------------------------------------------------------------------------------
# zh: str.strip(), ' c ' around every "Chinese" character, then 13a's rules 1-4 with no padding.
cdef inline bint is_zh_char(uint32_t c) noexcept nogil:
    """sacrebleu's set, as its string comparisons really make it (see _tokenize_py.ZH_RANGES):
    U+2001-U+2A6D is in it ('\\u20000' is two characters), Extension B (U+20000+) is not."""
    if c < 0x2001:
        return False
    if c <= 0x2A6D:
        return True
    if c < 0x2E80:
        return False
    if c <= 0x4DB5:
        return (c <= 0x2FDF or (0x2FF0 <= c <= 0x303F) or (0x3100 <= c <= 0x312F)
                or (0x31A0 <= c <= 0x31EF) or c >= 0x3200)
    if c < 0x4E00:
        return False
    if c <= 0x9FBB:
        return True
    if c < 0xF900:
        return False
    return (c <= 0xFA2D or (0xFA30 <= c <= 0xFA6A) or (0xFA70 <= c <= 0xFAD9)
            or (0xFE10 <= c <= 0xFE1F) or (0xFE30 <= c <= 0xFE4F) or (0xFF00 <= c <= 0xFFEF))


def is_zh_char_of(uint32_t c):
    """Test hook: whether zh puts spaces around code point ``c``."""
    return is_zh_char(c)


cdef void feed_zh(Pipe* p, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    """zh on an rstripped line, interning every token.

    A Chinese character ends up between spaces, so like whitespace and 13a's symbols it is a
    token of its own and resets rules 2-4 (see feed_13a). The line is not padded: a word at the
    very start (after the left strip) or end has no space before or after it.
    """
    cdef Py_ssize_t i = 0, first, start, k
    cdef int cls, seen
    cdef uint32_t c
    cdef uint64_t h
    while i < n and py_space(s[i]):
        i += 1
    first = i
    while i < n:
        c = s[i]
        cls = char_class(c)
        if cls == WHITE:
            i += 1
            continue
        if cls == SYMBOL or is_zh_char(c):
            emit_char(p, s[i])
            i += 1
            continue
        start = i
        seen = 0
        h = HASH_BASIS
        while i < n:
            c = s[i]
            cls = char_class(c)
            if cls == WHITE or cls == SYMBOL or is_zh_char(c):
                break
            seen |= cls
            h = hash_step(h, c)
            i += 1
        if seen == 0:
            emit_span_hashed(p, s + start, i - start, hash_finish(h, i - start))
        elif not split_marks(p, s, start, i, start > first, i < n):
            if start > first:
                rule2(p, SPACE)
            for k in range(start, i):
                rule2(p, s[k])
            if i < n:
                rule2(p, SPACE)
            finish_13a(p)


# ---------------------------------------------------------------------------------------------
# char: ' '.join(line) and str.split(): every non-whitespace code point is a token.
cdef void feed_char(Pipe* p, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if not py_space(s[i]):
            emit_char(p, s[i])


cdef void split_spans(Pipe* p, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    """str.split(), interning every token."""
    cdef Py_ssize_t i = 0, start
    while i < n:
        if py_space(s[i]):
            i += 1
            continue
        start = i
        while i < n and not py_space(s[i]):
            i += 1
        emit_span(p, s + start, i - start)


cdef Py_ssize_t preprocess_13a(uint32_t* s, Py_ssize_t n) noexcept nogil:
    """13a's literal replacements, in sacrebleu's order, in place; returns the new length."""
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
    return n


cdef void widen(int pykind, const void* data, Py_ssize_t n, uint32_t* out) noexcept nogil:
    """The code points of a str's buffer (1, 2 or 4 bytes each) as uint32."""
    cdef Py_ssize_t i
    if pykind == 1:
        for i in range(n):
            out[i] = (<const unsigned char*>data)[i]
    elif pykind == 2:
        for i in range(n):
            out[i] = (<const unsigned short*>data)[i]
    else:
        memcpy(out, data, n * sizeof(uint32_t))


cdef int tokenize_line(int kind, Pipe* p, int pykind, const void* data, Py_ssize_t length,
                       Buf* work) noexcept nogil:
    cdef Py_ssize_t n = length
    cdef bint special = False
    while n > 0 and py_space(read_cp(pykind, data, n - 1)):   # str.rstrip()
        n -= 1
    if buf_reserve(work, n + 1) < 0:
        return -1
    widen(pykind, data, n, work.data)
    if kind == 0:
        split_spans(p, work.data, n)
        return -1 if p.failed else 0
    if kind == 2:
        feed_intl(p, work.data, n)
        return -1 if p.failed else 0
    if kind == 3:
        feed_zh(p, work.data, n)
        return -1 if p.failed else 0
    if kind == 4:
        feed_char(p, work.data, n)
        return -1 if p.failed else 0
    # 13a: lines with '<', '&' or a newline need the replacement passes first (rare).
    if pykind == 1:
        special = (memchr(data, 0x3C, n) != NULL or memchr(data, 0x26, n) != NULL
                   or memchr(data, 0x0A, n) != NULL)
    else:
        special = (count_cp(work.data, n, 0x3C) or count_cp(work.data, n, 0x26)
                   or count_cp(work.data, n, 0x0A))
    if special:
        n = preprocess_13a(work.data, n)
    feed_13a(p, work.data, n)
    return -1 if p.failed else 0


cdef int tokenize_pipe_line(int kind, Pipe* p, int pykind, const void* data, Py_ssize_t length,
                            Buf* work) noexcept nogil:
    """tokenize_line on a pipe kept from call to call (the sentence path's): its pending
    characters and its token are reset first, since a new pipe holds zeros (U+0000 is a
    character) and a line that ran out of memory leaves one mid-token. -1 when memory runs
    out."""
    p.pend2 = NOTHING; p.pend3 = NOTHING; p.pend4 = NOTHING
    p.tok_len = 0
    return tokenize_line(kind, p, pykind, data, length, work)


cdef int prepare_kind(int kind) except -1:
    """Check a tokenizer code and load what it needs (intl's class table) while the GIL is held."""
    if not 0 <= kind <= LAST_KIND:
        raise ValueError(f"unknown tokenizer code {kind}")
    if kind == 2:
        ensure_intl_table()
    return 0


cdef extern from "Python.h":
    Py_UCS4 Py_UNICODE_TOLOWER(Py_UCS4 ch) nogil
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4, Py_ssize_t, Py_ssize_t, int) except -2

cdef enum:
    LINES_AHEAD = 4     # tokenize_buffers asks for line i + 4's characters while it reads line i
    # A flag in tokenize_buffers' kinds[]: lowercase this line's code points there, in C and
    # without the GIL, instead of str.lower() before (see lowers_per_code_point).
    LOWER_HERE = 8


cdef bint lowers_per_code_point(object line) except -1:
    """Whether ``line.lower()`` is the simple lowercase of each of its code points (what
    lower_code_points does): true of an exact str unless it holds U+0130 (whose lowercase is
    two code points) or U+03A3 (whose lowercase depends on its neighbours), the only two code
    points where CPython's str.lower() departs from it (tests/test_tokenizers_fast.py checks
    every code point). A str subclass may define its own lower(): it keeps it."""
    if type(line) is not str:
        return False
    if PyUnicode_KIND(line) == 1:  # (neither is below U+0100)
        return True
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(line)
    return (PyUnicode_FindChar(line, 0x130, 0, n, 1) == -1
            and PyUnicode_FindChar(line, 0x3A3, 0, n, 1) == -1)


cdef void lower_code_points(uint32_t* s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef uint32_t c
    for i in range(n):
        c = s[i]
        if c < 128:
            if 65 <= c <= 90:
                s[i] = c + 32
        else:
            s[i] = Py_UNICODE_TOLOWER(c)


cdef object lowered(object line, str what, Py_ssize_t i):
    """line.lower(), which must be a str (a str subclass may override lower()); ``what`` and
    ``i`` (-1: none) name the line in the error."""
    low = line.lower()
    if not PyUnicode_Check(low):
        name = f"{what}[{i}]" if i >= 0 else what
        raise TypeError(f"{name}.lower() must return a str, got {type(low).__name__}")
    return low


cdef int tokenize_buffers(int kind, Py_ssize_t n_lines, const int* kinds, void** datas,
                          const Py_ssize_t* lengths, Vocab vocab, bint frozen, Buf* ids,
                          int64_t* offsets) except -1:
    """Tokenize lines given as str buffers (``kinds``/``datas``/``lengths``, whose objects the
    caller keeps alive), appending their ids to ``ids``; ``offsets[0..n_lines]`` get the CSR
    offsets. Releases the GIL while it works."""
    cdef Buf work, low
    cdef Pipe pipe
    cdef int status = 0
    cdef Py_ssize_t i
    work.data = NULL; work.size = 0; work.cap = 0
    low.data = NULL; low.size = 0; low.cap = 0
    pipe.pend2 = NOTHING; pipe.pend3 = NOTHING; pipe.pend4 = NOTHING
    pipe.tok_len = 0
    pipe.tok_cap = 64
    pipe.tok = <uint32_t*>malloc(pipe.tok_cap * sizeof(uint32_t))
    pipe.vocab = vocab.m
    if not vocab.m.char_cache:   # (a shared, frozen vocabulary is only read)
        # A corpus vocabulary: worth the 256 KiB table (not sentence_row's).
        vocab.m.char_cache = True
    pipe.frozen = frozen
    pipe.ids = ids
    pipe.failed = 0
    if pipe.tok == NULL:
        raise MemoryError()
    offsets[0] = ids.size
    with nogil:
        for i in range(n_lines):
            if i + LINES_AHEAD < n_lines:
                prefetch(datas[i + LINES_AHEAD],
                         lengths[i + LINES_AHEAD] * (kinds[i + LINES_AHEAD] & ~LOWER_HERE))
            if kinds[i] & LOWER_HERE:   # lowercased here, then read as a UCS-4 str's buffer
                if buf_reserve(&low, lengths[i] + 1) < 0:
                    status = -1
                    break
                widen(kinds[i] & ~LOWER_HERE, datas[i], lengths[i], low.data)
                lower_code_points(low.data, lengths[i])
                status = tokenize_line(kind, &pipe, 4, low.data, lengths[i], &work)
            else:
                status = tokenize_line(kind, &pipe, kinds[i], datas[i], lengths[i], &work)
            if status < 0:
                break
            offsets[i + 1] = ids.size
    free(work.data)
    free(low.data)
    free(pipe.tok)
    if status < 0:
        raise MemoryError("tokenize: out of memory")
    return 0


def tokenize(list lines, int kind, bint lowercase, Vocab vocab not None, bint frozen=False,
             str what="lines"):
    """Tokenize every str in ``lines`` into ids; returns (ids int32 array, offsets int64 array).

    With ``frozen``, tokens not already in ``vocab`` get id -1 (they can match nothing).
    """
    prepare_kind(kind)
    # A copy: it keeps every line (lowercased or not) alive while the buffers are read without
    # the GIL, whatever another thread or a str subclass' lower() does to the caller's list.
    cdef list keep = list(lines)
    cdef Py_ssize_t n_lines = len(keep), i
    cdef int* kinds = <int*>malloc((n_lines + 1) * sizeof(int))
    cdef void** datas = <void**>malloc((n_lines + 1) * sizeof(void*))
    cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc((n_lines + 1) * sizeof(Py_ssize_t))
    cdef int64_t* offsets = <int64_t*>malloc((n_lines + 1) * sizeof(int64_t))
    cdef Buf ids
    ids.data = NULL; ids.size = 0; ids.cap = 0
    try:
        if kinds == NULL or datas == NULL or lengths == NULL or offsets == NULL:
            raise MemoryError()
        for i in range(n_lines):
            line = keep[i]
            if not PyUnicode_Check(line):
                raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
            if lowercase and lowers_per_code_point(line):
                note_line(line, kinds, datas, lengths, i)
                kinds[i] |= LOWER_HERE  # (str.lower() would hold the GIL: TER's threads wait)
                continue
            if lowercase:
                line = lowered(line, what, i)
                keep[i] = line
            note_line(line, kinds, datas, lengths, i)
        tokenize_buffers(kind, n_lines, kinds, datas, lengths, vocab, frozen, &ids, offsets)
        import numpy as np     # here, not at the top: the plain scoring paths need no NumPy
        id_arr = np.empty(ids.size, dtype=np.int32)
        off_arr = np.empty(n_lines + 1, dtype=np.int64)
        if ids.size:
            memcpy(<void*><Py_ssize_t>id_arr.ctypes.data, ids.data, ids.size * sizeof(int32_t))
        memcpy(<void*><Py_ssize_t>off_arr.ctypes.data, offsets, (n_lines + 1) * sizeof(int64_t))
        return id_arr, off_arr
    finally:
        free(kinds); free(datas); free(lengths); free(offsets)
        free(ids.data)


def count_tokenized_periods(lines):
    """How many of ``lines`` end with ' .' (sacrebleu warns at 100: text left tokenized)."""
    cdef Py_ssize_t i, count = 0
    if type(lines) is not list:
        lines = list(lines)
    for i in range(len(<list>lines)):
        line = lines[i]
        if not PyUnicode_Check(line):
            raise TypeError(f"lines[{i}] must be a str, got {type(line).__name__}")
        count += ends_in_period(line)
    return count


def newline_in_tail(list lines):
    """Indices of the ``lines`` whose trailing whitespace (what ``str.rstrip()`` removes) holds a
    newline: the only lines whose tokens change when the 13a steps run before that rstrip (as
    evaluate's tokenizer, which has none, does) instead of after it (as here: ``"a-\\n"``)."""
    cdef list found = []
    cdef Py_ssize_t i, n
    cdef int pykind
    cdef const void* data
    cdef uint32_t c
    for i in range(len(lines)):
        line = lines[i]
        if not PyUnicode_Check(line):
            raise TypeError(f"lines[{i}] must be a str, got {type(line).__name__}")
        pykind = PyUnicode_KIND(line)
        data = PyUnicode_DATA(line)
        n = PyUnicode_GET_LENGTH(line)
        while n > 0:
            c = read_cp(pykind, data, n - 1)
            if c == 0x0A:
                found.append(i)
                break
            if not py_space(c):
                break
            n -= 1
    return found


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
