"""The interning + counting layer under turbobleu.nltk/evaluate/matlab: the compiled
``_intern`` module against its Python twin ``_intern_py``, and both against statistics
counted by definition here. Both must also decline (return None) the same unusual inputs, and
leave one-shot iterators untouched when they do."""

from __future__ import annotations

import math
import sys
from collections import Counter, UserList
from operator import attrgetter
from typing import Any, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import turbobleu.nltk
from conftest import compiled_twin_of, requires_compiled, twin_and_compiled
from turbobleu._engine.intern import _intern_py as _token_stats

_hashable = compiled_twin_of(_token_stats)
IMPLEMENTATIONS = twin_and_compiled(_token_stats, attrgetter("sentence_row", "corpus_rows"))


def by_definition(refs: List[Any], hyp: Any, orders: int) -> List[int]:
    """The statistics row from Counters of n-gram tuples (what NLTK's loops compute)."""

    def grams(seq: Any, n: int) -> Counter:
        seq = list(seq)
        return Counter(tuple(seq[i : i + n]) for i in range(len(seq) - n + 1))

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


tokens = st.one_of(
    st.sampled_from(["a", "b", "c", "a b", ""]),
    st.integers(-2, 2),
    st.sampled_from([1.0, True, None, (1,), frozenset({1})]),
)
sentences = st.lists(tokens, max_size=12).flatmap(
    lambda words: st.sampled_from([words, tuple(words)])
)
reference_lists = st.lists(sentences, min_size=1, max_size=3)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=300)
@given(refs=reference_lists, hyp=sentences, orders=st.integers(1, 6))
def test_sentence_row_counts_by_definition(impl, refs, hyp, orders: int) -> None:
    sentence_row, _ = impl
    assert sentence_row(refs, hyp, orders) == by_definition(refs, hyp, orders)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=200)
@given(
    corpus=st.lists(st.tuples(reference_lists, sentences), min_size=1, max_size=5),
    orders=st.integers(1, 5),
)
def test_corpus_rows_count_by_definition(impl, corpus, orders: int) -> None:
    _, corpus_rows = impl
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    rows = corpus_rows(refs, hyps, orders)
    assert rows is not None and rows.dtype == np.int64
    assert rows.tolist() == [by_definition(r, h, orders) for r, h in corpus]


# Up to 8 references of a list or tuple are held in C, more (or another kind of sequence) are
# copied into a tuple: both ways, for sentences and for corpora.
many_references = st.lists(sentences, min_size=1, max_size=11).flatmap(
    lambda refs: st.sampled_from([refs, tuple(refs), UserList(refs)])
)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=200)
@given(
    corpus=st.lists(st.tuples(many_references, sentences), min_size=1, max_size=4),
    orders=st.integers(1, 4),
)
def test_any_number_and_kind_of_reference_sequences(impl, corpus, orders: int) -> None:
    sentence_row, corpus_rows = impl
    want = [by_definition(list(r), h, orders) for r, h in corpus]
    assert [sentence_row(r, h, orders) for r, h in corpus] == want
    rows = corpus_rows([r for r, _ in corpus], [h for _, h in corpus], orders)
    assert rows is not None and rows.tolist() == want


TOTALS = twin_and_compiled(_token_stats, attrgetter("corpus_totals"))


@pytest.mark.parametrize("corpus_totals", TOTALS)
@settings(max_examples=200)
@given(
    corpus=st.lists(st.tuples(reference_lists, sentences), min_size=1, max_size=5),
    orders=st.integers(1, 5),
)
def test_corpus_totals_sum_the_rows_by_definition(corpus_totals, corpus, orders: int) -> None:
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    rows = [by_definition(r, h, orders) for r, h in corpus]
    sums, dens, last = corpus_totals(refs, hyps, orders)
    assert sums == [sum(column) for column in zip(*rows)]
    assert dens == [sum(max(1, row[2 + orders + k]) for row in rows) for k in range(orders)]
    assert last == rows[-1]
    assert all(type(x) is int for x in sums + dens + last)


class WrongLength(list):
    def __len__(self) -> int:
        return super().__len__() + 1


def declined_inputs() -> List[tuple]:
    return [
        ([], ["a"]),  # no reference
        ([["a"]], iter(["a"])),  # a hypothesis without len
        ([iter(["a"])], ["a"]),  # a reference without len
        ([["a"]], [["unhashable"]]),  # an unhashable hypothesis token
        ([[["unhashable"]]], ["a"]),  # an unhashable reference token
        ([["a"]], WrongLength(["a"])),  # len disagrees with iteration
        ([WrongLength(["a"])], ["a"]),
    ]


