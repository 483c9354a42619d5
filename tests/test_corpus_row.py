"""The plain-corpus path: ``corpus_row`` tokenizes and counts a whole corpus in one call.

``BLEU.corpus_score`` takes it when the corpus is a list of str with a list of lists of str (no
None reference) and the tokenizer is a compiled one; everything else goes the general way
(``corpus_stats``: per-segment rows). Both must give the same row, on both implementations.
"""

from __future__ import annotations

import gc
from typing import List

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import turbobleu
from conftest import assert_same_score, compiled_twin_of, requires_compiled, twin_and_compiled
from turbobleu._engine.bleu import _text_rows_py
from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.recipes.gleu import gleu_score

nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")

COMPILED = compiled_twin_of(_text_rows_py)
MODULES = twin_and_compiled(_text_rows_py)
TOK_13A = turbobleu.get_tokenizer("13a").code
FAST_TOKENIZERS = ("none", "13a", "intl", "zh", "char")
SACRE_TOKENIZERS = {name: sacrebleu.BLEU(tokenize=name).tokenizer for name in FAST_TOKENIZERS}
GLEU_OF_TOKENS = _intern_impl.interning().gleu_stats

WORDS = [
    "the",
    "The",
    "cat",
    "sat",
    "a",
    "mat",
    ".",
    ",",
    "2019.",
    "1,000",
    "U.S.",
    "x-y",
    "&amp;",
    "<skipped>",
    "İstanbul",
    "中文",
    "猫",
    "\u3002",
    "ß",
    "dog .",
]
line = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


@st.composite
def plain_corpora(draw):
    segments = draw(st.integers(1, 6))
    hyps = [draw(line) for _ in range(segments)]
    streams = [
        [draw(st.one_of(line, st.sampled_from(hyps))) for _ in range(segments)]
        for _ in range(draw(st.integers(1, 3)))
    ]
    return hyps, streams


def general_stats(
    hyps: List[str], streams: List[List[str]], tokenize: str, lowercase: bool, max_order: int
):
    metric = turbobleu.BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_order)
    return metric.corpus_stats(hyps, streams)


def general_row(
    hyps: List[str], streams: List[List[str]], tokenize: str, lowercase: bool, max_order: int
) -> List[int]:
    return general_stats(hyps, streams, tokenize, lowercase, max_order).total()


@pytest.mark.parametrize("module", MODULES)
@given(
    corpus=plain_corpora(),
    tokenize=st.sampled_from(FAST_TOKENIZERS),
    lowercase=st.booleans(),
    max_order=st.integers(1, 6),
)
@settings(max_examples=150)
def test_corpus_row_equals_the_general_path(
    module, corpus, tokenize: str, lowercase: bool, max_order: int
) -> None:
    hyps, streams = corpus
    code = turbobleu.get_tokenizer(tokenize).code
    want = general_stats(hyps, streams, tokenize, lowercase, max_order)
    rows = np.full((len(hyps), 2 + 2 * max_order), -7, dtype=np.int64)  # overwritten
    row, periods = module.corpus_row(hyps, streams, code, lowercase, max_order, rows)
    assert row == want.total() and rows.tolist() == want.rows()
    assert all(type(x) is int for x in row)
    assert periods == sum(h.endswith(" .") for h in hyps)
    assert module.corpus_row(hyps, streams, code, lowercase, max_order) == (row, periods)


@given(
    corpus=plain_corpora(),
    tokenize=st.sampled_from(FAST_TOKENIZERS),
    lowercase=st.booleans(),
    smoothing=st.sampled_from(["exp", "floor", "none", "add-k"]),
    max_order=st.integers(1, 6),
)
@settings(max_examples=150)
def test_plain_corpus_scores_equal_sacrebleu(
    corpus, tokenize: str, lowercase: bool, smoothing: str, max_order: int
) -> None:
    """End to end through the plain-corpus path (whichever implementation is in use): the
    integer statistics first, then every float of corpus_score and sentence_scores with ==."""
    hyps, streams = corpus
    kwargs = dict(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smoothing,
        max_ngram_order=max_order,
        force=True,
    )
    ours, theirs = turbobleu.BLEU(**kwargs), sacrebleu.BLEU(**kwargs)
    assert ours._plain_corpus_row(hyps, streams) == [
        sum(column) for column in zip(*theirs._extract_corpus_statistics(hyps, streams))
    ]
    assert_same_score(
        ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams), "corpus_score"
    )
    assert ours.get_signature().format() == theirs.get_signature().format()
    sentence = turbobleu.BLEU(effective_order=True, **kwargs)
    want = [
        sacrebleu.BLEU(effective_order=True, **kwargs).sentence_score(h, list(refs)).score
        for h, refs in zip(hyps, zip(*streams))
    ]
    assert sentence.sentence_scores(hyps, streams).tolist() == want


