"""``turbobleu.patch(name)``: make code that calls another BLEU library run turbobleu instead.

A registry maps a library name to how it is patched. Two ways to register:

- :func:`register_patch` with ``apply``/``revert``/``is_active`` callables, for a library whose
  patch is more than rebinding names (``turbobleu.sacrebleu._patch`` has exactly these
  three functions: ``register_patch("sacrebleu", m.patch, m.unpatch, m.is_patched)``);
- :func:`register_attribute_patch` with the module that holds the library's functions, a factory
  for their replacements (called on first use, so registering imports nothing) and the modules
  that re-export them. Patching imports the library module, then, in it and in the re-exporting
  modules, rebinds every attribute that holds one of the original objects (under any name:
  ``nltk.bleu`` is NLTK's ``sentence_bleu``) to its replacement; unpatching puts the originals
  back where the replacements are still in place.

Code that looks functions up through the module at call time
(``import nltk.translate.bleu_score as bs; bs.sentence_bleu(...)``) gets the fast versions; names
bound before the patch by ``from ... import ...`` keep the originals, so patch first.

Registered here: ``"nltk"`` (``bleu_score``'s and ``gleu_score``'s functions),
``"torchmetrics"`` (its BLEU classes and functions, which live in several modules: a group of
attribute patches) and ``"evaluate"`` (``evaluate.load`` returns ``turbobleu.evaluate``'s
modules for ``bleu``, ``chrf``, ``ter``, ``sacrebleu`` and ``google_bleu``, also as
``evaluate-metric/<name>``, without the Hub, and passes any other name, a ``module_type`` other
than ``"metric"`` and ``num_process > 1`` to the original) and ``"pycocoevalcap"``
(``pycocoevalcap.bleu.bleu.Bleu`` and the name ``pycocoevalcap.eval`` imported);
``"sacrebleu"`` is registered by ``turbobleu.sacrebleu._patch`` (imported the first time that
name is used).
"""

from __future__ import annotations

import importlib
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterator, List, Mapping, Tuple

__all__ = [
    "available_patches",
    "is_patched",
    "patch",
    "patched",
    "register_attribute_patch",
    "register_patch",
    "unpatch",
]


@dataclass(frozen=True)
class _Entry:
    apply: Callable[[], None]
    revert: Callable[[], None]
    is_active: Callable[[], bool]


_REGISTRY: Dict[str, _Entry] = {}
_LOCK = threading.RLock()
# Patches that other turbobleu modules register when imported; imported on first use of the name.
_PROVIDERS = {"sacrebleu": "turbobleu.sacrebleu._patch"}


def register_patch(
    name: str, apply: Callable[[], None], revert: Callable[[], None], is_active: Callable[[], bool]
) -> None:
    """Register patch ``name``. ``apply()`` patches (and must be idempotent), ``revert()`` undoes
    it (a no-op when not patched), ``is_active()`` says whether it is in place."""
    if not isinstance(name, str) or not name:
        raise TypeError("register_patch: name must be a non-empty str")
    for what, fn in (("apply", apply), ("revert", revert), ("is_active", is_active)):
        if not callable(fn):
            raise TypeError(f"register_patch: {what} must be callable")
    with _LOCK:
        old = _REGISTRY.get(name)
        if old is not None and old.is_active():
            raise RuntimeError(f"patch {name!r} is active; unpatch it before registering again")
        _REGISTRY[name] = _Entry(apply, revert, is_active)


@dataclass
class _Change:
    module: ModuleType
    attribute: str
    original: Any
    replacement: Any


@dataclass
class _AttributePatch:
    """Rebinds a library's functions (and every alias of them) to replacements."""

    module: str
    replacements: Callable[[], Mapping[str, Any]]
    also_in: Tuple[str, ...]
    changes: List[_Change] = field(default_factory=list)
    active: bool = False

    def apply(self) -> None:
        if self.active:
            return
        try:
            source = importlib.import_module(self.module)
        except ImportError as exc:
            raise ImportError(f"cannot patch {self.module}: it is not importable ({exc})") from exc
        replacements = dict(self.replacements())
        missing = [attr for attr in replacements if not hasattr(source, attr)]
        if missing:
            raise AttributeError(
                f"cannot patch {self.module}: it has no {missing}; this version "
                "of the library is not supported"
            )
        # id of an original object -> (the original, its replacement)
        swaps = {
            id(getattr(source, attr)): (getattr(source, attr), new)
            for attr, new in replacements.items()
        }
        modules = [source] + [sys.modules[m] for m in self.also_in if m in sys.modules]
        changes = []
        for module in modules:
            for attribute, value in list(vars(module).items()):
                swap = swaps.get(id(value))
                if swap is not None and swap[0] is value:
                    changes.append(_Change(module, attribute, value, swap[1]))
        for change in changes:
            setattr(change.module, change.attribute, change.replacement)
        self.changes, self.active = changes, True

    def revert(self) -> None:
        for change in reversed(self.changes):
            if getattr(change.module, change.attribute, None) is change.replacement:
                setattr(change.module, change.attribute, change.original)
        self.changes, self.active = [], False

    def is_active(self) -> bool:
        return self.active


