"""TER against sacrebleu 2.6.0: edit counts (both implementations, generated inputs built to hit
sacrebleu's limits), the Tercom tokenizer under every option, and the metric object's scores,
signatures, references and errors."""

from __future__ import annotations

import itertools
import random
from typing import Any, Dict, List

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

import turbobleu
from conftest import (
    assert_same_score,
    built_implementations,
    compiled_twin_of,
    evaluate_streams,
    requires_compiled,
    twin_and_compiled,
)
from turbobleu._engine.ter import _ter_py, edits
from turbobleu._engine.ter.tercom import TercomWords
from turbobleu.ter import TER, corpus_ter, sentence_ter

COMPILED = compiled_twin_of(_ter_py)
KERNELS = twin_and_compiled(_ter_py)


def sacrebleu_edits(hyp: List[int], ref: List[int]) -> int:
    return translation_edit_rate([str(w) for w in hyp], [str(w) for w in ref])[0]


# -- edit counts ---------------------------------------------------------------------------------
def _moved(ref: List[int], start: int, length: int, to: int) -> List[int]:
    """``ref`` with the block [start, start + length) moved before position ``to``."""
    block = ref[start : start + length]
    rest = ref[:start] + ref[start + length :]
    return rest[:to] + block + rest[to:]


def _random_pair(seed: int, vocab: int, length: int) -> tuple:
    rng = random.Random(seed)
    ref = [rng.randrange(vocab) for _ in range(length)]
    return [rng.randrange(vocab) for _ in range(length)], ref


LIMIT_CASES = {
    # a block moved so that its start lands 49, 50, 51 words away (sacrebleu's distance limit 50)
    **{
        f"distance-{d}": (_moved(list(range(60)), 0, 3, d), list(range(60)))
        for d in (48, 49, 50, 51, 52)
    },
    # blocks of 10 and 11 words (the size limit is 10: the 11th word needs another shift)
    **{
        f"size-{n}": (_moved(list(range(40)), 5, n, 30 - n), list(range(40)))
        for n in (9, 10, 11, 12)
    },
    # one repeated word: many candidates, ties broken by length, start and target
    "repeated": ([1] * 12 + [2] + [1] * 7, [2] + [1] * 20),
    "two-words": ([1, 2] * 15, [2, 1] * 15),
    # long texts over few words: more than 1,000 candidates, the search stops early
    "candidates": _random_pair(seed=0, vocab=3, length=60),
    "empty-hyp": ([], [1, 2, 3]),
    "empty-ref": ([1, 2, 3], []),
    "both-empty": ([], []),
    "hyp-much-shorter": ([1, 2], list(range(130))),  # the band widens
    "hyp-much-longer": (list(range(130)), [5, 6]),
    "reversed": (list(range(30))[::-1], list(range(30))),
}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("case", sorted(LIMIT_CASES))
def test_edits_at_the_limits_equal_sacrebleu(kernel: object, case: str) -> None:
    hyp, ref = LIMIT_CASES[case]
    assert kernel.pair_edits(hyp, ref) == sacrebleu_edits(hyp, ref)  # type: ignore[attr-defined]


def test_limit_cases_reach_the_limits() -> None:
    """The cases above exercise what they claim: the 1,000-candidate stop changes the count
    (against an unlimited search), and the distance cases straddle a change in the result."""
    hyp, ref = LIMIT_CASES["candidates"]
    limited = _ter_py.pair_edits(hyp, ref)
    saved = _ter_py.MAX_CANDIDATES
    try:
        _ter_py.MAX_CANDIDATES = 10**9
        unlimited = _ter_py.pair_edits(hyp, ref)
    finally:
        _ter_py.MAX_CANDIDATES = saved
    assert limited != unlimited
    by_distance = [_ter_py.pair_edits(*LIMIT_CASES[f"distance-{d}"]) for d in (48, 52)]
    assert by_distance[0] != by_distance[1]
    by_size = [_ter_py.pair_edits(*LIMIT_CASES[f"size-{n}"]) for n in (10, 11)]
    assert by_size[0] != by_size[1]


