"""``sacrebleu.tokenizers``: every sacrebleu tokenizer module at its path
(``tokenizers.tokenizer_13a.Tokenizer13a``, ...), run by turbobleu's tokenizers, and their base
class ``BaseTokenizer``."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

if TYPE_CHECKING:
    from typing import Any

__all__ = ["BaseTokenizer"]

# The tokenizer modules, as attributes on first use (a module imports its library only then).
_MODULES = (
    "tokenizer_13a",
    "tokenizer_char",
    "tokenizer_intl",
    "tokenizer_ja_mecab",
    "tokenizer_ko_mecab",
    "tokenizer_none",
    "tokenizer_re",
    "tokenizer_spm",
    "tokenizer_ter",
    "tokenizer_zh",
)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'turbobleu.sacrebleu.tokenizers' has no attribute {name!r}")
