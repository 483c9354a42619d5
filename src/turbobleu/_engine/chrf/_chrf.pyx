# cython: language_level=3
# cython: freethreading_compatible=True
"""chrF / chrF++ n-gram counting over code points, exact to sacrebleu 2.6.0 (``_chrf_py.py`` is
the readable twin; ``chrf/recipe.py`` the float recipe these C functions reproduce).

Each text is read once into code points: the character buffer (whitespace dropped unless kept)
and, for chrF++, the word buffer (chrF++'s words, each followed by a separator that is no code
point, then zeros up to a whole chunk of 8 units). An n-gram is a span of one of those buffers
with a rolling 64-bit hash; tables are open addressing over (hash, span) and every hash hit is
verified on the code points, so no Python object is made per n-gram or per word.
"""
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from cpython.unicode cimport PyUnicode_Check

from turbobleu._engine.c_arrays cimport grow_array, same_span
from turbobleu._engine.scratch cimport tb_scratch_give, tb_scratch_take

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    bint Py_UNICODE_ISSPACE(uint32_t ch) nogil

cdef extern from "cpython_layout.h":
    int tb_unicode_ready(object) except -1

cdef uint32_t SEP = 0xFFFFFFFF      # ends every word in the word buffer (not a code point)
cdef uint64_t SEED = 0x243F6A8885A308D3
cdef double EPS = 1e-16


cdef inline uint64_t mix(uint64_t h, uint64_t u) noexcept nogil:
    h = (h ^ u) * <uint64_t>0x9E3779B97F4A7C15
    return h ^ (h >> 29)


# Bit c set for the ASCII code points str.isspace() accepts: \t \n \v \f \r, 0x1C-0x1F, ' '.
cdef uint64_t ASCII_SPACES = 0x1F0003E00


cdef inline bint is_space(uint32_t c) noexcept nogil:
    """Python's str.isspace() (what str.split() splits on). Branch-free for the common case
    (about one character in six is a space, so a branch on it mispredicts): outside ASCII only
    U+0085, U+00A0 and U+1680..U+3000 hold whitespace, and only those ask CPython's table."""
    if c == 0x85 or c == 0xA0 or c - 0x1680 <= 0x3000 - 0x1680:
        return Py_UNICODE_ISSPACE(c)
    return (c <= 0x20) & <bint>((ASCII_SPACES >> (c & 63)) & 1)


# Bit c (c < 128) set for string.punctuation: the ASCII characters chrF++ splits off a word's edge.
cdef uint64_t PUNCT_LOW = 0xFC00FFFE00000000     # ! to / and : to @
cdef uint64_t PUNCT_HIGH = 0x78000001F8000001    # [ to ` and { to ~


cdef inline bint is_punct(uint32_t c) noexcept nogil:
    """Whether ``c`` is in string.punctuation; branch-free (a word ends in one about one time
    in ten, unpredictably)."""
    cdef uint64_t bits = PUNCT_LOW if c < 64 else PUNCT_HIGH
    return (c < 128) & <bint>((bits >> (c & 63)) & 1)


# -- growable buffers -----------------------------------------------------------------------------
cdef struct Buf:
    char* p
    int64_t n       # items used
    int64_t cap     # items allocated
    int64_t size    # bytes per item


cdef inline int buf_reserve(Buf* b, int64_t extra) noexcept nogil:
    """Room for ``extra`` more items, in a buffer that is never NULL (UBSan reported memcpy of
    0 bytes from NULL for empty texts); -1 when memory runs out."""
    return grow_array(<void**>&b.p, &b.cap, b.n + extra, b.size)


# -- a text's n-grams -----------------------------------------------------------------------------
cdef struct Item:
    uint64_t hash
    int64_t start   # in the character buffer (char orders) or the word buffer (word orders)
    int32_t len     # units of the span (for word n-grams: separators and padding included)
    int32_t order   # 0-based: character orders first, then word orders


cdef struct Enc:
    Buf raw         # uint32: the text being read
    Buf chars       # uint32
    Buf words       # uint32: words padded to whole chunks (see add_word)
    Buf items       # Item, order by order for each text
    Buf offs        # int64: per text, order + 1 item offsets (order k: [offs[k], offs[k+1]))
    Buf bounds      # int64: the current text's whitespace-separated runs: start, end, ...
    Buf tok         # int64: the current text's word spans (start, end) in the word buffer
    Buf unit        # uint64: the current text's word hashes
    Buf hs          # uint64: running n-gram hashes
    int char_order
    int word_order
    bint keep_ws
    uint32_t unit_limit     # the last text's code points are below this


cdef void enc_init(Enc* e, int char_order, int word_order, bint keep_ws) noexcept nogil:
    memset(e, 0, sizeof(Enc))
    e.raw.size = e.chars.size = e.words.size = sizeof(uint32_t)
    e.items.size = sizeof(Item)
    e.offs.size = e.tok.size = e.bounds.size = sizeof(int64_t)
    e.unit.size = e.hs.size = sizeof(uint64_t)
    e.char_order = char_order
    e.word_order = word_order
    e.keep_ws = keep_ws


cdef void enc_free(Enc* e) noexcept nogil:
    free(e.raw.p)
    free(e.chars.p)
    free(e.words.p)
    free(e.items.p)
    free(e.offs.p)
    free(e.tok.p)
    free(e.bounds.p)
    free(e.unit.p)
    free(e.hs.p)
    memset(e, 0, sizeof(Enc))


