"""Differential fuzz over every public scoring API, with a seeded generator (issue 22).

Each case draws random input and one API, and checks it against its oracle:

- text: ``corpus_bleu``/``sentence_bleu``/``BLEU(...)`` (tokenizers, lowercase, smoothing, effective
  order, max order) against sacrebleu's, every field of the result;
- NLTK drop-in: ``turbobleu.nltk.sentence_bleu``/``corpus_bleu`` (weights, method0..7, auto_reweigh)
  against NLTK's, the value or the exception type;
- token ids: ``sentence_bleu_batch`` (lists, padded arrays, 1-D arrays), ``ReferenceSets.score``
  and ``self_bleu`` with both recipes, against sacrebleu's / NLTK's sentence_bleu of the same ids;
- chrF/chrF++: ``CHRF(...)`` corpus and sentence scores (orders, beta, lowercase, whitespace,
  eps smoothing) against sacrebleu's, score and text;
- pairwise: ``pairwise_bleu`` (sacrebleu recipe, and NLTK's on whitespace tokens) and
  ``pairwise_chrf``, each cell against the oracle's single-reference sentence score;
- malformed input: one argument of a valid call made wrong; the answer must be a TypeError or
  ValueError whose message names that argument;
- wrong arguments (issue 32): every argument of the batch APIs, ``ReferenceSets``, ``self_bleu``,
  the recipes, ``pairwise_bleu``, ``mbr_select`` and the corpus/sentence APIs given a value of a
  wrong type or shape (an array where a scalar belongs, a scalar where a sequence belongs, None,
  a dict, bytes, NaN); the message must name the argument;
- unusual pads (issue 32): pad ids at the edges of their dtype (uint32 0xFFFFFFFF, uint64
  2**64-1, negatives in signed arrays, any int in Python lists) must score as the same rows
  without padding, at every token-id entry point.

``test_garbage_input_fuzz`` (issue 40) feeds the token-id entry points random nestings of odd
values (0-d and object arrays, NumPy scalars, dicts, sets, bytes, None, ragged lists): each call
must score or raise a TypeError/ValueError in turbobleu's words, naming the argument, never
NumPy's or CPython's ("len() of unsized object", "inhomogeneous shape", ...).

Outcomes are counted (ok, mismatch, unclear error, valid input refused). ``TURBOBLEU_FUZZ_CASES``
sets the number of cases (default 300, about 2 s), ``TURBOBLEU_FUZZ_SEED`` the seed; the counts
are printed (``pytest -s``) and any case that is not ok fails the test with its reproducer.
"""

from __future__ import annotations

import logging
import os
import random
import warnings
from collections import Counter
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

import turbobleu  # noqa: E402
import turbobleu.nltk  # noqa: E402
from conftest import score_differences  # noqa: E402

CASES = int(os.environ.get("TURBOBLEU_FUZZ_CASES", "300"))
SEED = int(os.environ.get("TURBOBLEU_FUZZ_SEED", "22"))

# Pieces of text that exercise the tokenizers: punctuation, numbers, entities, non-Latin scripts.
WORDS = (
    "the a cat sat on mat . , ! ? ; : ' \" ( ) - -- ... 1,000 3.14 12 $5 %"
    " Hello WORLD naïve Straße ÉCOLE café &amp; &quot; &lt; e.g. U.S. don't it's"
    " 中文 字 日本語 です 한국어 입니다 Ω ß ǅ İ ﬁ ½ 🙂 \u00a0x x\u2009y"
).split(" ")
TOKENIZERS = ["13a", "none", "intl", "char", "zh"]
for _name, _module in (("ja-mecab", "MeCab"), ("ko-mecab", "mecab_ko")):
    try:
        __import__(_module)
        TOKENIZERS.append(_name)
    except ImportError:
        pass
SMOOTHING = [("exp", None), ("none", None), ("floor", None), ("floor", 0.5), ("add-k", None)]
SMOOTHING += [("add-k", 2), ("exp", 0.3)]


class Case:
    """One drawn case: what it calls (for the report) and how it came out."""

    def __init__(self, kind: str, detail: str) -> None:
        self.kind, self.detail = kind, detail


# -- drawing -----------------------------------------------------------------------------------
def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.choice([0, 1, 2, 4, 7, 12]))]
    text = " ".join(words)
    if rng.random() < 0.1:
        text = f"  {text} "
    if rng.random() < 0.2 and text:
        text += " ."
    return text


def token_ids(rng: random.Random, vocab: int) -> List[int]:
    return [rng.randrange(vocab) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13]))]


def ids_text(ids: List[int]) -> str:
    return " ".join(f"w{i}" for i in ids)


# -- oracles -----------------------------------------------------------------------------------
def same_score(got: Any, want: Any) -> bool:
    """Every field of the metric's score and its text, exactly (``conftest.score_differences``)."""
    return not score_differences(got, want)


def raises_named(call: Callable[[], Any], name: str) -> str:
    """ok if ``call`` raises a TypeError/ValueError whose message names ``name``."""
    kind, got = outcome(call)
    if kind == "value":
        return f"refused-bad: accepted ({got!r})"
    if type(got) not in (TypeError, ValueError) or name not in str(got):
        return f"unclear: {type(got).__name__}: {got} (expected a message naming {name})"
    return "ok"


def outcome(call: Callable[[], Any]) -> Tuple[str, Any]:
    try:
        return "value", call()
    except Exception as exc:  # the oracle's (or our) exception is part of the result
        return "error", exc


def compare(ours: Callable[[], Any], theirs: Callable[[], Any], equal: Callable) -> str:
    """ok / mismatch / refused (ours raised, the oracle scored) / ok-both-raise."""
    want_kind, want = outcome(theirs)
    got_kind, got = outcome(ours)
    if want_kind == "error":
        if got_kind == "error" and type(got) is type(want):
            return "ok"
        return f"mismatch: oracle raised {type(want).__name__}, ours gave {got_kind} {got!r}"
    if got_kind == "error":
        return f"refused: {type(got).__name__}: {got}"
    return "ok" if equal(got, want) else f"mismatch: {got!r} != {want!r}"


