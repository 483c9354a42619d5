"""sacrebleu's tokenizer objects -> turbobleu's tokenizers, for ``patch("sacrebleu")``: a
metric's patch tokenizes in turbobleu when sacrebleu's tokenizer is one of its own classes."""

from __future__ import annotations

import weakref

from turbobleu._typing import TYPE_CHECKING
from turbobleu.tokenizers import LibraryTokenizer, SentencePieceTokenizer, Tokenizer, get_tokenizer

if TYPE_CHECKING:
    from typing import Any, Optional

# sacrebleu's tokenizer classes (module, class name) -> turbobleu's tokenizer name.
_TOKENIZER_CLASSES = {
    ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"): "none",
    ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"): "13a",
    ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"): "intl",
    ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"): "zh",
    ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"): "char",
    ("sacrebleu.tokenizers.tokenizer_ja_mecab", "TokenizerJaMecab"): "ja-mecab",
    ("sacrebleu.tokenizers.tokenizer_ko_mecab", "TokenizerKoMecab"): "ko-mecab",
}
_SPM_CLASSES = {"TokenizerSPM", "Flores101Tokenizer", "Flores200Tokenizer", "spBLEU1KTokenizer"}
_SPM_MODULE = "sacrebleu.tokenizers.tokenizer_spm"

# SentencePiece wrappers around a sacrebleu tokenizer's own loaded model, per tokenizer object.
_spm_wrappers: "weakref.WeakKeyDictionary[Any, Tokenizer]" = weakref.WeakKeyDictionary()


def turbo_tokenizer(sacre_tokenizer: Any) -> Optional[Tokenizer]:
    """turbobleu's tokenizer for a sacrebleu tokenizer object, or None (keep sacrebleu's)."""
    cls = type(sacre_tokenizer)
    name = _TOKENIZER_CLASSES.get((cls.__module__, cls.__name__))
    if name is not None:
        return get_tokenizer(name)
    if cls.__module__ == _SPM_MODULE and cls.__name__ in _SPM_CLASSES:
        wrapper = _spm_wrappers.get(sacre_tokenizer)
        if wrapper is None:
            wrapper = _LoadedSentencePiece(sacre_tokenizer.name, sacre_tokenizer.sp)
            _spm_wrappers[sacre_tokenizer] = wrapper
        return wrapper
    return None


class _LoadedSentencePiece(SentencePieceTokenizer):
    """turbobleu's SentencePiece tokenizer on the model a sacrebleu tokenizer already loaded."""

    def __init__(self, signature_name: str, processor: Any) -> None:
        LibraryTokenizer.__init__(self, signature_name)
        self.explicit_path = True
        self.model_path = "<sacrebleu's loaded model>"
        self._processor = processor
