# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled twin of ``_intern_py.py``: kernel statistics for sequences of hashable tokens.

The tokens are interned straight from the sequences into C buffers: plain ``str`` tokens (the
common case) in a C hash table that compares them as a dict of strings would (same hash, then the
same characters), anything else with a Python dict (so ``hash`` and ``==`` decide token identity,
as in the libraries mirrored), and every segment is counted
with the kernel's ``count_segment``. Only hypothesis tokens get ids; a reference token that no
hypothesis has gets -1 (no hypothesis token has it, so it can never match).

Like the twin, both functions return None instead of raising when the input is unusual (no
``len``, a length that disagrees with iteration, an unhashable token, a segment without
references, ...): the caller then follows its library's own order of operations.
"""

cimport cython
from cpython.object cimport PyObject
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.float cimport DBL_MIN
from libc.math cimport exp, isfinite, isinf, log
from libc.string cimport memcmp, memset

from turbobleu._engine.count._kernel cimport (TABLE_FOR_CORPUS, TABLE_FOR_SENTENCE, Table,
                                              count_segment, kept_table_bytes, table_give,
                                              table_reserve, table_reserve_ids, table_take,
                                              table_warm)
from turbobleu._engine.recipes.fsum cimport exact_sum
from turbobleu._engine.recipes.gleu_pairs cimport GleuChoice, gleu_choice_reset, gleu_pair
from turbobleu._engine.scratch cimport tb_scratch_give, tb_scratch_take, warm_memory

cdef extern from "Python.h":
    object PySequence_Fast(object o, const char* message)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    PyObject* PyDict_SetDefault(object d, object key, object default_value) except NULL
    PyObject* PyDict_GetItemWithError(object d, object key) except? NULL
    long PyLong_AsLong(object o) except? -1
    PyObject** PySequence_Fast_ITEMS(object o)
    ctypedef Py_ssize_t Py_hash_t
    bint PyUnicode_CheckExact(PyObject* o)
    bint PyList_CheckExact(PyObject* o)
    bint PyTuple_CheckExact(PyObject* o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    unsigned int PyUnicode_KIND(PyObject* o)
    void* PyUnicode_DATA(PyObject* o)
    Py_hash_t PyObject_Hash(PyObject* o) except? -1
    void Py_INCREF(PyObject* o)
    void Py_DECREF(PyObject* o)

cdef extern from "cpython_layout.h":
    Py_hash_t tb_cached_str_hash(PyObject* o)
    uint64_t tb_str_head(PyObject* o, const unsigned char* d, Py_ssize_t nbytes)
    int tb_unicode_ready(PyObject* o) except -1
    bint TB_LISTS_SHARED

cdef Py_ssize_t MAX_TOKENS = 2147483646


cdef struct Ids:
    int32_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int ids_reserve(Ids* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t need = b.size + extra, cap
    cdef int32_t* grown
    if need <= b.cap:
        return 0
    cap = b.cap * 2 if b.cap else 256
    while cap < need:
        cap *= 2
    grown = <int32_t*>realloc(b.data, cap * sizeof(int32_t))
    if grown == NULL:
        raise MemoryError()
    b.data = grown
    b.cap = cap
    return 0


cdef object fast_of(object seq):
    """A list/tuple view of ``seq`` whose size agrees with ``len(seq)``, or None (for token
    sequences: their items are read while no Python code runs)."""
    if PyTuple_CheckExact(<PyObject*>seq):
        return seq
    if PyList_CheckExact(<PyObject*>seq):
        # (the usual case) its length is its size, without the calls below; copied where
        # another thread could resize it while its items are read (free-threaded builds)
        return tuple(seq) if TB_LISTS_SHARED else seq
    cdef Py_ssize_t n = len(seq)
    fast = PySequence_Fast(seq, b"not iterable")
    if PySequence_Fast_GET_SIZE(fast) != n:
        return None
    return fast


cdef object snapshot_of(object seq):
    """A tuple of ``seq``'s items whose size agrees with ``len(seq)``, or None: for the outer
    sequences (of sentences, of references), which are read across calls that can run Python
    code (``len`` of a user sequence, ``__hash__``/``__eq__`` of a token) and so change a list."""
    cdef Py_ssize_t n = len(seq)
    snapshot = tuple(seq)
    if len(snapshot) != n:
        return None
    return snapshot


cdef enum:
    MAX_HELD = 8    # Held's capacity


# The items of a short list or tuple, held (owned references) in C: a snapshot like
# snapshot_of's tuple, for a sequence of references, without allocating one. Empty: size 0.
cdef struct Held:
    PyObject* items[MAX_HELD]
    Py_ssize_t size


cdef inline bint can_hold(object seq) noexcept:
    # (Not a list on free-threaded builds: another thread could resize it during the copy.)
    return ((PyTuple_CheckExact(<PyObject*>seq)
             or (PyList_CheckExact(<PyObject*>seq) and not TB_LISTS_SHARED))
            and PySequence_Fast_GET_SIZE(seq) <= MAX_HELD)


cdef Py_ssize_t held_take(Held* h, object seq) noexcept:
    """Hold the items of ``seq`` (can_hold(seq)) in ``h``, which must be empty (releasing here
    could run a finalizer, and so Python code, between the size check and the copy); how many.
    No Python code runs here."""
    cdef Py_ssize_t k, size = PySequence_Fast_GET_SIZE(seq)
    if size > MAX_HELD or h.size != 0:     # never, by the callers; checked all the same
        return 0
    for k in range(size):
        h.items[k] = PySequence_Fast_GET_ITEM(seq, k)
        Py_INCREF(h.items[k])
    h.size = size
    return size


cdef object items_of(object seq, Held* held, PyObject*** items, Py_ssize_t* size):
    """The items of a segment's sequence of references, read once into ``items``/``size``:
    held in ``held`` (empty) when it is a short list or tuple, else copied into a snapshot
    tuple, which is returned (keep it while reading ``items``). ``size`` is -1 when the
    sequence's length disagrees with its iteration."""
    if can_hold(seq):
        size[0] = held_take(held, seq)
        items[0] = held.items
        return None
    snapshot = snapshot_of(seq)
    if snapshot is None:
        size[0] = -1
        return None
    size[0] = PySequence_Fast_GET_SIZE(snapshot)
    items[0] = PySequence_Fast_ITEMS(snapshot)
    return snapshot


