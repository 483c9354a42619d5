"""sacrebleu-compatible BLEU: the ``BLEU`` metric object and the ``corpus_bleu``/``sentence_bleu``
functions, with identical scores (same Python version) and errors instead of silent truncation."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:  # NumPy is imported by the methods that return arrays (a light import)
    from typing import Any, Dict, List, Optional, Sequence, Tuple

    import numpy as np

from turbobleu import _log
from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count.references import (
    PreparedReferences,
    check_hypotheses,
    sentence_references,
)
from turbobleu._engine.recipes.sacrebleu import NEUMAIER_SUM as _NEUMAIER_SUM
from turbobleu._engine.recipes.sacrebleu import (
    SMOOTH_DEFAULTS,
    SacreBLEUOptions,
    check_max_order,
    check_smoothing,
)
from turbobleu._engine.recipes.sacrebleu_rows import (
    c_recipe_applies,
    sacrebleu_from_int_row,
    sacrebleu_from_row,
    sacrebleu_scores_into,
)
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._engine.validate import check_text_streams, check_truth, describe
from turbobleu._metric import Metric
from turbobleu.result import BLEUScore, BLEUSignature
from turbobleu.stats import BLEUStats
from turbobleu.tokenizers import TOKENIZER_NAMES, Tokenizer, get_tokenizer

MAX_NGRAM_ORDER = 4

# BLEU's fused text paths (``_engine/bleu``: lines -> statistics rows, a sentence's score), bound
# here on the first score: ``import turbobleu`` does not load them, and a sentence_bleu loop then
# finds them in one global lookup (the accessor's call would cost it 3%).
_text_rows: Any = None


def _bind_text_rows() -> Any:
    global _text_rows
    _text_rows = _bleu_impl.text_rows()
    return _text_rows


# sacrebleu's choice of tokenizer from the target language.
_TOKENIZER_FOR_LANG = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def _warn_unusual_tokenizer(trg_lang: str, tokenize: Any) -> None:
    """sacrebleu's hint when an explicit tokenizer does not suit the target language."""
    name = tokenize.name if isinstance(tokenize, Tokenizer) else tokenize
    for lang, best, label in (
        ("zh", "zh", "Chinese"),
        ("ja", "ja-mecab", "Japanese"),
        ("ko", "ko-mecab", "Korean"),
    ):
        if trg_lang == lang and name != best:
            _log.warning(f"Consider using the '{best}' or 'spm' tokenizer for {label}.")


