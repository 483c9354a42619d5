"""Data and oracles shared by the Spark, Ray and torch.distributed tests: every WMT23 system, a
generated set of rows (200,000; a million with TURBOBLEU_SCALE_FULL=1), the configurations of
the matrix and single-process scores."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np
import pytest

import turbobleu
import turbobleu.nltk
from conftest import (
    FULL_MATRIX,
    IMPLEMENTATION,
    SHARED_DATA,
    assert_same_score,
    discover_corpora,
    requires_wmt23,
)

# The matrix of the issue: 13a, zh, char and intl with and without lowercase, and NLTK's recipe.
CONFIGS: Dict[str, Dict[str, Any]] = {
    f"{tok}{'-lc' if lc else ''}": {"tokenize": tok, "lowercase": lc}
    for tok in ("13a", "zh", "char", "intl")
    for lc in (False, True)
}
CONFIGS["nltk-method1"] = {"recipe": "nltk", "smoothing_function": 1}

# The engines only sum rows and apply the recipe once: what the tokenizer does is checked
# elsewhere, so by default they run three configurations (two tokenizers and NLTK's recipe) on
# 200,000 generated rows; TURBOBLEU_SCALE_FULL=1 runs all of CONFIGS and a million rows.
SCALE_FULL = os.environ.get("TURBOBLEU_SCALE_FULL", "") not in ("", "0")
GENERATED_ROWS = 1_000_000 if SCALE_FULL else 200_000
GENERATED_CONFIGS = list(CONFIGS) if SCALE_FULL else ["13a", "intl-lc", "nltk-method1"]

# The pure-Python twins are ~100x slower: the generated rows run with the compiled build only,
# the WMT23 matrix where conftest's FULL_MATRIX asks for it.
compiled_only = pytest.mark.skipif(
    IMPLEMENTATION != "cython", reason="the generated rows: compiled build only"
)
full_matrix_only = pytest.mark.skipif(
    not FULL_MATRIX, reason="the WMT23 matrix: set TURBOBLEU_TEST_FULL=1"
)


# Three rows (hypothesis, references, group) for the small checks of the Spark and Ray tests.
SMALL_ROWS: List[Tuple[str, List[str], str]] = [
    ("the cat sat", ["the cat sat on", "a cat"], "x"),
    ("a dog", ["a dog ran", "a dog"], "y"),
    ("hello there", ["hi there", "x"], "x"),
]


def wmt23_matrix(test: Callable) -> Callable:
    """Runs ``test`` once per configuration of GENERATED_CONFIGS (its ``config_name`` argument):
    with the shared WMT23 data, and under TURBOBLEU_TEST_FULL=1 (see ``full_matrix_only``)."""
    return requires_wmt23(
        full_matrix_only(pytest.mark.parametrize("config_name", GENERATED_CONFIGS)(test))
    )


def wmt23_rows() -> List[Tuple[str, str, str, List[str]]]:
    """(pair, system, hypothesis, references) for every segment of every WMT23 system."""
    rows = []
    for corpus in discover_corpora(SHARED_DATA, "wmt23"):
        streams = corpus.reference_streams(corpus.references)
        per_row = [list(r) for r in zip(*streams)]
        for system in corpus.systems:
            hyps = corpus.hypotheses(system)
            rows.extend((corpus.directory.name, system, h, r) for h, r in zip(hyps, per_row))
    return rows


def generated_rows(n: int = GENERATED_ROWS, seed: int = 21) -> Tuple[List[str], List[str]]:
    """``n`` hypotheses and one reference each: words of a small vocabulary (with punctuation and
    mixed case, for the tokenizers to do something), 60% of reference words copied from the
    hypothesis, lengths 0 to 29."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(300)]
    vocab += ["The", "the", "Über", "über", "中文", "日本", ",", ".", "(x)", "3.5", "a-b", "$5"]
    hyp_ids = rng.integers(0, len(vocab), size=(n, 30))
    ref_ids = np.where(
        rng.random((n, 30)) < 0.6, hyp_ids, rng.integers(0, len(vocab), size=(n, 30))
    )
    hyp_len = rng.integers(0, 30, size=n)
    ref_len = np.clip(hyp_len + rng.integers(-3, 4, size=n), 1, 30)
    word = vocab.__getitem__

    def lines(ids: np.ndarray, lengths: np.ndarray) -> List[str]:
        return [" ".join(map(word, row[:k])) for row, k in zip(ids.tolist(), lengths.tolist())]

    return lines(hyp_ids, hyp_len), lines(ref_ids, ref_len)


def single_process(config: Dict[str, Any], hyps: List[str], per_row: List[List[str]]) -> Any:
    """The oracle: turbobleu's single-process corpus score (tested equal to sacrebleu's and
    NLTK's elsewhere) of the concatenated data."""
    if config.get("recipe") == "nltk":
        smoothing = turbobleu.nltk.SmoothingFunction().method1
        return turbobleu.nltk.corpus_bleu(
            [[r.split() for r in refs] for refs in per_row],
            [h.split() for h in hyps],
            smoothing_function=smoothing,
        )
    streams = [list(s) for s in zip(*per_row)]
    return turbobleu.corpus_bleu(
        hyps, streams, tokenize=config["tokenize"], lowercase=config["lowercase"]
    )


