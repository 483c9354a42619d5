"""Batch sentence BLEU over token ids (or text), for reward loops and diversity metrics.

* ``sentence_bleu_batch(hyps, refs)`` - one score per hypothesis, each against its own 1..k
  references, in one call: hypotheses and references may be lists of id sequences, 2-D/3-D
  integer arrays with a pad id or lengths, torch tensors (CPU or CUDA, copied to the host once)
  or text with a tokenizer.
* ``ReferenceSets(refs)`` - references prepared once: per group of references, a table of every
  n-gram with its maximum count in any one reference, plus the reference lengths. ``score(hyps,
  group_size=G)`` scores G samples per group (GRPO) without copying the references.
* ``self_bleu(texts)`` - each text against all the others (the diversity metric).

Scores are the ones of a mirrored library's single call, bit for bit: ``SacreBLEURecipe``
(``sacrebleu.sentence_bleu``, every smoothing, effective order) or ``NLTKRecipe``
(``nltk.translate.bleu_score.sentence_bleu``, method0..method7, any weights). Counting and both
recipes run in C with the GIL released, over chunks of rows on a thread pool (``threads=``, by
default every usable core; the results do not depend on it).
"""

from __future__ import annotations

import threading
import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.count import ids as _ids
from turbobleu._engine.recipes import _nltk_scores_py as _python_nltk
from turbobleu._engine.recipes import chosen as _recipes_impl
from turbobleu._engine.recipes.nltk import ALPHA, EPSILON, ZERO_ORDER_MESSAGE, K
from turbobleu._engine.recipes.sacrebleu import SacreBLEUOptions
from turbobleu._engine.recipes.sacrebleu_rows import sacrebleu_scores_into
from turbobleu._engine.threads import (
    MIN_CHUNK_UNITS,
    default_threads,
    resolve_threads,
    run_chunks,
    run_pipelined,
)
from turbobleu._engine.validate import (
    check_flag,
    check_order,
    check_pad_id,
    describe,
    integer_array,
    integer_scalar,
)

__all__ = [
    "NLTKRecipe",
    "ReferenceSets",
    "SacreBLEURecipe",
    "default_threads",
    "self_bleu",
    "sentence_bleu_batch",
]


# Rows per chunk below which a thread is not worth its hand-off.
_MIN_CHUNK = MIN_CHUNK_UNITS


# -- recipes --------------------------------------------------------------------------------------
class SacreBLEURecipe:
    """sacrebleu's ``sentence_bleu`` (0-100 scale): ``smooth_method`` none | floor | add-k | exp,
    ``smooth_value`` (None: sacrebleu's default), ``effective_order`` (sentence_bleu's default
    True) and ``max_order`` (``max_ngram_order``), held (and checked) as ``options``, the
    ``SacreBLEUOptions`` that ``BLEU`` and the significance tests use too."""

    def __init__(
        self,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        effective_order: bool = True,
        max_order: int = 4,
    ) -> None:
        effective_order = check_flag(effective_order, "effective_order")
        self.options = SacreBLEUOptions(max_order, smooth_method, smooth_value, effective_order)

    @property
    def smooth_method(self) -> str:
        return self.options.smooth_method

    @property
    def smooth_value(self) -> Optional[float]:
        return self.options.smooth_value

    @property
    def effective_order(self) -> bool:
        return self.options.effective_order

    @property
    def max_order(self) -> int:
        return self.options.max_order

    @property
    def orders(self) -> int:
        """How many n-gram orders the statistics rows need."""
        return self.max_order

    def score_chunk(self, rows: np.ndarray, out: np.ndarray, start: int, end: int) -> None:
        sacrebleu_scores_into(rows[start:end], self.options, out[start:end])

    def finish(self, rows: np.ndarray, out: np.ndarray, states: List[Any], what: str) -> None:
        pass

    def __repr__(self) -> str:
        return (
            f"SacreBLEURecipe(smooth_method={self.smooth_method!r}, smooth_value="
            f"{self.smooth_value!r}, effective_order={self.effective_order}, "
            f"max_order={self.max_order})"
        )


