"""sacrebleu's function API (``sacrebleu.compat``): each call builds a fresh metric, as there."""

from __future__ import annotations

from turbobleu.bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from turbobleu.chrf import corpus_chrf, sentence_chrf
from turbobleu.sacrebleu.metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from turbobleu.ter import corpus_ter, sentence_ter

__all__ = [
    "BLEU",
    "BLEUScore",
    "CHRF",
    "CHRFScore",
    "corpus_bleu",
    "corpus_chrf",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "TER",
    "TERScore",
    "corpus_ter",
    "sentence_ter",
]
