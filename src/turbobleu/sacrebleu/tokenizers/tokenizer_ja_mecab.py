"""``sacrebleu.tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab``, Japanese words by MeCab
with the IPA dictionary, run by turbobleu's ``ja-mecab`` tokenizer (``pip install
'turbobleu[ja]'``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu.tokenizers.tokenizer_base import Registered

if TYPE_CHECKING:
    from typing import Any

__all__ = ["FAIL_MESSAGE", "TokenizerJaMecab"]

FAIL_MESSAGE = """
Japanese tokenization needs MeCab and its IPA dictionary, which are not installed.
Install them with:

    pip install 'turbobleu[ja]'
"""


class TokenizerJaMecab(Registered):
    """``TokenizerJaMecab()(line)``: the stripped line as MeCab's words, joined by spaces;
    ``signature()`` is ``"ja-mecab-<MeCab version>-IPA"``. Making one without the extra raises
    ``turbobleu.tokenizers.MissingExtraError`` (a RuntimeError, as sacrebleu raises, and an
    ImportError)."""

    name = "ja-mecab"

    @property
    def tagger(self) -> Any:
        """The MeCab tagger (sacrebleu's attribute of the same name)."""
        return getattr(self._tokenizer, "_tagger")  # noqa: B009 (not in the base type)