_NLTK_MODULES = ("nltk.translate.bleu_score", "turbobleu.nltk")


def _smoothing_method(smoothing_function: Any) -> Tuple[int, Any, Any, Any]:
    """(method number, epsilon, alpha, k) of NLTK's smoothing argument.

    Accepted: None (method0), an int 0..7 or "methodN", or a bound method of NLTK's (or
    ``turbobleu.nltk``'s) ``SmoothingFunction``; anything else cannot run in C and is refused.
    """
    if smoothing_function is None or smoothing_function is False:
        return 0, EPSILON, ALPHA, K
    if (
        isinstance(smoothing_function, str)
        and smoothing_function.startswith("method")
        and smoothing_function[6:].isdigit()
    ):
        smoothing_function = int(smoothing_function[6:])
    if isinstance(smoothing_function, int) and not isinstance(smoothing_function, bool):
        if not 0 <= smoothing_function <= 7:
            raise ValueError(
                f"smoothing_function must be a method number 0..7, got {smoothing_function}"
            )
        return smoothing_function, EPSILON, ALPHA, K
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = getattr(smoothing_function, "__name__", "")
    if (
        owner is not None
        and func is not None
        and getattr(func, "__module__", "") in _NLTK_MODULES
        and name.startswith("method")
        and name[6:].isdigit()
        and 0 <= int(name[6:]) <= 7
    ):
        return int(name[6:]), owner.epsilon, owner.alpha, owner.k
    raise TypeError(
        "smoothing_function must be None, 0..7, 'methodN' or a method of NLTK's "
        "SmoothingFunction (e.g. SmoothingFunction().method1); a custom function "
        f"cannot run in the batch path, got {smoothing_function!r}"
    )


def _real(value: Any, what: str, integer_ok: bool = True) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be an int or a float, got {type(value).__name__}")
    if isinstance(value, np.floating) and value.dtype != np.float64:
        raise TypeError(f"{what} must be a Python or float64 number, got {value.dtype}")
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if abs(value) > 2**53:
            raise ValueError(f"{what} = {value} is too large (|value| <= 2**53)")
        return value
    return float(value)