cdef int read_units(Enc* e, object s) except -1:
    """Reads text ``s`` (already lowercased if asked): its code points into ``e.raw``, the ones
    chrF counts appended to ``e.chars`` and, for chrF++, its words appended to ``e.words`` (the
    text's word spans and hashes in ``e.tok`` / ``e.unit``)."""
    tb_unicode_ready(s)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(s), i
    cdef int kind = PyUnicode_KIND(s)
    cdef void* data = PyUnicode_DATA(s)
    cdef uint32_t* raw
    cdef uint32_t top = 0
    e.raw.n = 0
    if (buf_reserve(&e.raw, n + WORD_CHUNK) < 0 or buf_reserve(&e.chars, n) < 0
            or buf_reserve(&e.bounds, n + 1) < 0):
        raise MemoryError()
    raw = <uint32_t*>e.raw.p
    # The largest code point sizes chrF's unigram array (a wide text's are mostly low: one
    # U+2019 makes a text 2 bytes per character); gcc vectorizes these loops, max included.
    if kind == 1:
        for i in range(n):
            raw[i] = (<unsigned char*>data)[i]
            top = max(top, raw[i])
    elif kind == 2:
        for i in range(n):
            raw[i] = (<uint16_t*>data)[i]
            top = max(top, raw[i])
    else:
        for i in range(n):
            raw[i] = (<uint32_t*>data)[i]
            top = max(top, raw[i])
    e.unit_limit = top + 1
    e.raw.n = n
    memset(raw + n, 0, WORD_CHUNK * sizeof(uint32_t))     # words are read a chunk at a time
    with nogil:
        scan_spaces(e)
    e.tok.n = 0
    if e.word_order > 0 and split_words(e) < 0:
        raise MemoryError()
    return 0


cdef void scan_spaces(Enc* e) noexcept nogil:
    """One pass over ``e.raw``: the characters chrF counts appended to ``e.chars`` and, for
    chrF++, the edges of its whitespace-separated runs in ``e.bounds`` (start, end, start, ...).
    Branch-free per character: each one is written and the next write overwrites a space."""
    cdef const uint32_t* raw = <uint32_t*>e.raw.p
    cdef uint32_t* chars = <uint32_t*>e.chars.p
    cdef int64_t* bounds = <int64_t*>e.bounds.p
    cdef int64_t n = e.raw.n, i, m = e.chars.n, nb = 0
    cdef bint space, before = True, keep = e.keep_ws
    cdef uint32_t c
    if e.word_order > 0:
        for i in range(n):
            c = raw[i]
            space = is_space(c)
            chars[m] = c
            m += keep or not space
            bounds[nb] = i
            nb += space ^ before
            before = space
        if not before:
            bounds[nb] = n
            nb += 1
    elif keep:
        memcpy(chars + m, raw, n * sizeof(uint32_t))
        m += n
    else:
        for i in range(n):
            c = raw[i]
            chars[m] = c
            m += not is_space(c)
    e.chars.n = m
    e.bounds.n = nb


# In the word buffer each word fills a whole number of WORD_CHUNK-unit chunks: its code points,
# the separator, zeros. Words are then hashed and compared a chunk at a time with no mask and no
# per-unit loop (most words fit one chunk, so the loops' exits are predictable; a loop per code
# point mispredicted its exit about once per word). read_units keeps WORD_CHUNK zeros past the
# raw text, so that a word's last chunk can be read from it whole.
cdef enum:
    WORD_CHUNK = 8
    CHUNK_PAIRS = 4     # WORD_CHUNK / 2: two code points per 64-bit load


cdef inline uint64_t load64(const uint32_t* p) noexcept nogil:
    """Two code points as one 64-bit word (one load; memcpy keeps it free of aliasing rules)."""
    cdef uint64_t x
    memcpy(&x, p, sizeof(uint64_t))
    return x


cdef inline bint same_word(const uint32_t* a, const uint32_t* b, int64_t n) noexcept nogil:
    """Whether the words of ``n`` code points stored at ``a`` and at ``b`` are equal."""
    cdef uint64_t diff = 0
    cdef int64_t c = 0, j
    while c <= n:       # the chunks holding the code points and the separator
        for j in range(0, WORD_CHUNK, 2):
            diff |= load64(a + c + j) ^ load64(b + c + j)
        c += WORD_CHUNK
    return diff == 0


# CHUNK_MASKS[r]: the two-unit masks of a chunk whose first r units (r = 0..WORD_CHUNK) are kept.
cdef uint64_t CHUNK_MASKS[WORD_CHUNK + 1][CHUNK_PAIRS]


cdef void fill_chunk_masks() noexcept nogil:
    cdef int r, j
    for r in range(WORD_CHUNK + 1):
        for j in range(CHUNK_PAIRS):
            CHUNK_MASKS[r][j] = (((<uint64_t>0xFFFFFFFF) if 2 * j < r else 0)
                                 | ((<uint64_t>0xFFFFFFFF << 32) if 2 * j + 1 < r else 0))


fill_chunk_masks()


cdef inline void add_word(Enc* e, const uint32_t* raw, int64_t a, int64_t b) noexcept nogil:
    """raw[a:b] as the next word (room reserved by the caller). The hash is taken from the
    masked loads as they are stored (a load of what was just stored in two halves would wait
    for the stores)."""
    cdef uint32_t* w = <uint32_t*>e.words.p + e.words.n
    cdef int64_t t = e.tok.n, n = b - a, c = 0, j
    cdef int64_t* tok = <int64_t*>e.tok.p
    cdef uint64_t h = SEED ^ <uint64_t>n, x
    cdef const uint64_t* keep_units
    while c <= n:       # the chunks that will hold the code points and the separator
        keep_units = CHUNK_MASKS[min(n - c, <int64_t>WORD_CHUNK)]
        for j in range(CHUNK_PAIRS):
            x = load64(raw + a + c + 2 * j) & keep_units[j]
            memcpy(w + c + 2 * j, &x, sizeof(uint64_t))
            h = mix(h, x)
        c += WORD_CHUNK
    w[n] = SEP
    tok[2 * t] = e.words.n
    tok[2 * t + 1] = e.words.n + n
    (<uint64_t*>e.unit.p)[t] = h
    e.words.n += c
    e.tok.n = t + 1


cdef int split_words(Enc* e) noexcept nogil:
    """chrF++'s words of e.raw (see recipe.chrf_words: its whitespace-separated runs,
    with one punctuation mark split off an edge) appended to the word buffer; ``e.tok.n``
    becomes the number of words."""
    cdef const uint32_t* raw = <uint32_t*>e.raw.p
    cdef const int64_t* bounds = <int64_t*>e.bounds.p
    cdef int64_t n = e.raw.n, r, s, i
    # A word of k code points takes at most k + WORD_CHUNK units, and a text of n code points has
    # at most 2 (n + 1) / 3 words (a run of r characters and its space give at most min(r, 2)).
    if (buf_reserve(&e.words, (WORD_CHUNK - 1) * n + WORD_CHUNK) < 0
            or buf_reserve(&e.tok, 2 * n) < 0 or buf_reserve(&e.unit, n) < 0):
        return -1
    for r in range(0, e.bounds.n, 2):
        s = bounds[r]
        i = bounds[r + 1]
        if i - s > 1 and is_punct(raw[i - 1]):
            add_word(e, raw, s, i - 1)
            add_word(e, raw, i - 1, i)
        elif i - s > 1 and is_punct(raw[s]):
            add_word(e, raw, s, s + 1)
            add_word(e, raw, s + 1, i)
        else:
            add_word(e, raw, s, i)
    return 0


