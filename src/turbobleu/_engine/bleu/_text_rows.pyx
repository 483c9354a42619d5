# cython: language_level=3
# cython: freethreading_compatible=True
"""BLEU's fused paths from text to statistics rows: lines are tokenized (``text/_tokenize``'s
rules, through ``_tokenize.pxd``) into a vocabulary, their ids counted with the kernel's table
(``count/_kernel.pxd``) and, for one sentence, the row scored with sacrebleu's recipe
(``recipes/sacrebleu_row.pxd``), with no Python object per token; and GLEU's, whose counts
choose one reference per segment (``recipes/gleu_pairs.pxd``). ``_text_rows_py.py`` is the
readable twin: tokenize, then count, then score.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from cpython.unicode cimport PyUnicode_Check

from turbobleu._engine.count._kernel cimport (TABLE_FOR_CORPUS, Table, count_segment,
                                              table_bytes, table_give, table_release,
                                              table_reserve, table_reserve_ids, table_take,
                                              table_warm)
from turbobleu._engine.recipes.gleu_pairs cimport GleuChoice, gleu_choice_reset, gleu_pair
from turbobleu._engine.recipes.sacrebleu_row cimport score_parts_of_row
from turbobleu._engine.scratch cimport tb_scratch_give, tb_scratch_peek, tb_scratch_take
from turbobleu._engine.text._tokenize cimport (PyUnicode_DATA, PyUnicode_GET_LENGTH,
                                               PyUnicode_KIND, Buf, Pipe, TokenInfo, Vocab,
                                               VocabMem, ends_in_period, lowered, note_line,
                                               prepare_kind, tokenize_buffers,
                                               tokenize_pipe_line, vocab_init, vocab_release,
                                               vocab_reset)


cdef enum:
    HYP_IDS_SLOT = 0            # this module's scratch.h slots (the vocabulary's is
    REF_IDS_SLOT = 1            # _tokenize's own)
    SENTENCE_SLOT = 2


# corpus_row's id buffers are kept for this thread's next call like the vocabulary's memory
# (scratch.h): a fresh buffer that grows to a few hundred KiB faults its pages in again on every
# call.
cdef void release_buf_box(void* box) noexcept nogil:
    free((<Buf*>box).data)
    free(box)


cdef Buf* buf_take(int slot) noexcept nogil:
    """An empty id buffer: this thread's kept one from ``slot``, or new; NULL without memory."""
    cdef Buf* b = <Buf*>tb_scratch_take(slot)
    if b == NULL:
        return <Buf*>calloc(1, sizeof(Buf))
    b.size = 0
    return b


cdef inline void buf_give(int slot, Buf* b) noexcept nogil:
    if b != NULL:
        tb_scratch_give(slot, b, b.cap * sizeof(uint32_t), release_buf_box)


cdef tuple plain_corpus(object hypotheses, object references):
    """(hypotheses, streams) as tuples when the corpus has the plain shape corpus_row handles
    (a non-empty list of str; a non-empty list of lists of str, each as long), else None. The
    tuples own their items, so nothing that runs later (a str's lower(), a gc callback that
    empties the caller's lists) can free a line while its buffer is read."""
    if type(hypotheses) is not list or type(references) is not list:
        return None
    cdef tuple hyps = tuple(<list>hypotheses)
    cdef list streams = []
    cdef Py_ssize_t n = len(hyps)
    if n == 0 or len(<list>references) == 0:
        return None
    for stream in tuple(<list>references):
        if type(stream) is not list or len(<list>stream) != n:
            return None
        streams.append(tuple(<list>stream))
    for line in hyps:
        if not PyUnicode_Check(line):
            return None
    for stream in streams:
        for line in <tuple>stream:
            if not PyUnicode_Check(line):
                return None
    return hyps, tuple(streams)


