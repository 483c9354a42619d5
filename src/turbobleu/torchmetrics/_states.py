"""Adding one batch to torchmetrics' BLEU states exactly as its own ``+=`` would.

The states are float tensors (float32 by default: ``preds_len``, ``target_len``, ``numerator``,
``denominator``) and torchmetrics adds every count to them one at a time. While every value
stays an integer within the float's exact range (2**24 for float32, 2**53 for float64, 2**11
for float16), those additions are exact and their order does not matter, so the batch's summed
integers are added in one ``+=`` per state. Past that range each addition rounds, so the batch
is added one count at a time in torchmetrics' order (:meth:`Batch.increments`), with the same
tensor operations.
"""

from __future__ import annotations

import math
from typing import Callable, List

import torch
from torch import Tensor

from turbobleu.torchmetrics._counts import Batch


def exact_limit(dtype: torch.dtype) -> float:
    """The largest magnitude below which every integer is exact in ``dtype``."""
    if dtype.is_floating_point:
        return 2.0 / torch.finfo(dtype).eps
    return math.inf


def _stays_exact(state: Tensor, added: List[int]) -> bool:
    limit = exact_limit(state.dtype)
    if math.isinf(limit):
        return True
    values = state.tolist()
    if not isinstance(values, list):
        values = [values]
    return all(
        math.isfinite(v) and v == int(v) and abs(v) <= limit and abs(v + a) <= limit
        for v, a in zip(values, added)
    )


def add_batch(
    preds_len: Tensor,
    target_len: Tensor,
    numerator: Tensor,
    denominator: Tensor,
    make_batch: Callable[[bool], Batch],
) -> None:
    """Add the batch ``make_batch(distinct)`` to the four states, in place."""
    batch = make_batch(False)
    rows = batch.rows()
    n = batch.n_gram
    hyp_total = int(rows[:, 0].sum())
    ref_total = int(rows[:, 1].sum())
    matches = [int(x) for x in rows[:, 2 : 2 + n].sum(axis=0)]
    totals = [int(x) for x in rows[:, 2 + n :].sum(axis=0)]
    if (
        _stays_exact(preds_len, [hyp_total])
        and _stays_exact(target_len, [ref_total])
        and _stays_exact(numerator, matches)
        and _stays_exact(denominator, totals)
    ):
        preds_len += hyp_total
        target_len += ref_total
        numerator += torch.tensor(matches, dtype=numerator.dtype, device=numerator.device)
        denominator += torch.tensor(totals, dtype=denominator.dtype, device=denominator.device)
        return
    for hyp_len, ref_len, clipped, counts in make_batch(True).increments():
        preds_len += hyp_len
        target_len += ref_len
        for k, c in clipped:
            numerator[k] += c
        for k, c in counts:
            denominator[k] += c
