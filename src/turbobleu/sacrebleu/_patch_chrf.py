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
from turbobleu.sacrebleu._patch_common import RefCache, init_taking_references, standard

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
    sacrebleu = importlib.import_module("sacrebleu")
    compat = importlib.import_module("sacrebleu.compat")
    chrf_module = importlib.import_module("sacrebleu.metrics.chrf")
    base_module = importlib.import_module("sacrebleu.metrics.base")
    for module in (sacrebleu, compat):
        for name in ("corpus_chrf", "sentence_chrf"):
            if hasattr(module, name):
                set_attr(module, name, getattr(turbo_chrf, name))
    cls = chrf_module.CHRF
    engine = {name: getattr(cls, name) for name in _ENGINE}
    original_init = cls.__init__
    original_extract = base_module.Metric._extract_corpus_statistics
    original_cache = base_module.Metric._cache_references

    def cache_references(self: Any, references: Any) -> None:
        turbo = _turbo(self, references) if standard(self, engine) else None
        if turbo is None:
            self._ref_cache = self._cache_references(references)
            return
        saved = _options(self)

        def build() -> Any:
            """sacrebleu's own cache, built with the options of construction time."""
            now = _options(self)
            for name, value in zip(_OPTIONS, saved):
                setattr(self, name, value)
            try:
                return original_cache(self, references)
            finally:
                for name, value in zip(_OPTIONS, now):
                    setattr(self, name, value)

        self._ref_cache = RefCache(turbo, saved, build)
        self.num_refs = turbo.num_refs

    def _extract_corpus_statistics(self: Any, hypotheses: Any, references: Any) -> Any:
        turbo = _turbo(self) if standard(self, engine) else None
        if turbo is None:
            return original_extract(self, hypotheses, references)
        if not references:
            cache = self._ref_cache
            if not isinstance(cache, RefCache) or cache.settings != _options(self):
                return original_extract(self, hypotheses, references)
            turbo = cache.prepared
        rows = turbo.corpus_stats(list(hypotheses), references or None).tolist()
        self.num_refs = turbo.num_refs
        return rows

    _extract_corpus_statistics.__doc__ = original_extract.__doc__
    set_attr(cls, "__init__", init_taking_references(original_init, cache_references))
    set_attr(cls, "_extract_corpus_statistics", _extract_corpus_statistics)
