"""Tokenizer registry: sacrebleu's tokenizer names mapped to the fast exact implementations."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List

from . import _impl


@dataclass(frozen=True)
class Tokenizer:
    """A tokenizer known by its sacrebleu name.

    ``code`` selects the rules inside the compiled (or twin) tokenizer module; the text is never
    split into Python strings on the scoring path. Calling the object returns the tokenized line,
    like a sacrebleu tokenizer does.
    """

    name: str
    code: int

    def signature(self) -> str:
        return self.name

    def split(self, line: str, lowercase: bool = False) -> List[str]:
        """The tokens of one line, as sacrebleu's ``tokenizer(line).split()`` gives them."""
        return _impl.tokenize.tokenize_strings([line], self.code, lowercase)[0]

    def __call__(self, line: str) -> str:
        return " ".join(self.split(line))


_REGISTRY: Dict[str, Tokenizer] = {
    "none": Tokenizer("none", _impl.tokenize.TOK_NONE),
    "13a": Tokenizer("13a", _impl.tokenize.TOK_13A),
}

# sacrebleu tokenizers not provided yet; naming them gives a clear error instead of a KeyError.
_PLANNED = ("zh", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200",
            "spBLEU-1K")


def available_tokenizers() -> List[str]:
    return list(_REGISTRY)


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer registered under ``name`` (sacrebleu's names)."""
    if not isinstance(name, str):
        raise TypeError(f"tokenize must be a tokenizer name (str), got {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        if name in _PLANNED:
            raise ValueError(f"tokenize={name!r} is a sacrebleu tokenizer that turbobleu does not "
                             f"provide yet; available: {available_tokenizers()}") from None
        raise ValueError(f"unknown tokenize={name!r}; available: {available_tokenizers()}") from None
