"""Bootstrap confidence intervals and paired significance tests on BLEU (or chrF, or TER)
statistics rows.

The numbers are sacrebleu's (``sacrebleu.significance`` and ``corpus_score(n_bootstrap=...)``)
for the same seed: the same NumPy ``default_rng`` calls draw the same resamples, and every score
is computed with sacrebleu's arithmetic (float32 for bootstrap resamples, int64 rows for
approximate randomization; see ``_engine.recipes.sacrebleu_batch``). What differs is the work:
per-segment statistics are extracted once, and a resample's corpus statistics are one row of a
matrix product (resample counts x segment rows) instead of a gather and sum per resample.

Exactness of the matrix product: sacrebleu sums float32 rows; while every partial sum of a
resample stays below 2**24 that sum is exact, so it equals the exact integer sum (computed here
with a float32 or float64 matrix product, both exact for such integers). A resample whose sums
could reach 2**24 is summed with sacrebleu's own NumPy call instead, so the result is the same
either way.

Seeds follow sacrebleu: ``SACREBLEU_SEED`` (default ``12345``; ``none`` means OS entropy) unless a
seed is passed. In the paired tests every system is tested with ``default_rng(seed or None)``, so
seed 0 means unseeded there (as in sacrebleu) while the baseline's interval uses seed 0.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from turbobleu._engine.recipes.sacrebleu_batch import bootstrap_arithmetic
from turbobleu._engine.resample import chosen as _resample_impl

# SEED_ENV, DEFAULT_SEED and Seed are public here too (the NumPy-free path shares them).
from turbobleu._engine.resample.settings import (  # noqa: F401
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    F32_EXACT,
    FROM_ENV,
    SEED_ENV,
    Result,
    Seed,
    multeval_p_value,
    resolve_seed,
)
from turbobleu.result import ci_half_width, mean_ci

# Resamples per block: bounds the memory of the count matrix (and of the indices kept when
# sums may round) to ~32 MB.
_CHUNK_ELEMENTS = 4_194_304
# AR selector chunks (bools); see _ar_selectors for why chunking keeps NumPy's stream.
_AR_CHUNK_ELEMENTS = 64_000_000


def _block_rows(n_rows: int, n_segments: int, columns: int) -> int:
    """Rows per block of a (n_rows, n_segments) 0/1 matrix copied to floats and multiplied by a
    (n_segments, columns) one. With few columns the product costs no more than the copy, and a
    block small enough to be read back from cache halves both: 16384 elements per column (at
    least 32768); more columns give BLAS larger blocks, up to _CHUNK_ELEMENTS. AR, 10000
    trials, one thread (ms, this rule vs one block of _CHUNK_ELEMENTS): TER 4 x 549 segments
    3.0 vs 4.9, 4 x 2074 10.7 vs 16.1, 16 x 3004 35.9 vs 35.6; BLEU 9.1 vs 9.0, 22.5 vs 22.7,
    91.0 vs 90.6."""
    elements = min(_CHUNK_ELEMENTS, max(2**15, 2**14 * columns))
    return max(1, min(n_rows, elements // n_segments))


# Progress reporting: a callable taking the number of resamples just done (a
# ``turbobleu.cli.progress.Progress`` works); if it has ``expect(n)``, it is told the total first.
ProgressFn = Optional[Callable[[int], None]]
# A metric's statistics rows: an array, a list of rows, or its own rows object (BLEU's
# BLEUStats), which its resampler's ``rows`` reads.
StatsLike = Union[np.ndarray, Sequence[Sequence[int]], Any]


# -- inputs ------------------------------------------------------------------------------------
def resampler_of(metric: Any) -> Any:
    """How the tests score ``metric``'s rows: the metric's ``resampler()`` (every metric of the
    registry has one; BLEU's options objects too), or a resampler itself."""
    own = getattr(metric, "resampler", None)
    if own is not None:
        return own()
    if all(hasattr(metric, a) for a in ("width", "rows", "corpus_score", "scores")):
        return metric
    raise TypeError(
        f"metric must be a turbobleu metric (BLEU, CHRF, TER or another registered one) or its "
        f"resampler(), got {type(metric).__name__}"
    )


# The resamplers' names before the metric interface, importable from here as they were (each
# is defined beside its metric, loaded on first use).
_FORMER_NAMES = {
    "Recipe": ("turbobleu._engine.bleu.resampler", "BLEUResampler"),
    "ChrFRecipe": ("turbobleu._engine.chrf.resampler", "ChrFResampler"),
    "TERRecipe": ("turbobleu._engine.ter.recipe", "TERResampler"),
}


def __getattr__(name: str) -> Any:
    if name in _FORMER_NAMES:
        import importlib

        module, attribute = _FORMER_NAMES[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'turbobleu.significance' has no attribute {name!r}")


def _rows(stats: StatsLike, recipe: Any, what: str) -> np.ndarray:
    """Statistics rows as a C-contiguous int64 array, checked."""
    rows = recipe.rows(stats, what)
    if rows.dtype.kind == "f":
        if not np.array_equal(rows, np.trunc(rows)):
            raise ValueError(f"{what} must hold integer statistics")
    elif rows.dtype.kind not in "iu":
        raise TypeError(f"{what} must be integer statistics rows, got dtype {rows.dtype}")
    width = recipe.width
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ValueError(f"{what} must have shape (segments, {width}), got {rows.shape}")
    if rows.shape[0] == 0:
        raise ValueError(f"{what} has no segments")
    return np.ascontiguousarray(rows, dtype=np.int64)


def _same_segments(rows: List[np.ndarray], names: List[str]) -> None:
    for r, name in zip(rows[1:], names[1:]):
        if len(r) != len(rows[0]):
            raise ValueError(
                f"{name} has {len(r)} segments but {names[0]} has {len(rows[0])}; "
                "paired tests need the same segments for every system"
            )


def _plan(progress: ProgressFn, units: int) -> None:
    expect = getattr(progress, "expect", None)
    if expect is not None:
        expect(units)


def _positive(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what} must be a positive integer, got {value!r}")
    return int(value)


# -- results -----------------------------------------------------------------------------------
def numpy_mean_ci(scores: np.ndarray) -> Tuple[float, float]:
    """(mean, 95% CI half-width) as ``sacrebleu.significance.estimate_ci`` computes them
    (``np.mean`` of the sorted scores), NumPy scalars of the scores' dtype as there (float32
    for chrF's and TER's resample scores)."""
    ordered = np.sort(np.asarray(scores))
    return ordered.mean(), ci_half_width(ordered)


# (mean, CI) as sacrebleu's ``Score.estimate_ci`` computes them (``statistics.mean``).
exact_mean_ci = mean_ci


def _p_value(statistic: np.ndarray, observed: float) -> float:
    """multeval's p-value of ``observed`` against the resampled ``statistic``."""
    return multeval_p_value(int(np.count_nonzero(statistic > observed)), len(statistic))


# -- bootstrap resampling -----------------------------------------------------------------------
def _draw_counts(
    rng: np.random.Generator, n_segments: int, counts: np.ndarray, keep_indices: bool
) -> Optional[np.ndarray]:
    """Fill ``counts[b, i]`` (how often segment i is in resample b) for the next
    ``len(counts)`` resamples of sacrebleu's ``rng.choice(n, size=(n_samples, n),
    replace=True)``; return the indices themselves too if asked (then counts are float64).

    Without the indices, the kernel counts each index as it draws it from ``rng`` (the same
    stream; tests/test_significance.py checks it against ``choice``).
    """
    if not keep_indices:
        _resample_impl.resample().resample_counts(rng, n_segments, counts)
        return None
    indices = rng.choice(n_segments, size=counts.shape, replace=True)
    for b, row in enumerate(indices):
        counts[b] = np.bincount(row, minlength=n_segments)
    return indices


def _rounded_float32_sums(
    counts: np.ndarray, indices: np.ndarray, rows: np.ndarray, rows_f32: np.ndarray
) -> np.ndarray:
    """Resample sums where some may reach 2**24: exact ones from the (float64) counts, the
    others with sacrebleu's own float32 sum, which rounds."""
    sums = counts @ rows.astype(np.float64)  # exact integers (< 2**53)
    magnitude = counts @ np.abs(rows).astype(np.float64)
    out: np.ndarray = sums.astype(np.float32)
    for b in np.flatnonzero((magnitude >= F32_EXACT).any(axis=1)):
        out[b] = rows_f32[indices[b]].sum(0)  # sacrebleu's ``stats[idx].sum(0)``
    return out


def _bootstrap_matrix(
    rng: np.random.Generator,
    all_rows: List[np.ndarray],
    recipe: Any,
    n_samples: int,
    progress: ProgressFn,
) -> np.ndarray:
    """Scores of ``n_samples`` bootstrap resamples (one index draw shared by every row set):
    an array (len(all_rows), n_samples).

    A resample's float32 sums equal sacrebleu's ``stats[idx].sum(0)``: while every partial sum
    is an integer below 2**24 they are exact, and so is ``counts @ rows`` in float32.
    """
    n_segments = len(all_rows[0])
    width = all_rows[0].shape[1]
    stacked = np.hstack(all_rows)
    stacked_f32 = stacked.astype(np.float32)
    # A resample's |sum| is at most n_segments * max|value| (the counts add up to n_segments).
    exact_in_f32 = n_segments * int(np.abs(stacked).max(initial=0)) < F32_EXACT
    block = max(1, min(n_samples, _CHUNK_ELEMENTS // n_segments))
    counts = np.empty((block, n_segments), dtype=np.float32 if exact_in_f32 else np.float64)
    scores: Optional[np.ndarray] = None  # in the recipe's dtype (float32 for chrF)
    for done in range(0, n_samples, block):
        k = min(block, n_samples - done)
        indices = _draw_counts(rng, n_segments, counts[:k], keep_indices=not exact_in_f32)
        if indices is None:
            sums = counts[:k] @ stacked_f32
        else:
            sums = _rounded_float32_sums(counts[:k], indices, stacked, stacked_f32)
        # every row set's resamples as one (sets * k, width) batch: one recipe call
        batch = sums.reshape(k, len(all_rows), width).transpose(1, 0, 2).reshape(-1, width)
        chunk = recipe.scores(batch, bootstrap_arithmetic()).reshape(len(all_rows), k)
        if scores is None:
            scores = np.empty((len(all_rows), n_samples), dtype=chunk.dtype)
        scores[:, done : done + k] = chunk
        if progress is not None:
            progress(k)
    assert scores is not None  # n_samples >= 1
    return scores


def bootstrap_scores(
    stats: StatsLike,
    metric: Any,
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: Union[int, str, None] = FROM_ENV,
    progress: ProgressFn = None,
) -> np.ndarray:
    """The BLEU score of each bootstrap resample (float64 array), as sacrebleu's
    ``_bootstrap_resample`` computes them with the same seed."""
    recipe = resampler_of(metric)
    rows = _rows(stats, recipe, "stats")
    n_samples = _positive(n_samples, "n_samples")
    rng = np.random.default_rng(resolve_seed(seed).value)
    _plan(progress, n_samples)
    scores: np.ndarray = _bootstrap_matrix(rng, [rows], recipe, n_samples, progress)[0]
    return scores


def confidence_interval(
    stats: StatsLike,
    metric: Any,
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: Union[int, str, None] = FROM_ENV,
    progress: ProgressFn = None,
) -> Tuple[float, float]:
    """(mean, 95% CI half-width) of the bootstrap scores, exactly as sacrebleu's
    ``corpus_score(n_bootstrap=n_samples)`` stores them in ``_mean`` and ``_ci``."""
    # list(): NumPy scalars, kept in their dtype (chrF's are float32, as in sacrebleu)
    return exact_mean_ci(list(bootstrap_scores(stats, metric, n_samples, seed, progress)))


# -- paired tests ------------------------------------------------------------------------------
def _prepare(
    baseline: StatsLike, systems: Sequence[StatsLike], metric: Any
) -> Tuple[Any, List[np.ndarray]]:
    recipe = resampler_of(metric)
    if isinstance(systems, np.ndarray) or not isinstance(systems, (list, tuple)):
        raise TypeError(
            f"systems must be a list of statistics (one per system), got {type(systems).__name__}"
        )
    names = ["baseline"] + [f"systems[{i}]" for i in range(len(systems))]
    rows = [_rows(s, recipe, name) for s, name in zip([baseline, *systems], names)]
    if len(rows) < 2:
        raise ValueError(
            "systems is empty: a paired test compares at least one system with the baseline"
        )
    _same_segments(rows, names)
    return recipe, rows


def paired_bootstrap(
    baseline: StatsLike,
    systems: Sequence[StatsLike],
    metric: Any,
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: Union[int, str, None] = FROM_ENV,
    progress: ProgressFn = None,
) -> List[Result]:
    """Paired bootstrap resampling (Koehn 2004; sacrebleu's ``--paired-bs``).

    Returns one ``Result`` per system, the baseline first (its ``p_value`` is None). ``mean`` and
    ``ci`` are the bootstrap mean and 95% half-width; ``p_value`` is
    ``(#{|d_b| - mean|d| > |delta|} + 1) / (n_samples + 1)`` over resamples b.
    """
    recipe, rows = _prepare(baseline, systems, metric)
    n_samples = _positive(n_samples, "n_samples")
    seed_ = resolve_seed(seed)
    scores = [recipe.corpus_score(r) for r in rows]

    _plan(progress, n_samples * (1 if seed_.per_system is not None else len(rows)))
    if seed_.per_system is not None:
        # One seeded draw serves the baseline's interval and every comparison.
        matrix = _bootstrap_matrix(
            np.random.default_rng(seed_.value), rows, recipe, n_samples, progress
        )
        pairs = [(matrix[0], matrix[s]) for s in range(1, len(rows))]
        baseline_scores = matrix[0]
    else:
        baseline_scores = _bootstrap_matrix(
            np.random.default_rng(seed_.value), rows[:1], recipe, n_samples, progress
        )[0]
        pairs = []
        for s in range(1, len(rows)):
            m = _bootstrap_matrix(
                np.random.default_rng(None), [rows[0], rows[s]], recipe, n_samples, progress
            )
            pairs.append((m[0], m[1]))

    mean, ci = numpy_mean_ci(baseline_scores)
    results = [Result(scores[0], None, mean, ci)]
    for s, (bl, sys_) in enumerate(pairs, start=1):
        sys_mean, sys_ci = numpy_mean_ci(sys_)
        diffs = np.abs(sys_ - bl)
        centred = diffs - diffs.mean()
        p = _p_value(centred, abs(scores[0] - scores[s]))
        results.append(Result(scores[s], p, sys_mean, sys_ci))
    return results


def _random_bools(rng: np.random.Generator, n_trials: int, n_segments: int) -> np.ndarray:
    """``rng.integers(2, size=(n_trials, n_segments), dtype=bool)``, three times faster.

    NumPy fills a bool array from 32-bit words (``next_uint32``), one bit per value, lowest bit
    first, and drops the unused bits of the last word. Drawing the words as ``uint32`` (the same
    ``next_uint32`` calls: same values, same generator state after) and unpacking their bits in
    that order gives the same array (tests/test_significance.py checks it, state included).
    """
    n = n_trials * n_segments
    words = rng.integers(0, 2**32, size=-(-n // 32), dtype=np.uint32)
    little_endian_bytes = words.astype("<u4", copy=False).view(np.uint8)
    bits = np.unpackbits(little_endian_bytes, count=n, bitorder="little")
    return bits.view(bool).reshape(n_trials, n_segments)


def _ar_selectors(rng: np.random.Generator, n_trials: int, n_segments: int) -> Iterator[np.ndarray]:
    """sacrebleu's ``rng.integers(2, size=(n_trials, n_segments), dtype=bool)``, in row chunks.

    Each draw drops the unused bits of its last 32-bit word (see ``_random_bools``), so chunks
    continue the same stream only when each (but the last) holds a multiple of 32 values.
    """
    if n_trials * n_segments <= _AR_CHUNK_ELEMENTS:
        yield _random_bools(rng, n_trials, n_segments)
        return
    step = 32 // math.gcd(n_segments, 32)
    per_chunk = max(step, (_AR_CHUNK_ELEMENTS // n_segments) // step * step)
    for start in range(0, n_trials, per_chunk):
        yield _random_bools(rng, min(per_chunk, n_trials - start), n_segments)


def _selected_sums(selectors: np.ndarray, deltas: np.ndarray, buffer: np.ndarray) -> np.ndarray:
    """``selectors @ deltas`` as int64 (exact: the caller picks a float type that holds every
    partial sum), block by block through ``buffer``, which holds a block's 0/1 as floats."""
    sums = np.empty((len(selectors), deltas.shape[1]), dtype=np.int64)
    for start in range(0, len(selectors), len(buffer)):
        block = selectors[start : start + len(buffer)]
        as_float = buffer[: len(block)]
        np.copyto(as_float, block)
        sums[start : start + len(block)] = as_float @ deltas
    return sums


def _ar_scores(
    rng: np.random.Generator,
    baseline: np.ndarray,
    others: List[np.ndarray],
    recipe: Any,
    n_trials: int,
    progress: ProgressFn,
) -> List[Tuple[np.ndarray, np.ndarray]]:
    """For each system, the scores of the two shuffled pseudo-systems of every trial.

    A = pos@bl + neg@sys = sum(sys) - pos@(sys - bl) and B = sum(bl) + pos@(sys - bl), in exact
    integers (the product runs in float32 or float64, whichever holds every partial sum exactly).
    """
    n_segments, width = baseline.shape
    deltas = np.hstack([o - baseline for o in others])
    bound = int(np.abs(deltas).sum(axis=0).max(initial=0))
    dtype = np.float32 if bound < F32_EXACT else np.float64
    if bound >= 2**53:
        raise ValueError("statistics too large for an exact approximate randomization test")
    deltas_f = deltas.astype(dtype)
    bl_total = baseline.sum(axis=0)
    sys_totals = [o.sum(axis=0) for o in others]
    parts: List[List[Tuple[np.ndarray, np.ndarray]]] = [[] for _ in others]
    per_chunk = max(1, min(n_trials, _CHUNK_ELEMENTS // n_segments))  # trials scored at once
    buffer = np.empty((_block_rows(per_chunk, n_segments, deltas.shape[1]), n_segments), dtype)
    for selectors in _ar_selectors(rng, n_trials, n_segments):
        for start in range(0, len(selectors), per_chunk):
            pos = selectors[start : start + per_chunk]
            shifted = _selected_sums(pos, deltas_f, buffer)
            moved = shifted.reshape(len(pos), len(others), width).transpose(1, 0, 2)
            # all systems' pseudo-systems A and B scored in one batch
            batch = np.concatenate(
                [
                    (np.stack(sys_totals)[:, None, :] - moved).reshape(-1, width),
                    (bl_total + moved).reshape(-1, width),
                ]
            )
            both = recipe.scores(batch, "int64").reshape(2, len(others), len(pos))
            for j in range(len(others)):
                parts[j].append((both[0, j], both[1, j]))
            if progress is not None:
                progress(len(pos))
    return [(np.concatenate([a for a, _ in p]), np.concatenate([b for _, b in p])) for p in parts]


def paired_approximate_randomization(
    baseline: StatsLike,
    systems: Sequence[StatsLike],
    metric: Any,
    n_samples: int = DEFAULT_AR_TRIALS,
    n_ar_confidence: int = -1,
    seed: Union[int, str, None] = FROM_ENV,
    progress: ProgressFn = None,
) -> List[Result]:
    """Paired approximate randomization (Riezler & Maxwell 2005; sacrebleu's ``--paired-ar``).

    Returns one ``Result`` per system, the baseline first. ``p_value`` is
    ``(#{|score(A_t) - score(B_t)| > |delta|} + 1) / (n_samples + 1)``, where trial t swaps each
    segment between the two systems with probability 1/2. ``n_ar_confidence`` > 0 (0 means 1000)
    adds bootstrap means and intervals, drawn as sacrebleu draws them; -1 leaves them out.
    """
    recipe, rows = _prepare(baseline, systems, metric)
    n_samples = _positive(n_samples, "n_samples")
    if isinstance(n_ar_confidence, bool) or not isinstance(n_ar_confidence, (int, np.integer)):
        raise TypeError(f"n_ar_confidence must be an int, got {type(n_ar_confidence).__name__}")
    n_conf = DEFAULT_BOOTSTRAP_SAMPLES if n_ar_confidence == 0 else int(n_ar_confidence)
    seed_ = resolve_seed(seed)
    scores = [recipe.corpus_score(r) for r in rows]

    results = [Result(scores[0])]
    if n_conf > 0:
        bl = _bootstrap_matrix(np.random.default_rng(seed_.value), rows[:1], recipe, n_conf, None)[
            0
        ]
        results[0].mean, results[0].ci = numpy_mean_ci(bl)

    def test(rng: np.random.Generator, members: List[int]) -> None:
        shuffled = _ar_scores(rng, rows[0], [rows[s] for s in members], recipe, n_samples, progress)
        for s, (a, b) in zip(members, shuffled):
            p = _p_value(np.abs(a - b), abs(scores[0] - scores[s]))
            results[s] = Result(scores[s], p)
        if n_conf > 0:
            # Drawn from the same generator after the selectors, as sacrebleu does.
            member_rows = [rows[s] for s in members]
            conf = _bootstrap_matrix(rng, member_rows, recipe, n_conf, None)
            for s, sys_scores in zip(members, conf):
                results[s].mean, results[s].ci = numpy_mean_ci(sys_scores)

    results.extend(Result(s) for s in scores[1:])
    _plan(progress, n_samples * (1 if seed_.per_system is not None else len(rows) - 1))
    if seed_.per_system is not None:
        # Every comparison would draw the same selectors: draw them once for all systems.
        test(np.random.default_rng(seed_.per_system), list(range(1, len(rows))))
    else:
        for s in range(1, len(rows)):
            test(np.random.default_rng(None), [s])
    return results


# -- sacrebleu's PairedTest interface -------------------------------------------------------------
class PairedTest:
    """A drop-in for ``sacrebleu.significance.PairedTest``, for any metric of the registry
    (``turbobleu.BLEU``, ``CHRF``, ``TER``, ...), mixed.

    ``named_systems`` is a list of (name, hypotheses), the baseline first; ``metrics`` maps a
    name to a metric (the names are not used: as in sacrebleu, each metric's column is named
    after its baseline score, ``BLEU``, ``chrF2``, ``chrF2++``, ``TER``, ..., and metrics whose
    scores have the same name share one column, the last one winning); ``references=None``
    uses each metric's cached references. ``n_samples`` <= 0 means the default (1000 for "bs",
    10000 for "ar"); ``n_ar_confidence`` 0 means 1000 and -1 turns the AR intervals off;
    ``n_jobs`` is accepted and ignored (the tests are vectorised). Calling it returns
    ``(signatures, scores)`` like sacrebleu: ``scores = {"System": [names], "BLEU": [Result,
    ...], ...}``.
    """

    _DEFAULT_SAMPLES = {"ar": DEFAULT_AR_TRIALS, "bs": DEFAULT_BOOTSTRAP_SAMPLES}

    def __init__(
        self,
        named_systems: List[Tuple[str, Sequence[str]]],
        metrics: Mapping[str, Any],
        references: Optional[Sequence[Sequence[str]]],
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
        progress: ProgressFn = None,
    ) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise ValueError(f"test_type must be 'ar' or 'bs', got {test_type!r}")
        if len(named_systems) < 2:
            raise ValueError("named_systems needs the baseline and at least one system")
        if not isinstance(metrics, Mapping):
            raise TypeError(f"metrics must be a dict of metrics, got {type(metrics).__name__}")
        for name, metric in metrics.items():
            if not hasattr(metric, "resampler") or not hasattr(metric, "corpus_stats"):
                raise TypeError(
                    f"metrics[{name!r}] must be a turbobleu metric (BLEU, CHRF, TER or another "
                    f"registered one), got {type(metric).__name__}"
                )
        self.test_type = test_type
        self.named_systems = list(named_systems)
        self.references = references
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_ar_confidence = (
            DEFAULT_BOOTSTRAP_SAMPLES if n_ar_confidence == 0 else n_ar_confidence
        )
        self.n_jobs = n_jobs
        self.progress = progress
        self._seed = resolve_seed()
        self.metrics: Dict[str, Any] = {}
        self._signatures: Dict[str, Any] = {}
        baseline = self.named_systems[0][1]
        for metric in metrics.values():
            # The baseline's statistics settle the metric's reference count, and its score's
            # name is the column's (sacrebleu's key).
            key = metric.score_of_stats(metric.corpus_stats(baseline, references)).name
            signature = metric.get_signature()
            signature.update("seed", self._seed.paired_text)
            signature.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            self._signatures[key] = signature
            self.metrics[key] = metric

    def __call__(self) -> Tuple[Dict[str, Any], Dict[str, List[Any]]]:
        scores: Dict[str, List[Any]] = {"System": [name for name, _ in self.named_systems]}
        for key, metric in self.metrics.items():
            stats = [metric.corpus_stats(hyps, self.references) for _, hyps in self.named_systems]
            if self.test_type == "bs":
                results = paired_bootstrap(
                    stats[0], stats[1:], metric, self.n_samples, self._seed.text, self.progress
                )
            else:
                results = paired_approximate_randomization(
                    stats[0],
                    stats[1:],
                    metric,
                    self.n_samples,
                    self.n_ar_confidence,
                    self._seed.text,
                    self.progress,
                )
            scores[key] = results
        return self._signatures, scores
