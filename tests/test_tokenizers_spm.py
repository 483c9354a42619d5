"""spm, flores101, flores200 and spBLEU-1K against sacrebleu's, with a model trained here.

sacrebleu downloads its SentencePiece models; tests never do. A small model is trained offline
from the fixture text, then placed where both libraries look: sacrebleu's model cache
(``$SACREBLEU/models/<file>``; sacrebleu's copy of that path is patched, and its downloader is
replaced by one that fails the test). turbobleu must give sacrebleu's tokens with the same model,
from the cache and from an explicit path. Skips (naming the extra) without sentencepiece.
"""

from __future__ import annotations

import io
import logging
import shutil
import sys
from pathlib import Path
from typing import Iterator, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip(
    "sentencepiece",
    reason="the SentencePiece tokenizers need sentencepiece: pip install 'turbobleu[spm]'",
)
import sacrebleu  # noqa: E402
import sentencepiece  # noqa: E402
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402
from sacrebleu.tokenizers import tokenizer_spm  # noqa: E402

import turbobleu  # noqa: E402
from conftest import (
    FIXTURE_DATA,
    FULL_MATRIX,
    SHARED_DATA,
    assert_same_score,
    data_files,  # noqa: E402
    first_token_difference,
    read_lines,
    unique_data_files,
)
from turbobleu import tokenizers  # noqa: E402
from turbobleu._engine.text import chosen as _text_impl
from turbobleu.tokenizers import MissingExtraError, SentencePieceTokenizer  # noqa: E402

NAMES = ("spm", "flores101", "flores200", "spBLEU-1K")
# sacrebleu 2.6.0 logs its spm deprecation with the deprecated Logger.warn.
pytestmark = pytest.mark.filterwarnings("ignore:The .warn. method is deprecated:DeprecationWarning")
TWIN_STRIDE = 5