# -- case kinds ----------------------------------------------------------------------------------
def text_corpus(rng: random.Random) -> Tuple[str, str]:
    n, k = rng.randint(1, 5), rng.randint(1, 3)
    hyps = [sentence(rng) for _ in range(n)]
    refs = [[sentence(rng) for _ in range(n)] for _ in range(k)]
    method, value = rng.choice(SMOOTHING)
    opts = dict(
        tokenize=rng.choice(TOKENIZERS),
        lowercase=rng.random() < 0.3,
        smooth_method=method,
        smooth_value=value,
    )
    order = rng.choice([4, 4, 1, 2, 3, 5, 6])
    eff = rng.random() < 0.5
    ours = turbobleu.BLEU(max_ngram_order=order, effective_order=eff, force=True, **opts)
    theirs = sacrebleu.metrics.BLEU(max_ngram_order=order, effective_order=eff, force=True, **opts)
    detail = f"BLEU({opts}, order={order}, eff={eff}).corpus_score({hyps!r}, {refs!r})"
    if rng.random() < 0.5:
        return detail, compare(
            lambda: ours.corpus_score(hyps, refs),
            lambda: theirs.corpus_score(hyps, refs),
            same_score,
        )
    detail = detail.replace("corpus_score", "sentence_score")
    return detail, compare(
        lambda: ours.sentence_score(hyps[0], [r[0] for r in refs]),
        lambda: theirs.sentence_score(hyps[0], [r[0] for r in refs]),
        same_score,
    )


def text_functions(rng: random.Random) -> Tuple[str, str]:
    n = rng.randint(1, 4)
    hyps = [sentence(rng) for _ in range(n)]
    refs = [[sentence(rng) for _ in range(n)] for _ in range(rng.randint(1, 2))]
    method, value = rng.choice(SMOOTHING)
    tok, lower = rng.choice(TOKENIZERS), rng.random() < 0.3
    if rng.random() < 0.5:
        detail = f"corpus_bleu({hyps!r}, {refs!r}, {method}, {value}, tokenize={tok}, lc={lower})"
        return detail, compare(
            lambda: turbobleu.corpus_bleu(hyps, refs, method, value, True, lower, tok),
            lambda: sacrebleu.corpus_bleu(hyps, refs, method, value, True, lower, tok),
            same_score,
        )
    sent_refs = [r[0] for r in refs]
    detail = f"sentence_bleu({hyps[0]!r}, {sent_refs!r}, {method}, {value}, {tok}, lc={lower})"
    return detail, compare(
        lambda: turbobleu.sentence_bleu(hyps[0], sent_refs, method, value, lower, tok),
        lambda: sacrebleu.sentence_bleu(hyps[0], sent_refs, method, value, lower, tok),
        same_score,
    )


def nltk_weights(rng: random.Random) -> Any:
    choice = rng.random()
    if choice < 0.4:
        return (0.25, 0.25, 0.25, 0.25)
    n = rng.randint(1, 5)
    weights = [rng.choice([0.0, 0.1, 0.25, 1 / 3, 0.5, 1.0]) for _ in range(n)]
    return tuple(weights) if choice < 0.8 else weights


def nltk_drop_in(rng: random.Random) -> Tuple[str, str]:
    vocab = rng.choice([3, 6, 20])
    n = rng.randint(1, 4)
    hyps = [[f"t{i}" for i in token_ids(rng, vocab)] for _ in range(n)]
    refs = [
        [[f"t{i}" for i in token_ids(rng, vocab)] for _ in range(rng.randint(1, 3))]
        for _ in range(n)
    ]
    weights, method = nltk_weights(rng), rng.randint(0, 7)
    reweigh = rng.random() < 0.3
    ours_sf = (
        None if method == 0 else getattr(turbobleu.nltk.SmoothingFunction(), f"method{method}")
    )
    theirs_sf = None if method == 0 else getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    if rng.random() < 0.5:
        detail = f"nltk.corpus_bleu({refs!r}, {hyps!r}, {weights}, method{method}, {reweigh})"
        return detail, compare(
            lambda: turbobleu.nltk.corpus_bleu(refs, hyps, weights, ours_sf, reweigh),
            lambda: nltk_bleu.corpus_bleu(refs, hyps, weights, theirs_sf, reweigh),
            lambda a, b: a == b and type(a) is type(b),
        )
    detail = f"nltk.sentence_bleu({refs[0]!r}, {hyps[0]!r}, {weights}, method{method}, {reweigh})"
    return detail, compare(
        lambda: turbobleu.nltk.sentence_bleu(refs[0], hyps[0], weights, ours_sf, reweigh),
        lambda: nltk_bleu.sentence_bleu(refs[0], hyps[0], weights, theirs_sf, reweigh),
        lambda a, b: a == b and type(a) is type(b),
    )


def id_form(rng: random.Random, rows: List[List[int]], pad: int) -> Tuple[Any, Optional[int]]:
    """The rows as lists, a padded 2-D array (some dtype and layout) or a list of 1-D arrays."""
    form = rng.random()
    if form < 0.4:
        return rows, None
    if form < 0.7:
        width = max([len(r) for r in rows] + [0]) + rng.randint(0, 2)
        arr = np.full((len(rows), width), pad, dtype=rng.choice([np.int64, np.int32, np.uint16]))
        for i, r in enumerate(rows):
            arr[i, : len(r)] = r
        if rng.random() < 0.3:  # a strided view of a wider array
            wide = np.full((len(rows), 2 * width), pad, dtype=arr.dtype)
            wide[:, ::2] = arr
            arr = wide[:, ::2]
        return arr, pad
    return [np.array(r, dtype=np.int64) for r in rows], None