def register_attribute_patch(
    name: str,
    module: str,
    replacements: Callable[[], Mapping[str, Any]],
    also_in: Tuple[str, ...] = (),
) -> None:
    """Register patch ``name`` that rebinds the attributes of ``module`` named by
    ``replacements()`` (and their aliases in ``module`` and the ``also_in`` modules)."""
    if not callable(replacements):
        raise TypeError(
            "register_attribute_patch: replacements must be a callable returning a "
            "mapping of attribute names to replacements"
        )
    spec = _AttributePatch(module, replacements, tuple(also_in))
    register_patch(name, spec.apply, spec.revert, spec.is_active)


def available_patches() -> List[str]:
    return sorted(set(_REGISTRY) | set(_PROVIDERS))


def _entry(name: str) -> _Entry:
    if isinstance(name, str) and name not in _REGISTRY and name in _PROVIDERS:
        # The module registers itself when imported; if it was imported earlier without doing so,
        # its patch/unpatch/is_patched functions are registered here.
        module = importlib.import_module(_PROVIDERS[name])
        if name not in _REGISTRY:
            register_patch(name, module.patch, module.unpatch, module.is_patched)
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown patch {name!r}; available: {available_patches()}") from None


def is_patched(name: str) -> bool:
    return _entry(name).is_active()


def patch(name: str) -> None:
    """Make library ``name`` use turbobleu (idempotent)."""
    entry = _entry(name)
    with _LOCK:
        entry.apply()


def unpatch(name: str) -> None:
    """Undo :func:`patch` (a no-op when ``name`` is not patched)."""
    entry = _entry(name)
    with _LOCK:
        entry.revert()


@contextmanager
def patched(name: str) -> Iterator[None]:
    """``with patched("nltk"): ...`` patches for the block only (unless it was patched already)."""
    was_patched = is_patched(name)
    patch(name)
    try:
        yield
    finally:
        if not was_patched:
            unpatch(name)


def _nltk_replacements() -> Dict[str, Any]:
    from turbobleu import nltk as fast

    return {
        name: getattr(fast, name)
        for name in (
            "sentence_bleu",
            "corpus_bleu",
            "modified_precision",
            "closest_ref_length",
            "brevity_penalty",
            "SmoothingFunction",
            "Fraction",
        )
    }


def _nltk_gleu_replacements() -> Dict[str, Any]:
    from turbobleu import gleu as fast

    return {"sentence_gleu": fast.sentence_gleu, "corpus_gleu": fast.corpus_gleu}


_NLTK_BLEU = _AttributePatch(
    "nltk.translate.bleu_score", _nltk_replacements, also_in=("nltk.translate", "nltk")
)
# (nltk.translate re-exports sentence_gleu as ``gleu``)
_NLTK_GLEU = _AttributePatch(
    "nltk.translate.gleu_score", _nltk_gleu_replacements, also_in=("nltk.translate", "nltk")
)


def _patch_nltk() -> None:
    _NLTK_BLEU.apply()
    try:
        _NLTK_GLEU.apply()
    except BaseException:
        _NLTK_BLEU.revert()
        raise


def _unpatch_nltk() -> None:
    _NLTK_GLEU.revert()
    _NLTK_BLEU.revert()


register_patch("nltk", _patch_nltk, _unpatch_nltk, lambda: _NLTK_BLEU.active)


