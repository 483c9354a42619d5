"""sacrebleu's function API (``sacrebleu.compat``): each call builds a fresh metric, as there."""

from __future__ import annotations

from turbobleu.bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from turbobleu.sacrebleu.metrics import BLEU, BLEUScore

__all__ = ["BLEU", "BLEUScore", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]
