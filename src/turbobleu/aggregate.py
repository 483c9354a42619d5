"""A metric over partitioned data: statistics rows per segment, sums, one recipe at the end.

Every score turbobleu reproduces (BLEU, chrF, TER, a registered metric) is a float recipe over sums
of per-segment integer rows, so a corpus split over any number of partitions, workers or ranks is
scored exactly by summing the rows (int64) wherever they are and applying the recipe once. The
engines (``turbobleu.spark``, ``turbobleu.ray``, ``turbobleu.distributed``) all use this module:

- ``Scorer(...)`` holds one configuration (a metric and its options; BLEU's: sacrebleu's options
  and tokenizer, or NLTK's recipe) and pickles cleanly; ``scorer.rows(hypotheses, references)``
  gives a ``Rows`` batch: the int64 statistics (``scorer.columns``) plus, per row, its number
  of references and whether it was skipped; ``scorer.sentence_scores(rows)`` the sentence
  scores; ``scorer.statistics(rows)`` the rows as the metric's ``corpus_stats`` gives them, for
  ``turbobleu.significance`` (``Rows.concat`` joins partitions first).
- ``Totals`` is what a partition sends: the summed statistics, the number of segments summed, the
  fewest and most references of a segment and the number of skipped rows. Totals add up.
- ``scorer.score(totals)`` applies the recipe: the metric's score with ``segments``, ``skipped``
  and ``signature`` (for BLEU a ``CorpusBLEUScore``, sacrebleu's fields, or an
  ``NLTKCorpusScore``).

Bad rows (a null or non-string hypothesis or reference, a row without a reference) raise a
ValueError naming the column and the row; with ``on_invalid="skip"`` they are counted instead
(``Rows.skipped``, ``Totals.skipped``, the score's ``skipped``), never dropped silently.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

import numpy as np

from turbobleu._bleu_scorer import CorpusBLEUScore, NLTKCorpusScore, stat_columns
from turbobleu.stats import BLEUStats

__all__ = [
    "CorpusBLEUScore",
    "NLTKCorpusScore",
    "Rows",
    "Scorer",
    "Totals",
    "stat_columns",
]

# The metric a Scorer computes unless told otherwise.
_DEFAULT_METRIC = "bleu"


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

    @classmethod
    def concat(cls, parts: Iterable["Rows"]) -> "Rows":
        """Batches joined in order (partitions gathered for a per-segment test)."""
        parts = list(parts)
        if not parts:
            raise ValueError("Rows.concat needs at least one batch")
        widths = {p.stats.shape[1] for p in parts}
        if len(widths) != 1:
            raise ValueError(f"cannot join rows of {sorted(widths)} statistics columns")
        return cls(
            np.concatenate([p.stats for p in parts]),
            np.concatenate([p.refs for p in parts]),
            np.concatenate([p.skipped for p in parts]),
        )

    def bleu_stats(self) -> BLEUStats:
        """Deprecated: ``Scorer.statistics(rows)`` gives any metric's statistics."""
        warnings.warn(
            "Rows.bleu_stats() is deprecated; use Scorer.statistics(rows), which serves every "
            "metric",
            DeprecationWarning,
            stacklevel=2,
        )
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


class _MetricScorer:
    """The default scorer object: a registry metric made with ``metric_options`` and read
    through its own additive protocol (chrF, TER and a user's metric). Any other keyword is
    refused, naming it and the metric."""

    def __init__(
        self, name: str, metric_options: Optional[Mapping[str, Any]] = None, **options: Any
    ) -> None:
        from turbobleu.metric_registry import make_with_only

        self.metric = make_with_only(name, metric_options, options)
        self.name = name
        self.metric_options = dict(metric_options or {})

    @staticmethod
    def sentence_defaults(options: Dict[str, Any]) -> Dict[str, Any]:
        return dict(options)

    @property
    def num_refs(self) -> int:
        found: int = self.metric.num_refs
        return found

    @num_refs.setter
    def num_refs(self, value: int) -> None:
        self.metric.num_refs = value

    def get_signature(self) -> Any:
        return self.metric.get_signature()

    def fields(self) -> str:
        return f"metric={self.name!r}, metric_options={self.metric_options!r}"

    def additive_columns(self) -> List[str]:
        return list(self.metric.additive_columns())

    def additive_rows(self, hyps: List[str], streams: List[List[Any]]) -> Any:
        return self.metric.additive_rows(hyps, streams)

    def sentence_scores_additive(self, stats: np.ndarray) -> Any:
        return self.metric.sentence_scores_additive(stats)

    def statistics(self, stats: np.ndarray) -> Any:
        return self.metric.stats_of_additive(stats)

    def score_additive(self, sums: List[int]) -> Any:
        return self.metric.score_additive(sums)


