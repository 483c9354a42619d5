"""turbobleu.significance against sacrebleu.significance: same seed, same numbers (floats ==).

* Real text: the fixture excerpt always; the 4 systems of WMT23 de-en at the issue's sizes
  (paired bootstrap 1000, approximate randomization 10000) when ../shared/data is present.
* Synthetic statistics (Hypothesis): sacrebleu's own paired-test functions run on the same rows
  through a sacrebleu BLEU whose statistics extraction returns them, so any row matrix can be
  compared, including sums beyond 2**24 where float32 bootstrap sums round.
* The vectorised recipe against sacrebleu's ``_compute_score_from_stats`` on float32 and int64
  rows, and the interpreter's ``sum()`` (left to right, or Neumaier from Python 3.12).
"""

from __future__ import annotations

import json
import math
from typing import Dict, List, Optional, Sequence

import numpy as np
import pytest
from fixtures.make_numpy1_recipe_cases import SMOOTHINGS  # those of the recorded NumPy 1 cases
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest, _bootstrap_resample, estimate_ci

import turbobleu
from conftest import FIXTURE_DATA, SHARED_DATA, read_lines, requires_wmt23
from turbobleu import significance
from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes import sacrebleu_batch as _batch_recipe
from turbobleu._engine.resample import chosen as _resample_impl
from turbobleu.significance import (
    Recipe,
    Result,
    bootstrap_scores,
    confidence_interval,
    paired_approximate_randomization,
    paired_bootstrap,
    resolve_seed,
)


# -- sacrebleu on given statistics ---------------------------------------------------------------
class StatsBLEU(SacreBLEU):
    """A sacrebleu BLEU whose 'hypotheses' are a key into precomputed statistics rows, so that
    sacrebleu's significance code runs unchanged on any statistics."""

    def __init__(self, table: Dict[str, List[List[int]]], **options) -> None:
        super().__init__(tokenize="none", **options)
        self.table = table
        self.num_refs = 1

    def _extract_corpus_statistics(self, hypotheses, references):
        return [list(r) for r in self.table[hypotheses[0]]]


def sacrebleu_paired(
    rows: Sequence[np.ndarray], test: str, n: int, options: dict, n_ar_confidence: int = -1
) -> List[Result]:
    table = {f"s{i}": r.tolist() for i, r in enumerate(rows)}
    metric = StatsBLEU(table, **options)
    systems = [(name, [name] * len(rows[0])) for name in table]
    _, scores = PairedTest(systems, {"BLEU": metric}, None, test, n, n_ar_confidence)()
    return [Result(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]]


def sacrebleu_paired_on_text(
    systems: List[List[str]], refs: List[List[str]], test: str, n: int, options: dict
) -> List[Result]:
    metric = SacreBLEU(references=refs, **options)
    named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
    _, scores = PairedTest(named, {"BLEU": metric}, None, test, n)()
    return [Result(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]]


def assert_same_results(ours: List[Result], theirs: List[Result]) -> None:
    assert len(ours) == len(theirs)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.as_dict() == b.as_dict(), f"system {k}: {a} != {b}"


def options_of(method: str, value: Optional[float], eff: bool = False) -> dict:
    return {"smooth_method": method, "smooth_value": value, "effective_order": eff}


# -- real text -------------------------------------------------------------------------------------
def _corpus(directory, lang: str, systems: Sequence[str], ref: str = "refA"):
    hyps = [read_lines(directory / f"hyp.{s}.{lang}") for s in systems]
    return hyps, [read_lines(directory / f"ref.{ref}.{lang}")]


FIXTURE_HE = FIXTURE_DATA / "he-en"
FIXTURE_SYSTEMS = ("GPT4-5shot", "NLLB_Greedy")


@pytest.mark.parametrize("method,value", SMOOTHINGS)
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_fixture_pairs_match_sacrebleu(test: str, method: str, value: Optional[float]) -> None:
    hyps, refs = _corpus(FIXTURE_HE, "en", FIXTURE_SYSTEMS)
    options = options_of(method, value)
    metric = turbobleu.BLEU(references=refs, **options)
    stats = [metric.corpus_stats(h) for h in hyps]
    n = 300 if test == "bs" else 700
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    ours = run(stats[0], stats[1:], metric, n)
    assert_same_results(ours, sacrebleu_paired_on_text(hyps, refs, test, n, options))


