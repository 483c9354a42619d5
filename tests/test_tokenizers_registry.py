"""The tokenizer registry and BLEU's tokenizer options, against sacrebleu's."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

import turbobleu
from turbobleu.tokenizers import Tokenizer, fast_tokenizers, get_tokenizer


def test_tokenizer_names_are_sacrebleus() -> None:
    assert list(turbobleu.BLEU.TOKENIZERS) == list(SacreBLEU.TOKENIZERS)
    assert turbobleu.available_tokenizers() == list(SacreBLEU.TOKENIZERS)
    assert "zh" in turbobleu.BLEU.TOKENIZERS and turbobleu.BLEU.TOKENIZER_DEFAULT == "13a"
    assert fast_tokenizers() == ["none", "13a", "intl", "zh", "char"]


@pytest.mark.parametrize("name", ["none", "13a", "intl", "zh", "char"])
def test_fast_tokenizer_signatures(name: str) -> None:
    assert (
        turbobleu.BLEU(tokenize=name).tokenizer_signature
        == SacreBLEU(tokenize=name).tokenizer_signature
        == name
    )


@pytest.mark.parametrize(
    "trg_lang, name", [("zh", "zh"), ("en", "13a"), ("", "13a"), ("de", "13a")]
)
def test_target_language_choice(trg_lang: str, name: str) -> None:
    assert turbobleu.BLEU(trg_lang=trg_lang).tokenizer.name == name
    assert SacreBLEU(trg_lang=trg_lang).tokenizer_signature == name


def test_unknown_and_wrong_type() -> None:
    with pytest.raises(ValueError, match=r"unknown tokenize='13b'; available: \['none', 'zh'"):
        turbobleu.BLEU(tokenize="13b")
    with pytest.raises(TypeError, match="tokenize must be a tokenizer name"):
        get_tokenizer(13)


def test_a_tokenizer_object_can_be_passed() -> None:
    tokenizer = get_tokenizer("intl")
    assert isinstance(tokenizer, Tokenizer) and repr(tokenizer) == "<turbobleu tokenizer 'intl'>"
    metric = turbobleu.BLEU(tokenize=tokenizer)
    assert metric.tokenizer is tokenizer and metric.tokenizer_signature == "intl"
    got = metric.corpus_score(["Hello, world!"], [["Hello world!"]])
    want = SacreBLEU(tokenize="intl").corpus_score(["Hello, world!"], [["Hello world!"]])
    assert (got.score, got.counts) == (want.score, want.counts)


def test_calling_a_tokenizer_needs_a_string() -> None:
    with pytest.raises(TypeError, match="line must be a str, got bytes"):
        get_tokenizer("zh")(b"abc")


@pytest.mark.parametrize(
    "packages,verb,pronoun",
    [("sentencepiece", "is", "it"), ("mecab-python3 and ipadic", "are", "them")],
)
def test_a_missing_extra_message_agrees_with_its_packages(
    packages: str, verb: str, pronoun: str
) -> None:
    """One package: "which is not installed ... Install it"; two: "which are ... them" (runs
    without the extras: the message is built from an ImportError given here)."""
    from turbobleu.tokenizers import SentencePieceTokenizer

    tokenizer = SentencePieceTokenizer("flores200", "/some/model")
    tokenizer.packages = packages
    message = str(tokenizer.missing(ImportError("No module named 'x'")))
    assert f"needs {packages}, which {verb} not installed (No module named 'x'). " in message
    assert f"Install {pronoun} with: pip install 'turbobleu[spm]'" in message