def batch_ids(rng: random.Random) -> Tuple[str, str]:
    vocab, n = rng.choice([3, 5, 50]), rng.randint(1, 6)
    hyps = [token_ids(rng, vocab) for _ in range(n)]
    refs = [[token_ids(rng, vocab) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    nltk_recipe = rng.random() < 0.35
    if nltk_recipe:
        weights, method = nltk_weights(rng), rng.randint(0, 7)
        if method == 6 and len(weights) < 3:  # NLTK's IndexError, here at construction
            message = raises_named(lambda: turbobleu.NLTKRecipe(weights, method), "weights")
            return f"NLTKRecipe({weights}, 6)", message
        recipe: Any = turbobleu.NLTKRecipe(weights, method)
        sf = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")

        def oracle(hyp: List[int], rs: List[List[int]]) -> float:
            return float(nltk_bleu.sentence_bleu(rs, hyp, weights, sf))

    else:
        method, value = rng.choice(SMOOTHING)
        order, eff = rng.choice([4, 1, 2, 5]), rng.random() < 0.7
        recipe = turbobleu.SacreBLEURecipe(method, value, eff, order)
        metric = sacrebleu.metrics.BLEU(
            tokenize="none",
            smooth_method=method,
            smooth_value=value,
            max_ngram_order=order,
            effective_order=eff,
        )

        def oracle(hyp: List[int], rs: List[List[int]]) -> float:
            return metric.sentence_score(ids_text(hyp), [ids_text(r) for r in rs]).score

    api = rng.choice(["batch", "prepared", "self"])
    pad = vocab + 7
    if api == "self" and n >= 2:
        texts, pad_id = id_form(rng, hyps, pad)
        detail = f"self_bleu({texts!r}, {recipe!r}, pad_id={pad_id})"

        def ours() -> List[float]:
            return turbobleu.self_bleu(texts, recipe, pad_id=pad_id, threads=1).tolist()

        def theirs() -> List[float]:
            return [oracle(h, hyps[:i] + hyps[i + 1 :]) for i, h in enumerate(hyps)]

    elif api == "prepared":
        g = rng.randint(1, 3)
        samples = [token_ids(rng, vocab) for _ in range(n * g)]
        prepared = turbobleu.ReferenceSets(refs, max_order=max(recipe.orders, 4))
        hyp_in, pad_id = id_form(rng, samples, pad)
        detail = f"ReferenceSets({refs!r}).score({hyp_in!r}, {recipe!r}, group_size={g})"

        def ours() -> List[float]:
            out = prepared.score(hyp_in, recipe, group_size=g, pad_id=pad_id, threads=1)
            return out.tolist()

        def theirs() -> List[float]:
            return [oracle(h, refs[i // g]) for i, h in enumerate(samples)]

    else:
        hyp_in, pad_id = id_form(rng, hyps, pad)
        detail = f"sentence_bleu_batch({hyp_in!r}, {refs!r}, {recipe!r}, pad_id={pad_id})"

        def ours() -> List[float]:
            out = turbobleu.sentence_bleu_batch(hyp_in, refs, recipe, pad_id=pad_id, threads=1)
            return out.tolist()

        def theirs() -> List[float]:
            return [oracle(h, r) for h, r in zip(hyps, refs)]

    result = compare(ours, theirs, lambda a, b: a == b)
    if nltk_recipe and result.startswith("mismatch: oracle raised"):
        # No NLTK original here: the batch API names the row NLTK raises for (ValueError).
        got_kind, got = outcome(ours)
        if got_kind == "error" and isinstance(got, ValueError) and "hypotheses[" in str(got):
            result = "ok"
        elif got_kind == "error" and isinstance(got, ValueError) and "texts[" in str(got):
            result = "ok"
    return detail, result


# Malformed arguments: (argument name, bad value). Each replaces one argument of a valid call.
BAD_ROWS = [None, 7, 1.5, {1: 2}, {1, 2}, "text", b"x", [[1, 2]], [1, -1], [2**31], [2**64], [1.0]]
BAD_ARGS: Dict[str, List[Any]] = {
    # (Any int pads Python lists: 2**64 and -2**40 are valid pad ids since issue 32.)
    "pad_id": [1.5, "1", b"x", float("nan"), True, [1], np.array([1.0, 2.0]), np.array([[1, 2]])],
    "threads": [0, -1, 1.5, "2", True],
    "max_order": [0, -1, 2**31, 2**30 - 1, 1.5, "4", None, True],
    "group": [[[0], 1], [0.0], [5], [-1], "0", [2**70]],
    "group_size": [0, -2, 1.5, "1", True],
    "lengths": [[[1], 2], [1.5], [-1], [99], "1", [2**70]],
}


def malformed(rng: random.Random) -> Tuple[str, str]:
    hyps = [[1, 2, 3], [2, 3]]
    refs = [[[1, 2, 3]], [[2, 3, 4], [3]]]
    which = rng.choice(
        ["row", "ref", "text", "textref", "pad_id", "threads", "max_order"] * 2
        + ["group", "group_size", "lengths", "array"]
    )
    bad = rng.choice(BAD_ARGS.get(which, BAD_ROWS))
    if which == "row":
        i = rng.randrange(2)
        rows = list(hyps)
        rows[i] = bad
        api = rng.choice(["batch", "self", "prepared"])
        name = f"texts[{i}]" if api == "self" else f"hypotheses[{i}]"
        if isinstance(bad, list) and bad and isinstance(bad[0], list):
            name += "[0]"
        elif isinstance(bad, list):
            name += f"[{len(bad) - 1}]" if bad != [2**31] and bad != [2**64] else "[0]"
        call = {
            "batch": lambda: turbobleu.sentence_bleu_batch(rows, refs),
            "self": lambda: turbobleu.self_bleu(rows),
            "prepared": lambda: turbobleu.ReferenceSets(refs).score(rows),
        }[api]
        if isinstance(bad, str):
            name = "hypotheses" if api != "self" else "texts"
    elif which == "ref":
        g, k = rng.randrange(2), 0
        groups = [list(grp) for grp in refs]
        groups[g][k] = bad
        name = f"references[{g}][{k}]"
        if isinstance(bad, str):
            name = "references"
        call = rng.choice(
            [
                lambda: turbobleu.sentence_bleu_batch(hyps, groups),
                lambda: turbobleu.ReferenceSets(groups),
            ]
        )
    elif which == "text":
        texts = ["a b c", "b c"]
        i = rng.randrange(2)
        texts[i] = rng.choice([None, 7, b"x", ["a"], {"a": 1}])
        name = f"hypotheses[{i}]"
        call = rng.choice(
            [
                lambda: turbobleu.corpus_bleu(texts, [["a b c", "b c"]]),
                lambda: turbobleu.BLEU().corpus_score(texts, [["a b c", "b c"]]),
            ]
        )
        if i == 0 and rng.random() < 0.5:
            name = "hypothesis"
            call = lambda: turbobleu.sentence_bleu(texts[0], ["a b"])  # noqa: E731
    elif which == "textref":
        bad_refs = rng.choice(
            [
                np.array([1, 2]),
                "a b",
                None,
                7,
                [None],
                [{0: "a"}],
                [["a", 7]],
                [["a"]],
                [[b"a", "b"]],
            ]
        )
        name = "references"
        if isinstance(bad_refs, list) and bad_refs and isinstance(bad_refs[0], list):
            name = "references[0]"
        call = lambda: turbobleu.corpus_bleu(["a b", "b c"], bad_refs)  # noqa: E731
        bad = bad_refs
    elif which == "pad_id":
        name = "pad_id"
        call = rng.choice(
            [
                lambda: turbobleu.sentence_bleu_batch(hyps, refs, pad_id=bad),
                lambda: turbobleu.sentence_bleu_batch(np.array([[1, 2]]), [[[1]]], pad_id=bad),
                lambda: turbobleu.ReferenceSets(refs, pad_id=bad),
                lambda: turbobleu.self_bleu(hyps, pad_id=bad),
            ]
        )
    elif which == "threads":
        name = "threads"
        call = lambda: turbobleu.sentence_bleu_batch(hyps, refs, threads=bad)  # noqa: E731
    elif which == "max_order":
        api = rng.choice(["prepared", "recipe", "bleu", "sentence"])
        name = "max_ngram_order" if api in ("bleu", "sentence") else "max_order"
        call = {
            "prepared": lambda: turbobleu.ReferenceSets(refs, max_order=bad),
            "recipe": lambda: turbobleu.SacreBLEURecipe(max_order=bad),
            "bleu": lambda: turbobleu.BLEU(max_ngram_order=bad),
            "sentence": lambda: turbobleu.BLEU(
                max_ngram_order=bad, effective_order=True
            ).sentence_score("a b", ["a b"]),
        }[api]
    elif which == "group":
        name = "group"
        call = lambda: turbobleu.ReferenceSets(refs).score([[1]], group=bad)  # noqa: E731
    elif which == "group_size":
        name = "group_size"
        call = lambda: turbobleu.ReferenceSets(refs).score(hyps, group_size=bad)  # noqa: E731
    elif which == "lengths":
        name = "hyp_lengths"
        call = lambda: turbobleu.sentence_bleu_batch(  # noqa: E731
            np.array([[1, 2, 3]]), [[[1]]], hyp_lengths=bad
        )
    else:
        bad = rng.choice(
            [
                np.zeros((2, 2, 2)),
                np.array([[1.5]]),
                np.array([[-3]]),
                np.array([1, 2]),
                np.array([["a"]]),
            ]
        )
        name = "hypotheses"
        call = lambda: turbobleu.sentence_bleu_batch(bad, [[[1]]])  # noqa: E731
    return f"{which} = {bad!r}", raises_named(call, name)


CHRF_OPTIONS = dict(
    char_order=[6, 6, 1, 2, 4],
    word_order=[0, 0, 2, 1],
    beta=[2, 2, 1, 3],
)


def corpus_or_sentence(
    rng: random.Random,
    label: str,
    ours: Any,
    theirs: Any,
    hyps: List[str],
    refs: List[List[str]],
    same: Callable[[Any, Any], bool],
) -> Tuple[str, str]:
    """A metric object's corpus score, or (as often) its sentence score of the first segment,
    against the oracle's object."""
    if rng.random() < 0.5:
        detail = f"{label}.corpus_score({hyps!r}, {refs!r})"
        return detail, compare(
            lambda: ours.corpus_score(hyps, refs), lambda: theirs.corpus_score(hyps, refs), same
        )
    sent_refs = [r[0] for r in refs]
    detail = f"{label}.sentence_score({hyps[0]!r}, {sent_refs!r})"
    return detail, compare(
        lambda: ours.sentence_score(hyps[0], sent_refs),
        lambda: theirs.sentence_score(hyps[0], sent_refs),
        same,
    )


def chrf_text(rng: random.Random) -> Tuple[str, str]:
    n, k = rng.randint(1, 4), rng.randint(1, 3)
    hyps = [sentence(rng) for _ in range(n)]
    refs = [[sentence(rng) for _ in range(n)] for _ in range(k)]
    opts: Dict[str, Any] = {name: rng.choice(values) for name, values in CHRF_OPTIONS.items()}
    for flag in ("lowercase", "whitespace", "eps_smoothing"):
        opts[flag] = rng.random() < 0.3
    ours, theirs = turbobleu.CHRF(**opts), sacrebleu.metrics.CHRF(**opts)
    return corpus_or_sentence(rng, f"CHRF({opts})", ours, theirs, hyps, refs, same_score)


def ter_text(rng: random.Random) -> Tuple[str, str]:
    """TER's corpus or sentence score (random options, 1-3 references; shifted hypotheses
    as often as random ones) against sacrebleu's."""
    n, k = rng.randint(1, 4), rng.randint(1, 3)
    refs = [[sentence(rng) for _ in range(n)] for _ in range(k)]
    hyps = []
    for i in range(n):
        words = refs[0][i].split()
        if rng.random() < 0.5 and words:  # a block of the reference moved elsewhere
            a, size = rng.randrange(len(words)), rng.randint(1, 4)
            block, rest = words[a : a + size], words[:a] + words[a + size :]
            at = rng.randrange(len(rest) + 1)
            words = rest[:at] + block + rest[at:]
            hyps.append(" ".join(words).upper() if rng.random() < 0.2 else " ".join(words))
        else:
            hyps.append(sentence(rng))
    opts = {
        name: rng.random() < 0.4
        for name in ("normalized", "no_punct", "asian_support", "case_sensitive")
    }
    ours, theirs = turbobleu.TER(**opts), sacrebleu.metrics.TER(**opts)
    return corpus_or_sentence(rng, f"TER({opts})", ours, theirs, hyps, refs, same_score)


def pairwise(rng: random.Random) -> Tuple[str, str]:
    hyps = [sentence(rng) for _ in range(rng.randint(1, 4))]
    refs = [sentence(rng) for _ in range(rng.randint(1, 4))]
    which = rng.choice(["bleu", "nltk", "chrf"])
    if which == "bleu":
        ours = lambda: turbobleu.pairwise_bleu(hyps, refs).tolist()  # noqa: E731
        theirs = lambda: [[sacrebleu.sentence_bleu(h, [r]).score for r in refs] for h in hyps]  # noqa: E731
    elif which == "nltk":
        method = rng.choice([0, 1, 2, 3, 4, 7])
        recipe = turbobleu.NLTKRecipe(smoothing_function=method)
        smooth = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
        ours = lambda: turbobleu.pairwise_bleu(hyps, refs, recipe).tolist()  # noqa: E731
        theirs = lambda: [  # noqa: E731
            [
                nltk_bleu.sentence_bleu([r.split()], h.split(), smoothing_function=smooth)
                for r in refs
            ]
            for h in hyps
        ]
    else:
        ours = lambda: turbobleu.pairwise_chrf(hyps, refs).tolist()  # noqa: E731
        theirs = lambda: [[sacrebleu.sentence_chrf(h, [r]).score for r in refs] for h in hyps]  # noqa: E731
    return f"pairwise {which}({hyps!r}, {refs!r})", compare(ours, theirs, lambda a, b: a == b)


# -- wrong arguments, unusual pads (issue 32) ---------------------------------------------------
H = [[1, 2, 3], [2, 3]]
R = [[[1, 2, 3]], [[2, 3, 4], [3]]]
ARR = np.array([[1, 2, 3], [2, 3, 0]])
TEXTS = ["a b c", "b c"]
# Wrong for any argument here: an array where one value belongs, a mapping, bytes.
WRONG_ANY: List[Any] = [np.array([1.0, 2.0]), np.array([[1, 2]]), {1: 2}, b"x"]
WRONG_INT = WRONG_ANY + [float("nan"), 1.5, "4", True, [1], np.array([1])]
WRONG_FLAG = WRONG_ANY + [float("nan"), None, "yes", 2, 1.5, [True]]
WRONG_ROWS = [None, 7, 1.5, float("nan"), {1: 2}, b"x", np.array([1, 2]), np.array([[1.5]])]
WRONG_NUMBER = WRONG_ANY + ["0.1", [0.1]]
WRONG_NAME = WRONG_ANY + [float("nan"), 7, [1]]
# sacrebleu reads its flags by truth value: only a value without one is wrong there.
WRONG_TRUTH = [np.array([1.0, 2.0]), np.array([[1, 2]])]
WRONG_LENGTHS = WRONG_ANY + [float("nan"), 7, "2", np.array([1.5, 2.0]), [[2], 3]]

# (argument name as messages say it, wrong values, call with the value in that argument)
WRONG_ARGUMENTS: List[Tuple[str, List[Any], Callable[[Any], Any]]] = [
    ("hypotheses", WRONG_ROWS, lambda v: turbobleu.sentence_bleu_batch(v, R)),
    ("references", WRONG_ROWS, lambda v: turbobleu.sentence_bleu_batch(H, v)),
    ("recipe", WRONG_NAME + [None], lambda v: turbobleu.sentence_bleu_batch(H, R, v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.sentence_bleu_batch(H, R, pad_id=v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.sentence_bleu_batch(ARR, R, pad_id=v)),
    (
        "pad_id",
        [2**31, -(2**31) - 1, 2**64],
        lambda v: turbobleu.sentence_bleu_batch(ARR.astype(np.int32), R, pad_id=v),
    ),
    (
        "pad_id",
        [-1, 2**32, 2**64 - 1],
        lambda v: turbobleu.sentence_bleu_batch(ARR.astype(np.uint32), R, pad_id=v),
    ),
    ("hyp_lengths", WRONG_LENGTHS, lambda v: turbobleu.sentence_bleu_batch(ARR, R, hyp_lengths=v)),
    ("ref_lengths", WRONG_LENGTHS, lambda v: turbobleu.sentence_bleu_batch(H, ARR, ref_lengths=v)),
    (
        "tokenize",
        WRONG_NAME,
        lambda v: turbobleu.sentence_bleu_batch(TEXTS, [[t] for t in TEXTS], tokenize=v),
    ),
    ("lowercase", WRONG_FLAG, lambda v: turbobleu.sentence_bleu_batch(H, R, lowercase=v)),
    ("threads", WRONG_INT + [0], lambda v: turbobleu.sentence_bleu_batch(H, R, threads=v)),
    ("return_stats", WRONG_FLAG, lambda v: turbobleu.sentence_bleu_batch(H, R, return_stats=v)),
    ("references", WRONG_ROWS, lambda v: turbobleu.ReferenceSets(v)),
    ("max_order", WRONG_INT + [None, 0], lambda v: turbobleu.ReferenceSets(R, max_order=v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.ReferenceSets(R, pad_id=v)),
    ("lengths", WRONG_LENGTHS, lambda v: turbobleu.ReferenceSets(ARR, lengths=v)),
    ("tokenize", WRONG_NAME, lambda v: turbobleu.ReferenceSets([["a b"]], tokenize=v)),
    ("lowercase", WRONG_FLAG, lambda v: turbobleu.ReferenceSets(R, lowercase=v)),
    ("threads", WRONG_INT + [0], lambda v: turbobleu.ReferenceSets(R, threads=v)),
    ("hypotheses", WRONG_ROWS, lambda v: turbobleu.ReferenceSets(R).score(v)),
    ("recipe", WRONG_NAME + [None], lambda v: turbobleu.ReferenceSets(R).score(H, v)),
    ("group", WRONG_LENGTHS, lambda v: turbobleu.ReferenceSets(R).score(H, group=v)),
    ("group_size", WRONG_INT + [0], lambda v: turbobleu.ReferenceSets(R).score(H, group_size=v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.ReferenceSets(R).score(H, pad_id=v)),
    ("lengths", WRONG_LENGTHS, lambda v: turbobleu.ReferenceSets(R).score(ARR, lengths=v)),
    ("threads", WRONG_INT + [0], lambda v: turbobleu.ReferenceSets(R).score(H, threads=v)),
    ("return_stats", WRONG_FLAG, lambda v: turbobleu.ReferenceSets(R).score(H, return_stats=v)),
    ("max_order", WRONG_INT + [0], lambda v: turbobleu.ReferenceSets(R).stats(H, max_order=v)),
    ("texts", WRONG_ROWS, lambda v: turbobleu.self_bleu(v)),
    ("recipe", WRONG_NAME + [None], lambda v: turbobleu.self_bleu(H, v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.self_bleu(H, pad_id=v)),
    ("lengths", WRONG_LENGTHS, lambda v: turbobleu.self_bleu(ARR, lengths=v)),
    ("tokenize", WRONG_NAME, lambda v: turbobleu.self_bleu(TEXTS, tokenize=v)),
    ("lowercase", WRONG_FLAG, lambda v: turbobleu.self_bleu(TEXTS, lowercase=v)),
    ("threads", WRONG_INT + [0], lambda v: turbobleu.self_bleu(H, threads=v)),
    ("return_stats", WRONG_FLAG, lambda v: turbobleu.self_bleu(H, return_stats=v)),
    ("smooth_method", WRONG_NAME + [None], lambda v: turbobleu.SacreBLEURecipe(v)),
    ("smooth_value", WRONG_NUMBER, lambda v: turbobleu.SacreBLEURecipe("floor", v)),
    ("effective_order", WRONG_FLAG, lambda v: turbobleu.SacreBLEURecipe(effective_order=v)),
    ("max_order", WRONG_INT + [None, 0], lambda v: turbobleu.SacreBLEURecipe(max_order=v)),
    (
        "weights",
        [None, 7, float("nan"), {1: 2}, b"x", np.array([[1, 2]])],
        lambda v: turbobleu.NLTKRecipe(v),
    ),
    (
        "smoothing_function",
        WRONG_ANY + [float("nan"), 8, "method9", [1]],
        lambda v: turbobleu.NLTKRecipe(smoothing_function=v),
    ),
    ("auto_reweigh", WRONG_FLAG, lambda v: turbobleu.NLTKRecipe(auto_reweigh=v)),
    ("epsilon", WRONG_NUMBER, lambda v: turbobleu.NLTKRecipe(epsilon=v)),
    ("alpha", WRONG_NUMBER, lambda v: turbobleu.NLTKRecipe(alpha=v)),
    ("k", WRONG_NUMBER, lambda v: turbobleu.NLTKRecipe(k=v)),
    ("hypotheses", WRONG_ROWS, lambda v: turbobleu.pairwise_bleu(v, H)),
    ("references", WRONG_ROWS[1:], lambda v: turbobleu.pairwise_bleu(H, v)),
    ("pad_id", WRONG_INT, lambda v: turbobleu.pairwise_bleu(ARR, pad_id=v)),
    ("hyp_lengths", WRONG_LENGTHS, lambda v: turbobleu.pairwise_bleu(ARR, hyp_lengths=v)),
    ("lowercase", WRONG_FLAG, lambda v: turbobleu.pairwise_bleu(TEXTS, lowercase=v)),
    ("threads", WRONG_INT + [0], lambda v: turbobleu.pairwise_bleu(H, threads=v)),
    ("return_stats", WRONG_FLAG, lambda v: turbobleu.pairwise_bleu(H, return_stats=v)),
    ("rows", WRONG_ANY + [1.5, "x"], lambda v: turbobleu.PairwiseBLEU(H).matrix(v)),
    ("block_rows", WRONG_INT + [0], lambda v: list(turbobleu.PairwiseBLEU(H).blocks(v))),
    ("candidates", WRONG_ROWS, lambda v: turbobleu.mbr_select(v)),
    ("pseudo_references", WRONG_ROWS[1:], lambda v: turbobleu.mbr_select(TEXTS, v)),
    ("include_self", WRONG_FLAG, lambda v: turbobleu.mbr_select(TEXTS, include_self=v)),
    ("candidates", WRONG_ROWS, lambda v: turbobleu.mbr_select_batch(v)),
    ("pseudo_references", WRONG_ROWS[1:], lambda v: turbobleu.mbr_select_batch([TEXTS], v)),
    ("hypotheses", WRONG_ROWS, lambda v: turbobleu.corpus_bleu(v, [TEXTS])),
    ("references", WRONG_ROWS, lambda v: turbobleu.corpus_bleu(TEXTS, v)),
    ("smooth_method", WRONG_NAME + [None], lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], v)),
    ("smooth_value", WRONG_NUMBER, lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], "floor", v)),
    ("force", WRONG_TRUTH, lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], force=v)),
    ("lowercase", WRONG_TRUTH, lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], lowercase=v)),
    ("tokenize", WRONG_NAME, lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], tokenize=v)),
    (
        "use_effective_order",
        WRONG_TRUTH,
        lambda v: turbobleu.corpus_bleu(TEXTS, [TEXTS], use_effective_order=v),
    ),
    ("hypothesis", WRONG_ROWS, lambda v: turbobleu.sentence_bleu(v, TEXTS)),
    ("references", WRONG_ROWS, lambda v: turbobleu.sentence_bleu("a b", v)),
    ("smooth_method", WRONG_NAME + [None], lambda v: turbobleu.sentence_bleu("a", TEXTS, v)),
    ("smooth_value", WRONG_NUMBER, lambda v: turbobleu.sentence_bleu("a", TEXTS, "floor", v)),
    ("lowercase", WRONG_TRUTH, lambda v: turbobleu.sentence_bleu("a", TEXTS, lowercase=v)),
    ("tokenize", WRONG_NAME, lambda v: turbobleu.sentence_bleu("a", TEXTS, tokenize=v)),
    (
        "use_effective_order",
        WRONG_TRUTH,
        lambda v: turbobleu.sentence_bleu("a", TEXTS, use_effective_order=v),
    ),
    ("max_ngram_order", WRONG_INT + [None, 0], lambda v: turbobleu.BLEU(max_ngram_order=v)),
    ("effective_order", WRONG_TRUTH, lambda v: turbobleu.BLEU(effective_order=v)),
    ("trg_lang", WRONG_NAME, lambda v: turbobleu.BLEU(trg_lang=v)),
]


