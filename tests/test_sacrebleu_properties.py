"""Property tests: turbobleu against sacrebleu 2.x on generated text.

Generated corpora mix words that 13a splits in interesting ways, Unicode whitespace (and U+200B,
which is not whitespace), empty strings, ``''`` references and ``None`` references. Compared
exactly: the integer statistics, every field of the score, its text and its signature, for
lowercase on and off, every smoothing, effective order on and off and max order 1..8.

``None`` references: sacrebleu drops them; when every reference of a segment is None and its
hypothesis has tokens, sacrebleu crashes with a TypeError while turbobleu raises a ValueError that
names the segment (by design). With an empty hypothesis both give that segment ref_len -1.
"""

from __future__ import annotations

import random
import types
from typing import List, Optional, Sequence, Tuple

import pytest
import sacrebleu
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import turbobleu
from conftest import assert_same_score
from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count import chosen as _count_impl

SMOOTHINGS = (
    ("none", None),
    ("floor", None),
    ("floor", 0.5),
    ("floor", 0),
    ("add-k", None),
    ("add-k", 2),
    ("add-k", 0.5),
    ("exp", None),
)

WORDS = [
    "the",
    "The",
    "THE",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "dog",
    "ran",
    ".",
    ",",
    "!",
    "?",
    "2019.",
    "1,000",
    "3.14",
    "5-6",
    "x-y",
    "e.g.",
    "U.S.",
    "don't",
    "(it)",
    "&amp;",
    "&quot;",
    "&lt;b&gt;",
    "&QUOT;",
    "<skipped>",
    "İstanbul",
    "ΑΣ",
    "straße",
    "\u200b",
    "cat.",
    "mat,",
    "word-\nwrap",
    "“quoted”",
    "—",
]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\xa0", "\u2028", "\u3000", "\x85", "\x1c", "\u200b"]

word = st.one_of(
    st.sampled_from(WORDS),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=3),
)
segment_text = st.lists(st.tuples(word, st.sampled_from(SEPARATORS)), max_size=12).map(
    lambda parts: "".join(w + s for w, s in parts)
)
hypothesis_text = st.one_of(st.just(""), st.just("   "), segment_text)
reference_entry = st.one_of(st.none(), st.just(""), segment_text, segment_text)

options = st.fixed_dictionaries(
    {
        "lowercase": st.booleans(),
        "tokenize": st.sampled_from(["13a", "13a", "none"]),
        "smoothing": st.sampled_from(SMOOTHINGS),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 8),
    }
)


@st.composite
def corpora(draw) -> Tuple[List[str], List[List[Optional[str]]]]:
    """Hypotheses and reference streams; references often copy and edit the hypothesis."""
    segments = draw(st.integers(1, 6))
    hyps = [draw(hypothesis_text) for _ in range(segments)]
    streams = []
    for _ in range(draw(st.integers(1, 3))):
        stream = []
        for hyp in hyps:
            entry = draw(reference_entry)
            if entry is not None and hyp and draw(st.booleans()):
                cut = draw(st.integers(0, len(hyp)))
                entry = hyp[:cut] + entry + hyp[cut:] if draw(st.booleans()) else hyp
            stream.append(entry)
        streams.append(stream)
    return hyps, streams


def metrics(opts: dict) -> Tuple[SacreBLEU, turbobleu.BLEU]:
    method, value = opts["smoothing"]
    kwargs = dict(
        lowercase=opts["lowercase"],
        tokenize=opts["tokenize"],
        smooth_method=method,
        smooth_value=value,
        max_ngram_order=opts["max_ngram_order"],
        effective_order=opts["effective_order"],
        force=True,
    )
    return SacreBLEU(**kwargs), turbobleu.BLEU(**kwargs)


def has_tokens(text: str, opts: dict) -> bool:
    text = text.lower() if opts["lowercase"] else text
    text = text.rstrip()
    return bool((Tokenizer13a()(text) if opts["tokenize"] == "13a" else text).split())


def orphan_segments(
    hyps: Sequence[str], streams: Sequence[Sequence[Optional[str]]], opts: dict
) -> List[int]:
    """Segments whose references are all None while the hypothesis has tokens."""
    return [
        i
        for i, hyp in enumerate(hyps)
        if all(s[i] is None for s in streams) and has_tokens(hyp, opts)
    ]


