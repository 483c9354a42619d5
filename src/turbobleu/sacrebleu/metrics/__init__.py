"""``sacrebleu.metrics``: the BLEU metric class and its score."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from turbobleu.sacrebleu.metrics.bleu import BLEU, BLEUScore

METRICS = {"BLEU": BLEU}

__all__ = ["BLEU", "BLEUScore", "METRICS"]


def __getattr__(name: str) -> Any:
    if name in ("CHRF", "TER", "CHRFScore", "TERScore"):
        raise AttributeError(
            f"turbobleu.sacrebleu.metrics provides BLEU only; use sacrebleu's "
            f"{name} (from sacrebleu.metrics import {name})"
        )
    raise AttributeError(f"module 'turbobleu.sacrebleu.metrics' has no attribute {name!r}")
