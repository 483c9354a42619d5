"""The installed sacrebleu, for what the drop-in forwards to it (test sets and downloads).

The drop-in is often installed as ``sys.modules["sacrebleu"]`` (``import turbobleu.sacrebleu as
sacrebleu`` plus an alias, or a test that swaps it in), so ``import sacrebleu`` cannot be trusted
to return the real package. The real one is found on ``sys.path`` by the path finder (which never
reads ``sys.modules``) and, unless that very package is already imported, loaded under a private
name; sacrebleu imports its own modules relatively, so they load under that name too. Nothing
here runs before a forwarded name is first used.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Optional

# The name the real package is loaded under when "sacrebleu" is not the real one.
PRIVATE_NAME = "_turbobleu_real_sacrebleu"

_lock = threading.Lock()


class SacrebleuNotInstalled(ImportError):
    """A forwarded name was used without sacrebleu installed."""


def missing(what: str) -> SacrebleuNotInstalled:
    """The error for ``what`` (a forwarded name) when sacrebleu is not installed."""
    return SacrebleuNotInstalled(
        f"turbobleu.sacrebleu forwards {what} to the real sacrebleu (test sets and downloads "
        "are not reimplemented), and sacrebleu is not installed: pip install sacrebleu",
        name="sacrebleu",
    )


def _origin(module: ModuleType) -> Optional[str]:
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None)
    return os.path.realpath(origin) if origin else None


def package(what: str = "this name") -> ModuleType:
    """The real sacrebleu package; SacrebleuNotInstalled (an ImportError) naming ``what`` when it
    is not installed."""
    loaded = sys.modules.get(PRIVATE_NAME)
    if loaded is not None:
        return loaded
    with _lock:
        loaded = sys.modules.get(PRIVATE_NAME)
        if loaded is not None:
            return loaded
        spec = importlib.machinery.PathFinder.find_spec("sacrebleu")
        if spec is None or spec.origin is None or spec.submodule_search_locations is None:
            raise missing(what)
        origin = os.path.realpath(spec.origin)
        current = sys.modules.get("sacrebleu")
        if current is not None and _origin(current) == origin:
            return current  # the real package, imported by the user: share it
        private = importlib.util.spec_from_file_location(
            PRIVATE_NAME, origin, submodule_search_locations=list(spec.submodule_search_locations)
        )
        if private is None or private.loader is None:  # (a file location always has a loader)
            raise missing(what)
        module = importlib.util.module_from_spec(private)
        sys.modules[PRIVATE_NAME] = module
        try:
            private.loader.exec_module(module)
        except BaseException:
            for name in [n for n in sys.modules if n.split(".")[0] == PRIVATE_NAME]:
                del sys.modules[name]
            raise
        return module


def submodule(name: str, what: str = "this name") -> ModuleType:
    """The real sacrebleu's module ``name`` (e.g. ``"utils"``, ``"dataset"``)."""
    return importlib.import_module(f"{package(what).__name__}.{name}")


def forwarded(module: str, name: str, qualified: str) -> object:
    """Attribute ``name`` of the real sacrebleu's ``module`` ("" for the package)."""
    real = submodule(module, qualified) if module else package(qualified)
    return getattr(real, name)
