"""turbobleu: exact, fast BLEU.

Scores are identical to sacrebleu's (and, in ``turbobleu.nltk``, NLTK's) under the same Python
version; the n-gram work runs in a compiled kernel over integer token ids.
"""
from turbobleu._engine.impl import implementation
from turbobleu.bleu import BLEU, corpus_bleu, raw_corpus_bleu, sentence_bleu
from turbobleu.result import BLEUScore, BLEUSignature
from turbobleu.stats import BLEUStats
from turbobleu.batch import NLTKRecipe, ReferenceSets, SacreBLEURecipe, self_bleu, sentence_bleu_batch
from turbobleu.tokenizers import available_tokenizers, get_tokenizer
from turbobleu.patching import patch, patched, unpatch
from turbobleu import significance

__version__ = "0.1.0"

__all__ = [
    "BLEU", "BLEUScore", "BLEUSignature", "BLEUStats", "available_tokenizers", "corpus_bleu",
    "get_tokenizer", "implementation", "raw_corpus_bleu", "sentence_bleu", "__version__",
]
__all__ += ["NLTKRecipe", "ReferenceSets", "SacreBLEURecipe", "self_bleu", "sentence_bleu_batch"]
__all__ += ["patch", "patched", "unpatch", "significance"]
