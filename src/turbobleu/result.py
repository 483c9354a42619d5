"""Score and signature objects, formatted exactly as sacrebleu formats its own (``BLEUScore``,
``BLEUSignature``, ``Score``; defined in ``turbobleu._engine.results``, which the engine's
recipes build them with)."""

from turbobleu._engine.results import (
    _ABBREVIATIONS,
    SACREBLEU_VERSION,
    BLEUScore,
    BLEUSignature,
    Score,
    Signature,
    ci_half_width,
    mean_ci,
)

__all__ = [
    "SACREBLEU_VERSION",
    "BLEUScore",
    "BLEUSignature",
    "Signature",
    "Score",
    "ci_half_width",
    "mean_ci",
]
_ABBREVIATIONS = _ABBREVIATIONS  # (the signatures' keys; chrF and TER add their own)