cdef int encode(Enc* e, object s) except -1:
    """Appends text ``s``'s n-grams to ``e.items`` (with its order + 1 offsets in ``e.offs``)."""
    cdef int64_t i, L, c0 = e.chars.n, T, k, order = e.char_order + e.word_order
    cdef uint32_t* chars
    cdef uint64_t* hs
    cdef uint64_t* unit
    cdef int64_t* tok
    cdef int64_t* offs
    cdef Item* it
    read_units(e, s)
    L = e.chars.n - c0
    T = e.tok.n
    if (buf_reserve(&e.items, L * e.char_order + T * e.word_order) < 0
            or buf_reserve(&e.hs, L if L > T else T) < 0 or buf_reserve(&e.offs, order + 1) < 0):
        raise MemoryError()
    with nogil:
        chars = <uint32_t*>e.chars.p
        hs = <uint64_t*>e.hs.p
        offs = <int64_t*>e.offs.p + e.offs.n
        e.offs.n += order + 1
        for i in range(L):
            hs[i] = SEED
        for k in range(e.char_order):
            offs[k] = e.items.n
            it = <Item*>e.items.p + e.items.n
            for i in range(L - k):
                hs[i] = mix(hs[i], chars[c0 + i + k])
                it[i].hash = hs[i]
                it[i].start = c0 + i
                it[i].len = <int32_t>(k + 1)
                it[i].order = <int32_t>k
            if L - k > 0:
                e.items.n += L - k
        unit = <uint64_t*>e.unit.p
        tok = <int64_t*>e.tok.p
        for i in range(T):
            hs[i] = SEED
        for k in range(e.word_order):
            offs[e.char_order + k] = e.items.n
            it = <Item*>e.items.p + e.items.n
            for i in range(T - k):
                hs[i] = mix(hs[i], unit[i + k])
                it[i].hash = hs[i]
                it[i].start = tok[2 * i]
                it[i].len = <int32_t>(tok[2 * (i + k) + 1] - tok[2 * i])
                it[i].order = <int32_t>(e.char_order + k)
            if T - k > 0:
                e.items.n += T - k
        offs[order] = e.items.n
    return 0


# -- hash tables over n-gram spans ----------------------------------------------------------------
cdef struct Entry:
    uint64_t hash
    int64_t start
    int32_t len
    int32_t order
    int32_t count   # occurrences (corpus tables) or the global id (the pairwise vocabulary)
    uint32_t stamp  # the fill this entry belongs to; any other: free


cdef struct Table:
    Entry* e
    int64_t cap
    uint64_t mask
    uint32_t stamp


cdef inline int table_bits(int64_t n_items) noexcept nogil:
    """log2 of the slots for ``n_items`` keys at a load of at most 1/2 (64 slots at least)."""
    cdef int bits = 6
    while (<int64_t>1 << bits) < 2 * n_items:
        bits += 1
    return bits


cdef int table_prepare(Table* t, int64_t n_items) noexcept nogil:
    """An empty table with room for ``n_items`` keys (load <= 1/2); -1 when memory runs out."""
    cdef int64_t need = (<int64_t>1) << table_bits(n_items)
    if need > t.cap:
        free(t.e)
        t.e = <Entry*>calloc(need, sizeof(Entry))
        if t.e == NULL:
            t.cap = 0
            return -1
        t.cap = need
        t.stamp = 0
    t.mask = <uint64_t>(need - 1)
    t.stamp += 1
    if t.stamp == 0:        # wrapped: clear the stale stamps once
        memset(t.e, 0, t.cap * sizeof(Entry))
        t.stamp = 1
    return 0


cdef inline bint same_item_span(const Enc* e, const Entry* en, const Item* it) noexcept nogil:
    """Whether entry ``en``'s span holds the same units as ``it``'s (both of one order and one
    length). Word spans start on a chunk and end before a separator and zeros (see add_word),
    so they are compared a chunk at a time."""
    if it.order < e.char_order:
        return same_span(<uint32_t*>e.chars.p + en.start, <uint32_t*>e.chars.p + it.start,
                         it.len)
    return same_word(<uint32_t*>e.words.p + en.start, <uint32_t*>e.words.p + it.start, it.len)


cdef inline Entry* table_find(Table* t, const Enc* e, const Item* it, bint* found) noexcept nogil:
    """The entry of ``it``'s n-gram (``found``) or the free entry where it would go."""
    cdef uint64_t i = it.hash & t.mask
    cdef Entry* en
    while True:
        en = &t.e[i]
        if en.stamp != t.stamp:
            found[0] = False
            return en
        if (en.hash == it.hash and en.order == it.order and en.len == it.len
                and same_item_span(e, en, it)):
            found[0] = True
            return en
        i = (i + 1) & t.mask


cdef inline void table_claim(Table* t, Entry* en, const Item* it, int32_t count) noexcept nogil:
    en.hash = it.hash
    en.start = it.start
    en.len = it.len
    en.order = it.order
    en.count = count
    en.stamp = t.stamp


# -- the float recipe (recipe.f_score, same operations in the same order) -------------------
cdef double f_score(const int64_t* st, int order, double factor, bint eps_smoothing) noexcept nogil:
    cdef double score = 0.0, avg_prec = 0.0, avg_rec = 0.0, prec, rec, denom
    cdef int effective = 0, i
    cdef int64_t n_hyp, n_ref, n_match
    for i in range(order):
        n_hyp = st[3 * i]
        n_ref = st[3 * i + 1]
        n_match = st[3 * i + 2]
        prec = <double>n_match / <double>n_hyp if n_hyp > 0 else EPS
        rec = <double>n_match / <double>n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective == 0:
        return 0.0
    avg_prec /= effective
    avg_rec /= effective
    if avg_prec + avg_rec != 0:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


