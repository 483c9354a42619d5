"""Process-wide thread pools, kept for the life of the process: a worker's per-thread scratch
(``scratch.h``) stays allocated from one call to the next, and no call pays for starting
threads."""

from __future__ import annotations

import os
import threading

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor
    from typing import Dict

_pools: Dict[int, ThreadPoolExecutor] = {}
_pools_pid = os.getpid()
_pools_lock = threading.Lock()


def executor(threads: int) -> ThreadPoolExecutor:
    """The pool of exactly ``threads`` workers (one pool per thread count asked for), so a call
    never runs on more threads than it asked and concurrent callers never see a pool shut down
    under them. A forked child (whose copy of a pool has no threads) gets new pools."""
    global _pools, _pools_pid
    with _pools_lock:
        if _pools_pid != os.getpid():
            _pools, _pools_pid = {}, os.getpid()
        pool = _pools.get(threads)
        if pool is None:
            from concurrent.futures import ThreadPoolExecutor  # (only once threads are asked for)

            pool = _pools[threads] = ThreadPoolExecutor(
                max_workers=threads, thread_name_prefix="turbobleu"
            )
        return pool
