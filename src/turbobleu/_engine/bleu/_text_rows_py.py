"""Pure-Python twin of ``_text_rows.pyx``: BLEU's fused paths from text to statistics rows, as
the three steps they fuse. Each line is split by its tokenizer's readable rules
(``text/_tokenize_py.split_tokens``), its tokens counted against the references' by the
kernel's specification (``count/_kernel_py.segment_row``) and, for ``sentence_score_parts``, the
row scored by sacrebleu's recipe (``recipes/_sacrebleu_scores_py``).
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional, Tuple

    from turbobleu._engine.buffer_types import I64

from turbobleu._engine.count._kernel_py import segment_row
from turbobleu._engine.intern._intern_py import gleu_stats as _gleu_of_tokens
from turbobleu._engine.recipes._sacrebleu_scores_py import sacrebleu_score_parts
from turbobleu._engine.text._tokenize_py import (
    UNKNOWN,
    Vocab,
    check_kind,
    count_tokenized_periods,
    split_tokens,
)

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = ["corpus_row", "gleu_stats", "sentence_row", "sentence_score_parts"]


def _plain_corpus(hypotheses: Any, references: Any) -> Optional[Tuple[list, List[list]]]:
    """Copies of a corpus in the plain shape corpus_row handles (a non-empty list of str, and a
    non-empty list of lists of str, each as long), else None. Copies, because a str subclass'
    lower() may change the caller's lists while the corpus is read."""
    if type(hypotheses) is not list or type(references) is not list:
        return None
    hyps, streams = list(hypotheses), list(references)
    if not hyps or not streams:
        return None
    if any(type(stream) is not list or len(stream) != len(hyps) for stream in streams):
        return None
    streams = [list(stream) for stream in streams]
    if not all(isinstance(line, str) for line in hyps) or not all(
        isinstance(line, str) for stream in streams for line in stream
    ):
        return None
    return hyps, streams


def corpus_row(
    hypotheses: Any,
    references: Any,
    kind: int,
    lowercase: bool,
    max_order: int,
    rows: Optional[I64] = None,
    hash_mask: int = 2**64 - 1,
) -> Optional[Tuple[List[int], int]]:
    """``(summed statistics row, lines ending in ' .')`` of a plain-shaped corpus, else None
    (the caller's general path handles other shapes and bad input); the per-segment rows go to
    ``rows`` when it is given. ``hash_mask`` is the compiled kernel's collision hook; n-grams
    here are compared as tuples, so it is ignored."""
    check_kind(kind)
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    corpus = _plain_corpus(hypotheses, references)
    if corpus is None:
        return None
    hyps, streams = corpus
    width = 2 + 2 * max_order
    if rows is not None and rows.shape != (len(hyps), width):
        raise ValueError(f"corpus_row: rows must have shape ({len(hyps)}, {width})")
    total = [0] * width
    for i, hyp in enumerate(hyps):
        refs = [split_tokens(stream[i], kind, lowercase) for stream in streams]
        row = segment_row(split_tokens(hyp, kind, lowercase), refs, max_order)
        if rows is not None:
            rows[i] = row
        total = [a + b for a, b in zip(total, row)]
    return total, count_tokenized_periods(hyps)


def gleu_stats(
    hypotheses: Any,
    references: Any,
    kind: int,
    lowercase: bool,
    min_len: int,
    max_len: int,
    hash_mask: int = 2**64 - 1,
) -> Optional[Tuple[int, int]]:
    """NLTK's corpus GLEU of tokenized text as its summed ``(tp, n_all)``: ``references[i]`` is
    hypothesis i's list of reference strings; the lines are split by the tokenizer's rules and
    the token lists scored by the GLEU recipe's twin (``intern/_intern_py.gleu_stats``). None
    for input not in the plain shape (a non-empty list of str, and a list as long of lists of
    str); ``hash_mask`` is ignored, as in corpus_row."""
    check_kind(kind)
    if min_len < 1 or max_len < 1:
        raise ValueError(f"gleu_stats: orders must be >= 1, got {min_len}..{max_len}")
    if type(hypotheses) is not list or type(references) is not list:
        return None
    if not hypotheses or len(references) != len(hypotheses):
        return None
    if any(type(refs) is not list for refs in references):
        return None
    lines = [*hypotheses, *(line for refs in references for line in refs)]
    if not all(isinstance(line, str) for line in lines):
        return None
    return _gleu_of_tokens(
        [[split_tokens(line, kind, lowercase) for line in refs] for refs in references],
        [split_tokens(line, kind, lowercase) for line in hypotheses],
        min_len,
        max_len,
    )


def sentence_row(
    hypothesis: str,
    references: List[Optional[str]],
    kind: int,
    lowercase: bool,
    max_order: int,
) -> List[int]:
    """Statistics row of one hypothesis (a str) against its references (str or None each; None
    is skipped, as sacrebleu does)."""
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    check_kind(kind)
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
        raise ValueError(
            "references: every reference is None, so there is nothing to score "
            "the hypothesis against"
        )
    return segment_row(hyp, refs, max_order)


def sentence_score_parts(
    hypothesis: str,
    references: List[Optional[str]],
    kind: int,
    lowercase: bool,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    neumaier: bool,
) -> Tuple[float, List[int], List[int], List[float], float, int, int]:
    """``BLEUScore``'s arguments (score, counts, totals, precisions, bp, sys_len, ref_len) for one
    hypothesis: ``sentence_row`` and ``sacrebleu_score_parts`` in one call. Not for add-k."""
    if smooth_method == "add-k":
        raise ValueError("sentence_score_parts: add-k takes the Python recipe")
    row = sentence_row(hypothesis, references, kind, lowercase, max_order)
    score, precisions, bp = sacrebleu_score_parts(
        row, max_order, smooth_method, smooth_value, effective_order, neumaier
    )
    return (score, row[2 : 2 + max_order], row[2 + max_order :], precisions, bp, row[0], row[1])
