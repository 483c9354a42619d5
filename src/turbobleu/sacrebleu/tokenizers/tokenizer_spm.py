"""``sacrebleu.tokenizers.tokenizer_spm``: the SentencePiece tokenizers (``TokenizerSPM``,
``Flores101Tokenizer``, ``Flores200Tokenizer``, ``spBLEU1KTokenizer``), run by turbobleu's
tokenizers of the same names (``pip install 'turbobleu[spm]'``).

Unlike sacrebleu, they never download: the model is read from sacrebleu's cache
(``$SACREBLEU/models``), and a missing model raises FileNotFoundError saying where to put it.
"""

from __future__ import annotations

import logging

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from turbobleu.tokenizers import SPM_MODELS as _MODELS

if TYPE_CHECKING:
    from typing import Any, Dict

__all__ = [
    "SPM_MODELS",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "TokenizerSPM",
    "sacrelogger",
    "spBLEU1KTokenizer",
]

# sacrebleu's logger (turbobleu's tokenizers log to "turbobleu").
sacrelogger = logging.getLogger("sacrebleu")

# sacrebleu's table of models: where each is downloaded from and its signature.
SPM_MODELS: Dict[str, Dict[str, str]] = {
    key: {"url": url, "signature": signature} for key, (_, signature, url) in _MODELS.items()
}


class TokenizerSPM(BaseTokenizer):
    """``TokenizerSPM(key)(line)``: SentencePiece's pieces of ``line`` joined by spaces, with the
    model of ``key`` ("spm", "flores101", "flores200" or "spBLEU-1K"); ``name`` and
    ``signature()`` are the model's signature name."""

    def __init__(self, key: str = "spm") -> None:
        from turbobleu.tokenizers import get_tokenizer

        if key not in SPM_MODELS:
            raise ValueError(f"key must be one of {list(SPM_MODELS)}, got {key!r}")
        self.name = SPM_MODELS[key]["signature"]
        self._tokenizer = get_tokenizer(key)

    @property
    def sp(self) -> Any:
        """The ``sentencepiece.SentencePieceProcessor`` (sacrebleu's attribute)."""
        return getattr(self._tokenizer, "_processor")  # noqa: B009 (not in the base type)

    def signature(self) -> str:
        return self.name

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)


class Flores200Tokenizer(TokenizerSPM):
    """The FLORES-200 SentencePiece model's tokenizer."""

    def __init__(self) -> None:
        super().__init__("flores200")


class Flores101Tokenizer(TokenizerSPM):
    """The FLORES-101 SentencePiece model's tokenizer."""

    def __init__(self) -> None:
        super().__init__("flores101")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacrebleu's name)
    """The spBLEU-1K SentencePiece model's tokenizer."""

    def __init__(self) -> None:
        super().__init__("spBLEU-1K")
