"""``sacrebleu.significance``: paired significance tests (``PairedTest``), their ``Result`` and
``estimate_ci``, computed by ``turbobleu.significance`` with sacrebleu's numbers for the same
``SACREBLEU_SEED``.

``PairedTest`` and ``Result`` are turbobleu's own (``turbobleu.significance``): ``PairedTest``
takes the same arguments as sacrebleu's, with the drop-in's (or turbobleu's) metrics; the tests
are vectorised, so ``n_jobs`` starts no worker processes.
"""

from __future__ import annotations

import logging
import os

import numpy as np

from turbobleu._typing import TYPE_CHECKING
from turbobleu.significance import PairedTest, Result, numpy_mean_ci

if TYPE_CHECKING:
    from typing import Any, Sequence, Tuple

__all__ = ["IS_WINDOWS", "PairedTest", "Result", "estimate_ci", "sacrelogger"]

IS_WINDOWS = os.name == "nt"

# sacrebleu's logger (turbobleu's tests log to "turbobleu").
sacrelogger = logging.getLogger("sacrebleu")


def estimate_ci(scores: Sequence[float] | Any) -> Tuple[float, float]:
    """(mean, half-width of the 95% confidence interval) of bootstrap ``scores``: the mean of
    the sorted scores (in their NumPy dtype) and half the distance between the scores at
    positions ``n // 40`` and ``n - n // 40 - 1`` of the sorted list."""
    if len(scores) == 0:
        raise ValueError("scores is empty: a confidence interval needs at least one score")
    return numpy_mean_ci(np.asarray(scores))
