"""How many threads a call uses, and its rows split into chunks on the process-wide pool
(``pools.executor``). Every row is computed from its own inputs only, so the chunking never
changes a result: it only decides which worker computes which rows.

Kept light (no NumPy): the batch, pairwise and MBR modules share it.
"""

from __future__ import annotations

import os
import time

from turbobleu._engine.pools import executor
from turbobleu._engine.validate import describe, integer_scalar
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional

# Work units (rows, or cells of a matrix) per chunk below which a thread is not worth its hand-off.
MIN_CHUNK_UNITS = 128


def default_threads() -> int:
    """``TURBOBLEU_NUM_THREADS`` if set, else every core this process may use."""
    env = os.environ.get("TURBOBLEU_NUM_THREADS", "").strip()
    if env:
        if not env.isdigit() or int(env) < 1:
            raise ValueError(f"TURBOBLEU_NUM_THREADS must be a positive integer, got {env!r}")
        return int(env)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def resolve_threads(threads: Optional[int]) -> int:
    """A public ``threads=`` argument as a thread count: None is ``default_threads()``, else a
    positive integer (a ValueError names the argument otherwise)."""
    if threads is None:
        return default_threads()
    count = integer_scalar(threads)
    if count is None or count < 1:
        shown = repr(threads) if isinstance(threads, (int, float, str)) else describe(threads)
        raise ValueError(f"threads must be a positive integer or None, got {shown}")
    return count


def chunk_bounds(
    start: int,
    end: int,
    threads: int,
    min_units: int = MIN_CHUNK_UNITS,
    units_per_row: int = 1,
) -> List[int]:
    """Bounds of the chunks that rows ``start..end`` are split into: at most 4 per thread (so a
    slow chunk does not hold the others up), none below ``min_units`` units of work, where a row
    is ``units_per_row`` units; one chunk for one thread."""
    n = end - start
    chunks = 1
    if threads > 1 and n > 1:
        chunks = min(4 * threads, n, max(1, n * units_per_row // max(1, min_units)))
    return [start + n * c // chunks for c in range(chunks + 1)]


def run_chunks(
    start: int,
    end: int,
    threads: int,
    work: Callable[[int, int], Any],
    min_units: int = MIN_CHUNK_UNITS,
    units_per_row: int = 1,
) -> List[Any]:
    """``work(lo, hi)`` over the chunks of rows ``start..end`` (``chunk_bounds``), on the pool
    when there are several; the results in chunk order."""
    bounds = chunk_bounds(start, end, threads, min_units, units_per_row)
    if len(bounds) == 2:
        return [work(start, end)]
    pool = executor(threads)
    futures = [pool.submit(work, lo, hi) for lo, hi in zip(bounds, bounds[1:])]
    return [f.result() for f in futures]


def run_pipelined(
    n: int,
    threads: int,
    prepare: Callable[[int, int], Any],
    work: Callable[[Any, int, int], Any],
    min_units: int = MIN_CHUNK_UNITS,
) -> List[Any]:
    """Like ``run_chunks`` over rows 0..n, with a GIL-bound ``prepare(lo, hi)`` per chunk done
    by the calling thread while the pool works on the chunks prepared before (Python lists are
    packed chunk by chunk); ``work(prepared, lo, hi)``."""
    bounds = chunk_bounds(0, n, threads, min_units)
    if len(bounds) == 2:
        return [work(prepare(0, n), 0, n)]
    pool = executor(threads)
    futures = []
    try:
        for lo, hi in zip(bounds, bounds[1:]):
            ctx = prepare(lo, hi)
            futures.append(pool.submit(work, ctx, lo, hi))
            # Hand the GIL over now: a worker back from its nogil kernel would otherwise wait
            # for the interpreter's switch interval (5 ms) while this thread packs on.
            time.sleep(0)
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    return [f.result() for f in futures]
