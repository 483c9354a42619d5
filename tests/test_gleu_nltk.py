"""turbobleu's GLEU (``turbobleu.gleu``, exported by ``turbobleu.nltk``) against NLTK's
``nltk.translate.gleu_score``, compared with ``==`` on the floats, and on the exceptions (type and
text) where NLTK raises.

Inputs: NLTK's docstring sentences, generated token sequences (empty and one-token sides, zero to
four references, repeated tokens, mixed token types, ``min_len``/``max_len`` from the usual
range to NLTK's edge cases: 0, -1, longer than every sentence, ``min_len > max_len``), inputs the
fast path leaves to NLTK's order (tuples, iterators, unhashable tokens), and real MT output
(WMT23, whitespace tokens): by default every pair's first system on a sample of its segments,
every system and every segment with TURBOBLEU_TEST_FULL=1.
"""

from __future__ import annotations

import importlib
from typing import Any, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FULL_MATRIX, IMPLEMENTATION, system_cases

nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")

import turbobleu  # noqa: E402
from turbobleu import gleu as tb_gleu  # noqa: E402
from turbobleu import nltk as tb  # noqa: E402
from turbobleu._engine.recipes.gleu import everygram_counts, ngram_total  # noqa: E402

# turbobleu follows NLTK 3.10; NLTK 3.9 (the last release for Python 3.9) lacks its everygrams limit
NLTK_BEFORE_3_10 = not hasattr(importlib.import_module("nltk.util"), "MAX_EVERYGRAMS_DEFAULT_LEN")


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Tuple[Any, ...]:
    """``("ok", type, value)`` or ``("raise", type, text)``: what a call did, for ==."""
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:  # compared with NLTK's below
        return ("raise", type(exc), str(exc))
    return ("ok", type(value), value)


def same_corpus(refs: Any, hyps: Any, *orders: Any) -> None:
    got = outcome(tb.corpus_gleu, refs, hyps, *orders)
    want = outcome(nltk_gleu.corpus_gleu, refs, hyps, *orders)
    assert got == want, (refs, hyps, orders)


def same_sentence(refs: Any, hyp: Any, *orders: Any) -> None:
    got = outcome(tb.sentence_gleu, refs, hyp, *orders)
    want = outcome(nltk_gleu.sentence_gleu, refs, hyp, *orders)
    assert got == want, (refs, hyp, orders)


# -- NLTK's own examples -----------------------------------------------------------------------

REF1A = "It is a guide to action that ensures that the military will forever heed Party commands"
REF1B = (
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party"
)
REF1C = "It is the practical guide for the army always to heed the directions of the party"
HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
HYP2 = "he read the book because he was interested in world history"
REF2A = "he was interested in world history because he read the book"


def test_nltk_docstring_examples() -> None:
    refs = [[REF1A.split(), REF1B.split(), REF1C.split()], [REF2A.split()]]
    hyps = [HYP1.split(), HYP2.split()]
    same_corpus(refs, hyps)
    assert round(tb.corpus_gleu(refs, hyps), 4) == 0.5673  # the value NLTK documents
    same_sentence([REF1A.split()], HYP1.split())
    same_sentence([REF1A.split()], "It is to insure the troops forever hearing the".split())
    same_sentence(["the cat is on the mat".split()], "the the the the the the the".split())
    for orders in [(1, 1), (2, 4), (1, 6), (3, 2), (4, 10**9)]:
        same_corpus(refs, hyps, *orders)


def test_the_functions_are_nltks_names() -> None:
    assert tb.corpus_gleu is tb_gleu.corpus_gleu and tb.sentence_gleu is tb_gleu.sentence_gleu
    assert {"corpus_gleu", "sentence_gleu"} <= set(tb.__all__)


# -- generated input ---------------------------------------------------------------------------

words = st.sampled_from(["a", "b", "c", "the", "é"])
segments = st.lists(words, max_size=9)
mixed_tokens = st.sampled_from(["a", "b", 1, 1.0, True, (2,), None, b"a"])
mixed_segments = st.lists(mixed_tokens, max_size=7)
usual_orders = st.tuples(st.integers(1, 5), st.integers(1, 7))
edge_orders = st.tuples(st.integers(-2, 3), st.sampled_from([-2, -1, 0, 1, 2, 5, 40]))


