"""Token-id batch API (turbobleu.batch) against sacrebleu's sentence_bleu, called one sentence at a
time: every score compared with ==, on generated id batches and on real WMT23 text.

Ids are given to sacrebleu as strings (``" ".join(map(str, ids))`` with ``tokenize="none"``), so
equal ids are equal tokens. The generated batches cover padding, empty rows, rows shorter than the
max order, 1..8 references, max order 1..8 and ids up to 2**31-1.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st

import turbobleu
from conftest import (
    IMPLEMENTATION,
    SHARED_DATA,
    SMOOTHINGS,
    all_corpora,
    compiled_module,
    discover_corpora,
    requires_wmt23,
)
from turbobleu import NLTKRecipe, ReferenceSets, SacreBLEURecipe, sentence_bleu_batch
from turbobleu._engine.count import _kernel_py, _pack_py, _ref_tables_py, _self_table_py
from turbobleu._engine.count import chosen as _count_impl

MAX_ID = 2**31 - 1


def as_text(ids) -> str:
    return " ".join(map(str, ids))


def sacre_scores(hyps, refs, method="exp", value=None, eff=True, order=4):
    metric = sacrebleu.BLEU(
        tokenize="none",
        smooth_method=method,
        smooth_value=value,
        effective_order=eff,
        max_ngram_order=order,
    )
    return [
        metric.sentence_score(as_text(h), [as_text(r) for r in rs]).score
        for h, rs in zip(hyps, refs)
    ]


# -- generated id batches -------------------------------------------------------------------
def token(alphabet: int):
    """Ids from a small alphabet (many matches) mapped onto a spread that reaches 2**31-1."""
    spread = [0, 1, 2, 7, 31_999, 65_536, 2**31 - 2, MAX_ID]
    return st.integers(0, alphabet - 1).map(lambda i: spread[i % len(spread)] + i // 8)


@st.composite
def id_batch(draw, max_refs: int = 8, max_len: int = 14):
    alphabet = draw(st.integers(1, 6))
    tok = token(alphabet)
    n = draw(st.integers(1, 6))
    hyps = [draw(st.lists(tok, max_size=max_len)) for _ in range(n)]
    refs = [
        [draw(st.lists(tok, max_size=max_len)) for _ in range(draw(st.integers(1, max_refs)))]
        for _ in range(n)
    ]
    return hyps, refs


@given(
    batch=id_batch(),
    order=st.integers(1, 8),
    smoothing=st.sampled_from(SMOOTHINGS),
    eff=st.booleans(),
)
def test_generated_batches_equal_sacrebleu(batch, order, smoothing, eff):
    hyps, refs = batch
    method, value = smoothing
    recipe = SacreBLEURecipe(method, value, eff, order)
    got, rows = sentence_bleu_batch(hyps, refs, recipe, threads=1, return_stats=True)
    want = sacre_scores(hyps, refs, method, value, eff, order)
    assert got.dtype == np.float64 and got.tolist() == want
    # The rows are the kernel's rows (count_stats' spec: the twin's segment_row).
    for i, (h, rs) in enumerate(zip(hyps, refs)):
        assert rows[i].tolist() == _kernel_py.segment_row(h, rs, order)
    # Prepared references give the same rows and scores.
    prepared = ReferenceSets(refs, max_order=order, threads=1)
    got2, rows2 = prepared.score(hyps, recipe, threads=1, return_stats=True)
    assert got2.tolist() == want and np.array_equal(rows2, rows)


@given(batch=id_batch(max_refs=3), pad=st.sampled_from([0, -100, 7]), order=st.integers(1, 5))
def test_padded_arrays_and_lengths(batch, pad, order):
    hyps, refs = batch
    hyps = [[t for t in h if t != pad] for h in hyps]
    refs = [[[t for t in r if t != pad] for r in rs] for rs in refs]
    k = max(len(rs) for rs in refs)
    refs = [rs + [rs[0]] * (k - len(rs)) for rs in refs]  # arrays need k references per row
    width = max([len(h) for h in hyps] + [len(r) for rs in refs for r in rs] + [1]) + 2
    hyp_arr = np.full((len(hyps), width), pad, dtype=np.int64)
    ref_arr = np.full((len(refs), k, width), pad, dtype=np.int64)
    for i, h in enumerate(hyps):
        hyp_arr[i, : len(h)] = h
        for j, r in enumerate(refs[i]):
            ref_arr[i, j, width - len(r) :] = r  # left padding works as well
    recipe = SacreBLEURecipe(max_order=order)
    want = sentence_bleu_batch(hyps, refs, recipe, threads=1)
    got = sentence_bleu_batch(hyp_arr, ref_arr, recipe, pad_id=pad, threads=1)
    assert got.tolist() == want.tolist()
    lengths = np.array([len(h) for h in hyps])
    ref_lengths = np.array([[len(r) for r in rs] for rs in refs])
    lefted = np.full_like(ref_arr, pad)
    for i, rs in enumerate(refs):
        for j, r in enumerate(rs):
            lefted[i, j, : len(r)] = r
    got = sentence_bleu_batch(
        hyp_arr, lefted, recipe, hyp_lengths=lengths, ref_lengths=ref_lengths, threads=1
    )
    assert got.tolist() == want.tolist()
    # A list of 1-D arrays, and one 2-D reference array per group.
    got = sentence_bleu_batch(
        [np.array(h, dtype=np.int32) for h in hyps], list(ref_arr), recipe, pad_id=pad, threads=1
    )
    assert got.tolist() == want.tolist()


def test_edge_rows():
    """Empty hypothesis, empty references, hypotheses shorter than N, huge ids."""
    hyps = [[], [5], [MAX_ID, 0], [1, 2, 3], [], [9, 9, 9, 9, 9]]
    refs = [[[1, 2]], [[]], [[MAX_ID, 0, 3], [MAX_ID]], [[1, 2, 3]], [[]], [[9], [9, 9]]]
    for method, value in SMOOTHINGS:
        for eff in (False, True):
            got = sentence_bleu_batch(hyps, refs, SacreBLEURecipe(method, value, eff), threads=1)
            assert got.tolist() == sacre_scores(hyps, refs, method, value, eff)


def test_2d_reference_array_is_one_reference_per_row():
    hyps = np.array([[1, 2, 3, 4], [4, 3, 2, 1]])
    refs = np.array([[1, 2, 3, 5], [4, 3, 2, 1]])
    got = sentence_bleu_batch(hyps, refs, threads=1)
    assert got.tolist() == sacre_scores(hyps.tolist(), [[r] for r in refs.tolist()])


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hyps, refs, error, text",
    [
        ([[1, -2]], [[[1]]], ValueError, r"hypotheses\[0\]\[1\] = -2"),
        ([[1, 2**31]], [[[1]]], ValueError, r"hypotheses\[0\]\[1\] = 2147483648"),
        ([[1]], [[[3, -1]]], ValueError, r"references\[0\]\[0\]\[1\] = -1"),
        ([[1]], [[[3], [4, 5.5]]], TypeError, r"references\[0\]\[1\]\[1\] must be an integer"),
        ([[1]], [[1, 2]], TypeError, r"references\[0\]\[0\] is an integer"),
        ([[1], [2]], [[[1]]], ValueError, "hypotheses has 2 rows but references has 1"),
        ([[1]], [[]], ValueError, r"references\[0\] has no reference"),
        (np.array([[1, -5]]), [[[1]]], ValueError, "hypotheses holds the negative id -5"),
        (np.array([[1.0]]), [[[1]]], TypeError, "integer token ids"),
        ([[1]], np.array([[[2**31]]]), ValueError, "references holds the id 2147483648"),
    ],
)
def test_bad_input_names_the_argument(hyps, refs, error, text):
    with pytest.raises(error, match=text):
        sentence_bleu_batch(hyps, refs, threads=1)


def test_bad_options():
    with pytest.raises(ValueError, match="recipe must be"):
        sentence_bleu_batch([[1]], [[[1]]], recipe="bleu")
    with pytest.raises(ValueError, match="threads must be"):
        sentence_bleu_batch([[1]], [[[1]]], threads=0)
    with pytest.raises(ValueError, match="give pad_id or hyp_lengths, not both"):
        sentence_bleu_batch(np.array([[1]]), [[[1]]], pad_id=0, hyp_lengths=[1])
    with pytest.raises(ValueError, match=r"^hyp_lengths \(of hypotheses\) must be in 0\.\.1"):
        sentence_bleu_batch(np.array([[1]]), [[[1]]], hyp_lengths=[2])
    with pytest.raises(ValueError, match="unknown smooth_method"):
        SacreBLEURecipe("bogus")


# -- prepared references -----------------------------------------------------------------------
def grpo_batch(seed: int, prompts: int, samples: int, refs_per_prompt: int = 4, length: int = 20):
    rng = np.random.default_rng(seed)
    refs = rng.integers(0, 50, size=(prompts, refs_per_prompt, length))
    hyps = np.repeat(refs[:, 0, :], samples, axis=0)
    noise = rng.random(hyps.shape) < 0.3
    hyps = np.where(noise, rng.integers(0, 50, size=hyps.shape), hyps)
    return hyps, refs


def test_group_size_and_group_index_share_references():
    hyps, refs = grpo_batch(0, prompts=6, samples=4)
    prepared = ReferenceSets(refs, threads=1)
    expanded = np.repeat(refs, 4, axis=0)
    want = sentence_bleu_batch(hyps, expanded, threads=1)
    assert prepared.score(hyps, group_size=4, threads=1).tolist() == want.tolist()
    group = np.repeat(np.arange(6), 4)
    assert prepared.score(hyps, group=group, threads=1).tolist() == want.tolist()
    _, want_rows = sentence_bleu_batch(
        hyps, expanded, SacreBLEURecipe(max_order=3), threads=1, return_stats=True
    )
    assert np.array_equal(prepared.stats(hyps, group_size=4, max_order=3, threads=1), want_rows)
    # Any order and any subset of the groups.
    order = np.random.default_rng(1).permutation(len(hyps))[:10]
    got = prepared.score(hyps[order], group=group[order], threads=1)
    assert got.tolist() == want[order].tolist()
    # NLTK recipe through the same tables (prepared with 5 orders for method5).
    prepared5 = ReferenceSets(refs, max_order=5, threads=1)
    rec = NLTKRecipe(smoothing_function=5)
    got = prepared5.score(hyps, rec, group_size=4, threads=1)
    assert got.tolist() == sentence_bleu_batch(hyps, expanded, rec, threads=1).tolist()


def test_prepared_errors():
    hyps, refs = grpo_batch(0, prompts=3, samples=2)
    prepared = ReferenceSets(refs, threads=1)
    with pytest.raises(ValueError, match="pass group= .* or group_size="):
        prepared.score(hyps)
    with pytest.raises(ValueError, match="7 hypotheses with group_size=2, but .* 3 groups"):
        prepared.score(hyps[:7].repeat(1, axis=0).tolist() + [[1]], group_size=2)
    # too few is refused as well: one sample per prompt with the run's group size would score
    # the second prompt's sample against the first prompt's references
    with pytest.raises(ValueError, match="group_size=2 needs 6 hypotheses .* pass group="):
        prepared.score(hyps[:3], group_size=2)
    assert prepared.score(hyps[:3], group=[0, 0, 1], threads=1).shape == (3,)
    with pytest.raises(ValueError, match=r"group holds 3: group indices must be in 0..2"):
        prepared.score(hyps[:2], group=[0, 3])
    with pytest.raises(ValueError, match="shape"):
        prepared.score(hyps[:2], group=[0])
    with pytest.raises(ValueError, match="up to order 5 but .* max_order=4"):
        prepared.score(hyps[:3], NLTKRecipe(smoothing_function=7))
    with pytest.raises(ValueError, match=r"references\[1\] has no reference"):
        ReferenceSets([[[1]], []])
    with pytest.raises(
        TypeError, match="hypotheses are lists of token strings but the references are token ids"
    ):
        prepared.score([["a"], ["b"], ["c"]])
    text_refs = ReferenceSets([["a b"], ["c"]], threads=1)
    with pytest.raises(TypeError, match="hypotheses are token ids but the references are strings"):
        text_refs.score([[1], [2]])
    with pytest.raises(
        TypeError, match="hypotheses are lists of token strings but the references are strings"
    ):
        text_refs.score([["a"], ["c"]])
    with pytest.raises(TypeError, match="hypotheses are token ids but the references are strings"):
        text_refs.score(np.array([[1], [2]]))
    with pytest.raises(TypeError, match="hypotheses are token ids but the references are strings"):
        sentence_bleu_batch(np.array([[1], [2]]), ["a b", "c"])


@pytest.mark.parametrize("mask", [0, 3])
def test_hash_collisions_change_nothing(mask):
    """A narrow hash mask sends every probe to a few slots: tables and results stay exact."""
    hyps, refs = grpo_batch(2, prompts=4, samples=3, length=12)
    normal = ReferenceSets(refs, max_order=6, threads=1)
    narrow = ReferenceSets(refs, max_order=6, threads=1, _hash_mask=mask)
    rec = SacreBLEURecipe(max_order=6)
    a = normal.score(hyps, rec, group_size=3, threads=1, return_stats=True)
    b = narrow.score(hyps, rec, group_size=3, threads=1, return_stats=True)
    assert np.array_equal(a[1], b[1]) and a[0].tolist() == b[0].tolist()


def test_compiled_tables_equal_the_twin():
    """The compiled modules lay out their tables exactly as the readable twins do."""
    ref_tables = compiled_module("count._ref_tables")
    self_table = compiled_module("count._self_table")
    if ref_tables is None or self_table is None:
        pytest.skip("compiled extension not built")
    hyps, refs = grpo_batch(3, prompts=5, samples=2, length=9)
    ids, off, goff = _pack_py.pack_groups(refs.tolist(), "r")
    for mask in (0xFFFFFFFFFFFFFFFF, 5):
        t1, c1 = ref_tables.build_ref_tables(ids, off, goff, 3, 0, -1, mask)
        t2, c2 = _ref_tables_py.build_ref_tables(ids, off, goff, 3, 0, -1, mask)
        assert np.array_equal(t1, t2) and np.array_equal(c1, c2)
        s1, cap1 = self_table.build_self_table(ids, off, 3, mask)
        s2, cap2 = _self_table_py.build_self_table(ids, off, 3, mask)
        assert cap1 == cap2 and np.array_equal(s1, s2)


def test_memory_figure():
    prepared = ReferenceSets([[[1, 2, 3], [2, 3, 4]], [[5]]], threads=1)
    # distinct n-grams: group 0 has 1,2,3,4 / 12,23,34 / 123,234 (9); group 1 has 1.
    caps = [
        _count_impl.ref_tables().group_capacity_of(9),
        _count_impl.ref_tables().group_capacity_of(1),
    ]
    assert prepared.nbytes >= 16 * sum(caps)
    assert len(prepared) == 2 and prepared.num_references.tolist() == [2, 1]


# -- text --------------------------------------------------------------------------------------
def test_text_with_any_tokenizer():
    hyps = ["The cat sat on the mat .", "A dog !", ""]
    refs = [["The cat is on the mat .", "A cat sat on a mat ."], ["The dog !"], ["x"]]
    want = [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs)]
    assert sentence_bleu_batch(hyps, refs, threads=1).tolist() == want
    prepared = ReferenceSets(refs, threads=1)
    assert prepared.score(hyps, threads=1).tolist() == want
    # A callable tokenizer (here: characters) is used for references and hypotheses alike.
    got = sentence_bleu_batch(hyps, refs, tokenize=list, threads=1)
    char_want = sacre_scores(
        [[ord(c) for c in h] for h in hyps], [[[ord(c) for c in r] for r in rs] for rs in refs]
    )
    assert got.tolist() == char_want
    # Pre-tokenized rows are interned as they are.
    got = sentence_bleu_batch(
        [h.split() for h in hyps], [[r.split() for r in rs] for rs in refs], threads=1
    )
    assert got.tolist() == [
        sacrebleu.sentence_bleu(h, r, tokenize="none").score for h, r in zip(hyps, refs)
    ]
    # lowercase=True lowercases the line before any tokenizer, as sacrebleu does.
    cased = ["The CAT Sat", "ΑΣ ΟΔΟΣ"]
    cased_refs = [["the cat sat"], ["ας οδος"]]
    for tok in ("13a", "none", str.split):
        got = sentence_bleu_batch(cased, cased_refs, tokenize=tok, lowercase=True, threads=1)
        assert got.tolist() == [
            sacrebleu.sentence_bleu(h, r, lowercase=True).score for h, r in zip(cased, cased_refs)
        ]
    # One text reference per row.
    got = sentence_bleu_batch(hyps, ["The cat", "A dog", "x"], threads=1)
    assert got.tolist() == [
        sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, ["The cat", "A dog", "x"])
    ]


def _wmt_cases(corpora):
    return [pytest.param(c, id=c.name) for c in corpora]


def _check_corpus(corpus, limit):
    system = corpus.systems[0]
    hyps = corpus.hypotheses(system)[:limit]
    streams = corpus.reference_streams(corpus.references[:2])
    refs = [[s[i] for s in streams] for i in range(len(hyps))]
    tok = {"zh": "zh", "ja": "char"}.get(corpus.lang, "13a")
    if tok not in turbobleu.available_tokenizers():
        pytest.skip(f"tokenizer {tok} not available")
    rec = SacreBLEURecipe()
    want = [sacrebleu.sentence_bleu(h, r, tokenize=tok).score for h, r in zip(hyps, refs)]
    got = sentence_bleu_batch(hyps, refs, rec, tokenize=tok, threads=2)
    assert got.tolist() == want
    prepared = ReferenceSets(refs, tokenize=tok, threads=2)
    assert prepared.score(hyps, rec, threads=2).tolist() == want


@pytest.mark.parametrize(
    "corpus", _wmt_cases(all_corpora()[:0] + [c for c in all_corpora() if c.source == "fixture"])
)
def test_fixture_text_equals_sacrebleu(corpus):
    _check_corpus(corpus, limit=None)


@requires_wmt23
@pytest.mark.parametrize("corpus", _wmt_cases(discover_corpora(SHARED_DATA, "wmt23")))
def test_wmt23_text_equals_sacrebleu(corpus):
    _check_corpus(corpus, limit=None if IMPLEMENTATION == "cython" else 150)


# -- torch ---------------------------------------------------------------------------------------
def test_torch_tensors():
    torch = pytest.importorskip("torch")
    hyps, refs = grpo_batch(4, prompts=3, samples=2, length=10)
    want = sentence_bleu_batch(hyps, np.repeat(refs, 2, axis=0), threads=1)
    got = sentence_bleu_batch(
        torch.tensor(hyps), torch.tensor(np.repeat(refs, 2, axis=0)), threads=1
    )
    assert got.tolist() == want.tolist()
    prepared = ReferenceSets(torch.tensor(refs), threads=1)
    assert prepared.score(torch.tensor(hyps), group_size=2, threads=1).tolist() == want.tolist()
    assert (
        prepared.score(torch.tensor(hyps), group=torch.arange(6) // 2, threads=1).tolist()
        == want.tolist()
    )
    # Padded int32 tensors (pad -100, as in label tensors) and a list of 1-D tensors.
    padded = torch.full((6, 14), -100, dtype=torch.int32)
    padded[:, :10] = torch.tensor(hyps)
    assert (
        sentence_bleu_batch(padded, np.repeat(refs, 2, axis=0), pad_id=-100, threads=1).tolist()
        == want.tolist()
    )
    rows = [torch.tensor(h[:n]) for h, n in zip(hyps, [10, 3, 0, 10, 7, 1])]
    want_cut = sentence_bleu_batch(
        [h[:n].tolist() for h, n in zip(hyps, [10, 3, 0, 10, 7, 1])],
        np.repeat(refs, 2, axis=0),
        threads=1,
    )
    assert (
        sentence_bleu_batch(rows, np.repeat(refs, 2, axis=0), threads=1).tolist()
        == want_cut.tolist()
    )
    lengths = torch.tensor([10, 3, 0, 10, 7, 1])
    assert (
        sentence_bleu_batch(
            torch.tensor(hyps), np.repeat(refs, 2, axis=0), hyp_lengths=lengths, threads=1
        ).tolist()
        == want_cut.tolist()
    )


def test_grpo_reward_example():
    """The README's reward function: rewards equal sacrebleu's sentence_bleu / 100."""

    def bleu_rewards(completions, prompt_refs, group_size, pad_id=0):
        refs = ReferenceSets(prompt_refs, pad_id=pad_id, threads=1)
        return refs.score(completions, group_size=group_size, pad_id=pad_id, threads=1) / 100.0

    prompt_refs = [[[5, 6, 7, 8, 9], [5, 6, 7, 10]], [[11, 12, 13, 14], [11, 12, 15, 14, 16]]]
    completions = np.array(
        [
            [5, 6, 7, 8, 9, 0],
            [5, 6, 7, 10, 0, 0],
            [5, 9, 0, 0, 0, 0],
            [6, 7, 8, 9, 5, 6],
            [11, 12, 13, 14, 0, 0],
            [11, 12, 15, 0, 0, 0],
            [14, 13, 12, 11, 0, 0],
            [11, 12, 15, 14, 16, 0],
        ]
    )
    rewards = bleu_rewards(completions, prompt_refs, group_size=4)
    want = [
        sacrebleu.sentence_bleu(
            as_text([t for t in row if t]), [as_text(r) for r in prompt_refs[i // 4]]
        ).score
        / 100.0
        for i, row in enumerate(completions.tolist())
    ]
    assert rewards.tolist() == want
    assert np.round(rewards, 4).tolist() == [1.0, 1.0, 0.2601, 0.5774, 1.0, 0.7165, 0.2259, 1.0]


@given(
    rows=st.lists(
        st.lists(
            st.one_of(
                st.integers(-5, 5), st.integers(2**29, 2**31 + 3), st.integers(-(2**40), 2**40)
            ),
            max_size=6,
        ),
        max_size=4,
    ),
    pad=st.one_of(st.none(), st.integers(-3, 3)),
)
def test_compiled_packer_equals_the_twin(rows, pad):
    """The compiled packer (with its small-int fast path) keeps, drops and refuses exactly the
    items the readable twin does, with the same messages."""
    packer = compiled_module("count._pack")
    if packer is None:
        pytest.skip("compiled extension not built")

    def run(module):
        try:
            ids, off = module.pack_sequences(rows, "hyps", pad, 3)
            return ids.tolist(), off.tolist()
        except (TypeError, ValueError) as exc:
            return type(exc), str(exc)

    assert run(packer) == run(_pack_py)
