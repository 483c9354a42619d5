"""The computation behind Hugging Face ``evaluate.load("bleu")`` (and ``"chrf"``, ``"ter"`` and
``"sacrebleu"``, which are sacrebleu's corpus chrF, TER and BLEU: :func:`compute_chrf`,
:func:`compute_ter`, :func:`compute_sacrebleu`; and ``"google_bleu"``, NLTK's corpus GLEU on 13a
tokens: :func:`compute_google_bleu`), without the ``evaluate`` package.
``turbobleu.patch("evaluate")`` makes the real ``evaluate.load`` return these for their names.

``evaluate``'s BLEU metric tokenizes with its copy of sacrebleu's 13a tokenizer (followed by
``str.split()``, and without sacrebleu's ``rstrip``) and scores with tensorflow/nmt's
``compute_bleu``. Both are reproduced here, with identical results: the tokenizer's rules are
``_engine.text.rules_13a``, the float recipe (shortest reference length, nmt's smoothing and
summation) is ``_engine.recipes.nmt``. An empty corpus or empty shortest references raise
``ZeroDivisionError``, as there.

Use :func:`load` for a one-line migration (``bleu = turbobleu.evaluate.load("bleu")``), or
:func:`compute` / :func:`compute_bleu` directly. Counting runs in turbobleu's compiled kernel;
the default tokenizer runs in turbobleu's compiled 13a tokenizer.
"""

from __future__ import annotations

from itertools import accumulate, chain

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from turbobleu._engine.bleu import chosen as _bleu_impl
from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.recipes.gleu import LONGEST_ORDER, compiled_orders, gleu_score
from turbobleu._engine.recipes.nmt import nmt_score
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._engine.text.rules_13a import ENTITIES, language_independent, rules_13a

_STR = {str}
_SEQUENCES = {list, tuple}

corpus_rows = _intern_impl.interning().corpus_rows

__all__ = [
    "BleuMetric",
    "ChrfMetric",
    "GoogleBleuMetric",
    "METRIC_NAMES",
    "SacrebleuMetric",
    "TerMetric",
    "Tokenizer13a",
    "compute",
    "compute_bleu",
    "compute_chrf",
    "compute_google_bleu",
    "compute_sacrebleu",
    "compute_ter",
    "load",
    "metric_name",
]

# -- the 13a tokenizer, as evaluate runs it ------------------------------------------------------


def _rules_13a(prepared: str) -> List[str]:
    """evaluate's 13a after the language-independent steps: no ``rstrip`` (unlike sacrebleu),
    then ``str.split()``."""
    return rules_13a(f" {prepared} ").split()


def _compiled_agrees(prepared: str) -> bool:
    """turbobleu's compiled 13a runs the language-independent steps again, after an ``rstrip``.
    The rstrip never changes the tokens, and the repeated steps change nothing unless the first
    pass *created* a ``<skipped>`` or an entity (``&amp;lt;`` gives ``&lt;``); such lines are
    tokenized in Python."""
    if "<skipped>" in prepared:
        return False
    return "&" not in prepared or not any(entity in prepared for entity, _ in ENTITIES)


class Tokenizer13a:
    """evaluate's default tokenizer: a line in, its list of 13a tokens out."""

    def signature(self) -> str:
        return "13a"

    def __call__(self, line: str) -> List[str]:
        if not isinstance(line, str):
            raise TypeError(f"Tokenizer13a takes a str, got {type(line).__name__}")
        prepared = language_independent(line)
        if _compiled_agrees(prepared):
            tokens: List[str] = _text_impl.tokenize.tokenize_strings(
                [prepared], _text_impl.tokenize.TOK_13A, False
            )[0]
            return tokens
        return _rules_13a(prepared)


_DEFAULT_TOKENIZER = Tokenizer13a()


