"""``sacrebleu.metrics.ter``: ``TER`` with the helpers of sacrebleu's class that user code
calls."""

from __future__ import annotations

from turbobleu import ter as _ter
from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from turbobleu.ter import TERScore, TERSignature

if TYPE_CHECKING:
    from typing import Any

__all__ = ["TER", "TERScore", "TERSignature"]


class TER(_ter.TER):
    """``sacrebleu.metrics.TER``: turbobleu's TER with sacrebleu's ``tokenizer`` (a
    ``TercomTokenizer``), ``tokenizer_signature`` and ``_preprocess_segment``."""

    tokenizer: TercomTokenizer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tokenizer = TercomTokenizer(
            self.normalized, self.no_punct, self.asian_support, self.case_sensitive
        )
        self.tokenizer_signature = "tercom"

    def _preprocess_segment(self, sent: str) -> str:
        """The text as TER sees it (sacrebleu's method of the same name)."""
        return self.tokenizer(sent.rstrip())
