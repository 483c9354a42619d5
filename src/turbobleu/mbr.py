"""Minimum Bayes risk (MBR) selection with sentence BLEU as the utility.

For one source, ``mbr_select(candidates)`` scores every candidate against every pseudo-reference
(by default the candidates themselves) with ``turbobleu.pairwise`` and picks the candidate of
highest expected utility: its mean single-reference sentence BLEU over the pseudo-references.
``mbr_select_batch`` does it for many sources. ``mbrs_bleu_metric()`` hands the same matrix to
the ``mbrs`` library's decoders in place of its own BLEU metric.

The expected utility of candidate i is ``sum_j score[i, j]`` added left to right, divided by the
number of pseudo-references used (without the diagonal: the others), so that it equals a plain
loop ``total += sentence_bleu(c_i, [r_j]).score`` bit for bit. Ties go to the first candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from turbobleu._engine.validate import describe
from turbobleu._extras import missing_extra
from turbobleu.pairwise import PairwiseBLEU

__all__ = ["MBRChoice", "mbr_select", "mbr_select_batch", "mbrs_bleu_metric"]


@dataclass(frozen=True)
class MBRChoice:
    """The chosen candidate's ``index``, every candidate's expected ``utilities`` (float64, the
    recipe's scale; NaN for a lone candidate scored without itself) and the ``scores`` matrix
    (candidates x pseudo-references)."""

    index: int
    utilities: np.ndarray
    scores: np.ndarray


def _check_inputs(value: Any, name: str) -> None:
    """``value`` must be what ``pairwise_bleu`` takes (a list, a tuple or an array of texts or
    id sequences), not a scalar, None, a mapping or a str (``len`` alone would not say which)."""
    if isinstance(value, (str, bytes, dict)) or not (
        isinstance(value, Sequence) or getattr(value, "ndim", 0) >= 1
    ):
        raise TypeError(
            f"{name} must be a list of strings, token lists or id sequences (or an array), "
            f"got {describe(value)}"
        )


def _expected_utilities(scores: np.ndarray, include_self: bool) -> np.ndarray:
    if not include_self:
        scores = scores.copy()
        np.fill_diagonal(scores, 0.0)  # adding +0.0 leaves a sum unchanged
    used = scores.shape[1] - (0 if include_self else 1)
    # cumsum adds strictly left to right (np.sum may pair the terms up differently).
    totals = np.cumsum(scores, axis=1)[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return totals / used if used else np.full(len(scores), np.nan)


def mbr_select(
    candidates: Any,
    pseudo_references: Any = None,
    recipe: Any = "sacrebleu",
    *,
    include_self: bool = True,
    tokenize: Any = None,
    lowercase: bool = False,
    pad_id: Optional[int] = None,
    threads: Optional[int] = None,
    _names: Tuple[str, str] = ("candidates", "pseudo_references"),
) -> MBRChoice:
    """MBR choice among one source's ``candidates`` (strings, token lists or id sequences, as
    ``pairwise_bleu`` takes them). ``pseudo_references``: None (the candidates themselves; then
    ``include_self=False`` leaves each candidate's score against itself out) or a separate list.
    """
    # _names: what messages call the inputs (mbr_select_batch's candidates[s], ...).
    if not isinstance(include_self, bool):
        raise TypeError(f"include_self must be a bool, got {type(include_self).__name__}")
    _check_inputs(candidates, _names[0])
    if pseudo_references is not None:
        _check_inputs(pseudo_references, _names[1])
    if pseudo_references is not None and not include_self:
        raise ValueError(
            "include_self=False applies when the candidates are their own pseudo-references "
            "(pseudo_references=None)"
        )
    if len(candidates) == 0:
        raise ValueError(f"{_names[0]} is empty: give at least one candidate")
    if pseudo_references is not None and len(pseudo_references) == 0:
        raise ValueError(f"{_names[1]} is empty: give at least one, or None")
    scores = PairwiseBLEU(
        candidates,
        pseudo_references,
        recipe,
        tokenize=tokenize,
        lowercase=lowercase,
        pad_id=pad_id,
        threads=threads,
        _names=_names,
    ).matrix()
    utilities = _expected_utilities(scores, include_self)
    index = 0 if np.isnan(utilities).all() else int(np.nanargmax(utilities))
    return MBRChoice(index, utilities, scores)


def mbr_select_batch(
    candidates: Sequence[Any],
    pseudo_references: Optional[Sequence[Any]] = None,
    recipe: Any = "sacrebleu",
    *,
    include_self: bool = True,
    tokenize: Any = None,
    lowercase: bool = False,
    pad_id: Optional[int] = None,
    threads: Optional[int] = None,
) -> List[MBRChoice]:
    """``mbr_select`` for each source: ``candidates[s]`` (and ``pseudo_references[s]``)."""
    for name, value in (("candidates", candidates), ("pseudo_references", pseudo_references)):
        if value is not None and (
            isinstance(value, (str, bytes, dict))
            or not (isinstance(value, Sequence) or getattr(value, "ndim", 0) >= 1)
        ):
            raise TypeError(
                f"{name} must be a list with one list per source, got {describe(value)}"
            )
    if candidates is None:
        raise TypeError("candidates must be a list with one list per source, got None")
    if pseudo_references is not None and len(pseudo_references) != len(candidates):
        raise ValueError(
            f"candidates has {len(candidates)} sources but pseudo_references has "
            f"{len(pseudo_references)}: give one list per source"
        )
    return [
        mbr_select(
            candidates[s],
            None if pseudo_references is None else pseudo_references[s],
            recipe,
            include_self=include_self,
            tokenize=tokenize,
            lowercase=lowercase,
            pad_id=pad_id,
            threads=threads,
            _names=(f"candidates[{s}]", f"pseudo_references[{s}]"),
        )
        for s in range(len(candidates))
    ]


# -- mbrs -------------------------------------------------------------------------------------
_MBRS_CLASS: Any = None


def _mbrs_class() -> Any:
    """mbrs' MetricBLEU with its sentence-level scoring (score, scores, pairwise_scores) done by
    turbobleu; its corpus score and reference aggregation stay mbrs' own."""
    global _MBRS_CLASS
    if _MBRS_CLASS is not None:
        return _MBRS_CLASS
    try:
        import torch
        from mbrs.metrics import MetricBLEU
    except ImportError as exc:
        note = ' (mbrs builds only with "setuptools<81" installed first)'
        raise missing_extra("mbrs_bleu_metric", "mbr", exc, note) from exc
    from turbobleu.batch import SacreBLEURecipe, sentence_bleu_batch

    class TurboMetricBLEU(MetricBLEU):
        """mbrs' BLEU metric, scored by turbobleu (same values, same float32 tensors)."""

        threads: Optional[int] = None

        def _options(self) -> dict:
            cfg = self.cfg
            recipe = SacreBLEURecipe(
                cfg.smooth_method, cfg.smooth_value, cfg.effective_order, cfg.max_ngram_order
            )
            return {"recipe": recipe, "tokenize": self._tokenize(), "lowercase": cfg.lowercase}

        def _tokenize(self) -> Any:
            """sacrebleu's tokenizer as mbrs resolved it: turbobleu's by name where it has
            one, else sacrebleu's own object (its output split on spaces)."""
            name = self.scorer.tokenizer_signature
            try:
                from turbobleu._engine.count.ids import TextEncoder

                TextEncoder(name, False)
                return name
            except (ValueError, KeyError, ImportError):
                tokenizer = self.scorer.tokenizer
                return lambda line: tokenizer(line).split()

        def score(self, hypothesis: str, reference: str, *_: Any, **__: Any) -> float:
            matrix = PairwiseBLEU([hypothesis], [reference], threads=1, **self._options())
            return float(matrix.matrix()[0, 0])  # a float64, as sacrebleu's .score

        def scores(self, hypotheses: List[str], references: List[str], *_: Any, **__: Any) -> Any:
            if len(hypotheses) != len(references):
                raise ValueError(
                    f"hypotheses has {len(hypotheses)} items but references has {len(references)}"
                )
            if not hypotheses:
                return torch.zeros(0)
            opts = self._options()
            values = sentence_bleu_batch(
                list(hypotheses),
                [[r] for r in references],
                opts["recipe"],
                tokenize=opts["tokenize"],
                lowercase=opts["lowercase"],
                threads=self.threads,
            )
            return torch.tensor(values, dtype=torch.float32)

        def pairwise_scores(
            self, hypotheses: List[str], references: List[str], *_: Any, **__: Any
        ) -> Any:
            matrix = PairwiseBLEU(
                list(hypotheses), list(references), threads=self.threads, **self._options()
            ).matrix()
            # mbrs builds Tensor(list of floats): float32, each rounded to nearest.
            return torch.tensor(matrix, dtype=torch.float32)

    _MBRS_CLASS = TurboMetricBLEU
    return TurboMetricBLEU


def mbrs_bleu_metric(cfg: Any = None, *, threads: Optional[int] = None, **options: Any) -> Any:
    """An ``mbrs`` BLEU metric (a subclass of ``mbrs.metrics.MetricBLEU``) whose sentence scores
    come from turbobleu: pass it to any mbrs decoder, e.g. ``DecoderMBR(DecoderMBR.Config(),
    mbrs_bleu_metric())``. ``cfg``: a ``MetricBLEU.Config``, or its fields as ``options``."""
    cls = _mbrs_class()
    if cfg is not None and options:
        raise ValueError("give cfg or its fields as keyword options, not both")
    metric = cls(cfg if cfg is not None else cls.Config(**options))
    metric.threads = threads
    return metric
