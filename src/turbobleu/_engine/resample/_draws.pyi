"""Type stubs for ``_draws.pyx`` (``_draws_py.py`` is its pure-Python twin).

tests/typing checks these against the compiled module (mypy.stubtest): a function added to the
.pyx needs its line here.
"""

from typing import Any, List

def resample_sums(state: int, increment: int, systems: List[Any], n_samples: int, out: Any) -> None:
    """Column sums of ``n_samples`` bootstrap resamples of every system's rows, side by side."""