def _training_text() -> List[str]:
    lines = []
    for path in data_files(FIXTURE_DATA):
        lines.extend(read_lines(path))
    return lines


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SentencePiece model (unigram, NFKC normalisation as in the FLORES models), trained
    offline on the fixture text."""
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(_training_text()),
        model_writer=model,
        vocab_size=800,
        character_coverage=0.9995,
        minloglevel=2,
    )
    path = tmp_path_factory.mktemp("spm") / "tiny.model"
    path.write_bytes(model.getvalue())
    return path


@pytest.fixture()
def cache(model_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """sacrebleu's model cache, holding the tiny model under every SentencePiece model name,
    for both libraries; sacrebleu may not download."""
    home = tmp_path / "sacrebleu-home"
    (home / "models").mkdir(parents=True)
    for file_name, _, _ in tokenizers.SPM_MODELS.values():
        shutil.copy(model_file, home / "models" / file_name)
    monkeypatch.setenv("SACREBLEU", str(home))
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(home))

    def no_download(url: str, path: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"sacrebleu tried to download {url}")

    monkeypatch.setattr(tokenizer_spm, "download_file", no_download)
    yield home


def sacre_tokens(lines: List[str], name: str, lowercase: bool) -> List[List[str]]:
    metric = SacreBLEU(tokenize=name, lowercase=lowercase)
    return [metric._preprocess_segment(line).split() for line in lines]


@pytest.mark.parametrize("path", unique_data_files(FIXTURE_DATA) + unique_data_files(SHARED_DATA))
def test_real_lines_tokenize_like_sacrebleu(path: Path, cache: Path) -> None:
    lines = read_lines(path)
    if not FULL_MATRIX and SHARED_DATA in path.parents:
        lines = lines[::TWIN_STRIDE]
    tokenizer = turbobleu.get_tokenizer("flores101")
    for lowercase in (False, True):
        ready, code, lower = tokenizer.prepare(lines, lowercase)
        got = _text_impl.tokenize.tokenize_strings(ready, code, lower)
        want = sacre_tokens(lines, "flores101", lowercase)
        assert got == want, f"{path} lowercase={lowercase}: " + first_token_difference(
            got, want, lines
        )


NFKC_AND_SPACES = [
    "℡",
    "ＡＢＣ",
    "ﬁ",
    "①",
    "㍻",
    "Å",
    "\u00a0",
    "\u3000",
    "\x1c",
    "\u200b",
    "\t",
    "  ",
    "İ",
    "Σ",
    "東京",
    "▁",
    " ",
    "a",
    ".",
]
text = st.lists(
    st.one_of(st.sampled_from(NFKC_AND_SPACES), st.characters(blacklist_categories=("Cs",))),
    max_size=25,
).map("".join)


@given(
    lines=st.lists(text, min_size=1, max_size=4),
    lowercase=st.booleans(),
    name=st.sampled_from(NAMES),
)
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_generated_text(cache: Path, lines: List[str], lowercase: bool, name: str) -> None:
    """Includes NFKC rewrites that produce capitals ('℡' -> 'TEL'): lowercasing happens once,
    before SentencePiece, never after."""
    tokenizer = turbobleu.get_tokenizer(name)
    got = [tokenizer.split(line, lowercase) for line in lines]
    assert got == sacre_tokens(lines, name, lowercase)


@pytest.mark.parametrize("name", NAMES)
def test_signatures_and_scores_equal_sacrebleu(name: str, cache: Path) -> None:
    hyps = ["The cat sat on the mat.", "東京へ行きます。", "℡ ＡＢＣ", ""]
    refs = [
        ["The cat is on the mat.", "東京に行きます。", "tel abc", "x"],
        ["A cat sat on a mat.", None, "TEL ABC", ""],
    ]
    for lowercase in (False, True):
        ours = turbobleu.BLEU(tokenize=name, lowercase=lowercase)
        theirs = SacreBLEU(tokenize=name, lowercase=lowercase)
        assert ours.tokenizer_signature == theirs.tokenizer_signature
        got, want = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
        assert_same_score(got, want, f"{name} lowercase={lowercase}")
        assert str(ours.get_signature()) == str(theirs.get_signature())
        for i, hyp in enumerate(hyps):
            seg = [stream[i] for stream in refs]
            g = turbobleu.sentence_bleu(hyp, seg, tokenize=name, lowercase=lowercase)
            w = sacrebleu.sentence_bleu(hyp, seg, tokenize=name, lowercase=lowercase)
            assert_same_score(g, w, f"{name} lowercase={lowercase} segment {i}")


def test_spm_is_flores101_with_a_warning(cache: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert turbobleu.BLEU(tokenize="spm").tokenizer_signature == "flores101"
    assert "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future." in [
        r.getMessage() for r in caplog.records if r.name == "turbobleu"
    ]


def test_explicit_model_path(
    model_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model outside sacrebleu's cache, given by path (the cache is empty here)."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty-cache"))
    tokenizer = turbobleu.get_tokenizer("flores200", model_path=str(model_file))
    assert tokenizer.signature() == "flores200"
    processor = sentencepiece.SentencePieceProcessor()
    processor.Load(str(model_file))
    line = "Hello, World! ℡"
    assert tokenizer(line) == " ".join(processor.EncodeAsPieces(line))
    metric = turbobleu.BLEU(tokenize=tokenizer)
    score = metric.corpus_score(["Hello world"], [["Hello world"]])
    assert score.score == 100.00000000000004 and metric.tokenizer_signature == "flores200"
    with pytest.raises(FileNotFoundError, match="sacrebleu's model cache"):
        turbobleu.BLEU(tokenize="flores200")


@pytest.mark.parametrize("name", NAMES)
def test_missing_model_says_how_to_get_it(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    file_name, _, url = tokenizers.SPM_MODELS[name]
    with pytest.raises(FileNotFoundError) as info:
        turbobleu.BLEU(tokenize=name)
    message = str(info.value)
    for part in (
        file_name,
        url,
        "never downloads",
        "model_path",
        str(tmp_path / "models" / file_name),
    ):
        assert part in message
    with pytest.raises(FileNotFoundError, match="the given model_path"):
        turbobleu.get_tokenizer(name, model_path=str(tmp_path / "nowhere.model"))


def test_missing_sentencepiece_names_the_pip_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'turbobleu\[spm\]'") as info:
        SentencePieceTokenizer("flores200", "/some/model").load()
    # One package: "which is not installed ... Install it" (it said "which are ... them").
    message = str(info.value)
    assert "needs sentencepiece, which is not installed (" in message
    assert "Install it with: pip install" in message
    with pytest.raises(ImportError):  # what sacrebleu raises; code catching it still works
        SentencePieceTokenizer("flores200", "/some/model").load()


def test_model_path_is_only_for_sentencepiece() -> None:
    with pytest.raises(ValueError, match="model_path is only for the SentencePiece"):
        turbobleu.get_tokenizer("13a", model_path="x.model")