class NLTKRecipe:
    """NLTK's ``sentence_bleu(references, hypothesis, weights, smoothing_function,
    auto_reweigh)`` (0-1 scale), with one weight vector of any length (its length is the max
    n-gram order). ``smoothing_function``: None, NLTK's ``SmoothingFunction().methodN`` (its
    epsilon, alpha and k are used), or a method number 0..7 with ``epsilon``/``alpha``/``k``.

    Like NLTK, method0 warns once per zero precision order, method6 raises (here ValueError
    naming the row) for a hypothesis with no trigram match, and scores of methods 5 and 7 use
    the 5-gram precision whatever the weights.
    """

    def __init__(
        self,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        smoothing_function: Any = None,
        auto_reweigh: bool = False,
        *,
        epsilon: Any = None,
        alpha: Any = None,
        k: Any = None,
    ) -> None:
        auto_reweigh = check_flag(auto_reweigh, "auto_reweigh")
        if isinstance(weights, np.ndarray):
            if weights.ndim != 1:
                raise TypeError("weights must be one weight vector (a 1-D sequence)")
            if auto_reweigh:
                raise ValueError(
                    "auto_reweigh with array weights: NLTK raises ValueError "
                    "(ambiguous array truth value); pass a tuple"
                )
            weights = weights.tolist()
        if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
            raise TypeError(f"weights must be a sequence of numbers, got {type(weights).__name__}")
        if len(weights) == 0:
            raise ValueError("weights is empty: give at least one weight")
        check_order(len(weights), "len(weights) (the max n-gram order)")
        values = [_real(w, f"weights[{i}]") for i, w in enumerate(weights)]
        if not all(np.isfinite(values)):
            raise ValueError(f"weights must be finite, got {list(weights)}")
        method, eps, alp, kk = _smoothing_method(smoothing_function)
        self.method = method
        self.epsilon = _real(eps if epsilon is None else epsilon, "epsilon")
        self.alpha = _real(alp if alpha is None else alpha, "alpha")
        self.k = _real(kk if k is None else k, "k")
        if method == 6 and len(values) < 3:
            raise ValueError(
                "NLTK's method6 needs at least 3 weights (it reads p_3; NLTK raises IndexError)"
            )
        self.weights = tuple(weights)
        self._weights = np.array(values, dtype=np.float64)
        # NLTK reweighs only a tuple equal to its default (a list never compares equal).
        self.auto_reweigh = bool(auto_reweigh)
        self._reweigh = (
            self.auto_reweigh
            and isinstance(weights, tuple)
            and tuple(weights) == (0.25, 0.25, 0.25, 0.25)
        )

    @property
    def max_order(self) -> int:
        return len(self._weights)

    @property
    def orders(self) -> int:
        """Orders the rows need: method5/7 always read the 5-gram precision."""
        return max(self.max_order, 5) if self.method in (5, 7) else self.max_order

    def score_chunk(self, rows: np.ndarray, out: np.ndarray, start: int, end: int) -> Any:
        status = np.zeros(end - start, dtype=np.uint8)
        zero = np.zeros(self.max_order, dtype=np.uint8)
        _recipes_impl.nltk_scores().nltk_sentence_scores(
            rows[start:end],
            self.orders,
            self._weights,
            self.method,
            float(self.epsilon),
            self.alpha,
            float(self.k),
            self._reweigh,
            out[start:end],
            status,
            zero,
        )
        return start, status, zero

    def finish(self, rows: np.ndarray, out: np.ndarray, states: List[Any], what: str) -> None:
        """Rows the C recipe handed back (big rationals, NLTK's errors) go through the Python
        recipe; then NLTK's method0 warnings, one per zero order."""
        flags = [0] * self.max_order
        for start, status, zero in states:
            for i in np.flatnonzero(zero):
                flags[int(i)] = 1
            for i in np.flatnonzero(status):
                row = int(start + i)
                try:
                    out[row] = _python_nltk.nltk_row_score(
                        rows[row].tolist(),
                        self.orders,
                        list(self.weights),
                        self.method,
                        self.epsilon,
                        self.alpha,
                        self.k,
                        self._reweigh,
                        flags,
                    )
                except (ArithmeticError, AssertionError, IndexError, ValueError) as exc:
                    raise ValueError(
                        f"{what}[{row}]: NLTK's sentence_bleu with method{self.method} raises "
                        f"{type(exc).__name__} for this hypothesis ({exc})"
                    ) from exc
        for order, flag in enumerate(flags, start=1):
            if flag:
                warnings.warn(ZERO_ORDER_MESSAGE.format(order), UserWarning, stacklevel=4)

    def __repr__(self) -> str:
        return (
            f"NLTKRecipe(weights={self.weights!r}, method={self.method}, epsilon="
            f"{self.epsilon!r}, alpha={self.alpha!r}, k={self.k!r}, auto_reweigh="
            f"{self.auto_reweigh})"
        )


# A sentence-BLEU recipe of this module (the scores of one library's sentence-level call).
SentenceBLEURecipe = Union[SacreBLEURecipe, NLTKRecipe]
# The name it had before (kept importable).
Recipe = SentenceBLEURecipe


