"""MATLAB's ``bleuEvaluationScore`` float recipe, from one statistics row and weights that are
already normalised to sum to one (``turbobleu.matlab`` checks the inputs):

- clipped n-gram precisions and the brevity penalty of the closest reference length (the shorter
  one on a tie: MATLAB leaves ties undocumented);
- an order with weight 0 contributes nothing, even when its precision is 0 (rather than
  ``0 * log(0) = NaN``), and any other zero precision makes the score 0.0;
- the weighted log-precisions are summed with ``math.fsum``.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Sequence


def matlab_score(row: Sequence[int], weights: Sequence[float]) -> float:
    """The score of ``row = [cand_len, ref_len, matches..., totals...]`` (with as many orders as
    ``weights``, and ``cand_len >= len(weights)``)."""
    max_order = len(weights)
    c, r = row[0], row[1]
    matches, totals = row[2 : 2 + max_order], row[2 + max_order : 2 + 2 * max_order]
    terms = []
    for w, m, t in zip(weights, matches, totals):
        if w == 0:
            continue
        if m == 0:
            return 0.0  # log(0) = -Inf, exp(-Inf) = 0
        terms.append(w * math.log(m / t))
    bp = 1.0 if c > r else math.exp(1 - r / c)
    return bp * math.exp(math.fsum(terms))
