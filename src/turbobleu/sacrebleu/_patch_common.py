"""What the BLEU and chrF parts of ``patch("sacrebleu")`` share: replacing sacrebleu's
functions, routing a metric class's statistics and reference cache to turbobleu (for unmodified
classes), the stand-in for sacrebleu's reference cache, and the ``__init__`` that hands
``references=`` to turbobleu."""

from __future__ import annotations

import importlib
import inspect

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Sequence, Tuple

    SetAttr = Callable[[Any, str, Any], None]


def replace_functions(set_attr: SetAttr, turbo_module: Any, names: Sequence[str]) -> None:
    """sacrebleu's functions ``names``, in ``sacrebleu`` and ``sacrebleu.compat`` where they
    exist there, become ``turbo_module``'s."""
    for module_name in ("sacrebleu", "sacrebleu.compat"):
        module = importlib.import_module(module_name)
        for name in names:
            if hasattr(module, name):
                set_attr(module, name, getattr(turbo_module, name))


def patch_statistics(
    set_attr: SetAttr,
    cls: Any,
    engine_names: Sequence[str],
    turbo: Callable[[Any], Any],
    prepare: Callable[[Any, Any, Any], Any],
    settings: Callable[[Any], Tuple[Any, ...]],
    setting_names: Sequence[str],
    statistics: Callable[[Any, Any, Any, Any], List[List[int]]],
) -> None:
    """Make sacrebleu's metric class ``cls`` get its statistics and reference cache from
    turbobleu, for objects whose class keeps sacrebleu's methods ``engine_names``:

    - ``turbo(metric)``: what turbobleu computes with for ``metric`` (None: sacrebleu's code);
    - ``prepare(metric, turbo, references)``: references prepared by turbobleu, with their
      ``num_refs`` (None: sacrebleu caches them);
    - ``settings(metric)``: what a cache depends on (a changed one leaves it to sacrebleu), and
      ``setting_names`` the attributes that sacrebleu's own cache is built with;
    - ``statistics(metric, turbo, hypotheses, references)``: the rows (no ``references``: from
      the cache, ``metric._ref_cache.prepared``).
    """
    engine = {name: getattr(cls, name) for name in engine_names}
    base = importlib.import_module("sacrebleu.metrics.base").Metric
    original_init = cls.__init__
    original_extract = base._extract_corpus_statistics
    original_cache = base._cache_references

    def turbo_of(metric: Any) -> Any:
        return turbo(metric) if standard(metric, engine) else None

    def cache_references(self: Any, references: Any) -> None:
        found = turbo_of(self)
        prepared = None if found is None else prepare(self, found, references)
        if prepared is None:
            self._ref_cache = self._cache_references(references)
            return
        build = _construction_time_cache(self, setting_names, original_cache, references)
        self._ref_cache = RefCache(prepared, settings(self), build)
        self.num_refs = prepared.num_refs

    def _extract_corpus_statistics(self: Any, hypotheses: Any, references: Any) -> Any:
        found = turbo_of(self)
        if found is None:
            return original_extract(self, hypotheses, references)
        if not references:
            cache = self._ref_cache
            if not isinstance(cache, RefCache) or cache.settings != settings(self):
                return original_extract(self, hypotheses, references)
        return statistics(self, found, hypotheses, references)

    _extract_corpus_statistics.__doc__ = original_extract.__doc__
    set_attr(cls, "__init__", init_taking_references(original_init, cache_references))
    set_attr(cls, "_extract_corpus_statistics", _extract_corpus_statistics)


def _construction_time_cache(
    metric: Any, names: Sequence[str], original_cache: Callable, references: Any
) -> Callable[[], List[Any]]:
    """A builder of sacrebleu's own cache as it would have been built now, with the values of
    the attributes ``names`` of this time, should they have been changed since."""
    saved = [getattr(metric, name) for name in names]

    def build() -> List[Any]:
        now = [getattr(metric, name) for name in names]
        _assign(metric, names, saved)
        try:
            return original_cache(metric, references)
        finally:
            _assign(metric, names, now)

    return build