def as_sentence_recipe(recipe: Any) -> SentenceBLEURecipe:
    """A ``recipe=`` argument ("sacrebleu", "nltk" or a recipe object) as a recipe object."""
    if isinstance(recipe, (SacreBLEURecipe, NLTKRecipe)):
        return recipe
    # Compared only as a str: an array's == would answer elementwise (then its truth raises).
    if isinstance(recipe, str) and recipe in ("sacrebleu", "nltk"):
        return SacreBLEURecipe() if recipe == "sacrebleu" else NLTKRecipe()
    shown = repr(recipe) if isinstance(recipe, str) else describe(recipe)
    raise ValueError(
        f"recipe must be 'sacrebleu', 'nltk', a SacreBLEURecipe or an NLTKRecipe, got {shown}"
    )


def default_tokenize(tokenize: Any, recipe: SentenceBLEURecipe) -> Any:
    """sacrebleu's text default is 13a; NLTK scores whitespace-split tokens ("none")."""
    if tokenize is not None:
        return tokenize
    return "13a" if isinstance(recipe, SacreBLEURecipe) else "none"


def _score_rows(
    n: int,
    recipe: SentenceBLEURecipe,
    threads: int,
    count: Callable[..., Any],
    what: str,
    return_stats: bool,
    prepare: Optional[Callable[[int, int], Any]] = None,
) -> Any:
    """Count rows and score them, chunk by chunk on the pool. With ``prepare``, each chunk's
    input is made (holding the GIL) while the pool works, and ``count`` gets it last."""
    rows = np.zeros((n, 2 + 2 * recipe.orders), dtype=np.int64)
    scores = np.empty(n, dtype=np.float64)

    if prepare is None:

        def work(start: int, end: int) -> Any:
            count(rows, start, end)
            return recipe.score_chunk(rows, scores, start, end)

        states = run_chunks(0, n, threads, work, _MIN_CHUNK)
    else:

        def work_on(ctx: Any, start: int, end: int) -> Any:
            count(rows, start, end, ctx)
            return recipe.score_chunk(rows, scores, start, end)

        states = run_pipelined(n, threads, prepare, work_on, _MIN_CHUNK)
    recipe.finish(rows, scores, states, what)
    return (scores, rows) if return_stats else scores


def _check_groups(group_offsets: np.ndarray, what: str, first: int = 0) -> None:
    empty = np.flatnonzero(np.diff(group_offsets) == 0)
    if len(empty):
        raise ValueError(
            f"{what}[{int(empty[0]) + first}] has no reference: every hypothesis "
            "needs at least one (NLTK and sacrebleu raise on an empty reference "
            "list)"
        )


def _id_lists(hypotheses: Any, references: Any) -> bool:
    """Both plain Python lists of id lists (the form packed chunk by chunk)."""
    return (
        isinstance(hypotheses, list)
        and isinstance(references, list)
        and bool(hypotheses)
        and isinstance(hypotheses[0], (list, tuple))
        and _ids.looks_like_text(hypotheses) is None
        and _ids._plain_id_groups(references)
    )


def _score_id_lists(
    hypotheses: list,
    references: list,
    rec: SentenceBLEURecipe,
    threads: int,
    pad_id: Optional[int],
    return_stats: bool,
) -> Any:
    """sentence_bleu_batch for lists of id lists: each chunk is packed (holding the GIL) while
    the pool counts and scores the chunks packed before it."""
    n = len(hypotheses)
    if len(references) != n:
        raise ValueError(
            f"hypotheses has {n} rows but references has {len(references)}: "
            "give one list of references per hypothesis (or use ReferenceSets "
            "with group_size= for several samples per reference set)"
        )
    kernel, packer = _count_impl.kernel, _count_impl.packer()
    rows = np.zeros((n, 2 + 2 * rec.orders), dtype=np.int64)
    scores = np.empty(n, dtype=np.float64)

    def prepare(start: int, end: int) -> Any:
        hyp = packer.pack_sequences(hypotheses[start:end], "hypotheses", pad_id, start)
        ref = packer.pack_groups(references[start:end], "references", pad_id, start)
        _check_groups(ref[2], "references", start)
        return hyp, ref

    def work(ctx: Any, start: int, end: int) -> Any:
        (hyp_ids, hyp_off), (ref_ids, ref_off, group_off) = ctx
        kernel.count_stats(
            hyp_ids, hyp_off, ref_ids, ref_off, group_off, rec.orders, rows[start:end]
        )
        return rec.score_chunk(rows, scores, start, end)

    states = run_pipelined(n, threads, prepare, work, _MIN_CHUNK)
    rec.finish(rows, scores, states, "hypotheses")
    return (scores, rows) if return_stats else scores


