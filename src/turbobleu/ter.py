"""sacrebleu-compatible TER (translation edit rate): the ``TER`` metric object, ``corpus_ter`` /
``sentence_ter`` and sentence scores of many segments in one call, with sacrebleu 2.6.0's edit
counts, scores, text and signatures (errors instead of silent truncation).

Texts become words with the Tercom tokenizer (``_engine/ter/tercom.py``), words become ids
(per segment only the reference's words matter: a hypothesis word is only ever compared with
reference words), and the compiled ``_engine/ter/_ter`` (or its twin) counts the edits.

A segment's statistics row is sacrebleu's ``[fewest edits, average reference length]``; the
corpus score sums the rows in segment order, the edits as integers and the lengths as floats
(each average is a float; with one or two references every sum is exact, whatever the order).
"""

from __future__ import annotations

from turbobleu._engine.count.references import (
    check_hypotheses,
    references_per_segment,
    sentence_references,
    text_reference_streams,
)
from turbobleu._engine.ter import edits
from turbobleu._engine.ter.recipe import (
    additive_rows,
    additive_sums,
    stats_of_additive,
    summed,
    ter_score,
)
from turbobleu._engine.ter.tercom import TercomWords
from turbobleu._metric import Metric
from turbobleu._typing import TYPE_CHECKING
from turbobleu.result import _ABBREVIATIONS, SACREBLEU_VERSION, Score, Signature

if TYPE_CHECKING:
    from typing import Any, List, Optional, Sequence, Tuple

    import numpy as np

    from turbobleu._engine.ter.edits import PackedReferences


class TERScore(Score):
    """A TER score (sacrebleu's ``TERScore``: ``score``, ``num_edits``, ``ref_length``; same
    text and JSON)."""

    name = "TER"

    def __init__(self, score: float, num_edits: Any, ref_length: Any) -> None:
        self.score = score
        self.num_edits = int(num_edits)
        self.ref_length = ref_length
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""


class TERSignature(Signature):
    """TER's signature, e.g.
    ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0``."""

    ABBREVIATIONS = dict(_ABBREVIATIONS, tok="t", norm="nr", punct="pn", asian="as")

    def __init__(  # noqa: D107 (the base formats; TER's fields)
        self,
        nrefs: Any,
        case_sensitive: bool,
        normalized: bool,
        no_punct: bool,
        asian_support: bool,
        n_bootstrap: Optional[int] = None,
        seed: Optional[str] = None,
    ) -> None:
        self.info = self.shared_fields(nrefs, n_bootstrap, seed)
        self.info.update(
            case="mixed" if case_sensitive else "lc",
            tok="tercom",
            norm=normalized,
            punct=not no_punct,
            asian=asian_support,
            version=SACREBLEU_VERSION,
        )


def _check_flag(value: Any, name: str) -> bool:
    """sacrebleu reads its flags by truthiness; only a value without one is refused."""
    try:
        return bool(value)
    except (TypeError, ValueError) as exc:  # a NumPy array of several values, say
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}") from exc


