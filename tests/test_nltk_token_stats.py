"""The interning + counting layer under turbobleu.nltk/evaluate/matlab: the compiled
``_hashable`` module against its Python twin in ``_token_stats``, and both against statistics
counted by definition here. Both must also decline (return None) the same unusual inputs, and
leave one-shot iterators untouched when they do."""
from __future__ import annotations

from collections import Counter
from typing import Any, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turbobleu import _token_stats

try:
    from turbobleu import _hashable  # type: ignore[attr-defined]
except ImportError:
    _hashable = None

IMPLEMENTATIONS = [
    pytest.param((_token_stats.python_sentence_row, _token_stats.python_corpus_rows), id="twin"),
    pytest.param((getattr(_hashable, "sentence_row", None), getattr(_hashable, "corpus_rows", None)),
                 id="compiled",
                 marks=pytest.mark.skipif(_hashable is None, reason="_hashable not built")),
]


def by_definition(refs: List[Any], hyp: Any, orders: int) -> List[int]:
    """The statistics row from Counters of n-gram tuples (what NLTK's loops compute)."""
    def grams(seq: Any, n: int) -> Counter:
        seq = list(seq)
        return Counter(tuple(seq[i:i + n]) for i in range(len(seq) - n + 1))

    matches, totals = [], []
    for n in range(1, orders + 1):
        hyp_grams = grams(hyp, n)
        best: Counter = Counter()
        for ref in refs:
            for g, c in grams(ref, n).items():
                best[g] = max(best[g], c)
        matches.append(sum(min(c, best[g]) for g, c in hyp_grams.items()))
        totals.append(max(0, len(hyp) - n + 1))
    closest = min((len(r) for r in refs), key=lambda r: (abs(r - len(hyp)), r))
    return [len(hyp), closest] + matches + totals


tokens = st.one_of(st.sampled_from(["a", "b", "c", "a b", ""]), st.integers(-2, 2),
                   st.sampled_from([1.0, True, None, (1,), frozenset({1})]))
sentences = st.lists(tokens, max_size=12).flatmap(
    lambda words: st.sampled_from([words, tuple(words)]))
reference_lists = st.lists(sentences, min_size=1, max_size=3)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=300)
@given(refs=reference_lists, hyp=sentences, orders=st.integers(1, 6))
def test_sentence_row_counts_by_definition(impl, refs, hyp, orders: int) -> None:
    sentence_row, _ = impl
    assert sentence_row(refs, hyp, orders) == by_definition(refs, hyp, orders)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=200)
@given(corpus=st.lists(st.tuples(reference_lists, sentences), min_size=1, max_size=5),
       orders=st.integers(1, 5))
def test_corpus_rows_count_by_definition(impl, corpus, orders: int) -> None:
    _, corpus_rows = impl
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    rows = corpus_rows(refs, hyps, orders)
    assert rows is not None and rows.dtype == np.int64
    assert rows.tolist() == [by_definition(r, h, orders) for r, h in corpus]


class WrongLength(list):
    def __len__(self) -> int:
        return super().__len__() + 1


def declined_inputs() -> List[tuple]:
    return [
        ([], ["a"]),                      # no reference
        ([["a"]], iter(["a"])),           # a hypothesis without len
        ([iter(["a"])], ["a"]),           # a reference without len
        ([["a"]], [["unhashable"]]),      # an unhashable hypothesis token
        ([[["unhashable"]]], ["a"]),      # an unhashable reference token
        ([["a"]], WrongLength(["a"])),    # len disagrees with iteration
        ([WrongLength(["a"])], ["a"]),
    ]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_unusual_input_is_declined_not_raised(impl) -> None:
    sentence_row, corpus_rows = impl
    for refs, hyp in declined_inputs():
        assert sentence_row(refs, hyp, 4) is None, (refs, hyp)
    for refs, hyp in declined_inputs():
        assert corpus_rows([refs], [hyp], 4) is None, (refs, hyp)
    assert corpus_rows([], [], 4) is None
    assert corpus_rows([[["a"]]], [["a"], ["b"]], 4) is None  # different lengths
    assert sentence_row([["a"]], ["a"], 0) is None


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_one_shot_iterator_of_references_is_left_untouched(impl) -> None:
    sentence_row, _ = impl
    references = iter([["a", "b"], ["b"]])
    assert sentence_row(references, ["a", "b"], 2) is None
    assert list(references) == [["a", "b"], ["b"]]


def test_the_compiled_module_is_used_when_built() -> None:
    from turbobleu import _impl
    expected = _impl.implementation == "cython" and _hashable is not None
    assert _token_stats.compiled is expected
    if expected:
        assert _token_stats.sentence_row is _hashable.sentence_row