def record_events(hyps: List[str], streams: List[List[Optional[str]]], opts: dict) -> None:
    """How often each special case was generated (shown by --hypothesis-show-statistics)."""
    if orphan_segments(hyps, streams, opts):
        event("a segment with tokens and only None references")
    elif any(all(s[i] is None for s in streams) for i in range(len(hyps))):
        event("an empty hypothesis with only None references")
    if any(ref is None for s in streams for ref in s):
        event("a None reference")
    if any(ref == "" for s in streams for ref in s):
        event("an empty reference")


def check_corpus(hyps: List[str], streams: List[List[Optional[str]]], opts: dict) -> None:
    sacre, turbo = metrics(opts)
    orphans = orphan_segments(hyps, streams, opts)
    if orphans:
        with pytest.raises(TypeError):
            sacre.corpus_score(hyps, streams)
        with pytest.raises(
            ValueError,
            match=rf"segment {orphans[0]} has a non-empty hypothesis "
            r"but no reference",
        ):
            turbo.corpus_score(hyps, streams)
        return
    assert turbo.corpus_stats(hyps, streams).rows() == sacre._extract_corpus_statistics(
        hyps, streams
    )
    assert_same_score(
        turbo.corpus_score(hyps, streams), sacre.corpus_score(hyps, streams), f"corpus {opts}"
    )
    assert turbo.get_signature().format() == sacre.get_signature().format()
    assert turbo.get_signature().format(short=True) == sacre.get_signature().format(short=True)


# -- corpus level ----------------------------------------------------------------------------
@given(corpus=corpora(), opts=options)
@settings(max_examples=250)
def test_corpus_bleu_equals_sacrebleu(corpus, opts: dict) -> None:
    record_events(*corpus, opts)
    check_corpus(*corpus, opts)


@given(corpus=corpora(), opts=options)
@settings(suppress_health_check=list(HealthCheck))  # the monkeypatch fixture spans all examples
def test_corpus_scores_with_forced_hash_collisions(corpus, opts: dict, colliding_kernel) -> None:
    """The same comparison with every n-gram hash squeezed into 2 bits (a test hook of the
    compiled kernel; the twin compares tuples and ignores it)."""
    record_events(*corpus, opts)
    check_corpus(*corpus, opts)


@pytest.fixture
def colliding_kernel(monkeypatch):
    """Route turbobleu's kernel calls (count_stats, and corpus_row of the plain-corpus path)
    through ``hash_mask=3`` and count them."""
    real = _count_impl.kernel
    calls = []

    def count_stats(*args, **kwargs):
        calls.append(1)
        kwargs["hash_mask"] = 3
        return real.count_stats(*args, **kwargs)

    text_rows = _bleu_impl.text_rows()
    real_corpus_row = text_rows.corpus_row

    def corpus_row(*args, **kwargs):
        kwargs["hash_mask"] = 3
        return real_corpus_row(*args, **kwargs)

    monkeypatch.setattr(text_rows, "corpus_row", corpus_row)

    # every other kernel function stays the real one
    colliding = types.SimpleNamespace(
        **{name: getattr(real, name) for name in dir(real) if not name.startswith("__")}
    )
    colliding.count_stats = count_stats
    monkeypatch.setattr(_count_impl, "kernel", colliding)
    yield calls
    assert calls, (
        "turbobleu no longer calls count.chosen.kernel.count_stats; the collision hook is dead"
    )


def test_known_none_and_empty_reference_cases() -> None:
    hyps = ["the cat", "", "a dog", "x"]
    streams = [["the cat", None, "", "x y"], [None, None, "a dog . .", None]]
    opts = dict(
        lowercase=False,
        tokenize="13a",
        smoothing=("exp", None),
        effective_order=False,
        max_ngram_order=4,
    )
    check_corpus(hyps, streams, opts)
    stats = turbobleu.BLEU().corpus_stats(hyps, streams).rows()
    assert [row[:2] for row in stats] == [[2, 2], [0, -1], [2, 0], [1, 2]]
    assert turbobleu.BLEU().corpus_score(hyps, streams).ref_len == 3
    # every reference of segment 2 missing while its hypothesis has tokens
    check_corpus(hyps, [["the cat", None, None, "x"]], opts)