def _evaluate_replacements() -> Dict[str, Any]:
    """``evaluate.load`` that returns turbobleu's metric modules for the names they cover."""
    import functools

    import evaluate.loading

    from turbobleu import evaluate as fast

    original = evaluate.loading.load

    @functools.wraps(original)
    def load(
        path: Any, config_name: Any = None, module_type: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        # (evaluate's positional order after module_type: process_id, num_process, ...)
        num_process = args[1] if len(args) > 1 else kwargs.get("num_process", 1)
        name = fast.metric_name(path)
        if name is None or module_type not in (None, "metric") or num_process != 1:
            # another module, or evaluate's distributed gathering: evaluate's own loading
            return original(path, config_name, module_type, *args, **kwargs)
        return fast.load(name)

    return {"load": load}


register_attribute_patch(
    "evaluate",
    "evaluate.loading",
    _evaluate_replacements,
    also_in=("evaluate", "evaluate.evaluator.base", "evaluate.commands.evaluate_cli"),
)


@dataclass
class _PatchGroup:
    """Several attribute patches applied and reverted as one (a library whose functions live in
    several modules); a failure while applying reverts the parts already applied."""

    parts: Tuple[_AttributePatch, ...]

    def apply(self) -> None:
        done: List[_AttributePatch] = []
        try:
            for part in self.parts:
                part.apply()
                done.append(part)
        except BaseException:
            for part in reversed(done):
                part.revert()
            raise

    def revert(self) -> None:
        for part in reversed(self.parts):
            part.revert()

    def is_active(self) -> bool:
        return any(part.is_active() for part in self.parts)


def _torchmetrics_replacements(**names: str) -> Callable[[], Dict[str, Any]]:
    """The factory of ``{torchmetrics name: turbobleu.torchmetrics._metrics.<name>}``."""

    def replacements() -> Dict[str, Any]:
        fast = importlib.import_module("turbobleu.torchmetrics._metrics")
        return {theirs: getattr(fast, ours) for theirs, ours in names.items()}

    return replacements


# torchmetrics' BLEU classes and functions, where they are defined, and the modules that
# re-export them: torchmetrics.text / .functional.text, and the root names (torchmetrics.BLEUScore
# is a subclass that warns about the import path: replaced by one of turbobleu's; the root
# functional.bleu_score wrapper calls bleu_score through its module, which is rebound).
_TORCHMETRICS_FUNCTIONAL = (
    "torchmetrics.functional.text",
    "torchmetrics.functional.text._deprecated",
)
_TORCHMETRICS = _PatchGroup(
    (
        _AttributePatch(
            "torchmetrics.text.bleu",
            _torchmetrics_replacements(BLEUScore="BLEUScore"),
            ("torchmetrics.text",),
        ),
        _AttributePatch(
            "torchmetrics.text.sacre_bleu",
            _torchmetrics_replacements(SacreBLEUScore="SacreBLEUScore"),
            ("torchmetrics.text",),
        ),
        _AttributePatch(
            "torchmetrics.text._deprecated",
            _torchmetrics_replacements(
                _BLEUScore="_RootImportBLEUScore",
                _SacreBLEUScore="_RootImportSacreBLEUScore",
            ),
            ("torchmetrics",),
        ),
        _AttributePatch(
            "torchmetrics.functional.text.bleu",
            _torchmetrics_replacements(bleu_score="bleu_score"),
            _TORCHMETRICS_FUNCTIONAL,
        ),
        _AttributePatch(
            "torchmetrics.functional.text.sacre_bleu",
            _torchmetrics_replacements(sacre_bleu_score="sacre_bleu_score"),
            _TORCHMETRICS_FUNCTIONAL,
        ),
    )
)
register_patch("torchmetrics", _TORCHMETRICS.apply, _TORCHMETRICS.revert, _TORCHMETRICS.is_active)


def _pycocoevalcap_replacements() -> Dict[str, Any]:
    from turbobleu.pycocoevalcap import Bleu

    return {"Bleu": Bleu}


# pycocoevalcap.bleu.bleu.Bleu, and the name COCOEvalCap's module bound with
# ``from .bleu.bleu import Bleu``.
_PYCOCOEVALCAP = _AttributePatch(
    "pycocoevalcap.bleu.bleu", _pycocoevalcap_replacements, ("pycocoevalcap.eval",)
)


def _unpatch_pycocoevalcap() -> None:
    """Unpatch, and restore ``pycocoevalcap.eval.Bleu`` also when that module was first imported
    while the patch was on (its import then bound turbobleu's class, which no change recorded)."""
    _PYCOCOEVALCAP.revert()
    fast: Any = sys.modules.get("turbobleu.pycocoevalcap")
    source: Any = sys.modules.get("pycocoevalcap.bleu.bleu")
    evaluation: Any = sys.modules.get("pycocoevalcap.eval")
    if fast is None or source is None or evaluation is None:
        return
    if getattr(evaluation, "Bleu", None) is fast.Bleu:
        evaluation.Bleu = source.Bleu


register_patch(
    "pycocoevalcap", _PYCOCOEVALCAP.apply, _unpatch_pycocoevalcap, _PYCOCOEVALCAP.is_active
)
