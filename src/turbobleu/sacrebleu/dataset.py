"""``sacrebleu.dataset``: sacrebleu's test sets (``DATASETS``, ``SUBSETS``, ``COUNTRIES``,
``DOMAINS``, the dataset classes), forwarded to the real sacrebleu.

Importing this module loads the installed sacrebleu (under a private name when
``sys.modules["sacrebleu"]`` is the drop-in; see ``_real``) and raises ImportError saying
``pip install sacrebleu`` when it is not installed. Every attribute, and the modules of
sacrebleu's ``dataset`` package (``dataset.base``, ``dataset.wmt_xml``, ...), are the real ones.
"""

from __future__ import annotations

import importlib

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu import _real

if TYPE_CHECKING:
    from typing import Any, List

_dataset = _real.submodule("dataset", "turbobleu.sacrebleu.dataset")


def __getattr__(name: str) -> Any:
    try:
        return getattr(_dataset, name)
    except AttributeError:
        pass
    if not name.startswith("_"):  # one of the package's modules, not imported by it
        try:
            return importlib.import_module(f"{_dataset.__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{_dataset.__name__}.{name}":
                raise
    raise AttributeError(f"module 'turbobleu.sacrebleu.dataset' has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | {n for n in dir(_dataset) if not n.startswith("__")})