cdef double factor_of(beta) except? -1:
    """beta ** 2 as sacrebleu computes it (an int for an int beta: exact as a double below
    2**53)."""
    return <double>(beta ** 2)


def sentence_scores(const int64_t[:, ::1] rows, int order, beta, bint eps_smoothing,
                    double[::1] out):
    """``out[i]`` = the chrF score of statistics row i."""
    cdef double factor = factor_of(beta)
    cdef Py_ssize_t i
    if rows.shape[0] and rows.shape[1] != 3 * order:
        raise ValueError(f"rows need 3 * order = {3 * order} columns, got {rows.shape[1]}")
    with nogil:
        for i in range(rows.shape[0]):
            out[i] = f_score(&rows[i, 0], order, factor, eps_smoothing)


# -- corpus statistics: exact n-gram keys, one segment at a time -----------------------------------
# Unigrams are counted in an array indexed by the unit. Longer n-grams go into a table order by
# order; an n-gram's key is (its (n-1)-gram prefix's slot + 1, its last unit): exact, so no span
# is compared. A reference only looks its n-grams up: one whose prefix the hypothesis lacks
# cannot match, nor can any longer one there; and an n-gram that each text has once is followed
# by comparing units (extend_unique), as nothing else can match its longer n-grams.
cdef struct Slot:
    uint64_t key        # 0: free (no key is 0: bigrams carry a tag bit, longer n-grams a prefix)
    int32_t hyp         # occurrences in the hypothesis
    int32_t ref         # occurrences in the current reference


cdef struct Counts:
    Slot* slots
    int32_t* first      # per slot: a hypothesis position of its n-gram (the one, if it is one)
    int64_t cap
    uint64_t mask
    int shift
    int32_t* live       # the slots of the current segment (freed again by the next prepare)
    int64_t n_live
    int64_t live_cap


cdef uint64_t BIGRAM_TAG = (<uint64_t>1) << 62  # see ngram_key
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15
cdef int MAX_BITS = 30      # tables have fewer than 2**30 slots (a slot + 1 stays below 2**30)
                            # and units are below 2**30, so that no two keys are equal


cdef int counts_prepare(Counts* c, int64_t n_items) noexcept nogil:
    """Empty, with room for ``n_items`` keys (load <= 1/2); -1 when memory runs out. Slot
    ``c.cap`` (past every probe) is the miss slot that ``counts_find`` answers for an absent key:
    its hypothesis count stays 0, so nothing counted there matches."""
    cdef int bits = table_bits(n_items)
    cdef int64_t need = (<int64_t>1) << bits, k
    if bits >= MAX_BITS:
        return -1
    for k in range(c.n_live):       # free the previous segment's slots
        c.slots[c.live[k]].key = 0
    c.n_live = 0
    if need > c.cap:
        free(c.slots)
        free(c.first)
        c.slots = <Slot*>calloc(need + 1, sizeof(Slot))
        c.first = <int32_t*>malloc((need + 1) * sizeof(int32_t))
        if c.slots == NULL or c.first == NULL:
            c.cap = 0
            return -1
        c.cap = need
    c.slots[c.cap].ref = 0
    if n_items > c.live_cap:
        free(c.live)
        c.live = <int32_t*>malloc(n_items * sizeof(int32_t))
        if c.live == NULL:
            c.live_cap = 0
            return -1
        c.live_cap = n_items
    c.mask = <uint64_t>(need - 1)
    c.shift = 64 - bits
    return 0


cdef inline uint64_t counts_probe(const Counts* c, uint64_t key) noexcept nogil:
    """The slot that holds ``key``, or the free one where it would go. The loop runs only past
    other keys (rare at this load); whether the key is there is left to the caller's data."""
    cdef uint64_t i = (key * GOLDEN) >> c.shift
    cdef uint64_t there = c.slots[i].key
    # 0 when found or free: one branch (gcc makes two of `there != key and there != 0`, even
    # written with &, and the first of them is data)
    while min(there ^ key, there) != 0:
        i = (i + 1) & c.mask
        there = c.slots[i].key
    return i


cdef inline int32_t counts_add(Counts* c, uint64_t key, int64_t position) noexcept nogil:
    """Counts one hypothesis n-gram, at ``position``; its slot. Without a branch on whether the
    n-gram is new (data: a branch on it mispredicts): a new one's counts start from 0 (a freed
    slot keeps stale ones), and ``first`` is written either way, as it is read only where the
    hypothesis has the n-gram once."""
    cdef uint64_t i = counts_probe(c, key)
    cdef Slot* s = &c.slots[i]
    cdef bint new = s.key == 0
    s.key = key
    s.hyp = (s.hyp & -(<int32_t>(not new))) + 1
    s.ref = s.ref & -(<int32_t>(not new))
    c.first[i] = <int32_t>position
    c.live[c.n_live] = <int32_t>i
    c.n_live += new
    return <int32_t>i


cdef inline int32_t counts_find(const Counts* c, uint64_t key) noexcept nogil:
    """The slot of a hypothesis n-gram, or the miss slot ``c.cap`` (chosen without a branch)."""
    cdef uint64_t i = counts_probe(c, key)
    return <int32_t>(i if c.slots[i].key == key else <uint64_t>c.cap)


cdef inline uint64_t ngram_key(int k, int32_t prefix, uint32_t unit) noexcept nogil:
    """The key of an n-gram of order k + 1 >= 2 from its prefix and its last unit. A bigram's
    prefix is its first unit (below 2**30), and its key has the tag bit; a longer n-gram's
    prefix is its (n-1)-gram's slot, + 1 (at most 2**29, see MAX_BITS: no tag bit). The table
    holds one segment's keys of every order at once, so no slot is another's, and no key is 0."""
    if k == 1:      # the same for a whole pass over the positions: predicted
        return BIGRAM_TAG | (<uint64_t>prefix << 32) | unit
    return ((<uint64_t>(prefix + 1)) << 32) | unit


