"""The n-gram kernel: compiled ``_kernel`` and its pure-Python twin ``_kernel_py`` against a
brute-force reference written here, on generated CSR batches of token ids.

Covered: max order 1..8; 0..8 references per segment (no reference gives ref_len -1); empty
hypotheses and references; ids from the whole int32 range including -1 (the id of a token unknown
to a frozen vocabulary) and 2**31-1; hash collisions forced through ``hash_mask`` (compiled only); a
100k-token segment; ``seg_start``/``seg_end`` ranges; threads on disjoint ranges; bad shapes.
"""

from __future__ import annotations

import sys
import threading
from typing import List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import (
    compiled_kernel,
    compiled_module,
    compiled_twin_of,
    requires_compiled,
    twin_and_compiled,
)
from turbobleu._engine import choice as _choice
from turbobleu._engine.count import _kernel_py
from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.recipes import _sacrebleu_scores_py

COMPILED = compiled_kernel()
KERNELS = twin_and_compiled(_kernel_py)
needs_compiled = requires_compiled(COMPILED)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
Segment = Tuple[List[int], List[List[int]]]  # (hypothesis ids, reference id lists)


# -- the brute-force reference ---------------------------------------------------------------
def brute_force_row(hyp: Sequence[int], refs: Sequence[Sequence[int]], order: int) -> List[int]:
    """The statistics row by definition: list.count over explicit n-gram lists, no hashing."""

    def grams(ids: Sequence[int], n: int) -> List[tuple]:
        return [tuple(ids[i : i + n]) for i in range(len(ids) - n + 1)]

    matches, totals = [], []
    for n in range(1, order + 1):
        hyp_grams = grams(hyp, n)
        ref_grams = [grams(ref, n) for ref in refs]
        matches.append(
            sum(
                min(hyp_grams.count(g), max([rg.count(g) for rg in ref_grams], default=0))
                for g in set(hyp_grams)
            )
        )
        totals.append(len(hyp_grams))
    ref_len = -1
    if refs:  # closest length; on a tie the shorter one
        ref_len = min((len(r) for r in refs), key=lambda r: (abs(r - len(hyp)), r))
    return [len(hyp), ref_len] + matches + totals


def pack(segments: Sequence[Segment]) -> Tuple[np.ndarray, ...]:
    """CSR buffers: (hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off)."""
    hyp_ids: List[int] = []
    hyp_off, ref_ids, ref_off, seg_ref_off = [0], [], [0], [0]
    for hyp, refs in segments:
        hyp_ids.extend(hyp)
        hyp_off.append(len(hyp_ids))
        for ref in refs:
            ref_ids.extend(ref)
            ref_off.append(len(ref_ids))
        seg_ref_off.append(len(ref_off) - 1)
    return (
        np.array(hyp_ids, dtype=np.int32),
        np.array(hyp_off, dtype=np.int64),
        np.array(ref_ids, dtype=np.int32),
        np.array(ref_off, dtype=np.int64),
        np.array(seg_ref_off, dtype=np.int64),
    )


def run_kernel(kernel, segments: Sequence[Segment], order: int, **kwargs) -> np.ndarray:
    out = np.zeros((len(segments), 2 + 2 * order), dtype=np.int64)
    kernel.count_stats(*pack(segments), order, out, **kwargs)
    return out


# -- strategies ------------------------------------------------------------------------------
# Mostly a tiny alphabet (so that n-grams repeat and match), plus the int32 extremes and -1.
token_ids = st.one_of(
    st.integers(0, 3),
    st.sampled_from([-1, 0, INT32_MAX, INT32_MIN]),
    st.integers(INT32_MIN, INT32_MAX),
)
id_lists = st.lists(token_ids, max_size=14)
segments_st = st.lists(st.tuples(id_lists, st.lists(id_lists, max_size=8)), min_size=1, max_size=6)
orders = st.integers(1, 8)


def _ref_from_hyp(draw_data: st.DataObject, hyp: List[int]) -> List[int]:
    """A reference sharing pieces of the hypothesis, so that longer n-grams match too."""
    if not hyp:
        return draw_data.draw(id_lists)
    start = draw_data.draw(st.integers(0, len(hyp) - 1))
    stop = draw_data.draw(st.integers(start, len(hyp)))
    return draw_data.draw(id_lists) + hyp[start:stop] + draw_data.draw(id_lists)


@st.composite
def overlapping_segments(draw) -> List[Segment]:
    data = draw(st.data())
    segments = []
    for hyp, refs in draw(segments_st):
        refs = refs + [_ref_from_hyp(data, hyp) for _ in range(draw(st.integers(0, 2)))]
        segments.append((hyp, refs[:8]))
    return segments