def test_fixture_effective_order_lowercase_two_refs() -> None:
    hyps, _ = _corpus(FIXTURE_HE, "en", FIXTURE_SYSTEMS)
    refs = [read_lines(FIXTURE_HE / f"ref.{r}.en") for r in ("refA", "refB")]
    options = {"smooth_method": "floor", "effective_order": True, "lowercase": True}
    metric = turbobleu.BLEU(references=refs, **options)
    stats = [metric.corpus_stats(h) for h in hyps]
    for test, run in (("bs", paired_bootstrap), ("ar", paired_approximate_randomization)):
        ours = run(stats[0], stats[1:], metric, 257)
        assert_same_results(ours, sacrebleu_paired_on_text(hyps, refs, test, 257, options))


@requires_wmt23
def test_wmt23_four_systems_paired_bootstrap_1000_and_ar_10000() -> None:
    """The issue's check: 4 systems of a pair, 1000 resamples and 10000 trials, default seed."""
    directory = SHARED_DATA / "de-en"
    systems = sorted(p.name.split(".")[1] for p in directory.glob("hyp.*.en"))
    assert len(systems) == 4
    hyps, refs = _corpus(directory, "en", systems)
    metric = turbobleu.BLEU(references=refs)
    stats = [metric.corpus_stats(h) for h in hyps]
    assert_same_results(
        paired_bootstrap(stats[0], stats[1:], metric, 1000),
        sacrebleu_paired_on_text(hyps, refs, "bs", 1000, {}),
    )
    assert_same_results(
        paired_approximate_randomization(stats[0], stats[1:], metric, 10000),
        sacrebleu_paired_on_text(hyps, refs, "ar", 10000, {}),
    )


@pytest.mark.parametrize("source", ["fixture", "wmt23"])
def test_confidence_interval_matches_corpus_score(source: str) -> None:
    """``confidence_interval`` == sacrebleu's corpus_score(n_bootstrap=1000) mean and CI."""
    if source == "fixture":
        directory, lang, system = FIXTURE_HE, "en", "NLLB_Greedy"
    else:
        if not SHARED_DATA.is_dir():
            pytest.skip("shared WMT23 data not found")
        directory, lang, system = SHARED_DATA / "en-de", "de", "AIRC"
    hyps, refs = _corpus(directory, lang, [system])
    theirs = SacreBLEU().corpus_score(hyps[0], refs, n_bootstrap=1000)
    metric = turbobleu.BLEU()
    stats = metric.corpus_stats(hyps[0], refs)
    assert confidence_interval(stats, metric, 1000) == (theirs._mean, theirs._ci)
    _, samples = _bootstrap_resample(
        SacreBLEU(references=refs)._extract_corpus_statistics(hyps[0], None), SacreBLEU(), 1000
    )
    assert bootstrap_scores(stats, metric, 1000).tolist() == [s.score for s in samples]


# -- synthetic statistics --------------------------------------------------------------------------
@st.composite
def stats_matrices(draw, max_systems: int = 3, large: bool = False):
    """Statistics rows of 2..3 systems over the same segments: lengths, matches <= totals."""
    order = draw(st.integers(1, 5))
    segments = draw(st.integers(1, 12))
    n_systems = draw(st.integers(2, max_systems))
    top = 3_000_000 if large else 40
    systems = []
    for _ in range(n_systems):
        rows = []
        for _ in range(segments):
            hyp_len = draw(st.integers(0, top))
            ref_len = draw(st.integers(0, top))
            totals = [max(0, hyp_len - n) for n in range(order)]
            matches = [draw(st.integers(0, t)) if t and draw(st.booleans()) else 0 for t in totals]
            rows.append([hyp_len, ref_len] + matches + totals)
        systems.append(np.array(rows, dtype=np.int64))
    return order, systems


smoothing_choices = st.sampled_from(SMOOTHINGS)


@settings(max_examples=40)
@given(
    data=stats_matrices(),
    smoothing=smoothing_choices,
    eff=st.booleans(),
    test=st.sampled_from(["bs", "ar"]),
    n=st.integers(1, 60),
)
def test_synthetic_paired_tests_match_sacrebleu(data, smoothing, eff, test, n) -> None:
    order, rows = data
    options = dict(options_of(*smoothing, eff), max_ngram_order=order)
    recipe = Recipe(order, smoothing[0], smoothing[1], eff)
    if test == "bs":
        ours = paired_bootstrap(rows[0], rows[1:], recipe, n)
    else:
        ours = paired_approximate_randomization(rows[0], rows[1:], recipe, n, n_ar_confidence=7)
    assert_same_results(
        ours, sacrebleu_paired(rows, test, n, options, n_ar_confidence=7 if test == "ar" else -1)
    )