cdef inline int64_t count_reference(Slot* s, int64_t* matches) noexcept nogil:
    """One reference n-gram counted in its slot ``s`` (the miss slot where the hypothesis lacks
    it, whose hypothesis count stays 0) and its match (clipped to the hypothesis's count)
    added to ``matches[0]``; 1 if the hypothesis has it."""
    s.ref += 1
    matches[0] += s.ref <= s.hyp
    return s.hyp > 0


cdef struct Segment:
    Counts counts
    Slot* unigrams      # per unit, as match_pair counts them (all zero between pairs)
    int32_t* unigram_first
    int64_t n_unigrams
    Table words         # the hypothesis's distinct words (span-verified)
    Buf hyp_wid         # uint32: the hypothesis's word ids
    Buf ref_wid         # uint32: the current reference's word ids (see intern_words)
    Buf at_hyp          # int32: slot per position
    Buf at_ref
    Buf live_hyp        # int32: positions still alive
    Buf live_ref
    Buf pairs           # int32: extend_unique's scratch
    int64_t hyp_chars   # the hypothesis's characters: e.chars[0:hyp_chars]
    int64_t hyp_words_end
    uint32_t hyp_unit_limit


cdef int64_t extend_unique(Slot* slots, const int32_t* first, const uint32_t* hyp,
                           int64_t n_hyp, const uint32_t* ref, int64_t n_ref, int k,
                           int max_order, const int32_t* at_ref, int32_t* live_ref,
                           int64_t n_live_ref, int32_t* pairs, int64_t* matches) noexcept nogil:
    """Takes the n-grams of order k + 1 that occur once in each text out of the hashing; the
    reference positions left alive, in ``live_ref[:returned]``.

    Where an n-gram starts at hypothesis position i only and at reference position j only,
    each longer n-gram at i is the hypothesis's only one with that prefix, and the reference
    can have it at j only: it matches (once) exactly where the texts go on alike from i and j.
    So the pair's longer matches are counted by comparing units, and neither position is
    looked at again: j leaves ``live_ref``, and i the hypothesis's list at the next order's
    compaction, as its slot's reference count becomes 0. (No other live position has these
    n-grams: those are the only ones in either text with this prefix.) ``slots[at_ref[j]]``
    holds the counts of the n-gram at j, ``first`` the hypothesis position of each slot's;
    ``pairs`` is scratch for ``n_live_ref`` positions.

    No branch depends on the text: whether an n-gram is unique, and how far a pair goes on
    alike, are data, and a branch on either mispredicts."""
    cdef int64_t a, n = 0, n_pairs = 0, i, j, kk, off
    cdef bint unique, run
    cdef Slot* s
    for a in range(n_live_ref):
        j = live_ref[a]
        s = &slots[at_ref[j]]
        unique = (s.hyp == 1) & (s.ref == 1)
        live_ref[n] = <int32_t>j
        n += not unique
        pairs[n_pairs] = <int32_t>j
        n_pairs += unique
    for a in range(n_pairs):
        j = pairs[a]
        i = first[at_ref[j]]
        slots[at_ref[j]].ref = 0
        run = True
        for kk in range(k + 1, max_order):
            run = run & (i + kk < n_hyp) & (j + kk < n_ref)
            off = kk * run      # once the run has ended, read in bounds (i, j): no branch
            run = run & (hyp[i + off] == ref[j + off])
            matches[kk] += run
    return n


cdef int match_pair(Segment* g, const uint32_t* hyp, int64_t n_hyp, const uint32_t* ref,
                    int64_t n_ref, int max_order, int64_t* matches) noexcept nogil:
    """Adds the matches per order (clipped counts) of the hypothesis's and the reference's
    n-grams over units (code points or word ids) to ``matches``, order by order: an n-gram can
    only match where its (n-1)-gram prefix is in both texts, so the hypothesis's n-grams are
    counted only there (its totals are the caller's arithmetic) and the reference's looked up
    only there; and where it occurs once in each text, its longer n-grams are counted by
    ``extend_unique`` without the table. ``at_*`` hold the slot of the n-gram starting at each
    position (for unigrams: the unit itself, its index into ``g.unigrams``), ``live_*`` the
    positions still alive (ascending); these and ``pairs`` are the segment's scratch, with room
    for the longer text's units. The lists are compacted without a branch per position: whether
    a prefix survives is data, and a branch on it mispredicts.

    Unigrams are counted in ``g.unigrams``, indexed by the unit (every unit of both texts has
    an entry, all zero on entry and again on return): no hashing for the most frequent order.
    Longer n-grams go to the hash table ``g.counts``, emptied and sized here, then worked on
    through a local copy and a local match count: the compiler cannot tell that the slots'
    stores leave the table and ``matches`` alone, and would reload them for every n-gram. -1
    when memory runs out."""
    cdef int64_t i, k, a, before, n_live_hyp = n_hyp, n_live_ref = 0, m = 0
    cdef int32_t j
    cdef int status = 0
    cdef bint hashed = False
    cdef Counts* table = &g.counts
    cdef Slot* unigrams = g.unigrams
    cdef int32_t* unigram_first = g.unigram_first
    cdef int32_t* at_hyp = <int32_t*>g.at_hyp.p
    cdef int32_t* at_ref = <int32_t*>g.at_ref.p
    cdef int32_t* live_hyp = <int32_t*>g.live_hyp.p
    cdef int32_t* live_ref = <int32_t*>g.live_ref.p
    cdef int32_t* pairs = <int32_t*>g.pairs.p
    cdef const Slot* prefixes = unigrams     # the counts of the order before
    cdef Counts c = table[0]                # taken again once the table is prepared
    for i in range(n_hyp):
        unigrams[hyp[i]].hyp += 1
        unigram_first[hyp[i]] = <int32_t>i   # any of a unit's positions: used where it is one
        at_hyp[i] = <int32_t>hyp[i]         # a bigram's prefix is its first unit
        live_hyp[i] = <int32_t>i
    for i in range(n_ref):
        at_ref[i] = <int32_t>ref[i]
        live_ref[n_live_ref] = <int32_t>i
        n_live_ref += count_reference(&unigrams[ref[i]], &m)
    matches[0] += m
    if max_order > 1:
        n_live_ref = extend_unique(unigrams, unigram_first, hyp, n_hyp, ref, n_ref, 0, max_order,
                                   at_ref, live_ref, n_live_ref, pairs, matches)
    for k in range(1, max_order):
        if n_live_ref == 0:
            break
        before = n_live_hyp
        n_live_hyp = 0
        for a in range(before):     # positions whose (k-1)-gram the reference has, with a next unit
            i = live_hyp[a]
            if i >= n_hyp - k:
                break
            live_hyp[n_live_hyp] = <int32_t>i
            n_live_hyp += prefixes[at_hyp[i]].ref > 0
        if k == 1:
            status = counts_prepare(table, n_live_hyp * (max_order - 1))
            if status < 0:
                break
            c = table[0]
            hashed = True
        for a in range(n_live_hyp):
            i = live_hyp[a]
            at_hyp[i] = counts_add(&c, ngram_key(k, at_hyp[i], hyp[i + k]), i)
        before = n_live_ref
        n_live_ref = 0
        m = 0
        for a in range(before):
            i = live_ref[a]
            if i >= n_ref - k:
                break
            j = counts_find(&c, ngram_key(k, at_ref[i], ref[i + k]))
            at_ref[i] = j
            live_ref[n_live_ref] = <int32_t>i
            n_live_ref += count_reference(&c.slots[j], &m)
        matches[k] += m
        if k + 1 < max_order:
            n_live_ref = extend_unique(c.slots, c.first, hyp, n_hyp, ref, n_ref, k, max_order,
                                       at_ref, live_ref, n_live_ref, pairs, matches)
        prefixes = c.slots
    if hashed:
        table.n_live = c.n_live     # the slots to free at the next prepare
    for i in range(n_hyp):
        unigrams[hyp[i]].hyp = 0
    for i in range(n_ref):
        unigrams[ref[i]].ref = 0
    return status


