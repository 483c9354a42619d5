"""The metric interface: the ``Metric`` base class that BLEU, chrF and TER implement, and the
``Signature`` base of their signatures (``turbobleu.sacrebleu.metrics.base`` exposes both).

Code outside a metric's own modules (the command line, significance tests, ``aggregate``, the
reward adapters, the drop-ins) reads this interface and the registry (``metric_registry``),
never a metric's identity. What a metric gives:

- ``name`` (its registry name, ``-m``'s), ``higher_is_better``, ``score_type`` (its score
  class) and ``get_signature()``;
- references: given to the constructor (``references=``) they are prepared once and cached
  here, in the base; ``_prepare_references`` is the metric's own preparation;
- statistics: ``corpus_stats(hyps, refs)`` (one row per segment, for the significance tests),
  ``segment_rows(hyps)`` (the same as lists, against the cached references), ``sum_rows`` (the
  rows summed as the mirrored library sums them) and ``score_row`` (the score of a summed row);
- scores: ``corpus_score``, ``sentence_score``, ``sentence_scores``;
- ``resampler()``: how the significance tests score resampled rows (an object with ``width``,
  ``rows(stats)``, ``corpus_score(rows)`` and ``scores(sums, arithmetic)``);
- rows that add up in any order, for Spark, Ray and ``torch.distributed``:
  ``additive_columns``, ``additive_rows``, ``score_additive``, ``sentence_scores_additive``,
  and ``stats_of_additive`` (such rows in ``corpus_stats``'s form, for the significance tests).

sacrebleu's private protocol (``_extract_corpus_statistics``, ``_aggregate_and_compute``,
``_compute_score_from_stats``), which sacrebleu's significance code calls, is provided here from
the interface above, so a turbobleu metric can be handed to sacrebleu's own ``PairedTest``. A
user metric written against sacrebleu's template (``_extract_reference_info``,
``_compute_segment_statistics``) is not run by this base: subclass sacrebleu's for that.

This module imports neither NumPy nor the compiled modules (``import turbobleu`` loads it).
"""

from __future__ import annotations

from turbobleu._engine.results import Score, Signature
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, ClassVar, List, Optional, Sequence, Tuple

__all__ = ["Metric", "Score", "Signature"]


class Metric:
    """The base of every turbobleu metric (see the module's docstring for the interface).

    A subclass sets ``name`` and ``score_type``, implements ``_prepare_references``,
    ``corpus_stats``, ``segment_rows``, ``sum_rows``, ``score_row``, ``get_signature`` and
    ``resampler``, and calls ``_cache_references(references)`` from its constructor.
    """

    # The registry's name of the metric (``-m``'s choice), and whether higher scores are better
    # (an error rate is not: rewards negate it).
    name: ClassVar[str] = ""
    higher_is_better: ClassVar[bool] = True
    score_type: ClassVar[type] = Score
    _SIGNATURE_TYPE: ClassVar[type] = Signature  # (sacrebleu's name for it)

    num_refs: int
    n_bootstrap: Optional[int]
    seed: Optional[str]

    # -- references: prepared once, cached here ---------------------------------------------
    def _cache_references(self, references: Optional[Sequence[Sequence[Any]]]) -> None:
        """Prepare ``references`` (if given) for later calls without references; the
        bootstrap settings start unset."""
        self.n_bootstrap = None
        self.seed = None
        self._ref_cache: Optional[Tuple[Any, int]] = None
        if references is not None:
            self._ref_cache = self._prepare_references(references, None)
            self.num_refs = self._ref_cache[1]

    def _prepare_references(self, references: Any, segments: Optional[int]) -> Tuple[Any, int]:
        """The metric's own preparation of reference streams: (prepared, references per
        segment, -1 when it varies); ``segments`` (if known) is the hypotheses' count."""
        raise NotImplementedError(f"{type(self).__name__} does not prepare references")

    def _prepared_segments(self, prepared: Any) -> Optional[int]:
        """How many segments ``prepared`` references cover (None: the metric checks it
        later, while counting)."""
        return None

    def _cached_references(self, segments: int) -> Any:
        """The cached references, checked against the hypotheses' count."""
        cache = getattr(self, "_ref_cache", None)
        if cache is None:
            raise ValueError(
                f"references: none given and none cached (pass references= to "
                f"{type(self).__name__}() or to this call)"
            )
        prepared, self.num_refs = cache
        cached = self._prepared_segments(prepared)
        if cached is not None and cached != segments:
            raise ValueError(
                f"hypotheses has {segments} segments but the cached references have {cached} "
                "(sacrebleu would silently truncate)"
            )
        return prepared

    def _references(self, references: Any, segments: int) -> Any:
        """The prepared references of a call: those given, else the cached ones."""
        if references:
            prepared, self.num_refs = self._prepare_references(references, segments)
            return prepared
        return self._cached_references(segments)

    # -- statistics and scores (each metric's own) --------------------------------------------
    def corpus_stats(self, hypotheses: Sequence[str], references: Any = None) -> Any:
        """One statistics row per segment (a NumPy array, or ``BLEUStats``)."""
        raise NotImplementedError

    def segment_rows(self, hypotheses: Sequence[str]) -> List[List[Any]]:
        """``corpus_stats`` against the cached references, as lists."""
        raise NotImplementedError

    def sum_rows(self, rows: Sequence[Sequence[Any]]) -> List[Any]:
        """Rows summed as the mirrored library sums them."""
        raise NotImplementedError

    def score_row(self, row: Any) -> Any:
        """The score object of one summed row (or of one segment's row)."""
        raise NotImplementedError

    def get_signature(self) -> Signature:
        raise NotImplementedError

    def resampler(self) -> Any:
        """How ``turbobleu.significance`` scores this metric's resampled rows."""
        raise NotImplementedError(f"{type(self).__name__} has no significance tests")

    # (the name these had before the interface; kept for callers of it)
    def significance_recipe(self) -> Any:
        return self.resampler()

    @classmethod
    def notice_hypotheses(cls, hypotheses: List[str]) -> None:
        """Warn about hypotheses before they are scored, where the metric has something to say
        (BLEU: text that looks tokenized already); nothing by default."""

    def stats_of_additive(self, rows: Any) -> Any:
        """``additive_rows`` in ``corpus_stats``'s form (what the significance tests take):
        the same rows unless the metric scales them to make them add up (TER)."""
        return rows

    def score_of_stats(self, stats: Any) -> Any:
        """The corpus score of ``corpus_stats`` rows."""
        return self.score_row(self.sum_rows(_as_lists(stats)))

    # -- sacrebleu's private protocol, from the interface -------------------------------------
    def _extract_corpus_statistics(self, hypotheses: Sequence[str], references: Any) -> List[Any]:
        return _as_lists(self.corpus_stats(hypotheses, references))

    def _compute_score_from_stats(self, stats: Any) -> Any:
        return self.score_row(stats)

    def _aggregate_and_compute(self, stats: Any) -> Any:
        return self.score_row(self.sum_rows(_as_lists(stats)))


def _as_lists(stats: Any) -> List[Any]:
    """Statistics rows as lists (``BLEUStats.rows()``, an array's ``tolist()``)."""
    for method in ("rows", "tolist"):
        convert = getattr(stats, method, None)
        if convert is not None:
            rows: List[Any] = convert()
            return rows
    return list(stats)
