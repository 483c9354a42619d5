"""turbobleu against sacrebleu 2.x on real system outputs: WMT23 (when ../shared is present) and the
excerpt in tests/fixtures (always).

The matrix is every system of every pair, lowercase off and on, one reference (refA) and, where the
pair has them, two (refA+refB); max order 1..8; every smoothing with effective order off and on.

How it stays fast: sacrebleu is run once per (system, lowercase, references) at max order 8. The
statistics of order N are a prefix of those (matches_n and totals_n do not depend on N; the lengths
do not either), so one sacrebleu run checks all eight orders. The final floats are then compared
with sacrebleu's own ``BLEU.compute_bleu`` on sacrebleu's statistics, while turbobleu computes its
score from its own statistics. A few calls per pair go through both public functions end to end.

By default the WMT23 matrix is cut to one system per pair at orders 4 and 8 (sacrebleu's side is
most of its time, and the pure-Python twins are slower than sacrebleu); TURBOBLEU_TEST_FULL=1 runs
all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

import turbobleu
from conftest import (
    FULL_MATRIX,
    HAVE_SHARED_DATA,
    SMOOTHINGS,
    Corpus,
    all_corpora,
    assert_same_score,
    requires_wmt23,
    score_differences,
    score_key,
)

SACRE_ORDER = 8
SCORE_CONFIGS = tuple((method, value, eff) for method, value in SMOOTHINGS for eff in (False, True))
SENTENCE_SAMPLES = 12  # segments per case that also go through sentence_bleu() end to end


@dataclass(frozen=True)
class Case:
    """One system of one corpus, scored with one lowercase setting against one reference set."""

    corpus: Corpus
    system: str
    lowercase: bool
    refs: Tuple[str, ...]
    index: int  # the case's position in the matrix; spreads the rotating extra checks

    @property
    def orders(self) -> Tuple[int, ...]:
        if FULL_MATRIX or self.corpus.source == "fixture":
            return tuple(range(1, SACRE_ORDER + 1))
        return (4, 8)

    def hypotheses(self) -> List[str]:
        return self.corpus.hypotheses(self.system)

    def references(self) -> List[List[str]]:
        return self.corpus.reference_streams(self.refs)

    def __str__(self) -> str:
        return (
            f"{self.corpus.name}/{self.system}/{'+'.join(self.refs)}/"
            f"{'lc' if self.lowercase else 'cased'}"
        )


CORPORA = all_corpora()


def _matrix() -> List:
    params = []
    for pair_index, corpus in enumerate(CORPORA):
        refsets = [corpus.references[:1]] + (
            [corpus.references[:2]] if len(corpus.references) > 1 else []
        )
        twin_system = corpus.systems[pair_index % len(corpus.systems)]
        for system in corpus.systems:
            for refs in refsets:
                for lowercase in (False, True):
                    case = Case(corpus, system, lowercase, refs, len(params))
                    marks = []
                    if corpus.source == "wmt23" and not FULL_MATRIX and system != twin_system:
                        marks.append(
                            pytest.mark.skip(
                                reason="one system per pair by default "
                                "(TURBOBLEU_TEST_FULL=1 runs every system)"
                            )
                        )
                    params.append(pytest.param(case, id=str(case), marks=marks))
    return params


CASES = _matrix()


class Oracle:
    """Session cache of sacrebleu's and turbobleu's statistics (each is computed once)."""

    def __init__(self) -> None:
        self._sacre_metrics: Dict[tuple, SacreBLEU] = {}
        self._sacre_stats: Dict[tuple, np.ndarray] = {}
        self._turbo_metrics: Dict[tuple, turbobleu.BLEU] = {}
        self._turbo_stats: Dict[tuple, turbobleu.BLEUStats] = {}

    def sacre_stats(self, case: Case) -> np.ndarray:
        """sacrebleu's per-segment statistics at max order 8 (int64 rows)."""
        key = (case.corpus.name, case.system, case.lowercase, case.refs)
        if key not in self._sacre_stats:
            mkey = (case.corpus.name, case.lowercase, case.refs)
            if mkey not in self._sacre_metrics:
                # references= makes sacrebleu preprocess them once for all systems of the pair
                self._sacre_metrics[mkey] = SacreBLEU(
                    lowercase=case.lowercase,
                    max_ngram_order=SACRE_ORDER,
                    force=True,
                    references=case.references(),
                )
            rows = self._sacre_metrics[mkey]._extract_corpus_statistics(case.hypotheses(), None)
            self._sacre_stats[key] = np.array(rows, dtype=np.int64)
        return self._sacre_stats[key]

    def turbo_stats(self, case: Case, order: int) -> turbobleu.BLEUStats:
        key = (case.corpus.name, case.system, case.lowercase, case.refs, order)
        if key not in self._turbo_stats:
            mkey = (case.corpus.name, case.lowercase, case.refs, order)
            if mkey not in self._turbo_metrics:
                self._turbo_metrics[mkey] = turbobleu.BLEU(
                    lowercase=case.lowercase,
                    max_ngram_order=order,
                    force=True,
                    references=case.references(),
                )
            self._turbo_stats[key] = self._turbo_metrics[mkey].corpus_stats(case.hypotheses())
        return self._turbo_stats[key]


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return Oracle()