cdef int unigrams_reserve(Segment* g, int64_t n) noexcept nogil:
    """An all-zero ``g.unigrams`` entry (and a ``g.unigram_first`` one) for each unit below
    ``n``; -1 when memory runs out. New arrays come from calloc and malloc: a large one (every
    code point: 17.8 + 4.5 MB) is then pages the system maps only where a text's units land."""
    if n <= g.n_unigrams:
        return 0
    free(g.unigrams)
    free(g.unigram_first)
    g.unigrams = <Slot*>calloc(n, sizeof(Slot))
    g.unigram_first = <int32_t*>malloc(n * sizeof(int32_t))
    if g.unigrams == NULL or g.unigram_first == NULL:
        g.n_unigrams = 0
        return -1
    g.n_unigrams = n
    return 0


cdef int intern_words(Segment* g, const Enc* e, bint hypothesis) noexcept nogil:
    """Word ids of the current text's words: the hypothesis's words are added to the table
    (id: the index of its first occurrence); a reference's are looked up (a word the
    hypothesis lacks gets the hypothesis's word count as its id, which no hypothesis word has)."""
    cdef int64_t t, T = e.tok.n
    cdef const int64_t* tok = <int64_t*>e.tok.p
    cdef const uint64_t* unit = <uint64_t*>e.unit.p
    cdef Buf* out = &g.hyp_wid if hypothesis else &g.ref_wid
    cdef uint32_t* wid
    cdef Item it
    cdef Entry* en
    cdef bint found
    out.n = 0
    if buf_reserve(out, T) < 0:
        return -1
    if hypothesis and table_prepare(&g.words, T) < 0:
        return -1
    wid = <uint32_t*>out.p
    for t in range(T):
        it.hash = unit[t]
        it.start = tok[2 * t]
        it.len = <int32_t>(tok[2 * t + 1] - tok[2 * t])
        it.order = e.char_order
        en = table_find(&g.words, e, &it, &found)
        if not found and hypothesis:
            table_claim(&g.words, en, &it, <int32_t>t)
            found = True
        wid[t] = <uint32_t>(en.count if found else g.hyp_wid.n)
    out.n = T
    return 0


cdef inline int64_t ngrams_of(int64_t units, int k) noexcept nogil:
    """How many n-grams of order k + 1 a text of ``units`` units has."""
    return units - k if units > k else 0


cdef int reference_row(Segment* g, const Enc* e, int64_t* st) noexcept nogil:
    """``st`` = [hyp, ref, matches] per order of the segment's hypothesis against the reference
    just read into ``e`` (the hypothesis count stays 0 where the reference has no n-gram)."""
    cdef int co = e.char_order, wo = e.word_order, k
    cdef int64_t Lh = g.hyp_chars, Lr = e.chars.n - g.hyp_chars
    cdef int64_t Th = g.hyp_wid.n, Tr = e.tok.n, longest
    cdef int64_t* matches = st + 3 * (co + wo)      # scratch after the row
    cdef const uint32_t* chars = <uint32_t*>e.chars.p
    longest = max(max(Lh, Lr), max(Th, Tr))
    if Th >= (<int64_t>1) << MAX_BITS or unigrams_reserve(
            g, max(max(g.hyp_unit_limit, e.unit_limit), Th + 1)) < 0:
        return -1
    if (buf_reserve(&g.at_hyp, longest) < 0 or buf_reserve(&g.at_ref, longest) < 0
            or buf_reserve(&g.live_hyp, longest) < 0 or buf_reserve(&g.live_ref, longest) < 0
            or buf_reserve(&g.pairs, longest) < 0):
        return -1
    if wo > 0 and intern_words(g, e, False) < 0:
        return -1
    for k in range(co + wo):
        matches[k] = 0
    if co > 0 and match_pair(g, chars, Lh, chars + Lh, Lr, co, matches) < 0:
        return -1
    if wo > 0 and match_pair(g, <uint32_t*>g.hyp_wid.p, Th, <uint32_t*>g.ref_wid.p, Tr, wo,
                             matches + co) < 0:
        return -1
    for k in range(co + wo):
        st[3 * k + 1] = ngrams_of(Lr, k) if k < co else ngrams_of(Tr, k - co)
        st[3 * k] = ((ngrams_of(Lh, k) if k < co else ngrams_of(Th, k - co))
                     if st[3 * k + 1] > 0 else 0)
        st[3 * k + 2] = matches[k]
    return 0


