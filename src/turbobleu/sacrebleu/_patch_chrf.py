"""The chrF part of ``turbobleu.patch("sacrebleu")`` (see ``_patch``): sacrebleu's own ``CHRF``
class stays in place and counts its statistics in turbobleu.

After the patch, ``sacrebleu.corpus_chrf`` and ``sentence_chrf`` (in ``sacrebleu`` and
``sacrebleu.compat``) are turbobleu's functions, which return ``turbobleu.CHRFScore`` objects
(sacrebleu's attributes, text and JSON). Every ``CHRF`` object, including ones created before
the patch, gets its per-segment statistics (``_extract_corpus_statistics``, which
``corpus_score``, ``sentence_score``, the bootstrap and the significance tests go through) from
turbobleu, and sacrebleu's code turns them into scores. References given to ``CHRF(references=)``
while patched are kept by turbobleu. sacrebleu's code stays in charge of subclasses that override
a step of the statistics, of options turbobleu rejects (``char_order=0, word_order=0``, a
negative beta), and of references sacrebleu cached before the patch.
"""

from __future__ import annotations

import importlib

from turbobleu import chrf as turbo_chrf
from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu._patch_common import patch_metric, scores_as_stock

if TYPE_CHECKING:
    from typing import Any, Callable, Optional, Tuple

# The methods that define chrF's statistics in sacrebleu; a subclass overriding one keeps
# sacrebleu's code.
_ENGINE = (
    "_preprocess_segment",
    "_remove_punctuation",
    "_get_match_statistics",
    "_compute_f_score",
    "_extract_reference_info",
    "_compute_segment_statistics",
    "_cache_references",
)
_FUNCTIONS = ("corpus_chrf", "sentence_chrf")
# The options the statistics depend on (the best reference is picked by the F-score).
_OPTIONS = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")


def _options(metric: Any) -> Tuple[Any, ...]:
    return tuple(getattr(metric, name) for name in _OPTIONS)


def _turbo(metric: Any, references: Any = None) -> Optional[turbo_chrf.CHRF]:
    """turbobleu's CHRF with the options of sacrebleu's ``metric``, or None for options it
    rejects (sacrebleu's code then runs)."""
    try:
        return turbo_chrf.CHRF(**dict(zip(_OPTIONS, _options(metric))), references=references)
    except (TypeError, ValueError):
        return None


def apply(set_attr: Callable[[Any, str, Any], None]) -> None:
    """Patch sacrebleu's chrF; ``set_attr`` records every replacement for ``unpatch``."""
    patch_metric(
        set_attr,
        turbo_chrf,
        _FUNCTIONS,
        ("sacrebleu.metrics.chrf", "CHRF"),
        _ENGINE,
        _turbo,
        _options,
        _OPTIONS,
        _statistics,
    )


def _statistics(metric: Any, turbo: turbo_chrf.CHRF, hypotheses: Any, references: Any) -> Any:
    """sacrebleu's ``_extract_corpus_statistics`` computed by turbobleu (no ``references``:
    the cached ones)."""
    if not references:
        turbo = metric._ref_cache.prepared
    rows = turbo.corpus_stats(list(hypotheses), references or None).tolist()
    metric.num_refs = turbo.num_refs
    return rows


def resampler(metric: Any) -> Optional[Any]:
    """turbobleu's scoring of resampled rows for sacrebleu's CHRF ``metric`` (its options: the
    n-gram orders ``char_order + word_order``, ``beta``, ``eps_smoothing``), for sacrebleu's
    significance tests; None (sacrebleu's code) for anything else."""
    if not scores_as_stock(metric, importlib.import_module("sacrebleu.metrics.chrf").CHRF):
        return None
    order, beta = metric.char_order + metric.word_order, metric.beta
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        return None
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta < 0:
        return None
    from turbobleu._engine.chrf.resampler import ChrFResampler

    return ChrFResampler(order, beta, metric.eps_smoothing)