def columns(order: int) -> np.ndarray:
    """The columns of an order-8 statistics row that make the order-``order`` row."""
    return np.r_[0:2, 2 : 2 + order, 2 + SACRE_ORDER : 2 + SACRE_ORDER + order]


def sacre_score(row: List, order: int, method: str, value: Optional[float], eff: bool):
    """sacrebleu's score of one statistics row (fresh lists: add-k mutates its arguments)."""
    return SacreBLEU.compute_bleu(
        list(row[2 : 2 + order]),
        list(row[2 + order :]),
        int(row[0]),
        int(row[1]),
        method,
        value,
        eff,
        order,
    )


def _explain_rows(case: Case, order: int, got: np.ndarray, want: np.ndarray) -> str:
    if got.shape != want.shape:
        return f"{case} N={order}: turbobleu rows {got.shape} but sacrebleu rows {want.shape}"
    bad = np.flatnonzero((got != want).any(axis=1))
    seg = int(bad[0])
    refs = [stream[seg] for stream in case.references()]
    return (
        f"{case} N={order}: {len(bad)} segment rows differ; first is segment {seg}\n"
        f"  turbobleu {got[seg].tolist()}\n  sacrebleu {want[seg].tolist()}\n"
        f"  hypothesis {case.hypotheses()[seg]!r}\n  references {refs!r}"
    )


# -- the data itself -------------------------------------------------------------------------
@requires_wmt23
def test_wmt23_layout() -> None:
    """The shared data has the pairs, systems and references the matrix promises to cover."""
    wmt = {c.directory.name: c for c in CORPORA if c.source == "wmt23"}
    assert sorted(wmt) == ["de-en", "en-de", "en-he", "en-ja", "en-ru", "en-zh", "he-en", "zh-en"]
    for name, corpus in wmt.items():
        assert len(corpus.systems) == 4, name
        assert corpus.references == (("refA", "refB") if name in ("he-en", "en-he") else ("refA",))
        segments = len(corpus.reference_streams(corpus.references[:1])[0])
        for system in corpus.systems:
            assert len(corpus.hypotheses(system)) == segments, (name, system)


def test_fixture_layout() -> None:
    fixture = {c.directory.name: c for c in CORPORA if c.source == "fixture"}
    assert sorted(fixture) == ["he-en", "mixed"]
    assert fixture["he-en"].references == ("refA", "refB")
    assert len(fixture["he-en"].hypotheses(fixture["he-en"].systems[0])) == 60
    assert not HAVE_SHARED_DATA or any(c.source == "wmt23" for c in CORPORA)


# -- integer statistics ----------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_corpus_stats_equal_sacrebleu(case: Case, oracle: Oracle) -> None:
    full = oracle.sacre_stats(case)
    assert len(full) == len(case.hypotheses())
    for order in case.orders:
        stats = oracle.turbo_stats(case, order)
        assert stats.max_order == order
        got = np.array(stats.rows(), dtype=np.int64).reshape(len(stats), 2 + 2 * order)
        want = full[:, columns(order)]
        assert np.array_equal(got, want), _explain_rows(case, order, got, want)