@settings(max_examples=150)
@given(
    corpus=st.lists(st.tuples(st.lists(segments, max_size=4), segments), max_size=5),
    orders=st.one_of(st.just((1, 4)), usual_orders, edge_orders),
)
def test_generated_corpora_match_nltk(corpus: List[Any], orders: Tuple[int, int]) -> None:
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    same_corpus(refs, hyps, *orders)
    for references, hypothesis in corpus[:2]:
        same_sentence(references, hypothesis, *orders)


@settings(max_examples=100)
@given(
    corpus=st.lists(st.tuples(st.lists(mixed_segments, max_size=3), mixed_segments), max_size=4),
    orders=st.one_of(st.just((1, 4)), usual_orders),
)
def test_any_hashable_tokens_match_nltk(corpus: List[Any], orders: Tuple[int, int]) -> None:
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    same_corpus(refs, hyps, *orders)


@settings(max_examples=100)
@given(
    refs=st.lists(segments, min_size=2, max_size=4),
    hyp=segments,
    orders=st.one_of(st.just((1, 4)), usual_orders),
)
def test_ties_between_references_pick_nltks(refs: List[Any], hyp: List[str], orders: Any) -> None:
    # duplicated and reordered references: equal ratios from different (tp, n_all) pairs
    same_sentence(refs + refs[::-1], hyp, *orders)
    same_sentence([hyp[:1], hyp[:2], *refs], hyp, *orders)


def test_ties_keep_the_first_of_equal_ratios() -> None:
    # 1/2 and 2/4: the same ratio, different sums; NLTK keeps the first
    hyp = ["a", "b"]
    refs = [["a", "x"], ["a", "b", "y", "z"]]
    for order in (refs, refs[::-1]):
        same_corpus([order, [["a"]]], [hyp, ["a", "b", "c"]], 1, 1)


@pytest.mark.parametrize(
    "make,orders",
    [
        (lambda: ([], []), ()),  # empty corpus: 0.0
        (lambda: ([[]], [["a"]]), ()),  # no references
        (lambda: ([[[]]], [[]]), ()),  # empty sides
        (lambda: ([[["a"]]], [["a"]]), (1, 4)),
        (lambda: ([[["a"]]], [["a"]]), (5, 9)),  # n-grams longer than the sentences
        pytest.param(
            lambda: ([[["a"] * 300]], [["a"]]),
            (1, -1),
            marks=pytest.mark.skipif(
                NLTK_BEFORE_3_10, reason="NLTK 3.10's everygrams limit (NLTK 3.9 has none)"
            ),
        ),
        (lambda: ([[["a"] * 30]], [["a"] * 20]), (2, -1)),
        (lambda: ([[["a", "b"]]], [["a", "b"]]), (0, 2)),  # empty n-grams
        (lambda: ([[["a", "b", "c"]]], [["a", "b"]]), (-1, 3)),  # shortened prefixes
        (lambda: ([[["a"]]], [["a"]]), (1, -3)),  # islice's ValueError
        (lambda: ([[["a", "b"]]], [["a", "b"]]), (1, 2**63)),  # above sys.maxsize: the same
        (lambda: ([[["a", "b"]]], [["a", "b"]]), (2**63, 2**63)),
        (lambda: ([[["a", "b"]]], [["a", "b"]]), (2**63, 4)),  # no order: 0.0
        (lambda: ([[["a", "b"]]], [["a", "b"]]), (1, 2**63 - 1)),  # sys.maxsize itself
        (lambda: ([[["a"]]], [["a"]]), (1.0, 2)),
        (lambda: ([[["a"]]], [["a"]]), (1, 2.0)),
        (lambda: ([[["a"]]], [["a"]]), (True, 2)),
        (lambda: ([[["a"]]], [["a"], ["b"]]), ()),  # length mismatch: AssertionError
        (lambda: ([[[["x"]]]], [["a"]]), ()),  # unhashable reference token
        (lambda: ([[["a"]]], [[["x"]]]), ()),  # unhashable hypothesis token
        (lambda: ([[["a", "b"]]], [[["x"]]]), (3, 4)),  # unhashable but never in an n-gram
        (lambda: ([[[["x"]]]], [["a", "b"]]), (2, 4)),
        (lambda: ([[]], [[["x"]]]), ()),  # hashed although there is no reference
        (lambda: ([(("a", "b"),)], (("a", "b"),)), ()),  # tuples
        (lambda: ([["ab", "abc"]], ["abc"]), ()),  # str: characters
        (lambda: ([[iter(["a", "b"])]], [["a", "b"]]), ()),  # a one-shot reference
        (lambda: ([iter([["a"]])], [["a"]]), ()),  # a one-shot reference list
        (lambda: ([[["a", "b"]]], [iter(["a", "b"])]), ()),  # a one-shot hypothesis
        (lambda: (iter([[["a"]]]), [["a"]]), ()),  # no len: AssertionError's TypeError
        (lambda: ([[None]], [["a"]]), ()),  # a reference that is not iterable
        (lambda: ([None], [["a"]]), ()),
    ],
)
def test_edge_cases_match_nltk(make: Any, orders: Tuple[Any, ...]) -> None:
    # (made twice: iterators are consumed by the first call)
    got = outcome(tb.corpus_gleu, *make(), *orders)
    want = outcome(nltk_gleu.corpus_gleu, *make(), *orders)
    assert got == want


