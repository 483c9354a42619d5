"""chrF wherever BLEU is: the ``turbobleu.sacrebleu`` drop-in, ``patch("sacrebleu")`` of the real
sacrebleu's CHRF, and the HF ``evaluate`` drop-in's ``load("chrf")``. Every comparison is against
results sacrebleu produced unpatched."""

from __future__ import annotations

from typing import List, Tuple

import pytest
import sacrebleu
import sacrebleu.compat
import sacrebleu.metrics.chrf
from sacrebleu.metrics import CHRF as EarlyCHRF  # imported before any patch

import turbobleu
import turbobleu.evaluate as tbe
import turbobleu.sacrebleu as standin
from conftest import FIXTURE_DATA, read_lines, unpatched_around_each_test
from turbobleu import patching
from turbobleu.sacrebleu import _patch as _patch_sacrebleu


def fixture_corpus() -> Tuple[List[str], List[List[str]]]:
    pair = FIXTURE_DATA / "he-en"
    return (
        read_lines(pair / "hyp.GPT4-5shot.en"),
        [read_lines(pair / "ref.refA.en"), read_lines(pair / "ref.refB.en")],
    )


HYPS, REFS = fixture_corpus()
OPTION_SETS = [{}, {"word_order": 2}, {"lowercase": True, "eps_smoothing": True, "beta": 1}]


never_leave_patched = unpatched_around_each_test(
    "sacrebleu", still_patched=_patch_sacrebleu.is_patched
)


# -- turbobleu.sacrebleu ------------------------------------------------------------------------
def test_the_standin_exposes_sacrebleus_chrf_names() -> None:
    assert standin.metrics.CHRF is standin.CHRF
    assert standin.metrics.METRICS["CHRF"] is standin.CHRF
    assert standin.compat.corpus_chrf is standin.corpus_chrf is turbobleu.corpus_chrf
    assert standin.sentence_chrf is turbobleu.sentence_chrf
    assert (standin.CHRF.CHAR_ORDER, standin.CHRF.WORD_ORDER, standin.CHRF.BETA) == (6, 0, 2)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_standin_scores_as_sacrebleu(options: dict) -> None:
    want, got = sacrebleu.CHRF(**options), standin.CHRF(**options)
    a, b = want.corpus_score(HYPS, REFS), got.corpus_score(HYPS, REFS)
    assert (b.score, str(b)) == (a.score, str(a))
    sig_a, sig_b = want.get_signature(), got.get_signature()
    assert (sig_b.format(), sig_b.format(short=True)) == (sig_a.format(), sig_a.format(short=True))
    json_a = a.format(signature=str(sig_a), is_json=True)
    assert b.format(signature=str(sig_b), is_json=True) == json_a
    assert b.format(width=4, score_only=True) == a.format(width=4, score_only=True)
    stats = want._extract_corpus_statistics(HYPS, REFS)
    assert got._extract_corpus_statistics(HYPS, REFS) == stats
    assert got._compute_f_score(stats[0]) == want._compute_f_score(stats[0])
    assert got._aggregate_and_compute(stats).score == a.score
    assert got._remove_punctuation(HYPS[0]) == want._remove_punctuation(HYPS[0])


def test_the_standin_functions_equal_sacrebleus() -> None:
    for kwargs in ({}, {"word_order": 2, "remove_whitespace": False}, {"eps_smoothing": True}):
        assert standin.corpus_chrf(HYPS, REFS, **kwargs).score == (
            sacrebleu.corpus_chrf(HYPS, REFS, **kwargs).score
        )
        refs = [REFS[0][4], REFS[1][4]]
        a = sacrebleu.sentence_chrf(HYPS[4], refs, **kwargs)
        assert standin.sentence_chrf(HYPS[4], refs, **kwargs).score == a.score