# -- kernel vs brute force -------------------------------------------------------------------
@pytest.mark.parametrize("kernel", KERNELS)
@given(segments=overlapping_segments(), order=orders)
def test_kernel_matches_brute_force(kernel, segments: List[Segment], order: int) -> None:
    got = run_kernel(kernel, segments, order)
    want = [brute_force_row(hyp, refs, order) for hyp, refs in segments]
    assert got.tolist() == want


@needs_compiled
@given(segments=overlapping_segments(), order=orders)
def test_compiled_equals_twin(segments: List[Segment], order: int) -> None:
    assert (
        run_kernel(COMPILED, segments, order).tolist()
        == run_kernel(_kernel_py, segments, order).tolist()
    )


@needs_compiled
@pytest.mark.parametrize("hash_mask", [0, 1, 3])
@given(segments=overlapping_segments(), order=orders)
def test_forced_hash_collisions_change_nothing(
    hash_mask: int, segments: List[Segment], order: int
) -> None:
    """With a 0-, 1- or 2-bit hash every n-gram collides; ids are compared, so rows stay exact."""
    got = run_kernel(COMPILED, segments, order, hash_mask=hash_mask)
    assert got.tolist() == [brute_force_row(hyp, refs, order) for hyp, refs in segments]


@needs_compiled
@pytest.mark.parametrize("hash_mask", [0, 3])
def test_collisions_between_orders_and_long_repeats(hash_mask: int) -> None:
    """Same ids at different orders, long runs of one id, and prefixes of each other."""
    segments = [
        ([7] * 40, [[7] * 13, [7] * 3]),
        ([1, 2, 1, 2, 1, 2, 1], [[2, 1, 2], [1, 2, 1, 2]]),
        ([0, 0, -1, -1, 0], [[-1, -1, -1], [0, 0]]),
        ([INT32_MAX, INT32_MIN, INT32_MAX], [[INT32_MIN, INT32_MAX], [INT32_MAX]]),
        # The maximum over references from a later one, an earlier one, and one in between.
        ([5, 5, 5, 5], [[5], [5, 5, 5]]),
        ([5, 5, 5, 5], [[5, 5, 5], [5]]),
        ([5, 5, 5, 5], [[5], [5, 5, 5], [5, 5]]),
    ]
    for order in range(1, 9):
        assert run_kernel(COMPILED, segments, order, hash_mask=hash_mask).tolist() == [
            brute_force_row(hyp, refs, order) for hyp, refs in segments
        ]


# -- hand-checked rows -----------------------------------------------------------------------
@pytest.mark.parametrize("kernel", KERNELS)
def test_known_rows(kernel) -> None:
    segments = [
        ([1, 2, 3, 4], [[1, 2, 3, 4]]),  # perfect match
        ([1, 1, 1], [[1], [1, 1]]),  # clipped by the max over references
        ([], [[1, 2]]),  # empty hypothesis
        ([5, 6], []),  # no reference at all
        ([5, 6], [[]]),  # one empty reference (length 0)
        ([1, 2, 3], [[9] * 5, [9]]),  # tie 5 vs 1 at distance 2: shorter wins
        ([1, 2, 3], [[9] * 4, [9] * 2]),  # tie 4 vs 2: shorter wins
        ([1, 2, 3], [[9] * 2, [9] * 4]),  # same, other order
    ]
    assert run_kernel(kernel, segments, 2).tolist() == [
        [4, 4, 4, 3, 4, 3],
        [3, 2, 2, 1, 3, 2],
        [0, 2, 0, 0, 0, 0],
        [2, -1, 0, 0, 2, 1],
        [2, 0, 0, 0, 2, 1],
        [3, 1, 0, 0, 3, 2],
        [3, 2, 0, 0, 3, 2],
        [3, 2, 0, 0, 3, 2],
    ]


@pytest.mark.parametrize("kernel", KERNELS)
def test_unknown_id_minus_one_is_an_ordinary_id(kernel) -> None:
    """-1 marks hypothesis tokens missing from a frozen vocabulary; the kernel compares it like any
    id, so it matches only a reference -1 (which tokenized references never contain)."""
    segments = [([-1, -1, 3], [[3, 4]]), ([-1, -1, 3], [[-1, 3]])]
    assert run_kernel(kernel, segments, 2).tolist() == [[3, 2, 1, 0, 3, 2], [3, 2, 2, 1, 3, 2]]


