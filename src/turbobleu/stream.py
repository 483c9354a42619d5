"""Corpus BLEU of inputs too big for memory: lines read in chunks, statistics summed as they go.

``corpus_bleu_stream(hypotheses, references)`` (and ``BLEU.corpus_score_stream``) take iterables
of lines (a list, a generator, an open file) or paths of text files (read as the command line
reads them: split at ``\\n``, right-stripped, UTF-8), and score the corpus with memory bounded by
the chunk size, not the corpus size. The result equals ``corpus_bleu`` on the whole lists.
"""

from __future__ import annotations

from turbobleu._engine.streaming import CHUNK_SEGMENTS, corpus_score_stream
from turbobleu._typing import TYPE_CHECKING
from turbobleu.bleu import corpus_metric

if TYPE_CHECKING:
    from typing import Any, Iterable, Optional

    from turbobleu.result import BLEUScore

__all__ = ["CHUNK_SEGMENTS", "corpus_bleu_stream"]


def corpus_bleu_stream(
    hypotheses: Iterable[str],
    references: Iterable[Iterable[Optional[str]]],
    chunk_size: int = CHUNK_SEGMENTS,
    **options: Any,
) -> BLEUScore:
    """``corpus_bleu(hypotheses, references, **options)`` (the same options: smooth_method,
    smooth_value, force, lowercase, tokenize, use_effective_order; the same score) over
    iterables or files, ``chunk_size`` segments at a time, in bounded memory."""
    return corpus_score_stream(corpus_metric(**options), hypotheses, references, chunk_size)
