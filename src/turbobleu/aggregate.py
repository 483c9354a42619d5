"""BLEU over partitioned data: statistics rows per segment, sums, one recipe at the end.

Every BLEU score turbobleu reproduces is a float recipe over sums of per-segment integer rows, so a
corpus split over any number of partitions, workers or ranks is scored exactly by summing the rows
(int64) wherever they are and applying the recipe once. The engines (``turbobleu.spark``,
``turbobleu.ray``, ``turbobleu.distributed``) all use this module:

- ``Scorer(...)`` holds one configuration (sacrebleu's options and tokenizer, or NLTK's recipe)
  and pickles cleanly; ``scorer.rows(hypotheses, references)`` gives a ``Rows`` batch: the int64
  statistics (``stat_columns``) plus, per row, its number of references and whether it was
  skipped; ``scorer.sentence_scores(rows)`` the sentence scores.
- ``Totals`` is what a partition sends: the summed statistics, the number of segments summed, the
  fewest and most references of a segment and the number of skipped rows. Totals add up.
- ``scorer.score(totals)`` applies the recipe: a ``CorpusBLEUScore`` (sacrebleu's fields plus
  ``segments``, ``skipped`` and ``signature``) or an ``NLTKCorpusScore``.

Bad rows (a null or non-string hypothesis or reference, a row without a reference) raise a
ValueError naming the column and the row; with ``on_invalid="skip"`` they are counted instead
(``Rows.skipped``, ``Totals.skipped``, the score's ``skipped``), never dropped silently.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.count import ids as _ids
from turbobleu.result import BLEUScore, BLEUSignature
from turbobleu.stats import BLEUStats

__all__ = [
    "CorpusBLEUScore",
    "NLTKCorpusScore",
    "Rows",
    "Scorer",
    "Totals",
    "stat_columns",
]

# The metric whose options Scorer takes itself (the others come from the registry).
_BLEU = "bleu"

# NLTK's corpus recipe from sums alone: methods 5 to 7 also read the last sentence of the corpus,
# which a partitioned corpus does not have.
_ORDER_FREE_NLTK_METHODS = (0, 1, 2, 3, 4)


def stat_columns(max_order: int) -> List[str]:
    """Names of the statistics columns: sys_len, ref_len, matches_1..N, totals_1..N."""
    orders = range(1, max_order + 1)
    return (
        ["sys_len", "ref_len"] + [f"matches_{n}" for n in orders] + [f"totals_{n}" for n in orders]
    )


class Rows:
    """One batch of segments: ``stats`` (int64, ``(n, 2 + 2N)``), ``refs`` (int64, references per
    row, 0 where skipped) and ``skipped`` (bool, rows left out under ``on_invalid="skip"``)."""

    __slots__ = ("stats", "refs", "skipped")

    def __init__(self, stats: np.ndarray, refs: np.ndarray, skipped: np.ndarray) -> None:
        self.stats = stats
        self.refs = refs
        self.skipped = skipped

    def __len__(self) -> int:
        return len(self.stats)

    def bleu_stats(self) -> BLEUStats:
        """The rows that were not skipped, as ``BLEUStats`` (for the significance tests)."""
        return BLEUStats(self.stats[~self.skipped], self.stats.shape[1] // 2 - 1)

    def totals(self) -> "Totals":
        kept = ~self.skipped
        refs = self.refs[kept]
        return Totals(
            [int(x) for x in self.stats[kept].sum(axis=0)],
            int(kept.sum()),
            int(refs.min()) if len(refs) else None,
            int(refs.max()) if len(refs) else None,
            int(self.skipped.sum()),
        )


class Totals:
    """The additive summary of a set of segments (what a partition or rank sends)."""

    __slots__ = ("sums", "segments", "min_refs", "max_refs", "skipped")

    def __init__(
        self,
        sums: List[int],
        segments: int,
        min_refs: Optional[int],
        max_refs: Optional[int],
        skipped: int = 0,
    ) -> None:
        self.sums = sums
        self.segments = segments
        self.min_refs = min_refs
        self.max_refs = max_refs
        self.skipped = skipped

    @classmethod
    def zero(cls, max_order: int) -> "Totals":
        """No segment, for BLEU's ``max_order`` (``Scorer.zero_totals`` for any metric)."""
        return cls.of_width(2 + 2 * max_order)

    @classmethod
    def of_width(cls, width: int) -> "Totals":
        """No segment, ``width`` statistics columns."""
        return cls([0] * width, 0, None, None, 0)

    def __add__(self, other: "Totals") -> "Totals":
        if len(self.sums) != len(other.sums):
            raise ValueError(
                f"cannot add totals of {len(self.sums)} and {len(other.sums)} statistics columns"
            )

        def pick(f: Any, a: Optional[int], b: Optional[int]) -> Optional[int]:
            return b if a is None else a if b is None else f(a, b)

        return Totals(
            [a + b for a, b in zip(self.sums, other.sums)],
            self.segments + other.segments,
            pick(min, self.min_refs, other.min_refs),
            pick(max, self.max_refs, other.max_refs),
            self.skipped + other.skipped,
        )

    @classmethod
    def sum(cls, parts: Iterable["Totals"], max_order: int) -> "Totals":
        total = cls.zero(max_order)
        for part in parts:
            total = total + part
        return total

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Totals) and all(
            getattr(self, name) == getattr(other, name) for name in Totals.__slots__
        )

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in Totals.__slots__)
        return f"Totals({fields})"


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
    summed statistics, the sums it came from and the number of ``segments`` and ``skipped``."""

    def __init__(self, score: Any, totals: Totals, max_order: int) -> None:
        self.score = score
        self.counts = totals.sums[2 : 2 + max_order]
        self.totals = totals.sums[2 + max_order :]
        self.sys_len, self.ref_len = totals.sums[0], totals.sums[1]
        self.segments = totals.segments
        self.skipped = totals.skipped

    def __repr__(self) -> str:
        return f"NLTKCorpusScore(score={self.score!r}, segments={self.segments})"


def _streams(per_segment: List[List[str]], width: int) -> List[List[Any]]:
    """Per-row references as sacrebleu's streams, ``None`` where a row has fewer."""
    return [[r[k] if k < len(r) else None for r in per_segment] for k in range(width)]


