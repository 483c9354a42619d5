"""Corpus BLEU of inputs too big for memory: lines read in chunks, statistics summed as they go.

``corpus_bleu_stream(hypotheses, references)`` (and ``BLEU.corpus_score_stream``) take iterables
of lines (a list, a generator, an open file) or paths of text files (read as the command line
reads them: split at ``\\n``, right-stripped, UTF-8), and score the corpus with memory bounded by
the chunk size, not the corpus size. The result equals ``corpus_bleu`` on the whole lists.
"""

from __future__ import annotations

from turbobleu._engine.streaming import CHUNK_SEGMENTS, corpus_score_stream
from turbobleu._typing import TYPE_CHECKING
from turbobleu.bleu import BLEU

if TYPE_CHECKING:
    from typing import Iterable, Optional

    from turbobleu.result import BLEUScore

__all__ = ["CHUNK_SEGMENTS", "corpus_bleu_stream"]


def corpus_bleu_stream(
    hypotheses: Iterable[str],
    references: Iterable[Iterable[Optional[str]]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
    chunk_size: int = CHUNK_SEGMENTS,
) -> BLEUScore:
    """``corpus_bleu`` (same options, same score) over iterables or files, in bounded memory."""
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return corpus_score_stream(metric, hypotheses, references, chunk_size)
