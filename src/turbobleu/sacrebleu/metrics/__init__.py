"""``sacrebleu.metrics``: the BLEU and chrF metric classes and their scores."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from turbobleu.sacrebleu.metrics.bleu import BLEU, BLEUScore
from turbobleu.sacrebleu.metrics.chrf import CHRF, CHRFScore

METRICS = {"BLEU": BLEU, "CHRF": CHRF}

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "METRICS"]


def __getattr__(name: str) -> Any:
    if name in ("TER", "TERScore"):
        raise AttributeError(
            f"turbobleu.sacrebleu.metrics provides BLEU and chrF only; use sacrebleu's "
            f"{name} (from sacrebleu.metrics import {name})"
        )
    raise AttributeError(f"module 'turbobleu.sacrebleu.metrics' has no attribute {name!r}")
