"""turbobleu: exact, fast BLEU (and chrF / chrF++).

Scores are identical to sacrebleu's (and, in ``turbobleu.nltk``, NLTK's) under the same Python
version; the n-gram work runs in a compiled kernel over integer token ids.

``import turbobleu`` is light: chrF, TER, the batch API, the significance tests, the RL reward
adapters (``turbobleu.rewards``) and patching (which need NumPy) are imported on first use of
their names (PEP 562). With the compiled build, the plain
scoring calls (``corpus_bleu``, ``sentence_bleu``, ``BLEU.corpus_score`` with references given)
import no NumPy either, under the none, 13a, zh and char tokenizers (intl's tables need it).
"""

from __future__ import annotations

import sys

from turbobleu._engine.choice import implementation
from turbobleu._typing import TYPE_CHECKING
from turbobleu.bleu import BLEU, corpus_bleu, raw_corpus_bleu, sentence_bleu
from turbobleu.result import BLEUScore, BLEUSignature
from turbobleu.stats import BLEUStats
from turbobleu.tokenizers import available_tokenizers, get_tokenizer

if TYPE_CHECKING:
    from typing import Any, List

    from turbobleu import rewards, significance
    from turbobleu.batch import (
        NLTKRecipe,
        ReferenceSets,
        SacreBLEURecipe,
        self_bleu,
        sentence_bleu_batch,
    )
    from turbobleu.chrf import (
        CHRF,
        CHRFScore,
        CHRFSignature,
        corpus_chrf,
        pairwise_chrf,
        sentence_chrf,
    )
    from turbobleu.mbr import MBRChoice, mbr_select, mbr_select_batch, mbrs_bleu_metric
    from turbobleu.pairwise import PairwiseBLEU, pairwise_bleu
    from turbobleu.patching import patch, patched, unpatch
    from turbobleu.stream import corpus_bleu_stream
    from turbobleu.ter import TER, TERScore, TERSignature, corpus_ter, sentence_ter

__version__ = "0.1.0"

# Public names imported on first use: name -> the module that defines it.
_LAZY = {
    "NLTKRecipe": "turbobleu.batch",
    "ReferenceSets": "turbobleu.batch",
    "SacreBLEURecipe": "turbobleu.batch",
    "self_bleu": "turbobleu.batch",
    "corpus_bleu_stream": "turbobleu.stream",
    "sentence_bleu_batch": "turbobleu.batch",
    "PairwiseBLEU": "turbobleu.pairwise",
    "pairwise_bleu": "turbobleu.pairwise",
    "MBRChoice": "turbobleu.mbr",
    "mbr_select": "turbobleu.mbr",
    "mbr_select_batch": "turbobleu.mbr",
    "mbrs_bleu_metric": "turbobleu.mbr",
    "patch": "turbobleu.patching",
    "patched": "turbobleu.patching",
    "unpatch": "turbobleu.patching",
    # chrF and TER: a BLEU-only run need not load them (chrF: 3 ms of `import turbobleu`)
    "CHRF": "turbobleu.chrf",
    "CHRFScore": "turbobleu.chrf",
    "CHRFSignature": "turbobleu.chrf",
    "corpus_chrf": "turbobleu.chrf",
    "pairwise_chrf": "turbobleu.chrf",
    "sentence_chrf": "turbobleu.chrf",
    # TER: its tokenizer compiles regular expressions, which a BLEU-only run need not pay for
    "TER": "turbobleu.ter",
    "TERScore": "turbobleu.ter",
    "TERSignature": "turbobleu.ter",
    "corpus_ter": "turbobleu.ter",
    "sentence_ter": "turbobleu.ter",
}

__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUSignature",
    "BLEUStats",
    "available_tokenizers",
    "corpus_bleu",
    "get_tokenizer",
    "implementation",
    "raw_corpus_bleu",
    "sentence_bleu",
    "__version__",
]
__all__ += ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "pairwise_chrf", "sentence_chrf"]
__all__ += ["NLTKRecipe", "ReferenceSets", "SacreBLEURecipe", "self_bleu", "sentence_bleu_batch"]
__all__ += ["PairwiseBLEU", "pairwise_bleu"]
__all__ += ["MBRChoice", "mbr_select", "mbr_select_batch", "mbrs_bleu_metric"]
__all__ += ["patch", "patched", "unpatch", "significance", "corpus_bleu_stream"]
__all__ += ["rewards"]
__all__ += ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]
# Submodules imported on first use of their names.
_LAZY_MODULES = ("significance", "rewards")


def _module(name: str) -> Any:
    """The module ``name``, imported if need be (``__import__``: importing importlib would
    cost ``import turbobleu`` 0.5 ms, with the warnings module it loads)."""
    __import__(name)
    return sys.modules[name]


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        value: Any = _module(f"turbobleu.{name}")
    elif name in _LAZY:
        value = getattr(_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'turbobleu' has no attribute {name!r}")
    globals()[name] = value  # later lookups find it directly
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
