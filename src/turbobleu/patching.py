"""``turbobleu.patch(name)``: make code that calls another BLEU library run turbobleu instead.

A patch is registered under a name with the module that holds the library's functions, a factory
for the replacements (called on first use, so that registering imports nothing) and optionally
other modules that re-export them. ``patch(name)`` imports the library module, then, in it and in
the re-exporting modules, rebinds every attribute that holds one of the original objects (under
any name: ``nltk.bleu`` is NLTK's ``sentence_bleu``) to its replacement. ``unpatch(name)`` puts
the originals back where the replacements are still in place.

Code that looks functions up through the module at call time
(``import nltk.translate.bleu_score as bs; bs.sentence_bleu(...)``) gets the fast versions; names
bound before the patch by ``from ... import ...`` keep the originals, so patch first.

Registered here: ``"nltk"``. Other modules add theirs with :func:`register_patch`.
"""
from __future__ import annotations

import importlib
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Dict, Iterator, List, Mapping, Tuple

__all__ = ["available_patches", "is_patched", "patch", "patched", "register_patch", "unpatch"]


@dataclass(frozen=True)
class _Spec:
    module: str
    replacements: Callable[[], Mapping[str, Any]]
    also_in: Tuple[str, ...]


@dataclass
class _Change:
    module: ModuleType
    attribute: str
    original: Any
    replacement: Any


_REGISTRY: Dict[str, _Spec] = {}
_ACTIVE: Dict[str, List[_Change]] = {}
_LOCK = threading.RLock()


def register_patch(name: str, module: str, replacements: Callable[[], Mapping[str, Any]],
                   also_in: Tuple[str, ...] = ()) -> None:
    """Register patch ``name``: ``replacements()`` maps attribute names of ``module`` to the
    objects that replace them; ``also_in`` names modules that re-export them (patched when they
    are imported at patch time)."""
    if not isinstance(name, str) or not name:
        raise TypeError("register_patch: name must be a non-empty str")
    if not callable(replacements):
        raise TypeError("register_patch: replacements must be a callable returning a mapping")
    with _LOCK:
        if name in _ACTIVE:
            raise RuntimeError(f"patch {name!r} is active; unpatch it before registering again")
        _REGISTRY[name] = _Spec(module, replacements, tuple(also_in))


def available_patches() -> List[str]:
    return sorted(_REGISTRY)


def is_patched(name: str) -> bool:
    return name in _ACTIVE


def _spec(name: str) -> _Spec:
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown patch {name!r}; available: {available_patches()}") from None


def patch(name: str) -> None:
    """Replace the library's BLEU functions with turbobleu's (idempotent)."""
    spec = _spec(name)
    with _LOCK:
        if name in _ACTIVE:
            return
        try:
            source = importlib.import_module(spec.module)
        except ImportError as exc:
            raise ImportError(f"cannot patch {name!r}: {spec.module} is not importable "
                              f"({exc})") from exc
        replacements = dict(spec.replacements())
        missing = [attr for attr in replacements if not hasattr(source, attr)]
        if missing:
            raise AttributeError(f"cannot patch {name!r}: {spec.module} has no {missing}; "
                                 "this version of the library is not supported")
        # Original object (by identity) -> its replacement.
        swaps = {id(getattr(source, attr)): (getattr(source, attr), new)
                 for attr, new in replacements.items()}
        modules = [source] + [sys.modules[m] for m in spec.also_in if m in sys.modules]
        changes: List[_Change] = []
        for module in modules:
            for attribute, value in list(vars(module).items()):
                swap = swaps.get(id(value))
                if swap is not None and swap[0] is value:
                    changes.append(_Change(module, attribute, value, swap[1]))
        for change in changes:
            setattr(change.module, change.attribute, change.replacement)
        _ACTIVE[name] = changes


def unpatch(name: str) -> None:
    """Put the originals back (where a replacement is still in place); a no-op if not patched."""
    _spec(name)
    with _LOCK:
        for change in reversed(_ACTIVE.pop(name, [])):
            if getattr(change.module, change.attribute, None) is change.replacement:
                setattr(change.module, change.attribute, change.original)


@contextmanager
def patched(name: str) -> Iterator[None]:
    """``with turbobleu.patched("nltk"): ...`` patches for the block only (if it was not
    patched already)."""
    was_patched = is_patched(name)
    patch(name)
    try:
        yield
    finally:
        if not was_patched:
            unpatch(name)


def _nltk_replacements() -> Dict[str, Any]:
    from . import nltk as fast
    return {name: getattr(fast, name) for name in (
        "sentence_bleu", "corpus_bleu", "modified_precision", "closest_ref_length",
        "brevity_penalty", "SmoothingFunction", "Fraction")}


register_patch("nltk", "nltk.translate.bleu_score", _nltk_replacements,
               also_in=("nltk.translate", "nltk"))