# -- corpus scores ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_corpus_scores_equal_sacrebleu(case: Case, oracle: Oracle) -> None:
    full = oracle.sacre_stats(case)
    failures = []
    for order in case.orders:
        total = [int(x) for x in full[:, columns(order)].sum(axis=0)]
        stats = oracle.turbo_stats(case, order)
        for method, value, eff in SCORE_CONFIGS:
            metric = turbobleu.BLEU(
                lowercase=case.lowercase,
                max_ngram_order=order,
                smooth_method=method,
                smooth_value=value,
                effective_order=eff,
            )
            diffs = score_differences(
                metric.score_stats(stats), sacre_score(total, order, method, value, eff)
            )
            if diffs:
                failures.append(f"N={order} {method}/{value} eff={eff}: {'; '.join(diffs)}")
    assert not failures, f"{case}:\n" + "\n".join(failures)


@pytest.mark.parametrize("case", CASES)
def test_corpus_score_from_cached_references(case: Case, oracle: Oracle) -> None:
    """corpus_score() itself (default BLEU) on a BLEU object holding the references."""
    metric = turbobleu.BLEU(lowercase=case.lowercase, force=True, references=case.references())
    total = [int(x) for x in oracle.sacre_stats(case)[:, columns(4)].sum(axis=0)]
    assert_same_score(
        metric.corpus_score(case.hypotheses()), sacre_score(total, 4, "exp", None, False), str(case)
    )


# -- sentence scores -------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_sentence_scores_equal_sacrebleu(case: Case, oracle: Oracle) -> None:
    hyps, refs = case.hypotheses(), case.references()
    rows4 = oracle.sacre_stats(case)[:, columns(4)].tolist()

    # The batch API with sentence_bleu's defaults (exp smoothing, effective order), every segment.
    got = turbobleu.BLEU(
        lowercase=case.lowercase, effective_order=True, force=True
    ).sentence_scores(hyps, refs)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == (len(hyps),)
    want = [sacre_score(row, 4, "exp", None, True).score for row in rows4]
    bad = [i for i, (g, w) in enumerate(zip(got.tolist(), want)) if g != w]
    assert not bad, (
        f"{case}: {len(bad)} sentence scores differ; first segment {bad[0]}: "
        f"turbobleu {got[bad[0]]!r} sacrebleu {want[bad[0]]!r}"
    )

    # Two more smoothing/order configurations per case, rotating over the matrix, per segment.
    for k in (0, 1):
        method, value, eff = SCORE_CONFIGS[(2 * case.index + k) % len(SCORE_CONFIGS)]
        order = case.orders[(case.index + k) % len(case.orders)]
        metric = turbobleu.BLEU(
            max_ngram_order=order, smooth_method=method, smooth_value=value, effective_order=eff
        )
        sacre_rows = oracle.sacre_stats(case)[:, columns(order)].tolist()
        for seg, row in enumerate(oracle.turbo_stats(case, order).rows()):
            got_score = metric.score_row(row)
            want_score = sacre_score(sacre_rows[seg], order, method, value, eff)
            if score_key(got_score) != score_key(want_score):  # cheap check; details on failure
                pytest.fail(
                    f"{case} N={order} {method}/{value} eff={eff} segment {seg}: "
                    f"{score_differences(got_score, want_score)}"
                )

    # A sample of segments through both sentence_bleu() functions, end to end.
    step = max(1, len(hyps) // SENTENCE_SAMPLES)
    for seg in range(case.index % step, len(hyps), step):
        seg_refs = [stream[seg] for stream in refs]
        assert_same_score(
            turbobleu.sentence_bleu(hyps[seg], seg_refs, lowercase=case.lowercase),
            sacrebleu.sentence_bleu(hyps[seg], seg_refs, lowercase=case.lowercase),
            f"{case} sentence_bleu segment {seg}",
        )


# -- end to end, per pair --------------------------------------------------------------------
@pytest.mark.parametrize("corpus", CORPORA, ids=str)
def test_corpus_bleu_end_to_end(corpus: Corpus) -> None:
    refs = corpus.reference_streams(corpus.references[:2])
    calls = [
        (corpus.systems[0], refs, {}),
        (
            corpus.systems[-1],
            refs[:1],
            dict(lowercase=True, smooth_method="floor", smooth_value=0.5, use_effective_order=True),
        ),
    ]
    for system, streams, kwargs in calls:
        hyps = corpus.hypotheses(system)
        assert_same_score(
            turbobleu.corpus_bleu(hyps, streams, **kwargs),
            sacrebleu.corpus_bleu(hyps, streams, **kwargs),
            f"{corpus}/{system} {len(streams)} refs {kwargs}",
        )