# -- ranges, threads, long segments ----------------------------------------------------------
@pytest.mark.parametrize("kernel", KERNELS)
@given(segments=overlapping_segments(), order=orders, data=st.data())
def test_segment_ranges_fill_only_their_rows(
    kernel, segments: List[Segment], order: int, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(segments)))
    stop = data.draw(st.integers(start, len(segments)))
    out = np.zeros((len(segments), 2 + 2 * order), dtype=np.int64)
    kernel.count_stats(*pack(segments), order, out, seg_start=start, seg_end=stop)
    for i, (hyp, refs) in enumerate(segments):
        want = brute_force_row(hyp, refs, order) if start <= i < stop else [0] * (2 + 2 * order)
        assert out[i].tolist() == want, i


@pytest.mark.parametrize("kernel", KERNELS)
def test_seg_end_minus_one_means_all(kernel) -> None:
    segments = [([1, 2], [[1, 2]]), ([3], [[4]]), ([5, 5], [[5]])]
    out = np.zeros((3, 4), dtype=np.int64)
    kernel.count_stats(*pack(segments), 1, out, seg_start=1, seg_end=-1)
    assert out.tolist() == [[0, 0, 0, 0], [1, 1, 0, 1], [2, 1, 1, 2]]


# Dense ids (n_ids > 0): unigrams are counted in an array indexed by id, -1 in the entry after.
dense_ids = st.one_of(st.integers(-1, 3), st.integers(-1, 40))
dense_lists = st.lists(dense_ids, max_size=14)
dense_segments = st.lists(
    st.tuples(dense_lists, st.lists(dense_lists, max_size=8)), min_size=1, max_size=6
)


@pytest.mark.parametrize("kernel", KERNELS)
@given(segments=dense_segments, order=orders, spare=st.integers(1, 5))
def test_dense_ids_match_brute_force(
    kernel, segments: List[Segment], order: int, spare: int
) -> None:
    """-1 stays an ordinary id (it matches -1); ``n_ids`` may exceed the largest id."""
    n_ids = 1 + max([t for hyp, refs in segments for t in hyp + sum(refs, [])], default=0) + spare
    want = [brute_force_row(hyp, refs, order) for hyp, refs in segments]
    assert run_kernel(kernel, segments, order, n_ids=n_ids).tolist() == want


@needs_compiled
def test_dense_ids_across_calls_and_stamps() -> None:
    """The unigram entries persist between calls (the spare table) and are claimed per segment
    by stamp: alternating dense and general calls, growing and shrinking n_ids, stay exact."""
    rng = np.random.default_rng(3)
    for _round in range(30):
        n_ids = int(rng.integers(1, 300))
        segments = [
            (
                rng.integers(-1, n_ids, rng.integers(0, 40)).tolist(),
                [
                    rng.integers(-1, n_ids, rng.integers(0, 40)).tolist()
                    for _ in range(int(rng.integers(1, 4)))
                ],
            )
            for _ in range(50)
        ]
        want = run_kernel(_kernel_py, segments, 4)
        assert np.array_equal(run_kernel(COMPILED, segments, 4, n_ids=n_ids), want)
        assert np.array_equal(run_kernel(COMPILED, segments, 4), want)


@pytest.mark.parametrize("kernel", KERNELS)
def test_dense_ids_with_an_overstated_n_ids(kernel) -> None:
    """Only the entries the ids use are made (the compiled kernel sizes them from the largest)."""
    segments = [([1, 2, 3, -1], [[1, 2, -1, 3]]), ([-1, -1], [[-1]])]
    want = [brute_force_row(hyp, refs, 4) for hyp, refs in segments]
    assert run_kernel(kernel, segments, 4, n_ids=10**7).tolist() == want


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("n_ids", [0, -1, -5, -(2**59), -(2**62), -(2**63)])
def test_non_positive_n_ids_mean_any_ids(kernel, n_ids: int) -> None:
    """n_ids <= 0 is the general path (any int32 ids). A very negative one once made the table
    warm-up compute a wrapped byte count and read from a missing unigram array (segfault)."""
    segments = [([7, 8, 9], [[7, 8, 10]]), ([], [[1]]), ([-1, 4], [[4, -1]])]
    want = [brute_force_row(hyp, refs, 4) for hyp, refs in segments]
    assert run_kernel(kernel, segments, 4, n_ids=n_ids).tolist() == want


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("bad", [5, -2, INT32_MIN])
def test_dense_ids_out_of_range(kernel, bad: int) -> None:
    out = np.zeros((1, 10), dtype=np.int64)
    with pytest.raises(
        ValueError, match=rf"n_ids=5, ref_ids must be -1 or in 0..4; ref_ids\[1\] is {bad}"
    ):
        kernel.count_stats(*pack([([1, 2], [[3, bad]])]), 4, out, n_ids=5)
    with pytest.raises(ValueError, match="n_ids must be at most"):
        kernel.count_stats(*pack([([1, 2], [[3]])]), 4, out, n_ids=2**31)


