"""BLEU on Spark DataFrames (``pip install turbobleu[spark]``).

- ``sentence_bleu(hypothesis, references, **options)``: a Column of sentence scores (double;
  null for a skipped row), computed by a vectorised (Arrow) pandas UDF.
- ``statistics(hypothesis, references, **options)``: a struct Column with each segment's integer
  statistics (``sys_len``, ``ref_len``, ``matches_n``, ``totals_n``), ``refs`` (its number of
  references) and ``skipped``.
- ``corpus_bleu(df, hypothesis, references, by=[...], **options)``: the statistics summed in Spark
  (per group) and the recipe applied once per group on the driver: one ``CorpusBLEUScore`` (or
  ``NLTKCorpusScore``), or a dict from group values to scores.

``references`` is a column of arrays of strings, or a list of string columns (one reference
each). Options are ``turbobleu.aggregate.Scorer``'s: sacrebleu's (``tokenize``, ``lowercase``,
``smooth_method``, ``smooth_value``, ``max_ngram_order``, ``effective_order``) or
``recipe="nltk"`` with ``weights``, ``smoothing_function`` and ``auto_reweigh``; and
``on_invalid="skip"`` to count rows with a null or non-string text instead of failing on them
(the error names the column and, with ``key=`` a column, the row's key).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from turbobleu._extras import missing_extra

try:
    import pandas as pd
    from pyspark.sql import Column, DataFrame
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
except ImportError as exc:
    raise missing_extra("turbobleu.spark", "spark", exc) from exc

from turbobleu.aggregate import Scorer, Totals

__all__ = ["corpus_bleu", "sentence_bleu", "statistics"]

ColumnOrName = Union[Column, str]


def _scorer(scorer: Optional[Scorer], options: Dict[str, Any]) -> Scorer:
    if scorer is not None and options:
        raise TypeError("give either a scorer or its options, not both")
    return scorer if scorer is not None else Scorer(**options)


def _name(column: ColumnOrName) -> str:
    return column if isinstance(column, str) else str(column)


def _inputs(
    hypothesis: ColumnOrName, references: Any, key: Optional[ColumnOrName]
) -> Tuple[List[Column], List[str]]:
    """The UDF's columns (hypothesis, references as one array, key if any) and the names that
    error messages use (hypothesis first, then the reference columns)."""
    if isinstance(references, (list, tuple)):
        if not references:
            raise ValueError("references: give at least one column")
        refs = list(references)
    else:
        refs = [references]
    columns = [_col(hypothesis)] + [_col(r) for r in refs]
    if key is not None:
        columns.append(_col(key))
    return columns, [_name(hypothesis)] + [_name(r) for r in refs]


def _col(column: ColumnOrName) -> Column:
    return F.col(column) if isinstance(column, str) else column


def _rows(scorer: Scorer, names: List[str], per_row: bool, series: Tuple[pd.Series, ...]) -> Any:
    """Rows of one Arrow batch: the hypotheses, then one array column (``per_row``) or the
    reference columns, then the key column if any."""
    refs = len(names) - 1
    keys = series[1 + refs] if len(series) > 1 + refs else None
    references = [s.tolist() for s in series[1 : 1 + refs]]
    return scorer.rows(
        series[0].tolist(),
        references[0] if per_row else references,
        per_row=per_row,
        hypothesis_column=names[0],
        reference_columns=names[1:],
        keys=None if keys is None else keys.tolist(),
    )


def _udf(
    compute: Any,
    return_type: Any,
    frame: bool,
    scorer: Scorer,
    hypothesis: ColumnOrName,
    references: Any,
    key: Optional[ColumnOrName],
) -> Column:
    columns, names = _inputs(hypothesis, references, key)
    per_row = not isinstance(references, (list, tuple))

    # The scorer travels inside the function (pickled once per task, not per batch).
    def batches(batches: Iterator[Tuple[pd.Series, ...]]) -> Iterator[pd.Series]:
        for series in batches:
            yield compute(_rows(scorer, names, per_row, series))

    # Spark picks the UDF kind from these hints: a struct comes back as a DataFrame.
    batches.__annotations__ = {
        "batches": Iterator[Tuple[pd.Series, ...]],
        "return": Iterator[pd.DataFrame] if frame else Iterator[pd.Series],
    }
    # (pyspark's overloads want the hints in the source; they are set just above)
    return F.pandas_udf(batches, return_type)(*columns)  # type: ignore[call-overload, unused-ignore]


def _struct_type(scorer: Scorer) -> T.StructType:
    fields = [T.StructField(name, T.LongType()) for name in scorer.columns]
    fields.append(T.StructField("refs", T.LongType()))
    fields.append(T.StructField("skipped", T.BooleanType()))
    return T.StructType(fields)


def statistics(
    hypothesis: ColumnOrName,
    references: Any,
    *,
    key: Optional[ColumnOrName] = None,
    scorer: Optional[Scorer] = None,
    **options: Any,
) -> Column:
    """Each segment's statistics row as a struct column (see the module docstring)."""
    scorer = _scorer(scorer, options)
    columns = scorer.columns

    def frame(rows: Any) -> pd.DataFrame:
        out = pd.DataFrame(rows.stats, columns=columns)
        out["refs"] = rows.refs
        out["skipped"] = rows.skipped
        return out

    return _udf(frame, _struct_type(scorer), True, scorer, hypothesis, references, key)


