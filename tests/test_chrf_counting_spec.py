"""The compiled chrF counting (``_chrf.corpus_rows``, C) against its specification, the twin
``_chrf_py.corpus_rows`` (Counters of n-grams), on texts made to stress its shortcuts: a tiny
alphabet, so that n-grams repeat in one text and occur once in the other in every mix; copies
of the hypothesis with a few edits, so that long runs match and then stop (at a text's end, at
an edit); code points of every storage width; chrF++ words that repeat. The integer statistics
must be equal."""

from __future__ import annotations

import random
from typing import Any, List, Optional

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turbobleu._engine.chrf import _chrf_py

_chrf = pytest.importorskip("turbobleu._engine.chrf._chrf", reason="compiled chrF not built")

# Few letters (repeats everywhere), one wide and one astral, spaces for chrF++'s words.
ALPHABET = "ab" + "ab" + "c" + "\u00e9" + "\u4e2d" + "\U0001f600" + " " + "."
texts = st.text(alphabet=ALPHABET, max_size=40)


@st.composite
def edited(draw: Any, base: str) -> str:
    """``base`` with a few characters replaced, inserted or deleted, or cut at either end."""
    chars = list(base)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(chars)))
        what = draw(st.sampled_from(["replace", "insert", "delete", "cut_head", "cut_tail"]))
        letter = draw(st.sampled_from(ALPHABET))
        if what == "insert" or not chars:
            chars.insert(where, letter)
        elif what == "replace":
            chars[min(where, len(chars) - 1)] = letter
        elif what == "delete":
            del chars[min(where, len(chars) - 1)]
        elif what == "cut_head":
            chars = chars[where:]
        else:
            chars = chars[:where]
    return "".join(chars)


@st.composite
def corpora(draw: Any) -> Any:
    hyps: List[str] = []
    streams: List[List[Optional[str]]] = [[] for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 4))):
        hyp = draw(texts | st.text(alphabet="ab", max_size=60))
        hyps.append(hyp)
        for stream in streams:
            stream.append(draw(edited(hyp) | texts | st.just(hyp + hyp)))
    return hyps, streams


@settings(max_examples=600, deadline=None)
@given(
    corpus=corpora(),
    char_order=st.integers(0, 8),
    word_order=st.integers(0, 3),
    whitespace=st.booleans(),
)
def test_compiled_counting_is_the_specification(
    corpus: Any, char_order: int, word_order: int, whitespace: bool
) -> None:
    hyps, streams = corpus
    if char_order + word_order == 0:
        char_order = 1
    width = 3 * (char_order + word_order)
    compiled = np.full((len(hyps), width), -1, dtype=np.int64)
    spec = np.full((len(hyps), width), -1, dtype=np.int64)
    args = (hyps, streams, char_order, word_order, whitespace, 2, False)
    _chrf.corpus_rows(*args, compiled)
    _chrf_py.corpus_rows(*args, spec)
    assert compiled.tolist() == spec.tolist()


def test_a_run_that_matches_to_the_end_of_either_text() -> None:
    """Unique n-grams whose match runs into the end of the hypothesis, of the reference, and
    stops at an edit; counted by hand: 'xyzab' against 'xyzabq' and 'qxyzab'."""
    for ref, matches in (("xyzabq", [5, 4, 3, 2, 1, 0]), ("qxyzab", [5, 4, 3, 2, 1, 0])):
        out = np.zeros((1, 18), dtype=np.int64)
        _chrf.corpus_rows(["xyzab"], [[ref]], 6, 0, False, 2, False, out)
        assert out[0, 2::3].tolist() == matches
    out = np.zeros((1, 18), dtype=np.int64)
    _chrf.corpus_rows(["xyzab"], [["xyQab"]], 6, 0, False, 2, False, out)
    # unigrams x y a b; bigrams xy ab; nothing longer
    assert out[0, 2::3].tolist() == [4, 2, 0, 0, 0, 0]