def _shuffled_pair(draw: st.DrawFn) -> tuple:
    vocab = draw(st.sampled_from([2, 3, 5, 20]))
    ref = draw(st.lists(st.integers(0, vocab - 1), max_size=35))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 4))):  # edits and moved blocks
        kind = draw(st.sampled_from(["insert", "delete", "move"]))
        at = draw(st.integers(0, len(hyp)))
        if kind == "insert":
            hyp.insert(at, draw(st.integers(0, vocab)))
        elif kind == "delete":
            del hyp[at : at + draw(st.integers(1, 3))]
        elif hyp:
            n = draw(st.integers(1, 12))
            block = hyp[at : at + n]
            del hyp[at : at + n]
            to = draw(st.integers(0, len(hyp)))
            hyp[to:to] = block
    if draw(st.booleans()):
        hyp = draw(st.lists(st.integers(0, vocab), max_size=35))
    return hyp, ref


@given(st.composite(_shuffled_pair)())
def test_generated_edits_equal_sacrebleu(pair: tuple) -> None:
    hyp, ref = pair
    want = sacrebleu_edits(hyp, ref)
    for kernel in built_implementations(_ter_py):
        assert kernel.pair_edits(hyp, ref) == want


@requires_compiled(COMPILED)
@pytest.mark.skipif(
    turbobleu.implementation == "python", reason="the compiled run does the same comparison"
)
def test_compiled_equals_twin_on_many_pairs() -> None:
    rng = random.Random(2024)
    for _ in range(80):
        vocab = rng.choice([2, 4, 30])
        ref = [rng.randrange(vocab) for _ in range(rng.randrange(0, 45))]
        hyp = ref[:] if rng.random() < 0.6 else [rng.randrange(vocab) for _ in range(40)]
        rng.shuffle(hyp) if rng.random() < 0.3 else None
        assert COMPILED.pair_edits(hyp, ref) == _ter_py.pair_edits(hyp, ref), (hyp, ref)


# -- the tokenizer -------------------------------------------------------------------------------
TRICKY = [
    "",
    "  ",
    "It's John's book.",
    "It's\t",
    "Line one\n-broken\nand joined",
    "&amp;lt; &quot;quoted&quot; &gt; &amp;amp;",
    "3.14, 1,000 and 2-3 or a-b; x.y z,w",
    "Ünïcödé İstanbul STRASSE ß",
    "中文，测试。日本語のテキスト、カタカナ・ひらがな！",
    "（全角）？：；＂",
    "㈠㈡ ㌀ 豈 ︰ ⺀ ㇀",
    "mixed中文words and ﹒punct.",
    "a\u3000b\u2028c\xa0d",
]
OPTION_SETS = list(itertools.product([False, True], repeat=4))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "".join("ft"[x] for x in o))
def test_tercom_words_equal_sacrebleu(options: tuple) -> None:
    want = TercomTokenizer(*options)
    got = TercomWords(*options)
    for text in TRICKY:
        assert got.words(text) == want(text.rstrip()).split(), text


TEXT_ALPHABET = st.sampled_from(
    list("aB's .,-09&;qutmplg!?\"()[]{}/\\:@~`^_|\n\t")
    + ["&amp;", "&lt;", "'s", "中", "、", "，", "ア", "あ", "㈠", "ｰ"]
)


@given(st.lists(TEXT_ALPHABET, max_size=30).map("".join), st.sampled_from(OPTION_SETS))
def test_generated_tercom_words_equal_sacrebleu(text: str, options: tuple) -> None:
    assert TercomWords(*options).words(text) == TercomTokenizer(*options)(text.rstrip()).split()


# -- the metric ----------------------------------------------------------------------------------
HYPS = [
    "The cat sat on the mat .",
    "a quick brown fox jumps over the lazy dog",
    "",
    "completely different words here",
    "dog the over jumps fox brown quick a lazy",
]
REFS = [
    ["The cat sat on the mat.", "the quick brown fox jumped over the lazy dog", "", "x", None],
    ["A cat was on the mat .", None, "nothing", "completely different words", "a b c"],
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "".join("ft"[x] for x in o))
def test_corpus_and_sentence_scores_equal_sacrebleu(options: tuple) -> None:
    ours, theirs = TER(*options), SacreTER(*options)
    assert_same_score(ours.corpus_score(HYPS, REFS), theirs.corpus_score(HYPS, REFS))
    assert ours.get_signature().format() == theirs.get_signature().format()
    assert ours.get_signature().format(short=True) == theirs.get_signature().format(short=True)
    sentence = ours.sentence_scores(HYPS, REFS)
    for i, hyp in enumerate(HYPS):
        refs = [r[i] for r in REFS if r[i] is not None]
        want = theirs.sentence_score(hyp, refs)
        assert_same_score(ours.sentence_score(hyp, refs), want)
        assert sentence[i] == want.score


