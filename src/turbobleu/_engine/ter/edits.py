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

from array import array

from turbobleu._engine import impl as _impl
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence

    Words = Callable[[str], List[str]]


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


def pack_references(
    streams: List[list], words: Words, whitespace_only: Optional[bool] = None
) -> PackedReferences:
    """The references of every segment (``streams[k][s]``; None: no reference k there).
    ``whitespace_only``: the words are the lowercased (True) or unchanged (False) text split on
    whitespace, for the compiled tokenizer; None: ask ``words``."""
    packed = PackedReferences()
    texts: List[str] = []
    groups = packed.groups
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
    packed.segments = len(groups) - 1
    if whitespace_only is None:
        vocabulary: Dict[str, int] = packed.vocabulary
        number = vocabulary.setdefault
        ids, offsets = packed.ids, packed.offsets
        for text in texts:
            ids.extend([number(word, len(vocabulary)) for word in words(text)])
            offsets.append(len(ids))
    else:
        tokenize = _impl.tokenize
        packed.vocabulary = tokenize.Vocab()
        packed.lowercase = whitespace_only
        packed.ids, packed.offsets = tokenize.tokenize(
            texts, tokenize.TOK_NONE, whitespace_only, packed.vocabulary, what="references"
        )
    return packed


class SegmentEdits:
    """Per segment: the fewest edits and the references' summed length and count."""

    __slots__ = ("edits", "lengths", "counts")

    def __init__(self, edits: List[int], lengths: List[int], counts: List[int]) -> None:
        self.edits = edits
        self.lengths = lengths
        self.counts = counts

    def average_lengths(self) -> List[float]:
        """sacrebleu's average reference length per segment (a float, as its division gives)."""
        return [n / k for n, k in zip(self.lengths, self.counts)]


def _hypothesis_ids(hyps: Sequence[str], refs: PackedReferences, words: Words) -> tuple:
    if refs.lowercase is not None:  # the compiled tokenizer, the references' vocabulary frozen
        tokenize = _impl.tokenize
        hyp_list = hyps if type(hyps) is list else list(hyps)
        return tokenize.tokenize(
            hyp_list, tokenize.TOK_NONE, refs.lowercase, refs.vocabulary, True, "hypotheses"
        )
    ids = array("i")
    offsets = array("q", [0])
    get = refs.vocabulary.get
    for i, text in enumerate(hyps):
        if not isinstance(text, str):
            raise _not_a_str(text, f"hypotheses[{i}]")
        ids.extend([get(word, -1) for word in words(text)])
        offsets.append(len(ids))
    return ids, offsets


def _chunks(segments: int, threads: int) -> List[tuple]:
    """[first, last) of runs of segments for ``threads`` threads: four runs a thread, so that
    one run of long segments does not leave the other threads idle."""
    step = -(-segments // (4 * threads))
    return [(a, min(a + step, segments)) for a in range(0, segments, step)]


# Hypotheses of fewer words than this are counted in the calling thread: a pool costs more than
# it saves.
PARALLEL_WORDS = 4096


def count_edits(
    hyps: Sequence[str], refs: PackedReferences, words: Words, threads: int = 1
) -> SegmentEdits:
    """The edits of every segment (``threads`` > 1: that many chunks counted in parallel)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be an integer >= 1, got {threads!r}")
    ids, offsets = _hypothesis_ids(hyps, refs, words)
    n = len(hyps)
    out = array("q", bytes(16 * n))
    kernel = _impl.ter_edits()
    if threads == 1 or n < 2 or len(ids) < PARALLEL_WORDS:
        kernel.corpus_rows(ids, offsets, refs.ids, refs.offsets, refs.groups, out)
    else:
        from concurrent.futures import ThreadPoolExecutor

        # the offsets stay absolute: a chunk is a window on the offsets, groups and output
        offsets_view, groups_view, out_view = (
            memoryview(offsets),
            memoryview(refs.groups),
            memoryview(out),
        )
        with ThreadPoolExecutor(threads) as pool:
            runs = [
                pool.submit(
                    kernel.corpus_rows,
                    ids,
                    offsets_view[a : b + 1],
                    refs.ids,
                    refs.offsets,
                    groups_view[a : b + 1],
                    out_view[2 * a : 2 * b],
                )
                for a, b in _chunks(n, threads)
            ]
            for run in runs:
                run.result()
    groups = refs.groups
    return SegmentEdits(
        list(out[0::2]),
        list(out[1::2]),
        [groups[s + 1] - groups[s] for s in range(n)],
    )