@requires_compiled(COMPILED)
@given(corpus=plain_corpora(), lowercase=st.booleans())
def test_corpus_row_with_forced_hash_collisions(corpus, lowercase: bool) -> None:
    hyps, streams = corpus
    want = COMPILED.corpus_row(hyps, streams, TOK_13A, lowercase, 4)
    assert COMPILED.corpus_row(hyps, streams, TOK_13A, lowercase, 4, hash_mask=3) == want


class Text(str):
    """A str subclass (accepted like a str)."""


OTHER_SHAPES = {
    "hypotheses a tuple": (("a b",), [["a b"]]),
    "references a tuple": (["a b"], (["a b"],)),
    "a stream a tuple": (["a b"], [("a b",)]),
    "a None reference": (["a b", "c"], [["a b", None], ["a", "c d"]]),
    "a bytes hypothesis": ([b"a b"], [["a b"]]),
    "a bytes reference": (["a b"], [[b"a b"]]),
    "streams of other lengths": (["a", "b"], [["a", "b"], ["a"]]),
    "no hypotheses": ([], [[]]),
    "no streams": (["a"], []),
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("shape", OTHER_SHAPES)
def test_other_shapes_are_left_to_the_general_path(module, shape: str) -> None:
    hyps, refs = OTHER_SHAPES[shape]
    assert module.corpus_row(hyps, refs, TOK_13A, False, 4) is None


@pytest.mark.parametrize("module", MODULES)
def test_str_subclasses_count_as_str(module) -> None:
    hyps, refs = [Text("the cat sat .")], [[Text("the cat sat on the mat .")]]
    row, periods = module.corpus_row(hyps, refs, TOK_13A, True, 4)
    assert row == general_row(hyps, refs, "13a", True, 4) and periods == 1


@pytest.mark.parametrize("module", MODULES)
def test_bad_max_order_is_an_error(module) -> None:
    with pytest.raises(ValueError, match="max_ngram_order"):
        module.corpus_row(["a"], [["a"]], TOK_13A, False, 0)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("shape", [(1, 10), (2, 9), (2, 12)])
def test_rows_of_the_wrong_shape_are_an_error(module, shape) -> None:
    with pytest.raises(ValueError, match=r"rows must have shape \(2, 10\)"):
        module.corpus_row(
            ["a", "b"], [["a", "b"]], TOK_13A, False, 4, np.zeros(shape, dtype=np.int64)
        )


# -- gleu_stats: GLEU's choice of one reference per segment, from text --------------------------


@st.composite
def reference_lists(draw):
    """Hypotheses and, per hypothesis, 0-3 references (some copies of hypotheses)."""
    segments = draw(st.integers(1, 6))
    hyps = [draw(line) for _ in range(segments)]
    refs = [
        [draw(st.one_of(line, st.sampled_from(hyps))) for _ in range(draw(st.integers(0, 3)))]
        for _ in range(segments)
    ]
    return hyps, refs


@pytest.mark.parametrize("module", MODULES)
@given(
    corpus=reference_lists(),
    tokenize=st.sampled_from(FAST_TOKENIZERS),
    lowercase=st.booleans(),
    orders=st.tuples(st.integers(1, 5), st.integers(1, 7)),
)
@settings(max_examples=150)
def test_gleu_stats_equal_nltks_gleu_of_the_tokens(
    module, corpus, tokenize: str, lowercase: bool, orders
) -> None:
    hyps, refs = corpus
    tokenizer = SACRE_TOKENIZERS[tokenize]

    def tokens(text: str) -> List[str]:
        return tokenizer((text.lower() if lowercase else text).rstrip()).split()

    token_refs = [[tokens(r) for r in group] for group in refs]
    token_hyps = [tokens(h) for h in hyps]
    code = turbobleu.get_tokenizer(tokenize).code
    stats = module.gleu_stats(hyps, refs, code, lowercase, *orders)
    assert stats == GLEU_OF_TOKENS(token_refs, token_hyps, *orders)
    assert all(type(x) is int for x in stats)
    want = nltk_gleu.corpus_gleu(token_refs, token_hyps, min_len=orders[0], max_len=orders[1])
    assert gleu_score(*stats) == want


@requires_compiled(COMPILED)
@given(corpus=reference_lists(), lowercase=st.booleans())
def test_gleu_stats_with_forced_hash_collisions(corpus, lowercase: bool) -> None:
    hyps, refs = corpus
    want = COMPILED.gleu_stats(hyps, refs, TOK_13A, lowercase, 1, 4)
    assert COMPILED.gleu_stats(hyps, refs, TOK_13A, lowercase, 1, 4, hash_mask=3) == want


GLEU_OTHER_SHAPES = {
    "hypotheses a tuple": (("a b",), [["a b"]]),
    "references a tuple": (["a b"], (["a b"],)),
    "a reference list a tuple": (["a b"], [("a b",)]),
    "a None reference": (["a b"], [["a b", None]]),
    "a bytes hypothesis": ([b"a b"], [["a b"]]),
    "fewer reference lists": (["a", "b"], [["a"]]),
    "no hypotheses": ([], []),
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("shape", GLEU_OTHER_SHAPES)
def test_gleu_stats_leave_other_shapes_to_the_general_path(module, shape: str) -> None:
    hyps, refs = GLEU_OTHER_SHAPES[shape]
    assert module.gleu_stats(hyps, refs, TOK_13A, False, 1, 4) is None


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("orders", [(0, 4), (1, 0)])
def test_gleu_stats_refuse_orders_below_one(module, orders) -> None:
    with pytest.raises(ValueError, match="orders must be >= 1"):
        module.gleu_stats(["a"], [["a"]], TOK_13A, False, *orders)


@pytest.mark.parametrize("module", MODULES)
def test_gleu_stats_refuse_a_lower_that_returns_no_str(module) -> None:
    class Odd(str):
        def lower(self):  # type: ignore[override]
            return 3

    with pytest.raises(TypeError, match=r"lower\(\) must return a str, got int"):
        module.gleu_stats(["a", "b"], [["a"], [Odd("b")]], TOK_13A, True, 1, 4)


@pytest.mark.parametrize("shape", ["a None reference", "hypotheses a tuple", "a stream a tuple"])
def test_scores_of_other_shapes_still_equal_sacrebleu(shape: str) -> None:
    hyps, refs = OTHER_SHAPES[shape]
    assert_same_score(turbobleu.corpus_bleu(hyps, refs), sacrebleu.corpus_bleu(hyps, refs), shape)


@pytest.mark.parametrize(
    "shape",
    ["a bytes hypothesis", "a bytes reference", "streams of other lengths", "no hypotheses"],
)
def test_bad_input_still_gets_the_general_paths_errors(shape: str) -> None:
    hyps, refs = OTHER_SHAPES[shape]
    with pytest.raises((TypeError, ValueError), match=r"hypotheses|references"):
        turbobleu.corpus_bleu(hyps, refs)


class EmptiesTheLists(str):
    """A line whose lower() empties the caller's lists and collects garbage: the corpus must
    still be read from what it was when the call began, and nothing may be freed under it."""

    targets: list = []

    def lower(self) -> str:
        for target in self.targets:
            target.clear()
        gc.collect()
        return str.lower(self)


@pytest.mark.parametrize("module", MODULES)
def test_lists_emptied_during_the_call_are_harmless(module) -> None:
    hyps = [EmptiesTheLists("The Cat sat"), "a dog"]
    stream = ["the cat sat on the mat", "A dog ran"]
    want = general_row(list(hyps), [list(stream)], "13a", True, 4)
    EmptiesTheLists.targets = [hyps, stream]
    try:
        row, _ = module.corpus_row(hyps, [stream], TOK_13A, True, 4)
    finally:
        EmptiesTheLists.targets = []
    assert row == want


def test_the_signature_counts_the_streams_the_call_began_with() -> None:
    hyps = [EmptiesTheLists("The Cat sat"), "a dog"]
    streams = [["the cat sat on the mat", "A dog ran"], ["a cat", "dogs"]]
    metric = turbobleu.BLEU(lowercase=True)
    EmptiesTheLists.targets = [streams]
    try:
        metric.corpus_score(hyps, streams)
    finally:
        EmptiesTheLists.targets = []
    assert metric.get_signature().format().startswith("nrefs:2|")


class LowerIsNotAStr(str):
    def lower(self):  # type: ignore[override]
        return 42


@pytest.mark.parametrize(
    "call",
    [
        lambda: turbobleu.corpus_bleu([LowerIsNotAStr("a b")], [["a b"]], lowercase=True),
        lambda: turbobleu.corpus_bleu(["a b"], [[LowerIsNotAStr("a b")]], lowercase=True),
        lambda: turbobleu.corpus_bleu(
            ["a b", "c"], [[LowerIsNotAStr("a b"), None], ["a", "c"]], lowercase=True
        ),
        lambda: turbobleu.sentence_bleu(LowerIsNotAStr("a b"), ["a b"], lowercase=True),
        lambda: turbobleu.sentence_bleu("a b", [LowerIsNotAStr("a b")], lowercase=True),
    ],
    ids=[
        "corpus hypothesis",
        "corpus reference",
        "general path",
        "sentence hypothesis",
        "sentence reference",
    ],
)
def test_a_lower_that_returns_no_str_is_a_type_error(call) -> None:
    with pytest.raises(TypeError, match=r"lower\(\) must return a str, got int"):
        call()


class ScoresASentenceWhenLowered(str):
    """A line whose lower() scores another sentence: a call from inside a call."""

    def lower(self) -> str:
        inner.append(turbobleu.sentence_bleu("the dog ran away", ["a dog ran away fast"]))
        return str.lower(self)


inner: list = []


def test_sentence_bleu_called_from_inside_sentence_bleu() -> None:
    inner.clear()
    hyp = ScoresASentenceWhenLowered("The Cat sat on the mat")
    got = turbobleu.sentence_bleu(hyp, ["the cat sat on a mat", "a cat on the mat"], lowercase=True)
    want = sacrebleu.sentence_bleu(
        str(hyp), ["the cat sat on a mat", "a cat on the mat"], lowercase=True
    )
    assert_same_score(got, want, "outer call")
    assert len(inner) == 1
    assert_same_score(
        inner[0], sacrebleu.sentence_bleu("the dog ran away", ["a dog ran away fast"]), "inner call"
    )


@requires_compiled(COMPILED)
@settings(max_examples=300)
@given(
    hyp=line,
    refs=st.lists(st.one_of(line, st.none()), min_size=1, max_size=3),
    tokenizer=st.sampled_from(FAST_TOKENIZERS),
    lowercase=st.booleans(),
    order=st.integers(1, 16),
    smooth=st.sampled_from(
        [("none", None), ("floor", None), ("floor", 0.3), ("exp", None), ("exp", 2)]
    ),
    effective=st.booleans(),
)
def test_sentence_score_parts_are_the_row_and_its_score(
    hyp, refs, tokenizer, lowercase, order, smooth, effective
) -> None:
    """The fused call sentence_bleu makes: the same row and the same score parts as the two
    calls it replaces."""
    from turbobleu._engine.recipes import _sacrebleu_scores
    from turbobleu._engine.recipes.sacrebleu import NEUMAIER_SUM

    if all(r is None for r in refs) and hyp.strip():
        refs = refs + [""]
    code = turbobleu.get_tokenizer(tokenizer).code
    row = COMPILED.sentence_row(hyp, refs, code, lowercase, order)
    score, precisions, bp = _sacrebleu_scores.sacrebleu_score_parts(
        row, order, smooth[0], smooth[1], effective, NEUMAIER_SUM
    )
    got = COMPILED.sentence_score_parts(
        hyp, refs, code, lowercase, order, smooth[0], smooth[1], effective, NEUMAIER_SUM
    )
    assert got == (score, row[2 : 2 + order], row[2 + order :], precisions, bp, row[0], row[1])


@requires_compiled(COMPILED)
def test_sentence_score_parts_refuses_what_it_does_not_score() -> None:
    code = turbobleu.get_tokenizer("13a").code
    with pytest.raises(ValueError, match="add-k"):
        COMPILED.sentence_score_parts("a b", ["a b"], code, False, 4, "add-k", 1, True, False)
    with pytest.raises(ValueError, match="max_ngram_order"):
        COMPILED.sentence_score_parts("a b", ["a b"], code, False, 0, "exp", None, True, False)
    with pytest.raises(ValueError, match="max_order > 16"):
        COMPILED.sentence_score_parts("a b", ["a b"], code, False, 17, "exp", None, True, False)
    with pytest.raises(TypeError, match="hypothesis must be a str"):
        COMPILED.sentence_score_parts(None, ["a b"], code, False, 4, "exp", None, True, False)
