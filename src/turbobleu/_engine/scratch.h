/* Memory kept between calls, per thread: the one helper every compiled module uses.
 *
 * A call that wants reusable memory (an n-gram table, a vocabulary's arrays, id buffers) takes
 * its thread's box from a numbered slot, which leaves the slot empty, and gives the box back when
 * done. A call made from inside another on the same thread (a token's __hash__, a gc callback, a
 * tokenizer that calls turbobleu) finds the slot empty and simply works in fresh memory: no flag
 * says "in use", there is no special path, and no lock, since no two threads share a slot.
 *
 *   tb_scratch_take(slot)                    the box, or NULL (then allocate a fresh one)
 *   tb_scratch_give(slot, box, bytes, free)  keep it for the next call; or, when the slot is full
 *                                            again, the box holds more than TB_SCRATCH_MAX_BYTES
 *                                            (trim: one long input must not pin its memory) or
 *                                            keeping it would take the boxes kept by all threads
 *                                            over TB_SCRATCH_PROCESS_BYTES (many threads must
 *                                            not pin 16 MiB each), free
 *   tb_scratch_peek(slot)                    the kept box, still kept (test hooks)
 *   tb_scratch_warm(block, bytes)            read a reused block in order before random accesses
 *   tb_load_acquire / tb_store_release       publish a table built once (see the end)
 *
 * Slots live in a per-thread array found through a pthread key (an FLS index on Windows), so that
 * a thread's boxes are freed when it exits: many short-lived threads leak nothing. The release
 * functions run at thread exit, without a Python thread state: boxes hold C memory only. Each
 * extension module that includes this header has its own key and its own slots.
 */
#ifndef TURBOBLEU_SCRATCH_H
#define TURBOBLEU_SCRATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#endif

#define TB_SCRATCH_SLOTS 4
#define TB_SCRATCH_MAX_BYTES ((int64_t)16 << 20)
#define TB_SCRATCH_PROCESS_BYTES ((int64_t)128 << 20)

typedef void (*tb_scratch_release)(void *box);

typedef struct {
    void *box[TB_SCRATCH_SLOTS];
    tb_scratch_release release[TB_SCRATCH_SLOTS];
    int64_t bytes[TB_SCRATCH_SLOTS];
} tb_scratch_slots;

/* Bytes in the boxes kept by all threads (of this module): kept below TB_SCRATCH_PROCESS_BYTES. */
static int64_t tb_scratch_kept_bytes = 0;

#if defined(_MSC_VER) && !defined(__clang__)
#define tb_scratch_count(delta) InterlockedExchangeAdd64(&tb_scratch_kept_bytes, (delta))
#else
#define tb_scratch_count(delta) __atomic_fetch_add(&tb_scratch_kept_bytes, (delta), __ATOMIC_RELAXED)
#endif

static void tb_scratch_free_slots(void *p) {
    tb_scratch_slots *s = (tb_scratch_slots *)p;
    int i;
    if (s == NULL)
        return;
    for (i = 0; i < TB_SCRATCH_SLOTS; i++)
        if (s->box[i] != NULL) {
            tb_scratch_count(-s->bytes[i]);
            s->release[i](s->box[i]);
        }
    free(s);
}

#ifdef _WIN32
static DWORD tb_scratch_key = FLS_OUT_OF_INDEXES;
static INIT_ONCE tb_scratch_once = INIT_ONCE_STATIC_INIT;

static void NTAPI tb_scratch_thread_exit(void *p) { tb_scratch_free_slots(p); }

static BOOL CALLBACK tb_scratch_make_key(PINIT_ONCE once, PVOID param, PVOID *context) {
    (void)once; (void)param; (void)context;
    tb_scratch_key = FlsAlloc(tb_scratch_thread_exit);
    return TRUE;
}

static tb_scratch_slots *tb_scratch_mine(int create) {
    tb_scratch_slots *s;
    InitOnceExecuteOnce(&tb_scratch_once, tb_scratch_make_key, NULL, NULL);
    if (tb_scratch_key == FLS_OUT_OF_INDEXES)
        return NULL;    /* no key: nothing is kept, every call allocates */
    s = (tb_scratch_slots *)FlsGetValue(tb_scratch_key);
    if (s == NULL && create) {
        s = (tb_scratch_slots *)calloc(1, sizeof(tb_scratch_slots));
        if (s != NULL && !FlsSetValue(tb_scratch_key, s)) {
            free(s);
            s = NULL;
        }
    }
    return s;
}
#else
static pthread_key_t tb_scratch_key;
static int tb_scratch_key_made = 0;
static pthread_once_t tb_scratch_once = PTHREAD_ONCE_INIT;

