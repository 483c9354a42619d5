"""The TER part of ``turbobleu.patch("sacrebleu")`` (see ``_patch``): sacrebleu's own ``TER``
class stays in place and gets its statistics from turbobleu.

After the patch, ``sacrebleu.corpus_ter`` and ``sentence_ter`` (in ``sacrebleu`` and
``sacrebleu.compat``) are turbobleu's functions, which return ``turbobleu.TERScore`` objects
(sacrebleu's attributes, text and JSON). Every ``TER`` object, including ones created before the
patch, gets its per-segment statistics (``_extract_corpus_statistics``: ``corpus_score``,
``sentence_score``, the bootstrap and the significance tests) from turbobleu, and sacrebleu's
code turns them into scores. sacrebleu's code stays in charge of subclasses that override a step
of the statistics and of references sacrebleu cached before the patch.
"""

from __future__ import annotations

import importlib

from turbobleu import ter as turbo_ter
from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu._patch_common import patch_metric, scores_as_stock

if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional, Tuple

# The methods that define TER's statistics in sacrebleu; a subclass overriding one keeps
# sacrebleu's code.
_ENGINE = (
    "_preprocess_segment",
    "_extract_reference_info",
    "_compute_segment_statistics",
    "_cache_references",
)
_FUNCTIONS = ("corpus_ter", "sentence_ter")
# The options the statistics depend on.
_OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def _options(metric: Any) -> Tuple[Any, ...]:
    return tuple(getattr(metric, name) for name in _OPTIONS)


def _turbo(metric: Any, references: Any = None) -> turbo_ter.TER:
    """turbobleu's TER with the options of sacrebleu's ``metric``."""
    normalized, no_punct, asian_support, case_sensitive = _options(metric)
    return turbo_ter.TER(normalized, no_punct, asian_support, case_sensitive, references)


def apply(set_attr: Callable[[Any, str, Any], None]) -> None:
    """Patch sacrebleu's TER; ``set_attr`` records every replacement for ``unpatch``."""
    patch_metric(
        set_attr,
        turbo_ter,
        _FUNCTIONS,
        ("sacrebleu.metrics.ter", "TER"),
        _ENGINE,
        _turbo,
        _options,
        _OPTIONS,
        _statistics,
    )


def _statistics(metric: Any, turbo: turbo_ter.TER, hypotheses: Any, references: Any) -> List[Any]:
    """sacrebleu's ``_extract_corpus_statistics`` computed by turbobleu (no ``references``:
    the cached ones)."""
    if not references:
        turbo = metric._ref_cache.prepared
    rows = turbo._extract_corpus_statistics(list(hypotheses), references or None)
    metric.num_refs = turbo.num_refs
    return rows


def resampler(metric: Any) -> Optional[Any]:
    """turbobleu's scoring of resampled rows for sacrebleu's TER ``metric`` (by its references
    per segment, known once it has scored), for sacrebleu's significance tests; None
    (sacrebleu's code) for anything else, and for reference counts whose average lengths
    turbobleu cannot sum exactly."""
    if not scores_as_stock(metric, importlib.import_module("sacrebleu.metrics.ter").TER):
        return None
    refs = getattr(metric, "num_refs", None)
    if isinstance(refs, bool) or not isinstance(refs, int):
        return None
    from turbobleu._engine.ter.recipe import TERResampler

    try:
        return TERResampler(refs)
    except ValueError:
        return None