# -- one call: hypotheses with their own references --------------------------------------------
def sentence_bleu_batch(
    hypotheses: Any,
    references: Any,
    recipe: Any = "sacrebleu",
    *,
    pad_id: Optional[int] = None,
    hyp_lengths: Any = None,
    ref_lengths: Any = None,
    tokenize: Any = None,
    lowercase: bool = False,
    threads: Optional[int] = None,
    return_stats: bool = False,
) -> Any:
    """Sentence BLEU of every hypothesis against its own references, in one call.

    ``hypotheses``: a list of id sequences, a 2-D integer array or torch tensor (rows padded with
    ``pad_id``, whose every occurrence is dropped, or cut at ``hyp_lengths``), a list of 1-D
    arrays/tensors, or strings. ``references``: per hypothesis, a list of 1..k references in the
    same forms; or a 2-D array (one reference per row), a 3-D array (rows x k x positions), or a
    ``ReferenceSets`` with one group per hypothesis. Text goes through ``tokenize`` (a tokenizer
    name, default 13a for sacrebleu and whitespace for NLTK, or any callable str -> tokens).

    Returns a float64 array of scores (the recipe's scale: 0-100 for sacrebleu, 0-1 for NLTK),
    and with ``return_stats`` also the int64 rows ``[hyp_len, ref_len, matches_1..N,
    totals_1..N]``. ``threads``: worker threads (default: every core).
    """
    pad_id = check_pad_id(pad_id)
    return_stats = check_flag(return_stats, "return_stats")
    lowercase = check_flag(lowercase, "lowercase")
    if isinstance(references, ReferenceSets):
        if ref_lengths is not None:  # (its references were cut when it was prepared)
            raise ValueError("ref_lengths applies to reference arrays, not to a ReferenceSets")
        return references.score(
            hypotheses,
            recipe,
            pad_id=pad_id,
            lengths=hyp_lengths,
            threads=threads,
            return_stats=return_stats,
        )
    rec = as_sentence_recipe(recipe)
    n_threads = resolve_threads(threads)
    if hyp_lengths is None and ref_lengths is None and _id_lists(hypotheses, references):
        return _score_id_lists(hypotheses, references, rec, n_threads, pad_id, return_stats)
    encoder = _ids.TextEncoder(default_tokenize(tokenize, rec), lowercase)
    ref_ids, ref_off, group_off = _ids.groups(
        references, "references", pad_id, ref_lengths, encoder, "ref_lengths"
    )
    hyp_ids, hyp_off = _ids.sequences(
        hypotheses, "hypotheses", pad_id, hyp_lengths, encoder, True, "hyp_lengths"
    )
    n = len(hyp_off) - 1
    if len(group_off) - 1 != n:
        raise ValueError(
            f"hypotheses has {n} rows but references has {len(group_off) - 1}: "
            "give one list of references per hypothesis (or use ReferenceSets "
            "with group_size= for several samples per reference set)"
        )
    _check_groups(group_off, "references")
    kernel = _count_impl.kernel

    def count(rows: np.ndarray, start: int, end: int) -> None:
        kernel.count_stats(
            hyp_ids, hyp_off, ref_ids, ref_off, group_off, rec.orders, rows, start, end
        )

    return _score_rows(n, rec, n_threads, count, "hypotheses", return_stats)


