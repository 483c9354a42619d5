"""chrF / chrF++ against sacrebleu 2.6.0 on generated Unicode text: combining marks, every kind
of Python whitespace, punctuation at word edges, case pairs whose lowercase changes length
(``'İ'``) or depends on context (final sigma), astral characters, empty strings and several
references (some None); every option drawn. Integer statistics, corpus scores, sentence scores,
the pairwise matrix and the error for bad input are compared."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import turbobleu
from turbobleu._engine.chrf.recipe import PUNCTUATION, chrf_words

# Characters chosen for what chrF treats specially; words are made of them.
LETTERS = "abcAB" + "éÉİıΣσς" + "\u0301\u0308" + "中文" + "\U0001f600"
PUNCT = "".join(sorted(PUNCTUATION)) + "«»…"
SPACES = (
    " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2003\u200a\u2028\u2029\u202f\u205f\u3000"
)
NOT_SPACE = "\u200b\ufeff"  # zero-width characters that Python does not split on

# Words from a small vocabulary (so that hypotheses and references share some, in new company)
# or made up.
COMMON = ["a", "b", "ab", '"', "-", "—", '"a', 'a"', "(b)", "a.", "σ", "Σς"]
word = st.sampled_from(COMMON) | st.text(
    alphabet=LETTERS + PUNCT + NOT_SPACE, min_size=1, max_size=6
)
text = st.builds(
    lambda words, gaps: "".join(w + g for w, g in zip(words, gaps)),
    st.lists(word, max_size=8),
    st.lists(st.text(alphabet=SPACES, min_size=1, max_size=2), min_size=8, max_size=8),
) | st.sampled_from(["", " ", "\u3000", "a", ".", "(hi)", "a.b. ,c"])

options = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 7),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


def shuffled(sentence: str) -> Any:
    """The sentence's words in another order, some dropped or doubled."""
    words = sentence.split()
    return (
        st.lists(st.sampled_from(words), max_size=len(words) + 2).map(" ".join)
        if words
        else st.just("")
    )


@st.composite
def corpora(draw: Any) -> Tuple[List[str], List[List[Optional[str]]]]:
    segments = draw(st.integers(1, 4))
    n_refs = draw(st.integers(1, 3))
    hyps = [draw(text) for _ in range(segments)]
    streams: List[List[Optional[str]]] = [[] for _ in range(n_refs)]
    for i in range(segments):
        # References copy and edit the hypothesis often, so that n-grams match.
        entries = [
            draw(
                st.one_of(
                    text, st.just(hyps[i]), st.just(hyps[i][::-1]), st.none(), shuffled(hyps[i])
                )
            )
            for _ in range(n_refs)
        ]
        if all(e is None for e in entries):
            entries[0] = draw(text)
        for k, e in enumerate(entries):
            streams[k].append(e)
    return hyps, streams


@given(corpus=corpora(), opts=options)
@settings(max_examples=300)
def test_statistics_and_scores_equal_sacrebleu(
    corpus: Tuple[List[str], List[List[Optional[str]]]], opts: Dict[str, Any]
) -> None:
    hyps, refs = corpus
    sacre = SacreCHRF(**opts)
    want_rows = sacre._extract_corpus_statistics(hyps, refs)
    ours = turbobleu.CHRF(**opts)
    assert ours.corpus_stats(hyps, refs).tolist() == want_rows
    assert ours.corpus_score(hyps, refs).score == sacre._aggregate_and_compute(want_rows).score
    sentence = ours.sentence_scores(hyps, refs)
    for i, hyp in enumerate(hyps):
        segment_refs = [s[i] for s in refs]
        assert sentence[i] == sacre.sentence_score(hyp, segment_refs).score
        assert ours.sentence_score(hyp, segment_refs).score == sentence[i]
    assert str(ours.get_signature()) == str(sacre.get_signature())


@given(
    hyps=st.lists(text, min_size=1, max_size=4),
    refs=st.lists(text, min_size=1, max_size=4),
    opts=options,
    threads=st.sampled_from([1, 2]),
)
@settings(max_examples=150)
def test_pairwise_matrix_equals_sacrebleu(
    hyps: List[str], refs: List[str], opts: Dict[str, Any], threads: int
) -> None:
    sacre = SacreCHRF(**opts)
    want = [[sacre.sentence_score(h, [r]).score for r in refs] for h in hyps]
    got = turbobleu.CHRF(**opts).pairwise_scores(hyps, refs, threads=threads)
    assert got.tolist() == want


def long_words(rng: random.Random) -> List[str]:
    """Words of 1 to 25 code points (the compiled word buffer holds words in 8-unit chunks), with
    every ASCII punctuation mark on some edge, U+0000 (the chunks' padding value) and astral
    characters inside."""
    alphabet = LETTERS + "\x00" + NOT_SPACE
    words = []
    for size in (1, 6, 7, 8, 9, 15, 16, 17, 24, 25):
        words += ["".join(rng.choices(alphabet, k=size)) for _ in range(3)]
    for mark in sorted(PUNCTUATION):
        core = "".join(rng.choices(alphabet, k=rng.choice((7, 8, 16))))
        words += [core + mark, mark + core, core[:-1] + mark]
    return words