def wrong_argument(rng: random.Random) -> Tuple[str, str]:
    """One argument of a valid call given a value of a wrong type or shape."""
    name, values, call = rng.choice(WRONG_ARGUMENTS)
    bad = rng.choice(values)
    return f"{name} = {bad!r}", raises_named(lambda: call(bad), name)


# Pad ids at the edges of their dtype, each valid for its dtype.
EDGE_PADS: List[Tuple[Any, int]] = [
    (np.uint32, 2**32 - 1),
    (np.uint64, 2**64 - 1),
    (np.uint16, 2**16 - 1),
    (np.uint8, 255),
    (np.int64, -1),
    (np.int64, -(2**63)),
    (np.int64, 2**63 - 1),
    (np.int32, -(2**31)),
    (np.int16, -100),
    (np.int8, -1),
]


def padded_form(rng: random.Random, rows: List[List[int]]) -> Tuple[Any, int, str]:
    """``rows`` padded at the end (and as a 2-D array, a list of 1-D arrays or lists), with a
    pad id at the edge of the form's range: (input, pad_id, description)."""
    dtype, pad = rng.choice(EDGE_PADS)
    extra = [rng.randint(0, 3) for _ in rows]
    form = rng.choice(["array", "vectors", "lists"])
    if form == "lists":
        pad = rng.choice([pad, 2**64, -(2**70), 2**31, -(2**31) - 1])  # any int pads a list
        return [r + [pad] * e for r, e in zip(rows, extra)], pad, f"lists, pad {pad}"
    width = max(len(r) + e for r, e in zip(rows, extra))
    arr = np.full((len(rows), width), pad, dtype=dtype)
    for i, r in enumerate(rows):
        arr[i, : len(r)] = r
    if form == "vectors":
        vectors = [arr[i, : len(r) + e] for i, (r, e) in enumerate(zip(rows, extra))]
        return vectors, pad, f"1-D {np.dtype(dtype)} arrays, pad {pad}"
    return arr, pad, f"{np.dtype(dtype)} array, pad {pad}"