@needs_compiled
def test_threads_on_disjoint_ranges() -> None:
    """The compiled kernel releases the GIL; threads filling disjoint row ranges of one output
    must give the single-call result."""
    rng = np.random.default_rng(7)
    segments = [
        (
            rng.integers(0, 30, rng.integers(0, 60)).tolist(),
            [rng.integers(0, 30, rng.integers(0, 60)).tolist() for _ in range(2)],
        )
        for _ in range(400)
    ]
    buffers = pack(segments)
    want = np.zeros((400, 10), dtype=np.int64)
    COMPILED.count_stats(*buffers, 4, want)
    out = np.zeros((400, 10), dtype=np.int64)
    threads = [
        threading.Thread(
            target=COMPILED.count_stats,
            args=(*buffers, 4, out),
            kwargs=dict(seg_start=lo, seg_end=lo + 100),
        )
        for lo in range(0, 400, 100)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert np.array_equal(out, want)


def test_long_segment_100k_tokens() -> None:
    """One 100k-token hypothesis against a shuffled copy, a long unrelated reference and a short
    one; the compiled kernel (when built) and the twin agree, and the totals are exact."""
    rng = np.random.default_rng(2024)
    hyp = rng.integers(0, 50, 100_000).tolist()
    refs = [rng.permutation(hyp).tolist(), rng.integers(0, 60, 99_000).tolist(), hyp[:10]]
    order = 4
    twin = run_kernel(_kernel_py, [(hyp, refs)], order)[0].tolist()
    assert twin[0] == 100_000 and twin[1] == 100_000
    assert twin[2 + order :] == [100_000 - n + 1 for n in range(1, order + 1)]
    assert twin[2] == 100_000  # unigrams: the shuffled copy has every token as often
    if COMPILED is not None:
        assert run_kernel(COMPILED, [(hyp, refs)], order)[0].tolist() == twin
        assert run_kernel(COMPILED, [(hyp, refs)], 8)[0].tolist()[: 2 + order] == twin[: 2 + order]


# -- bad shapes ------------------------------------------------------------------------------
def _buffers():
    return pack([([1, 2, 3], [[1, 2]]), ([4], [[4], [5]])])


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("order", [0, -1])
def test_max_order_below_one(kernel, order: int) -> None:
    with pytest.raises(ValueError, match="max_order"):
        kernel.count_stats(*_buffers(), order, np.zeros((2, 2), dtype=np.int64))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("shape", [(2, 9), (2, 11), (1, 10)])
def test_output_of_the_wrong_shape(kernel, shape: Tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="output array has the wrong shape"):
        kernel.count_stats(*_buffers(), 4, np.zeros(shape, dtype=np.int64))


@pytest.mark.parametrize("kernel", KERNELS)
def test_segment_offsets_of_the_wrong_length(kernel) -> None:
    hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off = _buffers()
    with pytest.raises(ValueError, match="inconsistent segment offsets"):
        kernel.count_stats(
            hyp_ids,
            hyp_off,
            ref_ids,
            ref_off,
            seg_ref_off[:-1],
            4,
            np.zeros((2, 10), dtype=np.int64),
        )


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("start,stop", [(2, 1), (0, 3), (3, 3), (-1, 2)])
def test_bad_segment_range(kernel, start: int, stop: int) -> None:
    with pytest.raises(ValueError, match="inconsistent segment offsets"):
        kernel.count_stats(
            *_buffers(), 4, np.zeros((2, 10), dtype=np.int64), seg_start=start, seg_end=stop
        )


@pytest.mark.parametrize("kernel", KERNELS)
def test_offsets_past_the_buffers(kernel) -> None:
    """Offsets that point past the id arrays are an error, not an out-of-bounds read."""
    hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off = _buffers()
    out = np.zeros((2, 10), dtype=np.int64)
    with pytest.raises(ValueError, match="past the id buffers"):
        kernel.count_stats(hyp_ids[:-1], hyp_off, ref_ids, ref_off, seg_ref_off, 4, out)
    with pytest.raises(ValueError, match="past the id buffers"):
        kernel.count_stats(hyp_ids, hyp_off, ref_ids[:-1], ref_off, seg_ref_off, 4, out)
    with pytest.raises(ValueError, match="past the id buffers"):
        kernel.count_stats(hyp_ids, hyp_off, ref_ids, ref_off[:-1], seg_ref_off, 4, out)


def test_selected_kernel_is_the_reported_implementation() -> None:
    expected = (
        "turbobleu._engine.count._kernel"
        if _choice.implementation == "cython"
        else "turbobleu._engine.count._kernel_py"
    )
    assert _count_impl.kernel.__name__ == expected


# -- the one-row sacrebleu recipe (sentence_bleu's) ------------------------------------------------
COMPILED_SCORES = compiled_twin_of(_sacrebleu_scores_py)


@st.composite
def statistics_rows(draw) -> Tuple[List[int], int]:
    order = draw(st.integers(1, 8))
    hyp_len = draw(st.integers(0, 60))
    ref_len = draw(st.integers(-1, 60))
    totals = [max(hyp_len - n + 1, 0) for n in range(1, order + 1)]
    matches = [draw(st.integers(0, t)) for t in totals]
    return [hyp_len, ref_len] + matches + totals, order


@requires_compiled(COMPILED_SCORES)
@given(
    case=statistics_rows(),
    smoothing=st.sampled_from(
        [("none", None), ("floor", None), ("floor", 0.3), ("floor", 2), ("exp", None)]
    ),
    effective=st.booleans(),
)
def test_compiled_score_parts_equal_the_python_recipe(case, smoothing, effective) -> None:
    row, order = case
    method, value = smoothing
    neumaier = sys.version_info >= (3, 12)
    got = COMPILED_SCORES.sacrebleu_score_parts(row, order, method, value, effective, neumaier)
    want = _sacrebleu_scores_py.sacrebleu_score_parts(
        row, order, method, value, effective, neumaier
    )
    assert got == want


@pytest.mark.parametrize("module", twin_and_compiled(_sacrebleu_scores_py))
def test_score_parts_refuse_add_k(module) -> None:
    with pytest.raises(ValueError, match="add-k"):
        module.sacrebleu_score_parts([3, 3, 1, 0, 3, 2], 2, "add-k", None, True, False)


# -- prepared reference and self-BLEU tables ------------------------------------------------------
COMPILED_PACK = compiled_module("count._pack")
COMPILED_REFS = compiled_module("count._ref_tables")
COMPILED_SELF = compiled_module("count._self_table")
needs_compiled_tables = pytest.mark.skipif(
    None in (COMPILED_PACK, COMPILED_REFS, COMPILED_SELF), reason="compiled extension not built"
)


@needs_compiled_tables
def test_prepared_table_builders_check_every_offset() -> None:
    """An interior offset past the ids (only the last one was checked) is an error, not an
    out-of-bounds read."""
    ids = np.arange(3, dtype=np.int32)
    bad = np.array([0, 3_000_000, 3], dtype=np.int64)
    with pytest.raises(ValueError, match="ref_off must be non-decreasing"):
        COMPILED_REFS.build_ref_tables(ids, bad, np.array([0, 2], dtype=np.int64), 1)
    with pytest.raises(ValueError, match="grp_ref_off must be non-decreasing"):
        COMPILED_REFS.build_ref_tables(
            ids, np.array([0, 1, 3], dtype=np.int64), np.array([0, 2, 1], dtype=np.int64), 1
        )
    with pytest.raises(ValueError, match="off must be non-decreasing"):
        COMPILED_SELF.build_self_table(ids, bad, 1)


@needs_compiled_tables
def test_prepared_table_scoring_checks_the_groups_regions() -> None:
    ids, off, goff = COMPILED_PACK.pack_groups([[[1, 2, 3]], [[4, 5]]], "r")
    table, caps = COMPILED_REFS.build_ref_tables(ids, off, goff, 2)
    bases = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64)
    ref_lens = np.diff(off).astype(np.int64)
    hyp_ids, hyp_off = COMPILED_PACK.pack_sequences([[1, 2], [4, 5]], "h")
    groups = np.array([0, 1], dtype=np.int64)

    def score(bases_: np.ndarray, hyp_off_: np.ndarray) -> np.ndarray:
        out = np.zeros((2, 6), dtype=np.int64)
        COMPILED_REFS.score_ref_tables(
            table, bases_, caps, goff, ref_lens, 2, hyp_ids, hyp_off_, groups, 2, out
        )
        return out

    assert score(bases, hyp_off)[:, 2:4].tolist() == [[2, 1], [2, 1]]
    with pytest.raises(ValueError, match="region lies outside the table"):
        score(bases + len(table), hyp_off)
    with pytest.raises(ValueError, match="hyp_off must be non-decreasing"):
        score(bases, np.array([0, 9, 4], dtype=np.int64))
