"""A user's file that calls turbobleu's public API; ``mypy --strict`` must accept it as it is.

tests/typing/test_typing.py type-checks it against the installed package (so the wheel's
``py.typed`` and stubs are what is checked) and also runs it. ``assert_type`` fails the type check
when the package hands back ``Any`` or a wrong type where a precise one is promised.
"""

from __future__ import annotations

import sys
from typing import List, Optional, Sequence

import numpy as np
import numpy.typing as npt

import turbobleu
from turbobleu import (
    BLEU,
    BLEUScore,
    BLEUSignature,
    BLEUStats,
    available_tokenizers,
    corpus_bleu,
    get_tokenizer,
    raw_corpus_bleu,
    sentence_bleu,
)

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # mypy ships typing_extensions, and this file is only run where mypy is installed
    from typing_extensions import assert_type


def score_system(hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]]) -> float:
    result = corpus_bleu(hypotheses, references)
    assert_type(result, BLEUScore)
    assert_type(result.score, float)
    assert_type(result.bp, float)
    assert_type(result.sys_len, int)
    assert_type(result.ref_len, int)
    assert_type(result.precisions, List[float])
    assert_type(result.format(), str)
    return result.score


def main() -> None:
    hyps = ["The dog bit the man.", "It was not unexpected."]
    refs: List[List[Optional[str]]] = [
        ["The dog bit the man.", "It was not surprising."],
        ["The dog had bit the man.", None],
    ]
    assert_type(turbobleu.implementation, str)
    assert_type(turbobleu.__version__, str)

    corpus = score_system(hyps, refs)
    raw = raw_corpus_bleu(hyps, refs)
    one = sentence_bleu(hyps[0], ["The dog bit the man."])
    assert_type(raw, BLEUScore)
    assert_type(one, BLEUScore)

    metric = BLEU(tokenize="13a", lowercase=True, effective_order=True)
    stats = metric.corpus_stats(hyps, refs)
    assert_type(stats, BLEUStats)
    assert_type(len(stats), int)
    assert_type(stats + stats, BLEUStats)
    assert_type(stats.total(), List[int])
    assert_type(metric.score_stats(stats), BLEUScore)
    assert_type(metric.corpus_score(hyps, refs), BLEUScore)
    assert_type(metric.sentence_score(hyps[1], ["It was not surprising."]), BLEUScore)
    signature = metric.get_signature()
    assert_type(signature, BLEUSignature)
    assert_type(signature.format(short=True), str)

    per_sentence: npt.NDArray[np.float64] = metric.sentence_scores(hyps, refs)
    assert_type(available_tokenizers(), List[str])
    assert_type(get_tokenizer("13a").split("Hello, world!"), List[str])

    # The values are not the point of this file (the suite pins them); it must run, though.
    assert corpus == corpus_bleu(hyps, refs).score
    assert raw.score >= 0.0 and 99.99 < one.score < 100.01  # exp(log(100)) is not exactly 100
    assert per_sentence.shape == (2,)


if __name__ == "__main__":
    main()
