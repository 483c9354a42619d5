"""chrF's bootstrap reads ``SACREBLEU_SEED`` as BLEU's does (and as sacrebleu shows it)."""

from __future__ import annotations

import pytest

sacrebleu = pytest.importorskip("sacrebleu")

import turbobleu  # noqa: E402

HYPS = ["the cat sat on the mat", "a dog barked twice", "it was raining"]
REFS = [["the cat sat on a mat", "a dog barked", "it rained"]]


@pytest.mark.parametrize("seed", ["None", "none", "42"])
def test_the_seed_text_in_the_signature_is_sacrebleus(monkeypatch, seed) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    want, got = sacrebleu.CHRF(), turbobleu.CHRF()
    a = want.corpus_score(HYPS, REFS, n_bootstrap=20)
    b = got.corpus_score(HYPS, REFS, n_bootstrap=20)
    assert str(got.get_signature()) == str(want.get_signature())
    assert f"seed:{seed.lower()}" in str(got.get_signature())
    if seed == "42":
        assert (b._mean, b._ci) == (a._mean, a._ci)


def test_a_seed_that_is_no_number_is_a_value_error(monkeypatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "twelve")
    with pytest.raises(ValueError, match="SACREBLEU_SEED must be an integer or 'none'"):
        turbobleu.CHRF().corpus_score(HYPS, REFS, n_bootstrap=20)