def sentence_bleu(
    hypothesis: ColumnOrName,
    references: Any,
    *,
    key: Optional[ColumnOrName] = None,
    scorer: Optional[Scorer] = None,
    **options: Any,
) -> Column:
    """Each row's sentence BLEU (sacrebleu's ``sentence_bleu`` defaults: ``effective_order`` is
    True unless given; or NLTK's ``sentence_bleu`` with ``recipe="nltk"``); null where skipped."""
    if scorer is None:
        options = Scorer.sentence_defaults(options)
    scorer = _scorer(scorer, options)

    def scores(rows: Any) -> pd.Series:
        return pd.Series(scorer.sentence_scores(rows)).where(~rows.skipped, None)

    return _udf(scores, T.DoubleType(), False, scorer, hypothesis, references, key)


def corpus_bleu(
    df: DataFrame,
    hypothesis: ColumnOrName,
    references: Any,
    *,
    by: Sequence[str] = (),
    key: Optional[ColumnOrName] = None,
    scorer: Optional[Scorer] = None,
    **options: Any,
) -> Any:
    """Corpus BLEU of ``df``'s rows (or of each group of ``by``): a score, or a dict from the
    tuple of group values to its score (None for a group whose every row was skipped)."""
    scorer = _scorer(scorer, options)
    by = [by] if isinstance(by, str) else list(by)
    stats = statistics(hypothesis, references, key=key, scorer=scorer)
    kept = ~F.col("s.skipped")
    sums = [F.sum(F.col(f"s.{name}")).alias(name) for name in scorer.columns]
    grouped = df.select(*by, stats.alias("s")).groupBy(*by)
    result = grouped.agg(
        *sums,
        F.sum(F.when(kept, 1).otherwise(0)).alias("_segments"),
        F.sum(F.when(kept, 0).otherwise(1)).alias("_skipped"),
        F.min(F.when(kept, F.col("s.refs"))).alias("_min_refs"),
        F.max(F.when(kept, F.col("s.refs"))).alias("_max_refs"),
    ).collect()
    scores = {}
    for row in result:
        totals = Totals(
            [int(row[name] or 0) for name in scorer.columns],
            int(row["_segments"] or 0),
            row["_min_refs"],
            row["_max_refs"],
            int(row["_skipped"] or 0),
        )
        group = tuple(row[name] for name in by)
        scores[group] = scorer.score(totals) if totals.segments else None
    if by:
        return scores
    if not result:
        raise ValueError("no segment to score (the DataFrame is empty)")
    return scorer.score(totals)  # (raises for a DataFrame whose every row was skipped)