def chunk_boundary_words() -> List[str]:
    """Words around the word buffer's chunks (8 units: the word, its separator, zeros): 1 to 25
    code points, pairs that differ only in their last unit, a trailing or leading U+0000 (the
    padding's value), an astral last unit, punctuation split off either edge."""
    words = []
    for k in (1, 6, 7, 8, 9, 15, 16, 17, 24, 25):
        base = ("abcdefgh" * 4)[:k]
        words += [base, base[:-1] + "z", base + "\x00", "\x00" + base, base[:-1] + "\U0001f600"]
        words += [base + ".", "," + base, base + "!."]
    return words


@pytest.mark.parametrize("word_order", [1, 2, 3])
def test_words_at_the_chunk_boundaries(word_order: int) -> None:
    """Corpus rows and the pairwise matrix (whose word n-grams span the padding) equal the
    specification's where the words straddle every chunk boundary."""
    rng = random.Random(word_order)
    words = chunk_boundary_words()
    hyps = [" ".join(rng.choices(words, k=rng.randint(0, 14))) for _ in range(40)]
    streams = [[" ".join(rng.choices(words, k=rng.randint(1, 14))) for _ in hyps] for _ in "ab"]
    width = 3 * (6 + word_order)
    compiled = np.full((len(hyps), width), -1, dtype=np.int64)
    spec = np.full((len(hyps), width), -1, dtype=np.int64)
    _chrf.corpus_rows(hyps, streams, 6, word_order, False, 2, False, compiled)
    _chrf_py.corpus_rows(hyps, streams, 6, word_order, False, 2, False, spec)
    assert compiled.tolist() == spec.tolist()
    assert compiled[:, 6 * 3 + 2].sum() > 0  # words do match
    refs = streams[0]
    matrix = np.zeros((len(hyps), len(refs)))
    spec_matrix = np.zeros((len(hyps), len(refs)))
    _chrf.pairwise_scores(hyps, refs, 6, word_order, False, 2, False, matrix)
    _chrf_py.pairwise_scores(hyps, refs, 6, word_order, False, 2, False, spec_matrix)
    assert matrix.tolist() == spec_matrix.tolist()


class ScoresWhileIndexed(list):  # type: ignore[type-arg]
    """A reference stream whose items are fetched by Python code that scores chrF++ first: a
    call into the counting from inside the counting, on the same thread (its kept memory is
    then in use, so the inner call must work in fresh memory)."""

    def __getitem__(self, i: Any) -> Any:
        inner = np.zeros((1, 24), dtype=np.int64)
        _chrf.corpus_rows(["ab ab"], [["ab ba"]], 6, 2, False, 2, False, inner)
        assert inner[0].tolist() == self.inner_row
        return list.__getitem__(self, i)

    inner_row: List[int] = []


def test_a_call_from_inside_a_call_gets_the_same_rows() -> None:
    hyps = ["the cat sat on the mat", "日本語の文です", "a b a b a"]
    refs = ["the cat sat on a mat", "日本語の文", "b a b a b"]
    inner = np.zeros((1, 24), dtype=np.int64)
    _chrf.corpus_rows(["ab ab"], [["ab ba"]], 6, 2, False, 2, False, inner)
    ScoresWhileIndexed.inner_row = inner[0].tolist()
    want = np.zeros((3, 24), dtype=np.int64)
    got = np.zeros((3, 24), dtype=np.int64)
    _chrf_py.corpus_rows(hyps, [refs], 6, 2, False, 2, False, want)
    _chrf.corpus_rows(hyps, [ScoresWhileIndexed(refs)], 6, 2, False, 2, False, got)
    assert got.tolist() == want.tolist()
    _chrf.corpus_rows(hyps, [refs], 6, 2, False, 2, False, got)  # the kept memory, reused
    assert got.tolist() == want.tolist()