def _for_compiled_13a(lines: List[str]) -> Tuple[List[str], List[int]]:
    """``lines`` as the compiled 13a gives evaluate's tokens for them, and the indices of those
    it would still get wrong (blanked here; Python's 13a must tokenize them).

    The compiled 13a is sacrebleu's: ``rstrip()``, then the language-independent steps. That
    gives evaluate's tokens (the steps, no rstrip) for every line but those whose stripped tail
    holds a newline (``"a-\\n"``: evaluate drops the ``-\\n``); those get the steps first, and
    are wrong only when the steps made a ``<skipped>`` or an entity (_compiled_agrees). The
    list is ``lines`` itself when no line needs anything."""
    tails = _text_impl.tokenize.newline_in_tail(lines)
    if not tails:
        return lines, []
    prepared, odd = list(lines), []
    for i in tails:
        prepared[i] = language_independent(prepared[i])
        if not _compiled_agrees(prepared[i]):
            odd.append(i)
            prepared[i] = ""
    return prepared, odd


def _tokenize_13a_groups(
    groups: List[List[str]],
) -> Tuple[List[Tuple[np.ndarray, np.ndarray]], int]:
    """Ids and offsets of each group of lines, tokenized with the default tokenizer into one
    shared vocabulary, and how many ids there are (every id is below it: the kernel's dense
    mode). The compiled tokenizer does all lines but the rare ones it would get wrong; those are
    tokenized in Python afterwards, so that every token they share with another line already
    has its id (tokens found only there get the next ids after the vocabulary's).

    (Which lines: _for_compiled_13a.)"""
    vocab = _text_impl.tokenize.Vocab()
    done = []
    odd_lines: List[Tuple[int, int]] = []
    for g, lines in enumerate(groups):
        prepared, odd = _for_compiled_13a(lines)
        odd_lines += [(g, i) for i in odd]
        done.append(
            _text_impl.tokenize.tokenize(prepared, _text_impl.tokenize.TOK_13A, False, vocab)
        )
    if not odd_lines:
        return done, len(vocab)
    if isinstance(vocab, dict):  # the pure-Python twin's vocabulary is a dict already
        known: Dict[str, int] = dict(vocab)
    else:
        known = {vocab.token(i): i for i in range(len(vocab))}

    def token_id(token: str) -> int:
        found = known.get(token)
        if found is None:
            found = known[token] = len(known)
        return found

    for g, i in odd_lines:
        toks = _rules_13a(language_independent(groups[g][i]))
        ids, offsets = done[g]
        lengths = np.diff(offsets)
        lengths[i] = len(toks)
        new_ids = np.concatenate(
            [
                ids[: offsets[i]],
                np.array([token_id(t) for t in toks], dtype=np.int32),
                ids[offsets[i] :],
            ]
        )
        new_offsets = np.zeros(len(offsets), dtype=np.int64)
        np.cumsum(lengths, out=new_offsets[1:])
        done[g] = (new_ids.astype(np.int32, copy=False), new_offsets)
    return done, len(known)


# -- tensorflow/nmt compute_bleu -----------------------------------------------------------------


def _ngram_counts(segment: Any, max_order: int) -> Dict[Tuple[Any, ...], int]:
    counts: Dict[Tuple[Any, ...], int] = {}
    for order in range(1, max_order + 1):
        for i in range(0, len(segment) - order + 1):
            gram = tuple(segment[i : i + order])
            counts[gram] = counts.get(gram, 0) + 1
    return counts


