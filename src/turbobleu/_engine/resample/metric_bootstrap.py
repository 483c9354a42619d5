"""sacrebleu's ``_bootstrap_resample`` for a metric's ``corpus_score(n_bootstrap=...)``: the same
seed, the same resample indices and the same float32 sums, each scored by the metric (chrF and
TER score them in Python, as sacrebleu does; BLEU has its own faster path in ``significance``)."""

from __future__ import annotations

from turbobleu._engine.resample.settings import resolve_seed
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Tuple

    import numpy as np


def bootstrap_resample(
    rows: np.ndarray, n_samples: int, score_row: Callable[[Any], Any]
) -> Tuple[str, List[Any]]:
    """(the seed as the signature shows it, the score of every resample)."""
    import numpy as np

    seed = resolve_seed()
    rng = np.random.default_rng(seed.value)
    idxs = rng.choice(len(rows), size=(n_samples, len(rows)), replace=True)
    stats = np.asarray(rows).astype(np.float32)
    return seed.text, [score_row(stats[i].sum(0)) for i in idxs]
