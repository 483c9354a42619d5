"""``sacrebleu.tokenizers.tokenizer_none``: ``NoneTokenizer``, no tokenization."""

from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

__all__ = ["NoneTokenizer"]


class NoneTokenizer(BaseTokenizer):
    """``NoneTokenizer()(line)`` is ``line`` unchanged (BLEU then splits it on whitespace);
    ``signature()`` is ``"none"``."""

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        return line
