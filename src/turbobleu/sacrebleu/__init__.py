"""A drop-in for sacrebleu 2.6.0: ``import turbobleu.sacrebleu as sacrebleu``.

Every public name and module of sacrebleu is here, at sacrebleu's path. turbobleu computes what
computes: ``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``BLEU`` (also as
``metrics.BLEU`` and ``metrics.bleu.BLEU``), ``corpus_chrf``, ``sentence_chrf``, ``CHRF``,
``corpus_ter``, ``sentence_ter``, ``TER``, their scores and signatures, ``compat``,
``extract_word_ngrams`` / ``extract_char_ngrams`` (``metrics.helpers``), ``metrics.lib_ter``,
``metrics.base``, every tokenizer module (``tokenizers.tokenizer_13a.Tokenizer13a``, ...),
``significance`` (``PairedTest``, ``Result``, ``estimate_ci``), the command line module
``sacrebleu.sacrebleu`` (``main``, ``parse_args``), ``utils``' helpers that do not download
(``smart_open``, ``print_results_table``, ...) and ``version`` / ``__version__``.

Test sets and downloads are forwarded to the real sacrebleu, which must then be installed
(``pip install sacrebleu``): ``DATASETS``, ``dataset``, ``download_test_set``,
``get_source_file``, ``get_reference_files``, ``get_available_testsets``,
``get_langpairs_for_testset``, ``SACREBLEU_DIR`` and ``utils``' test-set helpers. They are
loaded on first use: importing this module (or any computing module) never imports sacrebleu,
and forwarding works while ``sys.modules["sacrebleu"]`` is this module (see ``_real``).

Deliberate differences (see ``turbobleu.sacrebleu.DIFFERENCES``): hypotheses and reference
streams of different lengths raise ValueError instead of being silently truncated, and bad
arguments raise TypeError/ValueError messages that name the argument.
"""

from __future__ import annotations

import importlib

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List

from turbobleu.sacrebleu import _real, compat, metrics, tokenizers, version
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
from turbobleu.sacrebleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams

# The sacrebleu release this module reproduces.
__version__ = version.__version__

DIFFERENCES = (
    "Length mismatches between hypotheses and reference streams raise ValueError (sacrebleu "
    "silently truncates to the shorter one).",
    "Invalid arguments raise TypeError or ValueError naming the argument (sacrebleu raises "
    "TypeError('BLEU: ...'), AssertionError for an unknown smooth_method, KeyError for an unknown "
    "tokenizer, IndexError for empty inputs, RuntimeError when no references are cached).",
    "Library tokenizers (ja-mecab, ko-mecab, spm, flores101, flores200, spBLEU-1K) never "
    "download: SentencePiece models are read from sacrebleu's cache or a given path.",
    "Test sets and downloads (DATASETS, dataset, download_test_set, get_source_file, "
    "get_reference_files, get_available_testsets, get_langpairs_for_testset, SACREBLEU_DIR and "
    "utils' test-set helpers) are the real sacrebleu's, loaded on first use: they need "
    "pip install sacrebleu. `from turbobleu.sacrebleu import *` leaves them out, so that it "
    "works without sacrebleu.",
    "The command line module (turbobleu.sacrebleu.sacrebleu) runs turbobleu's command, which "
    "scores local files and does not download test sets (-t, --echo, --download are refused).",
)

# The names forwarded to the real sacrebleu's package (its own, re-exported from utils and
# dataset there).
_FORWARDED = (
    "DATASETS",
    "SACREBLEU_DIR",
    "download_test_set",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
)
# Submodules imported on first use: significance loads NumPy, utils logging, dataset sacrebleu.
_LAZY_MODULES = ("dataset", "sacrebleu", "significance", "utils")

__all__ = [
    "BLEU",
    "BLEUScore",
    "CHRF",
    "CHRFScore",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "smart_open",
    "TER",
    "TERScore",
    "corpus_ter",
    "sentence_ter",
    "tokenizers",
    "utils",
    "version",
    "__version__",
]


def __getattr__(name: str) -> Any:
    if name in _FORWARDED:
        value = _real.forwarded("", name, f"turbobleu.sacrebleu.{name}")
    elif name in _LAZY_MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    elif name == "smart_open":
        value = importlib.import_module(f"{__name__}.utils").smart_open
    else:
        raise AttributeError(f"module 'turbobleu.sacrebleu' has no attribute {name!r}")
    globals()[name] = value  # later uses skip this function
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_FORWARDED) | set(_LAZY_MODULES) | {"smart_open"})