def corpus_row(hypotheses, references, int kind, bint lowercase, int max_order,
               int64_t[:, ::1] rows=None, uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """The corpus' summed statistics row ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` and
    how many hypotheses end in ' .', as ``(row, periods)``; tokenizing and counting in one call.
    The per-segment rows go to ``rows`` (zeroed, one row per segment) when it is given.

    Only for the plain shape (see plain_corpus: no None reference, no other sequence types);
    anything else returns None, and the caller takes the general path, which also gives the
    errors for bad input. ``hash_mask`` is count_stats' test hook (forced hash collisions).
    """
    prepare_kind(kind)
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    corpus = plain_corpus(hypotheses, references)
    if corpus is None:
        return None
    cdef Py_ssize_t n = len(corpus[0]), width = 2 + 2 * max_order
    if rows is not None and (rows.shape[0] != n or rows.shape[1] != width):
        raise ValueError(f"corpus_row: rows must have shape ({n}, {width})")
    return count_corpus(corpus[0], corpus[1], None, kind, lowercase, max_order,
                        &rows[0, 0] if rows is not None else NULL, hash_mask, 0, 0)


def gleu_stats(hypotheses, references, int kind, bint lowercase, int64_t min_len,
               int64_t max_len, uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
    """NLTK's corpus GLEU of tokenized text as its summed ``(tp, n_all)``: ``references[i]`` is
    hypothesis i's list of reference strings (any number), each counted against it alone and
    the one with the best ratio kept (``recipes/gleu_pairs.pxd``). Tokenizes and counts in one
    call, as corpus_row; None for input not in the plain shape (a non-empty list of str, and a
    list as long of lists of str), which the caller's general path takes. Orders:
    ``1 <= min_len``, ``1 <= max_len``."""
    prepare_kind(kind)
    if min_len < 1 or max_len < 1:
        raise ValueError(f"gleu_stats: orders must be >= 1, got {min_len}..{max_len}")
    corpus = plain_reference_lists(hypotheses, references)
    if corpus is None:
        return None
    sums = count_corpus(corpus[0], None, corpus[1], kind, lowercase, 0, NULL, hash_mask,
                        min_len, max_len)[0]
    return sums[0], sums[1]


cdef tuple plain_reference_lists(object hypotheses, object references):
    """(hypotheses, reference lists) as tuples when the corpus has gleu_stats' plain shape (a
    non-empty list of str; a list as long of lists of str), else None (tuples: see
    plain_corpus)."""
    if type(hypotheses) is not list or type(references) is not list:
        return None
    cdef tuple hyps = tuple(<list>hypotheses)
    cdef tuple ref_lists = tuple(<list>references)
    if len(hyps) == 0 or len(ref_lists) != len(hyps):
        return None
    for line in hyps:
        if not PyUnicode_Check(line):
            return None
    cdef list lists = []
    for refs in ref_lists:
        if type(refs) is not list:
            return None
        refs = tuple(<list>refs)
        for line in <tuple>refs:
            if not PyUnicode_Check(line):
                return None
        lists.append(refs)
    return hyps, tuple(lists)


cdef tuple count_corpus(tuple hyps, tuple streams, tuple ref_lists, int kind, bint lowercase,
                        int max_order, int64_t* rows_out, uint64_t hash_mask,
                        int64_t gleu_min, int64_t gleu_max):
    """corpus_row's and gleu_stats' work: every line tokenized into one vocabulary, then each
    segment counted. The references come as ``streams`` (segment i's are ``streams[k][i]``) or
    as ``ref_lists`` (segment i's are ``ref_lists[i]``), the other None. With ``gleu_max`` 0,
    against its references together (rows_out: one row per segment, or NULL): returns
    ``(summed row, periods)``; else GLEU's choice of one reference of orders
    gleu_min..gleu_max: returns ``([tp, n_all], periods)``."""
    cdef Py_ssize_t n = len(hyps), i, k, j, r
    cdef Py_ssize_t n_refs = 0
    if streams is not None:
        n_refs = n * len(streams)
    else:
        for refs in ref_lists:
            n_refs += len(<tuple>refs)
    cdef Py_ssize_t n_lines = n + n_refs
    cdef Py_ssize_t width = 2 + 2 * max_order
    cdef Py_ssize_t periods = 0
    cdef list keep = []   # lowercased lines, alive while their buffers are read
    cdef Vocab vocab = Vocab()   # before the allocations below: it may raise MemoryError
    cdef int* kinds = <int*>malloc((n_lines + 1) * sizeof(int))
    cdef void** datas = <void**>malloc((n_lines + 1) * sizeof(void*))
    cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc((n_lines + 1) * sizeof(Py_ssize_t))
    cdef int64_t* hyp_off = <int64_t*>malloc((n + 1) * sizeof(int64_t))
    cdef int64_t* ref_off = <int64_t*>malloc((n_refs + 1) * sizeof(int64_t))
    cdef int64_t* seg_first = <int64_t*>malloc((n + 1) * sizeof(int64_t))
    cdef int64_t* total = <int64_t*>calloc(2 + 2 * max_order, sizeof(int64_t))
    cdef int64_t* seg_buf = NULL
    cdef int64_t* seg_row
    cdef Buf* hyp_ids = buf_take(HYP_IDS_SLOT)
    cdef Buf* ref_ids = buf_take(REF_IDS_SLOT)
    cdef Table* t = NULL
    cdef const int32_t* hyp
    cdef int64_t longest = 0, hyp_len
    cdef Py_ssize_t n_ids
    cdef GleuChoice choice
    try:
        if (kinds == NULL or datas == NULL or lengths == NULL or hyp_off == NULL
                or ref_off == NULL or seg_first == NULL or total == NULL or hyp_ids == NULL
                or ref_ids == NULL):
            raise MemoryError()
        # Lines in the order they are tokenized: the references segment by segment (segment
        # i's are the contiguous spans seg_first[i] .. seg_first[i + 1] - 1), then the
        # hypotheses.
        j = 0
        for i in range(n):
            seg_first[i] = j
            refs = ref_lists[i] if streams is None else None
            for k in range(len(streams) if streams is not None else len(<tuple>refs)):
                line = (<tuple>streams[k])[i] if streams is not None else (<tuple>refs)[k]
                if lowercase:   # (the name: references[stream][segment], or [segment][k])
                    line = lowered(line, f"references[{k if streams is not None else i}]",
                                   i if streams is not None else k)
                    keep.append(line)
                note_line(line, kinds, datas, lengths, j)
                j += 1
        seg_first[n] = j
        for i in range(n):
            line = hyps[i]
            periods += ends_in_period(line)
            if lowercase:
                line = lowered(line, "hypotheses", i)
                keep.append(line)
            note_line(line, kinds, datas, lengths, j)
            j += 1
        tokenize_buffers(kind, n_refs, kinds, datas, lengths, vocab, False, ref_ids, ref_off)
        tokenize_buffers(kind, n, kinds + n_refs, datas + n_refs, lengths + n_refs, vocab, True,
                         hyp_ids, hyp_off)
        for i in range(n):
            if hyp_off[i + 1] - hyp_off[i] > longest:
                longest = hyp_off[i + 1] - hyp_off[i]
        if gleu_max:
            # GLEU counts orders up to min(gleu_max, the hypothesis' length) only.
            max_order = <int>(gleu_max if gleu_max < longest else longest)
            if max_order < 1:
                max_order = 1
            width = 2 + 2 * max_order
        seg_buf = <int64_t*>malloc(width * sizeof(int64_t))
        if seg_buf == NULL:
            raise MemoryError()
        seg_row = seg_buf
        n_ids = vocab.m.count
        t = table_take(TABLE_FOR_CORPUS)
        if (t == NULL or table_reserve(t, max_order, longest) < 0
                or table_reserve_ids(t, n_ids) < 0):
            raise MemoryError("corpus_row: cannot allocate the n-gram table")
        table_warm(t, max_order, longest, n_ids)
        with nogil:
            for i in range(n):
                hyp = <const int32_t*>hyp_ids.data + hyp_off[i] if hyp_ids.data != NULL else NULL
                hyp_len = hyp_off[i + 1] - hyp_off[i]
                if gleu_max:
                    gleu_choice_reset(&choice)
                    for r in range(seg_first[i], seg_first[i + 1]):
                        if gleu_pair(&choice, t, seg_buf, hash_mask, hyp, hyp_len,
                                     <const int32_t*>ref_ids.data, ref_off, r, n_ids, gleu_min,
                                     gleu_max) < 0:
                            break
                    total[0] += choice.tp
                    total[1] += choice.n_all
                    continue
                if rows_out != NULL:
                    seg_row = rows_out + i * width
                memset(seg_row, 0, width * sizeof(int64_t))
                count_segment(t, seg_row, max_order, hash_mask, hyp, hyp_len,
                              <const int32_t*>ref_ids.data, ref_off, seg_first[i],
                              seg_first[i + 1], n_ids)
                for k in range(width):
                    total[k] += seg_row[k]
        if t.failed:
            raise MemoryError("corpus_row: out of memory")
        if gleu_max:
            return [total[0], total[1]], periods
        return [total[k] for k in range(width)], periods
    finally:
        table_give(t, TABLE_FOR_CORPUS)
        free(kinds); free(datas); free(lengths); free(hyp_off); free(ref_off); free(seg_first)
        free(total); free(seg_buf)
        buf_give(HYP_IDS_SLOT, hyp_ids)
        buf_give(REF_IDS_SLOT, ref_ids)


# ---------------------------------------------------------------------------------------------
# One sentence, fused: tokenize its references and hypothesis and count, in scratch memory kept
# for this thread's next call (scratch.h). A call made from inside this one (a str subclass'
# lower(), a gc callback) finds the slot empty and works in fresh memory.
cdef struct Sentence:
    VocabMem vocab
    Table table
    Buf work
    Buf ids
    Pipe pipe


cdef void release_sentence_box(void* box) noexcept nogil:
    cdef Sentence* b = <Sentence*>box
    vocab_release(&b.vocab)
    table_release(&b.table)
    free(b.work.data)
    free(b.ids.data)
    free(b.pipe.tok)
    free(b)


cdef Sentence* sentence_take() noexcept nogil:
    """This thread's kept sentence scratch, or new; NULL when memory runs out."""
    cdef Sentence* b = <Sentence*>tb_scratch_take(SENTENCE_SLOT)
    if b != NULL:
        return b
    b = <Sentence*>calloc(1, sizeof(Sentence))
    if b == NULL:
        return NULL
    b.pipe.tok_cap = 64
    b.pipe.tok = <uint32_t*>malloc(64 * sizeof(uint32_t))
    if b.pipe.tok == NULL or vocab_init(&b.vocab) < 0:
        release_sentence_box(b)
        return NULL
    return b


cdef int64_t sentence_bytes(const Sentence* b) noexcept nogil:
    return (table_bytes(&b.table) + b.vocab.slots_alloc * sizeof(uint64_t)
            + b.vocab.info_cap * sizeof(TokenInfo) + (b.vocab.arena.cap + b.work.cap + b.ids.cap
                                                      + b.pipe.tok_cap) * sizeof(uint32_t))


cdef void sentence_give(Sentence* b) noexcept nogil:
    """Keep it for this thread's next call, unless one very long sentence made it large."""
    if b != NULL:
        tb_scratch_give(SENTENCE_SLOT, b, sentence_bytes(b), release_sentence_box)


cdef int tokenize_one(Sentence* b, object line, int kind, bint lowercase, bint frozen, str what,
                      Py_ssize_t i) except -2:
    if lowercase:
        line = lowered(line, what, i)
    b.pipe.frozen = frozen
    if tokenize_pipe_line(kind, &b.pipe, PyUnicode_KIND(line), PyUnicode_DATA(line),
                          PyUnicode_GET_LENGTH(line), &b.work) < 0:
        raise MemoryError("sentence_row: out of memory")
    return 0


cdef int fill_sentence_row(hypothesis, list references, int kind, bint lowercase,
                           int max_order, int64_t* row) except -1:
    """Count one hypothesis (a str) against ``references`` (str or None each; None is skipped,
    as sacrebleu does) into ``row`` (zeroed, 2 + 2*max_order values)."""
    cdef Py_ssize_t k, n_refs = 0, hyp_start, hyp_len
    cdef int64_t* ref_off
    cdef Sentence* b
    if not PyUnicode_Check(hypothesis):
        raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    prepare_kind(kind)
    cdef tuple refs = tuple(references)   # keeps them alive and their count fixed
    ref_off = <int64_t*>malloc((len(refs) + 1) * sizeof(int64_t))
    b = sentence_take()
    try:
        if ref_off == NULL or b == NULL or vocab_reset(&b.vocab) < 0:
            raise MemoryError()
        b.pipe.vocab = &b.vocab
        b.pipe.ids = &b.ids
        b.pipe.failed = 0
        b.ids.size = 0
        ref_off[0] = 0
        for k in range(len(refs)):
            ref = refs[k]
            if ref is None:
                continue
            if not PyUnicode_Check(ref):
                raise TypeError(f"references[{k}] must be a str or None, got {type(ref).__name__}")
            tokenize_one(b, ref, kind, lowercase, False, "references", k)
            n_refs += 1
            ref_off[n_refs] = b.ids.size
        hyp_start = b.ids.size
        tokenize_one(b, hypothesis, kind, lowercase, True, "hypothesis", -1)
        hyp_len = b.ids.size - hyp_start
        if n_refs == 0 and hyp_len > 0:
            raise ValueError("references: every reference is None, so there is nothing to "
                             "score the hypothesis against")
        if (table_reserve(&b.table, max_order, hyp_len) < 0
                or table_reserve_ids(&b.table, b.vocab.count) < 0):
            raise MemoryError()
        count_segment(&b.table, row, max_order, 0xFFFFFFFFFFFFFFFFULL,
                      <const int32_t*>b.ids.data + hyp_start, hyp_len,
                      <const int32_t*>b.ids.data, ref_off, 0, n_refs, b.vocab.count)
        if b.table.failed:
            b.table.failed = 0   # it failed before touching a slot: the table is still empty
            raise MemoryError("sentence_row: out of memory while counting")
        return 0
    finally:
        sentence_give(b)
        free(ref_off)


def sentence_table_bytes():
    """Test hook: the memory of the single-sentence n-gram table this thread keeps now."""
    cdef const Sentence* b = <const Sentence*>tb_scratch_peek(SENTENCE_SLOT)
    return table_bytes(&b.table) if b != NULL else 0


def sentence_row(hypothesis, list references, int kind, bint lowercase, int max_order):
    """``[hyp_len, ref_len, matches_1..N, totals_1..N]`` of one hypothesis (a str) against
    ``references`` (str or None each; None is skipped, as sacrebleu does)."""
    cdef Py_ssize_t k, width = 2 + 2 * max_order
    cdef int64_t* row = <int64_t*>calloc(width if width > 0 else 1, sizeof(int64_t))
    if row == NULL:
        raise MemoryError()
    try:
        fill_sentence_row(hypothesis, references, kind, lowercase, max_order, row)
        return [row[k] for k in range(width)]
    finally:
        free(row)


cdef enum:
    MAX_PARTS_ORDER = 16    # sentence_score_parts scores rows up to this order in C


def sentence_score_parts(hypothesis, list references, int kind, bint lowercase, int max_order,
                         str smooth_method, smooth_value, bint effective_order, bint neumaier):
    """``BLEUScore``'s arguments (score, counts, totals, precisions, bp, sys_len, ref_len) for
    one hypothesis: ``sentence_row`` and ``sacrebleu_score_parts`` in one call (a sentence_bleu
    loop spends most of its time around the compiled work). Not for add-k."""
    cdef int64_t row[2 + 2 * MAX_PARTS_ORDER]
    cdef Py_ssize_t k
    if smooth_method == "add-k":
        raise ValueError("sentence_score_parts: add-k takes the Python recipe")
    if not 1 <= max_order <= MAX_PARTS_ORDER:
        # Orders the C arrays here do not hold: the arguments are checked as for any order,
        # then refused as sacrebleu_score_parts refuses them.
        sentence_row(hypothesis, references, kind, lowercase, max_order)
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    memset(row, 0, sizeof(row))
    fill_sentence_row(hypothesis, references, kind, lowercase, max_order, row)
    score, precisions, bp = score_parts_of_row(row, max_order, smooth_method, smooth_value,
                                               effective_order, neumaier)
    return (score, [row[2 + k] for k in range(max_order)],
            [row[2 + max_order + k] for k in range(max_order)], precisions, bp, row[0], row[1])
