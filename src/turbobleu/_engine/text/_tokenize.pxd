# Declarations of the tokenizers (_tokenize.pyx) shared with BLEU's fused text paths
# (bleu/_text_rows.pyx), which tokenize lines into a vocabulary of their own and count the ids.
# The rules themselves, their tables and their globals stay in _tokenize.pyx: a line crosses
# modules once (tokenize_buffers, tokenize_pipe_line), never a character.
cimport cython
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)


# A growable array of code points (or of int32 ids, stored as uint32).
cdef struct Buf:
    uint32_t* data
    Py_ssize_t size
    int64_t cap


cdef struct TokenInfo:
    uint64_t hash
    int64_t start   # offset of the token's code points in the arena
    int64_t length


# A vocabulary: code-point spans -> dense int32 ids (see _tokenize.pyx).
cdef struct VocabMem:
    uint64_t* slots
    Py_ssize_t cap          # slots in use, a power of two; the rest of them are zero
    Py_ssize_t slots_alloc  # slots allocated (>= cap)
    Py_ssize_t count
    TokenInfo* info         # per id
    Py_ssize_t info_cap
    Buf arena
    int32_t* char_ids       # id + 1 of each one-character token below 65536 (0: not seen)
    uint64_t char_blocks    # bit b: char_ids[1024*b : 1024*(b+1)] has an entry
    bint char_cache         # whether to use char_ids (corpus tokenization only)


# The streaming pipeline's state for one line at a time (see _tokenize.pyx).
cdef struct Pipe:
    uint32_t pend2, pend3, pend4   # pending characters of rules 2, 3 and 4
    int pend2_cls, pend3_cls       # intl: the classes of pend2 and pend3
    uint32_t* tok                  # the token being collected
    Py_ssize_t tok_len
    Py_ssize_t tok_cap
    VocabMem* vocab                # borrowed
    bint frozen
    Buf* ids
    int failed                     # set when memory runs out


@cython.final
cdef class Vocab:
    cdef VocabMem* m


cdef int vocab_init(VocabMem* v) noexcept nogil
cdef int vocab_reset(VocabMem* v) noexcept nogil
cdef void vocab_release(VocabMem* v) noexcept nogil
cdef int prepare_kind(int kind) except -1
cdef object lowered(object line, str what, Py_ssize_t i)
cdef int tokenize_buffers(int kind, Py_ssize_t n_lines, const int* kinds, void** datas,
                          const Py_ssize_t* lengths, Vocab vocab, bint frozen, Buf* ids,
                          int64_t* offsets) except -1
cdef int tokenize_pipe_line(int kind, Pipe* p, int pykind, const void* data, Py_ssize_t length,
                            Buf* work) noexcept nogil


cdef inline uint32_t read_cp(int pykind, const void* data, Py_ssize_t i) noexcept nogil:
    """Code point ``i`` of a str's buffer (1, 2 or 4 bytes each)."""
    if pykind == 1:
        return (<const unsigned char*>data)[i]
    if pykind == 2:
        return (<const unsigned short*>data)[i]
    return (<const uint32_t*>data)[i]


cdef inline void note_line(object line, int* kinds, void** datas, Py_ssize_t* lengths,
                           Py_ssize_t j) noexcept:
    """Record where str ``line``'s characters are, for tokenize_buffers."""
    kinds[j] = PyUnicode_KIND(line)
    datas[j] = PyUnicode_DATA(line)
    lengths[j] = PyUnicode_GET_LENGTH(line)


cdef inline bint ends_in_period(object line) noexcept:
    """line.endswith(' .'): sacrebleu counts these lines to warn about tokenized text."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(line)
    cdef int pykind = PyUnicode_KIND(line)
    cdef const void* data = PyUnicode_DATA(line)
    return n >= 2 and read_cp(pykind, data, n - 1) == 0x2E and read_cp(pykind, data, n - 2) == 0x20