def test_everygram_counts_is_nltks_everygrams() -> None:
    from collections import Counter

    from nltk.util import everygrams

    sequence = list("abcabd")
    for min_len in range(-2, 5):
        for max_len in (-1, 0, 1, 2, 3, 6, 9):
            want = Counter(everygrams(sequence, min_len, max_len))
            assert everygram_counts(sequence, min_len, max_len) == want, (min_len, max_len)
            if min_len >= 1 and max_len >= 1:
                assert ngram_total(len(sequence), min_len, max_len) == sum(want.values())


# -- real data ---------------------------------------------------------------------------------

SAMPLE_STEP = 1 if FULL_MATRIX else 10  # segments sampled per system in the default run
SENTENCE_STEP = 5 if FULL_MATRIX else 40  # of those, sentence_gleu on every k-th


@pytest.mark.parametrize("corpus,system", system_cases())
def test_wmt23_systems_match_nltk(corpus: Any, system: str) -> None:
    step = 1 if corpus.source == "fixture" else SAMPLE_STEP
    hyps = [line.split() for line in corpus.hypotheses(system)][::step]
    streams = corpus.reference_streams(corpus.references)
    refs = [[line.split() for line in group] for group in zip(*streams)][::step]
    assert tb.corpus_gleu(refs, hyps) == nltk_gleu.corpus_gleu(refs, hyps)
    one_ref = [group[:1] for group in refs]
    assert tb.corpus_gleu(one_ref, hyps) == nltk_gleu.corpus_gleu(one_ref, hyps)
    if corpus.source == "fixture" or FULL_MATRIX:
        for orders in [(1, 1), (2, 3), (1, 6)]:
            assert tb.corpus_gleu(refs, hyps, *orders) == nltk_gleu.corpus_gleu(refs, hyps, *orders)
    for r, h in list(zip(refs, hyps))[::SENTENCE_STEP]:
        assert tb.sentence_gleu(r, h) == nltk_gleu.sentence_gleu(r, h)


# -- patch("nltk") -----------------------------------------------------------------------------


def test_patch_nltk_rebinds_gleu_and_its_alias_and_unpatch_restores() -> None:
    import nltk
    import nltk.translate

    originals = (nltk_gleu.sentence_gleu, nltk_gleu.corpus_gleu)
    alias = nltk.translate.gleu
    assert alias is originals[0]
    from turbobleu.patching import is_patched

    was = is_patched("nltk")
    turbobleu.unpatch("nltk")
    try:
        with turbobleu.patched("nltk"):
            assert nltk_gleu.sentence_gleu is tb.sentence_gleu
            assert nltk_gleu.corpus_gleu is tb.corpus_gleu
            assert nltk.translate.gleu is tb.sentence_gleu
            if hasattr(nltk, "gleu"):
                assert nltk.gleu is tb.sentence_gleu
            # patched code gives NLTK's numbers
            hyp, ref = HYP1.split(), REF1A.split()
            assert nltk_gleu.sentence_gleu([ref], hyp) == originals[0]([ref], hyp)
        assert (nltk_gleu.sentence_gleu, nltk_gleu.corpus_gleu) == originals
        assert nltk.translate.gleu is alias
    finally:
        if was:
            turbobleu.patch("nltk")


def test_the_implementation_under_test() -> None:
    assert turbobleu.implementation == IMPLEMENTATION


@pytest.mark.parametrize("orders", [(1, 2**63), (2**63, 2**70), (2**63, 4), (1, 2**63 - 1)])
def test_sentence_gleu_orders_beyond_an_int64_match_nltk(orders: Tuple[int, int]) -> None:
    same_sentence([["a", "b"], ["b"]], ["a", "b"], *orders)