cdef void held_release(Held* h) noexcept:
    cdef Py_ssize_t k, size = h.size
    h.size = 0
    for k in range(size):
        Py_DECREF(h.items[k])


# -- plain str tokens: a C hash table ---------------------------------------------------------
cdef enum:
    NOT_PLAIN = -2          # str_find: the token is not a plain str (the dict takes over)
    MAX_STR_LENGTH = 1 << 28  # longer str tokens go to the dict (their shape would not fit)


cdef struct StrKey:
    PyObject* key           # an owned reference to the token
    Py_hash_t hash
    uint64_t head           # tb_str_head: its first 8 bytes (fewer: zero-extended)
    uint32_t shape          # length << 3 | bytes per character (1, 2 or 4)


cdef struct StrTable:
    uint64_t* slots         # (hash's high half) << 32 | (id + 1); 0 is an empty slot
    Py_ssize_t mask         # slots in use - 1 (a power of two, at most a quarter full)
    Py_ssize_t slots_alloc  # slots allocated (>= mask + 1); those beyond the ones in use are 0
    StrKey* keys            # keys[id], ids in first-seen order
    Py_ssize_t size         # distinct tokens so far, the next id
    Py_ssize_t keys_cap     # >= (mask + 1) / 4, so an insert below the load limit always fits
    Py_hash_t hash_mask     # STR_HASH_MASK when the table was made (one mask per table)


# The memory of one finished table is kept for this thread's next call (scratch.h), in a box: a
# corpus call's table otherwise goes back to the allocator, which returns it to the system, and
# the next call faults it in again. A kept table's slots are all zero and it owns no token.
cdef enum:
    STRS_SLOT = 0           # this module's scratch.h slot


cdef void release_strs_box(void* box) noexcept nogil:
    free((<StrTable*>box).slots)
    free((<StrTable*>box).keys)
    free(box)


cdef enum:
    MIN_SLOTS = 64
    MAX_FIRST_SLOTS = 1024


# Tests narrow this to make distinct tokens share a hash: only the verification then tells
# them apart (what must never change a result is only rarely reached otherwise). A test knob,
# not state: set it only while no other thread uses this module (each table copies it once).
cdef Py_hash_t STR_HASH_MASK = -1


def set_str_hash_mask(Py_hash_t mask):
    """Test hook: keep only these bits of every str token's hash (-1: all) in the tables made
    from now on; returns the old mask."""
    global STR_HASH_MASK
    old = STR_HASH_MASK
    STR_HASH_MASK = mask
    return old


cdef inline uint64_t str_slot_value(Py_hash_t h, Py_ssize_t token_id) noexcept:
    return (<uint64_t>h & 0xFFFFFFFF00000000ULL) | <uint64_t>(token_id + 1)


