# Declarations of scratch.h (memory kept between calls, per thread; read it for the rules).
from libc.stdint cimport int64_t

cdef extern from "scratch.h":
    ctypedef void (*tb_scratch_release)(void* box) noexcept nogil
    int64_t TB_SCRATCH_MAX_BYTES
    void* tb_scratch_take(int slot) noexcept nogil
    void* tb_scratch_peek(int slot) noexcept nogil
    int tb_scratch_give(int slot, void* box, int64_t bytes,
                        tb_scratch_release release) noexcept nogil
    void warm_memory "tb_scratch_warm"(const void* block, int64_t n_bytes) noexcept nogil
    void prefetch "tb_prefetch"(const void* block, int64_t n_bytes) noexcept nogil
    void* tb_load_acquire(void** p) noexcept nogil
    void tb_store_release(void** p, void* value) noexcept nogil
