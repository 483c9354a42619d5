"""``sacrebleu.tokenizers.tokenizer_ter``: ``TercomTokenizer``, TER's tokenizer."""

from __future__ import annotations

from turbobleu._engine.ter.tercom import TercomWords

__all__ = ["TercomTokenizer"]


class TercomTokenizer(TercomWords):
    """sacrebleu's ``TercomTokenizer``: ``tokenizer(text)`` is the text with TER's options
    applied and its words joined by single spaces (TER strips the text's end before calling
    it); ``signature()`` is ``"tercom"``."""

    __slots__ = ()

    def __call__(self, sent: str) -> str:
        return " ".join(self.rewrite(sent).split()) if sent else ""

    def signature(self) -> str:
        return "tercom"
