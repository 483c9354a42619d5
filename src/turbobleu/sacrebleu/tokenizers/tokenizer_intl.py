"""``sacrebleu.tokenizers.tokenizer_intl``: ``TokenizerV14International``, mteval-v14's
international tokenization, run by turbobleu's ``intl`` tokenizer."""

from turbobleu.sacrebleu.tokenizers.tokenizer_base import Registered

__all__ = ["TokenizerV14International"]


class TokenizerV14International(Registered):
    """``TokenizerV14International()(line)``: Unicode punctuation split off unless between
    digits, symbols split off; ``signature()`` is ``"intl"``."""

    name = "intl"
