"""chrF and chrF++ against sacrebleu 2.6.0 on real system outputs: WMT23 (when ../shared is
present) and the excerpt in tests/fixtures (always).

Every system of every pair is scored with chrF and chrF++ (defaults, refA); one system per pair
also with lowercase on, whitespace kept, and all references; the two-reference pairs also with
eps smoothing and other betas and orders (where the best reference depends on the F-score). For
each case the per-segment integer statistics must equal sacrebleu's, the corpus score and every
sentence score (``sentence_scores``, checked against sacrebleu's recipe on its own rows, which is
what its ``sentence_score`` computes) must be ``==``, and a few segments go through
``sentence_score`` end to end.

By default only the first system of each WMT23 pair runs, with the default options (the options
run on the fixture excerpt): sacrebleu's side is most of the time, and the pure-Python twins are
about as slow as sacrebleu. TURBOBLEU_TEST_FULL=1 runs all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import turbobleu
from conftest import FULL_MATRIX, HAVE_SHARED_DATA, Corpus, all_corpora, chosen_systems

SENTENCE_SAMPLES = 8  # segments per case that also go through sentence_score() end to end


@dataclass(frozen=True)
class Case:
    corpus: Corpus
    system: str
    refs: Tuple[str, ...]
    options: Dict[str, Any] = field(hash=False)

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "defaults"
        return f"{self.corpus.name}/{self.system}/{'+'.join(self.refs)}/{opts}"


def _cases() -> List[Any]:
    cases = []
    for corpus in all_corpora():
        ref_a = corpus.references[:1]
        for system in chosen_systems(corpus, every_fixture_system=False):
            for word_order in (0, 2):
                cases.append(Case(corpus, system, ref_a, {"word_order": word_order}))
        if not FULL_MATRIX and corpus.source == "wmt23":
            continue  # by default: the options on the fixture excerpt only
        first = corpus.systems[0]
        for word_order in (0, 2):
            for extra in ({"lowercase": True}, {"whitespace": True}):
                cases.append(Case(corpus, first, ref_a, {"word_order": word_order, **extra}))
        if len(corpus.references) > 1:
            for opts in (
                {"word_order": 0},
                {"word_order": 2, "lowercase": True},
                {"word_order": 2, "eps_smoothing": True},
                {"word_order": 0, "eps_smoothing": True, "beta": 1},
                {"char_order": 4, "word_order": 1, "beta": 3, "whitespace": True},
            ):
                cases.append(Case(corpus, first, corpus.references, opts))
    return [pytest.param(c, id=str(c)) for c in cases]


CASES = _cases()


def test_the_matrix_covers_the_wmt23_pairs_when_present() -> None:
    names = {c.values[0].corpus.name for c in CASES}
    assert any(n.startswith("fixture/") for n in names)
    if HAVE_SHARED_DATA:
        assert sum(n.startswith("wmt23/") for n in names) == 8


@pytest.mark.parametrize("case", CASES)
def test_chrf_statistics_and_scores_equal_sacrebleu(case: Case) -> None:
    hyps = case.corpus.hypotheses(case.system)
    refs = case.corpus.reference_streams(case.refs)
    sacre = SacreCHRF(**case.options)
    want_rows = sacre._extract_corpus_statistics(hyps, refs)
    want = sacre._aggregate_and_compute(want_rows)

    ours = turbobleu.CHRF(**case.options)
    rows = ours.corpus_stats(hyps, refs)
    assert rows.tolist() == want_rows
    got = ours.corpus_score(hyps, refs)
    assert got.score == want.score
    assert str(got) == str(want)
    assert str(ours.get_signature()) == str(sacre.get_signature())

    sentence = ours.sentence_scores(hyps, refs)
    want_sentence = [sacre._compute_f_score(row) for row in want_rows]
    assert sentence.tolist() == want_sentence

    step = max(1, len(hyps) // SENTENCE_SAMPLES)
    for i in range(0, len(hyps), step):
        segment_refs = [stream[i] for stream in refs]
        a = sacre.sentence_score(hyps[i], segment_refs)
        b = ours.sentence_score(hyps[i], segment_refs)
        assert (b.score, str(b)) == (a.score, str(a)), i


def test_cached_references_give_the_same_scores() -> None:
    corpus = all_corpora()[-1]
    refs = corpus.reference_streams(corpus.references)
    for word_order in (0, 2):
        sacre = SacreCHRF(word_order=word_order, references=refs)
        ours = turbobleu.CHRF(word_order=word_order, references=refs)
        for system in corpus.systems[:2]:
            hyps = corpus.hypotheses(system)
            assert ours.corpus_score(hyps).score == sacre.corpus_score(hyps, None).score
        assert str(ours.get_signature()) == str(sacre.get_signature())


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("threads", [1, 3])
def test_pairwise_matrix_equals_sacrebleu_sentence_scores(word_order: int, threads: int) -> None:
    corpus = all_corpora()[-1]
    hyps = corpus.hypotheses(corpus.systems[0])[:24] + ["", "  "]
    refs = corpus.reference_streams(corpus.references[:1])[0][5:25] + [""]
    sacre = SacreCHRF(word_order=word_order)
    want = np.array([[sacre.sentence_score(h, [r]).score for r in refs] for h in hyps])
    got = turbobleu.pairwise_chrf(hyps, refs, word_order=word_order, threads=threads)
    assert got.shape == want.shape
    assert got.tolist() == want.tolist()
