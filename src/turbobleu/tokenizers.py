"""Tokenizer registry: every sacrebleu tokenizer, by its sacrebleu name (defined in
``turbobleu._engine.text.registry``, which the engine's counting reads): the fast ones run in the
compiled tokenizer; the library ones (``ja-mecab``, ``ko-mecab``, ``spm``, ``flores*``) call
MeCab / SentencePiece as sacrebleu does."""

from turbobleu._engine.text.registry import (
    _MECAB,
    _SPM,
    SPM_MODELS,
    TOKENIZER_NAMES,
    LibraryTokenizer,
    MecabTokenizer,
    MissingExtraError,
    SentencePieceTokenizer,
    Tokenizer,
    available_tokenizers,
    fast_tokenizers,
    get_tokenizer,
    sacrebleu_model_path,
)

__all__ = [
    "SPM_MODELS",
    "TOKENIZER_NAMES",
    "LibraryTokenizer",
    "MecabTokenizer",
    "MissingExtraError",
    "SentencePieceTokenizer",
    "Tokenizer",
    "available_tokenizers",
    "fast_tokenizers",
    "get_tokenizer",
    "sacrebleu_model_path",
]
# The caches of library tokenizers, by name (tests replace entries).
_MECAB, _SPM = _MECAB, _SPM
