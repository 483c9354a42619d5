"""TER's path from texts to statistics: words -> ids -> edit counts per segment (the sums and
scores are ``recipe.py``'s).

Ids: the references' words are numbered (one vocabulary for the whole set, kept when references
are cached); a hypothesis word that no reference of the corpus has gets -1. That is exact
because TER only ever compares a hypothesis word with a reference word, never two hypothesis
words (the edit distance and the shift search both look for a hypothesis block in the
reference).

With TER's default options (lowercasing, or not, and whitespace) the words are what BLEU's
``none`` tokenizer makes of a line, so the compiled tokenizer splits and numbers them in one C
pass; the other options rewrite the text with regular expressions first (``tercom.py``), and
the words are numbered in Python.
"""

from __future__ import annotations

import threading
from array import array

from turbobleu._engine.pools import executor
from turbobleu._engine.ter import chosen as _ter_impl
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence

    Words = Callable[[str], List[str]]

_STR = {str}


class PackedReferences:
    """Reference words as ids: reference r is ``ids[offsets[r]:offsets[r + 1]]`` and segment s
    has references ``groups[s]..groups[s + 1]`` (its non-None entries, in stream order).
    ``lowercase`` is None where the words came from ``words`` (the Python path), else the
    compiled tokenizer's setting, with which hypotheses must be read too."""

    __slots__ = ("vocabulary", "ids", "offsets", "groups", "segments", "lowercase")

    def __init__(self) -> None:
        self.vocabulary: Any = {}
        self.ids: Any = array("i")
        self.offsets: Any = array("q", [0])
        self.groups = array("q", [0])
        self.segments = 0
        self.lowercase: Optional[bool] = None


def _not_a_str(text: Any, where: str) -> TypeError:
    return TypeError(f"{where} must be a str, got {type(text).__name__}")


def _grouped_texts(streams: List[list], groups: Any) -> List[str]:
    """The references' texts in segment order; ``groups`` gets each segment's end in them."""
    texts: List[str] = []
    for s, segment in enumerate(zip(*streams)):
        for k, text in enumerate(segment):
            if text is None:
                continue
            if not isinstance(text, str):
                raise _not_a_str(text, f"references[{k}][{s}]")
            texts.append(text)
        if len(texts) == groups[-1]:
            # sacrebleu divides by the number of references: a ZeroDivisionError there
            raise ValueError(
                f"segment {s} has no reference (every stream holds None there); TER needs at "
                "least one per segment"
            )
        groups.append(len(texts))
    return texts


def pack_references(
    streams: List[list], words: Words, whitespace_only: Optional[bool] = None
) -> PackedReferences:
    """The references of every segment (``streams[k][s]``; None: no reference k there).
    ``whitespace_only``: the words are the lowercased (True) or unchanged (False) text split on
    whitespace, for the compiled tokenizer; None: ask ``words``."""
    packed = PackedReferences()
    texts = _grouped_texts(streams, packed.groups)
    packed.segments = len(packed.groups) - 1
    if whitespace_only is None:
        vocabulary: Dict[str, int] = packed.vocabulary
        number = vocabulary.setdefault
        ids, offsets = packed.ids, packed.offsets
        for text in texts:
            ids.extend([number(word, len(vocabulary)) for word in words(text)])
            offsets.append(len(ids))
    else:
        tokenize = _text_impl.tokenize
        packed.vocabulary = tokenize.Vocab()
        packed.lowercase = whitespace_only
        packed.ids, packed.offsets = tokenize.tokenize(
            texts, tokenize.TOK_NONE, whitespace_only, packed.vocabulary, what="references"
        )
    return packed


class SegmentEdits:
    """Per segment: the fewest edits, and sacrebleu's average reference length (a float, as
    its division gives)."""

    __slots__ = ("edits", "average_lengths")

    def __init__(self, edits: List[int], average_lengths: List[float]) -> None:
        self.edits = edits
        self.average_lengths = average_lengths


def _hypothesis_ids(hyps: Sequence[str], refs: PackedReferences, words: Words) -> tuple:
    """Ids and offsets of the hypotheses (each a str: ``_check_hypotheses``), against the
    references' vocabulary."""
    if refs.lowercase is not None:  # the compiled tokenizer, the references' vocabulary frozen
        tokenize = _text_impl.tokenize
        hyp_list = hyps if type(hyps) is list else list(hyps)
        return tokenize.tokenize(
            hyp_list, tokenize.TOK_NONE, refs.lowercase, refs.vocabulary, True, "hypotheses"
        )
    ids = array("i")
    offsets = array("q", [0])
    get = refs.vocabulary.get
    for text in hyps:
        ids.extend([get(word, -1) for word in words(text)])
        offsets.append(len(ids))
    return ids, offsets


def _check_hypotheses(hyps: Sequence[str]) -> None:
    """A TypeError naming the first hypothesis that is not a str (checked before the work is
    split: a chunk would name its own index)."""
    if not set(map(type, hyps)) <= _STR:
        for i, text in enumerate(hyps):
            if not isinstance(text, str):
                raise _not_a_str(text, f"hypotheses[{i}]")


