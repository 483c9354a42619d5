"""``sacrebleu.metrics.chrf``: ``CHRF`` with the helpers of sacrebleu's class that user code
calls."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List

from turbobleu import chrf as _chrf
from turbobleu._engine.chrf.recipe import PUNCTUATION, chrf_words, f_score
from turbobleu.chrf import CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]


class CHRF(_chrf.CHRF):
    """``sacrebleu.metrics.CHRF``: turbobleu's chrF plus sacrebleu's ``_compute_f_score`` and
    ``_remove_punctuation``."""

    _PUNCTS = set(PUNCTUATION)

    def _compute_f_score(self, statistics: List[Any]) -> float:
        """The chrF score of a statistics row (sacrebleu's method of the same name)."""
        return f_score(statistics, self.order, self.beta, self.eps_smoothing)

    def _remove_punctuation(self, sent: str) -> List[str]:
        """chrF++'s words of a sentence (sacrebleu's method of the same name)."""
        return chrf_words(sent)