def _counts_nmt_order(
    reference_corpus: Any, translation_corpus: Any, max_order: Any
) -> Tuple[List[int], List[int], int, int]:
    """nmt's counting loop, in its order (for the inputs the fast path leaves alone, so that its
    exceptions come out the same way)."""
    matches = [0] * max_order
    possible = [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        best: Dict[Tuple[Any, ...], int] = {}
        for reference in references:
            for gram, c in _ngram_counts(reference, max_order).items():
                if c > best.get(gram, 0):
                    best[gram] = c
        for gram, c in _ngram_counts(translation, max_order).items():
            clipped = min(c, best.get(gram, 0))
            if clipped > 0:
                matches[len(gram) - 1] += clipped
        for order in range(1, max_order + 1):
            grams = len(translation) - order + 1
            if grams > 0:
                possible[order - 1] += grams
    return matches, possible, translation_length, reference_length


def _score_rows(
    rows: np.ndarray, reference_length: int, max_order: int, smooth: Any
) -> Tuple[Any, ...]:
    sums = rows.sum(axis=0).tolist()
    return nmt_score(
        sums[2 : 2 + max_order],
        sums[2 + max_order : 2 + 2 * max_order],
        sums[0],
        reference_length,
        max_order,
        smooth,
    )


def compute_bleu(
    reference_corpus: Any, translation_corpus: Any, max_order: Any = 4, smooth: Any = False
) -> Tuple[Any, ...]:
    """tensorflow/nmt's ``compute_bleu`` on tokenized input.

    ``reference_corpus`` holds, per segment, a list of references (token sequences);
    ``translation_corpus`` the translations. Returns ``(bleu, precisions, bp, ratio,
    translation_length, reference_length)``. Segments pair up as ``zip`` pairs them.
    """
    rows = None
    if type(max_order) is int and max_order >= 1:
        rows = corpus_rows(reference_corpus, translation_corpus, max_order)
    if rows is None:
        counts = _counts_nmt_order(reference_corpus, translation_corpus, max_order)
        return nmt_score(*counts, max_order, smooth)
    shortest = sum(min(map(len, refs)) for refs in reference_corpus)
    return _score_rows(rows, shortest, max_order, smooth)


def _result(score: Tuple[Any, ...]) -> Dict[str, Any]:
    bleu, precisions, bp, ratio, translation_length, reference_length = score
    return {
        "bleu": bleu,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


def compute(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Optional[Callable[[str], Sequence[Any]]] = None,
    max_order: int = 4,
    smooth: bool = False,
) -> Dict[str, Any]:
    """``evaluate.load("bleu").compute(predictions=..., references=..., ...)``.

    ``references`` holds one list of reference strings per prediction, or one string per
    prediction. ``tokenizer`` is any callable from a string to a token list (default: 13a).
    Returns evaluate's dict: ``bleu``, ``precisions``, ``brevity_penalty``, ``length_ratio``,
    ``translation_length``, ``reference_length``.
    """
    predictions = _check_strings(predictions, "predictions")
    if isinstance(references, str) or not hasattr(references, "__len__"):
        raise TypeError(
            "references must be a list (of strings, or of lists of strings), "
            f"got {type(references).__name__}"
        )
    if len(references) != len(predictions):
        raise ValueError(
            f"predictions has {len(predictions)} items but references has "
            f"{len(references)}; evaluate requires one entry per prediction"
        )
    if len(predictions) == 0:
        raise ValueError("predictions and references are empty; there is nothing to score")
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    reference_lists = []
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not hasattr(refs, "__iter__"):
            raise TypeError(f"references[{i}] must be a list of strings, got {type(refs).__name__}")
        reference_lists.append(_check_strings(refs, f"references[{i}]"))
    if tokenizer is None or type(tokenizer) is Tokenizer13a:
        if type(max_order) is int and max_order >= 1:
            return _result(_compute_13a(predictions, reference_lists, max_order, smooth))
        tokenizer = _DEFAULT_TOKENIZER
    tokenized_refs = [[tokenizer(r) for r in refs] for refs in reference_lists]
    tokenized_preds = [tokenizer(p) for p in predictions]
    return _result(compute_bleu(tokenized_refs, tokenized_preds, max_order, smooth))


def _check_strings(items: Any, what: str) -> List[str]:
    if isinstance(items, str) or not hasattr(items, "__iter__"):
        raise TypeError(f"{what} must be a list of strings, got {type(items).__name__}")
    strings: List[str] = list(items)
    if set(map(type, strings)) <= _STR:  # (the usual case, checked in C)
        return strings
    for i, item in enumerate(strings):
        if not isinstance(item, str):
            raise TypeError(f"{what}[{i}] must be a str, got {type(item).__name__}")
    return strings


def _compute_13a(
    predictions: List[str], reference_lists: List[List[str]], max_order: int, smooth: Any
) -> Tuple[Any, ...]:
    """The default-tokenizer path: strings to ids in compiled code, then the kernel."""
    flat_refs = [r for refs in reference_lists for r in refs]
    ((ref_ids, ref_off), (hyp_ids, hyp_off)), n_ids = _tokenize_13a_groups([flat_refs, predictions])
    ref_counts = [len(refs) for refs in reference_lists]
    if 0 in ref_counts:
        raise ValueError(
            f"references[{ref_counts.index(0)}] is empty; every prediction needs at "
            "least one reference (nmt's compute_bleu raises on min() of nothing)"
        )
    seg_ref_off = np.zeros(len(ref_counts) + 1, dtype=np.int64)
    np.cumsum(ref_counts, out=seg_ref_off[1:])
    rows = np.zeros((len(predictions), 2 + 2 * max_order), dtype=np.int64)
    _count_impl.kernel.count_stats(
        hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off, max_order, rows, n_ids=max(n_ids, 1)
    )
    ref_lens = np.diff(ref_off)
    shortest = int(np.minimum.reduceat(ref_lens, seg_ref_off[:-1]).sum()) if len(ref_lens) else 0
    return _score_rows(rows, shortest, max_order, smooth)


# The input shapes evaluate's metric scripts declare (their ``features``), as plain names: each
# dict is one accepted form, tried in order; "sequence of string" is a list of strings per
# prediction (any number of them unless the metric says otherwise).
_REFERENCE_LISTS = {"predictions": "string", "references": "sequence of string"}
_REFERENCE_STRINGS = {"predictions": "string", "references": "string"}


class _Metric:
    """What the objects ``evaluate.load`` returns share: ``compute``, ``add`` and ``add_batch``
    with evaluate's keyword arguments (inputs added are scored, and cleared, by ``compute()``),
    the module's ``name``, a one-line ``description`` and its input ``features``."""

    name = ""
    description = ""
    features: Tuple[Dict[str, str], ...] = (_REFERENCE_LISTS, _REFERENCE_STRINGS)

    def __init__(self) -> None:
        self._predictions: List[str] = []
        self._references: List[Any] = []

    def add(self, *, prediction: str, reference: Any) -> None:
        self._predictions.append(prediction)
        self._references.append(reference)

    def add_batch(self, *, predictions: Sequence[str], references: Sequence[Any]) -> None:
        predictions, references = list(predictions), list(references)
        if len(predictions) != len(references):
            raise ValueError(
                f"predictions has {len(predictions)} items but references has {len(references)}"
            )
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(
        self,
        *,
        predictions: Optional[Sequence[str]] = None,
        references: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> Dict[str, Any]:
        """Scores the given inputs, or everything added so far (which is then cleared)."""
        if (predictions is None) != (references is None):
            raise ValueError(
                "give both predictions and references, or neither (to score what "
                "add/add_batch collected)"
            )
        if predictions is None:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        return self._score(predictions, references, **kwargs)

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        raise NotImplementedError


class BleuMetric(_Metric):
    """A stand-in for the object ``evaluate.load("bleu")`` returns."""

    name = "bleu"
    description = "BLEU as tensorflow/nmt's compute_bleu, on 13a tokens by default"

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        return compute(predictions, references, **kwargs)


def _same_count_streams(references: List[Any], error: str) -> List[List[Any]]:
    """References given per prediction (a string, or a list) as sacrebleu's streams; the
    script's ``error`` text when predictions have different numbers of references."""
    if references and isinstance(references[0], str):
        references = [[ref] for ref in references]
    per_prediction = len(references[0]) if references else 0
    if any(len(refs) != per_prediction for refs in references):
        raise ValueError(error)
    return [[refs[i] for refs in references] for i in range(per_prediction)]


# The sacrebleu and ter scripts' error text, word for word.
_SACREBLEU_REFS_ERROR = "Sacrebleu requires the same number of references for each prediction"


# -- chrF ----------------------------------------------------------------------------------------


def compute_chrf(
    predictions: Sequence[str],
    references: Sequence[Any],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> Dict[str, Any]:
    """``evaluate.load("chrf").compute(...)``: sacrebleu's corpus chrF, with references given per
    prediction (a string, or a list of the same length for every prediction)."""
    from turbobleu.chrf import CHRF

    streams = _same_count_streams(
        list(references),
        "ChrF, as implemented by sacrebleu, requires the same number of references for "
        "each prediction",
    )
    metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    output = metric.corpus_score(predictions, streams)
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


class ChrfMetric(_Metric):
    """A stand-in for the object ``evaluate.load("chrf")`` returns."""

    name = "chrf"
    description = "sacrebleu's corpus chrF / chrF++"

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        return compute_chrf(predictions, references, **kwargs)


# -- TER -----------------------------------------------------------------------------------------


def compute_ter(
    predictions: Sequence[str],
    references: Sequence[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> Dict[str, Any]:
    """``evaluate.load("ter").compute(...)``: sacrebleu's corpus TER under the script's option
    names, with references given per prediction (a string, or a list of the same length for
    every prediction)."""
    from turbobleu.ter import TER

    streams = _same_count_streams(list(references), _SACREBLEU_REFS_ERROR)
    metric = TER(normalized, ignore_punct, support_zh_ja_chars, case_sensitive)
    output = metric.corpus_score(predictions, streams)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


class TerMetric(_Metric):
    """A stand-in for the object ``evaluate.load("ter")`` returns."""

    name = "ter"
    description = "sacrebleu's corpus TER"

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        return compute_ter(predictions, references, **kwargs)


# -- sacrebleu's BLEU -----------------------------------------------------------------------------


def _reference_lists(predictions: Any, references: Any) -> Tuple[List[str], List[Any]]:
    """Both inputs as lists, one list of references per prediction (a string per prediction is
    wrapped, as the scripts do when ``references[0]`` is a string); clear errors otherwise."""
    predictions = _check_strings(predictions, "predictions")
    if isinstance(references, str) or not hasattr(references, "__iter__"):
        raise TypeError(
            "references must be a list (of strings, or of lists of strings), "
            f"got {type(references).__name__}"
        )
    references = list(references)
    if len(references) != len(predictions):
        raise ValueError(
            f"predictions has {len(predictions)} items but references has "
            f"{len(references)}; evaluate requires one entry per prediction"
        )
    if not predictions:
        raise ValueError("predictions and references are empty; there is nothing to score")
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    if (
        set(map(type, references)) <= _SEQUENCES
        and set(map(type, chain.from_iterable(references))) <= _STR
    ):  # (the usual case, checked in C)
        return predictions, list(map(list, references))
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not hasattr(refs, "__iter__"):
            raise TypeError(f"references[{i}] must be a list of strings, got {type(refs).__name__}")
        references[i] = _check_strings(refs, f"references[{i}]")
    return predictions, references


def compute_sacrebleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: Optional[str] = None,
    use_effective_order: bool = False,
) -> Dict[str, Any]:
    """``evaluate.load("sacrebleu").compute(...)``: sacrebleu's ``corpus_bleu`` with the
    references given per prediction (a string, or a list of the same length for every
    prediction), its options under their names (``tokenize`` only when given). Returns the
    script's dict: ``score``, ``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``,
    ``ref_len``."""
    from turbobleu.bleu import corpus_bleu

    predictions, references = _reference_lists(predictions, references)
    streams = _same_count_streams(references, _SACREBLEU_REFS_ERROR)
    options: Dict[str, Any] = {"tokenize": tokenize} if tokenize else {}
    output = corpus_bleu(
        predictions,
        streams,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        **options,
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


class SacrebleuMetric(_Metric):
    """A stand-in for the object ``evaluate.load("sacrebleu")`` returns."""

    name = "sacrebleu"
    description = "sacrebleu's corpus BLEU, with its options"

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        return compute_sacrebleu(predictions, references, **kwargs)


# -- Google BLEU (NLTK's corpus GLEU) ------------------------------------------------------------


def compute_google_bleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Callable[[str], Sequence[Any]] = _DEFAULT_TOKENIZER,
    min_len: int = 1,
    max_len: int = 4,
) -> Dict[str, float]:
    """``evaluate.load("google_bleu").compute(...)``: NLTK's ``corpus_gleu`` of the tokenized
    predictions and references (any number of references per prediction, or a string each).
    ``tokenizer`` is any callable from a string to a token list (default: evaluate's 13a, run
    here in compiled code). Returns ``{"google_bleu": score}``."""
    from turbobleu.gleu import corpus_gleu

    if not callable(tokenizer):
        raise TypeError(f"tokenizer must be callable, got {type(tokenizer).__name__}")
    predictions, references = _reference_lists(predictions, references)
    if type(tokenizer) is Tokenizer13a:
        stats = _google_bleu_13a(predictions, references, min_len, max_len)
        if stats is not None:
            return {"google_bleu": gleu_score(*stats)}
    tokenized_refs = [[tokenizer(r) for r in refs] for refs in references]
    tokenized_preds = [tokenizer(p) for p in predictions]
    score = corpus_gleu(tokenized_refs, tokenized_preds, min_len=min_len, max_len=max_len)
    return {"google_bleu": score}


def _google_bleu_13a(
    predictions: List[str], references: List[List[str]], min_len: Any, max_len: Any
) -> Optional[Tuple[int, int]]:
    """GLEU's summed ``(tp, n_all)`` with the default tokenizer, tokenized, counted and NLTK's
    reference chosen in one compiled call (``gleu_stats``). Lines whose stripped tail holds a
    newline get evaluate's steps first. None for what this path leaves to the general one:
    orders compiled_orders refuses, a line only Python's 13a gets right (see
    _for_compiled_13a)."""
    if not compiled_orders(min_len, max_len):
        return None
    predictions, odd = _for_compiled_13a(predictions)
    flat = list(chain.from_iterable(references))
    prepared, odd_refs = _for_compiled_13a(flat)
    if odd or odd_refs:
        return None
    if prepared is not flat:
        starts = list(accumulate(map(len, references), initial=0))
        references = [prepared[a:b] for a, b in zip(starts, starts[1:])]
    stats: Optional[Tuple[int, int]] = _bleu_impl.text_rows().gleu_stats(
        predictions,
        references,
        _text_impl.tokenize.TOK_13A,
        False,
        min(min_len, LONGEST_ORDER),
        min(max_len, LONGEST_ORDER),
    )
    return stats


class GoogleBleuMetric(_Metric):
    """A stand-in for the object ``evaluate.load("google_bleu")`` returns."""

    name = "google_bleu"
    description = "Google BLEU (GLEU) as NLTK's corpus_gleu, on 13a tokens by default"

    def _score(self, predictions: Any, references: Any, **kwargs: Any) -> Dict[str, Any]:
        return compute_google_bleu(predictions, references, **kwargs)


_METRICS = {
    "bleu": BleuMetric,
    "chrf": ChrfMetric,
    "ter": TerMetric,
    "sacrebleu": SacrebleuMetric,
    "google_bleu": GoogleBleuMetric,
}
METRIC_NAMES = tuple(sorted(_METRICS))
"""The names :func:`load` serves (also with the ``evaluate-metric/`` prefix)."""


def metric_name(path: Any) -> Optional[str]:
    """The turbobleu metric that ``evaluate.load(path)`` names, or None."""
    if not isinstance(path, str):
        return None
    name = path[len("evaluate-metric/") :] if path.startswith("evaluate-metric/") else path
    return name if name in _METRICS else None


def load(path: str = "bleu", **kwargs: Any) -> Any:
    """``evaluate.load(name)`` without the Hub, for ``bleu``, ``chrf``, ``ter``, ``sacrebleu``
    and ``google_bleu`` (other keyword arguments are accepted and ignored)."""
    name = metric_name(path)
    if name is None:
        raise ValueError(
            f"turbobleu.evaluate provides the {sorted(_METRICS)} metrics, not {path!r}"
        )
    return _METRICS[name]()