class BLEU(Metric):
    """BLEU with sacrebleu's options and results (``sacrebleu.metrics.BLEU``).

    ``references``, if given, are tokenized once and reused by ``corpus_score(hyps)``.
    """

    name = "bleu"
    score_type = BLEUScore
    _SIGNATURE_TYPE = BLEUSignature

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZERS = dict.fromkeys(TOKENIZER_NAMES).keys()  # sacrebleu's names (a dict's keys)
    TOKENIZER_DEFAULT = "13a"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: Optional[str] = None,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> None:
        check_smoothing(smooth_method, smooth_value)  # (in the order sacrebleu checks them)
        max_ngram_order = check_max_order(max_ngram_order, "max_ngram_order")
        # Flags are read by their truth value, as sacrebleu does; an array's is NumPy's error.
        effective_order = check_truth(effective_order, "effective_order")
        lowercase = check_truth(lowercase, "lowercase")
        force = check_truth(force, "force")
        if trg_lang is not None and not isinstance(trg_lang, str):
            raise TypeError(f"trg_lang must be a str (a language code), got {describe(trg_lang)}")
        options = SacreBLEUOptions(max_ngram_order, smooth_method, smooth_value, effective_order)
        if tokenize is None:
            tokenize = _TOKENIZER_FOR_LANG.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            _warn_unusual_tokenizer(trg_lang, tokenize)
        self.tokenizer: Tokenizer = get_tokenizer(tokenize)
        self.tokenizer_signature = self.tokenizer.signature()
        self.lowercase = bool(lowercase)
        self.smooth_method = options.smooth_method
        self.smooth_value = options.smooth_value
        self.max_ngram_order = options.max_order
        self.effective_order = options.effective_order
        self.trg_lang = trg_lang
        self._force = force
        self._cache_references(references)

    @property
    def options(self) -> SacreBLEUOptions:
        """The scoring options, as the batch API and the significance tests take them."""
        return SacreBLEUOptions(
            self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order
        )

    # -- statistics -------------------------------------------------------------------------
    def _prepare_references(
        self, references: Any, segments: Optional[int]
    ) -> Tuple[PreparedReferences, int]:
        prepared = PreparedReferences(references, self.tokenizer, self.lowercase, segments)
        return prepared, prepared.num_refs

    def _references(self, references: Any, segments: int) -> PreparedReferences:
        if references is not None:
            check_text_streams(references)  # (an array's truth value would be ambiguous)
        prepared: PreparedReferences = super()._references(references, segments)
        return prepared

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> BLEUStats:
        """Per-segment integer statistics (``[hyp_len, ref_len, matches..., totals...]``)."""
        hyps = check_hypotheses(hypotheses)
        prepared = self._references(references, len(hyps))
        stats = prepared.stats(hyps, self.max_ngram_order)  # checks every hypothesis is a str
        if not self._force:
            self._warn_if_tokenized(hyps)
        return stats

    def segment_rows(self, hypotheses: Sequence[str]) -> List[List[int]]:
        """``corpus_stats`` against the cached references, as lists."""
        return self.corpus_stats(hypotheses).rows()

    @staticmethod
    def sum_rows(rows: Sequence[Sequence[int]]) -> List[int]:
        """Statistics rows summed (integers: any order gives the same sums)."""
        return [sum(column) for column in zip(*rows)]

    def _plain_corpus_row(
        self, hypotheses: Any, references: Any, rows: Optional[np.ndarray] = None
    ) -> Optional[List[int]]:
        """``corpus_stats(...).total()`` in one compiled call, for a corpus in the plain shape
        (lists of str, no None reference) and a compiled tokenizer, with the per-segment rows
        written to ``rows`` if given; None for anything else, which the general path then
        handles (with its errors for bad input)."""
        if type(self.tokenizer) is not Tokenizer:  # library tokenizers rewrite lines first
            return None
        # The streams as the call finds them (corpus_row reads a snapshot taken at its start).
        num_refs = len(references) if type(references) is list else 0
        found = (_text_rows or _bind_text_rows()).corpus_row(
            hypotheses, references, self.tokenizer.code, self.lowercase, self.max_ngram_order, rows
        )
        if found is None:
            return None
        row, periods = found
        self.num_refs = num_refs
        if not self._force and periods >= 100:
            self._warn_tokenized()
        return row

    @classmethod
    def notice_hypotheses(cls, hypotheses: List[str]) -> None:
        """sacrebleu's warning for hypotheses that look tokenized already."""
        cls._warn_if_tokenized(hypotheses)

    @classmethod
    def _warn_if_tokenized(cls, hyps: List[str]) -> None:
        if _text_impl.tokenize.count_tokenized_periods(hyps) >= 100:
            cls._warn_tokenized()

    @staticmethod
    def _warn_tokenized() -> None:
        for line in _log.TOKENIZED_PERIODS:
            _log.warning(line)

    # -- scores -----------------------------------------------------------------------------
    def score_row(self, row: Any) -> BLEUScore:
        """The score of one aggregated statistics row (a list of ints, or a NumPy row)."""
        return sacrebleu_from_row(
            row, self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order
        )

    def score_stats(self, stats: BLEUStats) -> BLEUScore:
        """The corpus score of statistics rows."""
        return self.score_row(stats.total())

    score_of_stats = score_stats

    def resampler(self) -> Any:
        """BLEU's scoring for ``turbobleu.significance`` (from its options)."""
        from turbobleu._engine.bleu.resampler import BLEUResampler

        return BLEUResampler(
            self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order
        )

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        n_bootstrap: int = 1,
    ) -> BLEUScore:
        """Corpus BLEU; ``n_bootstrap > 1`` adds sacrebleu's bootstrap confidence interval."""
        if n_bootstrap == 1 and references is not None:
            row = self._plain_corpus_row(hypotheses, references)
            if row is not None:
                return self.score_row(row)
        stats = self.corpus_stats(hypotheses, references)
        score = self.score_stats(stats)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, score._mean, score._ci = self._confidence_interval(stats, n_bootstrap)
        return score

    def _confidence_interval(self, stats: BLEUStats, n_samples: int) -> Tuple[str, float, float]:
        """(seed text, mean, half-width) of sacrebleu's bootstrap: the same seed
        (``SACREBLEU_SEED``), the same resamples and the same scores."""
        from turbobleu.significance import confidence_interval, resolve_seed

        seed = resolve_seed()
        mean, ci = confidence_interval(stats, self, n_samples, seed.text)
        return seed.text, mean, ci

    def corpus_score_stream(
        self, hypotheses: Any, references: Any, chunk_size: int = 20000
    ) -> BLEUScore:
        """``corpus_score`` of iterables of lines or text files (paths), read ``chunk_size``
        segments at a time with their statistics summed: memory does not grow with the corpus
        (``turbobleu.stream``)."""
        from turbobleu._engine.streaming import corpus_score_stream

        return corpus_score_stream(self, hypotheses, references, chunk_size)

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> BLEUScore:
        """BLEU of one hypothesis against its references (a list of strings)."""
        # (the common call, a non-empty list and a compiled tokenizer, in the fewest steps)
        refs = (
            references
            if type(references) is list and references
            else sentence_references(references)
        )
        if not self.effective_order:
            _log.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        tokenizer = self.tokenizer
        if type(tokenizer) is Tokenizer and c_recipe_applies(
            self.smooth_method, self.max_ngram_order
        ):
            # Tokenized, counted and scored in one compiled call (the usual sentence_bleu).
            parts = (_text_rows or _bind_text_rows()).sentence_score_parts(
                hypothesis,
                refs,
                tokenizer.code,
                self.lowercase,
                self.max_ngram_order,
                self.smooth_method,
                self.smooth_value,
                self.effective_order,
                _NEUMAIER_SUM,
            )
            self.num_refs = len(refs) - refs.count(None)
            return BLEUScore(*parts)
        if type(tokenizer) is Tokenizer:  # a compiled one (library ones rewrite lines first)
            row = (_text_rows or _bind_text_rows()).sentence_row(
                hypothesis, refs, tokenizer.code, self.lowercase, self.max_ngram_order
            )
        else:
            hyp, refs, code, lower = tokenizer.prepare_sentence(hypothesis, refs, self.lowercase)
            row = (_text_rows or _bind_text_rows()).sentence_row(
                hyp, refs, code, lower, self.max_ngram_order
            )
        self.num_refs = len(refs) - refs.count(None)
        if c_recipe_applies(self.smooth_method, self.max_ngram_order):
            return sacrebleu_from_int_row(
                row,
                self.max_ngram_order,
                self.smooth_method,
                self.smooth_value,
                self.effective_order,
            )
        return self.score_row(row)

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> np.ndarray:
        """One sentence score per segment, in one call (float64 array).

        Each entry equals ``sentence_score(hypotheses[i], [refs[i] for refs in references])``.
        """
        import numpy as np

        rows: Optional[np.ndarray] = None
        if references is not None and type(hypotheses) is list and hypotheses:
            rows = np.empty((len(hypotheses), 2 + 2 * self.max_ngram_order), dtype=np.int64)
            if self._plain_corpus_row(hypotheses, references, rows) is None:
                rows = None
        if rows is None:
            rows = self.corpus_stats(hypotheses, references).array
        scores = np.empty(len(rows), dtype=np.float64)
        sacrebleu_scores_into(rows, self.options, scores)
        return scores

    def get_signature(self) -> BLEUSignature:
        if not hasattr(self, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return BLEUSignature(
            self.num_refs,
            self.lowercase,
            self.effective_order,
            self.tokenizer_signature,
            self.smooth_method,
            self.smooth_value,
            SMOOTH_DEFAULTS[self.smooth_method],
            self.n_bootstrap,
            self.seed,
        )

    # -- sacrebleu internals that significance code calls ----------------------------------
    # (the base's _extract_corpus_statistics and _compute_score_from_stats serve BLEU as they are)
    def _aggregate_and_compute(self, stats: Any) -> BLEUScore:
        rows = stats if isinstance(stats, BLEUStats) else BLEUStats(stats, self.max_ngram_order)
        return self.score_row(rows.rows()[0] if len(rows) == 1 else rows.total())


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU exactly as ``sacrebleu.corpus_bleu`` (raises on length mismatches)."""
    use_effective_order = check_truth(use_effective_order, "use_effective_order")
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.corpus_score(hypotheses, references)


def corpus_metric(use_effective_order: bool = False, **options: Any) -> BLEU:
    """The ``BLEU`` that ``corpus_bleu`` builds from its options (``smooth_method``,
    ``smooth_value``, ``force``, ``lowercase``, ``tokenize``, ``use_effective_order``)."""
    options.setdefault("tokenize", "13a")  # (corpus_bleu's default; BLEU's None picks by trg_lang)
    return BLEU(effective_order=use_effective_order, **options)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_value: Optional[float] = 0.1,
) -> BLEUScore:
    """``sacrebleu.raw_corpus_bleu``: floor smoothing, effective order, no tokenization."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[Optional[str]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU exactly as ``sacrebleu.sentence_bleu``."""
    use_effective_order = check_truth(use_effective_order, "use_effective_order")
    key: Optional[Tuple[Any, ...]] = (
        lowercase,
        tokenize,
        smooth_method,
        smooth_value,
        type(smooth_value),
        use_effective_order,
    )
    try:
        metric = _SENTENCE_METRICS.get(key)  # type: ignore[arg-type]
    except TypeError:  # an unhashable option (a list, an array): BLEU() below names it
        metric, key = None, None
    if metric is None:
        metric = BLEU(
            lowercase=lowercase,
            tokenize=tokenize,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=use_effective_order,
        )
        if key is not None and len(_SENTENCE_METRICS) < 64:
            _SENTENCE_METRICS[key] = metric
    return metric.sentence_score(hypothesis, references)


# sentence_bleu is called once per sentence in loops: reuse its BLEU objects (they hold no state
# that a call depends on) instead of building one per call as sacrebleu does.
_SENTENCE_METRICS: Dict[Tuple[Any, ...], BLEU] = {}
