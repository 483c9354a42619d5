"""``sacrebleu.tokenizers.tokenizer_base``: ``BaseTokenizer``, what every tokenizer class
derives from: ``tokenizer(line)`` is the tokenized line, ``tokenizer.signature()`` its name in
metric signatures."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from turbobleu.tokenizers import Tokenizer

__all__ = ["BaseTokenizer"]


class BaseTokenizer:
    """A tokenizer's interface: subclasses implement ``__call__`` and ``signature``."""

    def signature(self) -> str:
        """The tokenizer's name in metric signatures."""
        raise NotImplementedError(f"{type(self).__name__} does not implement signature()")

    def __call__(self, line: str) -> str:
        """``line`` tokenized: its tokens joined by spaces."""
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__()")


class Registered(BaseTokenizer):
    """A sacrebleu tokenizer class run by turbobleu's tokenizer of the same name
    (``turbobleu.get_tokenizer(name)``)."""

    name = ""  # the tokenizer's sacrebleu name; each subclass sets it

    def __init__(self) -> None:
        from turbobleu.tokenizers import get_tokenizer

        self._tokenizer: Tokenizer = get_tokenizer(self.name)

    def signature(self) -> str:
        return self._tokenizer.signature()

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)
