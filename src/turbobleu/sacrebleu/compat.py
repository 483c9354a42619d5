"""sacrebleu's function API (``sacrebleu.compat``): each call builds a fresh metric, as there."""
from __future__ import annotations

from ..bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from .metrics import BLEU, BLEUScore

__all__ = ["BLEU", "BLEUScore", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]
