"""chrF's bootstrap scores (``ChrFResampler.scores`` on float32 sums) are the per-row Python
recipe's, value for value and type for type: the rows scored at once as arrays and the rows
left to the scalar recipe (empty sides, zero denominators, no match at all)."""

from __future__ import annotations

from typing import List

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from turbobleu._engine.chrf.recipe import f_score
from turbobleu._engine.chrf.resampler import ChrFResampler
from turbobleu._engine.recipes.sacrebleu_batch import bootstrap_arithmetic

counts = st.integers(0, 3000) | st.sampled_from([0, 1, 2])


@st.composite
def float32_rows(draw: st.DrawFn) -> np.ndarray:
    order = draw(st.integers(1, 8))
    n = draw(st.integers(1, 12))
    rows: List[List[int]] = []
    for _ in range(n):
        row = []
        for _ in range(order):
            hyp, ref = draw(counts), draw(counts)
            row += [hyp, ref, draw(st.integers(0, min(hyp, ref)))]
        rows.append(row)
    return np.array(rows, dtype=np.float32)


@settings(max_examples=300, deadline=None)
@given(sums=float32_rows(), beta=st.sampled_from([0, 1, 2, 3, 0.5, 2.0]), eps=st.booleans())
def test_scores_equal_the_scalar_recipe(sums: np.ndarray, beta: float, eps: bool) -> None:
    order = sums.shape[1] // 3
    want = np.array([f_score(row, order, beta, eps) for row in sums])
    got = ChrFResampler(order, beta, eps).scores(sums, bootstrap_arithmetic())
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
    assert [type(v) for v in got.tolist()] == [type(v) for v in want.tolist()]
