"""turbobleu.nltk == NLTK on real MT output: every WMT23 system (and the small fixture that is
always present), whitespace-split tokens, compared with ``==``.

Default run (kept short: NLTK itself is slow): ``corpus_bleu`` on every system with the default
smoothing, a list of four weight vectors on the fixture and one WMT23 pair, ``sentence_bleu`` on
every 20th segment of every system (every 4th with TURBOBLEU_TEST_FULL=1), and each smoothing
method 1..7 on the fixture and one WMT23 pair. ``TURBOBLEU_LONG_TESTS=1``: every smoothing method
on every system, corpus and every sentence.
"""

from __future__ import annotations

import warnings
from typing import List, Tuple

import pytest

from conftest import FULL_MATRIX, LONG_TESTS, all_corpora, chosen_systems, system_cases

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

from turbobleu import nltk as tb  # noqa: E402

SENTENCE_STEP = 1 if LONG_TESTS else (4 if FULL_MATRIX else 20)
SMOOTHING_PAIR = "wmt23/en-de"  # the smallest WMT23 pair


def tokenized(corpus, system) -> Tuple[List[List[List[str]]], List[List[str]]]:
    hyps = [line.split() for line in corpus.hypotheses(system)]
    streams = corpus.reference_streams(corpus.references)
    refs = [[line.split() for line in group] for group in zip(*streams)]
    return refs, hyps


def smoothing_cases():
    cases = []
    for c in all_corpora():
        if not (LONG_TESTS or c.source == "fixture" or c.name == SMOOTHING_PAIR):
            continue
        for s in chosen_systems(c, LONG_TESTS):
            for method in range(1, 8):
                cases.append(pytest.param(c, s, method, id=f"{c.name}/{s}/method{method}"))
    return cases


def quietly(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


WEIGHT_LIST = [(1.0,), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)]


@pytest.mark.parametrize("corpus,system", system_cases(every=True))
def test_corpus_and_sentence_bleu_on_every_system(corpus, system) -> None:
    refs, hyps = tokenized(corpus, system)
    got, want = quietly(tb.corpus_bleu, refs, hyps), quietly(nltk_bleu.corpus_bleu, refs, hyps)
    assert got == want and type(got) is type(want), (got, want)
    if LONG_TESTS or corpus.source == "fixture" or corpus.name == SMOOTHING_PAIR:
        got, want = (
            quietly(tb.corpus_bleu, refs, hyps, WEIGHT_LIST),
            quietly(nltk_bleu.corpus_bleu, refs, hyps, WEIGHT_LIST),
        )
        assert got == want
    bad = []
    for i in range(0, len(hyps), SENTENCE_STEP):
        g = quietly(tb.sentence_bleu, refs[i], hyps[i])
        w = quietly(nltk_bleu.sentence_bleu, refs[i], hyps[i])
        if g != w or type(g) is not type(w):
            bad.append((i, g, w))
    assert not bad, f"{len(bad)} segments differ, first: {bad[0]}"


@pytest.mark.parametrize("corpus,system,method", smoothing_cases())
def test_smoothing_methods_on_real_data(corpus, system, method) -> None:
    refs, hyps = tokenized(corpus, system)
    ours = getattr(tb.SmoothingFunction(), f"method{method}")
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")

    def run(fn, *args, **kwargs):
        try:
            return repr(quietly(fn, *args, **kwargs))
        except Exception as exc:  # method6 asserts on some inputs; the error must match too
            return f"{type(exc).__name__}{exc.args!r}"

    assert run(tb.corpus_bleu, refs, hyps, smoothing_function=ours) == run(
        nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=theirs
    )
    step = 1 if LONG_TESTS else 7
    bad = []
    for i in range(0, len(hyps), step):
        g = run(tb.sentence_bleu, refs[i], hyps[i], smoothing_function=ours)
        w = run(nltk_bleu.sentence_bleu, refs[i], hyps[i], smoothing_function=theirs)
        if g != w:
            bad.append((i, g, w))
    assert not bad, f"{len(bad)} segments differ, first: {bad[0]}"
