"""A stand-in for ``sacrebleu``'s metrics API: ``import turbobleu.sacrebleu as sacrebleu``.

Provides what code that computes BLEU or chrF with sacrebleu 2.x uses: ``corpus_bleu``,
``sentence_bleu``, ``raw_corpus_bleu``, ``BLEU`` (also as ``metrics.BLEU`` and
``metrics.bleu.BLEU``), ``BLEUScore``, ``corpus_chrf``, ``sentence_chrf``, ``CHRF`` (also as
``metrics.CHRF`` and ``metrics.chrf.CHRF``), ``CHRFScore``, ``corpus_ter``, ``sentence_ter``,
``TER`` (also as ``metrics.TER`` and ``metrics.ter.TER``), ``TERScore``,
``tokenizers.tokenizer_ter.TercomTokenizer``, ``compat``, ``__version__`` and the class
constants. Scores, statistics, signatures and formatting are sacrebleu's, computed by
turbobleu.

Deliberate differences (see ``turbobleu.sacrebleu.DIFFERENCES``): hypotheses and reference
streams of different lengths raise ValueError instead of being silently truncated, and bad
arguments raise TypeError/ValueError messages that name the argument. Test-set downloads and the
command line are not part of this module: import sacrebleu for those.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from turbobleu.result import SACREBLEU_VERSION
from turbobleu.sacrebleu import compat, metrics, tokenizers
from turbobleu.sacrebleu.compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from turbobleu.sacrebleu.metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore

# The sacrebleu release whose BLEU and chrF this module reproduces.
__version__ = SACREBLEU_VERSION

DIFFERENCES = (
    "Length mismatches between hypotheses and reference streams raise ValueError (sacrebleu "
    "silently truncates to the shorter one).",
    "Invalid arguments raise TypeError or ValueError naming the argument (sacrebleu raises "
    "TypeError('BLEU: ...'), AssertionError for an unknown smooth_method, KeyError for an unknown "
    "tokenizer, IndexError for empty inputs, RuntimeError when no references are cached).",
    "Library tokenizers (ja-mecab, ko-mecab, spm, flores101, flores200, spBLEU-1K) never "
    "download: SentencePiece models are read from sacrebleu's cache or a given path.",
    "Only the metrics (BLEU, chrF, TER): DATASETS, significance testing and the CLI stay in "
    "sacrebleu.",
)

__all__ = [
    "BLEU",
    "BLEUScore",
    "CHRF",
    "CHRFScore",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "TER",
    "TERScore",
    "corpus_ter",
    "sentence_ter",
    "tokenizers",
    "__version__",
]

_NOT_HERE = {
    "DATASETS",
    "download_test_set",
    "get_source_file",
    "get_reference_files",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "smart_open",
    "SACREBLEU_DIR",
    "extract_word_ngrams",
    "extract_char_ngrams",
    "significance",
    "utils",
    "dataset",
}


def __getattr__(name: str) -> Any:
    if name in _NOT_HERE:
        raise AttributeError(
            f"turbobleu.sacrebleu provides sacrebleu's BLEU, chrF and TER API only; {name!r} is "
            f"not part of it. Use the real sacrebleu for it (import sacrebleu), or "
            f"turbobleu.patch('sacrebleu') "
            f"to keep sacrebleu and make its metrics fast."
        )
    raise AttributeError(f"module 'turbobleu.sacrebleu' has no attribute {name!r}")