def test_functions_cached_references_and_json() -> None:
    assert_same_score(
        corpus_ter(HYPS, REFS, normalized=True), sacrebleu.corpus_ter(HYPS, REFS, normalized=True)
    )
    assert_same_score(sentence_ter(HYPS[0], ["x y"]), sacrebleu.sentence_ter(HYPS[0], ["x y"]))
    ours, theirs = TER(references=REFS), SacreTER(references=REFS)
    got, want = ours.corpus_score(HYPS, None), theirs.corpus_score(HYPS, None)
    assert_same_score(got, want)
    sig = theirs.get_signature().format()
    assert got.format(signature=sig, is_json=True) == want.format(signature=sig, is_json=True)
    assert ours.get_signature().format() == sig
    assert turbobleu.TER is TER


def test_bootstrap_interval_equals_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps = HYPS * 8
    refs = [r * 8 for r in REFS]
    got = TER().corpus_score(hyps, refs, n_bootstrap=50)
    theirs = SacreTER()
    want = theirs.corpus_score(hyps, refs, n_bootstrap=50)
    assert (got._mean, got._ci) == (want._mean, want._ci)
    assert str(got) == str(want)


@pytest.mark.skipif(
    turbobleu.implementation != "cython",
    reason="the twin counts at sacrebleu's speed (the chunking is the same code on both builds)",
)
@pytest.mark.parametrize(
    "options", [{}, {"case_sensitive": True}, {"normalized": True, "no_punct": True}]
)
def test_threads_give_the_same_rows(options: Dict[str, Any]) -> None:
    rng = random.Random(5)
    words = "the a of Cat dog sat mat on in fox , .".split()
    # (big enough for the pool: over edits.PARALLEL_CHARACTERS)
    hyps = [" ".join(rng.choices(words, k=rng.randrange(0, 13))) for _ in range(1500)]
    refs = [[" ".join(rng.choices(words, k=rng.randrange(1, 13))) for _ in range(1500)]] * 2
    assert sum(map(len, hyps)) > edits.PARALLEL_CHARACTERS
    metric = TER(**options)
    one_thread = metric.segment_edits(hyps, refs)
    want = SacreTER(**options)._extract_corpus_statistics(hyps[:60], [r[:60] for r in refs])
    assert [list(x) for x in zip(*one_thread)][:60] == want
    for threads in (2, 3):
        assert metric.segment_edits(hyps, refs, threads=threads) == one_thread
        cached = TER(**options, references=refs)  # references packed once, hypotheses chunked
        assert cached.segment_edits(hyps, threads=threads) == one_thread
    with_none = [refs[0], [None if i % 7 == 0 else r for i, r in enumerate(refs[1])]]
    assert metric.segment_edits(hyps, with_none, threads=2) == metric.segment_edits(hyps, with_none)


def test_threads_name_the_segment_of_a_bad_input() -> None:
    hyps = ["the cat sat on the mat"] * 3000
    refs = [["the cat is on the mat"] * 3000]
    bad_hyps = hyps[:2500] + [b"bytes"] + hyps[2501:]
    with pytest.raises(TypeError, match="hypotheses\\[2500\\] must be a str"):
        TER().corpus_score(bad_hyps, refs, threads=2)
    with pytest.raises(TypeError, match="hypotheses\\[2500\\] must be a str"):
        TER(references=refs).corpus_score(bad_hyps, threads=2)
    bad_refs = [refs[0][:2999] + [7]]
    with pytest.raises(TypeError, match="references\\[0\\]\\[2999\\] must be a str"):
        TER().corpus_score(hyps, bad_refs, threads=2)


def _segment_edits(a: int, b: int) -> edits.SegmentEdits:
    """A chunk whose rows say which segments it did (edits = the segment's number)."""
    return edits.SegmentEdits(list(range(a, b)), [1.0] * (b - a))


@pytest.mark.parametrize("threads", [2, 3, 5])
def test_the_runs_join_in_segment_order_from_concurrent_callers(threads: int) -> None:
    import concurrent.futures

    segments = 1000
    lengths = [(s * 7919) % 101 for s in range(segments)]  # (the longest runs go first)
    with concurrent.futures.ThreadPoolExecutor(4) as callers:
        results = list(
            callers.map(
                lambda _: (
                    edits._in_parallel(
                        _segment_edits, lengths, threads, edits.PARALLEL_CHARACTERS
                    ).edits
                ),
                range(8),
            )
        )
    assert results == [list(range(segments))] * 8