@settings(max_examples=25)
@given(
    data=stats_matrices(max_systems=2, large=True),
    smoothing=smoothing_choices,
    n=st.integers(1, 30),
)
def test_float32_rounding_regime(data, smoothing, n) -> None:
    """Sums past 2**24 round in sacrebleu's float32 bootstrap; turbobleu rounds the same way."""
    order, rows = data
    rows[0][:, 0] += 20_000_000  # at least one column well past 2**24
    options = dict(options_of(*smoothing), max_ngram_order=order)
    recipe = Recipe(order, smoothing[0], smoothing[1], False)
    metric = StatsBLEU({}, **options)
    _, theirs = _bootstrap_resample(rows[0].tolist(), metric, n)
    assert bootstrap_scores(rows[0], recipe, n).tolist() == [s.score for s in theirs]
    assert_same_results(
        paired_bootstrap(rows[0], rows[1:], recipe, n), sacrebleu_paired(rows, "bs", n, options)
    )


def test_chunked_draws_equal_one_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resamples drawn in many chunks (small memory) are NumPy's one big draw."""
    rng = np.random.default_rng(3)
    rows = [
        np.column_stack(
            [
                rng.integers(1, 30, (37, 2)),
                rng.integers(0, 5, (37, 4)),
                rng.integers(5, 30, (37, 4)),
            ]
        )
        for _ in range(3)
    ]
    recipe = Recipe()
    whole_bs = paired_bootstrap(rows[0], rows[1:], recipe, 101)
    whole_ar = paired_approximate_randomization(rows[0], rows[1:], recipe, 333, 0)
    monkeypatch.setattr(significance, "_CHUNK_ELEMENTS", 37 * 5)
    monkeypatch.setattr(significance, "_AR_CHUNK_ELEMENTS", 37 * 40)
    assert_same_results(paired_bootstrap(rows[0], rows[1:], recipe, 101), whole_bs)
    assert_same_results(
        paired_approximate_randomization(rows[0], rows[1:], recipe, 333, 0), whole_ar
    )
    assert_same_results(whole_bs, sacrebleu_paired(rows, "bs", 101, {}))
    assert_same_results(whole_ar, sacrebleu_paired(rows, "ar", 333, {}, n_ar_confidence=0))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_trials=st.integers(1, 70),
    n_segments=st.integers(1, 140),
    drawn_before=st.integers(0, 3),
)
def test_random_bools_are_numpys_bool_draw(
    seed: int, n_trials: int, n_segments: int, drawn_before: int
) -> None:
    """AR's selectors, from uint32 words, are ``rng.integers(2, ..., dtype=bool)``, and leave
    the generator where that draw leaves it (from any state: a half-used 64-bit output too)."""
    ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    for rng in (ours, theirs):
        rng.integers(0, 2**32, size=drawn_before, dtype=np.uint32)
    got = significance._random_bools(ours, n_trials, n_segments)
    want = theirs.integers(2, size=(n_trials, n_segments), dtype=bool)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)
    assert ours.bit_generator.state == theirs.bit_generator.state


# (trials, segments, columns) of AR's product, and the rows per block
SHAPES = st.tuples(st.integers(1, 60), st.integers(1, 50), st.integers(1, 7))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=SHAPES, block=st.integers(1, 70))
def test_selected_sums_in_blocks_are_the_integer_product(seed: int, shape, block: int) -> None:
    """AR's ``selectors @ deltas`` computed block by block (any block size, the last block short
    or not) is the exact integer product."""
    n_trials, n_segments, columns = shape
    rng = np.random.default_rng(seed)
    selectors = rng.integers(2, size=(n_trials, n_segments), dtype=bool)
    deltas = rng.integers(-1000, 1000, size=(n_segments, columns))
    buffer = np.empty((block, n_segments), dtype=np.float32)
    got = significance._selected_sums(selectors, deltas.astype(np.float32), buffer)
    assert got.dtype == np.int64
    assert np.array_equal(got, selectors.astype(np.int64) @ deltas)


