"""turbobleu.pycocoevalcap.Bleu == pycocoevalcap's Bleu on real MT output: every system of the
fixture excerpt and of WMT23, each segment an image, its references (one or two per pair) its
captions, split on whitespace as pycocoevalcap splits them (Japanese and Chinese lines are then
mostly one long word each: few matches, which the recipe's epsilons decide). ``score``,
every per-segment BLEU-1..4 (``==``) and the verbose printout are compared.

The default run checks every system of the fixture and one system per WMT23 pair (the time goes
to pycocoevalcap itself, ~0.3 s a system); TURBOBLEU_TEST_FULL=1 checks every WMT23 system.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import pytest
from pycocoevalcap_support import captured

from conftest import system_cases

real_bleu = pytest.importorskip(
    "pycocoevalcap.bleu.bleu", reason="pycocoevalcap is not installed (pip install pycocoevalcap)"
)

from turbobleu import pycocoevalcap as tb  # noqa: E402


def as_captions(corpus: Any, system: str) -> Tuple[Dict[int, List[str]], Dict[int, List[str]]]:
    hyps = corpus.hypotheses(system)
    refs = list(zip(*corpus.reference_streams(corpus.references)))
    gts = {i: list(group) for i, group in enumerate(refs)}
    res = {i: [hyp] for i, hyp in enumerate(hyps)}
    return gts, res


@pytest.mark.parametrize("corpus,system", system_cases())
def test_every_system_equals_pycocoevalcap(corpus: Any, system: str) -> None:
    gts, res = as_captions(corpus, system)
    (want, want_scores), want_printed = captured(lambda: real_bleu.Bleu(4).compute_score(gts, res))
    (got, got_scores), got_printed = captured(lambda: tb.Bleu(4).compute_score(gts, res))
    assert got_printed == want_printed
    assert got == want and all(type(x) is float for x in got)
    assert len(got_scores) == len(want_scores) == 4
    for k in range(4):
        bad = [i for i, (g, w) in enumerate(zip(got_scores[k], want_scores[k])) if g != w]
        assert not bad and len(got_scores[k]) == len(want_scores[k]), (
            f"BLEU-{k + 1} differs on {len(bad)} segments, first {bad[:1]}"
        )