def test_a_runs_error_is_raised_after_every_run_has_stopped() -> None:
    import threading
    import time

    running = []
    lock = threading.Lock()

    def chunk(a: int, b: int) -> edits.SegmentEdits:
        with lock:
            running.append(1)
        try:
            time.sleep(0.002)
            if a >= 500:
                raise RuntimeError(f"run at {a}")
            return _segment_edits(a, b)
        finally:
            with lock:
                running.pop()

    with pytest.raises(RuntimeError, match="run at"):
        edits._in_parallel(chunk, [1] * 1000, 2, edits.PARALLEL_CHARACTERS)
    assert running == []  # no worker still reads the inputs once the error is out
    # and the kept pool still works afterwards
    assert edits._in_parallel(
        _segment_edits, [1] * 100, 2, edits.PARALLEL_CHARACTERS
    ).edits == list(range(100))


def test_errors_name_the_argument() -> None:
    with pytest.raises(ValueError, match="references\\[0\\] has 1 segments but hypotheses has 2"):
        TER().corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        TER().corpus_score(["a"], [[None]])
    with pytest.raises(TypeError, match="hypotheses\\[1\\] must be a str"):
        TER().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(ValueError, match="none given and none cached"):
        TER().corpus_score(["a"], None)
    with pytest.raises(ValueError, match="threads must be an integer"):
        TER().corpus_score(["a"], [["a"]], threads=0)
    with pytest.raises(TypeError, match="normalized must be a bool"):
        import numpy as np

        TER(normalized=np.array([True, False]))
    with pytest.raises(ValueError, match="Number of references unknown"):
        TER().get_signature()


def test_patch_sacrebleu_covers_ter() -> None:
    """After patch("sacrebleu"), sacrebleu's TER functions and objects (created before or
    during the patch) get turbobleu's statistics; unpatch restores sacrebleu's own."""
    import sacrebleu.metrics.ter as sacre_ter

    before = SacreTER(normalized=True)
    want = SacreTER(normalized=True).corpus_score(HYPS, REFS)
    original = sacre_ter.TER._extract_corpus_statistics
    turbobleu.patch("sacrebleu")
    try:
        assert sacre_ter.TER._extract_corpus_statistics is not original
        assert isinstance(sacrebleu.corpus_ter(HYPS, REFS), turbobleu.TERScore)
        assert_same_score(sacrebleu.corpus_ter(HYPS, REFS, normalized=True), want)
        assert_same_score(before.corpus_score(HYPS, REFS), want)
        cached = sacre_ter.TER(normalized=True, references=REFS)
        assert_same_score(cached.corpus_score(HYPS, None), want)
        signed = SacreTER(normalized=True)
        signed.corpus_score(HYPS, REFS)
        assert cached.get_signature().format() == signed.get_signature().format()
    finally:
        turbobleu.unpatch("sacrebleu")
    assert sacre_ter.TER._extract_corpus_statistics is original
    assert not isinstance(sacrebleu.corpus_ter(HYPS, REFS), turbobleu.TERScore)