def test_block_rows_bounds() -> None:
    """Blocks hold at least one row and at most the rows there are, whatever the shape."""
    assert significance._block_rows(10_000, 549, 6) == 2**15 * 3 // 549
    assert significance._block_rows(10_000, 10**8, 6) == 1
    assert significance._block_rows(5, 2, 1000) == 5
    big = significance._block_rows(10_000, 3004, 1000)
    assert big == significance._CHUNK_ELEMENTS // 3004


@pytest.mark.parametrize("n", [1, 2, 3, 37, 549, 2074, 65_537])
@pytest.mark.parametrize("seed", [0, 5, 12345])
def test_resample_counts_are_numpys_choice(n: int, seed: int) -> None:
    """The compiled counts are the bincounts of sacrebleu's ``choice`` draw, in two blocks, and
    leave the generator where ``choice`` leaves it."""
    ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    blocks = [np.full((rows, n), -1.0, dtype=np.float32) for rows in (3, 4)]
    for block in blocks:
        _resample_impl.resample().resample_counts(ours, n, block)
    drawn = theirs.choice(n, size=(7, n), replace=True)
    want = np.stack([np.bincount(row, minlength=n) for row in drawn])
    assert np.array_equal(np.concatenate(blocks), want)
    assert ours.bit_generator.state == theirs.bit_generator.state


@pytest.mark.parametrize("n", [1, 2, 1000, 2**31 + 1, 3 * 2**30, 2**32 - 1])
def test_bounded_draw_is_numpys_including_rejections(n: int) -> None:
    """For n just above 2**31 about half of NumPy's Lemire draws are rejected and redrawn."""
    ours, theirs = np.random.default_rng(9), np.random.default_rng(9)
    assert np.array_equal(
        _resample_impl.resample().bounded_integers(ours, n, 20_000),
        theirs.integers(0, n, size=20_000),
    )
    assert ours.bit_generator.state == theirs.bit_generator.state


def test_resample_counts_rejects_bad_shapes() -> None:
    with pytest.raises(ValueError, match="n_segments columns"):
        _resample_impl.resample().resample_counts(
            np.random.default_rng(), 5, np.zeros((2, 4), np.float32)
        )


# -- seeds -----------------------------------------------------------------------------------------
def _small_rows() -> List[np.ndarray]:
    rng = np.random.default_rng(11)
    return [
        np.column_stack(
            [
                rng.integers(5, 30, (25, 2)),
                rng.integers(0, 5, (25, 4)),
                rng.integers(5, 30, (25, 4)),
            ]
        )
        for _ in range(3)
    ]