cdef StrTable* str_table_take(Py_ssize_t expected) except NULL:
    """An empty table for about ``expected`` distinct tokens (it grows): this thread's kept one
    if there is one, starting small again and growing in place (a sparse large table would cost
    cache misses, and zeroing it again at the end, time). Give it back with str_table_give."""
    cdef Py_ssize_t cap = MIN_SLOTS
    while cap < 4 * expected and cap < MAX_FIRST_SLOTS:
        cap *= 2
    cdef StrTable* t = <StrTable*>tb_scratch_take(STRS_SLOT)
    if t != NULL:
        t.mask = (cap if cap <= t.slots_alloc else t.slots_alloc) - 1
        warm_memory(t.slots, (t.mask + 1) * sizeof(uint64_t))
        t.size = 0
        t.hash_mask = STR_HASH_MASK
        return t
    t = <StrTable*>calloc(1, sizeof(StrTable))
    if t == NULL:
        raise MemoryError()
    t.slots = <uint64_t*>calloc(cap, sizeof(uint64_t))
    t.keys = <StrKey*>malloc(cap // 4 * sizeof(StrKey))
    t.mask = cap - 1
    t.slots_alloc = cap
    t.size = 0
    t.keys_cap = cap // 4
    t.hash_mask = STR_HASH_MASK
    if t.slots == NULL or t.keys == NULL:
        release_strs_box(t)
        raise MemoryError()
    return t


cdef void str_table_give(StrTable* t) noexcept:
    """Drop the tokens; keep the memory for this thread's next call (unless it is large, or a
    call made from inside this one kept its own already). NULL is allowed."""
    cdef Py_ssize_t i
    if t == NULL:
        return
    if t.keys != NULL:
        for i in range(t.size):
            Py_DECREF(t.keys[i].key)
    t.size = 0
    if t.slots == NULL or t.keys == NULL:
        release_strs_box(t)
        return
    memset(t.slots, 0, (t.mask + 1) * sizeof(uint64_t))   # the rest is zero already
    tb_scratch_give(STRS_SLOT, t, t.slots_alloc * sizeof(uint64_t) + t.keys_cap * sizeof(StrKey),
                    release_strs_box)


cdef int str_table_grow(StrTable* t) except -1:
    """Double the slots in use (the table stays at most a quarter full) and the keys array."""
    cdef Py_ssize_t cap = 2 * (t.mask + 1), i, j
    cdef uint64_t* slots
    cdef StrKey* keys
    if t.keys_cap < cap // 4:
        keys = <StrKey*>realloc(t.keys, cap // 4 * sizeof(StrKey))
        if keys == NULL:
            raise MemoryError()
        t.keys = keys
        t.keys_cap = cap // 4
    if cap <= t.slots_alloc:
        memset(t.slots, 0, (t.mask + 1) * sizeof(uint64_t))   # beyond: zero already
        warm_memory(t.slots + t.mask + 1, (cap - t.mask - 1) * sizeof(uint64_t))
        slots = t.slots
    else:
        slots = <uint64_t*>calloc(cap, sizeof(uint64_t))
        if slots == NULL:
            raise MemoryError()
    for i in range(t.size):
        j = t.keys[i].hash & (cap - 1)
        while slots[j] != 0:
            j = (j + 1) & (cap - 1)
        slots[j] = str_slot_value(t.keys[i].hash, i)
    if slots != t.slots:
        free(t.slots)
        t.slots = slots
        t.slots_alloc = cap
    t.mask = cap - 1
    return 0


cdef inline Py_ssize_t str_find(StrTable* t, PyObject* token, bint insert) except -3:
    """The id of a plain str token (a new one if ``insert``), -1 if absent, or NOT_PLAIN.

    Two strs are one token when they have the same characters, which is what a dict of strs
    decides (it compares hashes, then lengths, kinds and bytes); the hash only picks the slot.
    """
    if not PyUnicode_CheckExact(token):
        return NOT_PLAIN
    tb_unicode_ready(token)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(token)
    if length >= MAX_STR_LENGTH:
        return NOT_PLAIN
    cdef unsigned int kind = PyUnicode_KIND(token)
    cdef const unsigned char* data = <const unsigned char*>PyUnicode_DATA(token)
    cdef Py_ssize_t nbytes = length * kind
    cdef uint64_t head = tb_str_head(token, data, nbytes)
    cdef uint32_t shape = <uint32_t>(length << 3 | kind)
    cdef Py_hash_t h = tb_cached_str_hash(token)
    if h == -1:
        h = PyObject_Hash(token)
    h &= t.hash_mask
    cdef uint64_t tag = <uint64_t>h & 0xFFFFFFFF00000000ULL, v
    cdef Py_ssize_t i = h & t.mask
    cdef StrKey* k
    while True:
        v = t.slots[i]
        if v == 0:
            break
        if (v & 0xFFFFFFFF00000000ULL) == tag:
            k = &t.keys[<Py_ssize_t>(v & 0xFFFFFFFFULL) - 1]
            if k.key == token or (k.hash == h and k.shape == shape and k.head == head
                                  and (nbytes <= 8 or memcmp(
                                      <const unsigned char*>PyUnicode_DATA(k.key) + 8,
                                      data + 8, nbytes - 8) == 0)):
                return <Py_ssize_t>(v & 0xFFFFFFFFULL) - 1
        i = (i + 1) & t.mask
    if not insert:
        return -1
    if 4 * (t.size + 1) > t.mask:
        # Grow first (a failed growth then leaves the table as it was), and find the empty
        # slot again in the larger table.
        str_table_grow(t)
        i = h & t.mask
        while t.slots[i] != 0:
            i = (i + 1) & t.mask
    Py_INCREF(token)
    k = &t.keys[t.size]
    k.key = token
    k.hash = h
    k.head = head
    k.shape = shape
    t.slots[i] = str_slot_value(h, t.size)
    t.size += 1
    return t.size - 1


@cython.final   # add() is then called directly, not through the method table
cdef class Interner:
    """Token -> id for one call, ids in first-seen order. Plain str tokens go through the C
    table; at the first token of any other kind, the ids so far move into a dict (the same ids)
    and the dict serves the rest of the call, so hash and == decide for every token as in a
    dict of tokens."""
    cdef StrTable* strs     # owned; given back (as scratch) when the interner goes
    cdef dict vocab         # None while every token has been a plain str
    cdef Py_ssize_t next_id

    def __cinit__(self, Py_ssize_t expected):
        self.strs = str_table_take(expected)

    def __dealloc__(self):
        str_table_give(self.strs)
        self.strs = NULL

    cdef int switch_to_dict(self) except -1:
        cdef Py_ssize_t i
        self.vocab = {}
        for i in range(self.strs.size):
            self.vocab[<object>self.strs.keys[i].key] = i
        self.next_id = self.strs.size
        return 0

    cdef int add(self, object fast, Ids* ids, bint hypothesis) except -1:
        """Append the ids of a sequence (a PySequence_Fast): a hypothesis' new tokens get new
        ids; a reference token that no hypothesis has gets -1."""
        cdef Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(fast), found
        cdef PyObject** items = PySequence_Fast_ITEMS(fast)
        ids_reserve(ids, n)
        if self.vocab is None:
            # No Python code runs in this loop (plain strs only), so ``items`` stays valid.
            while i < n:
                found = str_find(self.strs, items[i], hypothesis)
                if found == NOT_PLAIN:
                    self.switch_to_dict()
                    break
                ids.data[ids.size] = <int32_t>found
                ids.size += 1
                i += 1
        if i < n and hypothesis:
            intern_hypothesis(self.vocab, tuple(fast)[i:], ids, &self.next_id)
        elif i < n:
            look_up_reference(self.vocab, tuple(fast)[i:], ids)
        return 0


# -- any hashable tokens: a dict --------------------------------------------------------------
cdef int intern_hypothesis(dict vocab, object fast, Ids* ids, Py_ssize_t* next_id) except -1:
    cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(fast)
    cdef PyObject* found
    cdef object token
    ids_reserve(ids, n)
    for i in range(n):
        token = <object>PySequence_Fast_GET_ITEM(fast, i)
        # Look up first: a repeated token (most of them) then costs no new int object.
        found = PyDict_GetItemWithError(vocab, token)
        if found == NULL:
            found = PyDict_SetDefault(vocab, token, next_id[0])
            next_id[0] += 1
        ids.data[ids.size] = <int32_t>PyLong_AsLong(<object>found)
        ids.size += 1
    return 0


cdef int look_up_reference(dict vocab, object fast, Ids* ids) except -1:
    cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(fast)
    cdef PyObject* found
    ids_reserve(ids, n)
    for i in range(n):
        found = PyDict_GetItemWithError(vocab, <object>PySequence_Fast_GET_ITEM(fast, i))
        ids.data[ids.size] = -1 if found == NULL else <int32_t>PyLong_AsLong(<object>found)
        ids.size += 1
    return 0


cdef int fill_sentence_row(references, hypothesis, int orders, int64_t* row) except -1:
    """Count one hypothesis into ``row`` (zeroed, 2 + 2*orders values): 1, or 0 when declined."""
    cdef Ids ids
    cdef int64_t* offsets = NULL
    cdef Py_ssize_t n_refs, k, hyp_len, refs_size, n_ids
    cdef Interner vocab
    cdef Held held
    cdef PyObject** refs_items
    cdef Table* table = NULL
    if orders < 1:
        return 0
    held.size = 0
    ids.data = NULL
    ids.size = ids.cap = 0
    ids_reserve(&ids, 1)  # never a NULL buffer, even for empty input
    try:
        try:
            n_refs = len(references)  # before iterating: a one-shot iterator stays untouched
            if n_refs == 0:
                return 0
            hyp_fast = fast_of(hypothesis)
            if hyp_fast is None:
                return 0
            # Unread on purpose: keeps the snapshot tuple that refs_items points into alive.
            _refs_snapshot = items_of(references, &held, &refs_items, &refs_size)
            if refs_size != n_refs:
                return 0
            hyp_len = PySequence_Fast_GET_SIZE(hyp_fast)
            vocab = Interner(hyp_len)
            vocab.add(hyp_fast, &ids, True)
            # What was read: Python code (a gc callback, a __del__) may have run since the
            # length above was taken and changed the list.
            hyp_len = ids.size
            offsets = <int64_t*>malloc((n_refs + 1) * sizeof(int64_t))
            if offsets == NULL:
                raise MemoryError()
            offsets[0] = hyp_len
            for k in range(n_refs):
                ref_fast = fast_of(<object>refs_items[k])
                if ref_fast is None:
                    return 0
                vocab.add(ref_fast, &ids, False)
                offsets[k + 1] = ids.size
        except MemoryError:
            raise
        except Exception:
            return 0
        n_ids = vocab.next_id if vocab.vocab is not None else vocab.strs.size
        # Taken only now: counting runs no Python code, so the table is back before any other
        # call on this thread could want it.
        table = table_take(TABLE_FOR_SENTENCE)
        if (table == NULL or table_reserve(table, orders, hyp_len) < 0
                or table_reserve_ids(table, n_ids) < 0):
            raise MemoryError("sentence_row: cannot allocate the n-gram table")
        count_segment(table, row, orders, 0xFFFFFFFFFFFFFFFFULL, ids.data, hyp_len,
                      ids.data, offsets, 0, n_refs, n_ids)
        if table.failed:
            raise MemoryError("sentence_row: out of memory while counting")
        return 1
    finally:
        table_give(table, TABLE_FOR_SENTENCE)
        held_release(&held)
        free(ids.data)
        free(offsets)


def sentence_table_bytes():
    """Test hook: the memory of the single-sentence n-gram table this thread keeps now."""
    return kept_table_bytes(TABLE_FOR_SENTENCE)


def sentence_row(references, hypothesis, int orders):
    """``[hyp_len, closest_ref_len, matches_1..N, totals_1..N]`` for one hypothesis, or None."""
    cdef Py_ssize_t k, width = 2 + 2 * orders
    if orders < 1:
        return None
    cdef int64_t* row = <int64_t*>calloc(width, sizeof(int64_t))
    if row == NULL:
        raise MemoryError()
    try:
        if not fill_sentence_row(references, hypothesis, orders, row):
            return None
        return [row[k] for k in range(width)]
    finally:
        free(row)


cdef enum:
    MAX_SCORE_ORDERS = 16   # weight vectors up to this long are scored here


def unsmoothed_sentence_score(references, hypothesis, tuple weights):
    """NLTK's ``sentence_bleu(references, hypothesis, weights)`` without smoothing or
    auto_reweigh, for float weights, as ``_nltk_recipe.unsmoothed_sentence`` computes it from the
    statistics row (its warnings included); or None where NLTK's own path must decide: a declined
    input, a weight that is not a float, a non-finite intermediate (NLTK raises OverflowError or
    returns NaN there), more than 16 weights. Nothing is warned when it returns None.
    """
    cdef Py_ssize_t orders = len(weights), i
    cdef int64_t row[2 + 2 * MAX_SCORE_ORDERS]
    cdef double terms[MAX_SCORE_ORDERS]
    cdef double partials[MAX_SCORE_ORDERS + 1]
    cdef double p, log_sum, score
    cdef int64_t hyp_len, ref_len
    if orders < 1 or orders > MAX_SCORE_ORDERS:
        return None
    for i in range(orders):
        if type(weights[i]) is not float:
            return None
    memset(row, 0, sizeof(row))
    if not fill_sentence_row(references, hypothesis, <int>orders, row):
        return None
    if row[2] == 0:
        return 0                        # NLTK's int 0, before any warning
    # Everything below is pure until the warnings, so None can still be returned first.
    for i in range(orders):
        # p_i = matches / totals: both exact doubles, so one correctly rounded division equals
        # Python's int true division; method0 puts the smallest normal float for a zero count.
        p = <double>row[2 + i] / <double>row[2 + orders + i] if row[2 + i] else DBL_MIN
        terms[i] = <double>weights[i] * log(p)
        if not isfinite(terms[i]):
            return None
    log_sum = exact_sum(terms, <int>orders, partials)   # math.fsum
    score = exp(log_sum)
    if not isfinite(log_sum) or isinf(score):
        return None
    hyp_len, ref_len = row[0], row[1]
    if hyp_len <= ref_len:
        score = exp(1.0 - <double>ref_len / <double>hyp_len) * score
    for i in range(orders):
        if row[2 + i] == 0:
            # NLTK's warning, from its one call site (imported here: rare, and the NLTK
            # recipe module costs `import turbobleu` a few milliseconds)
            from turbobleu._engine.recipes.nltk import warn_zero_order
            warn_zero_order(i + 1)
    return score


def corpus_rows(reference_lists, hypotheses, int orders):
    """One kernel row per segment (an int64 array of shape (segments, 2 + 2*orders)), or None."""
    return count_corpus(reference_lists, hypotheses, orders, False)


def corpus_totals(reference_lists, hypotheses, int orders):
    """What corpus_bleu needs of the rows, without them: ``(sums, dens, last)``, the column sums
    of the rows, the sums of ``max(1, totals_n)`` for n = 1..orders (NLTK's denominators) and the
    last row, as lists of ints; or None."""
    return count_corpus(reference_lists, hypotheses, orders, True)


cdef object count_corpus(reference_lists, hypotheses, int orders, bint totals_only):
    """corpus_rows, or corpus_totals with ``totals_only``."""
    cdef Ids hyp_ids, ref_ids
    cdef int64_t* hyp_off = NULL
    cdef int64_t* ref_off = NULL
    cdef int64_t* seg_ref = NULL
    cdef Py_ssize_t n, i, k, m, n_refs_total = 0, cap_refs = 0, longest = 0, n_ids
    cdef Py_ssize_t width = 2 + 2 * orders
    cdef Interner vocab = Interner(256)   # grows with the distinct tokens
    cdef Table* table = NULL
    cdef int64_t[:, ::1] out
    cdef int64_t* grown
    cdef int64_t* totals = NULL
    cdef int64_t* seg_row
    cdef Held held
    cdef PyObject** items
    if orders < 1:
        return None
    hyp_ids.data = ref_ids.data = NULL
    hyp_ids.size = hyp_ids.cap = ref_ids.size = ref_ids.cap = 0
    held.size = 0
    try:
        ids_reserve(&hyp_ids, 1)  # never NULL buffers, even for empty input
        ids_reserve(&ref_ids, 1)
        table = table_take(TABLE_FOR_CORPUS)
        if table == NULL:
            raise MemoryError()
        try:
            n = len(hypotheses)
            if n == 0 or len(reference_lists) != n:
                return None
            hyps_fast = snapshot_of(hypotheses)
            lists_fast = snapshot_of(reference_lists)
            if hyps_fast is None or lists_fast is None or len(hyps_fast) != n \
                    or len(lists_fast) != n:
                return None
            hyp_off = <int64_t*>malloc((n + 1) * sizeof(int64_t))
            seg_ref = <int64_t*>malloc((n + 1) * sizeof(int64_t))
            if hyp_off == NULL or seg_ref == NULL:
                raise MemoryError()
            hyp_off[0] = 0
            for i in range(n):
                fast = fast_of(<object>PySequence_Fast_GET_ITEM(hyps_fast, i))
                if fast is None:
                    return None
                vocab.add(fast, &hyp_ids, True)
                hyp_off[i + 1] = hyp_ids.size
                if hyp_off[i + 1] - hyp_off[i] > longest:
                    longest = hyp_off[i + 1] - hyp_off[i]
                if hyp_ids.size > MAX_TOKENS:
                    return None
            seg_ref[0] = 0
            for i in range(n):
                # (Held in C when short: a tuple per segment costs more than the rest of one.)
                # (_refs_snapshot, unread, keeps alive the snapshot tuple that items points into.)
                _refs_snapshot = items_of(<object>PySequence_Fast_GET_ITEM(lists_fast, i), &held,
                                          &items, &m)
                if m == -1:
                    return None
                if m == 0:
                    return None  # the library raises here; its own loop decides how
                if n_refs_total + m + 1 > cap_refs:
                    cap_refs = 2 * (n_refs_total + m + 1)
                    grown = <int64_t*>realloc(ref_off, cap_refs * sizeof(int64_t))
                    if grown == NULL:
                        raise MemoryError()
                    ref_off = grown
                    if n_refs_total == 0:
                        ref_off[0] = 0
                for k in range(m):
                    fast = fast_of(<object>items[k])
                    if fast is None:
                        return None
                    vocab.add(fast, &ref_ids, False)
                    n_refs_total += 1
                    ref_off[n_refs_total] = ref_ids.size
                held_release(&held)
                seg_ref[i + 1] = n_refs_total
        except MemoryError:
            raise
        except Exception:
            return None
        n_ids = vocab.next_id if vocab.vocab is not None else vocab.strs.size
        vocab = None
        if table_reserve(table, orders, longest) < 0 or table_reserve_ids(table, n_ids) < 0:
            raise MemoryError("corpus_rows: cannot allocate the n-gram table")
        table_warm(table, orders, longest, n_ids)
        if totals_only:
            totals = <int64_t*>calloc(3 * width, sizeof(int64_t))   # sums, dens, the last row
            if totals == NULL:
                raise MemoryError()
            seg_row = totals + 2 * width
            with nogil:
                for i in range(n):
                    memset(seg_row, 0, width * sizeof(int64_t))
                    count_segment(table, seg_row, orders, 0xFFFFFFFFFFFFFFFFULL,
                                  hyp_ids.data + hyp_off[i], hyp_off[i + 1] - hyp_off[i],
                                  ref_ids.data, ref_off, seg_ref[i], seg_ref[i + 1], n_ids)
                    for k in range(width):
                        totals[k] += seg_row[k]
                    for k in range(orders):
                        totals[width + k] += (seg_row[2 + orders + k]
                                              if seg_row[2 + orders + k] > 1 else 1)
        else:
            import numpy as _np     # here only: corpus_totals (NLTK's corpus_bleu) needs none
            rows = _np.zeros((n, width), dtype=_np.int64)
            out = rows
            with nogil:
                for i in range(n):
                    count_segment(table, &out[i, 0], orders, 0xFFFFFFFFFFFFFFFFULL,
                                  hyp_ids.data + hyp_off[i], hyp_off[i + 1] - hyp_off[i],
                                  ref_ids.data, ref_off, seg_ref[i], seg_ref[i + 1], n_ids)
        if table.failed:
            raise MemoryError("corpus_rows: out of memory while counting")
        if not totals_only:
            return rows
        return ([totals[k] for k in range(width)], [totals[width + k] for k in range(orders)],
                [seg_row[k] for k in range(width)])
    finally:
        held_release(&held)
        table_give(table, TABLE_FOR_CORPUS)
        free(hyp_ids.data)
        free(ref_ids.data)
        free(hyp_off)
        free(ref_off)
        free(seg_ref)
        free(totals)


# -- NLTK's GLEU: per hypothesis, the reference with the best ratio ---------------------------
cdef inline bint is_token_sequence(object seq) noexcept:
    """A list, tuple or str (exactly): the sequences the GLEU fast path takes."""
    return (PyList_CheckExact(<PyObject*>seq) or PyTuple_CheckExact(<PyObject*>seq)
            or PyUnicode_CheckExact(<PyObject*>seq))


cdef struct GleuScratch:
    Ids ids             # the segment's ids: the hypothesis', then each reference's
    int64_t* offsets    # where each reference's ids end (offsets[0]: the hypothesis' length)
    Py_ssize_t cap_refs
    int64_t* row        # one kernel row, 2 + 2 * width values
    int64_t width
    Held held
    Table* table


cdef int gleu_scratch_init(GleuScratch* g) except -1:
    """Takes the buffers and the table (``g`` zeroed first: release it even when this raises)."""
    ids_reserve(&g.ids, 1)
    g.table = table_take(TABLE_FOR_SENTENCE)
    if g.table == NULL:
        raise MemoryError()
    return 0


cdef void gleu_scratch_release(GleuScratch* g) noexcept:
    held_release(&g.held)
    table_give(g.table, TABLE_FOR_SENTENCE)
    free(g.ids.data)
    free(g.offsets)
    free(g.row)


cdef int gleu_segment(GleuScratch* g, Interner vocab, object references, object hypothesis,
                      int64_t min_len, int64_t max_len, int64_t* sums) except -1:
    """Adds one sentence's chosen ``(tp, n_all)`` to ``sums``: 1, or 0 when declined."""
    cdef Py_ssize_t k, m, n_ids, hyp_len
    cdef int64_t top
    cdef GleuChoice choice
    cdef PyObject** items
    if not is_token_sequence(hypothesis) or not (PyList_CheckExact(<PyObject*>references)
                                                 or PyTuple_CheckExact(<PyObject*>references)):
        return 0
    # (_refs_snapshot, unread, keeps alive the snapshot tuple that items points into.)
    _refs_snapshot = items_of(references, &g.held, &items, &m)
    if m == -1:
        return 0
    hyp_fast = fast_of(hypothesis)
    if hyp_fast is None:
        return 0
    g.ids.size = 0
    vocab.add(hyp_fast, &g.ids, True)
    hyp_len = g.ids.size
    if m + 1 > g.cap_refs:
        free(g.offsets)
        g.cap_refs = 2 * (m + 1)
        g.offsets = <int64_t*>malloc(g.cap_refs * sizeof(int64_t))
        if g.offsets == NULL:
            g.cap_refs = 0
            raise MemoryError()
    g.offsets[0] = hyp_len
    for k in range(m):
        if not is_token_sequence(<object>items[k]):
            return 0
        ref_fast = fast_of(<object>items[k])
        if ref_fast is None:
            return 0
        vocab.add(ref_fast, &g.ids, False)
        g.offsets[k + 1] = g.ids.size
    held_release(&g.held)
    n_ids = vocab.next_id if vocab.vocab is not None else vocab.strs.size
    top = max_len if max_len < hyp_len else hyp_len
    if top > g.width:
        free(g.row)
        g.row = <int64_t*>malloc((2 + 2 * top) * sizeof(int64_t))
        if g.row == NULL:
            g.width = 0
            raise MemoryError()
        g.width = top
    if top >= min_len and (table_reserve(g.table, <int>top, hyp_len) < 0
                           or table_reserve_ids(g.table, n_ids) < 0):
        raise MemoryError("gleu_stats: cannot allocate the n-gram table")
    gleu_choice_reset(&choice)
    for k in range(m):
        if gleu_pair(&choice, g.table, g.row, 0xFFFFFFFFFFFFFFFFULL, g.ids.data, hyp_len,
                     g.ids.data, g.offsets, k, n_ids, min_len, max_len) < 0:
            raise MemoryError("gleu_stats: out of memory while counting")
    sums[0] += choice.tp
    sums[1] += choice.n_all
    return 1


def gleu_stats(list_of_references, hypotheses, int64_t min_len, int64_t max_len):
    """NLTK's corpus GLEU statistics ``(tp, n_all)``, summed over the sentences: per hypothesis,
    every reference is counted against it (one kernel row each, orders ``min_len`` up to the
    shorter length) and the first with the largest ``tp / n_all`` is kept, as NLTK's ``max()``
    keeps it. ``min_len >= 1`` and ``max_len >= 1``. None where NLTK's own order must decide
    (other sequence types, an unhashable token, a length mismatch)."""
    return gleu_sums(list_of_references, hypotheses, False, min_len, max_len)


def gleu_sentence_stats(references, hypothesis, int64_t min_len, int64_t max_len):
    """``gleu_stats([references], [hypothesis], min_len, max_len)``, without the lists."""
    return gleu_sums(references, hypothesis, True, min_len, max_len)


cdef object gleu_sums(object list_of_references, object hypotheses, bint one_sentence,
                      int64_t min_len, int64_t max_len):
    """gleu_stats; with ``one_sentence``, of one sentence's references and hypothesis."""
    cdef GleuScratch g
    cdef int64_t sums[2]
    cdef Py_ssize_t i, n
    if min_len < 1 or max_len < 1:
        return None
    sums[0] = sums[1] = 0
    memset(&g, 0, sizeof(GleuScratch))
    try:
        gleu_scratch_init(&g)
        if one_sentence:
            if not gleu_segment(&g, Interner(64), list_of_references, hypotheses, min_len,
                                max_len, sums):
                return None
            return sums[0], sums[1]
        vocab = Interner(256)
        hyps_fast = snapshot_of(hypotheses)
        lists_fast = snapshot_of(list_of_references)
        if hyps_fast is None or lists_fast is None:
            return None
        n = len(hyps_fast)
        if len(lists_fast) != n:
            return None
        for i in range(n):
            if not gleu_segment(&g, vocab, <object>PySequence_Fast_GET_ITEM(lists_fast, i),
                                <object>PySequence_Fast_GET_ITEM(hyps_fast, i), min_len,
                                max_len, sums):
                return None
        return sums[0], sums[1]
    except MemoryError:
        raise
    except Exception:
        return None  # e.g. an unhashable token: NLTK's order raises its own exception
    finally:
        gleu_scratch_release(&g)
