"""Pure-Python twin of ``_draws.pyx``: bootstrap resample sums from ``pcg64``'s generator."""

from __future__ import annotations

from turbobleu._engine.resample.pcg64 import PCG64
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["resample_sums"]


def resample_sums(
    state: int,
    increment: int,
    systems: List[Any],
    n_samples: int,
    out: Any,
    limit: int = 0x80000000,
) -> bool:
    """``out[b]`` = the column sums of resample b, for b < n_samples, of every system's rows side
    by side: resample b is row b of ``rng.choice(n, size=(n_samples, n), replace=True)`` for the
    PCG64 generator ``(state, increment)``; one index draw serves every system. Returns True; or
    False, drawing nothing, where a sum could reach ``limit`` (n * max |value| >= limit), at
    most 2**31 (the compiled module adds in int32)."""
    if not 0 < limit <= 0x80000000:
        raise ValueError(f"resample_sums: limit must be in 1..2**31, got {limit}")
    if not systems:
        raise ValueError("resample_sums: systems is empty")
    # (a NumPy array or a memoryview: tolist() gives the rows either way)
    rows = [system.tolist() if hasattr(system, "tolist") else list(system) for system in systems]
    n, width = len(rows[0]), len(rows[0][0]) if rows[0] else 0
    if n < 1 or n > 0xFFFFFFFF:
        raise ValueError(f"resample_sums: the number of segments must be in 1..2**32-1, got {n}")
    shape = memoryview(out).shape or ()
    if len(shape) != 2 or shape[0] < n_samples or shape[1] != len(rows) * width:
        raise ValueError("resample_sums: out must have n_samples rows of every system's columns")
    if any(len(r) != n or any(len(row) != width for row in r) for r in rows):
        raise ValueError("resample_sums: every system needs the same (n, width) shape")
    largest = max((abs(v) for system in rows for row in system for v in row), default=0)
    if largest > (limit - 1) // n:
        return False
    generator = PCG64(state, increment)
    for b in range(n_samples):
        total = [0] * (len(rows) * width)
        for _ in range(n):
            index = generator.below(n)
            for s, system in enumerate(rows):
                for k, value in enumerate(system[index]):
                    total[s * width + k] += value
        for k, value in enumerate(total):
            out[b, k] = value
    return True
