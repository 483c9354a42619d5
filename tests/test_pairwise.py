"""Pairwise sentence BLEU: every cell against the mirrored library's single-reference call
(sacrebleu.sentence_bleu(h, [r]), NLTK's sentence_bleu([r], h)), on real and generated text and
ids, in whole, in blocks and on threads; the kernel against its twin; bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from conftest import all_corpora, requires_wmt23
from turbobleu import pairwise as pairwise_module
from turbobleu.batch import NLTKRecipe, SacreBLEURecipe
from turbobleu.pairwise import PairwiseBLEU, pairwise_bleu

# sacrebleu's tokenizer per target language (the WMT23 official scores use these).
TOKENIZE = {"zh": "zh", "ja": "char"}
SIZE = 24  # cells per side on real text


def sacre_matrix(hyps, refs, **kwargs):
    return [[sacrebleu.sentence_bleu(h, [r], **kwargs).score for r in refs] for h in hyps]


def nltk_matrix(hyps, refs, weights=(0.25,) * 4, smoothing=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [[nltk_sentence_bleu([r], h, weights, smoothing) for r in refs] for h in hyps]


def corpus_lines(corpus):
    hyps = corpus.hypotheses(corpus.systems[0])[:SIZE]
    refs = corpus.reference_streams(corpus.references[:1])[0][:SIZE]
    return hyps, refs


def corpus_ids(corpus):
    return [f"{c.source}-{c.directory.name}" for c in corpus]


FIXTURES = [c for c in all_corpora() if c.source == "fixture"]
WMT23 = [c for c in all_corpora() if c.source == "wmt23"]


@pytest.mark.parametrize("corpus", FIXTURES, ids=corpus_ids(FIXTURES))
def test_fixture_text_equals_sacrebleu(corpus):
    hyps, refs = corpus_lines(corpus)
    tok = TOKENIZE.get(corpus.lang, "13a")
    got = pairwise_bleu(hyps, refs, tokenize=tok, threads=1)
    assert got.tolist() == sacre_matrix(hyps, refs, tokenize=tok)


@requires_wmt23
@pytest.mark.parametrize("corpus", WMT23, ids=corpus_ids(WMT23))
def test_wmt23_text_equals_sacrebleu(corpus):
    hyps, refs = corpus_lines(corpus)
    tok = TOKENIZE.get(corpus.lang, "13a")
    got = pairwise_bleu(hyps, refs, tokenize=tok, threads=2)
    assert got.shape == (len(hyps), len(refs))
    assert got.tolist() == sacre_matrix(hyps, refs, tokenize=tok)


@requires_wmt23
@pytest.mark.parametrize(
    "options",
    [
        {"smooth_method": "floor"},
        {"smooth_method": "floor", "smooth_value": 0.5},
        {"smooth_method": "add-k", "smooth_value": 2},
        {"smooth_method": "none"},
        {"smooth_method": "exp", "use_effective_order": False},
    ],
)
def test_wmt23_smoothing_equals_sacrebleu(options):
    corpus = next(c for c in WMT23 if c.directory.name == "zh-en")
    hyps, refs = corpus_lines(corpus)
    recipe = SacreBLEURecipe(
        options["smooth_method"],
        options.get("smooth_value"),
        options.get("use_effective_order", True),
    )
    got = pairwise_bleu(hyps, refs, recipe, lowercase=True, threads=1)
    assert got.tolist() == sacre_matrix(hyps, refs, lowercase=True, **options)


@requires_wmt23
@pytest.mark.parametrize("method", [0, 1, 2, 3, 4, 5, 7])
def test_wmt23_text_equals_nltk(method):
    corpus = next(c for c in WMT23 if c.directory.name == "he-en")
    hyps, refs = corpus_lines(corpus)
    fn = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = pairwise_bleu(hyps, refs, NLTKRecipe(smoothing_function=fn), threads=1)
    want = nltk_matrix([h.split() for h in hyps], [r.split() for r in refs], smoothing=fn)
    assert got.tolist() == want


def test_self_matrix_prepares_each_text_once_and_equals_the_two_list_form():
    corpus = FIXTURES[0]
    hyps = corpus.hypotheses(corpus.systems[0])[:SIZE]
    prepared = PairwiseBLEU(hyps, threads=1)
    assert prepared.shape == (len(hyps), len(hyps))
    both = PairwiseBLEU(hyps, list(hyps), threads=1)
    assert prepared.nbytes < both.nbytes  # one profile per text, not two
    got = prepared.matrix()
    assert got.tolist() == both.matrix().tolist() == sacre_matrix(hyps, hyps)


# -- generated text and ids -------------------------------------------------------------------
WORDS = st.sampled_from(["a", "b", "c", "the", "dog", ".", ","])
LINES = st.lists(WORDS, max_size=9).map(" ".join)
IDS = st.lists(st.integers(0, 4), max_size=10)


@given(
    hyps=st.lists(LINES, max_size=6),
    refs=st.lists(LINES, max_size=6),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    eff=st.booleans(),
)
def test_generated_text_equals_sacrebleu(hyps, refs, smooth, eff):
    got = pairwise_bleu(hyps, refs, SacreBLEURecipe(smooth, effective_order=eff), threads=1)
    assert got.shape == (len(hyps), len(refs))
    want = sacre_matrix(hyps, refs, smooth_method=smooth, use_effective_order=eff)
    assert got.tolist() == (want if hyps else [])


@given(hyps=st.lists(IDS, min_size=1, max_size=6), refs=st.lists(IDS, min_size=1, max_size=6))
def test_generated_ids_equal_sacrebleu_on_their_text(hyps, refs):
    def lines(rows):
        return [" ".join(map(str, r)) for r in rows]

    got = pairwise_bleu(hyps, refs, threads=1)
    assert got.tolist() == sacre_matrix(lines(hyps), lines(refs), tokenize="none")


@given(
    hyps=st.lists(IDS, min_size=1, max_size=5),
    refs=st.lists(IDS, min_size=1, max_size=5),
    order=st.integers(1, 5),
    method=st.sampled_from([0, 1, 2, 3, 4, 5, 7]),
)
def test_generated_ids_equal_nltk(hyps, refs, order, method):
    weights = (1 / order,) * order
    fn = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = pairwise_bleu(hyps, refs, NLTKRecipe(weights, fn), threads=1)
    assert got.tolist() == nltk_matrix(hyps, refs, weights, fn)


def test_arrays_with_pad_ids_and_lengths_equal_lists():
    lists = [[1, 2, 3], [1, 2], [3, 3, 3, 3], []]
    padded = np.array([[1, 2, 3, 9], [1, 2, 9, 9], [3, 3, 3, 3], [9, 9, 9, 9]])
    want = pairwise_bleu(lists, lists, threads=1)
    assert pairwise_bleu(padded, padded, pad_id=9, threads=1).tolist() == want.tolist()
    lengths = np.array([3, 2, 4, 0])
    got = pairwise_bleu(padded, padded, hyp_lengths=lengths, ref_lengths=lengths, threads=1)
    assert got.tolist() == want.tolist()
    vectors = [np.array(x, dtype=np.int64) for x in lists]
    assert pairwise_bleu(vectors, threads=1).tolist() == want.tolist()


def test_empty_texts_and_empty_lists():
    got = pairwise_bleu(["", "a b"], ["", "a b", ""], threads=1)
    assert got.tolist() == sacre_matrix(["", "a b"], ["", "a b", ""])
    assert pairwise_bleu([], ["a"], threads=1).shape == (0, 1)
    assert pairwise_bleu(["a"], [], threads=1).shape == (1, 0)
    assert pairwise_bleu([], threads=1).shape == (0, 0)
    scores, stats = pairwise_bleu([], ["a"], threads=1, return_stats=True)
    assert stats.shape == (0, 1, 10)


# -- blocks, threads, statistics --------------------------------------------------------------
def generated_ids(n, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 30, rng.integers(0, 40)).tolist() for _ in range(n)]


def test_blocks_and_sub_blocks_equal_the_whole_matrix():
    hyps, refs = generated_ids(37, 1), generated_ids(29, 2)
    prepared = PairwiseBLEU(hyps, refs, threads=1)
    whole = prepared.matrix()
    assert whole.tolist() == pairwise_bleu(hyps, refs, threads=1).tolist()
    seen = np.full(whole.shape, np.nan)
    for rows, cols, block in prepared.blocks(block_rows=10, block_cols=7):
        assert block.shape == (rows.stop - rows.start, cols.stop - cols.start)
        assert np.isnan(seen[rows, cols]).all()
        seen[rows, cols] = block
    assert seen.tolist() == whole.tolist()
    assert prepared.matrix(slice(5, 9), range(3, 20)).tolist() == whole[5:9, 3:20].tolist()
    assert prepared.matrix((30, 37), None).tolist() == whole[30:].tolist()


def test_threads_and_bands_do_not_change_a_cell(monkeypatch):
    hyps = generated_ids(60, 3)
    want = pairwise_bleu(hyps, threads=1)
    monkeypatch.setattr(pairwise_module, "_MIN_CHUNK_CELLS", 1)
    monkeypatch.setattr(pairwise_module, "_BAND_CELLS", 100)  # bands of 1-2 rows
    for threads in (2, 3, 8):
        assert pairwise_bleu(hyps, threads=threads).tolist() == want.tolist()


def test_stats_equal_the_batch_rows_with_one_reference():
    from turbobleu.batch import sentence_bleu_batch

    hyps, refs = generated_ids(9, 4), generated_ids(7, 5)
    scores, stats = pairwise_bleu(hyps, refs, threads=1, return_stats=True)
    pairs_h = [h for h in hyps for _ in refs]
    pairs_r = [[r] for _ in hyps for r in refs]
    want_scores, want_rows = sentence_bleu_batch(pairs_h, pairs_r, threads=1, return_stats=True)
    assert stats.reshape(-1, 10).tolist() == want_rows.tolist()
    assert scores.reshape(-1).tolist() == want_scores.tolist()
    assert PairwiseBLEU(hyps, refs).stats().tolist() == stats.tolist()


def test_nltk_method5_reads_five_gram_rows():
    hyps, refs = generated_ids(5, 6), generated_ids(4, 7)
    fn = SmoothingFunction().method5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, stats = pairwise_bleu(hyps, refs, NLTKRecipe(smoothing_function=fn), return_stats=True)
        got = pairwise_bleu(hyps, refs, NLTKRecipe(smoothing_function=fn))
    assert stats.shape == (5, 4, 12)
    assert got.tolist() == nltk_matrix(hyps, refs, smoothing=fn)


def test_nltk_method6_error_names_the_cell():
    hyps, refs = ["a b c d", "a b"], ["a b c d", "a b"]
    fn = SmoothingFunction().method6
    failing = []  # the cells where NLTK itself raises (it needs a trigram match)
    for k, (h, r) in enumerate((h, r) for h in hyps for r in refs):
        try:
            nltk_sentence_bleu([r.split()], h.split(), smoothing_function=fn)
        except AssertionError:
            failing.append(k)
    assert failing and failing[0] > 0
    pattern = rf"cell\[{failing[0]}\]: .*method6.*hypothesis 0 \+ k // 2 against"
    with pytest.raises(ValueError, match=pattern):
        pairwise_bleu(hyps, refs, NLTKRecipe(smoothing_function=fn), threads=1)


def test_nltk_method0_warns_like_nltk():
    with pytest.warns(UserWarning, match="0 counts of"):
        pairwise_bleu(["a b c d"], ["a b x y"], "nltk", threads=1)


# -- the kernel and its twin --------------------------------------------------------------------
def test_compiled_kernel_equals_its_twin():
    try:
        from turbobleu._engine.count import _pairwise as compiled
    except ImportError:
        pytest.skip("the compiled pairwise kernel is not built")
    from turbobleu._engine.count import _pairwise_py as twin

    rng = np.random.default_rng(8)
    lens = rng.integers(0, 15, 40)
    off = np.zeros(41, dtype=np.int64)
    off[1:] = np.cumsum(lens)
    ids = rng.integers(0, 6, int(off[-1])).astype(np.int32)
    a, b = compiled.ngram_profiles(ids, off, 4), twin.ngram_profiles(ids, off, 4)
    assert a[3] == b[3]
    for x, y in zip(a[:3], b[:3]):
        assert x.tolist() == y.tolist()
    pa = compiled.column_postings(*a[:3], a[3], 4, 10, 33)
    pb = twin.column_postings(*b[:3], b[3], 4, 10, 33)
    for x, y in zip(pa, pb):
        assert x.tolist() == y.tolist()
    lengths = lens.astype(np.int64)
    out_a = np.zeros((7 * 23, 10), dtype=np.int64)
    out_b = np.zeros_like(out_a)
    compiled.pairwise_stats(*a[:3], lengths, 4, *pa, 2, 9, 10, 33, out_a)
    twin.pairwise_stats(*b[:3], lengths, 4, *pb, 2, 9, 10, 33, out_b)
    assert out_a.tolist() == out_b.tolist()


@pytest.mark.parametrize("kernel_name", ["_pairwise", "_pairwise_py"])
def test_kernel_refuses_inconsistent_buffers(kernel_name):
    import importlib

    try:
        kernel = importlib.import_module(f"turbobleu._engine.count.{kernel_name}")
    except ImportError:
        pytest.skip("the compiled pairwise kernel is not built")
    ids = np.array([1, 2, 3], dtype=np.int32)
    off = np.array([0, 2, 3], dtype=np.int64)
    with pytest.raises(ValueError, match="max_order"):
        kernel.ngram_profiles(ids, off, 0)
    with pytest.raises(ValueError, match="CSR"):
        kernel.ngram_profiles(ids, np.array([0, 5], dtype=np.int64), 2)
    prof = kernel.ngram_profiles(ids, off, 2)
    with pytest.raises(ValueError, match="column range"):
        kernel.column_postings(*prof[:3], prof[3], 2, 1, 3)
    post = kernel.column_postings(*prof[:3], prof[3], 2, 0, 2)
    lengths = np.array([2, 1], dtype=np.int64)
    with pytest.raises(ValueError, match="out must have shape"):
        kernel.pairwise_stats(*prof[:3], lengths, 2, *post, 0, 2, 0, 2, np.zeros((3, 6), np.int64))
    with pytest.raises(ValueError, match="row range"):
        kernel.pairwise_stats(*prof[:3], lengths, 2, *post, 1, 0, 0, 2, np.zeros((0, 6), np.int64))


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: pairwise_bleu("a b", ["a"]), TypeError, "hypotheses"),
        (lambda: pairwise_bleu(["a"], "a b"), TypeError, "references"),
        (lambda: pairwise_bleu(["a"], 5), TypeError, "references"),
        (lambda: pairwise_bleu([[1, 2]], ["a b"]), TypeError, "hypotheses are token ids"),
        (lambda: pairwise_bleu(["a b"], [[1, 2]]), TypeError, "hypotheses are strings"),
        (lambda: pairwise_bleu([[1, -2]], [[1]]), ValueError, "hypotheses"),
        (lambda: pairwise_bleu([[1]], [[1, -3]]), ValueError, "references"),
        (lambda: pairwise_bleu([["a", 3]], [["a"]]), TypeError, "hypotheses"),
        (lambda: pairwise_bleu(["a"], ["a"], "bleu"), ValueError, "recipe"),
        (lambda: pairwise_bleu(["a"], ["a"], threads=0), ValueError, "threads"),
        (lambda: pairwise_bleu(["a"], ref_lengths=[1]), ValueError, "ref_lengths"),
        (lambda: pairwise_bleu(np.zeros(3, dtype=int)), ValueError, "hypotheses"),
        (lambda: pairwise_bleu(["a"], ["a"], tokenize="nope"), Exception, "nope"),
        (lambda: PairwiseBLEU(["a"]).matrix(rows=slice(0, 1, 2)), ValueError, "rows"),
        (lambda: PairwiseBLEU(["a"]).matrix(cols=(0, 5)), ValueError, "cols"),
        (lambda: PairwiseBLEU(["a"]).matrix(rows="all"), TypeError, "rows"),
        (lambda: next(PairwiseBLEU(["a"]).blocks(block_rows=0)), ValueError, "block_rows"),
        (lambda: next(PairwiseBLEU(["a"]).blocks(block_cols=1.5)), ValueError, "block_cols"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_repr_and_shape():
    prepared = PairwiseBLEU(["a b", "c"], ["a"], "nltk")
    assert prepared.shape == (2, 1)
    assert "PairwiseBLEU(shape=(2, 1)" in repr(prepared) and "NLTKRecipe" in repr(prepared)


def test_public_names_are_lazy_exports_of_turbobleu():
    import subprocess
    import sys

    import turbobleu
    from turbobleu import mbr

    assert turbobleu.pairwise_bleu is pairwise_bleu and turbobleu.PairwiseBLEU is PairwiseBLEU
    for name in ("MBRChoice", "mbr_select", "mbr_select_batch", "mbrs_bleu_metric"):
        assert getattr(turbobleu, name) is getattr(mbr, name)
        assert name in turbobleu.__all__
    code = (
        "import sys, turbobleu\n"
        "print(sorted(m for m in ('turbobleu.pairwise', 'turbobleu.mbr', "
        "'turbobleu._engine.count._pairwise') if m in sys.modules))"
    )
    child = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[]"