def _scorer_factory(metric: str) -> Any:
    """The scorer maker of ``metric``: its registry hook (``"scorer"``), else the default."""
    from turbobleu.metric_registry import get_metric

    entry = get_metric(metric)
    make = entry.hook("scorer")
    if make is not None:
        return make
    return _DefaultFactory(entry.name)


class _DefaultFactory:
    """``_MetricScorer`` for one metric name, called as a hook is."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, **options: Any) -> _MetricScorer:
        return _MetricScorer(self.name, **options)

    @staticmethod
    def sentence_defaults(options: Dict[str, Any]) -> Dict[str, Any]:
        return _MetricScorer.sentence_defaults(options)


class Scorer:
    """One metric configuration, from text to rows to scores (picklable, set up once per
    worker).

    BLEU (``metric="bleu"``, the default): ``recipe="sacrebleu"`` (default): sacrebleu's
    ``BLEU`` options ``tokenize`` (default 13a), ``lowercase``, ``smooth_method``,
    ``smooth_value``, ``max_ngram_order`` and ``effective_order`` (False, as in
    ``corpus_bleu``; ``sentence_bleu`` uses True). ``recipe="nltk"``: NLTK's ``weights``,
    ``smoothing_function`` (None, 0..7, "methodN" or a ``SmoothingFunction`` method) and
    ``auto_reweigh``, on tokens from ``tokenize`` (default whitespace).
    Another metric of the registry (``metric="chrf"``, ``"ter"`` or one added with
    ``register_metric``): the metric made with the keyword arguments ``metric_options``; its
    rows are integers that add up in any order (TER: 1, 2, 4, ... 64 references per segment,
    see ``TER.additive_rows``); a keyword it does not take is refused.
    ``on_invalid``: "raise" (default) or "skip" (rows counted as skipped).

    The metric's own scorer object (the registry's ``"scorer"`` hook, by default the metric
    itself) does the metric's work; its attributes (BLEU's ``recipe``, ``tokenize``,
    ``lowercase``, ``max_order``) read through this object.
    """

    def __init__(
        self,
        recipe: Optional[str] = None,
        *,
        on_invalid: str = "raise",
        metric: str = _DEFAULT_METRIC,
        metric_options: Optional[Mapping[str, Any]] = None,
        **options: Any,
    ) -> None:
        if on_invalid not in ("raise", "skip"):
            raise ValueError(f"on_invalid must be 'raise' or 'skip', got {on_invalid!r}")
        if recipe is not None:
            options["recipe"] = recipe
        if metric_options is not None:
            options["metric_options"] = metric_options
        self._impl = _scorer_factory(metric)(**options)
        self.on_invalid = on_invalid
        self.metric_name = metric
        self.columns = list(self._impl.additive_columns())

    def __getattr__(self, name: str) -> Any:
        # The metric's own settings (BLEU's recipe, tokenize, ...), read from its scorer.
        if name.startswith("__") or name == "_impl":
            raise AttributeError(name)
        return getattr(self._impl, name)

    @staticmethod
    def sentence_defaults(options: Dict[str, Any]) -> Dict[str, Any]:
        """``options`` with the metric's sentence-level defaults (BLEU's: sacrebleu's
        ``sentence_bleu``, ``effective_order=True`` unless given)."""
        factory = _scorer_factory(options.get("metric", _DEFAULT_METRIC))
        defaults: Dict[str, Any] = factory.sentence_defaults(options)
        return defaults

    @property
    def metric(self) -> Any:
        """The sacrebleu-compatible metric object (what the significance tests take)."""
        return self._impl.metric

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
        if not hyps:
            return np.zeros((0, len(self.columns)), dtype=np.int64)
        return np.asarray(self._impl.additive_rows(hyps, streams), dtype=np.int64)

    # -- rows -> scores ---------------------------------------------------------------------
    def statistics(self, rows: Rows) -> Any:
        """The rows that were not skipped, in the form the metric's ``corpus_stats`` gives
        (``BLEUStats`` for BLEU, an array for chrF and TER): what ``turbobleu.significance``
        takes. Gather a system's partitions with ``Rows.concat`` first."""
        return self._impl.statistics(rows.stats[~rows.skipped])

    def sentence_scores(self, rows: Rows) -> np.ndarray:
        """Each row's sentence score (float64; NaN for skipped rows)."""
        scores = np.array(self._impl.sentence_scores_additive(rows.stats), dtype=np.float64)
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
        impl = self._impl
        result = impl.score_additive([int(x) for x in totals.sums])
        impl.num_refs = num_refs
        result.segments, result.skipped = totals.segments, totals.skipped
        result.signature = impl.get_signature()
        return result

    def corpus_score(self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> Any:
        """The corpus score of one batch (reference columns), as the engines compute it."""
        return self.score(self.rows(hypotheses, references).totals())

    def __repr__(self) -> str:
        return f"Scorer({self._impl.fields()}, on_invalid={self.on_invalid!r})"
