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

Needs ``torch`` and ``torchmetrics`` (``pip install torch torchmetrics``); ``import turbobleu``
never imports them. Differences: bad input raises a TypeError or ValueError that names the
argument where torchmetrics fails deeper (an ``AttributeError`` for a non-str line, ``min() arg
is an empty sequence`` for a prediction without references, ``ZeroDivisionError`` for
``n_gram=0``), and the SentencePiece models of ``flores101``/``flores200`` are read from
torchmetrics' download folder or sacrebleu's cache, never downloaded.
"""

from __future__ import annotations

import importlib


def _require(package: str) -> None:
    try:
        importlib.import_module(package)
    except ImportError as exc:
        raise ImportError(
            f"turbobleu.torchmetrics needs {package}, which is not importable ({exc}); "
            "install it with: pip install torch torchmetrics"
        ) from exc


_require("torch")
_require("torchmetrics")

from turbobleu.torchmetrics._metrics import (  # noqa: E402
    BLEUScore,
    SacreBLEUScore,
    bleu_score,
    sacre_bleu_score,
)

__all__ = ["BLEUScore", "SacreBLEUScore", "bleu_score", "sacre_bleu_score"]