def unusual_pad(rng: random.Random) -> Tuple[str, str]:
    """Padded input against the same rows unpadded: the same scores, never a refusal."""
    vocab, n = rng.choice([3, 5, 50]), rng.randint(2, 5)
    hyps = [token_ids(rng, vocab) for _ in range(n)]
    refs = [[token_ids(rng, vocab) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    padded, pad, form = padded_form(rng, hyps)
    api = rng.choice(["batch", "refs", "prepared", "self", "pairwise"])

    def ours() -> List[Any]:
        if api == "batch":
            return turbobleu.sentence_bleu_batch(padded, refs, pad_id=pad, threads=1).tolist()
        if api == "refs":  # the references padded (one per row), the hypotheses as lists
            return turbobleu.sentence_bleu_batch(hyps, padded, pad_id=pad, threads=1).tolist()
        if api == "prepared":
            prepared = turbobleu.ReferenceSets(refs, pad_id=pad)
            return prepared.score(padded, pad_id=pad, threads=1).tolist()
        if api == "self":
            return turbobleu.self_bleu(padded, pad_id=pad, threads=1).tolist()
        return turbobleu.pairwise_bleu(padded, pad_id=pad, threads=1).tolist()

    def theirs() -> List[Any]:
        if api == "batch":
            return turbobleu.sentence_bleu_batch(hyps, refs, threads=1).tolist()
        if api == "refs":
            return turbobleu.sentence_bleu_batch(hyps, [[r] for r in hyps], threads=1).tolist()
        if api == "prepared":
            return turbobleu.ReferenceSets(refs).score(hyps, threads=1).tolist()
        if api == "self":
            return turbobleu.self_bleu(hyps, threads=1).tolist()
        return turbobleu.pairwise_bleu(hyps, threads=1).tolist()

    if api == "refs" and not isinstance(padded, np.ndarray):
        padded = [[r] for r in padded]  # one reference per hypothesis (a 2-D array is that too)
    detail = f"{api}: {form}: {hyps!r} / {refs!r}"
    return detail, compare(ours, theirs, lambda a, b: a == b)


KINDS = [text_corpus, text_functions, nltk_drop_in, batch_ids, batch_ids, malformed, chrf_text]
KINDS += [pairwise, wrong_argument, unusual_pad, ter_text]


# -- garbage input (issue 40) ------------------------------------------------------------------
# Values no argument should hold, alone or nested: what NumPy and CPython answer for them must
# never reach the caller.
GARBAGE_ATOMS: List[Callable[[], Any]] = [
    lambda: np.array(5),
    lambda: np.array(2.5),
    lambda: np.array([1, 2], dtype=object),
    lambda: np.array(["a"]),
    lambda: np.array([[1, 2], [3, 4]]),
    lambda: np.zeros((0,)),
    lambda: np.array([1.5]),
    lambda: np.array([True]),
    lambda: np.array([1, 2], dtype=np.int8),
    lambda: np.int64(3),
    lambda: np.float32(1),
    lambda: {},
    lambda: {1: 2},
    lambda: set(),
    lambda: frozenset({1}),
    lambda: (),
    lambda: [],
    lambda: "a b",
    lambda: "",
    lambda: b"x",
    lambda: bytearray(b"ab"),
    lambda: None,
    lambda: 7,
    lambda: -3,
    lambda: 2**70,
    lambda: 1.5,
    lambda: float("nan"),
    lambda: True,
    lambda: 1j,
    lambda: range(3),
    lambda: object(),
]
# Words of NumPy's and CPython's errors that mean a check of ours is missing.
FOREIGN_WORDS = (
    "unsized object",
    "inhomogeneous",
    "setting an array element",
    "only integer scalar arrays",
    "is not iterable",
    "not a sequence",
    "has no len",
    "iteration over a 0-d array",
    "unhashable",
    "not subscriptable",
)


def garbage(rng: random.Random, depth: int = 0) -> Any:
    """An odd value, or a list, tuple or object array of them (up to 4 levels)."""
    if depth >= 4 or rng.random() < 0.35:
        return rng.choice(GARBAGE_ATOMS)()
    items = [garbage(rng, depth + 1) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))]
    form = rng.random()
    if form < 0.55:
        return items
    if form < 0.8:
        return tuple(items)
    array = np.empty(len(items), dtype=object)  # (never NumPy's ragged-nesting error here)
    array[:] = items
    return array