@pytest.mark.parametrize("seed", ["12345", "7", "012"])
def test_env_seed_like_sacrebleu(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    rows = _small_rows()
    assert_same_results(
        paired_bootstrap(rows[0], rows[1:], Recipe(), 50), sacrebleu_paired(rows, "bs", 50, {})
    )
    assert_same_results(
        paired_approximate_randomization(rows[0], rows[1:], Recipe(), 50),
        sacrebleu_paired(rows, "ar", 50, {}),
    )
    # an explicit seed is the same as the variable
    monkeypatch.delenv("SACREBLEU_SEED")
    assert_same_results(
        paired_bootstrap(rows[0], rows[1:], Recipe(), 50, seed=seed),
        sacrebleu_paired_env(rows, seed, monkeypatch),
    )


def sacrebleu_paired_env(rows, seed: str, monkeypatch: pytest.MonkeyPatch) -> List[Result]:
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    try:
        return sacrebleu_paired(rows, "bs", 50, {})
    finally:
        monkeypatch.delenv("SACREBLEU_SEED")


def test_seed_zero_and_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 0: the baseline's interval uses seed 0, the comparisons are unseeded (sacrebleu's
    ``seed or None``); 'none': everything unseeded."""
    rows = _small_rows()
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    ours = paired_bootstrap(rows[0], rows[1:], Recipe(), 200)
    theirs = sacrebleu_paired(rows, "bs", 200, {})
    assert (ours[0].mean, ours[0].ci) == (theirs[0].mean, theirs[0].ci)
    for seed in ("0", "None"):
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        for run in (paired_bootstrap, paired_approximate_randomization):
            results = run(rows[0], rows[1:], Recipe(), 200)
            assert [r.score for r in results] == [r.score for r in theirs]
            assert all(0 < r.p_value <= 1 for r in results[1:])


def test_resolve_seed() -> None:
    assert resolve_seed("012") == significance.Seed(12, "012")
    assert resolve_seed("012").paired_text == "12"
    assert resolve_seed("NONE") == significance.Seed(None, "none")
    assert resolve_seed("NONE").paired_text == "none"
    assert resolve_seed(None).value is None
    assert resolve_seed(5) == significance.Seed(5, "5")
    assert resolve_seed(0).per_system is None and resolve_seed(0).value == 0
    with pytest.raises(ValueError, match="SACREBLEU_SEED"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("SACREBLEU_SEED", "abc")
            resolve_seed()
    with pytest.raises(ValueError, match="non-negative"):
        resolve_seed(-3)
    with pytest.raises(TypeError):
        resolve_seed(True)


# -- the vectorised recipe -------------------------------------------------------------------------
@st.composite
def score_rows(draw, large: bool = False):
    order = draw(st.integers(1, 6))
    count = draw(st.integers(1, 30))
    top = 2**31 if large else 60
    rows = []
    for _ in range(count):
        sys_len = draw(st.integers(0, top))
        ref_len = draw(st.integers(0, top))
        totals = [draw(st.integers(0, top)) for _ in range(order)]
        matches = [draw(st.integers(0, t)) if draw(st.booleans()) else 0 for t in totals]
        rows.append([sys_len, ref_len] + matches + totals)
    return order, rows


@settings(max_examples=150)
@given(
    data=score_rows(), large=score_rows(large=True), smoothing=smoothing_choices, eff=st.booleans()
)
def test_batch_recipe_is_sacrebleus_per_row_recipe(data, large, smoothing, eff) -> None:
    for order, rows in (data, large):
        sb = SacreBLEU(
            tokenize="none",
            max_ngram_order=order,
            effective_order=eff,
            smooth_method=smoothing[0],
            smooth_value=smoothing[1],
        )
        as_f32 = np.array(rows, dtype=np.float32)
        as_i64 = np.array(rows, dtype=np.int64)
        want_f32 = [sb._compute_score_from_stats(r.copy()).score for r in as_f32]
        want_i64 = [sb._aggregate_and_compute(r[None, :].copy()).score for r in as_i64]
        args = (order, smoothing[0], smoothing[1], eff)
        arithmetic = _batch_recipe.bootstrap_arithmetic()  # follows the installed NumPy
        assert _batch_recipe.bleu_scores(as_f32, *args, arithmetic).tolist() == want_f32
        assert _batch_recipe.bleu_scores(as_i64, *args, "int64").tolist() == want_i64
        assert Recipe(*args).scores(as_i64, "int64").tolist() == want_i64  # kernel or NumPy


def test_numpy1_arithmetic_matches_recorded_sacrebleu() -> None:
    """sacrebleu's float32 scores recorded under NumPy 1.x (tests/fixtures/
    make_numpy1_recipe_cases.py): the "float32-numpy1" arithmetic reproduces every one, and the
    NumPy 2 arithmetic does not (so the cases tell the two apart)."""
    data = json.loads((FIXTURE_DATA.parent / "numpy1-recipe-cases.json").read_text("utf-8"))
    neumaier = tuple(int(x) for x in data["python"].split(".")[:2]) >= (3, 12)
    differs = 0
    for case in data["cases"]:
        rows = np.array(case["rows"], dtype=np.float32)
        args = (case["order"], case["method"], case["value"], case["eff"])
        got = _batch_recipe.bleu_scores(rows, *args, "float32-numpy1", neumaier)
        assert got.tolist() == case["scores"], case
        differs += (
            _batch_recipe.bleu_scores(rows, *args, "float32", neumaier).tolist() != case["scores"]
        )
    assert len(data["cases"]) >= 100 and differs >= len(data["cases"]) // 2


def _cpython312_sum(values: Sequence[float]) -> float:
    """CPython 3.12's sum() of floats (start 0, then Neumaier compensation)."""
    total, comp = 0.0 + values[0], 0.0
    for x in values[1:]:
        t = total + x
        if abs(total) >= abs(x):
            comp += (total - t) + x
        else:
            comp += (x - t) + total
        total = t
    if comp and math.isfinite(comp):
        total += comp
    return total


