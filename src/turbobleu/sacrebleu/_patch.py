"""``turbobleu.patch("sacrebleu")``: make the real sacrebleu compute its metrics with turbobleu:
each registered metric's own patch (its registry entry's ``sacrebleu_patch``: ``_patch_bleu``,
``_patch_chrf``, ``_patch_ter``) replaces its part, then ``_patch_significance`` makes
sacrebleu's significance tests resample with turbobleu; this module applies them and undoes them.

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

from turbobleu._typing import TYPE_CHECKING
from turbobleu.metric_registry import METRICS
from turbobleu.sacrebleu import _patch_significance

# (the tokenizer mapping's name here before the per-metric patches)
from turbobleu.sacrebleu._patch_tokenizers import turbo_tokenizer as _turbo_tokenizer  # noqa: F401

if TYPE_CHECKING:
    from typing import Any, List, Tuple

# (owner, attribute, original value or _MISSING) for everything replaced, while patched.
_saved: List[Tuple[Any, str, Any]] = []
_MISSING = object()


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


def _set_code(function: Any, code: Any) -> None:
    """Replace a function's code in place (names imported earlier see it), remembering the
    original."""
    _saved.append((function, "__code__", function.__code__))
    function.__code__ = code


def patch() -> None:
    """Make sacrebleu (importing it now if needed) compute BLEU with turbobleu. Idempotent."""
    if _saved:
        return
    _sacrebleu()  # (a clear error when it is missing, before anything is replaced)
    # Each registered metric that sacrebleu has patches its own part.
    for entry in list(METRICS.values()):
        apply = entry.hook("sacrebleu_patch")
        if apply is not None:
            apply(_set)
    # sacrebleu's significance tests, on the metrics as patched above
    _patch_significance.apply(_set, _set_code)


def unpatch() -> None:
    """Undo ``patch()`` (nothing happens when sacrebleu is not patched)."""
    while _saved:
        owner, name, value = _saved.pop()
        if value is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, value)
    _patch_significance.restore()


def _register() -> None:
    """Make ``turbobleu.patching.patch("sacrebleu")`` use this module."""
    from turbobleu import patching

    if "sacrebleu" not in patching.available_patches():
        patching.register_patch("sacrebleu", patch, unpatch, is_patched)


_register()
