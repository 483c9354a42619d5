"""Corpora that mix very long segments with long ones (regression).

A corpus call reserves one n-gram table for its longest hypothesis and counts every segment in
it. The table for a hypothesis of N n-grams was 8N slots up to 8,192 n-grams and 2N beyond, so a
hypothesis of 2,049+ tokens (orders 1-4) got a smaller table than one of 1,025-2,048 tokens, and
the shorter segment was probed past the end of the table: wrong memory read and written, calls
50x slower, and crashes (char-tokenized WMT23 de-en paragraphs have both lengths). Each path that
counts a corpus in one table is checked here against the library it mirrors and the twin.
"""

from __future__ import annotations

import random
from typing import List

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu

import turbobleu
import turbobleu.nltk as tb_nltk
from conftest import (
    assert_same_score,
    built_implementations,
    compiled_twin_of,
    requires_compiled,
)
from turbobleu._engine.count import _kernel_py

COMPILED = compiled_twin_of(_kernel_py)

# Token counts on both sides of the old size switch for orders 1-4 and 8: the longest first and
# last, so that the shorter ones are counted both before and after it.
LENGTHS = [2600, 1500, 1100, 30, 2049, 2048, 1024, 513, 4000, 1800]


def words(rng: random.Random, n: int, vocabulary: int = 400) -> List[str]:
    return [f"w{rng.randrange(vocabulary)}" for _ in range(n)]


def near_copy(rng: random.Random, tokens: List[str]) -> List[str]:
    """A reference sharing most of the hypothesis' n-grams (so every order has matches)."""
    return [t if rng.random() < 0.8 else f"x{rng.randrange(50)}" for t in tokens]


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(11)
    hyps = [words(rng, n) for n in LENGTHS]
    refs = [[near_copy(rng, h), words(rng, len(h) // 2)] for h in hyps]
    return hyps, refs


@requires_compiled(COMPILED)
@pytest.mark.parametrize("order", [1, 2, 4, 8])
def test_kernel_counts_every_segment_in_the_longest_ones_table(corpus, order: int) -> None:
    hyps, refs = corpus
    vocab: dict = {}
    ids = lambda tokens: [vocab.setdefault(t, len(vocab)) for t in tokens]  # noqa: E731
    hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off = [], [0], [], [0], [0]
    for hyp, seg_refs in zip(hyps, refs):
        hyp_ids += ids(hyp)
        hyp_off.append(len(hyp_ids))
        for ref in seg_refs:
            ref_ids += ids(ref)
            ref_off.append(len(ref_ids))
        seg_ref_off.append(len(ref_off) - 1)
    buffers = (
        np.array(hyp_ids, dtype=np.int32),
        np.array(hyp_off, dtype=np.int64),
        np.array(ref_ids, dtype=np.int32),
        np.array(ref_off, dtype=np.int64),
        np.array(seg_ref_off, dtype=np.int64),
    )
    twin_rows, compiled_rows = (
        np.zeros((len(hyps), 2 + 2 * order), dtype=np.int64) for _ in range(2)
    )
    twin, compiled = built_implementations(_kernel_py)
    twin.count_stats(*buffers, order, twin_rows)
    compiled.count_stats(*buffers, order, compiled_rows)
    assert compiled_rows.tolist() == twin_rows.tolist()
    assert twin_rows[:, 2].min() > 0  # matches on every segment: a check with teeth


@pytest.mark.parametrize("tokenize", ["char", "13a", "intl", "zh"])
def test_sacrebleu_corpus_and_batch_of_long_lines(corpus, tokenize: str) -> None:
    hyps, refs = corpus
    glue = "" if tokenize == "char" else " "  # char: one token per character
    hyp_lines = [glue.join(h) for h in hyps]
    ref_streams = [[glue.join(r[k]) for r in refs] for k in range(2)]
    want = sacrebleu.corpus_bleu(hyp_lines, ref_streams, tokenize=tokenize)
    got = turbobleu.corpus_bleu(hyp_lines, ref_streams, tokenize=tokenize)
    assert_same_score(got, want, tokenize)
    metric = sacrebleu.BLEU(tokenize=tokenize, effective_order=True)
    want_each = [
        metric.sentence_score(h, [s[i] for s in ref_streams]).score for i, h in enumerate(hyp_lines)
    ]
    got_each = turbobleu.BLEU(tokenize=tokenize, effective_order=True).sentence_scores(
        hyp_lines, ref_streams
    )
    assert got_each.tolist() == want_each


def test_nltk_corpus_bleu_of_long_token_lists(corpus) -> None:
    hyps, refs = corpus
    for weights in [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 8,) * 8]:
        assert tb_nltk.corpus_bleu(refs, hyps, weights) == nltk_bleu.corpus_bleu(
            refs, hyps, weights
        )


@requires_compiled(COMPILED)
@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 8, 16])
def test_a_longer_hypothesis_never_gets_a_smaller_table(order: int) -> None:
    """What the corpus paths rely on; the checks above can miss a violation when an earlier
    call left a larger spare table behind."""
    slots = [COMPILED.table_slots_of(order, n) for n in range(0, 20_000)]
    assert all(a <= b for a, b in zip(slots, slots[1:]))
    assert all(s >= 2 * order * n for n, s in enumerate(slots))  # at most half full


