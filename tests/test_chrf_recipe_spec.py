"""The compiled chrF F-score (``_chrf.sentence_scores``, C) against its specification,
``recipe.f_score`` (readable Python, the same operations in the same order), on generated
statistics rows: the floats must be equal bit for bit. The twin's ``sentence_scores`` calls the
specification itself, so this pins the C copy."""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turbobleu._engine.chrf.recipe import f_score

_chrf = pytest.importorskip("turbobleu._engine.chrf._chrf", reason="compiled chrF not built")

counts = st.integers(0, 12) | st.integers(0, 2**40)


@st.composite
def rows(draw: Any) -> List[List[int]]:
    """Statistics rows [hyp, ref, matches] per order, matches <= both (and some zero counts)."""
    order = draw(st.integers(1, 9))
    out = []
    for _ in range(draw(st.integers(1, 6))):
        row = []
        for _ in range(order):
            hyp, ref = draw(counts), draw(counts)
            row += [hyp, ref, draw(st.integers(0, min(hyp, ref)))]
        out.append(row)
    return out


@settings(max_examples=400, deadline=None)
@given(
    stats=rows(),
    beta=st.sampled_from([0, 1, 2, 3, 7, 0.5, 1.5, 2.0]),
    eps_smoothing=st.booleans(),
)
def test_compiled_f_score_is_the_specification(
    stats: List[List[int]], beta: Any, eps_smoothing: bool
) -> None:
    order = len(stats[0]) // 3
    array = np.array(stats, dtype=np.int64)
    out = np.empty(len(stats), dtype=np.float64)
    _chrf.sentence_scores(array, order, beta, eps_smoothing, out)
    want = [f_score(row, order, beta, eps_smoothing) for row in stats]
    assert out.tolist() == want
