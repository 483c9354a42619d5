"""The command line's NumPy-free paired bootstrap (``_engine.resample.plain``) and its parts,
each against what it reproduces: NumPy's SeedSequence, PCG64 and bounded draws (``pcg64``),
``choice``-based resample sums (``_draws`` and its twin), sacrebleu's float32 scores of the
resamples, NumPy's pairwise mean, and ``significance.paired_bootstrap`` as a whole."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from array import array
from operator import attrgetter
from pathlib import Path
from typing import List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import built_implementations, twin_and_compiled
from turbobleu import significance
from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes import _sacrebleu_scores_py
from turbobleu._engine.recipes.sacrebleu import NEUMAIER_SUM, SacreBLEUOptions
from turbobleu._engine.recipes.sacrebleu_batch import bleu_scores
from turbobleu._engine.resample import _draws_py, plain
from turbobleu._engine.resample.pcg64 import PCG64, seed_sequence_state, seeded_pcg64
from turbobleu._engine.resample.settings import Result, Seed, resolve_seed

compiled = pytest.mark.skipif(_choice.implementation != "cython", reason="compiled modules only")
# sacrebleu's resample arithmetic is float32 under NumPy 2 (the plain path's precondition).
numpy2 = pytest.mark.skipif(int(np.__version__.split(".")[0]) < 2, reason="NumPy 1 arithmetic")
SEEDS = st.integers(min_value=0, max_value=2**130)


RESAMPLE_SCORES = attrgetter("sacrebleu_sentence_scores")


# -- the generator ---------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_seed_sequence_state_is_numpys(seed: int) -> None:
    expected = np.random.SeedSequence(seed).generate_state(4, np.uint64).tolist()
    assert seed_sequence_state(seed) == expected


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_pcg64_state_and_outputs_are_numpys(seed: int) -> None:
    numpy_state = np.random.PCG64(seed).state["state"]
    assert seeded_pcg64(seed) == (numpy_state["state"], numpy_state["inc"])
    ours = PCG64.seeded(seed)
    assert [ours.next64() for _ in range(20)] == np.random.PCG64(seed).random_raw(20).tolist()


@settings(max_examples=150, deadline=None)
@given(
    SEEDS,
    st.one_of(
        st.integers(1, 3000),
        st.integers(2**31, 2**32 - 1),  # rejections are frequent near 2**32
        st.sampled_from([1, 2, 3, 2**31 + 1, 2**32 - 1]),
    ),
)
def test_bounded_draws_are_numpys_integers(seed: int, n: int) -> None:
    ours = PCG64.seeded(seed)
    drawn = [ours.below(n) for _ in range(200)]
    rng = np.random.default_rng(seed)
    assert drawn == rng.integers(0, n, size=200, dtype=np.int64).tolist()
    # the generator is left where NumPy's is (n == 1 draws nothing)
    assert ours.next64() == rng.bit_generator.random_raw()


def test_seed_sequence_rejects_negative_seeds() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        seed_sequence_state(-1)


# -- resample sums ---------------------------------------------------------------------------
@pytest.mark.parametrize("module", twin_and_compiled(_draws_py))
@settings(max_examples=40, deadline=None)
@given(
    seed=SEEDS,
    n=st.integers(1, 60),
    width=st.integers(1, 12),
    n_systems=st.integers(1, 4),
    n_samples=st.integers(1, 25),
    data=st.data(),
)
def test_resample_sums_are_sums_over_numpys_choice(
    module, seed: int, n: int, width: int, n_systems: int, n_samples: int, data
) -> None:
    rows = data.draw(
        st.lists(
            st.integers(-((2**31 - 1) // n), (2**31 - 1) // n),
            min_size=n * width * n_systems,
            max_size=n * width * n_systems,
        )
    )
    systems = np.array(rows, dtype=np.int64).reshape(n_systems, n, width)
    rng = np.random.default_rng(seed)
    indices = rng.choice(n, size=(n_samples, n), replace=True)
    expected = np.hstack([s[indices].sum(axis=1) for s in systems])
    out = np.full((n_samples, n_systems * width), 7, dtype=np.int64)
    module.resample_sums(*seeded_pcg64(seed), list(systems), n_samples, out)
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize("module", twin_and_compiled(_draws_py))
def test_resample_sums_reject_bad_shapes(module) -> None:
    state = seeded_pcg64(1)
    a = np.zeros((3, 4), dtype=np.int64)
    with pytest.raises(ValueError, match="empty"):
        module.resample_sums(*state, [], 2, np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="same"):
        module.resample_sums(
            *state, [a, np.zeros((2, 4), dtype=np.int64)], 2, np.zeros((2, 8), dtype=np.int64)
        )
    with pytest.raises(ValueError, match="out must"):
        module.resample_sums(*state, [a], 2, np.zeros((2, 5), dtype=np.int64))
    big = [np.full((3, 4), 2**30, dtype=np.int64)]  # 3 * 2**30 >= 2**31: int32 would overflow
    out = np.full((2, 4), 7, dtype=np.int64)
    assert module.resample_sums(*state, big, 2, out) is False
    assert out.tolist() == [[7] * 4] * 2  # nothing drawn
    assert module.resample_sums(*state, [a + 5], 2, out, limit=16) is True  # 3 * 5 < 16
    assert module.resample_sums(*state, [a + 6], 2, out, limit=16) is False  # 3 * 6 >= 16
    with pytest.raises(ValueError, match="limit"):
        module.resample_sums(*state, [a], 2, out, limit=2**31 + 1)
    with pytest.raises(ValueError, match="segments"):
        module.resample_sums(
            *state, [np.zeros((0, 4), dtype=np.int64)], 2, np.zeros((2, 4), dtype=np.int64)
        )


# -- sacrebleu's float32 scores of resamples ---------------------------------------------------
def _resample_rows(rng: np.random.Generator, count: int, order: int) -> np.ndarray:
    """Aggregated rows shaped like resample sums: matches <= totals, zeros and empty output."""
    totals = rng.integers(0, 5000, size=(count, order))
    matches = np.minimum(rng.integers(0, 5000, size=(count, order)), totals)
    matches[rng.random((count, order)) < 0.15] = 0
    totals[rng.random((count, order)) < 0.05] = 0
    lengths = rng.integers(0, 60000, size=(count, 2))
    lengths[rng.random((count, 2)) < 0.05] = 0
    return np.ascontiguousarray(np.hstack([lengths, matches, totals]), dtype=np.int64)


SMOOTHINGS = [
    ("exp", None),
    ("floor", None),
    ("floor", 0.3),
    ("add-k", None),
    ("add-k", 0.5),
    ("add-k", 0.1),  # not a float32: rounded before it is added
    ("add-k", 2),
    ("none", None),
]


@pytest.mark.parametrize("score", twin_and_compiled(_sacrebleu_scores_py, RESAMPLE_SCORES))
@pytest.mark.parametrize("smooth_method,smooth_value", SMOOTHINGS)
@pytest.mark.parametrize("effective_order", [False, True])
@pytest.mark.parametrize("neumaier", [False, True])
@numpy2
def test_resample_scores_follow_the_float32_spec(
    score, smooth_method: str, smooth_value, effective_order: bool, neumaier: bool
) -> None:
    if score is _sacrebleu_scores_py.sacrebleu_sentence_scores and neumaier != NEUMAIER_SUM:
        pytest.skip("the twin sums as this interpreter's sum() does")
    rng = np.random.default_rng(hash((smooth_method, smooth_value, effective_order)) % 2**32)
    for order in (1, 2, 4, 6):
        rows = _resample_rows(rng, 300, order)
        out = np.empty(len(rows))
        score(rows, order, smooth_method, smooth_value, effective_order, neumaier, out, "float32")
        expected = bleu_scores(
            rows.astype(np.float32),
            order,
            smooth_method,
            smooth_value,
            effective_order,
            "float32",
            neumaier,
        )
        assert out.tolist() == expected.tolist()


@numpy2
def test_resample_scores_are_sacrebleus_float32_scores() -> None:
    """Against sacrebleu itself on float32 rows (the spec is checked more widely elsewhere)."""
    from sacrebleu.metrics.bleu import BLEU as SacreBLEU

    rng = np.random.default_rng(5)
    rows = _resample_rows(rng, 200, 4)
    for method, value in SMOOTHINGS:
        sb = SacreBLEU(smooth_method=method, smooth_value=value)
        expected = [sb._compute_score_from_stats(list(r)).score for r in rows.astype(np.float32)]
        for score in built_implementations(_sacrebleu_scores_py, RESAMPLE_SCORES):
            out = np.empty(len(rows))
            score(rows, 4, method, value, False, NEUMAIER_SUM, out, "float32")
            assert out.tolist() == expected


@pytest.mark.parametrize("score", twin_and_compiled(_sacrebleu_scores_py, RESAMPLE_SCORES))
def test_resample_scores_refuse_values_beyond_float32(score) -> None:
    rows = np.zeros((1, 10), dtype=np.int64)
    rows[0, 6] = 2**24
    with pytest.raises(ValueError, match="float32"):
        score(rows, 4, "exp", None, False, False, np.empty(1), "float32")
    with pytest.raises(ValueError, match="arithmetic"):
        score(rows, 4, "exp", None, False, False, np.empty(1), "float64")


# -- NumPy's mean, the interval and the p-value -------------------------------------------------
FLOATS = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=1200))
def test_numpy_sum_and_mean_are_numpys(values: List[float]) -> None:
    array_ = np.array(values, dtype=np.float64)
    # repr: the sign of a zero counts too
    assert repr(plain.numpy_sum(values)) == repr(float(array_.sum()))
    assert repr(plain.numpy_mean(values)) == repr(float(array_.mean()))


@pytest.mark.parametrize("n", [1, 7, 8, 9, 127, 128, 129, 1000, 1001, 4097, 8191, 8192])
def test_numpy_sum_at_block_edges(n: int) -> None:
    """Up to plain.MAX_SAMPLES values (NumPy 2.0 adds longer arrays in 8192-value chunks, later
    versions do not; the plain path sums no more)."""
    values = np.random.default_rng(n).uniform(-50, 100, n)
    assert plain.numpy_sum(values.tolist()) == float(values.sum())
    zeros = [-0.0] * n
    assert repr(plain.numpy_sum(zeros)) == repr(float(np.array(zeros).sum())) == "0.0"


@settings(max_examples=100, deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=1500), FLOATS)
def test_interval_and_p_value_are_significances(values: List[float], observed: float) -> None:
    assert plain.numpy_mean_ci(values) == significance.numpy_mean_ci(np.array(values))
    centred = np.array(values)
    assert plain.p_value(values, observed) == significance._p_value(centred, observed)


# -- the whole test ----------------------------------------------------------------------------
def _buffers(rows: List[np.ndarray]) -> List[memoryview]:
    """Rows as the command line holds them: int64 memoryviews of ``array`` buffers."""
    out = []
    for r in rows:
        buf = memoryview(array("q", r.astype(np.int64).ravel().tolist()))
        out.append(buf.cast("B").cast("q", r.shape))
    return out


def _check_against_significance(
    rows: List[np.ndarray], options: SacreBLEUOptions, n_samples: int, seed: int
) -> None:
    # (significance takes a metric or its resampler, which BLEU's options give the values of)
    resampler = significance.Recipe(*options._values())
    expected = significance.paired_bootstrap(rows[0], rows[1:], resampler, n_samples, seed)
    scores = [r.score for r in expected]
    got = plain.paired_bootstrap(_buffers(rows), scores, options, n_samples, seed)
    assert got == expected


def _generated_systems(
    rng: np.random.Generator, n_systems: int, n: int, order: int
) -> List[np.ndarray]:
    out = []
    for _ in range(n_systems):
        totals = rng.integers(0, 40, size=(n, order))
        matches = np.minimum(rng.integers(0, 40, size=(n, order)), totals)
        lengths = np.stack([totals[:, 0], rng.integers(0, 45, size=n)], axis=1)
        out.append(np.hstack([lengths, matches, totals]).astype(np.int64))
    return out


@compiled
@pytest.mark.parametrize("smooth_method,smooth_value", SMOOTHINGS)
@pytest.mark.parametrize("seed", [12345, 7, 2**40 + 1])
def test_paired_bootstrap_equals_significance_on_generated_rows(
    smooth_method, smooth_value, seed
) -> None:
    rng = np.random.default_rng(seed % 1000)
    for n_systems, n, order in [(2, 1, 4), (3, 57, 4), (4, 300, 4), (2, 80, 2)]:
        rows = _generated_systems(rng, n_systems, n, order)
        options = SacreBLEUOptions(order, smooth_method, smooth_value, False)
        _check_against_significance(rows, options, 200, seed)


DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "wmt23"


@compiled
@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not here")
@pytest.mark.parametrize("pair", ["de-en", "en-ja", "zh-en"])
def test_paired_bootstrap_equals_significance_on_wmt23(pair: str) -> None:
    from turbobleu import BLEU

    directory = DATA / pair
    lang = pair.split("-")[1]
    ref = sorted(directory.glob(f"ref.*.{lang}"))[0]
    hyps = sorted(directory.glob(f"hyp.*.{lang}"))[:4]
    refs = [ref.read_text(encoding="utf-8").splitlines()]
    metric = BLEU(references=refs)
    rows = [metric.corpus_stats(h.read_text(encoding="utf-8").splitlines()).array for h in hyps]
    _check_against_significance(rows, metric.options, 1000, 12345)


def test_paired_bootstrap_declines_sums_that_could_round() -> None:
    rows = [np.full((4, 10), 2**22, dtype=np.int64) for _ in range(2)]  # 4 * 2**22 = 2**24
    assert plain.paired_bootstrap(_buffers(rows), [1.0, 2.0], SacreBLEUOptions(), 10, 1) is None
    below = [r - 1 for r in rows]
    got = plain.paired_bootstrap(_buffers(below), [1.0, 2.0], SacreBLEUOptions(), 10, 1)
    assert got is not None and len(got) == 2


def test_applies_only_where_the_numbers_are_the_same() -> None:
    seeded = resolve_seed(12345)
    expected = _choice.implementation == "cython" and int(np.__version__.split(".")[0]) >= 2
    assert plain.applies(seeded, 1000, 4, 10) is expected
    assert not plain.applies(resolve_seed(0), 1000, 4, 10)  # seed 0: unseeded comparisons
    assert not plain.applies(resolve_seed(None), 1000, 4, 10)
    assert not plain.applies(seeded, plain.MAX_SUMS, 4, 10)
    assert plain.applies(seeded, plain.MAX_SAMPLES, 2, 10) is expected
    assert not plain.applies(seeded, plain.MAX_SAMPLES + 1, 2, 10)


@compiled  # (the twins import NumPy)
def test_installed_numpy_major_without_importing_numpy() -> None:
    code = (
        "import sys\n"
        "from turbobleu._engine.resample.plain import installed_numpy_major\n"
        "print(installed_numpy_major(), 'numpy' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split() == [np.__version__.split(".")[0], "False"]


# -- the shared value types ----------------------------------------------------------------------
def test_seed_and_result_are_values() -> None:
    assert Seed(12, "012") == Seed(12, "012") != Seed(12, "12")
    assert hash(Seed(1, "1")) == hash(Seed(1, "1"))
    assert repr(Seed(None, "none")) == "Seed(value=None, text='none')"
    assert resolve_seed(np.int64(5)) == Seed(5, "5")
    with pytest.raises(TypeError, match="seed must be"):
        resolve_seed(1.5)  # type: ignore[arg-type]
    r = Result(1.0, 0.5, 2.0, 0.25)
    assert r == Result(1.0, 0.5, 2.0, 0.25) != Result(1.0)
    assert r.as_dict() == {"score": 1.0, "p_value": 0.5, "mean": 2.0, "ci": 0.25}
    # sacrebleu's layout: the fields as attributes, its repr
    assert repr(Result(1.0)) == "score=1.0,p_value=None,mean=None,ci=None"
    assert list(vars(r)) == ["score", "p_value", "mean", "ci"]
    assert significance.Result is Result and significance.Seed is Seed
    seed = resolve_seed("012")
    assert pickle.loads(pickle.dumps(seed)) == seed == copy.deepcopy(seed) == copy.copy(seed)
    assert pickle.loads(pickle.dumps(r)) == r


@pytest.mark.parametrize(
    "text,major",
    [
        ('version = "1.26.4"\n', 1),
        ('"""doc"""\nversion: str = "2.4.6"\n__version__ = version\n', 2),
        ("short_version = '1.21.0'\nversion = '1.21.0'\n", 1),
        ("version = 'dev'\n", None),
        ("nothing = 1\n", None),
    ],
)
def test_numpy_major_in_reads_version_py(tmp_path, text: str, major) -> None:
    (tmp_path / "version.py").write_text(text, encoding="utf-8")
    assert plain.numpy_major_in(str(tmp_path)) == major
    assert plain.numpy_major_in(str(tmp_path / "missing")) is None


@compiled
def test_installed_numpy_major_is_the_package_import_would_load(tmp_path) -> None:
    """A NumPy package earlier on the path wins (as for import); a bare ``numpy/`` folder
    without ``__init__.py`` does not, whatever metadata sits beside it."""
    fake, stray = tmp_path / "fake", tmp_path / "stray"
    (fake / "numpy").mkdir(parents=True)
    (fake / "numpy" / "__init__.py").write_text("", encoding="utf-8")
    (fake / "numpy" / "version.py").write_text('version = "1.26.4"\n', encoding="utf-8")
    (stray / "numpy").mkdir(parents=True)
    (stray / "numpy-9.0.0.dist-info").mkdir()
    code = (
        "from turbobleu._engine.resample.plain import installed_numpy_major\n"
        "print(installed_numpy_major())\n"
    )
    for first, expected in [(fake, "1"), (stray, np.__version__.split(".")[0])]:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(first), *sys.path]))
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        assert done.stdout.split() == [expected]


def test_installed_numpy_major_searches_as_import_does(monkeypatch) -> None:
    """Without NumPy imported, the finders of ``sys.meta_path`` locate it (no import happens);
    a finder that fails leaves the answer to NumPy itself (None)."""

    class Failing:
        def find_spec(self, name, path, target=None):
            raise RuntimeError("a broken finder")

    monkeypatch.delitem(sys.modules, "numpy")
    assert plain.installed_numpy_major() == int(np.__version__.split(".")[0])
    assert "numpy" not in sys.modules
    monkeypatch.setattr(sys, "meta_path", [Failing(), *sys.meta_path])
    assert plain.installed_numpy_major() is None
