"""The significance part of ``turbobleu.patch("sacrebleu")`` (applied by ``_patch`` after the
metrics' parts): sacrebleu's own ``sacrebleu.significance`` resamples with turbobleu.

Replaced: ``PairedTest.__call__`` (every system of a metric tested in one turbobleu call, on one
shared draw when the seed is fixed, as sacrebleu draws the same indices for every system then)
and the code of ``_paired_bs_test``, ``_paired_ar_test`` and ``_bootstrap_resample`` (the
function objects stay, so names imported before the patch, ``PairedTest`` objects created before
it and forked worker pools are covered too). The results are sacrebleu's own ``Result`` and score
objects, equal in every field to what unpatched sacrebleu returns: the same NumPy generator calls
draw the same resamples, and ``turbobleu.significance`` scores them with sacrebleu's arithmetic.

A metric is resampled by turbobleu when its registry entry's ``sacrebleu_resampler`` hook
(``resampler(metric)``, in the metric's own patch module) maps it to turbobleu's resampler; the
hook returns None for what it does not recognise (a subclass overriding
``_compute_score_from_stats``, ``_aggregate_and_compute`` or ``_extract_corpus_statistics``, a
user's ``Metric``, options turbobleu cannot reproduce), and sacrebleu's code then runs for that
metric. With ``n_jobs != 1`` the patched ``PairedTest`` still runs in this process (the batched
tests are faster than a worker pool); the numbers are the same.
"""

from __future__ import annotations

import importlib
import itertools
import os
import types

from turbobleu._typing import TYPE_CHECKING
from turbobleu.metric_registry import METRICS

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

    SetAttr = Callable[[Any, str, Any], None]

# Functions of sacrebleu.significance whose code is replaced.
_FUNCTIONS = ("_paired_bs_test", "_paired_ar_test", "_bootstrap_resample")

# While patched: name -> (sacrebleu's function object, a copy of it running sacrebleu's code).
_functions: Dict[str, Tuple[Any, Any]] = {}


def _significance() -> Any:
    return importlib.import_module("sacrebleu.significance")


def resampler_of(metric: Any) -> Optional[Any]:
    """turbobleu's resampler for sacrebleu's ``metric`` from the first registry entry that
    recognises it, or None (sacrebleu's code)."""
    for entry in list(METRICS.values()):
        hook = entry.hook("sacrebleu_resampler")
        if hook is not None:
            found = hook(metric)
            if found is not None:
                return found
    return None


# -- the tests, for one metric -------------------------------------------------------------------
def _tested(
    kind: str,
    metric: Any,
    resampler: Any,
    baseline: Tuple[Any, Any],
    systems: Sequence[Sequence[str]],
    references: Any,
    n_samples: int,
    n_ar_confidence: int,
    seed: Optional[int],
) -> Optional[List[Any]]:
    """sacrebleu's ``Result`` of every system in ``systems`` against ``baseline`` (its
    statistics and ``Result``) for one metric, as sacrebleu's per-system test (``kind``: "bs" or
    "ar") computes them with ``default_rng(seed)`` for each; None where turbobleu's numbers could
    differ (statistics it cannot resample exactly), for sacrebleu's code to run."""
    from turbobleu import significance

    Result = _significance().Result
    bl_stats, bl_result = baseline
    stats = [metric._extract_corpus_statistics(hyps, references) for hyps in systems]
    scores = [_corpus_score(metric, s) for s in stats]
    stats = [_as_array(s) for s in stats]
    bl_stats = _as_array(bl_stats)
    # seed None or 0: sacrebleu draws from OS entropy for every system ("none" does that here)
    chosen = seed if seed else "none"
    try:
        if kind == "bs":
            found = significance.paired_bootstrap(bl_stats, stats, resampler, n_samples, chosen)
        else:
            # sacrebleu's per-system test has intervals only for n_ar_confidence > 0
            confidence = n_ar_confidence if n_ar_confidence > 0 else -1
            found = significance.paired_approximate_randomization(
                bl_stats, stats, resampler, n_samples, confidence, chosen
            )
    except (TypeError, ValueError):
        return None
    # turbobleu's scores of the rows decide the p-values: they must be sacrebleu's
    if found[0].score != bl_result.score or any(r.score != s for r, s in zip(found[1:], scores)):
        return None
    results = []
    for score, result in zip(scores, found[1:]):
        own = Result(score, result.p_value)
        if kind == "bs" or n_ar_confidence > 0:
            own.mean, own.ci = result.mean, result.ci
        results.append(own)
    return results


def _as_array(stats: Any) -> Any:
    """Integer statistics rows as one int64 array (converted once for turbobleu); others as
    they are."""
    import numpy as np

    rows = np.asarray(stats)
    return rows if rows.dtype == np.int64 else stats