@settings(max_examples=200)
@given(
    st.lists(
        st.lists(
            st.floats(-50, 50, allow_nan=False)
            | st.sampled_from([0.0, 1e-300, 4.605170185988092, -9999999999.0]),
            min_size=4,
            max_size=4,
        ),
        min_size=1,
        max_size=20,
    )
)
def test_python_sum_both_ways(terms) -> None:
    array = np.array(terms, dtype=np.float64)
    assert _batch_recipe.python_sum_rows(array, neumaier=True).tolist() == [
        _cpython312_sum(t) for t in terms
    ]
    left_to_right = []
    for t in terms:
        total = t[0]
        for x in t[1:]:
            total += x
        left_to_right.append(total)
    assert _batch_recipe.python_sum_rows(array, neumaier=False).tolist() == left_to_right
    # the running interpreter's own sum() is one of the two
    assert _batch_recipe.python_sum_rows(array).tolist() == [sum(t) for t in terms]


def test_estimates_match_sacrebleu_helpers() -> None:
    scores = np.random.default_rng(5).normal(30, 2, 999)
    assert significance.numpy_mean_ci(scores) == tuple(float(x) for x in estimate_ci(scores))
    assert Result(1.0, 0.5, 2.0, 0.1).as_dict() == {
        "score": 1.0,
        "p_value": 0.5,
        "mean": 2.0,
        "ci": 0.1,
    }


# -- argument checks -------------------------------------------------------------------------------
def test_bad_arguments() -> None:
    rows = _small_rows()
    recipe = Recipe()
    with pytest.raises(ValueError, match="segments"):
        paired_bootstrap(rows[0], [rows[1][:-1]], recipe)
    with pytest.raises(ValueError, match="systems is empty"):
        paired_bootstrap(rows[0], [], recipe)
    with pytest.raises(TypeError, match="list of statistics"):
        paired_bootstrap(rows[0], rows[1], recipe)
    with pytest.raises(ValueError, match="shape"):
        paired_bootstrap(rows[0][:, :8], [rows[1][:, :8]], recipe)
    with pytest.raises(ValueError, match="n_samples"):
        paired_approximate_randomization(rows[0], rows[1:], recipe, 0)
    with pytest.raises(ValueError, match="integer statistics"):
        bootstrap_scores(rows[0] + 0.5, recipe)
    with pytest.raises(ValueError, match="no segments"):
        bootstrap_scores(rows[0][:0], recipe)
    with pytest.raises(TypeError, match="a turbobleu metric"):
        bootstrap_scores(rows[0], "exp")
    with pytest.raises(ValueError, match="max order"):
        bootstrap_scores(turbobleu.BLEUStats(rows[0][:, :6], 2), recipe)
    with pytest.raises(ValueError, match="arithmetic"):
        _batch_recipe.bleu_scores(rows[0], 4, "exp", None, False, "float16")


def test_progress_callback_counts_every_resample() -> None:
    rows = _small_rows()
    seen: List[int] = []

    class Counter:
        total = 0

        def expect(self, n: int) -> None:
            self.total += n

        def __call__(self, n: int) -> None:
            seen.append(n)

    counter = Counter()
    paired_bootstrap(rows[0], rows[1:], Recipe(), 120, seed=None, progress=counter)
    assert counter.total == sum(seen) == 120 * 3  # unseeded: baseline CI + one draw per system
    seen.clear()
    counter.total = 0
    paired_approximate_randomization(rows[0], rows[1:], Recipe(), 90, progress=counter)
    assert counter.total == sum(seen) == 90


@pytest.mark.parametrize(
    "test,n,conf", [("bs", 0, -1), ("bs", 150, -1), ("ar", 400, 0), ("ar", 300, 50)]
)
def test_paired_test_class_is_a_drop_in(test: str, n: int, conf: int) -> None:
    """turbobleu's PairedTest with turbobleu.BLEU == sacrebleu's with sacrebleu's BLEU:
    signatures, names and every Result field."""
    hyps, refs = _corpus(FIXTURE_HE, "en", FIXTURE_SYSTEMS)
    named = [(f"sys{i}", h) for i, h in enumerate(hyps)]
    ours_sigs, ours = significance.PairedTest(
        named, {"BLEU": turbobleu.BLEU(references=refs)}, None, test, n, conf
    )()
    theirs_sigs, theirs = PairedTest(
        named, {"BLEU": SacreBLEU(references=refs)}, None, test, n, conf
    )()
    assert ours["System"] == theirs["System"]
    assert_same_results(
        ours["BLEU"], [Result(r.score, r.p_value, r.mean, r.ci) for r in theirs["BLEU"]]
    )
    assert ours_sigs["BLEU"].format() == theirs_sigs["BLEU"].format()
    assert ours_sigs["BLEU"].format(short=True) == theirs_sigs["BLEU"].format(short=True)