def _check_threads(threads: Any) -> None:
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be an integer >= 1, got {threads!r}")


def _chunks(segments: int, threads: int) -> List[tuple]:
    """[first, last) of runs of segments for ``threads`` threads: eight runs a thread, so that
    one run of long segments does not leave the other threads idle."""
    step = -(-segments // (8 * threads))
    return [(a, min(a + step, segments)) for a in range(0, segments, step)]


# Corpora of fewer characters than this (about 4,000 words) are done in the calling thread: a
# pool costs more than it saves.
PARALLEL_CHARACTERS = 24_000


def _in_parallel(
    chunk: Callable[[int, int], SegmentEdits],
    lengths: List[int],
    threads: int,
    characters: int,
) -> SegmentEdits:
    """``chunk(0, segments)``, or with ``threads`` > 1 the runs of ``_chunks`` done by the
    calling thread and ``threads - 1`` workers of a kept pool (the tokenizer and the edit
    counting release the GIL), each taking the next run left, joined in segment order.
    ``lengths``: each hypothesis' characters. The runs are handed out longest hypothesis
    first: the shift search makes one long segment cost as much as hundreds of short ones
    (6 of 20 ms in a WMT23 en-he system), and begun last it would leave one thread alone."""
    segments = len(lengths)
    if threads == 1 or segments < 2 or characters < PARALLEL_CHARACTERS:
        return chunk(0, segments)
    runs = _chunks(segments, threads)
    parts: List[Any] = [None] * len(runs)
    left = iter(sorted(range(len(runs)), key=lambda r: -max(lengths[slice(*runs[r])])))
    lock = threading.Lock()
    failed: List[bool] = []

    def work() -> None:
        while not failed:
            with lock:
                r = next(left, None)
            if r is None:
                return
            try:
                parts[r] = chunk(*runs[r])
            except BaseException:
                failed.append(True)  # (the others stop taking runs)
                raise

    pool = executor(threads - 1)
    helpers = [pool.submit(work) for _ in range(threads - 1)]
    try:
        work()
    finally:
        for helper in helpers:
            helper.exception()  # waits: no worker still reads the inputs when this returns
    for helper in helpers:
        helper.result()  # a worker's error, raised here
    return SegmentEdits(
        [e for part in parts for e in part.edits],
        [n for part in parts for n in part.average_lengths],
    )


def _counted(hyps: Sequence[str], refs: PackedReferences, words: Words, first: int) -> SegmentEdits:
    """The edits of ``hyps``, the segments ``first``, ``first + 1``, ... of ``refs``."""
    ids, offsets = _hypothesis_ids(hyps, refs, words)
    n = len(hyps)
    out = array("q", bytes(16 * n))
    groups = memoryview(refs.groups)[first : first + n + 1]  # absolute offsets into refs.ids
    _ter_impl.ter_edits().corpus_rows(ids, offsets, refs.ids, refs.offsets, groups, out)
    lengths = out[1::2]
    return SegmentEdits(
        list(out[0::2]), [lengths[s] / (groups[s + 1] - groups[s]) for s in range(n)]
    )


def count_edits(
    hyps: Sequence[str], refs: PackedReferences, words: Words, threads: int = 1
) -> SegmentEdits:
    """The edits of every segment against packed references (``threads`` > 1: chunks of
    segments, each tokenized and counted in its worker)."""
    _check_threads(threads)
    _check_hypotheses(hyps)
    hyp_list = hyps if type(hyps) is list else list(hyps)
    if threads == 1:
        return _counted(hyp_list, refs, words, 0)
    lengths = list(map(len, hyp_list))
    return _in_parallel(
        lambda a, b: _counted(hyp_list[a:b], refs, words, a), lengths, threads, sum(lengths)
    )


def count_edits_with_references(
    hyps: Sequence[str],
    streams: List[list],
    reference_words: Words,
    words: Words,
    whitespace_only: Optional[bool],
    threads: int = 1,
) -> SegmentEdits:
    """``count_edits(hyps, pack_references(streams, ...), ...)``. With ``threads`` > 1, where
    every reference is a str, each chunk of segments packs its own references (a vocabulary of
    its own gives the same edits: TER compares a hypothesis only with its own segment's
    references) and counts its edits in its worker, so the tokenizing runs in parallel too."""
    _check_threads(threads)
    if threads == 1 or any(not set(map(type, stream)) <= _STR for stream in streams):
        # (a None reference, or a bad one: pack_references names it by its own index)
        return count_edits(
            hyps, pack_references(streams, reference_words, whitespace_only), words, threads
        )
    _check_hypotheses(hyps)
    hyp_list = hyps if type(hyps) is list else list(hyps)

    def chunk(a: int, b: int) -> SegmentEdits:
        packed = pack_references([s[a:b] for s in streams], reference_words, whitespace_only)
        return _counted(hyp_list[a:b], packed, words, 0)

    lengths = list(map(len, hyp_list))
    characters = sum(lengths)
    if characters < PARALLEL_CHARACTERS:  # (else the references' length does not matter)
        characters += sum(sum(map(len, s)) for s in streams)
    return _in_parallel(chunk, lengths, threads, characters)