def _corpus_score(metric: Any, stats: List[List[Any]]) -> Any:
    """``metric._aggregate_and_compute(stats).score`` (a stock class's: ``sum_of_lists`` then
    ``_compute_score_from_stats``), with rows of Python ints summed by NumPy: the same ints as
    sacrebleu's Python loop, which takes most of a test's time on a large corpus."""
    import numpy as np

    # (the element types at C speed: a NumPy int among them would make sacrebleu's sums NumPy's)
    if len(stats) > 1 and set(map(type, itertools.chain.from_iterable(stats))) == {int}:
        rows = np.asarray(stats)
        if rows.dtype == np.int64 and rows.ndim == 2:
            return metric._compute_score_from_stats([int(v) for v in rows.sum(axis=0)]).score
    return metric._aggregate_and_compute(stats).score


def _by_metric(
    kind: str,
    baseline_info: Dict[str, Tuple[Any, Any]],
    systems: Sequence[Tuple[str, Sequence[str]]],
    references: Any,
    metrics: Dict[str, Any],
    n_samples: int,
    n_ar_confidence: int,
    seed: Optional[int],
) -> Dict[str, List[Any]]:
    """Every metric's ``Result`` per system (in ``systems``' order): turbobleu's for the metrics
    it recognises, sacrebleu's per-system test (its code) for the others."""
    done: Dict[str, List[Any]] = {name: [] for name in metrics}
    if not systems:  # a baseline alone: nothing to test
        return done
    others: Dict[str, Any] = {}
    for name, metric in metrics.items():
        resampler = resampler_of(metric)
        found = None
        if resampler is not None:
            found = _tested(
                kind,
                metric,
                resampler,
                baseline_info[name],
                [hyps for _, hyps in systems],
                references,
                n_samples,
                n_ar_confidence,
                seed,
            )
        if found is None:
            others[name] = metric
        else:
            done[name] = found
    if others:
        original = _functions["_paired_bs_test" if kind == "bs" else "_paired_ar_test"][1]
        for sys_name, hyps in systems:
            _, results = original(
                baseline_info, sys_name, hyps, references, others, n_samples, n_ar_confidence, seed
            )
            for name, result in results.items():
                done[name].append(result)
    return {name: done[name] for name in metrics}


# -- the replacements ------------------------------------------------------------------------------
def paired_bs_test(
    baseline_info: Dict[str, Tuple[Any, Any]],
    sys_name: str,
    hypotheses: Sequence[str],
    references: Any,
    metrics: Dict[str, Any],
    n_samples: int = 1000,
    n_ar_confidence: int = -1,
    seed: Optional[int] = None,
) -> Tuple[str, Dict[str, Any]]:
    """sacrebleu's ``_paired_bs_test`` (one system), resampled by turbobleu."""
    return _one_system(
        "bs", baseline_info, sys_name, hypotheses, references, metrics, n_samples, -1, seed
    )


def paired_ar_test(
    baseline_info: Dict[str, Tuple[Any, Any]],
    sys_name: str,
    hypotheses: Sequence[str],
    references: Any,
    metrics: Dict[str, Any],
    n_samples: int = 10000,
    n_ar_confidence: int = -1,
    seed: Optional[int] = None,
) -> Tuple[str, Dict[str, Any]]:
    """sacrebleu's ``_paired_ar_test`` (one system), resampled by turbobleu."""
    return _one_system(
        "ar",
        baseline_info,
        sys_name,
        hypotheses,
        references,
        metrics,
        n_samples,
        n_ar_confidence,
        seed,
    )


def _one_system(
    kind: str,
    baseline_info: Dict[str, Tuple[Any, Any]],
    sys_name: str,
    hypotheses: Sequence[str],
    references: Any,
    metrics: Dict[str, Any],
    n_samples: int,
    n_ar_confidence: int,
    seed: Optional[int],
) -> Tuple[str, Dict[str, Any]]:
    if seed == 0:
        # sacrebleu seeds default_rng(0) here; turbobleu's paired tests read 0 as unseeded
        name = "_paired_bs_test" if kind == "bs" else "_paired_ar_test"
        return _functions[name][1](
            baseline_info, sys_name, hypotheses, references, metrics, n_samples, n_ar_confidence, 0
        )
    found = _by_metric(
        kind,
        baseline_info,
        [(sys_name, hypotheses)],
        references,
        metrics,
        n_samples,
        n_ar_confidence,
        seed,
    )
    return sys_name, {name: results[0] for name, results in found.items()}


def paired_test_call(self: Any) -> Tuple[Dict[str, Any], Dict[str, List[Any]]]:
    """sacrebleu's ``PairedTest.__call__``: each metric's test over every system at once."""
    kinds = {
        id(_functions["_paired_bs_test"][0]): "bs",
        id(_functions["_paired_ar_test"][0]): "ar",
    }
    kind = kinds.get(id(self._fn))
    if kind is None:  # a test function of the user's: sacrebleu's own loop runs it
        return _original_call(self)
    scores: Dict[str, List[Any]] = {"System": [ns[0] for ns in self.named_systems]}
    for name, (_, result) in self._baseline_info.items():
        scores[name] = [result]
    found = _by_metric(
        kind,
        self._baseline_info,
        list(self.named_systems[1:]),
        self.references,
        self.metrics,
        self.n_samples,
        self.n_ar_confidence,
        self._seed if self._seed else None,
    )
    for name, results in found.items():
        scores[name].extend(results)
    return self._signatures, scores


