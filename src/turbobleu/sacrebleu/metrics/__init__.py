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


def __getattr__(name: str) -> Any:
    raise AttributeError(f"module 'turbobleu.sacrebleu.metrics' has no attribute {name!r}")