def test_paired_test_class_rejects_what_is_not_a_metric() -> None:
    hyps, refs = _corpus(FIXTURE_HE, "en", FIXTURE_SYSTEMS)
    named = [(f"sys{i}", h) for i, h in enumerate(hyps)]
    with pytest.raises(TypeError, match=r"metrics\['chrF'\] must be a turbobleu metric"):
        significance.PairedTest(named, {"chrF": object()}, refs)
    with pytest.raises(ValueError, match="test_type"):
        significance.PairedTest(named, {"BLEU": turbobleu.BLEU()}, refs, "t-test")


@pytest.mark.parametrize("name", ["log", "exp"])
@settings(max_examples=200)
@given(values=st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=20))
def test_libm_map_is_math_or_declines(name: str, values: List[float]) -> None:
    """libm_map's log/exp over an array equal math's, value for value, or decline (False)
    where math raises or has a case of its own (zero, negatives, non-finite, overflow)."""
    x = np.array(values, dtype=np.float64)
    out = np.empty_like(x)
    fn = getattr(math, name)
    try:
        want = [fn(v).hex() for v in values]
    except (ValueError, OverflowError) as exc:
        if _choice.implementation == "cython":
            assert not _resample_impl.resample().libm_map(name, x, out)
        else:
            with pytest.raises(type(exc)):
                _resample_impl.resample().libm_map(name, x, out)
        return
    if _resample_impl.resample().libm_map(name, x, out):
        assert [float(v).hex() for v in out] == want
    else:  # declined: a non-finite value, which the caller maps through math
        assert _choice.implementation == "cython" and not all(map(math.isfinite, values))


def test_libm_map_on_the_values_scoring_sees() -> None:
    precisions = np.random.default_rng(1).uniform(1e-3, 100.0, 10_000)
    out = np.empty_like(precisions)
    assert _resample_impl.resample().libm_map("log", precisions, out)
    assert out.tolist() == [math.log(p) for p in precisions.tolist()]
    with pytest.raises(ValueError, match="'log' or 'exp'"):
        _resample_impl.resample().libm_map("sqrt", precisions, out)


# -- chrF's statistics rows ----------------------------------------------------------------------
def exact(*values: object) -> tuple:
    """Values as Python floats (None kept): a float32 becomes its exact float64 value."""
    return tuple(None if v is None else float(v) for v in values)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"eps_smoothing": True, "beta": 1}])
def test_chrf_rows_give_sacrebleus_paired_tests_and_interval(
    options: Dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """chrF's resample scores are float32 in sacrebleu (its recipe on float32 sums): the means,
    intervals and p-values must follow, not only the rounded text."""
    from sacrebleu.metrics import CHRF as SacreCHRF

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    he = FIXTURE_DATA / "he-en"
    refs = [read_lines(he / "ref.refA.en"), read_lines(he / "ref.refB.en")]
    names = ["hyp.GPT4-5shot.en", "hyp.NLLB_Greedy.en"]
    systems = [read_lines(he / n) for n in names]
    ours = turbobleu.CHRF(**options)
    stats = [ours.corpus_stats(s, refs) for s in systems]
    theirs = SacreCHRF(**options, references=refs)
    for kind, n in (("bs", 300), ("ar", 500)):
        if kind == "bs":
            got = paired_bootstrap(stats[0], stats[1:], ours, n)
        else:
            got = paired_approximate_randomization(stats[0], stats[1:], ours, n)
        _, scores = PairedTest(list(zip(names, systems)), {"c": theirs}, None, kind, n)()
        expected = scores[next(k for k in scores if k != "System")]
        for g, e in zip(got, expected):
            # as float64 both: NumPy compares a float32 with a Python float in float32
            assert exact(g.score, g.p_value, g.mean, g.ci) == exact(
                e.score, e.p_value, e.mean, e.ci
            )
    mean, ci = confidence_interval(stats[0], ours, 200)
    score = SacreCHRF(**options).corpus_score(systems[0], refs, n_bootstrap=200)
    assert exact(mean, ci) == exact(score._mean, score._ci)
    assert bootstrap_scores(stats[0], ours, 200).dtype == np.float32
