"""Score text, JSON and signatures: character for character what sacrebleu prints.

Compared on the he-en fixture (real text, two references) for several configurations: defaults,
lowercase, each smoothing with its default and an explicit value, effective order, tokenize none,
a variable number of references (None entries), and bootstrap confidence intervals.
"""

from __future__ import annotations

from typing import List, Optional

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

import turbobleu
from conftest import FIXTURE_DATA, assert_same_score, read_lines

HE_EN = FIXTURE_DATA / "he-en"
HYPS = read_lines(HE_EN / "hyp.NLLB_Greedy.en")
REF_A = read_lines(HE_EN / "ref.refA.en")
REF_B = read_lines(HE_EN / "ref.refB.en")
# refB with a hole every third segment: the number of references varies (signature "nrefs:var")
REF_B_HOLES: List[Optional[str]] = [None if i % 3 == 0 else r for i, r in enumerate(REF_B)]

CONFIGS = [
    pytest.param({}, id="defaults"),
    pytest.param({"lowercase": True}, id="lowercase"),
    pytest.param({"smooth_method": "floor"}, id="floor-default"),
    pytest.param({"smooth_method": "floor", "smooth_value": 0.5}, id="floor-0.5"),
    pytest.param({"smooth_method": "add-k"}, id="add-k-default"),
    pytest.param({"smooth_method": "add-k", "smooth_value": 2}, id="add-k-2"),
    pytest.param({"smooth_method": "none"}, id="none"),
    pytest.param({"smooth_method": "exp", "smooth_value": 3.0}, id="exp-ignores-value"),
    pytest.param({"effective_order": True, "lowercase": True}, id="effective-lowercase"),
    pytest.param({"tokenize": "none"}, id="tokenize-none"),
    pytest.param({"max_ngram_order": 2}, id="order-2"),
]
REFERENCE_SETS = [
    pytest.param([REF_A], id="1ref"),
    pytest.param([REF_A, REF_B], id="2refs"),
    pytest.param([REF_A, REF_B_HOLES], id="var-refs"),
]


def assert_same_text(got, want, got_metric, want_metric) -> None:
    """Every rendering of the score and the signature."""
    for short in (False, True):
        assert got_metric.get_signature().format(short=short) == want_metric.get_signature().format(
            short=short
        )
    assert str(got_metric.get_signature()) == str(want_metric.get_signature())
    signature = str(want_metric.get_signature())
    assert str(got) == str(want) and repr(got) == repr(want)
    for width in (0, 1, 2, 4):
        for score_only in (False, True):
            assert got.format(width=width, score_only=score_only) == want.format(
                width=width, score_only=score_only
            )
            assert got.format(
                width=width, score_only=score_only, signature=signature
            ) == want.format(width=width, score_only=score_only, signature=signature)
            assert got.format(
                width=width, score_only=score_only, signature=signature, is_json=True
            ) == want.format(width=width, score_only=score_only, signature=signature, is_json=True)
    assert got.prec_str == want.prec_str and got.ratio == want.ratio


@pytest.mark.parametrize("refs", REFERENCE_SETS)
@pytest.mark.parametrize("config", CONFIGS)
def test_corpus_score_text_and_signature(config: dict, refs) -> None:
    want_metric, got_metric = SacreBLEU(**config), turbobleu.BLEU(**config)
    want, got = want_metric.corpus_score(HYPS, refs), got_metric.corpus_score(HYPS, refs)
    assert_same_score(got, want, str(config))
    assert_same_text(got, want, got_metric, want_metric)


@pytest.mark.parametrize("config", CONFIGS)
def test_sentence_score_text_and_signature(config: dict) -> None:
    config = dict(config, effective_order=True)
    want_metric, got_metric = SacreBLEU(**config), turbobleu.BLEU(**config)
    for i in (0, 3, 7):
        refs = [REF_A[i], REF_B_HOLES[i]]
        want, got = (
            want_metric.sentence_score(HYPS[i], refs),
            got_metric.sentence_score(HYPS[i], refs),
        )
        assert_same_score(got, want, f"{config} segment {i}")
        assert_same_text(got, want, got_metric, want_metric)