def test_the_bootstrap_interval_equals_sacrebleus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    want, got = sacrebleu.CHRF(word_order=2), standin.CHRF(word_order=2)
    a = want.corpus_score(HYPS, REFS, n_bootstrap=300)
    b = got.corpus_score(HYPS, REFS, n_bootstrap=300)
    assert (b._mean, b._ci) == (a._mean, a._ci)
    assert str(got.get_signature()) == str(want.get_signature())
    assert b.format(signature=str(got.get_signature())) == a.format(
        signature=str(want.get_signature())
    )


# -- patch("sacrebleu") -------------------------------------------------------------------------
def test_patch_makes_sacrebleus_chrf_count_in_turbobleu() -> None:
    early = EarlyCHRF(word_order=2)  # created before the patch
    want = [
        early.corpus_score(HYPS, REFS).score,
        early.sentence_score(HYPS[3], [r[3] for r in REFS]).score,
        sacrebleu.corpus_chrf(HYPS, REFS).score,
        sacrebleu.metrics.chrf.CHRF(references=REFS).corpus_score(HYPS, None).score,
    ]
    turbobleu.patch("sacrebleu")
    assert sacrebleu.corpus_chrf is turbobleu.corpus_chrf
    assert sacrebleu.compat.sentence_chrf is turbobleu.sentence_chrf
    cached = sacrebleu.metrics.chrf.CHRF(references=REFS)
    got = [
        early.corpus_score(HYPS, REFS).score,
        early.sentence_score(HYPS[3], [r[3] for r in REFS]).score,
        sacrebleu.corpus_chrf(HYPS, REFS).score,
        cached.corpus_score(HYPS, None).score,
    ]
    assert got == want
    # turbobleu did the work: its one deliberate difference, no silent truncation
    with pytest.raises(ValueError, match="sacrebleu would silently truncate"):
        early.corpus_score(HYPS[:5], REFS)
    turbobleu.unpatch("sacrebleu")
    assert sacrebleu.corpus_chrf is not turbobleu.corpus_chrf
    # the cache made while patched still works with sacrebleu's own code
    assert cached.corpus_score(HYPS, None).score == want[3]
    early.corpus_score(HYPS[:5], REFS)  # sacrebleu's truncation again


def test_patch_leaves_subclasses_that_change_the_statistics_to_sacrebleu() -> None:
    class Upper(sacrebleu.metrics.chrf.CHRF):
        def _preprocess_segment(self, sent: str) -> str:
            return sent.upper()

    want = Upper().corpus_score(HYPS, REFS).score
    with patching.patched("sacrebleu"):
        assert Upper().corpus_score(HYPS, REFS).score == want
        Upper().corpus_score(HYPS[:5], REFS)  # sacrebleu's code: truncates silently


# -- evaluate.load("chrf") ----------------------------------------------------------------------
def evaluate_reference(predictions: List[str], references: List[List[str]], **kwargs: object):
    """What evaluate's chrf metric computes: sacrebleu's corpus chrF on transposed references."""
    streams = [[refs[i] for refs in references] for i in range(len(references[0]))]
    return sacrebleu.CHRF(**kwargs).corpus_score(predictions, streams)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_evaluate_chrf_equals_its_sacrebleu_recipe(options: dict) -> None:
    per_prediction = [list(refs) for refs in zip(*REFS)]
    want = evaluate_reference(HYPS, per_prediction, **options)
    metric = tbe.load("chrf")
    got = metric.compute(predictions=HYPS, references=per_prediction, **options)
    assert got == {
        "score": want.score,
        "char_order": want.char_order,
        "word_order": want.word_order,
        "beta": want.beta,
    }
    metric.add_batch(predictions=HYPS[:10], references=REFS[0][:10])  # one string per prediction
    metric.add(prediction=HYPS[10], reference=REFS[0][10])
    single = evaluate_reference(HYPS[:11], [[r] for r in REFS[0][:11]], **options)
    assert metric.compute(**options)["score"] == single.score


def test_evaluate_chrf_errors() -> None:
    with pytest.raises(ValueError, match="same number of references for each prediction"):
        tbe.compute_chrf(["a", "b"], [["a"], ["b", "c"]])
    assert tbe.load("evaluate-metric/chrf").name == "chrf"