# A corpus call's Segment is kept between calls, per thread (scratch.h): the unigram array is
# sized by the largest code point (a Japanese sentence's: ~40,000 entries) and fresh memory
# for it per sentence_chrf cost more than the counting. Between pairs every buffer is in the
# state the next pair expects (unigrams all zero, the table's used slots listed in counts.live).
cdef int SEGMENT_SLOT = 0


cdef void segment_free(Segment* g) noexcept nogil:
    free(g.counts.slots)
    free(g.counts.first)
    free(g.counts.live)
    free(g.unigrams)
    free(g.unigram_first)
    free(g.words.e)
    free(g.hyp_wid.p)
    free(g.ref_wid.p)
    free(g.at_hyp.p)
    free(g.at_ref.p)
    free(g.live_hyp.p)
    free(g.live_ref.p)
    free(g.pairs.p)
    free(g)


cdef void release_segment_box(void* box) noexcept nogil:
    segment_free(<Segment*>box)


cdef int64_t segment_bytes(const Segment* g) noexcept nogil:
    """The memory a Segment holds."""
    return (sizeof(Segment) + (g.counts.cap + 1) * (sizeof(Slot) + sizeof(int32_t))
            + g.counts.live_cap * sizeof(int32_t)
            + g.n_unigrams * (sizeof(Slot) + sizeof(int32_t)) + g.words.cap * sizeof(Entry)
            + (g.hyp_wid.cap + g.ref_wid.cap + g.at_hyp.cap + g.at_ref.cap + g.live_hyp.cap
               + g.live_ref.cap + g.pairs.cap) * sizeof(int32_t))


cdef Segment* segment_take() noexcept nogil:
    """This thread's kept Segment, or a fresh one (NULL when memory runs out); give it back
    with segment_give."""
    cdef Segment* g = <Segment*>tb_scratch_take(SEGMENT_SLOT)
    if g == NULL:
        g = <Segment*>calloc(1, sizeof(Segment))
        if g != NULL:
            g.hyp_wid.size = g.ref_wid.size = sizeof(uint32_t)
            g.at_hyp.size = g.at_ref.size = g.live_hyp.size = g.live_ref.size = sizeof(int32_t)
            g.pairs.size = sizeof(int32_t)
    return g


cdef void segment_give(Segment* g, bint failed) noexcept nogil:
    """Done with ``g`` (NULL is allowed): kept for this thread's next call, unless a memory
    failure left it half-made, it is large, a call made from inside this one kept its own, or
    the memory kept by all threads would pass scratch.h's limit."""
    if g == NULL:
        return
    if failed:
        segment_free(g)
        return
    tb_scratch_give(SEGMENT_SLOT, g, segment_bytes(g), release_segment_box)


cdef inline object stream_item(object stream, Py_ssize_t i):
    if type(stream) is list:
        return (<list>stream)[i]
    return stream[i]


def corpus_rows(hypotheses, references, int char_order, int word_order, bint whitespace, beta,
                bint eps_smoothing, int64_t[:, ::1] out):
    """Fill ``out[i]`` (``3 * (char_order + word_order)`` int64 columns) with segment i's
    statistics against its best reference (``references`` is a list of streams; None: absent)."""
    cdef int order = char_order + word_order, k
    cdef double factor = factor_of(beta), f, best
    cdef Py_ssize_t i, n = len(hypotheses), j
    cdef Enc e
    cdef Segment* g = NULL
    cdef int64_t* st = NULL     # the row of one reference, then per-order scratch
    cdef int status = 0
    cdef bint have
    streams = list(references)
    if out.shape[0] < n or (n and out.shape[1] != 3 * order):
        raise ValueError(f"out must be ({n}, {3 * order}), got ({out.shape[0]}, {out.shape[1]})")
    enc_init(&e, char_order, word_order, whitespace)
    st = <int64_t*>calloc(4 * order + 1, sizeof(int64_t))
    g = segment_take()
    try:
        if st == NULL or g == NULL:
            status = -1
            raise MemoryError()
        for i in range(n):
            hyp = stream_item(hypotheses, i)
            if not PyUnicode_Check(hyp):
                raise TypeError(f"hypotheses[{i}] must be a str, got {type(hyp).__name__}")
            e.chars.n = e.words.n = 0
            read_units(&e, hyp)
            g.hyp_chars = e.chars.n
            g.hyp_unit_limit = e.unit_limit
            g.hyp_words_end = e.words.n
            g.hyp_wid.n = 0
            if word_order > 0 and intern_words(g, &e, True) < 0:
                status = -1
                raise MemoryError()
            best = -1.0
            have = False
            for k in range(len(streams)):
                ref = stream_item(streams[k], i)
                if ref is None:
                    continue
                if not PyUnicode_Check(ref):
                    raise TypeError(
                        f"references[{k}][{i}] must be a str or None, got {type(ref).__name__}")
                have = True
                # The reference goes after the hypothesis (whose text stays for the lookups).
                e.chars.n = g.hyp_chars
                e.words.n = g.hyp_words_end
                read_units(&e, ref)
                with nogil:
                    status = reference_row(g, &e, st)
                    if status == 0:
                        f = f_score(st, order, factor, eps_smoothing)
                        if f > best:
                            best = f
                            for j in range(3 * order):
                                out[i, j] = st[j]
                if status < 0:
                    raise MemoryError()
            if not have:
                raise ValueError(f"segment {i} has no reference (every one is None)")
    finally:
        free(st)
        segment_give(g, status < 0)
        enc_free(&e)