# Plain strs go through the compiled module's own table: tokens that share their first 8 bytes,
# differ only in length or in bytes per character (1, 2, 4), or are str subclasses.
PREFIX = "abcdefgh"
str_tokens = st.one_of(
    st.sampled_from(
        [
            "",
            "a",
            "a\x00",
            "\x00",
            PREFIX,
            PREFIX + "x",
            PREFIX + "y",
            PREFIX + "xy",
            "\u0101",
            "\u0101\u0101\u0101\u0101x",
            "\U0001f600",
            "\U0001f600a",
            "abcd\u0101",
            "ab",
        ]
    ),
    st.text(max_size=12),
    st.text(alphabet="ab\u0101\U0001f600", max_size=10).map(lambda t: PREFIX + t),
)


class Word(str):
    """A str subclass: equal to the plain str with the same characters."""


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@settings(max_examples=200)
@given(
    refs=st.lists(st.lists(str_tokens, max_size=12), min_size=1, max_size=3),
    hyp=st.lists(str_tokens, max_size=12),
    subclass=st.integers(0, 3),
)
def test_string_tokens_count_by_definition(impl, refs, hyp, subclass: int) -> None:
    sentence_row, corpus_rows = impl
    if subclass == 1:
        hyp = [Word(t) for t in hyp]  # a str subclass in the hypothesis, plain strs in refs
    elif subclass == 2 and refs[0]:
        refs[0][0] = Word(refs[0][0])
    assert sentence_row(refs, hyp, 4) == by_definition(refs, hyp, 4)
    assert corpus_rows([refs, refs], [hyp, hyp[::-1]], 4).tolist() == [
        by_definition(refs, hyp, 4),
        by_definition(refs, hyp[::-1], 4),
    ]


@requires_compiled(_hashable)
@pytest.mark.parametrize("mask", [0, 0xF, -1 << 32])
@settings(max_examples=150)
@given(
    refs=st.lists(st.lists(str_tokens, max_size=12), min_size=1, max_size=3),
    hyp=st.lists(str_tokens, max_size=12),
)
def test_str_tokens_sharing_a_hash_stay_apart(mask: int, refs, hyp) -> None:
    """Narrowed hashes give distinct tokens one hash (mask 0), one tag with 16 start slots
    (0xF) or one start slot with distinct tags (high half only): only the characters can tell
    them apart."""
    old = _hashable.set_str_hash_mask(mask)
    try:
        row = _hashable.sentence_row(refs, hyp, 4)
        rows = _hashable.corpus_rows([refs, refs], [hyp, hyp[::-1]], 3)
    finally:
        _hashable.set_str_hash_mask(old)
    assert row == by_definition(refs, hyp, 4)
    assert rows.tolist() == [by_definition(refs, hyp, 3), by_definition(refs, hyp[::-1], 3)]


@requires_compiled(_hashable)
def test_same_shape_tokens_sharing_a_hash_stay_apart() -> None:
    """Every length up to 12 characters of each width (ASCII, other Latin-1, 2 and 4 bytes),
    against each token that differs from it in one position: a hypothesis of one matches a
    reference of the other nowhere. Equal tokens made anew (other objects, whose headers differ,
    except CPython's shared one-character Latin-1 strs: the head of a short token is read from
    the bytes that end at its last character) match."""
    tokens = [base * n for base in ("a", "\xe9", "\u0101", "\U0001f600") for n in range(1, 13)]
    pairs = [
        (t, t[:k] + c + t[k + 1 :])
        for t in tokens
        for k in range(len(t))
        for c in ("b", "\xea", "\u0102", "\U0001f601")
        if c != t[k]
    ]
    old = _hashable.set_str_hash_mask(0)
    try:
        rows = [_hashable.sentence_row([[other]], [token], 1) for token, other in pairs]
        # an equal token that is another object (str slicing would return the same one)
        same = [
            _hashable.sentence_row([[token]], [token.encode().decode()], 1) for token, _ in pairs
        ]
    finally:
        _hashable.set_str_hash_mask(old)
    assert [(pair, row) for pair, row in zip(pairs, rows) if row != [1, 1, 0, 1]] == []
    assert all(row == [1, 1, 1, 1] for row in same)