def assert_same(got: Any, want: Any, segments: int, what: str) -> None:
    """Same integer statistics, ``==`` floats and signature, and every segment counted once."""
    assert got.segments == segments, f"{what}: {got.segments} segments, expected {segments}"
    if not hasattr(want, "counts"):  # NLTK's value
        assert got.score == want, f"{what}: {got.score!r} != {want!r}"
        return
    assert_same_score(got, want, what)


@lru_cache(maxsize=None)
def cached_wmt23_rows() -> Tuple[Tuple[str, str, str, Tuple[str, ...]], ...]:
    return tuple((p, s, h, tuple(r)) for p, s, h, r in wmt23_rows())


def wmt23_frame() -> Any:
    """Every WMT23 segment as a pandas DataFrame: pair, system, hyp, refs (a list)."""
    import pandas as pd

    data = cached_wmt23_rows()
    columns = {"pair": 0, "system": 1, "hyp": 2}
    frame = pd.DataFrame({name: [r[i] for r in data] for name, i in columns.items()})
    frame["refs"] = [list(r[3]) for r in data]
    return frame


@lru_cache(maxsize=None)
def wmt23_expected(config_name: str) -> Dict[Tuple[str, str], Tuple[Any, int]]:
    """Per (pair, system): the single-process score and the number of segments."""
    groups: Dict[Tuple[str, str], Tuple[List[str], List[List[str]]]] = {}
    for pair, system, hyp, refs in cached_wmt23_rows():
        hyps, per_row = groups.setdefault((pair, system), ([], []))
        hyps.append(hyp)
        per_row.append(list(refs))
    config = CONFIGS[config_name]
    return {g: (single_process(config, h, r), len(h)) for g, (h, r) in groups.items()}


@lru_cache(maxsize=None)
def cached_generated_rows() -> Tuple[List[str], List[str]]:
    return generated_rows()


@lru_cache(maxsize=None)
def generated_expected(config_name: str) -> Any:
    hyps, refs = cached_generated_rows()
    return single_process(CONFIGS[config_name], hyps, [[r] for r in refs])


def partition_sizes(n: int) -> List[int]:
    """Very uneven partition sizes summing to ``n``, empty ones included."""
    sizes = [0, n * 6 // 10, 1, 0, n * 3 // 10, 17, 0]
    sizes.append(n - sum(sizes))
    return sizes


def generated_frame() -> Any:
    """The generated rows as a pandas DataFrame: hyp, ref, and part (the row's
    partition: ``partition_sizes`` rows each, in order)."""
    import pandas as pd

    hyps, refs = cached_generated_rows()
    part = [p for p, size in enumerate(partition_sizes(len(hyps))) for _ in range(size)]
    return pd.DataFrame({"hyp": hyps, "ref": refs, "part": part})


def check_generated(score_of: Callable[[str], Any], names: Sequence[str] = ()) -> None:
    """``score_of(name)``, a distributed corpus score of the generated rows with the
    configuration ``CONFIGS[name]``, equals the single-process score for each name given
    (default: GENERATED_CONFIGS)."""
    hyps, _ = cached_generated_rows()
    for name in names or GENERATED_CONFIGS:
        assert_same(score_of(name), generated_expected(name), len(hyps), name)


def check_small_corpus(score: Any) -> None:
    """A distributed corpus score of SMALL_ROWS (sacrebleu's defaults) equals sacrebleu's,
    signature included."""
    import sacrebleu

    streams = [list(s) for s in zip(*[refs for _, refs, _ in SMALL_ROWS])]
    want = sacrebleu.corpus_bleu([hyp for hyp, _, _ in SMALL_ROWS], streams)
    assert_same(score, want, len(SMALL_ROWS), "corpus")
    assert str(score.signature) == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


def check_wmt23_grouped(
    corpus_bleu: Callable[..., Any], to_dataset: Callable[[Any], Any], config_name: str
) -> None:
    """``corpus_bleu`` (Spark's or Ray's) of ``to_dataset(wmt23_frame())`` (that engine's data),
    grouped by pair and system with the configuration ``config_name``, equals the single-process
    score of every WMT23 system."""
    dataset = to_dataset(wmt23_frame())
    config = CONFIGS[config_name]
    check_wmt23(corpus_bleu(dataset, "hyp", "refs", by=["pair", "system"], **config), config_name)


def check_wmt23(scores: Dict[Tuple[str, str], Any], config_name: str) -> None:
    expected = wmt23_expected(config_name)
    assert set(scores) == set(expected)
    for group, (want, segments) in expected.items():
        assert_same(scores[group], want, segments, f"{config_name} {group}")
