"""``sacrebleu.tokenizers.tokenizer_13a``: ``Tokenizer13a``, mteval-v13a's tokenization (BLEU's
default), run by turbobleu's ``13a`` tokenizer."""

from turbobleu.sacrebleu.tokenizers.tokenizer_base import Registered

__all__ = ["Tokenizer13a"]


class Tokenizer13a(Registered):
    """``Tokenizer13a()(line)``: the line with 13a's entities unescaped and punctuation split
    off, tokens joined by single spaces; ``signature()`` is ``"13a"``."""

    name = "13a"