def _all_str(values: List[Any]) -> bool:
    return all(type(v) is str for v in values)


def _bad_text(value: Any) -> Optional[str]:
    if value is None or (isinstance(value, float) and value != value):  # (NaN: pandas' null)
        return "is null"
    if not isinstance(value, str):
        return f"is a {type(value).__name__}, not a string"
    return None


class Scorer:
    """One metric configuration, from text to rows to scores (picklable, set up once per
    worker).

    BLEU (``metric="bleu"``, the default): ``recipe="sacrebleu"`` (default): sacrebleu's
    ``BLEU`` options ``tokenize`` (default 13a), ``lowercase``, ``smooth_method``,
    ``smooth_value``, ``max_ngram_order`` and ``effective_order`` (False, as in
    ``corpus_bleu``; ``sentence_bleu`` uses True). ``recipe="nltk"``: NLTK's ``weights``,
    ``smoothing_function`` (None, 0..7, "methodN" or a ``SmoothingFunction`` method) and
    ``auto_reweigh``, on tokens from ``tokenize`` (default whitespace).
    Another metric of the registry (``metric="chrf"`` or ``"ter"``): sacrebleu's ``CHRF`` /
    ``TER`` with the keyword arguments ``metric_options``; its rows are integers that add up
    in any order (TER: 1, 2, 4, ... 64 references per segment, see ``TER.additive_rows``).
    ``on_invalid``: "raise" (default) or "skip" (rows counted as skipped).
    """

    def __init__(
        self,
        recipe: str = "sacrebleu",
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
        on_invalid: str = "raise",
        metric: str = "bleu",
        metric_options: Optional[Mapping[str, Any]] = None,
    ) -> None:
        from turbobleu.batch import NLTKRecipe, SacreBLEURecipe
        from turbobleu.bleu import BLEU

        if recipe not in ("sacrebleu", "nltk"):
            raise ValueError(f"recipe must be 'sacrebleu' or 'nltk', got {recipe!r}")
        if on_invalid not in ("raise", "skip"):
            raise ValueError(f"on_invalid must be 'raise' or 'skip', got {on_invalid!r}")
        self.recipe = recipe
        self.on_invalid = on_invalid
        self.lowercase = bool(lowercase)
        self.metric_name = metric
        self._metric: Optional[BLEU] = None
        self._nltk: Optional[NLTKRecipe] = None
        self._other: Any = None
        self._sentence: Any
        self.max_order: int = 0  # BLEU's n-gram order (0 for another metric)
        self.tokenize: Optional[str] = None  # BLEU's tokenizer
        if metric != _BLEU:
            bleu_defaults = (
                recipe == "sacrebleu"
                and tokenize is None
                and not lowercase
                and smooth_method == "exp"
                and smooth_value is None
                and max_ngram_order == 4
                and not effective_order
                and tuple(weights) == (0.25, 0.25, 0.25, 0.25)
                and smoothing_function is None
                and not auto_reweigh
            )
            if not bleu_defaults:
                raise ValueError(
                    f"BLEU's options were given with metric={metric!r}: give that metric's "
                    "constructor keywords in metric_options"
                )
            from turbobleu.metric_registry import make_metric

            self._other = make_metric(metric, metric_options)
            self.metric_options = dict(metric_options or {})
            self.columns = list(self._other.additive_columns())
            return
        if metric_options is not None:
            raise ValueError("metric_options is for metric='chrf' or 'ter'; BLEU takes its own")
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
        self.max_order = self._sentence.orders
        self.columns = stat_columns(self.max_order)

    @staticmethod
    def sentence_defaults(options: Dict[str, Any]) -> Dict[str, Any]:
        """``options`` with sacrebleu's ``sentence_bleu`` default (``effective_order=True``)
        where they configure sacrebleu's BLEU and do not say otherwise."""
        options = dict(options)
        bleu = options.get("metric", _BLEU) == _BLEU
        if bleu and options.get("recipe", "sacrebleu") == "sacrebleu":
            options.setdefault("effective_order", True)
        return options

    @property
    def metric(self) -> Any:
        """The sacrebleu-compatible metric object (what the significance tests take)."""
        if self._other is not None:
            return self._other
        if self._metric is None:
            raise ValueError("the NLTK recipe has no sacrebleu metric object")
        return self._metric

    def zero_totals(self) -> "Totals":
        """The totals of no segment, as wide as this scorer's rows."""
        return Totals.of_width(len(self.columns))

    # -- text -> rows -----------------------------------------------------------------------
    def rows(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        *,
        per_row: bool = False,
        hypothesis_column: str = "hypothesis",
        reference_columns: Optional[Sequence[str]] = None,
        keys: Optional[Sequence[Any]] = None,
    ) -> Rows:
        """Statistics rows of ``hypotheses`` against ``references``: reference columns (one
        sequence of strings per column) or, with ``per_row=True``, one sequence of references
        per row (an array column). Bad rows are named by ``keys[i]`` if given, else by their
        position in this batch."""
        n = len(hypotheses)
        if reference_columns is None:
            reference_columns = (
                ["references"] if per_row else [f"references[{k}]" for k in range(len(references))]
            )
        skipped = np.zeros(n, dtype=bool)

        def invalid(i: int, column: str, why: str) -> None:
            if self.on_invalid == "skip":
                skipped[i] = True
                return
            where = f"row {keys[i]!r}" if keys is not None else f"row {i} of this batch"
            raise ValueError(
                f"column {column!r}, {where}: {why} (pass on_invalid='skip' to count and skip "
                "such rows)"
            )

        hyps = list(hypotheses)
        if not _all_str(hyps):
            for i, hyp in enumerate(hyps):
                why = _bad_text(hyp)
                if why is not None:
                    invalid(i, hypothesis_column, f"the hypothesis {why}")
                    hyps[i] = ""
        if per_row:
            per_segment = self._references_per_row(references, n, reference_columns, invalid)
            refs = np.array([len(r) for r in per_segment], dtype=np.int64)
            streams = _streams(per_segment, int(refs.max()) if n else 0)
        else:
            streams = self._reference_columns(references, n, reference_columns, invalid)
            refs = np.full(n, len(streams), dtype=np.int64)
        for i in np.flatnonzero(skipped).tolist():  # counted as empty segments, then zeroed
            hyps[i] = ""
            for k, stream in enumerate(streams):
                stream[i] = None if k else ""
        refs[skipped] = 0
        stats = self._count(hyps, streams)
        stats[skipped] = 0
        return Rows(stats, refs, skipped)

    @staticmethod
    def _references_per_row(
        references: Any, n: int, columns: Sequence[str], invalid: Any
    ) -> List[List[str]]:
        """An array column's rows as lists of strings, checked."""
        if len(references) != n:
            raise ValueError(f"{n} hypotheses but {len(references)} rows of references")
        column = columns[0]
        out: List[List[str]] = []
        for i, refs in enumerate(references):
            if type(refs) is np.ndarray:
                refs = refs.tolist()
            if type(refs) is list and refs and _all_str(refs):  # the common case, quickly
                out.append(refs)
                continue
            if refs is None or isinstance(refs, (str, float)):
                invalid(i, column, "the references are not an array of strings")
                out.append([""])
                continue
            refs = list(refs)
            bad = [(k, w) for k, w in enumerate(map(_bad_text, refs)) if w is not None]
            if bad:
                invalid(i, column, f"reference {bad[0][0]} {bad[0][1]}")
                refs = [""]
            elif not refs:
                invalid(i, column, "there is no reference")
                refs = [""]
            out.append(refs)
        return out

    @staticmethod
    def _reference_columns(
        references: Any, n: int, columns: Sequence[str], invalid: Any
    ) -> List[List[Any]]:
        """Reference columns as lists of strings (sacrebleu's streams), checked."""
        if not references:
            raise ValueError("no reference column given")
        streams = [list(values) for values in references]
        for column, values in zip(columns, streams):
            if len(values) != n:
                raise ValueError(f"{n} hypotheses but {len(values)} values in column {column!r}")
            if _all_str(values):
                continue
            for i, ref in enumerate(values):
                why = _bad_text(ref)
                if why is not None:
                    invalid(i, column, f"the reference {why}")
                    values[i] = ""
        return streams

    def _count(self, hyps: List[str], streams: List[List[Any]]) -> np.ndarray:
        """Statistics rows of checked inputs (``None``: no reference in that stream)."""
        n = len(hyps)
        if n == 0:
            return np.zeros((0, len(self.columns)), dtype=np.int64)
        if self._other is not None:
            return np.asarray(self._other.additive_rows(hyps, streams), dtype=np.int64)
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

    # -- rows -> scores ---------------------------------------------------------------------
    def sentence_scores(self, rows: Rows) -> np.ndarray:
        """Each row's sentence score (float64; NaN for skipped rows)."""
        scores = np.empty(len(rows), dtype=np.float64)
        if self._other is not None:
            scores = self._other.sentence_scores_additive(rows.stats).astype(np.float64)
        elif len(rows):
            states = [self._sentence.score_chunk(rows.stats, scores, 0, len(rows))]
            self._sentence.finish(rows.stats, scores, states, "hypotheses")
        scores[rows.skipped] = np.nan
        return scores

    def score(self, totals: Totals) -> Any:
        """The corpus score of summed statistics: a ``CorpusBLEUScore`` (sacrebleu) or an
        ``NLTKCorpusScore``; for another metric its score object (``CHRFScore``,
        ``TERScore``) with the same ``segments``, ``skipped`` and ``signature``."""
        if len(totals.sums) != len(self.columns):
            raise ValueError(
                f"totals have {len(totals.sums)} statistics, this scorer needs {len(self.columns)}"
            )
        if totals.segments == 0:
            raise ValueError(f"no segment to score ({totals.skipped} skipped)")
        # sacrebleu's "nrefs:var" (-1) when segments have different numbers of references
        same = totals.min_refs == totals.max_refs
        num_refs = int(totals.max_refs or 0) if same else -1
        if self._other is not None:
            other = self._other
            result = other.score_additive([int(x) for x in totals.sums])
            other.num_refs = num_refs
            result.segments, result.skipped = totals.segments, totals.skipped
            result.signature = other.get_signature()
            return result
        if self._metric is not None:
            metric = self._metric
            score = metric.score_row([int(x) for x in totals.sums])
            metric.num_refs = num_refs
            return CorpusBLEUScore(score, totals.segments, totals.skipped, metric.get_signature())
        return NLTKCorpusScore(self._nltk_score(totals), totals, self.max_order)

    def _nltk_score(self, totals: Totals) -> Any:
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
        sums = [int(x) for x in totals.sums]

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

    def corpus_score(self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> Any:
        """The corpus score of one batch (reference columns), as the engines compute it."""
        return self.score(self.rows(hypotheses, references).totals())

    def __repr__(self) -> str:
        if self._other is not None:
            name, options, invalid = self.metric_name, self.metric_options, self.on_invalid
            return f"Scorer(metric={name!r}, metric_options={options!r}, on_invalid={invalid!r})"
        return (
            f"Scorer({self.recipe!r}, tokenize={self.tokenize!r}, lowercase={self.lowercase}, "
            f"{self._sentence!r}, on_invalid={self.on_invalid!r})"
        )
