"""``turbobleu.patch("sacrebleu")``: make the real sacrebleu compute BLEU (and chrF and TER, see
``_patch_chrf`` and ``_patch_ter``) with turbobleu.

For code one does not own (a training framework's evaluation loop) that calls sacrebleu. After
``patch()``:

* ``sacrebleu.corpus_bleu``, ``sentence_bleu`` and ``raw_corpus_bleu`` (in ``sacrebleu`` and
  ``sacrebleu.compat``) are turbobleu's functions. They return ``turbobleu.BLEUScore`` objects,
  which have the same attributes, text and JSON as sacrebleu's.
* sacrebleu's own ``BLEU`` class (``sacrebleu.BLEU`` = ``sacrebleu.metrics.BLEU`` =
  ``sacrebleu.metrics.bleu.BLEU``) stays in place, so ``isinstance`` checks, subclasses and
  references imported earlier keep working; its statistics engine is replaced. Every BLEU
  object, including ones created before the patch, tokenizes and counts in turbobleu, and
  sacrebleu's own code turns the statistics into scores (its ``BLEUScore``). This also covers
  ``corpus_score``, ``sentence_score``, references cached with ``BLEU(references=...)`` and
  sacrebleu's significance tests, which all go through ``_extract_corpus_statistics``.

Limits: a function imported by name before the patch (``from sacrebleu import corpus_bleu``)
keeps the original function object; it still builds a (patched) BLEU object, so it gets
turbobleu's statistics but not the faster sentence path. BLEU objects whose references were
cached by sacrebleu before the patch keep sacrebleu's code for those references (the original
strings are gone). sacrebleu's code also stays in charge of BLEU objects whose tokenizer is not
one of sacrebleu's own classes, and of BLEU subclasses that override a step of the statistics
(``_preprocess_segment``, ...). Hypotheses and references of different lengths raise ValueError
instead of being truncated. ``unpatch()`` restores everything; objects created while patched
keep working after it.
"""

from __future__ import annotations

import importlib
import logging
import weakref

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional, Tuple

from turbobleu import bleu as turbo_bleu
from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count.references import PreparedReferences
from turbobleu._log import TOKENIZED_PERIODS
from turbobleu.sacrebleu import _patch_chrf, _patch_ter
from turbobleu.sacrebleu._patch_common import patch_statistics, replace_functions
from turbobleu.tokenizers import LibraryTokenizer, SentencePieceTokenizer, Tokenizer, get_tokenizer

_SACRE_LOG = logging.getLogger("sacrebleu")

# (owner, attribute, original value or _MISSING) for everything replaced, while patched.
_saved: List[Tuple[Any, str, Any]] = []
_MISSING = object()

_FUNCTIONS = ("corpus_bleu", "sentence_bleu", "raw_corpus_bleu")
# sacrebleu's other metrics, each patched by its own module's apply(set_attr).
_OTHER_METRICS = (_patch_chrf, _patch_ter)

# sacrebleu's tokenizer classes (module, class name) -> turbobleu's tokenizer name.
_TOKENIZER_CLASSES = {
    ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"): "none",
    ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"): "13a",
    ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"): "intl",
    ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"): "zh",
    ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"): "char",
    ("sacrebleu.tokenizers.tokenizer_ja_mecab", "TokenizerJaMecab"): "ja-mecab",
    ("sacrebleu.tokenizers.tokenizer_ko_mecab", "TokenizerKoMecab"): "ko-mecab",
}
_SPM_CLASSES = {"TokenizerSPM", "Flores101Tokenizer", "Flores200Tokenizer", "spBLEU1KTokenizer"}
_SPM_MODULE = "sacrebleu.tokenizers.tokenizer_spm"

# SentencePiece wrappers around a sacrebleu tokenizer's own loaded model, per tokenizer object.
_spm_wrappers: "weakref.WeakKeyDictionary[Any, Tokenizer]" = weakref.WeakKeyDictionary()


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


def is_patched() -> bool:
    return bool(_saved)


def _sacrebleu() -> Any:
    try:
        return importlib.import_module("sacrebleu")
    except ImportError as exc:
        raise ImportError(
            f"patch('sacrebleu'): sacrebleu is not importable ({exc}); there is nothing to patch"
        ) from None


def _set(owner: Any, name: str, value: Any) -> None:
    """Replace ``owner.name`` (a module or class attribute), remembering the original."""
    _saved.append((owner, name, owner.__dict__.get(name, _MISSING)))
    setattr(owner, name, value)


def patch() -> None:
    """Make sacrebleu (importing it now if needed) compute BLEU with turbobleu. Idempotent."""
    if _saved:
        return
    _sacrebleu()  # (a clear error when it is missing, before anything is replaced)
    replace_functions(_set, turbo_bleu, _FUNCTIONS)
    patch_statistics(
        _set,
        importlib.import_module("sacrebleu.metrics.bleu").BLEU,
        _ENGINE,
        lambda metric: _turbo_tokenizer(metric.tokenizer),
        lambda metric, tokenizer, references: PreparedReferences(
            references, tokenizer, metric.lowercase
        ),
        _settings,
        _CACHE_ATTRIBUTES,
        _turbo_statistics,
    )
    for metric_patch in _OTHER_METRICS:
        metric_patch.apply(_set)


def unpatch() -> None:
    """Undo ``patch()`` (nothing happens when sacrebleu is not patched)."""
    while _saved:
        owner, name, value = _saved.pop()
        if value is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, value)


def _turbo_tokenizer(sacre_tokenizer: Any) -> Optional[Tokenizer]:
    """turbobleu's tokenizer for a sacrebleu tokenizer object, or None (keep sacrebleu's)."""
    cls = type(sacre_tokenizer)
    name = _TOKENIZER_CLASSES.get((cls.__module__, cls.__name__))
    if name is not None:
        return get_tokenizer(name)
    if cls.__module__ == _SPM_MODULE and cls.__name__ in _SPM_CLASSES:
        wrapper = _spm_wrappers.get(sacre_tokenizer)
        if wrapper is None:
            wrapper = _LoadedSentencePiece(sacre_tokenizer.name, sacre_tokenizer.sp)
            _spm_wrappers[sacre_tokenizer] = wrapper
        return wrapper
    return None


class _LoadedSentencePiece(SentencePieceTokenizer):
    """turbobleu's SentencePiece tokenizer on the model a sacrebleu tokenizer already loaded."""

    def __init__(self, signature_name: str, processor: Any) -> None:
        LibraryTokenizer.__init__(self, signature_name)
        self.explicit_path = True
        self.model_path = "<sacrebleu's loaded model>"
        self._processor = processor


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


def _register() -> None:
    """Make ``turbobleu.patching.patch("sacrebleu")`` use this module."""
    from turbobleu import patching

    if "sacrebleu" not in patching.available_patches():
        patching.register_patch("sacrebleu", patch, unpatch, is_patched)


_register()
