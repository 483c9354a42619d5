"""``sacrebleu.metrics``: the BLEU, chrF and TER metric classes and their scores."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from turbobleu.sacrebleu.metrics.bleu import BLEU, BLEUScore
from turbobleu.sacrebleu.metrics.chrf import CHRF, CHRFScore
from turbobleu.sacrebleu.metrics.ter import TER, TERScore

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "TER", "TERScore", "METRICS"]


# Its other modules, as attributes on first use (as after sacrebleu's own import).
_MODULES = ("base", "helpers", "lib_ter")


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'turbobleu.sacrebleu.metrics' has no attribute {name!r}")