def _rows(value: Any) -> int:
    """How many rows the other argument needs to pair with ``value`` (1 where it has no length)."""
    try:
        return max(1, len(value))
    except TypeError:
        return 1


GARBAGE_CALLS: Dict[str, Tuple[str, Callable[[Any], Any]]] = {
    "self_bleu": ("texts", lambda g: turbobleu.self_bleu(g, threads=1)),
    "ReferenceSets.score": (
        "hypotheses",
        lambda g: turbobleu.ReferenceSets([[[1, 2]], [[2, 3]]]).score(g, threads=1),
    ),
    "sentence_bleu_batch/hypotheses": (
        "hypotheses",
        lambda g: turbobleu.sentence_bleu_batch(g, [[[1, 2]]] * _rows(g), threads=1),
    ),
    "sentence_bleu_batch/references": (
        "references",
        lambda g: turbobleu.sentence_bleu_batch([[1, 2]] * _rows(g), g, threads=1),
    ),
    "ReferenceSets": ("references", lambda g: turbobleu.ReferenceSets(g)),
    "pairwise_bleu/hypotheses": (
        "hypotheses",
        lambda g: turbobleu.pairwise_bleu(g, [[1, 2]], threads=1),
    ),
    "pairwise_bleu/references": (
        "references",
        lambda g: turbobleu.pairwise_bleu([[1, 2]], g, threads=1),
    ),
}


