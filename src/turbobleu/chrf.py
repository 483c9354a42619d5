"""sacrebleu-compatible chrF and chrF++: the ``CHRF`` metric object, ``corpus_chrf`` /
``sentence_chrf``, sentence scores of many segments in one call and the pairwise matrix, with
sacrebleu 2.6.0's statistics, scores, text and signatures (errors instead of silent truncation).

The n-grams are counted by the compiled ``_engine/chrf/_chrf`` (or its twin); the score of a
statistics row is ``_engine/recipes/chrf.f_score``.
"""

from __future__ import annotations

from turbobleu._engine.chrf import chosen as _chrf_impl
from turbobleu._engine.chrf.recipe import check_options, f_score
from turbobleu._engine.count.references import (
    check_hypotheses,
    references_per_segment,
    segment_rows_buffer,
    sentence_references,
    text_reference_streams,
)
from turbobleu._metric import Metric
from turbobleu._typing import TYPE_CHECKING
from turbobleu.result import SACREBLEU_VERSION, Score, Signature

if TYPE_CHECKING:  # NumPy is imported by the calls that make arrays
    from typing import Any, List, Optional, Sequence, Tuple

    import numpy as np


class CHRFScore(Score):
    """A chrF score (sacrebleu's ``CHRFScore``: same attributes, text and JSON)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: Any) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.name = f"chrF{beta}" + "+" * word_order
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""


class CHRFSignature(Signature):
    """chrF's signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    def __init__(  # noqa: D107 (the base formats; chrF's fields)
        self,
        nrefs: Any,
        lowercase: bool,
        eps_smoothing: bool,
        char_order: int,
        word_order: int,
        whitespace: bool,
        n_bootstrap: Optional[int] = None,
        seed: Optional[str] = None,
    ) -> None:
        self.info = self.shared_fields(nrefs, n_bootstrap, seed)
        self.info.update(
            case="lc" if lowercase else "mixed",
            eff="yes" if not eps_smoothing else "no",
            nc=char_order,
            nw=word_order,
            space="yes" if whitespace else "no",
            version=SACREBLEU_VERSION,
        )


def _lower_all(texts: list, what: str) -> list:
    out = []
    for i, t in enumerate(texts):
        if t is not None and not isinstance(t, str):
            raise TypeError(f"{what}[{i}] must be a str, got {type(t).__name__}")
        out.append(t if t is None else t.lower())
    return out


