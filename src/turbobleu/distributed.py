"""Corpus BLEU in multi-process training (``torch.distributed``; ``turbobleu[torch]``).

Each rank counts its own segments into integer statistics; ``compute()`` all-reduces them as int64
tensors (exact at any size; float32 sums are inexact past 2**24 n-grams) and applies the recipe
once, so N ranks give the single-process score of the concatenated data. Works with any backend
(gloo on CPU, NCCL on GPU: the tensors go to the current CUDA device there).

    metric = DistributedBLEU(tokenize="13a")
    metric.update(hypotheses, [references])      # on every rank, any number of times
    score = metric.compute()                     # the same BLEUScore on every rank

``all_reduce_stats(stats)`` sums a ``BLEUStats`` over the ranks (one corpus row);
``all_gather_stats(stats)`` gathers the per-segment rows in rank order (for the significance tests);
``all_gather_rows(rows)`` does the same for any metric's ``aggregate.Rows`` (then
``scorer.statistics(rows)`` is what ``turbobleu.significance`` takes).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from turbobleu._extras import missing_extra

try:
    import torch
    import torch.distributed as dist
except ImportError as exc:
    raise missing_extra("turbobleu.distributed", "torch", exc) from exc

from turbobleu.aggregate import Rows, Scorer, Totals
from turbobleu.stats import BLEUStats

__all__ = [
    "DistributedBLEU",
    "all_gather_rows",
    "all_gather_stats",
    "all_reduce_stats",
    "all_reduce_totals",
]

# Stands for "no segment" in the MIN/MAX reductions of reference counts.
_NO_REFS = -(2**62)


def _active() -> bool:
    return dist.is_available() and dist.is_initialized()


def _device(group: Any) -> torch.device:
    """Where the collective's tensors must live: the current CUDA device for NCCL, else CPU."""
    if dist.get_backend(group) == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def _all_reduce(values: List[int], op: Any, group: Any) -> List[int]:
    tensor = torch.tensor(values, dtype=torch.int64, device=_device(group))
    dist.all_reduce(tensor, op=op, group=group)
    return [int(x) for x in tensor.cpu().tolist()]


def all_reduce_totals(totals: Totals, group: Any = None) -> Totals:
    """``totals`` summed over every rank of ``group`` (int64 SUM for the statistics, segment and
    skip counts; MIN/MAX for the reference counts). Without an initialized process group, the
    totals themselves."""
    if not _active():
        return totals
    summed = _all_reduce(totals.sums + [totals.segments, totals.skipped], dist.ReduceOp.SUM, group)
    most, neg_fewest = _all_reduce(
        [
            _NO_REFS if totals.max_refs is None else totals.max_refs,
            _NO_REFS if totals.min_refs is None else -totals.min_refs,
        ],
        dist.ReduceOp.MAX,
        group,
    )
    none = most == _NO_REFS
    return Totals(
        summed[:-2],
        summed[-2],
        None if none else -neg_fewest,
        None if none else most,
        summed[-1],
    )


def all_reduce_stats(stats: BLEUStats, group: Any = None) -> BLEUStats:
    """The corpus row of every rank's segments: a one-row ``BLEUStats`` holding the int64 column
    sums over all ranks (score it with ``BLEU().score_stats``)."""
    if not isinstance(stats, BLEUStats):
        raise TypeError(f"stats must be a BLEUStats, got {type(stats).__name__}")
    row = stats.total()
    if _active():
        row = _all_reduce(row, dist.ReduceOp.SUM, group)
    return BLEUStats(np.array([row], dtype=np.int64), stats.max_order)


def _gathered(value: Any, group: Any, join: Callable[[List[Any]], Any]) -> Any:
    """Every rank's ``value`` (pickled), in rank order, joined by ``join``; ``value`` itself
    outside a process group."""
    if not _active():
        return value
    parts: List[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(parts, value, group=group)
    return join(parts)


def all_gather_stats(stats: BLEUStats, group: Any = None) -> BLEUStats:
    """Every rank's segment rows, concatenated in rank order (the same on every rank)."""
    if not isinstance(stats, BLEUStats):
        raise TypeError(f"stats must be a BLEUStats, got {type(stats).__name__}")
    return _gathered(stats, group, BLEUStats.merge)


def all_gather_rows(rows: Rows, group: Any = None) -> Rows:
    """Every rank's ``aggregate.Rows`` (any metric), joined in rank order (the same on every
    rank); ``Scorer.statistics`` of the result feeds the significance tests."""
    if not isinstance(rows, Rows):
        raise TypeError(f"rows must be a turbobleu.aggregate.Rows, got {type(rows).__name__}")
    return _gathered(rows, group, Rows.concat)


class DistributedBLEU:
    """A corpus BLEU metric for data spread over ranks: ``update`` counts, ``compute`` syncs and
    scores. Options are ``turbobleu.aggregate.Scorer``'s (sacrebleu's by default, or
    ``recipe="nltk"``), or pass a ``scorer``."""

    def __init__(self, scorer: Optional[Scorer] = None, *, group: Any = None, **options: Any):
        if scorer is not None and options:
            raise TypeError("give either a scorer or its options, not both")
        self.scorer = scorer if scorer is not None else Scorer(**options)
        self.group = group
        self.reset()

    def reset(self) -> None:
        """Forget this rank's segments."""
        self.totals = self.scorer.zero_totals()

    def update(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], per_row: bool = False
    ) -> None:
        """Add segments: ``references`` as sacrebleu takes them (one list per reference, each
        with an entry per hypothesis) or, with ``per_row=True``, one list of references per
        hypothesis."""
        self.totals = (
            self.totals + self.scorer.rows(hypotheses, references, per_row=per_row).totals()
        )

    def sync(self) -> Totals:
        """The totals of every rank (a collective: every rank must call it)."""
        return all_reduce_totals(self.totals, self.group)

    def compute(self) -> Any:
        """The corpus score of all ranks' segments (``CorpusBLEUScore`` or
        ``NLTKCorpusScore``; ``segments`` tells how many were summed). A collective."""
        return self.scorer.score(self.sync())

    def __repr__(self) -> str:
        return f"DistributedBLEU({self.scorer!r}, local segments={self.totals.segments})"