def our_words(call: Callable[[], Any], name: str) -> str:
    """ok if ``call`` scores, or raises a TypeError/ValueError naming ``name`` in our words."""
    kind, got = outcome(call)
    if kind == "value":
        return "ok"
    text = str(got)
    foreign = [w for w in FOREIGN_WORDS if w in text]
    if type(got) not in (TypeError, ValueError) or name not in text or foreign:
        return f"unclear: {type(got).__name__}: {text} (expected our message naming {name})"
    return "ok"


def garbage_input(rng: random.Random) -> Tuple[str, str]:
    value = garbage(rng)
    if not isinstance(value, (list, tuple)) and rng.random() < 0.7:
        value = [value]  # mostly a list of rows, some odd, sometimes the odd value itself
    api = rng.choice(sorted(GARBAGE_CALLS))
    name, call = GARBAGE_CALLS[api]
    return f"{api}({value!r})", our_words(lambda: call(value), name)


# The garbage of issue 40's report, and its kin: each message in our words, for each
# implementation (the suite runs under TURBOBLEU_IMPL=cython and python).
GARBAGE_CASES = [
    (
        lambda: turbobleu.self_bleu([np.array(5), ({},), []]),
        ValueError,
        "texts[0] must be 1-D, got shape ()",
    ),
    (
        lambda: turbobleu.ReferenceSets([[[1, 2]]]).score((np.array(5), [[(1, 2)]])),
        ValueError,
        "hypotheses[0] must be 1-D, got shape ()",
    ),
    (
        lambda: turbobleu.self_bleu(
            (np.array([1, 2], dtype=object), [[[[[]]], np.array(["a"])]], [])
        ),
        ValueError,
        "texts[1] must be a 1-D array or sequence of token ids, got a ragged list",
    ),
    (
        lambda: turbobleu.self_bleu([[np.array([1, 2])]]),
        TypeError,
        "texts[0][0] must be an integer token id, got ndarray array([1, 2])",
    ),
    (
        lambda: turbobleu.self_bleu([[1], np.float32(1)]),
        TypeError,
        "texts[1] must be a sequence of token ids, got float32",
    ),
    (
        lambda: turbobleu.sentence_bleu_batch([[1], [2]], [[[1]], [np.array(5)]]),
        TypeError,
        "references[1][0] is an integer",
    ),
    (
        lambda: turbobleu.self_bleu([["a"], None]),
        TypeError,
        "texts[1] must be a sequence of str tokens, got NoneType",
    ),
]


