"""BLEU's scorer for ``turbobleu.aggregate`` (the registry's ``"scorer"`` hook of ``bleu``).

``turbobleu.aggregate.Scorer`` reads every metric through one protocol, the ``Metric``'s
additive one (``additive_columns``, ``additive_rows``, ``sentence_scores_additive``,
``score_additive``, ``num_refs``, ``get_signature``) plus ``metric``, ``fields()`` and
``sentence_defaults``. ``BLEUScorer`` is BLEU's side of it: sacrebleu's recipe (``BLEU`` with
its options) or NLTK's (``NLTKRecipe`` on whitespace or ``tokenize`` tokens), and the results
``CorpusBLEUScore`` / ``NLTKCorpusScore`` (``turbobleu.aggregate`` exports both).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.count import ids as _ids
from turbobleu.result import BLEUScore, BLEUSignature
from turbobleu.stats import BLEUStats

__all__ = ["BLEUScorer", "CorpusBLEUScore", "NLTKCorpusScore", "stat_columns"]

# NLTK's corpus recipe from sums alone: methods 5 to 7 also read the last sentence of the corpus,
# which a partitioned corpus does not have.
_ORDER_FREE_NLTK_METHODS = (0, 1, 2, 3, 4)

_RECIPES = ("sacrebleu", "nltk")


def stat_columns(max_order: int) -> List[str]:
    """Names of the statistics columns: sys_len, ref_len, matches_1..N, totals_1..N."""
    orders = range(1, max_order + 1)
    return (
        ["sys_len", "ref_len"] + [f"matches_{n}" for n in orders] + [f"totals_{n}" for n in orders]
    )


class CorpusBLEUScore(BLEUScore):
    """sacrebleu's corpus score of summed statistics, with the number of ``segments`` summed,
    the number of rows ``skipped`` and sacrebleu's ``signature``."""

    def __init__(
        self, score: BLEUScore, segments: int, skipped: int, signature: BLEUSignature
    ) -> None:
        super().__init__(
            score.score,
            score.counts,
            score.totals,
            score.precisions,
            score.bp,
            score.sys_len,
            score.ref_len,
        )
        self.segments = segments
        self.skipped = skipped
        self.signature = signature


class NLTKCorpusScore:
    """NLTK's ``corpus_bleu`` value (``score``: a float, int 0 or a list as NLTK returns it) of
    summed statistics, the sums it came from and the number of ``segments`` and ``skipped``
    (``signature`` is None: NLTK has none)."""

    def __init__(self, score: Any, totals: Any, max_order: int) -> None:
        self.score = score
        self.counts = totals.sums[2 : 2 + max_order]
        self.totals = totals.sums[2 + max_order :]
        self.sys_len, self.ref_len = totals.sums[0], totals.sums[1]
        self.segments = totals.segments
        self.skipped = totals.skipped
        self.signature: Optional[BLEUSignature] = None

    def __repr__(self) -> str:
        return f"NLTKCorpusScore(score={self.score!r}, segments={self.segments})"


