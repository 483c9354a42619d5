"""The mbrs adapter: mbrs' decoders with turbobleu's BLEU metric give the same output as with
mbrs' own MetricBLEU. Runs where mbrs is installed (pip install "setuptools<81" mbrs)."""

from __future__ import annotations

import pytest

from conftest import all_corpora

mbrs = pytest.importorskip(
    "mbrs", reason='mbrs is not installed (pip install "setuptools<81", then pip install mbrs)'
)
torch = pytest.importorskip("torch", reason="mbrs without torch")

from mbrs.decoders import DecoderMBR, DecoderProbabilisticMBR, DecoderPruningMBR  # noqa: E402
from mbrs.metrics import MetricBLEU  # noqa: E402

from turbobleu.mbr import mbrs_bleu_metric  # noqa: E402

CONFIGS = [
    {},
    {"smooth_method": "floor", "smooth_value": 0.2},
    {"smooth_method": "add-k", "max_ngram_order": 3},
    {"smooth_method": "none", "effective_order": False},
    {"lowercase": True, "tokenize": "intl"},
    {"tokenize": "char"},
]


def candidates(n_sources, per_source):
    corpus = next(c for c in all_corpora() if c.source == "fixture")
    systems = [corpus.hypotheses(s) for s in corpus.systems]
    refs = corpus.reference_streams(corpus.references[:1])[0]
    lines = [line for k in range(len(refs)) for line in [refs[k], *(s[k] for s in systems)]]
    return [lines[s * per_source : (s + 1) * per_source] for s in range(n_sources)]


def pair(options):
    ours = mbrs_bleu_metric(num_workers=1, **options)
    theirs = MetricBLEU(MetricBLEU.Config(num_workers=1, **options))
    assert isinstance(ours, MetricBLEU)
    return ours, theirs


def same_output(a, b):
    assert a.idx == b.idx
    assert a.sentence == b.sentence
    assert a.score == b.score


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(map(str, o.values())))
def test_metric_scores_are_identical_tensors(options):
    ours, theirs = pair(options)
    hyps, refs = candidates(2, 13)
    got, want = ours.pairwise_scores(hyps, refs), theirs.pairwise_scores(hyps, refs)
    assert got.dtype == want.dtype and torch.equal(got, want)
    assert torch.equal(ours.scores(hyps, refs), theirs.scores(hyps, refs))
    assert ours.score(hyps[0], refs[1]) == theirs.score(hyps[0], refs[1])
    assert type(ours.score(hyps[0], refs[1])) is float


@pytest.mark.parametrize("options", CONFIGS[:3], ids=lambda o: ",".join(map(str, o.values())))
def test_mbr_decoder_output_is_identical(options):
    ours, theirs = pair(options)
    for group in candidates(6, 10):
        got = DecoderMBR(DecoderMBR.Config(), ours).decode(group, group, nbest=3)
        want = DecoderMBR(DecoderMBR.Config(), theirs).decode(group, group, nbest=3)
        same_output(got, want)
        lprobs = torch.linspace(-3.0, 0.0, len(group))
        got = DecoderMBR(DecoderMBR.Config(), ours).decode(group, group, reference_lprobs=lprobs)
        want = DecoderMBR(DecoderMBR.Config(), theirs).decode(group, group, reference_lprobs=lprobs)
        same_output(got, want)


def test_pruning_and_probabilistic_decoders_are_identical():
    ours, theirs = pair({})
    group = candidates(1, 40)[0]
    cfg = DecoderPruningMBR.Config(sampling_scheduler=[8, 16, 40], num_bootstrap_samples=50)
    same_output(
        DecoderPruningMBR(cfg, ours).decode(group, group, nbest=2),
        DecoderPruningMBR(cfg, theirs).decode(group, group, nbest=2),
    )
    cfg = DecoderProbabilisticMBR.Config(reduction_factor=4.0)
    same_output(
        DecoderProbabilisticMBR(cfg, ours).decode(group, group, nbest=2),
        DecoderProbabilisticMBR(cfg, theirs).decode(group, group, nbest=2),
    )


def test_metric_refuses_mismatched_lists_and_cfg_with_options():
    ours, _ = pair({})
    with pytest.raises(ValueError, match="references"):
        ours.scores(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="cfg"):
        mbrs_bleu_metric(MetricBLEU.Config(), lowercase=True)


def test_a_tokenizer_turbobleu_lacks_falls_back_to_sacrebleus_own():
    ours, theirs = pair({"tokenize": "intl"})
    ours.scorer.tokenizer_signature = "no-such-tokenizer"  # as for ja-mecab's versioned name
    assert callable(ours._tokenize())
    hyps, refs = candidates(2, 9)
    assert torch.equal(ours.pairwise_scores(hyps, refs), theirs.pairwise_scores(hyps, refs))
