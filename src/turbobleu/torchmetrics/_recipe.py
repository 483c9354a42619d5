"""torchmetrics' BLEU score from its four states: its float recipe, with its torch operations in
its order (torch's float32 ``log``/``exp``/``sum`` are not correctly rounded, so only the same
operations give the same bits).

- 0 (a new 0-d tensor) when some order has no match, even with ``smooth``;
- precisions ``numerator / denominator``; with ``smooth``, ``(numerator + 1) / (denominator + 1)``
  except the first order, which stays unsmoothed;
- ``exp(sum(weights * log(precisions)))`` with the weights as a tensor of the default dtype;
- brevity penalty 1 when the predictions are longer than the references, else
  ``exp(1 - target_len / preds_len)``.
"""

from __future__ import annotations

from typing import Any, Sequence

import torch
from torch import Tensor


def bleu_from_states(
    preds_len: Tensor,
    target_len: Tensor,
    numerator: Tensor,
    denominator: Tensor,
    n_gram: int,
    weights: Sequence[Any],
    smooth: bool,
) -> Tensor:
    """The BLEU score (a 0-d tensor on the states' device) of accumulated states."""
    device = numerator.device
    if min(numerator) == 0.0:
        return torch.tensor(0.0, device=device)
    if smooth:
        ones = torch.ones(n_gram, device=device)
        precisions = torch.div(torch.add(numerator, ones), torch.add(denominator, ones))
        precisions[0] = numerator[0] / denominator[0]
    else:
        precisions = numerator / denominator
    weighted_logs = torch.tensor(weights, device=device) * torch.log(precisions)
    geometric_mean = torch.exp(torch.sum(weighted_logs))
    if preds_len > target_len:
        brevity_penalty = torch.tensor(1.0, device=device)
    else:
        brevity_penalty = torch.exp(1 - (target_len / preds_len))
    return brevity_penalty * geometric_mean
