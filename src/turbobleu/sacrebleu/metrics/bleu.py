"""``sacrebleu.metrics.bleu``: ``BLEU`` with the class constants and helpers of sacrebleu's."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional

from turbobleu import bleu as _bleu
from turbobleu._engine.recipes.sacrebleu import check_smoothing, sacrebleu_score
from turbobleu.result import BLEUScore, BLEUSignature

MAX_NGRAM_ORDER = _bleu.MAX_NGRAM_ORDER

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER"]


def __getattr__(name: str) -> Any:
    # sacrebleu's logger, made on first use: logging costs a light import 5 ms.
    if name == "sacrelogger":
        import logging

        return logging.getLogger("sacrebleu")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class BLEU(_bleu.BLEU):
    """``sacrebleu.metrics.BLEU``: turbobleu's BLEU plus the parts of sacrebleu's class that user
    code reads or calls (``compute_bleu``, ``_TOKENIZER_MAP``, ``_preprocess_segment``)."""

    # sacrebleu's choice of tokenizer for a target language when tokenize=None.
    _TOKENIZER_MAP: Dict[str, str] = dict(_bleu._TOKENIZER_FOR_LANG)

    @staticmethod
    def compute_bleu(
        correct: List[Any],
        total: List[Any],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: Optional[float] = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """sacrebleu's ``BLEU.compute_bleu``: the score of aggregated statistics.

        As in sacrebleu, add-k smoothing adds k to ``correct`` and ``total`` (orders >= 2) in
        place, and the returned score holds these same lists.
        """
        check_smoothing(smooth_method, smooth_value)
        return sacrebleu_score(
            correct,
            total,
            sys_len,
            ref_len,
            smooth_method,
            smooth_value,
            effective_order,
            max_ngram_order,
        )

    def _preprocess_segment(self, sent: str) -> str:
        """One segment lowercased (if asked) and tokenized, tokens joined by spaces."""
        return " ".join(self.tokenizer.split(sent, self.lowercase))