@pytest.mark.parametrize("index", range(len(GARBAGE_CASES)))
def test_reported_garbage_gets_our_words(index: int) -> None:
    call, error, message = GARBAGE_CASES[index]
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message)


def test_garbage_input_fuzz() -> None:
    failures, counts = [], Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(2 * CASES):
            detail, result = garbage_input(random.Random(SEED * 1_000_003 + i))
            counts[result.split(":")[0]] += 1
            if result != "ok":
                failures.append(f"case {i} (seed {SEED}): {result}\n    {detail[:300]}")
    print(f"\ngarbage fuzz: {2 * CASES} cases, seed {SEED}: {dict(counts)}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} not ok)"


def run(cases: int, seed: int) -> Tuple[Counter, List[str]]:
    """Counts per outcome class, and the report lines of the cases that are not ok."""
    counts: Counter = Counter()
    failures: List[str] = []
    # sacrebleu's and turbobleu's advice (effective order, tokenized periods) is not under test;
    # the loggers are restored after (other tests capture those warnings).
    loggers = [logging.getLogger(name) for name in ("sacrebleu", "turbobleu")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        run_cases(cases, seed, counts, failures)
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
    return counts, failures


def run_cases(cases: int, seed: int, counts: Counter, failures: List[str]) -> None:
    for i in range(cases):
        rng = random.Random(seed * 1_000_003 + i)
        kind = KINDS[i % len(KINDS)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            detail, result = kind(rng)
        label = result.split(":")[0]
        counts[(kind.__name__, label)] += 1
        if label != "ok":
            failures.append(f"case {i} (seed {seed}) {kind.__name__}: {result}\n    {detail}")


def test_fuzz_differential() -> None:
    counts, failures = run(CASES, SEED)
    summary: Counter = Counter()
    for (_, label), c in counts.items():
        summary[label] += c
    print(
        f"\nfuzz: {CASES} cases, seed {SEED}: "
        + ", ".join(f"{k}={v}" for k, v in sorted(summary.items()))
    )
    for (kind, label), c in sorted(counts.items()):
        print(f"  {kind:16s} {label:12s} {c}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} not ok)"


def test_every_wrong_argument_names_itself() -> None:
    """The wrong-argument table in full (the fuzz draws from it): every value of every entry."""
    failures = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, values, call in WRONG_ARGUMENTS:
            for bad in values:
                result = raises_named(lambda: call(bad), name)
                if result != "ok":
                    failures.append(f"{name} = {bad!r}: {result}")
    assert not failures, "\n".join(failures) + f"\n({len(failures)} not ok)"
