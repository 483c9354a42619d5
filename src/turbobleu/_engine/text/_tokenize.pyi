"""Type stubs for the compiled tokenizers ``_tokenize.pyx`` (``_tokenize_py.py`` is the twin).

tests/typing checks these against the compiled module (mypy.stubtest): a function added to
_tokenize.pyx needs its line here.
"""

from typing import final

import numpy as np
import numpy.typing as npt

# Tokenizer codes (tokenizers.py maps sacrebleu's names to them).
TOK_NONE: int
TOK_13A: int
TOK_INTL: int
TOK_ZH: int
TOK_CHAR: int

def is_python_space(c: int) -> bool:
    """Whether code point ``c`` is whitespace for ``str.split()`` (a test hook)."""

def intl_class_of(c: int) -> int:
    """The intl tokenizer's class of code point ``c``: 1 N, 2 P, 4 S, 0 none (a test hook)."""

def intl_char_of(c: int) -> int:
    """The intl splitter's lookup for code point ``c``: its class, plus 8 for whitespace."""

def is_zh_char_of(c: int) -> bool:
    """Whether the zh tokenizer puts spaces around code point ``c`` (a test hook)."""

@final
class Vocab:
    """Interns token strings as dense ids 0, 1, 2, ... (not safe to grow from two threads)."""

    def __init__(self) -> None: ...
    def __len__(self) -> int: ...
    def token(self, token_id: int) -> str:
        """The string of an id; KeyError when unknown."""

def tokenize(
    lines: list[str],
    kind: int,
    lowercase: bool,
    vocab: Vocab,
    frozen: bool = False,
    what: str = "lines",
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Token ids of every line and the CSR offsets (``len(lines) + 1`` of them)."""

def count_tokenized_periods(lines: list[str]) -> int:
    """How many lines end with ' .' (sacrebleu's check for text left tokenized)."""

def newline_in_tail(lines: list[str]) -> list[int]:
    """Indices of the lines whose trailing whitespace holds a newline (evaluate's 13a differs)."""

def tokenize_strings(lines: list[str], kind: int, lowercase: bool) -> list[list[str]]:
    """The tokens of every line as strings (a test hook)."""