def _evaluate_ter_script(predictions, references, **options):  # type: ignore[no-untyped-def]
    """Hugging Face evaluate's ``ter`` script's ``_compute``, restated (the Hub is offline):
    references regrouped into streams, its option names mapped onto sacrebleu's TER."""
    streams = evaluate_streams(references)
    output = SacreTER(
        normalized=options.get("normalized", False),
        no_punct=options.get("ignore_punct", False),
        asian_support=options.get("support_zh_ja_chars", False),
        case_sensitive=options.get("case_sensitive", False),
    ).corpus_score(predictions, streams)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"case_sensitive": True},
        {"normalized": True, "case_sensitive": True},
        {"ignore_punct": True},
        {"normalized": True, "support_zh_ja_chars": True},
    ],
)
def test_evaluate_load_ter_equals_the_script(options: dict) -> None:
    from turbobleu import evaluate as turbo_evaluate

    predictions = ["does this sentence match??", "what about this sentence?", "Your 中文 jokes"]
    references = [
        ["does this sentence match", "does this sentence match!?!"],
        ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],
        ["Your jokes are...", "...TERrible"],
    ]
    ter = turbo_evaluate.load("ter")
    assert ter.name == "ter"
    want = _evaluate_ter_script(predictions, references, **options)
    assert ter.compute(predictions=predictions, references=references, **options) == want
    ter.add_batch(predictions=predictions[:2], references=references[:2])
    ter.add(prediction=predictions[2], reference=references[2])
    assert ter.compute(**options) == want
    single = [r[0] for r in references]
    assert ter.compute(predictions=predictions, references=single, **options) == (
        _evaluate_ter_script(predictions, single, **options)
    )
    with pytest.raises(ValueError, match="same number of references"):
        ter.compute(predictions=predictions[:2], references=[["a", "b"], ["c"]])


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_paired_tests_equal_sacrebleu(test_type: str) -> None:
    """turbobleu.significance with a TER metric: sacrebleu's PairedTest numbers (one and two
    references: their averages are exact, see _engine/ter/recipe.py)."""
    from sacrebleu.significance import PairedTest

    from turbobleu import significance

    rng = random.Random(11)
    words = "the a of cat dog sat mat on in fox".split()
    n = 120
    refs = [[" ".join(rng.choices(words, k=rng.randrange(1, 15))) for _ in range(n)] for _ in "ab"]
    systems = [
        [" ".join(rng.choices(words, k=rng.randrange(0, 15))) for _ in range(n)] for _ in "xyz"
    ]
    for streams in (refs[:1], refs):
        metric = TER(references=streams)
        stats = [metric.corpus_stats(s) for s in systems]
        if test_type == "bs":
            ours = significance.paired_bootstrap(stats[0], stats[1:], metric, 300, 12345)
        else:
            ours = significance.paired_approximate_randomization(
                stats[0], stats[1:], metric, 500, seed=12345
            )
        named = [(f"s{i}", s) for i, s in enumerate(systems)]
        _, theirs = PairedTest(
            named,
            {"TER": SacreTER(references=streams)},
            None,
            test_type,
            300 if test_type == "bs" else 500,
        )()
        for got, want in zip(ours, theirs["TER"]):
            assert (got.score, got.p_value, got.mean, got.ci) == (
                want.score,
                want.p_value,
                None if want.mean is None else float(want.mean),
                None if want.ci is None else float(want.ci),
            )
        assert significance.confidence_interval(stats[0], metric, 200, 12345) == tuple(
            _bootstrapped(systems[0], streams, 200)
        )


def _bootstrapped(hyps: List[str], refs: list, n: int) -> tuple:
    score = SacreTER().corpus_score(hyps, refs, n_bootstrap=n)
    return score._mean, score._ci


def test_significance_refuses_three_references() -> None:
    from turbobleu import significance

    refs = [["a b c", "d e"]] * 3
    metric = TER(references=refs)
    stats = metric.corpus_stats(["a c b", "d"])
    with pytest.raises(ValueError, match="a power of two"):
        significance.confidence_interval(stats, metric, 10)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "".join("ft"[x] for x in o))
def test_references_are_prepared_twice_as_in_sacrebleu(options: tuple) -> None:
    """sacrebleu prepares a reference twice (in _cache_references, then again in TER's
    _extract_reference_info) and a hypothesis once: with ``normalized`` that splits "law's ,"
    differently on the two sides (found on WMT23 he-en, segment 310)."""
    hyp = "At my mother-in-law's, smells are wafting (up)."
    refs = ['"At my mother-in-law\'s, even aromas waft out."', "It's John's, 3.5 & more."]
    want = SacreTER(*options)._extract_corpus_statistics([hyp], [[r] for r in refs])
    assert TER(*options)._extract_corpus_statistics([hyp], [[r] for r in refs]) == want
    assert TER(*options, references=[[r] for r in refs]).segment_rows([hyp]) == want
    if options[0]:  # normalized: the second preparation changes the reference's words
        once = TercomWords(*options).words(refs[0])
        assert TercomWords(*options).reference_words(refs[0]) != once


def test_bad_n_bootstrap_and_statistics_name_the_argument() -> None:
    with pytest.raises(TypeError, match="n_bootstrap must be an integer"):
        TER().corpus_score(["a"], [["a"]], n_bootstrap="10")  # type: ignore[arg-type]
    from turbobleu import significance

    bleu_stats = turbobleu.BLEU().corpus_stats(["a b"], [["a b"]])
    metric = TER(references=[["a b"]])
    # (BLEU's rows to TER's test: the shape names the mistake)
    with pytest.raises(ValueError, match=r"stats must be TER statistics of shape \(segments, 2\)"):
        significance.confidence_interval(bleu_stats, metric, 10)
