"""``sacrebleu.tokenizers.tokenizer_zh``: ``TokenizerZh``, Chinese characters as tokens and 13a's
rules for the rest, run by turbobleu's ``zh`` tokenizer."""

from turbobleu.sacrebleu.tokenizers.tokenizer_base import Registered

__all__ = ["TokenizerZh"]


class TokenizerZh(Registered):
    """``TokenizerZh()(line)``: the stripped line with every Chinese character a token and 13a's
    punctuation rules applied; ``signature()`` is ``"zh"``."""

    name = "zh"