def bootstrap_resample(stats: Any, metric: Any, n_samples: int = 1000) -> Tuple[str, List[Any]]:
    """sacrebleu's ``_bootstrap_resample``: the same resamples (``SACREBLEU_SEED``) scored by
    sacrebleu's ``metric._compute_score_from_stats`` on the same float32 sums, which turbobleu
    computes from resample counts instead of gathering every resample's rows."""
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    sums = None
    if resampler_of(metric) is not None:
        sums = _resample_sums(stats, n_samples, seed)
    if sums is None:
        return _functions["_bootstrap_resample"][1](stats, metric, n_samples)
    return str(seed).lower(), [metric._compute_score_from_stats(row) for row in sums]


def _resample_sums(stats: Any, n_samples: int, seed: str) -> Optional[Any]:
    """The float32 sums ``np.array(stats, dtype='float32')[idxs].sum(1)`` of sacrebleu's
    resamples ``idxs`` (drawn from ``default_rng(seed)``), or None where they could round (then
    the order of sacrebleu's additions matters and its code runs).

    Every float32 row value times k (a power of two) an integer, and every resample's sums of
    them below 2**24 / k: then every partial sum is exact in any order.
    """
    import numpy as np

    from turbobleu.significance import _CHUNK_ELEMENTS, F32_EXACT, _draw_counts

    try:
        rows = np.array(stats, dtype="float32")
    except (TypeError, ValueError):
        return None
    if rows.ndim != 2 or len(rows) == 0 or n_samples < 1 or not np.isfinite(rows).all():
        return None
    scale = 1
    while scale <= 64 and not np.array_equal(rows * scale, np.trunc(rows * scale)):
        scale *= 2
    bound = len(rows) * float(np.abs(rows).max(initial=0)) * scale
    if scale > 64 or bound >= F32_EXACT:
        return None
    rng = np.random.default_rng(None if seed.lower() == "none" else int(seed))
    n_segments = len(rows)
    block = max(1, min(n_samples, _CHUNK_ELEMENTS // n_segments))
    counts = np.empty((block, n_segments), dtype=np.float32)
    sums = np.empty((n_samples, rows.shape[1]), dtype=np.float32)
    for done in range(0, n_samples, block):
        k = min(block, n_samples - done)
        _draw_counts(rng, n_segments, counts[:k], keep_indices=False)
        sums[done : done + k] = counts[:k] @ rows
    return sums


def _original_call(self: Any) -> Any:
    return _saved_call[0](self)


_saved_call: List[Any] = []

# The code that replaces each function's (the same signature; the defaults stay the function's).
_TRAMPOLINES: Dict[str, Callable[..., Any]] = {}


def _paired_bs_trampoline(
    baseline_info: Any,
    sys_name: Any,
    hypotheses: Any,
    references: Any,
    metrics: Any,
    n_samples: Any = 1000,
    n_ar_confidence: Any = -1,
    seed: Any = None,
) -> Any:
    from turbobleu.sacrebleu._patch_significance import paired_bs_test

    return paired_bs_test(
        baseline_info, sys_name, hypotheses, references, metrics, n_samples, n_ar_confidence, seed
    )


def _paired_ar_trampoline(
    baseline_info: Any,
    sys_name: Any,
    hypotheses: Any,
    references: Any,
    metrics: Any,
    n_samples: Any = 10000,
    n_ar_confidence: Any = -1,
    seed: Any = None,
) -> Any:
    from turbobleu.sacrebleu._patch_significance import paired_ar_test

    return paired_ar_test(
        baseline_info, sys_name, hypotheses, references, metrics, n_samples, n_ar_confidence, seed
    )


def _bootstrap_trampoline(stats: Any, metric: Any, n_samples: Any = 1000) -> Any:
    from turbobleu.sacrebleu._patch_significance import bootstrap_resample

    return bootstrap_resample(stats, metric, n_samples)


_TRAMPOLINES.update(
    _paired_bs_test=_paired_bs_trampoline,
    _paired_ar_test=_paired_ar_trampoline,
    _bootstrap_resample=_bootstrap_trampoline,
)


def apply(set_attr: SetAttr, set_code: Callable[[Any, Any], None]) -> None:
    """Patch ``sacrebleu.significance``: ``set_attr(owner, name, value)`` and
    ``set_code(function, code)`` record every replacement for ``unpatch`` (which calls
    ``restore``)."""
    module = _significance()
    for name in _FUNCTIONS:
        function = getattr(module, name)
        # a copy that keeps sacrebleu's code, for what turbobleu leaves to it
        original = types.FunctionType(
            function.__code__,
            function.__globals__,
            function.__name__,
            function.__defaults__,
            function.__closure__,
        )
        original.__kwdefaults__ = function.__kwdefaults__
        _functions[name] = (function, original)
        set_code(function, _TRAMPOLINES[name].__code__)
    _saved_call[:] = [module.PairedTest.__call__]
    set_attr(module.PairedTest, "__call__", paired_test_call)


def restore() -> None:
    """Forget the saved originals (``unpatch`` has put their code back)."""
    _functions.clear()
    _saved_call.clear()
