"""Pure-Python twin of ``_tokenize.pyx``: the readable rules of each tokenizer, and interning.

Same interface as the compiled module: ``tokenize(lines, kind, lowercase, vocab, frozen, what)``
returns ``(ids int32 array, offsets int64 array)``.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple

import numpy as np

TOK_NONE = 0
TOK_13A = 1

UNKNOWN = -1

# 13a's symbol rule: every ASCII punctuation mark or symbol except ' , - . gets spaces around it.
_13A_SYMBOL = re.compile(r"([{-~\[-` -&(-+:-@/])")
_13A_PAIR_RULES = (
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),  # . or , not preceded by a digit
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),  # . or , not followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),      # - preceded by a digit
)


def rewrite_13a(line: str) -> str:
    """mteval-v13a as sacrebleu runs it, on an rstripped line; the caller splits the result."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
            line = line.replace(entity, char)
    line = _13A_SYMBOL.sub(r" \1 ", f" {line} ")
    for pattern, replacement in _13A_PAIR_RULES:
        line = pattern.sub(replacement, line)
    return line


_REWRITERS: Dict[int, Callable[[str], str]] = {
    TOK_NONE: lambda line: line,
    TOK_13A: rewrite_13a,
}


def is_python_space(c: int) -> bool:
    return chr(c).isspace()


class Vocab(dict):
    """Token string -> dense id, for the lifetime of one scoring job."""

    def token(self, token_id: int) -> str:
        for tok, i in self.items():
            if i == token_id:
                return tok
        raise KeyError(token_id)


def split_tokens(line: str, kind: int, lowercase: bool) -> List[str]:
    if lowercase:
        line = line.lower()
    return _REWRITERS[kind](line.rstrip()).split()


def tokenize(lines: list, kind: int, lowercase: bool, vocab: Vocab, frozen: bool = False,
             what: str = "lines") -> Tuple[np.ndarray, np.ndarray]:
    ids: List[int] = []
    offsets = [0]
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
        for tok in split_tokens(line, kind, lowercase):
            tid = vocab.get(tok)
            if tid is None:
                tid = UNKNOWN if frozen else vocab.setdefault(tok, len(vocab))
            ids.append(tid)
        offsets.append(len(ids))
    return np.array(ids, dtype=np.int32), np.array(offsets, dtype=np.int64)


def tokenize_strings(lines: list, kind: int, lowercase: bool) -> List[List[str]]:
    """Test hook: the tokenizer's output as lists of token strings."""
    return [split_tokens(line, kind, lowercase) for line in lines]


def sentence_row(hypothesis: object, references: list, kind: int, lowercase: bool,
                 max_order: int) -> List[int]:
    """Statistics row of one hypothesis against its references (None entries are skipped)."""
    from ._kernel_py import segment_row

    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    vocab = Vocab()
    refs = []
    for k, ref in enumerate(references):
        if ref is None:
            continue
        if not isinstance(ref, str):
            raise TypeError(f"references[{k}] must be a str or None, got {type(ref).__name__}")
        refs.append([vocab.setdefault(t, len(vocab)) for t in split_tokens(ref, kind, lowercase)])
    hyp = [vocab.get(t, UNKNOWN) for t in split_tokens(hypothesis, kind, lowercase)]
    if not refs and hyp:
        raise ValueError("references: every reference is None, so there is nothing to score "
                         "the hypothesis against")
    return segment_row(hyp, refs, max_order)