# -- prepared references --------------------------------------------------------------------------
class ReferenceSets:
    """Groups of references prepared once, to score any number of hypotheses against them.

    ``references[g]`` is group g's list of 1..k references (id sequences, arrays, tensors or
    strings; or a 2-D/3-D array as in ``sentence_bleu_batch``). Building keeps, per group, every
    n-gram of orders 1..``max_order`` with its maximum count in any one reference (about 25
    bytes per distinct n-gram; ``nbytes`` tells) and the reference lengths. Scoring a hypothesis
    then only looks up its own n-grams: G samples per group share one table (``group_size=G``).

    Text references keep their vocabulary; text hypotheses are tokenized against it.
    """

    def __init__(
        self,
        references: Any,
        *,
        max_order: int = 4,
        pad_id: Optional[int] = None,
        lengths: Any = None,
        tokenize: Any = "13a",
        lowercase: bool = False,
        threads: Optional[int] = None,
        _hash_mask: int = 0xFFFFFFFFFFFFFFFF,
    ) -> None:
        max_order = check_order(max_order, "max_order")
        pad_id = check_pad_id(pad_id)
        lowercase = check_flag(lowercase, "lowercase")
        n_threads = resolve_threads(threads)
        self.max_order = max_order
        self._encoder = _ids.TextEncoder(tokenize, lowercase)
        self._encoder_lock = threading.Lock()
        self._hash_mask = _hash_mask
        ids, offsets, group_off = _ids.groups(
            references, "references", pad_id, lengths, self._encoder
        )
        if len(group_off) < 2:
            raise ValueError("references is empty: give at least one group of references")
        _check_groups(group_off, "references")
        self.num_groups = len(group_off) - 1
        self._group_off = group_off
        self._ref_lens = np.diff(offsets).astype(np.int64)
        ref_tables = _count_impl.ref_tables()

        def build(start: int, end: int) -> Tuple[np.ndarray, np.ndarray]:
            return ref_tables.build_ref_tables(
                ids, offsets, group_off, max_order, start, end, _hash_mask
            )

        parts = run_chunks(0, self.num_groups, n_threads, build, _MIN_CHUNK)
        self._table = parts[0][0] if len(parts) == 1 else np.concatenate([p[0] for p in parts])
        self._caps = parts[0][1] if len(parts) == 1 else np.concatenate([p[1] for p in parts])
        self._bases = np.zeros(self.num_groups, dtype=np.int64)
        np.cumsum(self._caps[:-1], out=self._bases[1:])

    def __len__(self) -> int:
        return self.num_groups

    @property
    def num_references(self) -> np.ndarray:
        """References per group."""
        return np.diff(self._group_off)

    @property
    def nbytes(self) -> int:
        """Memory held by the tables and lengths."""
        return int(
            self._table.nbytes
            + self._caps.nbytes
            + self._bases.nbytes
            + self._ref_lens.nbytes
            + self._group_off.nbytes
        )

    def __repr__(self) -> str:
        return (
            f"ReferenceSets(groups={self.num_groups}, max_order={self.max_order}, "
            f"nbytes={self.nbytes})"
        )

    def _groups_of(self, n: int, group: Any, group_size: Optional[int]) -> np.ndarray:
        if group is not None and group_size is not None:
            raise ValueError("give group or group_size, not both")
        if group_size is not None:
            size = integer_scalar(group_size)
            if size is None or size < 1:
                raise ValueError(f"group_size must be a positive integer, got {group_size!r}")
            if n != size * self.num_groups:
                # Too few is refused too: with one sample per prompt and the run's G, the
                # second sample would silently be scored against the first prompt's references.
                raise ValueError(
                    f"{n} hypotheses with group_size={size}, but these references have "
                    f"{self.num_groups} groups: group_size={size} needs "
                    f"{size * self.num_groups} hypotheses (for some of the groups only, pass "
                    "group=, a group index per hypothesis)"
                )
            return np.arange(n, dtype=np.int64) // size
        if group is None:
            if n != self.num_groups:
                raise ValueError(
                    f"hypotheses has {n} rows but there are {self.num_groups} "
                    "reference groups: pass group= (a group index per hypothesis) "
                    "or group_size= (consecutive samples per group)"
                )
            return np.arange(n, dtype=np.int64)
        idx = integer_array(group, "group (one group index per hypothesis)", (n,))
        if n and (int(idx.min()) < 0 or int(idx.max()) >= self.num_groups):
            bad = int(idx.min()) if int(idx.min()) < 0 else int(idx.max())
            raise ValueError(
                f"group holds {bad}: group indices must be in 0..{self.num_groups - 1}"
            )
        return np.ascontiguousarray(idx, dtype=np.int64)

    def _hypotheses(self, hypotheses: Any, pad_id: Optional[int], lengths: Any) -> _ids.CSR:
        if self._encoder.used is None:  # id references: no vocabulary to share
            return _ids.sequences(
                hypotheses, "hypotheses", pad_id, lengths, self._encoder, frozen=True
            )
        with self._encoder_lock:  # the shared vocabulary is read by one thread at a time
            return _ids.sequences(
                hypotheses, "hypotheses", pad_id, lengths, self._encoder, frozen=True
            )

    def stats(
        self,
        hypotheses: Any,
        *,
        group: Any = None,
        group_size: Optional[int] = None,
        max_order: Optional[int] = None,
        pad_id: Optional[int] = None,
        lengths: Any = None,
        threads: Optional[int] = None,
    ) -> np.ndarray:
        """The int64 statistics rows ``[hyp_len, ref_len, matches_1..N, totals_1..N]``."""
        order = self.max_order if max_order is None else max_order
        rec = SacreBLEURecipe(max_order=order)
        _, rows = self.score(
            hypotheses,
            rec,
            group=group,
            group_size=group_size,
            pad_id=pad_id,
            lengths=lengths,
            threads=threads,
            return_stats=True,
        )
        return rows

    def score(
        self,
        hypotheses: Any,
        recipe: Any = "sacrebleu",
        *,
        group: Any = None,
        group_size: Optional[int] = None,
        pad_id: Optional[int] = None,
        lengths: Any = None,
        threads: Optional[int] = None,
        return_stats: bool = False,
    ) -> Any:
        """Sentence BLEU of each hypothesis against its group's references.

        Hypothesis i belongs to group ``group[i]``, or ``i // group_size`` (then there must be
        exactly ``group_size`` hypotheses per reference group), or i. The recipe's
        orders must not exceed ``max_order`` (NLTK's method5/7 read 5-grams: prepare with
        ``max_order >= 5`` for them). Returns scores, and the rows with ``return_stats``.
        """
        rec = as_sentence_recipe(recipe)
        pad_id = check_pad_id(pad_id)
        return_stats = check_flag(return_stats, "return_stats")
        if rec.orders > self.max_order:
            raise ValueError(
                f"the recipe needs n-grams up to order {rec.orders} but these "
                f"references were prepared with max_order={self.max_order}"
            )
        n_threads = resolve_threads(threads)
        ref_tables, packer = _count_impl.ref_tables(), _count_impl.packer()
        table, bases, caps = self._table, self._bases, self._caps
        group_off, ref_lens, mask = self._group_off, self._ref_lens, self._hash_mask

        def score_against_tables(
            ids: Any, off: Any, groups: Any, rows: np.ndarray, start: int, end: int
        ) -> None:
            """Rows ``start..end`` of ``(ids, off)``, each against its group's reference table."""
            ref_tables.score_ref_tables(
                table,
                bases,
                caps,
                group_off,
                ref_lens,
                self.max_order,
                ids,
                off,
                groups,
                rec.orders,
                rows,
                start,
                end,
                mask,
            )

        if (
            self._encoder.used is None
            and lengths is None
            and isinstance(hypotheses, list)
            and hypotheses
            and isinstance(hypotheses[0], (list, tuple))
            and _ids.looks_like_text(hypotheses) is None
        ):
            # Lists of id lists: packed chunk by chunk while the pool scores.
            n = len(hypotheses)
            hyp_group = self._groups_of(n, group, group_size)

            def prepare(start: int, end: int) -> Any:
                return packer.pack_sequences(hypotheses[start:end], "hypotheses", pad_id, start)

            def count_chunk(rows: np.ndarray, start: int, end: int, ctx: Any) -> None:
                score_against_tables(ctx[0], ctx[1], hyp_group[start:end], rows[start:end], 0, -1)

            return _score_rows(n, rec, n_threads, count_chunk, "hypotheses", return_stats, prepare)
        hyp_ids, hyp_off = self._hypotheses(hypotheses, pad_id, lengths)
        n = len(hyp_off) - 1
        hyp_group = self._groups_of(n, group, group_size)

        def count(rows: np.ndarray, start: int, end: int) -> None:
            score_against_tables(hyp_ids, hyp_off, hyp_group, rows, start, end)

        return _score_rows(n, rec, n_threads, count, "hypotheses", return_stats)