class BLEUScorer:
    """BLEU rows and scores for ``turbobleu.aggregate.Scorer`` (its docstring lists the
    options). ``metric_options`` is refused: BLEU takes its own keywords."""

    def __init__(
        self,
        recipe: Optional[str] = None,
        *,
        tokenize: Optional[str] = None,
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        smoothing_function: Any = None,
        auto_reweigh: bool = False,
        metric_options: Optional[Mapping[str, Any]] = None,
    ) -> None:
        from turbobleu.batch import NLTKRecipe, SacreBLEURecipe
        from turbobleu.bleu import BLEU

        recipe = _RECIPES[0] if recipe is None else recipe
        if recipe not in _RECIPES:
            raise ValueError(f"recipe must be 'sacrebleu' or 'nltk', got {recipe!r}")
        if metric_options is not None:
            raise ValueError(
                "metric_options is for metrics other than metric='bleu'; BLEU takes its own "
                "keywords (recipe, tokenize, lowercase, ...)"
            )
        self.recipe = recipe
        self.lowercase = bool(lowercase)
        self._metric: Optional[BLEU] = None
        self._nltk: Optional[NLTKRecipe] = None
        self._sentence: Any
        if recipe == "sacrebleu":
            self.tokenize = "13a" if tokenize is None else tokenize
            self._metric = BLEU(
                lowercase=lowercase,
                force=True,  # no "tokenized period" warnings from every partition
                tokenize=self.tokenize,
                smooth_method=smooth_method,
                smooth_value=smooth_value,
                max_ngram_order=max_ngram_order,
                effective_order=effective_order,
            )
            self._sentence = SacreBLEURecipe(
                smooth_method, smooth_value, effective_order, max_ngram_order
            )
        else:
            self.tokenize = "none" if tokenize is None else tokenize
            self._nltk = self._sentence = NLTKRecipe(weights, smoothing_function, auto_reweigh)
        self.max_order: int = self._sentence.orders

    @staticmethod
    def sentence_defaults(options: Dict[str, Any]) -> Dict[str, Any]:
        """``options`` with sacrebleu's ``sentence_bleu`` default (``effective_order=True``)
        where they choose sacrebleu's recipe and do not say otherwise."""
        options = dict(options)
        if options.get("recipe") in (None, "sacrebleu"):
            options.setdefault("effective_order", True)
        return options

    @property
    def metric(self) -> Any:
        """The sacrebleu-compatible ``BLEU`` (what the significance tests take)."""
        if self._metric is None:
            raise ValueError("the NLTK recipe has no sacrebleu metric object")
        return self._metric

    @property
    def num_refs(self) -> int:
        return self._metric.num_refs if self._metric is not None else 0

    @num_refs.setter
    def num_refs(self, value: int) -> None:
        if self._metric is not None:
            self._metric.num_refs = value

    def get_signature(self) -> Optional[BLEUSignature]:
        """sacrebleu's signature (None for NLTK's recipe, which has none)."""
        return self._metric.get_signature() if self._metric is not None else None

    def fields(self) -> str:
        """The configuration as ``Scorer``'s repr shows it."""
        return (
            f"{self.recipe!r}, tokenize={self.tokenize!r}, lowercase={self.lowercase}, "
            f"{self._sentence!r}"
        )

    # -- the additive protocol ------------------------------------------------------------------
    def additive_columns(self) -> List[str]:
        return stat_columns(self.max_order)

    def additive_rows(self, hyps: List[str], streams: List[List[Any]]) -> np.ndarray:
        """int64 statistics rows of checked inputs (``None``: no reference in that stream)."""
        n = len(hyps)
        if self._metric is not None:
            stats = np.empty((n, 2 + 2 * self.max_order), dtype=np.int64)
            if self._metric._plain_corpus_row(hyps, streams, stats) is None:
                stats = np.array(self._metric.corpus_stats(hyps, streams).array)
            return stats
        per_segment = [[r for r in refs if r is not None] for refs in zip(*streams)]
        # Counted without scoring (scoring would warn NLTK's method0 warnings here).
        encoder = _ids.TextEncoder(self.tokenize, self.lowercase)
        ref_ids, ref_off, group_off = _ids.groups(per_segment, "references", None, None, encoder)
        hyp_ids, hyp_off = _ids.sequences(hyps, "hypotheses", None, None, encoder, frozen=True)
        stats = np.zeros((n, 2 + 2 * self.max_order), dtype=np.int64)
        _count_impl.kernel.count_stats(
            hyp_ids, hyp_off, ref_ids, ref_off, group_off, self.max_order, stats, 0, n
        )
        # NLTK's corpus sums take each sentence's modified-precision denominator, max(1, count).
        np.maximum(stats[:, 2 + self.max_order :], 1, out=stats[:, 2 + self.max_order :])
        return stats

    def statistics(self, stats: np.ndarray) -> BLEUStats:
        """Kept rows as ``BLEUStats`` (what the significance tests take)."""
        return BLEUStats(stats, self.max_order)

    def sentence_scores_additive(self, stats: np.ndarray) -> np.ndarray:
        """Each row's sentence score (float64)."""
        scores = np.empty(len(stats), dtype=np.float64)
        if len(stats):
            states = [self._sentence.score_chunk(stats, scores, 0, len(stats))]
            self._sentence.finish(stats, scores, states, "hypotheses")
        return scores

    def score_additive(self, sums: Sequence[int]) -> Any:
        """The corpus score of summed rows: a ``CorpusBLEUScore`` or an ``NLTKCorpusScore``
        (``Scorer.score`` fills in ``segments``, ``skipped`` and ``signature``)."""
        sums = [int(x) for x in sums]
        if self._metric is not None:
            unsigned: Any = None  # (the caller sets the signature once num_refs is known)
            return CorpusBLEUScore(self._metric.score_row(sums), 0, 0, unsigned)
        summed = SimpleNamespace(sums=sums, segments=0, skipped=0)
        return NLTKCorpusScore(self._nltk_score(sums), summed, self.max_order)

    def _nltk_score(self, sums: List[int]) -> Any:
        from turbobleu.nltk import SmoothingFunction, _finish

        recipe = self._nltk
        assert recipe is not None
        if recipe.method not in _ORDER_FREE_NLTK_METHODS:
            raise ValueError(
                f"NLTK's method{recipe.method} reads the last sentence of the corpus, which a "
                "partitioned corpus does not have; use methods 0 to 4 for corpus scores"
            )
        smoothing = SmoothingFunction(recipe.epsilon, recipe.alpha, recipe.k)
        n = self.max_order

        def no_last_pair() -> Tuple[Any, Any]:
            raise ValueError("this NLTK smoothing needs the last sentence; not available here")

        return _finish(
            sums[2 : 2 + n],
            sums[2 + n :],
            sums[0],
            sums[1],
            [recipe.weights],
            getattr(smoothing, f"method{recipe.method}"),
            recipe.method,
            recipe._reweigh,
            0,
            None,
            no_last_pair,
        )