# -- sentence level --------------------------------------------------------------------------
@given(hyp=hypothesis_text, refs=st.lists(reference_entry, min_size=1, max_size=4), opts=options)
@settings(max_examples=250)
def test_sentence_score_equals_sacrebleu(hyp: str, refs: List[Optional[str]], opts: dict) -> None:
    sacre, turbo = metrics(opts)
    if all(r is None for r in refs) and has_tokens(hyp, opts):
        with pytest.raises(TypeError):
            sacre.sentence_score(hyp, refs)
        with pytest.raises(ValueError, match=r"reference.*None"):
            turbo.sentence_score(hyp, refs)
        return
    assert_same_score(
        turbo.sentence_score(hyp, refs), sacre.sentence_score(hyp, refs), f"sentence {opts}"
    )
    assert turbo.get_signature().format() == sacre.get_signature().format()


@given(
    hyp=hypothesis_text,
    refs=st.lists(st.one_of(st.just(""), segment_text), min_size=1, max_size=3),
    lowercase=st.booleans(),
    smoothing=st.sampled_from(SMOOTHINGS),
)
def test_sentence_bleu_function_equals_sacrebleu(
    hyp: str, refs: List[str], lowercase: bool, smoothing
) -> None:
    method, value = smoothing
    assert_same_score(
        turbobleu.sentence_bleu(
            hyp, refs, smooth_method=method, smooth_value=value, lowercase=lowercase
        ),
        sacrebleu.sentence_bleu(
            hyp, refs, smooth_method=method, smooth_value=value, lowercase=lowercase
        ),
    )


@given(corpus=corpora(), opts=options)
def test_batch_sentence_scores_equal_sacrebleu_sentence_scores(corpus, opts: dict) -> None:
    hyps, streams = corpus
    if orphan_segments(hyps, streams, opts):
        return  # covered by the corpus tests
    sacre, turbo = metrics(opts)
    want = [sacre.sentence_score(hyp, [s[i] for s in streams]).score for i, hyp in enumerate(hyps)]
    assert turbo.sentence_scores(hyps, streams).tolist() == want


@given(corpus=corpora(), lowercase=st.booleans())
def test_corpus_bleu_function_equals_sacrebleu(corpus, lowercase: bool) -> None:
    hyps, streams = corpus
    streams = [[r if r is not None else "" for r in s] for s in streams]
    assert_same_score(
        turbobleu.corpus_bleu(hyps, streams, lowercase=lowercase),
        sacrebleu.corpus_bleu(hyps, streams, lowercase=lowercase),
    )
    assert_same_score(
        turbobleu.raw_corpus_bleu(hyps, streams), sacrebleu.raw_corpus_bleu(hyps, streams)
    )


# -- very long segments ----------------------------------------------------------------------
def test_100k_token_segments_equal_sacrebleu() -> None:
    """sacrebleu needs seconds per 100k-token line, so it runs once, and its scores come from those
    statistics through its own code (as its corpus_score and sentence_score do)."""
    rng = random.Random(100_000)
    vocab = WORDS[:20] + [f"w{i}" for i in range(300)]
    hyp = " ".join(rng.choice(vocab) for _ in range(100_000))
    ref_a = " ".join(rng.choice(vocab) for _ in range(90_000))
    ref_b = hyp[: len(hyp) // 2] + " extra words " + ref_a[: len(ref_a) // 3]
    hyps, streams = [hyp, "short one", ""], [[ref_a, "short", "x"], [ref_b, None, None]]
    for lowercase in (True,):  # one setting: each 100k-token pass costs seconds in sacrebleu
        sacre = SacreBLEU(lowercase=lowercase, force=True)
        turbo = turbobleu.BLEU(lowercase=lowercase, force=True)
        want_stats = sacre._extract_corpus_statistics(hyps, streams)
        assert want_stats[0][0] > 100_000  # 13a splits off the punctuation
        assert turbo.corpus_stats(hyps, streams).rows() == want_stats
        assert_same_score(
            turbo.corpus_score(hyps, streams),
            sacre._aggregate_and_compute(want_stats),
            f"lowercase={lowercase}",
        )
        sentence = SacreBLEU(lowercase=lowercase, effective_order=True)
        assert_same_score(
            turbobleu.sentence_bleu(hyp, [ref_a, ref_b], lowercase=lowercase),
            sentence._aggregate_and_compute(want_stats[:1]),
            f"sentence lowercase={lowercase}",
        )
