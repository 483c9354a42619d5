"""BLEU on Ray Data (``pip install turbobleu[ray]``).

- ``SentenceBLEU``: a batch callable for ``Dataset.map_batches``. As a class (``map_batches(
  SentenceBLEU, fn_constructor_kwargs={...}, compute=ActorPoolStrategy(size=n))``) its options
  and tokenizer are set up once per worker; an instance also pickles cleanly for task-based
  ``map_batches``. It adds the sentence score column (NaN for a skipped row) and, with
  ``statistics=True``, each segment's integer statistics (``sys_len``, ``ref_len``,
  ``matches_n``, ``totals_n``) with ``refs`` and ``skipped``.
- ``corpus_bleu(ds, hypothesis, references, by=[...])``: statistics per block, summed by Ray
  Data's own aggregation (``Dataset.aggregate`` / ``groupby(...).aggregate`` with an
  ``AggregateFnV2``), the recipe applied once per group on the driver: a ``CorpusBLEUScore`` (or
  ``NLTKCorpusScore``), or a dict from group values to scores.

``references`` is a column of lists of strings, or a list of string columns. Options are
``turbobleu.aggregate.Scorer``'s (sacrebleu's, or ``recipe="nltk"``), and ``on_invalid="skip"``
to count rows with a null or non-string text instead of failing (the error names the column and,
with ``key=`` a column, the row's key).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from turbobleu._extras import missing_extra

try:
    from ray.data import Dataset
    from ray.data.aggregate import AggregateFnV2
    from ray.data.block import BlockAccessor
except ImportError as exc:
    raise missing_extra("turbobleu.ray", "ray", exc) from exc

from turbobleu.aggregate import Scorer, Totals

__all__ = ["SentenceBLEU", "TotalsAggregate", "corpus_bleu"]


def _values(column: Any) -> List[Any]:
    """A batch column (NumPy array or pandas Series) as a list of Python objects."""
    return np.asarray(column, dtype=object).tolist()


class SentenceBLEU:
    """``map_batches`` callable: sentence scores (column ``output``) and, with ``statistics``,
    the statistics columns of each row. ``sentence=False`` leaves the scores out. Options as
    ``turbobleu.aggregate.Scorer`` (sacrebleu's ``sentence_bleu`` defaults: ``effective_order``
    True unless given), or a ``scorer``."""

    def __init__(
        self,
        hypothesis: str = "hypothesis",
        references: Union[str, Sequence[str]] = "references",
        *,
        output: str = "bleu",
        statistics: bool = False,
        sentence: bool = True,
        key: Optional[str] = None,
        scorer: Optional[Scorer] = None,
        **options: Any,
    ) -> None:
        if scorer is not None and options:
            raise TypeError("give either a scorer or its options, not both")
        if scorer is None:
            scorer = Scorer(**Scorer.sentence_defaults(options))
        self.scorer = scorer
        self.hypothesis = hypothesis
        self.per_row = isinstance(references, str)
        self.references = [references] if isinstance(references, str) else list(references)
        if not self.references:
            raise ValueError("references: give at least one column")
        self.output = output
        self.statistics = statistics
        self.sentence = sentence
        self.key = key

    def __call__(self, batch: Any) -> Any:
        """A batch in the "numpy" (dict of arrays) or "pandas" format, returned in it."""
        hyps = _values(batch[self.hypothesis])
        if self.per_row:
            refs: Any = _values(batch[self.references[0]])
        else:
            refs = [_values(batch[name]) for name in self.references]
        rows = self.scorer.rows(
            hyps,
            refs,
            per_row=self.per_row,
            hypothesis_column=self.hypothesis,
            reference_columns=self.references,
            keys=None if self.key is None else _values(batch[self.key]),
        )
        if self.sentence:
            batch[self.output] = self.scorer.sentence_scores(rows)
        if self.statistics:
            for i, name in enumerate(self.scorer.columns):
                batch[name] = rows.stats[:, i]
            batch["refs"] = rows.refs
            batch["skipped"] = rows.skipped
        return batch

    def __repr__(self) -> str:
        return f"SentenceBLEU({self.hypothesis!r}, {self.references!r}, {self.scorer!r})"


class TotalsAggregate(AggregateFnV2):
    """Ray Data aggregation of statistics columns into ``Totals`` (as a list of ints:
    the sums, then segments, skipped, fewest and most references; -1 where no segment)."""

    def __init__(self, columns: List[str], name: str = "bleu_totals") -> None:
        self.columns = list(columns)
        width = len(self.columns)
        super().__init__(
            name,
            zero_factory=lambda: [0] * (width + 2) + [-1, -1],
            on=None,
            ignore_nulls=False,
        )

    def aggregate_block(self, block: Any) -> List[int]:
        accessor = BlockAccessor.for_block(block)
        if accessor.num_rows() == 0:
            return [0] * (len(self.columns) + 2) + [-1, -1]
        data = accessor.to_numpy(self.columns + ["refs", "skipped"])
        kept = ~np.asarray(data["skipped"], dtype=bool)
        sums = [int(np.asarray(data[c], dtype=np.int64)[kept].sum()) for c in self.columns]
        refs = np.asarray(data["refs"], dtype=np.int64)[kept]
        fewest, most = (int(refs.min()), int(refs.max())) if len(refs) else (-1, -1)
        return sums + [int(kept.sum()), int((~kept).sum()), fewest, most]

    def combine(self, current: List[int], new: List[int]) -> List[int]:
        width = len(self.columns) + 2
        summed = [a + b for a, b in zip(current[:width], new[:width])]
        fewest = [r for r in (current[width], new[width]) if r >= 0]
        most = max(current[width + 1], new[width + 1])
        return summed + [min(fewest) if fewest else -1, most]

    def finalize(self, accumulator: List[int]) -> List[int]:  # type: ignore[override, unused-ignore]
        return accumulator


def _totals(values: List[int], width: int) -> Totals:
    fewest, most = values[width + 2], values[width + 3]
    return Totals(
        [int(x) for x in values[:width]],
        int(values[width]),
        None if fewest < 0 else int(fewest),
        None if most < 0 else int(most),
        int(values[width + 1]),
    )


def corpus_bleu(
    ds: Dataset,
    hypothesis: str,
    references: Union[str, Sequence[str]],
    *,
    by: Sequence[str] = (),
    key: Optional[str] = None,
    scorer: Optional[Scorer] = None,
    **options: Any,
) -> Any:
    """Corpus BLEU of ``ds`` (or of each group of ``by``): a score, or a dict from the tuple of
    group values to its score (None for a group whose every row was skipped)."""
    if scorer is not None and options:
        raise TypeError("give either a scorer or its options, not both")
    scorer = scorer if scorer is not None else Scorer(**options)
    by = [by] if isinstance(by, str) else list(by)
    counter = SentenceBLEU(
        hypothesis, references, statistics=True, sentence=False, key=key, scorer=scorer
    )
    stats = ds.map_batches(counter, batch_format="numpy")
    stats = stats.select_columns(by + scorer.columns + ["refs", "skipped"])
    name = "bleu_totals"  # (the aggregate's output column)
    aggregate = TotalsAggregate(scorer.columns, name)
    width = len(scorer.columns)
    if not by:
        totals = _totals(stats.aggregate(aggregate)[name], width)
        return scorer.score(totals)
    scores: Dict[Any, Any] = {}
    for row in stats.groupby(by).aggregate(aggregate).take_all():
        totals = _totals(row[name], width)
        group = tuple(row[column] for column in by)
        scores[group] = scorer.score(totals) if totals.segments else None
    return scores
