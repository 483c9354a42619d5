"""The command line's paired bootstrap without NumPy: sacrebleu's seeded resamples, its float32
scores of them, NumPy's mean and the paired test's p-values, from compiled draws and plain
Python.

``turbobleu.significance`` is the general path (any recipe, seed and input; NumPy). Importing
NumPy is most of a ``--paired-bs`` run, so the command line takes this path where it gives the
same numbers (``applies``): BLEU, the compiled implementation, a non-zero seed (sacrebleu's
paired tests with seed 0 or none draw unseeded), NumPy 2 installed (sacrebleu's float32
arithmetic differs under NumPy 1), resample sums below 2**24 (exact in float32) and a bounded
buffer. tests/test_plain_bootstrap.py checks it against ``significance`` and NumPy.
"""

from __future__ import annotations

import os
import sys
from array import array

from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes import chosen as _recipes_impl
from turbobleu._engine.recipes.sacrebleu import NEUMAIER_SUM
from turbobleu._engine.resample import chosen as _resample_impl
from turbobleu._engine.resample.pcg64 import seeded_pcg64
from turbobleu._engine.resample.settings import F32_EXACT, Result, multeval_p_value
from turbobleu._engine.results import ci_half_width
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional, Sequence, Tuple

    from turbobleu._engine.recipes.sacrebleu import SacreBLEUOptions
    from turbobleu._engine.resample.settings import Seed

# The most resample sums held at once (int64: 32 MB); larger runs take the NumPy path.
MAX_SUMS = 4_194_304
# NumPy's pairwise summation works in blocks of this many values.
PAIRWISE_BLOCK = 128
# NumPy 2.0 reduces a longer array in chunks of its buffer size (8192 values), later versions in
# one pairwise sum: up to this many values both add alike, so no more resamples go this way.
MAX_SAMPLES = 8192


def numpy_sum(values: Sequence[float]) -> float:
    """``np.sum`` of a float64 array of at most ``MAX_SAMPLES`` values, as NumPy adds it: the
    reduction's identity 0.0 plus the pairwise sum of the values (halves down to blocks of at
    most 128 values, each summed with eight interleaved accumulators)."""
    return 0.0 + _pairwise_sum(values, 0, len(values))


def _pairwise_sum(values: Sequence[float], start: int, n: int) -> float:
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    if n <= PAIRWISE_BLOCK:
        acc = list(values[start : start + 8])
        i = 8
        while i < n - n % 8:
            for j in range(8):
                acc[j] += values[start + i + j]
            i += 8
        total = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
        for j in range(i, n):
            total += values[start + j]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(values, start, half) + _pairwise_sum(values, start + half, n - half)


def numpy_mean(values: Sequence[float]) -> float:
    """``np.mean`` of a non-empty float64 array."""
    return numpy_sum(values) / len(values)


def numpy_mean_ci(scores: Sequence[float]) -> Tuple[float, float]:
    """(mean, 95% CI half-width) as ``sacrebleu.significance.estimate_ci`` computes them from
    float64 scores (``np.mean`` of the sorted scores)."""
    ordered = sorted(scores)
    return numpy_mean(ordered), ci_half_width(ordered)


def p_value(statistic: Sequence[float], observed: float) -> float:
    """multeval's p-value of ``observed`` against the resampled ``statistic``."""
    return multeval_p_value(sum(1 for x in statistic if x > observed), len(statistic))


def installed_numpy_major() -> Optional[int]:
    """The major version of the NumPy that ``import numpy`` would load, without importing it:
    from ``numpy/version.py`` where the import system finds the package; None where unclear."""
    module = sys.modules.get("numpy")
    if module is not None:
        return int(module.__version__.split(".")[0])
    # The import system's own search (importlib.util.find_spec, without its imports).
    spec = None
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        try:
            spec = find("numpy", None) if find is not None else None
        except Exception:  # a third-party finder may raise anything: then NumPy decides
            return None
        if spec is not None:
            break
    origin = getattr(spec, "origin", None)
    if not isinstance(origin, str) or os.path.basename(origin) != "__init__.py":
        return None
    return numpy_major_in(os.path.dirname(origin))


def numpy_major_in(package: str) -> Optional[int]:
    """The major version that a NumPy package folder's ``version.py`` states
    (``version = "2.4.6"``); None where it states none."""
    try:
        with open(os.path.join(package, "version.py"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        name, equals, value = line.partition("=")
        if equals and name.split(":")[0].strip() == "version":
            major = value.strip().strip("\"'").split(".")[0]
            return int(major) if major.isdigit() else None
    return None


def applies(seed: Seed, n_samples: int, n_systems: int, width: int) -> bool:
    """Whether ``paired_bootstrap`` gives ``significance.paired_bootstrap``'s numbers here."""
    if _choice.implementation != "cython" or seed.per_system is None:
        return False
    if n_samples > MAX_SAMPLES or n_samples * n_systems * width > MAX_SUMS:
        return False
    major = installed_numpy_major()
    return major is not None and major >= 2


def paired_bootstrap(
    rows: List[Any],
    scores: List[float],
    options: SacreBLEUOptions,
    n_samples: int,
    seed: int,
    progress: Optional[Callable[[int], None]] = None,
) -> Optional[List[Result]]:
    """``significance.paired_bootstrap`` for BLEU where ``applies``: ``rows`` are every
    system's (segments, 2 + 2N) int64 statistics buffers, the baseline first, and ``scores``
    their corpus scores. None, having drawn nothing, where a resample's sums could reach 2**24
    (n_segments * max |value|): the NumPy path reproduces sacrebleu's float32 rounding there."""
    n_systems = len(rows)
    width = 2 + 2 * options.max_order
    sums = memoryview(array("q", bytes(8 * n_samples * n_systems * width)))
    state, increment = seeded_pcg64(seed)
    drawn = _resample_impl.draws().resample_sums(
        state,
        increment,
        rows,
        n_samples,
        sums.cast("B").cast("q", (n_samples, n_systems * width)),
        F32_EXACT,
    )
    if not drawn:
        return None
    expect = getattr(progress, "expect", None)
    if expect is not None:
        expect(n_samples)
    resampled = array("d", bytes(8 * n_samples * n_systems))
    _recipes_impl.sacrebleu_scores().sacrebleu_sentence_scores(
        sums.cast("B").cast("q", (n_samples * n_systems, width)),
        options.max_order,
        options.smooth_method,
        options.smooth_value,
        options.effective_order,
        NEUMAIER_SUM,
        resampled,
        "float32",
    )
    if progress is not None:
        progress(n_samples)
    # resample b of system s is resampled[b * n_systems + s]
    baseline = resampled[0::n_systems]
    mean, ci = numpy_mean_ci(baseline)
    results = [Result(scores[0], None, mean, ci)]
    for s in range(1, n_systems):
        system = resampled[s::n_systems]
        sys_mean, sys_ci = numpy_mean_ci(system)
        diffs = [abs(x - b) for x, b in zip(system, baseline)]
        diffs_mean = numpy_mean(diffs)
        centred = [d - diffs_mean for d in diffs]
        p = p_value(centred, abs(scores[0] - scores[s]))
        results.append(Result(scores[s], p, sys_mean, sys_ci))
    return results