def _assign(metric: Any, names: Sequence[str], values: Sequence[Any]) -> None:
    for name, value in zip(names, values):
        setattr(metric, name, value)


def standard(metric: Any, engine: dict) -> bool:
    """Whether ``metric``'s class still has sacrebleu's own methods ``engine`` (name -> method):
    a subclass overriding one keeps sacrebleu's code."""
    cls = type(metric)
    return all(getattr(cls, name, None) is method for name, method in engine.items())


# The methods that turn a metric's statistics into scores (and the rows it resamples): a class
# overriding one keeps sacrebleu's significance code (see ``_patch_significance``).
SCORING = ("_compute_score_from_stats", "_aggregate_and_compute", "_extract_corpus_statistics")


def scores_as_stock(metric: Any, cls: Any) -> bool:
    """Whether ``metric`` is a ``cls`` (sacrebleu's class) that scores its statistics with
    ``cls``'s own methods (``SCORING``), as they are now (patched or not)."""
    return isinstance(metric, cls) and standard(
        metric, {name: getattr(cls, name) for name in SCORING}
    )


def init_taking_references(
    original_init: Callable[..., None], cache_references: Callable[[Any, Any], None]
) -> Callable[..., None]:
    """A metric class's ``__init__`` that runs sacrebleu's without ``references`` and then
    gives them to ``cache_references(self, references)``."""
    signature = inspect.signature(original_init)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        references = bound.arguments.pop("references", None)  # cached by turbobleu instead
        original_init(*bound.args, **bound.kwargs)
        if references is not None:
            cache_references(self, references)

    __init__.__wrapped__ = original_init  # type: ignore[attr-defined]
    __init__.__doc__ = original_init.__doc__
    return __init__


class RefCache(list):
    """Stands in for sacrebleu's reference cache of a BLEU (or CHRF) object created while
    patched.

    It holds turbobleu's prepared references (for chrF: a turbobleu CHRF holding them); if
    sacrebleu's own code ever reads it (after ``unpatch()``), it turns into sacrebleu's cache,
    built from the original references.
    """

    def __init__(
        self,
        prepared: Any,
        settings: Tuple[Any, ...],
        build: Callable[[], List[Any]],
    ) -> None:
        super().__init__()
        self.prepared = prepared
        self.settings = settings
        self._build = build
        self._built = False

    def _materialize(self) -> None:
        if not self._built:
            self._built = True
            self.extend(self._build())

    def __bool__(self) -> bool:
        return True

    def __iter__(self):
        self._materialize()
        return super().__iter__()

    def __len__(self) -> int:
        self._materialize()
        return super().__len__()

    def __getitem__(self, index: Any) -> Any:
        self._materialize()
        return super().__getitem__(index)


def patch_metric(
    set_attr: SetAttr,
    turbo_module: Any,
    functions: Sequence[str],
    class_path: Tuple[str, str],
    engine_names: Sequence[str],
    turbo: Callable[..., Any],
    settings: Callable[[Any], Tuple[Any, ...]],
    setting_names: Sequence[str],
    statistics: Callable[[Any, Any, Any, Any], List[Any]],
) -> None:
    """A sacrebleu metric other than BLEU patched: its functions ``functions`` become
    ``turbo_module``'s, and its class (``class_path``: module, name) gets its statistics and
    reference cache from ``turbo(metric, references=None)``, a turbobleu metric with the same
    options (None: sacrebleu's code); see ``patch_statistics`` for the rest."""
    replace_functions(set_attr, turbo_module, functions)
    patch_statistics(
        set_attr,
        getattr(importlib.import_module(class_path[0]), class_path[1]),
        engine_names,
        turbo,
        lambda metric, _, references: turbo(metric, references),
        settings,
        setting_names,
        statistics,
    )