@pytest.mark.parametrize("word_order", [1, 2, 3])
def test_long_words_equal_sacrebleu(word_order: int) -> None:
    """The words of the generated texts above stay short; here they straddle the word buffer's
    chunks and carry every punctuation mark at an edge: integer statistics first, then corpus,
    sentence and pairwise scores with ==."""
    rng = random.Random(word_order)
    words = long_words(rng)
    hyps = [" ".join(rng.choices(words, k=rng.randint(0, 12))) for _ in range(30)]
    refs = [[" ".join(rng.choices(words, k=rng.randint(1, 12))) for _ in hyps] for _ in "ab"]
    refs[0] = [h if i % 3 == 0 else r for i, (h, r) in enumerate(zip(hyps, refs[0]))]
    sacre = SacreCHRF(word_order=word_order)
    want_rows = sacre._extract_corpus_statistics(hyps, refs)
    ours = turbobleu.CHRF(word_order=word_order)
    assert ours.corpus_stats(hyps, refs).tolist() == want_rows
    assert sum(row[3 * 6 + 2] for row in want_rows) > 0  # words do match
    assert ours.corpus_score(hyps, refs).score == sacre._aggregate_and_compute(want_rows).score
    want_sentences = [
        sacre.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)
    ]
    assert ours.sentence_scores(hyps, refs).tolist() == want_sentences
    want_matrix = [[sacre.sentence_score(h, [r]).score for r in refs[1]] for h in hyps]
    assert ours.pairwise_scores(hyps, refs[1]).tolist() == want_matrix


@given(sentence=text)
def test_chrf_words_are_sacrebleus(sentence: str) -> None:
    assert chrf_words(sentence) == SacreCHRF()._remove_punctuation(sentence)


def test_words_split_one_punctuation_mark_off_an_edge() -> None:
    assert chrf_words("(hi) 'a' , ..x") == ["(hi", ")", "'a", "'", ",", ".", ".x"]


def test_bad_input_raises_errors_that_name_it() -> None:
    metric = turbobleu.CHRF()
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be a str"):
        metric.corpus_score(["a", 3], [["a", "b"]])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be a str or None"):
        metric.corpus_score(["a", "b"], [["a", b"b"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        metric.corpus_score(["a", "b"], [["a", None]])
    with pytest.raises(ValueError, match=r"references\[0\] has 1 segments but hypotheses has 2"):
        metric.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="none given and none cached"):
        metric.corpus_score(["a"])
    with pytest.raises(ValueError, match="char_order must be an integer >= 0"):
        turbobleu.CHRF(char_order=-1)
    with pytest.raises(ValueError, match="at least 1"):
        turbobleu.CHRF(char_order=0, word_order=0)
    with pytest.raises(ValueError, match="threads must be an integer >= 1"):
        metric.pairwise_scores(["a"], ["a"], threads=0)
    with pytest.raises(ValueError, match="Number of references unknown"):
        turbobleu.CHRF().get_signature()


def test_sentence_scores_of_an_empty_statistics_array() -> None:
    from turbobleu._engine.chrf import chosen as _chrf_impl

    out = np.empty(0)
    _chrf_impl.chrf_counts().sentence_scores(np.zeros((0, 18), dtype=np.int64), 6, 2, False, out)
    assert out.shape == (0,)


def test_every_code_point_is_whitespace_exactly_when_python_says_so() -> None:
    """The kernel's own whitespace test (branch-free for ASCII, CPython's table only in the
    ranges that hold whitespace) against ``str.isspace`` for every code point: the compiled
    kernel gets all of them, the twin a sample plus every whitespace character."""
    from turbobleu._engine import choice as _choice

    step = 1 if _choice.implementation == "cython" else 97
    # Highest first: the kernel's per-code-point table is reallocated (and zeroed, ~18 MB) each
    # time a segment brings a higher code point, so an ascending sweep takes minutes.
    points = sorted(
        {c for c in range(0, 0x110000, step) if not 0xD800 <= c < 0xE000}
        | {ord(c) for c in SPACES},
        reverse=True,
    )
    hyps = [f"a{chr(c)}b" for c in points]
    rows = turbobleu.CHRF(char_order=1, word_order=1).corpus_stats(hyps, [["a b"] * len(hyps)])
    space = np.array([chr(c).isspace() for c in points])
    assert rows[:, 0].tolist() == np.where(space, 2, 3).tolist()  # characters counted
    assert rows[:, 3].tolist() == np.where(space, 2, 1).tolist()  # words