class TER(Metric):
    """TER with sacrebleu's options and results (``sacrebleu.metrics.TER``). ``references``, if
    given, are tokenized once and reused by ``corpus_score(hyps)``."""

    name = "ter"
    higher_is_better = False  # an error rate
    score_type = TERScore
    _SIGNATURE_TYPE = TERSignature

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> None:
        self.normalized = _check_flag(normalized, "normalized")
        self.no_punct = _check_flag(no_punct, "no_punct")
        self.asian_support = _check_flag(asian_support, "asian_support")
        self.case_sensitive = _check_flag(case_sensitive, "case_sensitive")
        self.tokenizer = TercomWords(
            self.normalized, self.no_punct, self.asian_support, self.case_sensitive
        )
        self._cache_references(references)

    # -- statistics -------------------------------------------------------------------------
    def _prepare_references(
        self, references: Any, segments: Optional[int]
    ) -> Tuple[PackedReferences, int]:
        streams = text_reference_streams(references, segments)
        packed = edits.pack_references(
            streams, self.tokenizer.reference_words, self._whitespace_only()
        )
        return packed, references_per_segment(streams)

    def _whitespace_only(self) -> Optional[bool]:
        """The default options are a whitespace split, lowercased unless case_sensitive (the
        compiled tokenizer's job: True/False, whether it lowercases); None: Tercom's words."""
        return not self.case_sensitive if self.tokenizer.plain else None

    def _prepared_segments(self, prepared: PackedReferences) -> int:
        return prepared.segments

    def segment_edits(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        threads: int = 1,
    ) -> Tuple[List[int], List[float]]:
        """Per segment: the fewest edits over its references, and the average reference
        length (sacrebleu's statistics row, as two lists)."""
        hyps = check_hypotheses(hypotheses)
        if references:  # given with the call: packed here, in chunks where threads > 1
            streams = text_reference_streams(references, len(hyps))
            self.num_refs = references_per_segment(streams)
            counts = edits.count_edits_with_references(
                hyps,
                streams,
                self.tokenizer.reference_words,
                self.tokenizer.words,
                self._whitespace_only(),
                threads,
            )
        else:
            packed = self._cached_references(len(hyps))
            counts = edits.count_edits(hyps, packed, self.tokenizer.words, threads)
        return counts.edits, counts.average_lengths

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        threads: int = 1,
    ) -> np.ndarray:
        """Per-segment statistics, a float64 array of 2 columns: ``[edits, average reference
        length]`` (sacrebleu's ``_extract_corpus_statistics`` rows)."""
        import numpy as np

        num_edits, lengths = self.segment_edits(hypotheses, references, threads)
        return np.array([num_edits, lengths], dtype=np.float64).T.copy()

    def segment_rows(self, hypotheses: Sequence[str], threads: int = 1) -> List[List[Any]]:
        """sacrebleu's rows ``[edits, average reference length]`` against the cached
        references, as lists."""
        num_edits, lengths = self.segment_edits(hypotheses, None, threads)
        return [[e, n] for e, n in zip(num_edits, lengths)]

    @staticmethod
    def sum_rows(rows: Sequence[Sequence[Any]]) -> List[Any]:
        """Rows summed as sacrebleu sums them (in segment order; see ``recipe.summed``)."""
        return summed([r[0] for r in rows], [r[1] for r in rows])

    # -- scores -----------------------------------------------------------------------------
    def score_row(self, row: Any) -> TERScore:
        """The score of one aggregated statistics row ``[edits, reference length]``."""
        return TERScore(ter_score(row[0], row[1]), row[0], row[1])

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        n_bootstrap: int = 1,
        threads: int = 1,
    ) -> TERScore:
        """Corpus TER; ``n_bootstrap > 1`` adds sacrebleu's bootstrap confidence interval;
        ``threads`` > 1 counts the edits of that many chunks of segments in parallel."""
        if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int):
            raise TypeError(f"n_bootstrap must be an integer, got {type(n_bootstrap).__name__}")
        num_edits, lengths = self.segment_edits(hypotheses, references, threads)
        score = self.score_row(summed(num_edits, lengths))
        if n_bootstrap > 1:
            import numpy as np

            self.n_bootstrap = n_bootstrap
            rows = np.array([num_edits, lengths], dtype=np.float64).T
            # (here: the seed settings are not worth loading with `import turbobleu`)
            from turbobleu._engine.resample.metric_bootstrap import bootstrap_resample

            self.seed, resampled = bootstrap_resample(rows, n_bootstrap, self.score_row)
            score.estimate_ci(resampled)
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> TERScore:
        """TER of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
        refs = sentence_references(references)
        num_edits, lengths = self.segment_edits([hypothesis], [[r] for r in refs])
        return self.score_row([num_edits[0], lengths[0]])

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        threads: int = 1,
    ) -> np.ndarray:
        """One sentence score per segment, in one call (float64 array): entry i equals
        ``sentence_score(hypotheses[i], [refs[i] for refs in references]).score``."""
        import numpy as np

        num_edits, lengths = self.segment_edits(hypotheses, references, threads)
        return np.array([ter_score(e, n) for e, n in zip(num_edits, lengths)], dtype=np.float64)

    # -- rows that add up in any order (turbobleu.aggregate: Spark, Ray, torch.distributed) --
    @staticmethod
    def additive_columns() -> List[str]:
        """Names of ``additive_rows``' columns."""
        return ["edits", "ref_length_64ths"]

    def additive_rows(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]]
    ) -> np.ndarray:
        """int64 rows ``[edits, average reference length in 64ths]`` that sum exactly in any
        order (1, 2, 4, ... 64 references per segment; see ``_engine/ter/recipe.py``)."""
        num_edits, lengths = self.segment_edits(hypotheses, references)
        refs = [sum(stream[i] is not None for stream in references) for i in range(len(lengths))]
        return additive_rows(num_edits, lengths, refs)

    def score_additive(self, sums: Sequence[int]) -> TERScore:
        """The corpus score of summed ``additive_rows``."""
        return self.score_row(additive_sums(sums))

    @staticmethod
    def stats_of_additive(rows: np.ndarray) -> np.ndarray:
        """``additive_rows`` as ``corpus_stats`` gives them (lengths back from 64ths)."""
        return stats_of_additive(rows)

    @staticmethod
    def sentence_scores_additive(rows: np.ndarray) -> np.ndarray:
        """Each ``additive_rows`` row's sentence score (float64)."""
        import numpy as np

        return np.array([ter_score(*additive_sums(row)) for row in rows.tolist()], dtype=np.float64)

    def resampler(self) -> Any:
        """TER's scoring for ``turbobleu.significance`` (the references per segment of the last
        references given; a power of two, see ``_engine/ter/recipe.py``)."""
        from turbobleu._engine.ter.recipe import TERResampler

        if not hasattr(self, "num_refs"):
            raise ValueError("TER's significance tests need the metric's references first")
        return TERResampler(self.num_refs)

    def get_signature(self) -> TERSignature:
        if not hasattr(self, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return TERSignature(
            self.num_refs,
            self.case_sensitive,
            self.normalized,
            self.no_punct,
            self.asian_support,
            self.n_bootstrap,
            self.seed,
        )

    # -- sacrebleu internals that significance code calls ----------------------------------
    def _extract_corpus_statistics(
        self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[Optional[str]]]]
    ) -> List[List[Any]]:
        # (sacrebleu's rows: an int and a float each, not the float array of corpus_stats)
        num_edits, lengths = self.segment_edits(hypotheses, references)
        return [[e, n] for e, n in zip(num_edits, lengths)]


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER exactly as ``sacrebleu.corpus_ter`` (raises on length mismatches)."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[Optional[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Sentence TER exactly as ``sacrebleu.sentence_ter``."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.sentence_score(hypothesis, references)
