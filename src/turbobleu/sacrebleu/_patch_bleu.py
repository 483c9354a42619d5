"""The BLEU part of ``turbobleu.patch("sacrebleu")`` (see ``_patch``): sacrebleu's
``corpus_bleu``, ``sentence_bleu`` and ``raw_corpus_bleu`` become turbobleu's, and sacrebleu's own
``BLEU`` class stays in place with its statistics engine replaced (see ``_patch``'s docstring
for what that covers and its limits)."""

from __future__ import annotations

import importlib
import logging

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional, Tuple

from turbobleu import bleu as turbo_bleu
from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count.references import PreparedReferences
from turbobleu._log import TOKENIZED_PERIODS
from turbobleu.sacrebleu._patch_common import (
    patch_statistics,
    replace_functions,
    scores_as_stock,
)
from turbobleu.sacrebleu._patch_tokenizers import turbo_tokenizer
from turbobleu.tokenizers import Tokenizer

_SACRE_LOG = logging.getLogger("sacrebleu")

_FUNCTIONS = ("corpus_bleu", "sentence_bleu", "raw_corpus_bleu")

# The methods that define BLEU's statistics in sacrebleu; a subclass overriding any of them
# (its own preprocessing, say) keeps sacrebleu's code.
_ENGINE = (
    "_preprocess_segment",
    "_extract_reference_info",
    "_compute_segment_statistics",
    "_get_closest_ref_len",
    "_cache_references",
)

# The attributes sacrebleu's reference cache is built with; ``_settings`` is what it depends on.
_CACHE_ATTRIBUTES = ("lowercase", "tokenizer", "max_ngram_order")


def _settings(metric: Any) -> Tuple[bool, int, int]:
    """What sacrebleu's reference cache depends on: lowercasing, the tokenizer object and the
    n-gram order at the time it was built."""
    return (bool(metric.lowercase), id(metric.tokenizer), metric.max_ngram_order)


def apply(set_attr: Callable[[Any, str, Any], None]) -> None:
    """Replace sacrebleu's BLEU functions and BLEU's statistics engine (``set_attr`` records
    each replacement for ``unpatch``)."""
    replace_functions(set_attr, turbo_bleu, _FUNCTIONS)
    patch_statistics(
        set_attr,
        importlib.import_module("sacrebleu.metrics.bleu").BLEU,
        _ENGINE,
        lambda metric: turbo_tokenizer(metric.tokenizer),
        lambda metric, tokenizer, references: PreparedReferences(
            references, tokenizer, metric.lowercase
        ),
        _settings,
        _CACHE_ATTRIBUTES,
        _turbo_statistics,
    )


def _turbo_statistics(
    metric: Any, tokenizer: Tokenizer, hypotheses: Any, references: Any
) -> List[List[int]]:
    """sacrebleu's ``_extract_corpus_statistics`` computed by turbobleu."""
    hyps = list(hypotheses)
    order = metric.max_ngram_order
    if not metric._force and sum(1 for h in hyps if h.endswith(" .")) >= 100:
        for line in TOKENIZED_PERIODS:
            _SACRE_LOG.warning(line)
    if references:
        streams = list(references)
        if len(hyps) == 1 and all(len(stream) == 1 for stream in streams):
            # One segment (sentence_score): the fused sentence path.
            refs = [stream[0] for stream in streams]
            hyp, refs, code, lower = tokenizer.prepare_sentence(hyps[0], refs, metric.lowercase)
            metric.num_refs = len(refs) - refs.count(None)
            return [_bleu_impl.text_rows().sentence_row(hyp, refs, code, lower, order)]
        prepared = PreparedReferences(streams, tokenizer, metric.lowercase, len(hyps))
        metric.num_refs = prepared.num_refs
    else:
        prepared = metric._ref_cache.prepared
    return prepared.stats(hyps, order).rows()


def resampler(metric: Any) -> Optional[Any]:
    """turbobleu's scoring of resampled rows for sacrebleu's BLEU ``metric`` (its options:
    ``max_ngram_order``, ``smooth_method``, ``smooth_value``, ``effective_order``), for
    sacrebleu's significance tests; None (sacrebleu's code) for anything else."""
    if not scores_as_stock(metric, importlib.import_module("sacrebleu.metrics.bleu").BLEU):
        return None
    from turbobleu._engine.bleu.resampler import BLEUResampler

    try:
        return BLEUResampler(
            metric.max_ngram_order,
            metric.smooth_method,
            metric.smooth_value,
            metric.effective_order,
        )
    except (TypeError, ValueError):
        return None
