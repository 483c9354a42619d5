"""sacrebleu's informational lines on the command line (its ``sacreBLEU: ...`` INFO lines on
stderr), same text and same order, as ``turbobleu: ...`` lines through ``_log.info`` (which
-q/--quiet silences, as it silences sacrebleu's):

- ``Ignoring 'FILE' as it was also given as the baseline.`` (read where the inputs are read);
- ``Found N systems.``: several systems, after the metrics are made (so after the hint that
  BLEU's tokenizer does not suit the target language) and before any statistics (so before
  the tokenized-period warnings);
- the paired tests' account (``paired_account``): for each metric ``Pre-computing NAME
  statistics for 'BASELINE'`` (then the baseline's tokenized-period warning), ``Launching N
  parallel workers.`` where sacrebleu would start several, then for each other system and
  metric ``Computing SCORE for 'SYSTEM' and extracting sufficient statistics`` (then its
  tokenized-period warning) and `` > Performing ... test (# ...: N)``.

turbobleu computes in another order (metric by metric, all systems at once), and the paired
tests' statistics without warnings; the account is given once they are done, with BLEU's
tokenized-period warnings at sacrebleu's places (they depend on the hypotheses only).
"""

from __future__ import annotations

import os

from turbobleu import _log
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any, List, Sequence, Tuple


def found_systems(n_systems: int) -> None:
    """``Found N systems.``, for more than one (sacrebleu's multi-system mode)."""
    if n_systems > 1:
        _log.info(f"Found {n_systems} systems.")


def parallel_workers(requested: int, n_systems: int) -> int:
    """The worker processes sacrebleu's paired test would start for ``-j requested``: 0 means
    half the CPUs (at least 1), at most one per compared system."""
    if requested != 0:
        return requested
    half = (os.cpu_count() or 1) // 2
    return 1 if half == 0 else min(half, n_systems - 1)


def paired_account(
    args: argparse.Namespace,
    names: Sequence[str],
    systems: Sequence[List[str]],
    metrics: Sequence[Tuple[str, str, Any]],
    n_samples: int,
) -> None:
    """The paired test's lines, as sacrebleu's ``PairedTest`` logs them: ``metrics`` holds each
    metric's (``-m`` name, score name, metric) in ``-m``'s order, the metric giving its warnings
    about the hypotheses (``notice_hypotheses``); ``names`` are the systems' names, the
    baseline's first; ``n_samples`` the resamples (or trials) run."""
    warn = not args.force
    for option, _, metric in metrics:
        _log.info(f"Pre-computing {option.upper()} statistics for {names[0]!r}")
        if warn:
            metric.notice_hypotheses(systems[0])
    workers = parallel_workers(args.paired_jobs, len(systems))
    if workers > 1:
        _log.info(f"Launching {workers} parallel workers.")
    if args.paired_bs:
        performing = f" > Performing paired bootstrap resampling test (# resamples: {n_samples})"
    else:
        performing = f" > Performing approximate randomization test (# trials: {n_samples})"
    for name, hyps in zip(names[1:], systems[1:]):
        for _, score_name, metric in metrics:
            _log.info(f"Computing {score_name} for {name!r} and extracting sufficient statistics")
            if warn:
                metric.notice_hypotheses(hyps)
            _log.info(performing)
