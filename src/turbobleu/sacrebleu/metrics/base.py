"""``sacrebleu.metrics.base``: ``Metric`` (the base of BLEU, chrF and TER), ``Signature`` (the
base of their signatures) and ``Score`` (the base of their scores).

``Metric`` and ``Signature`` are turbobleu's metric interface (``turbobleu._metric``): every
turbobleu metric and signature, including the drop-in's, is an instance of them. ``Metric``
carries sacrebleu's private protocol (``_extract_corpus_statistics``,
``_aggregate_and_compute``, ``_compute_score_from_stats``) built on turbobleu's row interface,
so sacrebleu's own significance code runs on turbobleu's metrics. A user metric written against
sacrebleu's template (``_extract_reference_info``, ``_compute_segment_statistics``) is not run
by this base: subclass sacrebleu's own for that.
"""

from __future__ import annotations

import logging

from turbobleu._metric import Metric, Signature
from turbobleu.result import Score

__all__ = ["Metric", "Score", "Signature", "sacrelogger"]

# sacrebleu's logger (turbobleu's metrics log to "turbobleu").
sacrelogger = logging.getLogger("sacrebleu")