def legacy_str(text: str) -> str:
    """An exact str in CPython's legacy (non-compact) layout, equal to ``text``: made with the
    deprecated PyUnicode_FromUnicode(NULL, n), which only CPython 3.11 and older have."""
    import ctypes
    import warnings

    api = ctypes.pythonapi
    api.PyUnicode_FromUnicode.restype = ctypes.py_object
    api.PyUnicode_FromUnicode.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t]
    api.PyUnicode_AsUnicode.restype = ctypes.c_void_p
    api.PyUnicode_AsUnicode.argtypes = [ctypes.py_object]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = api.PyUnicode_FromUnicode(None, len(text))
    chars = (ctypes.c_wchar * len(text)).from_address(api.PyUnicode_AsUnicode(made))
    for i, c in enumerate(text):
        chars[i] = c
    return made


@requires_compiled(_hashable)
@pytest.mark.skipif(
    sys.version_info >= (3, 12) or sys.implementation.name != "cpython",
    reason="legacy (non-compact) exact strs exist only in CPython 3.11 and older",
)
@pytest.mark.parametrize("mask", [-1, 0])
def test_a_legacy_str_is_the_same_token_as_an_equal_compact_one(mask: int) -> None:
    """Heads are computed two ways (compact strs read back from their last character, legacy
    ones copied): equal tokens must still be one token, for every length and width."""
    texts = [base * n for base in ("a", "\xe9", "\u0101", "\U0001f600") for n in range(0, 11)]
    legacy = [legacy_str(t) for t in texts]
    assert all(type(t) is str for t in legacy) and legacy == texts
    old = _hashable.set_str_hash_mask(mask)
    try:
        rows = [
            _hashable.sentence_row([[plain]], [other], 1) for plain, other in zip(texts, legacy)
        ]
        rows_back = [
            _hashable.sentence_row([[other]], [plain], 1) for plain, other in zip(texts, legacy)
        ]
    finally:
        _hashable.set_str_hash_mask(old)
    assert rows == [[1, 1, 1, 1]] * len(texts)
    assert rows_back == [[1, 1, 1, 1]] * len(texts)


@requires_compiled(_hashable)
def test_a_reused_table_grows_in_place_with_narrowed_hashes() -> None:
    """A large call leaves its table as the spare; later calls start small in it and grow in
    place, with every token on one of 16 start slots."""
    big = [f"t{i}" for i in range(5000)]
    assert _hashable.sentence_row([big[::3]], big, 1) == [5000, 1667, 1667, 5000]
    old = _hashable.set_str_hash_mask(0xF)
    try:
        hyps = [[f"w{i % 700}_{j}" for j in range(6)] for i in range(900)]
        refs = [[[f"w{i % 700}_{j}" for j in range(0, 6, 2)] + ["t1"]] for i in range(900)]
        rows = _hashable.corpus_rows(refs, hyps, 2)
        row = _hashable.sentence_row(refs[0], hyps[0] + big[:600], 2)
    finally:
        _hashable.set_str_hash_mask(old)
    assert rows.tolist() == [by_definition(r, h, 2) for r, h in zip(refs, hyps)]
    assert row == by_definition(refs[0], hyps[0] + big[:600], 2)


class LooksLikeA:
    """Not a str, but equal to "a" (and hashed like it): a dict treats them as one key."""

    def __hash__(self) -> int:
        return hash("a")

    def __eq__(self, other: Any) -> bool:
        return other == "a"


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_non_str_token_equal_to_a_str_is_that_token(impl) -> None:
    sentence_row, corpus_rows = impl
    # in the hypothesis after strs, and in a reference after every hypothesis token was a str
    assert sentence_row([["a", "b"]], ["a", "b", LooksLikeA()], 1) == [3, 2, 2, 3]
    assert sentence_row([["b", LooksLikeA()]], ["a", "b"], 2) == [2, 2, 2, 0, 2, 1]
    refs, hyps = [[["x", LooksLikeA()]], [["a"]]], [["a", "x"], ["a", 1]]
    assert corpus_rows(refs, hyps, 2).tolist() == [
        by_definition(r, h, 2) for r, h in zip(refs, hyps)
    ]
    assert corpus_rows(refs, hyps, 1).tolist() == [[2, 2, 2, 2], [2, 1, 1, 2]]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_many_distinct_strings(impl) -> None:
    """Enough distinct tokens to grow the compiled table several times."""
    _, corpus_rows = impl
    hyps = [[f"w{i}_{j}" for j in range(40)] for i in range(300)]
    refs = [[[f"w{i}_{j}" for j in range(0, 40, 2)] + ["w0_0"]] for i in range(300)]
    rows = corpus_rows(refs, hyps, 2)
    assert rows.tolist() == [by_definition(r, h, 2) for r, h in zip(refs, hyps)]


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