FIRST_CALL = """
import sys, turbobleu
hyps, refs = eval(sys.stdin.read())
print(repr(turbobleu.corpus_bleu(hyps, refs, tokenize="char").score))
"""


def test_first_corpus_call_of_a_process_with_mixed_long_lines() -> None:
    """In a fresh process (no spare table yet), as the bug first showed itself: char-tokenized
    lines of 3,000 and 1,100-1,500 characters."""
    import subprocess
    import sys

    rng = random.Random(5)
    hyp_lines = ["".join(rng.choice("abcdefgh") for _ in range(n)) for n in (3000, 1500, 1100)]
    ref_streams = [[line[: len(line) // 2] + line[::-1][: len(line) // 2] for line in hyp_lines]]
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL],
        input=repr((hyp_lines, ref_streams)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    want = sacrebleu.corpus_bleu(hyp_lines, ref_streams, tokenize="char").score
    assert float(done.stdout) == want


@pytest.mark.skipif(
    turbobleu.implementation != "cython",
    reason="the compiled sentence paths' tables (the twin keeps none)",
)
@pytest.mark.filterwarnings(r"ignore:\s*The hypothesis contains 0 counts")  # NLTK's, "a b"
def test_a_very_long_sentence_does_not_keep_its_table() -> None:
    """The single-sentence paths keep their n-gram table between calls, but not once one very
    long sentence has made it large (a 600k-token table is about 40 MiB)."""
    from turbobleu._engine.bleu import _text_rows
    from turbobleu._engine.intern import _intern as _hashable

    rng = random.Random(2)
    tokens = words(rng, 600_000, vocabulary=50_000)
    reference = near_copy(rng, tokens)
    line, ref_line = " ".join(tokens), " ".join(reference)
    assert (
        turbobleu.sentence_bleu(line, [ref_line]).score
        == sacrebleu.sentence_bleu(line, [ref_line]).score
    )
    assert _text_rows.sentence_table_bytes() <= 16 << 20
    assert tb_nltk.sentence_bleu([reference], tokens) == nltk_bleu.sentence_bleu(
        [reference], tokens
    )
    assert _hashable.sentence_table_bytes() <= 16 << 20
    # ... while an ordinary sentence's table stays for the next call.
    turbobleu.sentence_bleu("a b c d", ["a b c e"])
    tb_nltk.sentence_bleu([["a", "b"]], ["a", "b"])
    assert 0 < _text_rows.sentence_table_bytes() <= 1 << 20
    assert 0 < _hashable.sentence_table_bytes() <= 1 << 20
