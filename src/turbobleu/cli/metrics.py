"""The registry's metrics on the ``turbobleu`` command line (sacrebleu's ``-m chrf``, ``-m ter``
and their ``--chrf-*`` / ``--ter-*`` options), and what several metrics share there: per-metric
results and the single-system listing.

Without a significance test a metric's rows come as lists (``segment_rows``), so that ``-m chrf``
or ``-m ter`` loads no NumPy either (the pure-Python twins still do).
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING
from turbobleu.metric_registry import MetricEntry, metric_names

if TYPE_CHECKING:
    import argparse
    from typing import Any, List, Optional


class Scored:
    """One metric's results: the metric (options, signature), every system's score and, for
    the significance tests, every system's per-segment statistics."""

    __slots__ = ("metric", "scores", "stats")

    def __init__(self, metric: Any, scores: List[Any], stats: Optional[List[Any]]) -> None:
        self.metric = metric
        self.scores = scores
        self.stats = stats


# sacrebleu's -m choices that turbobleu computes.
METRICS = tuple(metric_names())


def registry_scored(
    entry: MetricEntry,
    args: argparse.Namespace,
    systems: List[List[str]],
    refs: List[List[str]],
    arrays: bool,
) -> Scored:
    """A registry metric's score of every system (its options from the command line);
    ``arrays``: keep the per-segment rows (NumPy) for the significance tests."""
    metric = entry.from_cli(args, refs)
    if arrays:
        stats = [metric.corpus_stats(hyps) for hyps in systems]
        totals = [metric.sum_rows(s.tolist()) for s in stats]
        return Scored(metric, [metric.score_row(t) for t in totals], stats)
    totals = [metric.sum_rows(metric.segment_rows(hyps)) for hyps in systems]
    return Scored(metric, [metric.score_row(t) for t in totals], None)


def registry_sentences(
    entry: MetricEntry, args: argparse.Namespace, hyps: List[str], refs: List[List[str]]
) -> List[str]:
    """``--sentence-level`` lines of a registry metric: every segment's score with the
    signature."""
    metric = entry.from_cli(args, refs)
    rows = metric.segment_rows(hyps)
    signature = metric.get_signature().format(args.short)
    return [metric.score_row(r).format(args.width, args.score_only, signature) for r in rows]


def single_system_listing(results: List[str], is_json: bool) -> str:
    """One system's results of several metrics as sacrebleu lists them: a JSON list, or lines
    aligned on their ``=`` (score-only lines have none and are left as they are)."""
    if len(results) == 1:
        return results[0]
    if is_json:
        return "[\n" + ",\n".join(results) + "\n]"
    if any("=" not in line for line in results):
        return "\n".join(results)
    width = max(line.index("=") - 1 for line in results)
    return "\n".join(
        f"{line[: line.index('=') - 1]:>{width}}{line[line.index('=') - 1 :]}" for line in results
    )
