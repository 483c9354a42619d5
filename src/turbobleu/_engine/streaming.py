"""Corpus statistics of inputs too big for memory: lines read in chunks, rows summed as they go.

A corpus score depends only on the sum of the segment statistics rows, so summing chunk by
chunk gives ``corpus_score``'s result with memory bounded by the chunk size. ``metric`` is a
``turbobleu.BLEU`` (not imported here: ``bleu`` imports this module).
"""

from __future__ import annotations

import itertools
import os

from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count.references import PreparedReferences, check_hypotheses
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._engine.text.registry import Tokenizer
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Iterator, List, Optional, Tuple

    from turbobleu._engine.results import BLEUScore

# Segments per chunk: large enough that the per-call overhead vanishes, small enough that a
# chunk of long lines stays a few MB.
CHUNK_SEGMENTS = 20000


def chunk_row(metric: Any, hyps: List[str], refs: List[List[Any]]) -> Tuple[list, int]:
    """(statistics row summed over the segments, lines ending in a tokenized period) of one
    chunk: hypotheses and their reference streams, all of the same length."""
    if type(metric.tokenizer) is Tokenizer:  # compiled: tokenized and counted in one call
        found = _bleu_impl.text_rows().corpus_row(
            hyps, refs, metric.tokenizer.code, metric.lowercase, metric.max_ngram_order, None
        )
        if found is not None:
            return found[0], found[1]
    # A library tokenizer or a None reference: the general path.
    prepared = PreparedReferences(refs, metric.tokenizer, metric.lowercase, len(hyps))
    stats = prepared.stats(check_hypotheses(hyps), metric.max_ngram_order)
    return stats.total(), _text_impl.tokenize.count_tokenized_periods(hyps)


def add_rows(total: Optional[list], row: list) -> list:
    return list(row) if total is None else [a + b for a, b in zip(total, row)]


def _lines_of(source: Any, what: str) -> Iterator[str]:
    """The lines of a path (read as the command line reads files: split at ``\\n`` only,
    right-stripped, UTF-8) or the items of an iterable of strings."""
    if isinstance(source, (str, os.PathLike)):
        return _file_lines(os.fspath(source))
    if isinstance(source, bytes) or not hasattr(source, "__iter__"):
        raise TypeError(
            f"{what} must be an iterable of strings or the path of a text file, got "
            f"{type(source).__name__}"
        )
    return iter(source)


def _file_lines(path: str) -> Iterator[str]:
    return itertools.chain.from_iterable(_line_blocks(path))


def _line_blocks(path: str) -> Iterator[List[str]]:
    """Lines split at ``\\n`` only and right-stripped, about 1 MB at a time."""
    with open(path, encoding="utf-8", newline="\n") as handle:
        while True:
            block = handle.readlines(1 << 20)
            if not block:
                return
            yield [line.rstrip() for line in block]


def aligned_chunks(
    hypotheses: Any, references: Any, size: int
) -> Iterator[Tuple[List[str], List[List[Any]]]]:
    """(hypotheses, reference streams) chunks of ``size`` segments read in lock-step; a stream
    that ends before the others is a ValueError naming it and the line count."""
    if isinstance(references, (str, bytes, os.PathLike)) or not hasattr(references, "__iter__"):
        raise TypeError(
            "references must be a list of reference streams (iterables of strings or paths), "
            f"got {type(references).__name__}"
        )
    streams = [_lines_of(hypotheses, "hypotheses")]
    streams += [_lines_of(r, f"references[{k}]") for k, r in enumerate(references)]
    if len(streams) == 1:
        raise ValueError("references is empty: give at least one reference stream")
    names = ["hypotheses"] + [f"references[{k}]" for k in range(len(streams) - 1)]
    done = 0
    while True:
        parts = [list(itertools.islice(s, size)) for s in streams]
        lengths = {len(p) for p in parts}
        if len(lengths) > 1:
            short = min(range(len(parts)), key=lambda i: len(parts[i]))
            long = max(range(len(parts)), key=lambda i: len(parts[i]))
            raise ValueError(
                f"{names[short]} has {done + len(parts[short])} lines but {names[long]} has "
                f"more: every stream needs one line per segment"
            )
        if not parts[0]:
            return
        yield parts[0], parts[1:]
        done += len(parts[0])


def check_items(hyps: List[Any], refs: List[List[Any]], first: int) -> None:
    """TypeError naming the first line that is not a str (references may hold None)."""
    for name, part in [("hypotheses", hyps)] + [
        (f"references[{k}]", r) for k, r in enumerate(refs)
    ]:
        for i, line in enumerate(part):
            if not isinstance(line, str) and not (line is None and name != "hypotheses"):
                raise TypeError(f"{name}[{first + i}] must be a str, got {type(line).__name__}")


def corpus_score_stream(
    metric: Any, hypotheses: Any, references: Any, chunk_size: int = CHUNK_SEGMENTS
) -> BLEUScore:
    """``metric.corpus_score(hypotheses, references)`` chunk by chunk (see the module)."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    total: Optional[list] = None
    periods = 0
    num_refs = 0
    done = 0
    for hyps, refs in aligned_chunks(hypotheses, references, chunk_size):
        try:
            row, found = chunk_row(metric, hyps, refs)
        except TypeError:
            check_items(hyps, refs, done)  # names the line (the engine counts in the chunk)
            raise
        done += len(hyps)
        total = add_rows(total, row)
        periods += found
        num_refs = len(refs)
    if total is None:
        raise ValueError("hypotheses is empty")
    metric.num_refs = num_refs
    if not metric._force and periods >= 100:
        metric._warn_tokenized()
    return metric.score_row(total)