# -- the pairwise matrix --------------------------------------------------------------------------
cdef class _Profiles:
    """Every text's distinct n-grams as (global id, count) pairs, order by order: the n-grams of
    all texts are numbered once in one vocabulary, so a pair of texts is matched by looking up
    one text's ids in a dense array that holds the other's counts."""

    cdef int order
    cdef int64_t n_texts
    cdef int64_t n_ids
    cdef int32_t* ids       # per text, per order: its distinct ids ...
    cdef int32_t* counts    # ... and their counts
    cdef int64_t* off       # per text: order + 1 offsets into ids/counts
    cdef int64_t* totals    # per text, per order: its n-gram count

    def __dealloc__(self):
        free(self.ids)
        free(self.counts)
        free(self.off)
        free(self.totals)

    cdef int build(self, Enc* e, int64_t n_texts) noexcept nogil:
        """Numbers the n-grams of the ``n_texts`` texts encoded in ``e``; -1: out of memory."""
        cdef int order = e.char_order + e.word_order, k
        cdef int64_t n_items = e.items.n, j, t, p, first, last
        cdef const Item* items = <Item*>e.items.p
        cdef const int64_t* offs = <int64_t*>e.offs.p
        cdef int32_t* gid = NULL
        cdef int32_t* seen = NULL
        cdef Entry* en
        cdef bint found
        cdef Table vocab
        cdef int status = -1
        memset(&vocab, 0, sizeof(Table))
        self.order = order
        self.n_texts = n_texts
        self.ids = <int32_t*>calloc(n_items + 1, sizeof(int32_t))
        self.counts = <int32_t*>calloc(n_items + 1, sizeof(int32_t))
        self.off = <int64_t*>calloc(n_texts * (order + 1) + 1, sizeof(int64_t))
        self.totals = <int64_t*>calloc(n_texts * order + 1, sizeof(int64_t))
        gid = <int32_t*>calloc(n_items + 1, sizeof(int32_t))
        if (self.ids == NULL or self.counts == NULL or self.off == NULL or self.totals == NULL
                or gid == NULL or table_prepare(&vocab, n_items) < 0):
            free(gid)
            free(vocab.e)
            return -1
        self.n_ids = 0
        for j in range(n_items):
            en = table_find(&vocab, e, &items[j], &found)
            if not found:
                table_claim(&vocab, en, &items[j], <int32_t>self.n_ids)
                self.n_ids += 1
            gid[j] = en.count
        free(vocab.e)
        seen = <int32_t*>calloc(self.n_ids + 1, sizeof(int32_t))
        if seen == NULL:
            free(gid)
            return -1
        p = 0
        for t in range(n_texts):
            for k in range(order):
                first = offs[t * (order + 1) + k]
                last = offs[t * (order + 1) + k + 1]
                self.totals[t * order + k] = last - first
                self.off[t * (order + 1) + k] = p
                for j in range(first, last):
                    if seen[gid[j]] == 0:
                        self.ids[p] = gid[j]
                        p += 1
                    seen[gid[j]] += 1
                for j in range(self.off[t * (order + 1) + k], p):
                    self.counts[j] = seen[self.ids[j]]
                    seen[self.ids[j]] = 0
            self.off[t * (order + 1) + order] = p
        status = 0
        free(seen)
        free(gid)
        return status

    cdef int fill(self, int64_t n_hyps, int64_t r0, int64_t r1, double factor, bint eps_smoothing,
                  double[:, ::1] out) noexcept nogil:
        """out[h, r - n_hyps] for every hypothesis h < n_hyps and reference r in [r0, r1) (texts
        n_hyps.. are the references); -1: out of memory."""
        cdef int order = self.order, k
        cdef int64_t r, h, j, a, b, n_ref, matches
        cdef int32_t c, d
        cdef int32_t* dense = <int32_t*>calloc(self.n_ids + 1, sizeof(int32_t))
        cdef int64_t* st = <int64_t*>calloc(3 * order + 1, sizeof(int64_t))
        if dense == NULL or st == NULL:
            free(dense)
            free(st)
            return -1
        for r in range(r0, r1):
            a = self.off[r * (order + 1)]
            b = self.off[r * (order + 1) + order]
            for j in range(a, b):
                dense[self.ids[j]] = self.counts[j]
            for h in range(n_hyps):
                for k in range(order):
                    n_ref = self.totals[r * order + k]
                    matches = 0
                    if n_ref > 0:
                        for j in range(self.off[h * (order + 1) + k],
                                       self.off[h * (order + 1) + k + 1]):
                            c = self.counts[j]
                            d = dense[self.ids[j]]
                            matches += c if c < d else d
                    st[3 * k] = self.totals[h * order + k] if n_ref > 0 else 0
                    st[3 * k + 1] = n_ref
                    st[3 * k + 2] = matches
                out[h, r - n_hyps] = f_score(st, order, factor, eps_smoothing)
            for j in range(a, b):
                dense[self.ids[j]] = 0
        free(dense)
        free(st)
        return 0


def pairwise_scores(hypotheses, references, int char_order, int word_order, bint whitespace, beta,
                    bint eps_smoothing, double[:, ::1] out, int threads=1):
    """``out[i, j]`` = sentence chrF of hypothesis i against reference j alone; each text's
    n-grams counted once. ``threads`` > 1 splits the references among that many threads."""
    cdef Py_ssize_t n_hyps = len(hypotheses), n_refs = len(references), i
    cdef double factor = factor_of(beta)
    cdef Enc e
    cdef _Profiles prof = _Profiles()
    cdef int status
    if out.shape[0] != n_hyps or out.shape[1] != n_refs:
        raise ValueError(f"out must be ({n_hyps}, {n_refs}), got ({out.shape[0]}, {out.shape[1]})")
    enc_init(&e, char_order, word_order, whitespace)
    try:
        for what, texts in (("hypotheses", hypotheses), ("references", references)):
            for i in range(len(texts)):
                text = stream_item(texts, i)
                if not PyUnicode_Check(text):
                    raise TypeError(f"{what}[{i}] must be a str, got {type(text).__name__}")
                encode(&e, text)
        with nogil:
            status = prof.build(&e, n_hyps + n_refs)
        if status < 0:
            raise MemoryError()
    finally:
        enc_free(&e)
    threads = max(1, min(threads, n_refs))
    if threads == 1:
        with nogil:
            status = prof.fill(n_hyps, n_hyps, n_hyps + n_refs, factor, eps_smoothing, out)
        if status < 0:
            raise MemoryError()
        return
    failed = []

    def work(int64_t r0, int64_t r1):
        cdef int s
        with nogil:
            s = prof.fill(n_hyps, r0, r1, factor, eps_smoothing, out)
        if s < 0:
            failed.append(r0)

    import threading  # here: `import turbobleu` does not need it

    bounds = [n_hyps + n_refs * w // threads for w in range(threads + 1)]
    pool = [threading.Thread(target=work, args=(bounds[w], bounds[w + 1]))
            for w in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    if failed:
        raise MemoryError()
