"""Input checking and packing: strings -> CSR id buffers -> statistics rows (the kernel's input)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional

from turbobleu._engine import choice as _choice
from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.stats import BLEUStats
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._engine.text.registry import Tokenizer
from turbobleu._engine.validate import check_sequence, check_text_streams


def segment_rows_buffer(segments: int, width: int) -> Any:
    """A zeroed (segments, width) int64 buffer for per-segment rows: a memoryview of an
    ``array`` for the compiled modules (no NumPy), a NumPy array for the pure-Python twins
    (which assign whole rows, as a memoryview cannot)."""
    if _choice.implementation == "python":
        import numpy as np

        return np.zeros((segments, width), dtype=np.int64)
    return (
        memoryview(array("q", bytes(8 * segments * width))).cast("B").cast("q", (segments, width))
    )


def check_hypotheses(hypotheses: Any, what: str = "hypotheses") -> list:
    """A list of the hypothesis strings, or a TypeError/ValueError that names the argument."""
    check_sequence(hypotheses, f"{what} must be a sequence of strings (one per segment)")
    hyps = hypotheses if type(hypotheses) is list else list(hypotheses)
    if not hyps:
        raise ValueError(f"{what} is empty")
    return hyps


def reference_streams(references: Any) -> list:
    """``references``, a sequence of reference streams, as a non-empty list (the streams
    themselves are not checked here)."""
    check_text_streams(references)
    streams = list(references)
    if not streams:
        raise ValueError("references is empty: give at least one reference stream")
    return streams


def text_reference_streams(references: Any, segments: Optional[int]) -> List[list]:
    """The reference streams as lists, checked: one entry (str or None) per segment each."""
    streams = reference_streams(references)
    for k, stream in enumerate(streams):
        check_sequence(
            stream,
            f"references[{k}] must be a sequence of strings (one reference stream, a string "
            "or None per segment)",
        )
        if type(stream) is not list:
            streams[k] = list(stream)
    lengths = [len(s) for s in streams]
    expected = lengths[0] if segments is None else segments
    for k, n in enumerate(lengths):
        if n != expected:
            raise ValueError(
                f"references[{k}] has {n} segments but "
                + ("hypotheses has" if segments is not None else "references[0] has")
                + f" {expected}; every reference stream needs one entry (a string or None) per "
                "segment (sacrebleu would silently truncate)"
            )
    if expected == 0:
        raise ValueError("references has no segments")
    return streams


def references_per_segment(streams: List[list]) -> int:
    """References per segment, or -1 when it varies (a None somewhere), as sacrebleu counts."""
    if not any(None in s for s in streams):
        return len(streams)
    per_segment = {sum(r is not None for r in seg) for seg in zip(*streams)}
    return per_segment.pop() if len(per_segment) == 1 else -1


def _check_stream(k: int, stream: Any) -> None:
    check_sequence(
        stream,
        f"references[{k}] must be a sequence of strings (one reference stream, a string or "
        "None per segment)",
        "; references is a list of streams, e.g. [['ref for segment 1', 'ref for segment 2']]",
    )


def _bad_item(streams: List[Sequence], what: str) -> Optional[str]:
    for k, stream in enumerate(streams):
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                return f"{what}[{k}][{i}] must be a str or None, got {type(ref).__name__}"
    return None


class PreparedReferences:
    """References tokenized once, for scoring any number of hypothesis sets against them.

    ``references`` is a list of streams (``references[k][i]`` is reference k of segment i), as in
    sacrebleu; ``None`` marks a missing reference, ``''`` is an empty one (of length 0).
    """

    def __init__(
        self,
        references: Any,
        tokenizer: Tokenizer,
        lowercase: bool,
        expected_segments: Optional[int] = None,
    ) -> None:
        streams = reference_streams(references)
        for k, stream in enumerate(streams):
            _check_stream(k, stream)
        lengths = [len(s) for s in streams]
        if expected_segments is not None:
            for k, n in enumerate(lengths):
                if n != expected_segments:
                    raise ValueError(
                        f"references[{k}] has {n} segments but hypotheses has "
                        f"{expected_segments}; every reference stream needs one entry (a string "
                        "or None) per hypothesis (sacrebleu would silently truncate)"
                    )
        elif len(set(lengths)) > 1:
            raise ValueError(
                f"reference streams have different lengths {lengths}; each needs "
                "one entry (a string or None) per segment"
            )
        self.segments = lengths[0]
        if self.segments == 0:
            raise ValueError("references has no segments")
        import numpy as np  # here, not at the top: the plain corpus path never comes here

        if len(streams) == 1 and None not in streams[0]:
            flat = list(streams[0])
            seg_ref_off = np.arange(self.segments + 1, dtype=np.int64)
            self.num_refs = 1
        else:
            flat = []
            offsets = [0]
            for segment in zip(*streams):
                flat.extend(r for r in segment if r is not None)
                offsets.append(len(flat))
            seg_ref_off = np.array(offsets, dtype=np.int64)
            per_segment = np.diff(seg_ref_off)
            fewest, most = int(per_segment.min()), int(per_segment.max())
            self.num_refs = fewest if fewest == most else -1  # -1: it varies (None somewhere)
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.vocab = _text_impl.tokenize.Vocab()
        try:
            lines, code, lower = tokenizer.prepare(flat, lowercase, "references")
            self.ids, self.offsets = _text_impl.tokenize.tokenize(
                lines, code, lower, self.vocab, False, "references"
            )
        except TypeError:
            bad = _bad_item(streams, "references")
            if bad is None:
                raise  # not a bad item (e.g. a str subclass whose lower() returns no str)
            raise TypeError(bad) from None
        self.seg_ref_off = seg_ref_off

    def stats(self, hypotheses: list, max_order: int) -> BLEUStats:
        """Statistics rows of ``hypotheses`` (already checked) against these references."""
        if len(hypotheses) != self.segments:
            raise ValueError(
                f"hypotheses has {len(hypotheses)} segments but the references have "
                f"{self.segments} (sacrebleu would silently truncate)"
            )
        if not isinstance(max_order, int) or isinstance(max_order, bool) or max_order < 1:
            raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order!r}")
        import numpy as np

        lines, code, lower = self.tokenizer.prepare(hypotheses, self.lowercase, "hypotheses")
        hyp_ids, hyp_off = _text_impl.tokenize.tokenize(
            lines, code, lower, self.vocab, True, "hypotheses"
        )
        rows = np.zeros((len(hypotheses), 2 + 2 * max_order), dtype=np.int64)
        # The ids are dense (the references' vocabulary; -1 for hypothesis tokens outside it).
        _count_impl.kernel.count_stats(
            hyp_ids,
            hyp_off,
            self.ids,
            self.offsets,
            self.seg_ref_off,
            max_order,
            rows,
            n_ids=max(len(self.vocab), 1),
        )
        orphans = np.flatnonzero((rows[:, 1] < 0) & (rows[:, 0] > 0))
        if len(orphans):
            raise ValueError(
                f"segment {int(orphans[0])} has a non-empty hypothesis but no "
                "reference (every reference stream is None there)"
            )
        return BLEUStats(rows, max_order)


def sentence_references(references: Any) -> list:
    """sentence_bleu's references (a sequence of strings or None) as a list; checks the argument."""
    if type(references) is not list:
        check_sequence(references, "references must be a sequence of reference strings")
        references = list(references)
    if not references:
        raise ValueError("references is empty: give at least one reference string")
    return references