# -- self-BLEU ------------------------------------------------------------------------------------
def _closest_other_lengths(lengths: np.ndarray) -> np.ndarray:
    """For each text, the length nearest its own among all the other texts (shorter on a tie)."""
    values, counts = np.unique(lengths, return_counts=True)
    pos = np.searchsorted(values, lengths)
    best = lengths.copy()
    alone = counts[pos] == 1  # no other text of the same length
    below = np.where(pos > 0, values[np.maximum(pos - 1, 0)], -1)
    above = np.where(pos + 1 < len(values), values[np.minimum(pos + 1, len(values) - 1)], -1)
    use_below = alone & (below >= 0) & ((above < 0) | (lengths - below <= above - lengths))
    use_above = alone & ~use_below
    best[use_below] = below[use_below]
    best[use_above] = above[use_above]
    return best


def self_bleu(
    texts: Any,
    recipe: Any = "sacrebleu",
    *,
    pad_id: Optional[int] = None,
    lengths: Any = None,
    tokenize: Any = None,
    lowercase: bool = False,
    threads: Optional[int] = None,
    return_stats: bool = False,
    _hash_mask: int = 0xFFFFFFFFFFFFFFFF,
) -> Any:
    """Self-BLEU: each text scored against all the other texts as its references.

    Returns the float64 array of per-text scores (their mean is the corpus' Self-BLEU); each
    equals the mirrored library's ``sentence_bleu(others, text)``. ``texts``: strings (with
    ``tokenize``), token-string lists, id sequences, a 2-D array or tensor (``pad_id`` /
    ``lengths``). One n-gram table over all texts keeps each n-gram's two largest per-text
    counts, so the cost grows with the number of n-grams, not with its square.
    """
    rec = as_sentence_recipe(recipe)
    n_threads = resolve_threads(threads)
    return_stats = check_flag(return_stats, "return_stats")
    encoder = _ids.TextEncoder(default_tokenize(tokenize, rec), check_flag(lowercase, "lowercase"))
    ids, offsets = _ids.sequences(texts, "texts", check_pad_id(pad_id), lengths, encoder)
    n = len(offsets) - 1
    if n < 2:
        raise ValueError(
            f"self_bleu needs at least 2 texts (each is scored against the others), got {n}"
        )
    self_table = _count_impl.self_table()
    table, cap = self_table.build_self_table(ids, offsets, rec.orders, _hash_mask)
    ref_lens = _closest_other_lengths(np.diff(offsets).astype(np.int64))

    def count(rows: np.ndarray, start: int, end: int) -> None:
        self_table.score_self_table(
            table, cap, rec.orders, ids, offsets, rec.orders, rows, start, end, _hash_mask
        )
        rows[start:end, 1] = ref_lens[start:end]

    return _score_rows(n, rec, n_threads, count, "texts", return_stats)