class CHRF(Metric):
    """chrF (and chrF++ with ``word_order=2``) with sacrebleu's options and results
    (``sacrebleu.metrics.CHRF``). ``references``, if given, are kept (lowercased if asked) and
    reused by ``corpus_score(hyps)``."""

    name = "chrf"
    score_type = CHRFScore
    _SIGNATURE_TYPE = CHRFSignature

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> None:
        check_options(char_order, word_order, beta)
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.beta = beta
        self.lowercase = bool(lowercase)
        self.whitespace = bool(whitespace)
        self.eps_smoothing = bool(eps_smoothing)
        self._cache_references(references)

    # -- statistics -------------------------------------------------------------------------
    def _preprocess_segment(self, sent: str) -> str:
        """sacrebleu's preprocessing: lowercasing, if asked."""
        return sent.lower() if self.lowercase else sent

    def _prepare_references(
        self, references: Any, segments: Optional[int]
    ) -> Tuple[List[list], int]:
        streams = text_reference_streams(references, segments)
        num_refs = references_per_segment(streams)
        if self.lowercase:
            streams = [_lower_all(s, f"references[{k}]") for k, s in enumerate(streams)]
        return streams, num_refs

    def _prepared_segments(self, prepared: List[list]) -> int:
        return len(prepared[0])

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> np.ndarray:
        """Per-segment integer statistics, an int64 array of ``3 * (char_order + word_order)``
        columns: per order ``[hyp n-grams, ref n-grams, matches]`` against the best reference
        (sacrebleu's ``_extract_corpus_statistics`` rows)."""
        import numpy as np

        hyps = check_hypotheses(hypotheses)
        rows = np.zeros((len(hyps), 3 * self.order), dtype=np.int64)
        self.fill_rows(hyps, rows, references)
        return rows

    def fill_rows(
        self,
        hypotheses: Sequence[str],
        out: Any,
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> None:
        """``corpus_stats`` written into ``out``, a zeroed ``(segments, 3 * order)`` int64
        buffer (a NumPy array, or for the compiled module any int64 memoryview: no NumPy)."""
        hyps = check_hypotheses(hypotheses)
        streams = self._references(references, len(hyps))
        if self.lowercase:
            hyps = _lower_all(hyps, "hypotheses")
        _chrf_impl.chrf_counts().corpus_rows(
            hyps,
            streams,
            self.char_order,
            self.word_order,
            self.whitespace,
            self.beta,
            self.eps_smoothing,
            out,
        )

    def segment_rows(self, hypotheses: Sequence[str]) -> List[List[int]]:
        """``corpus_stats`` against the cached references, as lists (no NumPy with the compiled
        module: the rows go through an ``array`` buffer)."""
        hyps = check_hypotheses(hypotheses)
        rows = segment_rows_buffer(len(hyps), 3 * self.order)
        self.fill_rows(hyps, rows)
        segment_rows: List[List[int]] = rows.tolist()
        return segment_rows

    @staticmethod
    def sum_rows(rows: Sequence[Sequence[int]]) -> List[int]:
        """Statistics rows summed (integers: any order gives the same sums)."""
        return [sum(column) for column in zip(*rows)]

    # -- scores -----------------------------------------------------------------------------
    def score_row(self, row: Any) -> CHRFScore:
        """The score of one aggregated statistics row (a list, or a NumPy row)."""
        return CHRFScore(
            f_score(row, self.order, self.beta, self.eps_smoothing),
            self.char_order,
            self.word_order,
            self.beta,
        )

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        n_bootstrap: int = 1,
    ) -> CHRFScore:
        """Corpus chrF; ``n_bootstrap > 1`` adds sacrebleu's bootstrap confidence interval."""
        rows = self.corpus_stats(hypotheses, references)
        score = self.score_row([int(x) for x in rows.sum(axis=0)])
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            # (here: the seed settings are not worth loading with `import turbobleu`)
            from turbobleu._engine.resample.metric_bootstrap import bootstrap_resample

            self.seed, resampled = bootstrap_resample(rows, n_bootstrap, self.score_row)
            score.estimate_ci(resampled)
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> CHRFScore:
        """chrF of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
        refs = sentence_references(references)
        rows = self.corpus_stats([hypothesis], [[r] for r in refs])
        return self.score_row(rows[0].tolist())

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> np.ndarray:
        """One sentence score per segment, in one call (float64 array): entry i equals
        ``sentence_score(hypotheses[i], [refs[i] for refs in references])``."""
        return self.sentence_scores_additive(self.corpus_stats(hypotheses, references))

    def pairwise_scores(
        self, hypotheses: Sequence[str], references: Sequence[str], threads: int = 1
    ) -> np.ndarray:
        """The ``(len(hypotheses), len(references))`` float64 matrix whose cell (i, j) equals
        ``sentence_score(hypotheses[i], [references[j]])``; each text's n-grams are counted
        once. ``threads`` > 1 splits the references among that many threads."""
        import numpy as np

        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be an integer >= 1, got {threads!r}")
        hyps = check_hypotheses(hypotheses)
        refs = check_hypotheses(references, "references")
        if self.lowercase:
            hyps = _lower_all(hyps, "hypotheses")
            refs = _lower_all(refs, "references")
        out = np.empty((len(hyps), len(refs)), dtype=np.float64)
        _chrf_impl.chrf_counts().pairwise_scores(
            hyps,
            refs,
            self.char_order,
            self.word_order,
            self.whitespace,
            self.beta,
            self.eps_smoothing,
            out,
            threads,
        )
        return out

    # -- rows that add up in any order (turbobleu.aggregate: Spark, Ray, torch.distributed) --
    def additive_columns(self) -> List[str]:
        """Names of ``corpus_stats``' columns: per character, then word, n-gram order
        ``hyp``, ``ref`` and ``match`` counts (e.g. ``char1_hyp``)."""
        orders = [f"char{n}" for n in range(1, self.char_order + 1)]
        orders += [f"word{n}" for n in range(1, self.word_order + 1)]
        return [f"{order}_{part}" for order in orders for part in ("hyp", "ref", "match")]

    def additive_rows(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]]
    ) -> np.ndarray:
        """chrF's rows are integers already: ``corpus_stats``."""
        return self.corpus_stats(hypotheses, references)

    def score_additive(self, sums: Sequence[int]) -> CHRFScore:
        """The corpus score of summed rows."""
        return self.score_row([int(x) for x in sums])

    def sentence_scores_additive(self, rows: np.ndarray) -> np.ndarray:
        """Each row's sentence score (float64)."""
        import numpy as np

        scores = np.empty(len(rows), dtype=np.float64)
        _chrf_impl.chrf_counts().sentence_scores(
            rows, self.order, self.beta, self.eps_smoothing, scores
        )
        return scores

    def resampler(self) -> Any:
        """chrF's scoring for ``turbobleu.significance``."""
        from turbobleu._engine.chrf.resampler import ChrFResampler

        return ChrFResampler(self.order, self.beta, self.eps_smoothing)

    def get_signature(self) -> CHRFSignature:
        if not hasattr(self, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return CHRFSignature(
            self.num_refs,
            self.lowercase,
            self.eps_smoothing,
            self.char_order,
            self.word_order,
            self.whitespace,
            self.n_bootstrap,
            self.seed,
        )

    # -- sacrebleu internals that significance code calls ----------------------------------
    # (the base's _extract_corpus_statistics and _compute_score_from_stats serve chrF as they are)
    def _aggregate_and_compute(self, stats: Any) -> CHRFScore:
        if len(stats) == 1:
            return self.score_row(stats[0])
        import numpy as np

        total = np.asarray(stats).sum(axis=0)
        return self.score_row(total.tolist() if total.dtype.kind in "iu" else total)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF exactly as ``sacrebleu.corpus_chrf`` (raises on length mismatches)."""
    metric = CHRF(
        char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing
    )
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[Optional[str]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Sentence chrF exactly as ``sacrebleu.sentence_chrf``."""
    metric = CHRF(
        char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing
    )
    return metric.sentence_score(hypothesis, references)


def pairwise_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    threads: int = 1,
) -> np.ndarray:
    """Every hypothesis against every reference: a ``(len(hypotheses), len(references))``
    float64 matrix, cell (i, j) == sacrebleu's ``CHRF(...).sentence_score(hypotheses[i],
    [references[j]]).score`` (for MBR utilities and rewards)."""
    metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    return metric.pairwise_scores(hypotheses, references, threads)
