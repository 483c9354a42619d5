"""Rewards from the registry's other metrics (chrF, TER): sacrebleu's sentence score of each row.

``BLEUReward(metric="chrf")`` or ``metric="ter"`` hands its calls to a ``MetricReward``. A row's
reward is the mirrored call, bit for bit: ``sacrebleu.sentence_chrf(hyp, refs).score`` (or
``sentence_ter``), divided by 100 on the 0-1 scale. An error rate (TER; the registry says which
metrics are better when lower) is negated, so that a higher reward is always better: a perfect
hypothesis gets 0, one that needs as many edits as the reference has words gets -1 (-100 on the
0-100 scale), and a long wrong one less than that (TER has no upper bound).
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple

import numpy as np

__all__ = ["MetricReward"]

# sacrebleu's scores are in 0-100.
_NATIVE_SCALE = 100


class MetricReward:
    """Sentence scores of the registry metric ``name``, made with its constructor ``options``,
    as rewards on ``scale`` (1 or 100). Text only: token-id references need BLEU."""

    # No statistics columns in a RewardBatch (BLEU's rows are BLEU's own).
    width = 0

    def __init__(
        self,
        name: str,
        scale: int,
        metric_options: Optional[Mapping[str, Any]] = None,
        **options: Any,
    ) -> None:
        from turbobleu.metric_registry import get_metric, make_with_only

        self.metric = make_with_only(name, metric_options, options)
        self.name = name
        self.sign = 1 if get_metric(name).higher_is_better else -1
        self.divide = _NATIVE_SCALE // scale
        self.scale = scale

    def score(
        self, hypotheses: Sequence[Any], groups: List[Any], group: np.ndarray, kind: str, what: str
    ) -> Tuple[np.ndarray, np.ndarray]:
        """The rewards of ``hypotheses`` (the rows that have references), row ``i`` against the
        text references ``groups[group[i]]`` (a tuple of strings), and no statistics columns."""
        if kind != "text":
            raise TypeError(
                f"{what}: metric={self.name!r} scores text; token-id references need a metric "
                "that takes them (bleu)"
            )
        hyps = list(hypotheses)
        width = max(len(g) for g in groups)
        # sacrebleu's streams: row i's k-th reference, None where the row has fewer.
        streams: List[List[Optional[str]]] = [
            [refs[k] if k < len(refs) else None for refs in (groups[g] for g in group.tolist())]
            for k in range(width)
        ]
        scores = np.asarray(self.metric.sentence_scores(hyps, streams), dtype=np.float64)
        if self.divide != 1:
            scores = scores / self.divide
        rewards = scores if self.sign == 1 else 0.0 - scores  # (0.0 - 0.0 is 0.0, not -0.0)
        return rewards, np.zeros((len(hyps), 0), dtype=np.int64)

    def fields(self) -> str:
        return f"{self!r}, scale={self.scale}"

    def __repr__(self) -> str:
        return f"MetricReward({self.name!r}, {self.metric!r})"