@pytest.mark.parametrize("seed", [None, "7"])
@pytest.mark.parametrize("n_bootstrap", [2, 50])
def test_bootstrap_confidence_text(monkeypatch, seed: Optional[str], n_bootstrap: int) -> None:
    """corpus_score(n_bootstrap=...) adds "(μ = ... ± ...)" and "bs:|seed:" as sacrebleu does,
    from the same NumPy resamples; the signature keeps them for later scores of the same object."""
    if seed is None:
        monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    else:
        monkeypatch.setenv("SACREBLEU_SEED", seed)
    refs = [REF_A, REF_B]
    want_metric, got_metric = SacreBLEU(), turbobleu.BLEU()
    want = want_metric.corpus_score(HYPS, refs, n_bootstrap=n_bootstrap)
    got = got_metric.corpus_score(HYPS, refs, n_bootstrap=n_bootstrap)
    assert_same_score(got, want)
    assert (got._mean, got._ci) == (want._mean, want._ci)
    assert "μ = " in want.format() and f"bs:{n_bootstrap}" in str(want_metric.get_signature())
    assert_same_text(got, want, got_metric, want_metric)
    # a later plain score of the same object still carries the bootstrap fields in its signature
    want, got = want_metric.corpus_score(HYPS, [REF_A]), got_metric.corpus_score(HYPS, [REF_A])
    assert_same_text(got, want, got_metric, want_metric)


def test_cached_references_then_explicit_ones_update_nrefs() -> None:
    want_metric = SacreBLEU(references=[REF_A, REF_B])
    got_metric = turbobleu.BLEU(references=[REF_A, REF_B])
    assert_same_text(
        got_metric.corpus_score(HYPS), want_metric.corpus_score(HYPS, None), got_metric, want_metric
    )
    assert_same_text(
        got_metric.corpus_score(HYPS, [REF_A]),
        want_metric.corpus_score(HYPS, [REF_A]),
        got_metric,
        want_metric,
    )
    assert "nrefs:1" in str(got_metric.get_signature())


@pytest.mark.parametrize(
    "hyps,refs",
    [
        pytest.param([""], [[None]], id="no-reference-empty-hypothesis"),  # ratio -0.000
        pytest.param(["a"], [["a"]], id="perfect-one-token"),  # 100.00000000000004
        pytest.param(["the cat sat on the mat"], [["the cat sat on the mat"]], id="perfect"),
        pytest.param(["", ""], [["a b", ""]], id="empty-hypotheses"),
        pytest.param(["x y z"], [["a b c"]], id="no-match"),
    ],
)
def test_degenerate_scores_text(hyps: List[str], refs) -> None:
    for config in ({}, {"effective_order": True}, {"smooth_method": "floor"}):
        want_metric, got_metric = SacreBLEU(**config), turbobleu.BLEU(**config)
        want, got = want_metric.corpus_score(hyps, refs), got_metric.corpus_score(hyps, refs)
        assert_same_score(got, want, f"{hyps} {refs} {config}")
        assert_same_text(got, want, got_metric, want_metric)


def test_json_needs_a_signature_unless_score_only() -> None:
    want = SacreBLEU().corpus_score(HYPS, [REF_A])
    got = turbobleu.BLEU().corpus_score(HYPS, [REF_A])
    with pytest.raises(ValueError):
        want.format(is_json=True)
    with pytest.raises(ValueError, match="signature"):
        got.format(is_json=True)
    assert got.format(is_json=True, score_only=True) == want.format(is_json=True, score_only=True)


def test_signature_fields_and_version() -> None:
    metric = turbobleu.BLEU(
        lowercase=True, smooth_method="floor", smooth_value=0.25, effective_order=True
    )
    metric.corpus_score(HYPS, [REF_A, REF_B_HOLES])
    assert str(metric.get_signature()) == (
        "nrefs:var|case:lc|eff:yes|tok:13a|smooth:floor[0.25]|version:2.6.0"
    )
    assert metric.get_signature().format(short=True) == (
        "#:var|c:lc|e:yes|tok:13a|s:floor[0.25]|v:2.6.0"
    )