static void tb_scratch_make_key(void) {
    tb_scratch_key_made = pthread_key_create(&tb_scratch_key, tb_scratch_free_slots) == 0;
}

static tb_scratch_slots *tb_scratch_mine(int create) {
    tb_scratch_slots *s;
    pthread_once(&tb_scratch_once, tb_scratch_make_key);
    if (!tb_scratch_key_made)
        return NULL;    /* no key: nothing is kept, every call allocates */
    s = (tb_scratch_slots *)pthread_getspecific(tb_scratch_key);
    if (s == NULL && create) {
        s = (tb_scratch_slots *)calloc(1, sizeof(tb_scratch_slots));
        if (s != NULL && pthread_setspecific(tb_scratch_key, s) != 0) {
            free(s);
            s = NULL;
        }
    }
    return s;
}
#endif

/* A slot number is a module's constant; one out of range keeps nothing (never a stray write). */
#define tb_scratch_slot_ok(slot) ((unsigned)(slot) < TB_SCRATCH_SLOTS)

static inline void *tb_scratch_take(int slot) {
    tb_scratch_slots *s;
    void *box;
    if (!tb_scratch_slot_ok(slot) || (s = tb_scratch_mine(0)) == NULL)
        return NULL;
    box = s->box[slot];
    if (box != NULL) {
        s->box[slot] = NULL;
        tb_scratch_count(-s->bytes[slot]);
    }
    return box;
}

static inline void *tb_scratch_peek(int slot) {
    tb_scratch_slots *s;
    if (!tb_scratch_slot_ok(slot) || (s = tb_scratch_mine(0)) == NULL)
        return NULL;
    return s->box[slot];
}

/* Returns 1 when the box was kept, 0 when it was released. */
static inline int tb_scratch_give(int slot, void *box, int64_t bytes, tb_scratch_release release) {
    tb_scratch_slots *s;
    if (box == NULL)
        return 0;
    if (tb_scratch_slot_ok(slot) && bytes >= 0 && bytes <= TB_SCRATCH_MAX_BYTES) {
        s = tb_scratch_mine(1);
        if (s != NULL && s->box[slot] == NULL) {
            /* counted first, so that two threads cannot both pass the budget's test */
            if (tb_scratch_count(bytes) + bytes <= TB_SCRATCH_PROCESS_BYTES) {
                s->box[slot] = box;
                s->release[slot] = release;
                s->bytes[slot] = bytes;
                return 1;
            }
            tb_scratch_count(-bytes);
        }
    }
    release(box);
    return 0;
}

/* Read one byte of every cache line of a block, in order. Reused memory that a garbage collection
   or another library's call has pushed out of the caches streams back in through the hardware
   prefetcher, where the first random accesses would each wait for memory (measured: an NLTK
   corpus_bleu right after a gc.collect() of a heap holding every WMT23 system took 11-20% less
   time with it). */
static inline void tb_scratch_warm(const void *block, int64_t n_bytes) {
    const volatile unsigned char *c = (const volatile unsigned char *)block;
    int64_t i;
    unsigned char seen = 0;
    for (i = 0; i < n_bytes; i += 64)
        seen ^= c[i];
    (void)seen;
}

/* Ask for the cache lines of a block ahead of its use (at most the first `n_bytes`, 1 KiB at
   most): a corpus' lines are scattered str objects, each a cache miss when its turn comes. */
static inline void tb_prefetch(const void *block, int64_t n_bytes) {
#if defined(__GNUC__) || defined(__clang__)
    const char *c = (const char *)block;
    int64_t i;
    if (n_bytes > 1024)
        n_bytes = 1024;
    for (i = 0; i < n_bytes; i += 64)
        __builtin_prefetch(c + i);
#else
    (void)block;
    (void)n_bytes;
#endif
}

/* A pointer published once (a read-only table built on first use): stored last, with release
   order, after everything it points to; loaded with acquire order before any of it is read. */
#if defined(_MSC_VER) && !defined(__clang__)
static inline void *tb_load_acquire(void **p) {
    return InterlockedCompareExchangePointer((PVOID volatile *)p, NULL, NULL);
}
static inline void tb_store_release(void **p, void *value) {
    InterlockedExchangePointer((PVOID volatile *)p, value);
}
#else
static inline void *tb_load_acquire(void **p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void tb_store_release(void **p, void *value) {
    __atomic_store_n(p, value, __ATOMIC_RELEASE);
}
#endif

#endif /* TURBOBLEU_SCRATCH_H */
