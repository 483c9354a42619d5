"""torchmetrics' ``BLEUScore`` and ``SacreBLEUScore`` (and ``bleu_score``, ``sacre_bleu_score``),
with the same tensors, counted by turbobleu.

    from turbobleu.torchmetrics import BLEUScore        # instead of: from torchmetrics.text ...
    metric = BLEUScore()                                 # a torchmetrics.Metric: update/compute,
    metric.update(preds, [[ref_a, ref_b], ...])          # forward, reset, DDP sync as before

or, for code you do not own (a LightningModule's validation step),
``turbobleu.patch("torchmetrics")``.

The classes subclass torchmetrics' own and keep its states (``preds_len``, ``target_len``,
``numerator``, ``denominator``: float tensors summed over DDP ranks) and its recipe: words split
by ``line.split()`` (``BLEUScore``) or by a sacrebleu tokenizer applied as torchmetrics applies it
(``SacreBLEUScore``: no right-strip, lowercase after tokenizing), the closest reference length
with ties to the **first** reference, clipped n-gram counts, and the float tail run with the same
torch operations in the same order, so every returned tensor is ``==`` torchmetrics' (value,
dtype, device). The per-sentence n-gram counting and clipping runs in turbobleu's compiled kernel.

Needs ``torch`` and ``torchmetrics>=1.9,<2`` (another release: an ImportError that says so);
``import turbobleu`` never imports them. Differences: bad input raises a TypeError or ValueError
that names the argument where torchmetrics fails deeper (an ``AttributeError`` for a non-str
line, ``min() arg is an empty sequence`` for a prediction without references,
``ZeroDivisionError`` for ``n_gram=0``), and the SentencePiece models of ``flores101`` and
``flores200`` are read from torchmetrics' download folder or sacrebleu's cache, never
downloaded.
"""

from __future__ import annotations

import importlib
import re
from importlib import metadata
from typing import Optional

from turbobleu._extras import missing_extra

# The torchmetrics releases whose BLEU classes and internals this package builds on (the
# ``torchmetrics`` extra's range in pyproject.toml).
_SUPPORTED_TORCHMETRICS = ">=1.9,<2"


def _supported_torchmetrics(version: str) -> bool:
    """Whether torchmetrics ``version`` is in ``_SUPPORTED_TORCHMETRICS`` (1.9 up to 2)."""
    match = re.match(r"\s*v?(\d+)\.(\d+)", version)
    if match is None:
        return False
    major, minor = int(match.group(1)), int(match.group(2))
    return major == 1 and minor >= 9


def _check_torchmetrics(version: Optional[str]) -> None:
    """Refuse a torchmetrics outside the supported range (``None``: version unknown, let the
    import decide)."""
    if version is not None and not _supported_torchmetrics(version):
        raise ImportError(
            f"turbobleu.torchmetrics needs torchmetrics{_SUPPORTED_TORCHMETRICS}, but "
            f"torchmetrics {version} is installed; install a supported release with: "
            f'pip install "torchmetrics{_SUPPORTED_TORCHMETRICS}" (the mbr extra pins '
            "torchmetrics<0.11 through unbabel-comet: use another environment for it)"
        )


def _require(package: str) -> None:
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise missing_extra("turbobleu.torchmetrics", "torchmetrics", exc) from exc
    if package == "torchmetrics":
        # The imported module's own word (a source checkout may have no metadata).
        version = getattr(module, "__version__", None)
        _check_torchmetrics(None if version is None else str(version))


def _installed_torchmetrics() -> Optional[str]:
    try:
        return metadata.version("torchmetrics")
    except metadata.PackageNotFoundError:
        return None


_require("torch")
# The installed release is checked before torchmetrics is imported: older releases may fail
# to import at all (0.10 needs pkg_resources), or import and lack the internals used here.
_check_torchmetrics(_installed_torchmetrics())
_require("torchmetrics")

from turbobleu.torchmetrics._metrics import (  # noqa: E402
    BLEUScore,
    SacreBLEUScore,
    bleu_score,
    sacre_bleu_score,
)

__all__ = ["BLEUScore", "SacreBLEUScore", "bleu_score", "sacre_bleu_score"]
