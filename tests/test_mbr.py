"""MBR selection against a brute-force loop over the mirrored library's sentence_bleu: the same
expected utilities (bit for bit) and the same chosen candidate."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from conftest import SHARED_DATA, all_corpora, read_lines, requires_wmt23
from turbobleu.batch import NLTKRecipe
from turbobleu.mbr import mbr_select, mbr_select_batch


def brute_force(candidates, pseudo_refs=None, include_self=True, score=None):
    """(utilities, index): each candidate's scores added left to right, divided by the count."""
    score = score or (lambda h, r: sacrebleu.sentence_bleu(h, [r]).score)
    refs = candidates if pseudo_refs is None else pseudo_refs
    utilities = []
    for i, cand in enumerate(candidates):
        total, used = 0.0, 0
        for j, ref in enumerate(refs):
            if pseudo_refs is None and not include_self and i == j:
                continue
            total += score(cand, ref)
            used += 1
        utilities.append(total / used if used else math.nan)
    best = max(range(len(utilities)), key=lambda i: (utilities[i], -i))
    return utilities, best


def check(choice, utilities, best):
    assert np.array_equal(choice.utilities, utilities, equal_nan=True)  # exact, NaN == NaN
    assert choice.index == best


def wmt23_groups(pair, n_sources, first=0):
    """Per source, the outputs of every system in the pair (the candidates) and the reference."""
    folder = SHARED_DATA / pair
    systems = sorted(folder.glob("hyp.*"))
    outputs = [read_lines(p) for p in systems]
    refs = read_lines(next(folder.glob("ref.refA.*")))
    rows = range(first, first + n_sources)
    return [[out[s] for out in outputs] + [refs[s]] for s in rows], [refs[s] for s in rows]


@requires_wmt23
@pytest.mark.parametrize("include_self", [True, False])
def test_wmt23_choices_equal_brute_force(include_self):
    groups, _ = wmt23_groups("zh-en", 12)
    # Candidates: the four systems' outputs and the reference of the same source, several
    # copies of one system among them so that ties happen.
    groups = [g + g[:2] for g in groups]
    choices = mbr_select_batch(groups, include_self=include_self, threads=1)
    for group, choice in zip(groups, choices):
        check(choice, *brute_force(group, include_self=include_self))


@requires_wmt23
def test_wmt23_separate_pseudo_references_equal_brute_force():
    groups, _ = wmt23_groups("he-en", 8)
    later, _ = wmt23_groups("he-en", 8, first=100)
    choices = mbr_select_batch(groups, later, threads=2)
    for group, refs, choice in zip(groups, later, choices):
        check(choice, *brute_force(group, refs))
        assert choice.scores.shape == (len(group), len(refs))


def test_fixture_choices_equal_brute_force():
    corpus = next(c for c in all_corpora() if c.source == "fixture")
    systems = [corpus.hypotheses(s)[:10] for s in corpus.systems]
    groups = [[lines[k] for lines in systems] for k in range(10)]
    for group, choice in zip(groups, mbr_select_batch(groups, threads=1)):
        check(choice, *brute_force(group))


LINES = st.lists(st.sampled_from(["a", "b", "c", "the", "."]), max_size=8).map(" ".join)


@given(
    candidates=st.lists(LINES, min_size=1, max_size=7),
    include_self=st.booleans(),
)
def test_generated_choices_equal_brute_force(candidates, include_self):
    check(
        mbr_select(candidates, include_self=include_self, threads=1),
        *brute_force(candidates, include_self=include_self),
    )


@given(
    candidates=st.lists(st.lists(st.integers(0, 4), max_size=8), min_size=1, max_size=6),
    method=st.sampled_from([0, 1, 3, 7]),
)
def test_generated_ids_nltk_choices_equal_brute_force(candidates, method):
    fn = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        choice = mbr_select(candidates, recipe=NLTKRecipe(smoothing_function=fn), threads=1)
        want = brute_force(
            candidates, score=lambda h, r: nltk_sentence_bleu([r], h, smoothing_function=fn)
        )
    check(choice, *want)


def test_a_lone_candidate_without_itself_has_no_utility():
    choice = mbr_select(["a b c"], include_self=False)
    assert choice.index == 0
    assert np.isnan(choice.utilities).all()
    alone = sacrebleu.sentence_bleu("a b c", ["a b c"]).score
    assert mbr_select(["a b c"]).utilities.tolist() == [alone]


@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: mbr_select([]), ValueError, "candidates is empty"),
        (lambda: mbr_select(["a"], []), ValueError, "pseudo_references is empty"),
        (lambda: mbr_select(["a"], ["a"], include_self=False), ValueError, "include_self"),
        (lambda: mbr_select(["a"], include_self=1), TypeError, "include_self"),
        (lambda: mbr_select("a b"), TypeError, "candidates"),
        (lambda: mbr_select_batch("a b"), TypeError, "candidates"),
        (lambda: mbr_select_batch([["a"]], [["a"], ["b"]]), ValueError, "pseudo_references"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()