@pytest.mark.parametrize("corpus_totals", TOTALS)
def test_unusual_input_is_declined_by_corpus_totals(corpus_totals) -> None:
    for refs, hyp in declined_inputs():
        assert corpus_totals([refs], [hyp], 4) is None, (refs, hyp)
    assert corpus_totals([], [], 4) is None
    assert corpus_totals([[["a"]]], [["a"], ["b"]], 4) is None
    assert corpus_totals([[["a"]]], [["a"]], 0) is None


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_one_shot_iterator_of_references_is_left_untouched(impl) -> None:
    sentence_row, _ = impl
    references = iter([["a", "b"], ["b"]])
    assert sentence_row(references, ["a", "b"], 2) is None
    assert list(references) == [["a", "b"], ["b"]]


def test_the_compiled_module_is_used_when_built() -> None:
    from turbobleu._engine import choice as _choice
    from turbobleu._engine.intern import chosen as _intern_impl

    expected = _hashable if _choice.implementation == "cython" else _token_stats
    assert _intern_impl.interning() is expected
    assert turbobleu.nltk.sentence_row is expected.sentence_row


SCORERS = twin_and_compiled(_token_stats, attrgetter("unsmoothed_sentence_score"))
float_weights = st.lists(
    st.one_of(
        st.sampled_from([0.25, 0.5, 1.0, 0.0, -0.0, -1.0]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(-1e6, 1e6),
    ),
    min_size=1,
    max_size=8,
).map(tuple)


@pytest.mark.parametrize("score", SCORERS)
@settings(max_examples=400)
@given(
    refs=st.lists(st.lists(st.sampled_from("abcd"), max_size=10), min_size=1, max_size=3),
    hyp=st.lists(st.sampled_from("abcde"), max_size=10),
    weights=float_weights,
)
def test_unsmoothed_sentence_score_is_nltks_or_declines_silently(score, refs, hyp, weights) -> None:
    """A float (or NLTK's int 0) equal to NLTK's sentence_bleu with NLTK's warnings; or None,
    having warned nothing (turbobleu.nltk's general path then gives NLTK's outcome)."""
    import warnings

    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    from turbobleu import nltk as tb

    def run(fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = ("ok", fn(refs, hyp, weights))
            except (OverflowError, ValueError) as exc:
                value = ("raise", type(exc))
        return value, [str(w.message) for w in caught]

    got, want = run(score), run(nltk_bleu.sentence_bleu)
    if got[0][1] is None:
        assert got[1] == []
        got = run(tb.sentence_bleu)
        assert got[0][0] == want[0][0]
        if want[0][0] == "ok" and math.isnan(want[0][1]):
            assert math.isnan(got[0][1]) and got[1] == want[1]
            return
    assert type(got[0][1]) is type(want[0][1]) and got == want


@pytest.mark.parametrize("score", SCORERS)
def test_unsmoothed_sentence_score_declines_other_weights(score) -> None:
    refs, hyp = [["a", "b", "c"]], ["a", "b", "c"]
    assert score(refs, hyp, (0.5, 0.5)) == 1.0
    assert score(refs, hyp, (0.5, 1)) is None  # an int weight
    assert score(refs, hyp, (0.5, np.float64(0.5))) is None
    assert score(refs, hyp, (1 / 17,) * 17) is None  # more than 16 weights
    assert score(refs, hyp, ()) is None
    assert score([], hyp, (0.5, 0.5)) is None  # no references: NLTK raises


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_user_code_that_empties_the_input_lists_midway_is_harmless(impl) -> None:
    """A token's __hash__ or a sequence's __len__ may clear the caller's lists while they are
    read: the result is that of the lists as passed (or None), never a read of freed memory."""
    sentence_row, corpus_rows = impl

    class ClearsHypotheses:
        def __hash__(self) -> int:
            hyps.clear()
            return 1

    hyps: list = [[ClearsHypotheses()]] + [["a", "b"] for _ in range(50)]
    rows = corpus_rows([[["a"]]] * 51, hyps, 2)
    assert rows is not None and rows[1:].tolist() == [[2, 1, 1, 0, 2, 1]] * 50

    class ClearsReferences(list):
        def __len__(self) -> int:
            refs.clear()
            return list.__len__(self)

    refs: list = [ClearsReferences(["a"])] + [["a", "b"]] * 30
    assert sentence_row(refs, ["a", "b"], 2) in (None, [2, 2, 2, 1, 2, 1])


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_token_that_empties_its_reference_list_midway_is_harmless(impl) -> None:
    """The references of one segment are read while a token's __hash__ empties their list:
    counted as passed (or None), never a read of a freed reference."""
    sentence_row, corpus_rows = impl

    class ClearsTheList:
        def __hash__(self) -> int:
            segment_refs.clear()
            return 1

    segment_refs: list = [[ClearsTheList(), "a"], ["a", "b"], ["b"]]
    as_passed = [list(r) for r in segment_refs]
    want = [by_definition(as_passed, ["a", "b"], 2), by_definition([["b"]], ["b"], 2)]
    segment_refs[:] = as_passed  # (counting by definition hashed the token: emptied)
    row = sentence_row(segment_refs, ["a", "b"], 2)
    segment_refs[:] = as_passed
    rows = corpus_rows([segment_refs, [["b"]]], [["a", "b"], ["b"]], 2)
    if sentence_row is _token_stats.sentence_row:
        # The twin reads the list more than once and may see it emptied: it may decline.
        assert row in (None, want[0])
        assert rows is None or rows.tolist() == want
    else:
        # The compiled module holds the references it read: exactly the lists as passed.
        assert row == want[0]
        assert rows is not None and rows.tolist() == want


@requires_compiled(_hashable)
def test_no_reference_is_leaked_or_freed_on_any_path() -> None:
    """Every way out of the compiled functions (a result, a declined input, an exception from
    a token) leaves the reference counts of the input lists as they were."""
    import sys

    class Raises:
        def __hash__(self) -> int:
            raise ValueError("no hash")

    class Interrupts:
        def __hash__(self) -> int:
            raise KeyboardInterrupt

    ref_a, ref_b = ["a", "b", "c"], ["b", "c"]
    cases = [
        ([ref_a, ref_b], ["a", "b"]),  # held, counted
        ((ref_a, ref_b), ["a", "b"]),  # a tuple of references
        ([ref_a] * 9 + [ref_b], ["a", "b"]),  # more than 8: a snapshot
        ([ref_a, iter(["a"])], ["a"]),  # a reference without len: declined
        ([ref_a, WrongLength(["a"])], ["a"]),  # len disagrees: declined
        ([ref_a, ref_b, [["unhashable"]]], ["a"]),  # an unhashable token: declined
        ([ref_a, [Raises()]], ["a"]),  # __hash__ raises: declined
        ([ref_a, ref_b], WrongLength(["a"])),  # the hypothesis declined first
    ]
    before = (sys.getrefcount(ref_a), sys.getrefcount(ref_b))
    for _ in range(50):
        for refs, hyp in cases:
            _hashable.sentence_row(refs, hyp, 3)
            _hashable.corpus_rows([refs, [ref_b]], [hyp, ["b"]], 3)
            _hashable.corpus_totals([refs, [ref_b]], [hyp, ["b"]], 3)
        with pytest.raises(KeyboardInterrupt):
            _hashable.corpus_rows([[ref_a, ref_b, [Interrupts()]]], [["a"]], 2)
        with pytest.raises(KeyboardInterrupt):
            _hashable.sentence_row([ref_a, ref_b, [Interrupts()]], ["a"], 2)
    assert (sys.getrefcount(ref_a), sys.getrefcount(ref_b)) == before


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_gc_callback_emptying_the_hypothesis_is_harmless(impl) -> None:
    """Creating the interner can run a garbage collection, and so Python code: the row must
    describe the hypothesis as it was read, never count past the ids that were read."""
    import gc

    sentence_row, _ = impl
    hyp = [f"t{i}" for i in range(3000)]
    refs = [[f"t{i}" for i in range(10)]]

    def empty_it(phase: str, info: dict) -> None:
        if phase == "start":
            hyp.clear()

    threshold = gc.get_threshold()
    gc.callbacks.append(empty_it)
    gc.set_threshold(1)
    try:
        row = sentence_row(refs, hyp, 4)
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(empty_it)
    full = by_definition(refs, [f"t{i}" for i in range(3000)], 4)
    assert row is None or row == by_definition(refs, [], 4) or row == full
