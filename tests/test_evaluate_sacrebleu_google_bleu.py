"""``turbobleu.evaluate.load("sacrebleu")`` and ``load("google_bleu")`` against Hugging Face
evaluate's published metric scripts, reproduced here as the oracle.

``evaluate`` fetches these scripts from the Hub (tests never download), so each oracle below is
the scripts' ``_compute`` as published (huggingface/evaluate, ``metrics/sacrebleu/sacrebleu.py``
and ``metrics/google_bleu/google_bleu.py``): the same composition of the real libraries, written
here. sacrebleu: one reference string per prediction is wrapped in a list, every prediction must
have as many references (the script's ValueError), the references are transposed into streams and
``sacrebleu.corpus_bleu`` gets the options (``tokenize`` only when truthy). google_bleu: the same
wrapping, every string through the tokenizer (default: evaluate's 13a, which is sacrebleu's
``Tokenizer13a`` followed by ``str.split()``), then ``nltk.translate.gleu_score.corpus_gleu``.
Every returned value is compared with ``==``.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FULL_MATRIX, evaluate_streams, same_typed, system_cases

sacrebleu = pytest.importorskip("sacrebleu")
gleu_score = pytest.importorskip("nltk.translate.gleu_score")
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a  # noqa: E402

from turbobleu import evaluate as tbe  # noqa: E402

_SACRE_13A = SacreTokenizer13a()


def evaluate_13a(line: str) -> List[str]:
    return _SACRE_13A(line).split()


def oracle_sacrebleu(
    predictions: List[str],
    references: List[Any],
    smooth_method: str = "exp",
    smooth_value: Any = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: Any = None,
    use_effective_order: bool = False,
) -> Dict[str, Any]:
    streams = evaluate_streams(references)
    extra = {"tokenize": tokenize} if tokenize else {}
    out = sacrebleu.corpus_bleu(
        predictions,
        streams,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        **extra,
    )
    return {
        "score": out.score,
        "counts": out.counts,
        "totals": out.totals,
        "precisions": out.precisions,
        "bp": out.bp,
        "sys_len": out.sys_len,
        "ref_len": out.ref_len,
    }


def oracle_google_bleu(
    predictions: List[str],
    references: List[Any],
    tokenizer: Any = evaluate_13a,
    min_len: Any = 1,
    max_len: Any = 4,
) -> Dict[str, float]:
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    refs = [[tokenizer(r) for r in group] for group in references]
    preds = [tokenizer(p) for p in predictions]
    return {
        "google_bleu": gleu_score.corpus_gleu(
            list_of_references=refs, hypotheses=preds, min_len=min_len, max_len=max_len
        )
    }


def outcome(fn: Any, *args: Any, **kwargs: Any) -> tuple:
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # compared with the oracle's
        return ("raise", type(exc), str(exc))


def assert_same_outcome(got: tuple, want: tuple) -> None:
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert same_typed(got[1], want[1]), (got, want)
    else:
        assert got[1:] == want[1:], (got, want)


# -- the scripts' own examples -------------------------------------------------------------------

GUIDE = (
    "It is a guide to action which ensures that the rubber duck always disobeys the commands of "
    "the cat"
)
HISTORY = "he read the book because he was interested in world history"
GUIDE_REFS = [
    "It is the guiding principle which guarantees the rubber duck forces never being under the "
    "command of the cat",
    "It is a guide to action that ensures that the rubber duck will never heed the cat commands",
    "It is the practical guide for the rubber duck army never to heed the directions of the cat",
]
HISTORY_REF = "he was interested in world history because he read the book"


@pytest.mark.parametrize(
    "references,kwargs,rounded",
    [
        ([GUIDE_REFS[:1], [HISTORY_REF]], {}, 0.44),
        ([GUIDE_REFS, [HISTORY_REF]], {}, 0.61),
        ([GUIDE_REFS, [HISTORY_REF]], {"min_len": 2}, 0.53),
        ([GUIDE_REFS, [HISTORY_REF]], {"min_len": 2, "max_len": 6}, 0.4),
    ],
)
def test_google_bleu_documented_examples(references: Any, kwargs: Any, rounded: float) -> None:
    predictions = [GUIDE, HISTORY]
    got = tbe.load("google_bleu").compute(predictions=predictions, references=references, **kwargs)
    assert same_typed(got, oracle_google_bleu(predictions, references, **kwargs))
    assert round(got["google_bleu"], 2) == rounded  # the values the script documents


@pytest.mark.parametrize(
    "predictions,references,rounded",
    [
        (
            ["hello there general kenobi", "foo bar foobar"],
            [["hello there general kenobi", "hello there !"], ["foo bar foobar", "foo bar foobar"]],
            100.0,
        ),
        (
            ["hello there general kenobi", "on our way to ankh morpork"],
            [
                ["hello there general kenobi", "hello there !"],
                ["goodbye ankh morpork", "ankh morpork"],
            ],
            39.8,
        ),
    ],
)
def test_sacrebleu_documented_examples(predictions: Any, references: Any, rounded: float) -> None:
    got = tbe.load("sacrebleu").compute(predictions=predictions, references=references)
    assert same_typed(got, oracle_sacrebleu(predictions, references))
    assert list(got) == ["score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"]
    assert round(got["score"], 1) == rounded


# -- the modules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sacrebleu", "google_bleu", "evaluate-metric/google_bleu"])
def test_load_names_and_module_attributes(name: str) -> None:
    module = tbe.load(name)
    assert module.name == name.rpartition("/")[2]
    assert module.description
    forms = [dict(form) for form in module.features]
    assert forms[0]["references"] == "sequence of string" and forms[1]["references"] == "string"
    assert tbe.metric_name(name) == module.name
    assert {"sacrebleu", "google_bleu", "bleu", "chrf", "ter"} <= set(tbe.METRIC_NAMES)


def test_unknown_names_are_refused() -> None:
    assert tbe.metric_name("rouge") is None and tbe.metric_name(3) is None
    with pytest.raises(ValueError, match="rouge"):
        tbe.load("rouge")


def test_add_and_add_batch_then_compute_with_the_scripts_options() -> None:
    predictions = [GUIDE, HISTORY, "the cat"]
    references = [GUIDE_REFS[:2], [HISTORY_REF, HISTORY], ["a cat", "the cat sat"]]
    for name, oracle, options in [
        ("sacrebleu", oracle_sacrebleu, {"smooth_method": "floor", "lowercase": True}),
        ("google_bleu", oracle_google_bleu, {"min_len": 2, "max_len": 3}),
    ]:
        module = tbe.load(name)
        module.add(prediction=predictions[0], reference=references[0])
        module.add_batch(predictions=predictions[1:], references=references[1:])
        assert same_typed(module.compute(**options), oracle(predictions, references, **options))
        # compute() cleared what was added
        with pytest.raises(ValueError, match="empty"):
            module.compute()


def test_sacrebleu_errors() -> None:
    metric = tbe.load("sacrebleu")
    with pytest.raises(ValueError, match="^Sacrebleu requires the same number of references"):
        metric.compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])
    with pytest.raises(ValueError, match="predictions has 2 items but references has 1"):
        metric.compute(predictions=["a", "b"], references=[["a"]])
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a str"):
        metric.compute(predictions=["a", 3], references=["a", "b"])
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_order'"):
        metric.compute(predictions=["a"], references=["a"], max_order=2)


def test_google_bleu_errors_and_references_of_any_number() -> None:
    metric = tbe.load("google_bleu")
    with pytest.raises(TypeError, match="tokenizer must be callable"):
        metric.compute(predictions=["a"], references=["a"], tokenizer="13a")
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be a str"):
        metric.compute(predictions=["a"], references=[[None]])
    predictions = ["a b c", "a b", "c"]
    references: List[Any] = [["a b c d"], [], ["c", "c d", "d"]]  # no count check here
    assert same_typed(
        metric.compute(predictions=predictions, references=references),
        oracle_google_bleu(predictions, references),
    )


@pytest.mark.parametrize(
    "predictions, references, max_len",
    [
        # an entity made by evaluate's steps on a line with a newline tail: Python's 13a
        (["&amp;lt; a b\n", "c d"], [["&lt; a b", "a"], ["c d"]], 4),
        (["a-\n", "b-<skipped>\n \n"], [["a"], ["b"]], 4),  # the steps drop "-\n"
        # forty n-gram orders that can match
        ([" ".join("abcdefghij" * 4), "a b"], [[" ".join("abcdefghij" * 4)], ["a b"]], 40),
        (["a b c"], [[]], 4),  # no reference anywhere
    ],
)
def test_google_bleu_lines_and_orders_at_the_edges(predictions, references, max_len) -> None:
    got = tbe.compute_google_bleu(predictions, references, max_len=max_len)
    assert same_typed(got, oracle_google_bleu(predictions, references, max_len=max_len))


@pytest.mark.parametrize("min_len, max_len", [(1, 2**63), (2**63, 2**63), (2**63, 4)])
def test_google_bleu_orders_beyond_an_int64_do_what_the_script_does(min_len, max_len) -> None:
    predictions, references = ["a b c", "d"], [["a b c", "a"], ["d e"]]
    assert_same_outcome(
        outcome(tbe.compute_google_bleu, predictions, references, min_len=min_len, max_len=max_len),
        outcome(oracle_google_bleu, predictions, references, min_len=min_len, max_len=max_len),
    )


# -- generated text --------------------------------------------------------------------------------

pieces = st.sampled_from(
    ["a", "b", "the", " ", "  ", ".", ",", "&amp;", "&lt;", "<b>", "-", "'s", "\n", "é", "1"]
)
lines = st.lists(pieces, max_size=10).map("".join)
orders = st.one_of(
    st.just((1, 4)), st.tuples(st.integers(1, 4), st.integers(1, 6)), st.sampled_from([(2, 1)])
)


@settings(max_examples=90)
@given(
    data=st.lists(
        st.tuples(lines, st.lists(lines, min_size=0, max_size=3)), min_size=1, max_size=5
    ),
    min_max=orders,
    single=st.booleans(),
    custom=st.booleans(),
)
def test_google_bleu_matches_the_script(
    data: Any, min_max: Any, single: bool, custom: bool
) -> None:
    predictions = [p for p, _ in data]
    references = [refs[0] if refs else "" for _, refs in data] if single else [r for _, r in data]
    tokenizer = str.split if custom else None
    kwargs: Dict[str, Any] = {"min_len": min_max[0], "max_len": min_max[1]}
    got = outcome(
        tbe.compute_google_bleu,
        predictions,
        references,
        **kwargs,
        **({"tokenizer": tokenizer} if custom else {}),
    )
    want = outcome(
        oracle_google_bleu,
        predictions,
        references,
        tokenizer=tokenizer or evaluate_13a,
        **kwargs,
    )
    assert_same_outcome(got, want)


@settings(max_examples=60)
@given(
    data=st.lists(
        st.tuples(lines, st.lists(lines, min_size=2, max_size=2)), min_size=1, max_size=5
    ),
    n_refs=st.integers(1, 2),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    tokenize=st.sampled_from([None, "", "13a", "none", "char", "intl"]),
    lowercase=st.booleans(),
    effective=st.booleans(),
    single=st.booleans(),
)
def test_sacrebleu_matches_the_script(
    data: Any,
    n_refs: int,
    smooth: str,
    tokenize: Any,
    lowercase: bool,
    effective: bool,
    single: bool,
) -> None:
    predictions = [p for p, _ in data]
    references = [refs[0] for _, refs in data] if single else [refs[:n_refs] for _, refs in data]
    kwargs = {
        "smooth_method": smooth,
        "tokenize": tokenize,
        "lowercase": lowercase,
        "use_effective_order": effective,
    }
    assert_same_outcome(
        outcome(tbe.compute_sacrebleu, predictions, references, **kwargs),
        outcome(oracle_sacrebleu, predictions, references, **kwargs),
    )


# -- real data -------------------------------------------------------------------------------------


@pytest.mark.parametrize("corpus,system", system_cases())
def test_wmt23_systems_match_the_scripts(corpus: Any, system: str) -> None:
    step = 1 if FULL_MATRIX or corpus.source == "fixture" else 8  # a sample in the default run
    predictions = corpus.hypotheses(system)[::step]
    streams = corpus.reference_streams(corpus.references)
    references = [list(group) for group in zip(*streams)][::step]
    got = tbe.load("google_bleu").compute(predictions=predictions, references=references)
    assert same_typed(got, oracle_google_bleu(predictions, references))
    got = tbe.load("sacrebleu").compute(predictions=predictions, references=references)
    assert same_typed(got, oracle_sacrebleu(predictions, references))
    # the first reference only, given as one string per prediction
    firsts = [group[0] for group in references]
    got = tbe.compute_google_bleu(predictions, firsts, min_len=2, max_len=6)
    assert same_typed(got, oracle_google_bleu(predictions, firsts, min_len=2, max_len=6))
