"""Pairwise sentence BLEU: every hypothesis against every reference, one reference at a time.

Cell ``[i, j]`` of ``pairwise_bleu(hyps, refs)`` equals ``sacrebleu.sentence_bleu(hyps[i],
[refs[j]]).score`` (``SacreBLEURecipe``, any smoothing) or NLTK's ``sentence_bleu([refs[j]],
hyps[i])`` (``NLTKRecipe``), bit for bit. This is the matrix that minimum Bayes risk decoding
(``turbobleu.mbr``) and pairwise diversity measures need.

Each text is tokenized once and reduced once to its n-gram profile (its distinct n-grams with
their counts, numbered across all texts); a block of references is inverted into posting lists
(n-gram -> the references holding it), so each hypothesis only visits the n-grams it shares with
each reference. ``PairwiseBLEU`` keeps the profiles, for matrices computed block by block.
"""

from __future__ import annotations

import threading
from typing import Any, Iterator, Optional, Tuple

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.count import ids as _ids
from turbobleu._engine.threads import resolve_threads, run_chunks
from turbobleu._engine.validate import check_flag, describe, integer_scalar
from turbobleu.batch import SentenceBLEURecipe, as_sentence_recipe, default_tokenize

__all__ = ["PairwiseBLEU", "pairwise_bleu"]

# Cells per thread chunk below which a hand-off to the pool costs more than it saves.
_MIN_CHUNK_CELLS = 8192
# Cells per band of rows that ``matrix`` counts at once: bounds the statistics rows it holds
# (2 + 2 * orders int64 each: 80 MiB at 4 orders) whatever the matrix' size.
_BAND_CELLS = 1 << 20


def _span(index: Any, size: int, what: str) -> Tuple[int, int]:
    """(start, end) of ``None`` (everything), a step-1 slice, a step-1 range or a (start, end)
    pair."""
    if index is None:
        return 0, size
    if isinstance(index, (slice, range)):
        if index.step not in (None, 1):
            raise ValueError(f"{what} must be contiguous (step 1), got {index!r}")
        start, stop, _ = slice(index.start, index.stop).indices(size)
        return start, max(start, stop)
    if isinstance(index, tuple) and len(index) == 2:
        start, stop = index
        if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in index):
            if 0 <= start <= stop <= size:
                return int(start), int(stop)
            raise ValueError(f"{what} = {index!r} is outside 0..{size}")
    shown = repr(index) if isinstance(index, (int, float, str, tuple)) else describe(index)
    raise TypeError(f"{what} must be None, a slice, a range or a (start, end) pair, got {shown}")


class PairwiseBLEU:
    """Hypotheses and references prepared once (tokenized, n-gram profiles built), to compute
    their sentence-BLEU matrix whole (``matrix()``) or block by block (``matrix(rows, cols)``,
    ``blocks()``) when it does not fit in memory.

    ``hypotheses`` / ``references``: strings (tokenized with ``tokenize``: a tokenizer name,
    default 13a for sacrebleu and whitespace for NLTK, or a callable), lists of token strings,
    id sequences, a list of 1-D arrays, or a 2-D integer array or tensor (``pad_id`` /
    ``hyp_lengths`` / ``ref_lengths``). ``references=None``: the hypotheses against themselves
    (each text prepared once). ``recipe``: "sacrebleu", "nltk", a ``SacreBLEURecipe`` or an
    ``NLTKRecipe``.
    """

    def __init__(
        self,
        hypotheses: Any,
        references: Any = None,
        recipe: Any = "sacrebleu",
        *,
        tokenize: Any = None,
        lowercase: bool = False,
        pad_id: Optional[int] = None,
        hyp_lengths: Any = None,
        ref_lengths: Any = None,
        threads: Optional[int] = None,
        _names: Tuple[str, str] = ("hypotheses", "references"),
    ) -> None:
        # _names: what messages call the two inputs (mbr_select's candidates, ...).
        hyp_name, ref_name = _names
        self.recipe: SentenceBLEURecipe = as_sentence_recipe(recipe)
        self.threads = resolve_threads(threads)
        pad_id = _ids.check_pad_id(pad_id)
        lowercase = check_flag(lowercase, "lowercase")
        encoder = _ids.TextEncoder(default_tokenize(tokenize, self.recipe), lowercase)
        if ref_name != "references":
            encoder.refs_name = ref_name
        if references is None:
            if ref_lengths is not None:
                raise ValueError(f"ref_lengths is given but {ref_name} is None")
            ids, off = _ids.sequences(
                hypotheses, hyp_name, pad_id, hyp_lengths, encoder, False, "hyp_lengths"
            )
            self.num_hypotheses = self.num_references = len(off) - 1
            self._ref_first = 0  # the references are the hypotheses' own texts
        else:
            ref_ids, ref_off = _ids.sequences(
                references, ref_name, pad_id, ref_lengths, encoder, False, "ref_lengths"
            )
            # frozen: the hypotheses must come in the references' form (no form to match
            # when there is no reference).
            hyp_ids, hyp_off = _ids.sequences(
                hypotheses, hyp_name, pad_id, hyp_lengths, encoder, len(ref_off) > 1, "hyp_lengths"
            )
            self.num_hypotheses = len(hyp_off) - 1
            self.num_references = len(ref_off) - 1
            self._ref_first = self.num_hypotheses
            # One packing (hypotheses first), so that an n-gram has one number everywhere.
            ids = np.concatenate([hyp_ids, ref_ids])
            off = np.concatenate([hyp_off, ref_off[1:] + hyp_off[-1]])
        self.orders = self.recipe.orders
        kernel = _count_impl.pairwise_kernel()
        self._kernel = kernel
        self._lengths = np.diff(off).astype(np.int64)
        self._prof_off, self._prof_gram, self._prof_count, self._n_grams = kernel.ngram_profiles(
            np.ascontiguousarray(ids, dtype=np.int32), off, self.orders
        )
        self._postings_lock = threading.Lock()
        self._postings: Optional[Tuple[int, int, Any]] = None  # the last column block's

    @property
    def shape(self) -> Tuple[int, int]:
        return self.num_hypotheses, self.num_references

    @property
    def nbytes(self) -> int:
        """Memory held by the prepared profiles."""
        parts = (self._prof_off, self._prof_gram, self._prof_count, self._lengths)
        return int(sum(p.nbytes for p in parts))

    def __repr__(self) -> str:
        return f"PairwiseBLEU(shape={self.shape}, recipe={self.recipe!r}, nbytes={self.nbytes})"

    def _column_postings(self, c_start: int, c_end: int) -> Any:
        """Posting lists of references c_start..c_end (text numbers), the last block kept."""
        with self._postings_lock:
            kept = self._postings
            if kept is not None and kept[:2] == (c_start, c_end):
                return kept[2]
        postings = self._kernel.column_postings(
            self._prof_off,
            self._prof_gram,
            self._prof_count,
            self._n_grams,
            self.orders,
            c_start,
            c_end,
        )
        with self._postings_lock:
            self._postings = (c_start, c_end, postings)
        return postings

    def stats(self, rows: Any = None, cols: Any = None) -> np.ndarray:
        """The int64 statistics ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` of the block,
        shape (rows, cols, 2 + 2N)."""
        _, stats = self._block(rows, cols, self.threads, True)
        return stats

    def matrix(
        self,
        rows: Any = None,
        cols: Any = None,
        *,
        threads: Optional[int] = None,
        return_stats: bool = False,
    ) -> Any:
        """Scores of hypotheses ``rows`` x references ``cols`` (None: all; a slice, a range or
        a (start, end) pair), a float64 array on the recipe's scale (0-100 sacrebleu, 0-1
        NLTK); with ``return_stats`` also the statistics (see ``stats``)."""
        n_threads = self.threads if threads is None else resolve_threads(threads)
        return_stats = check_flag(return_stats, "return_stats")
        scores, stats = self._block(rows, cols, n_threads, return_stats)
        return (scores, stats) if return_stats else scores

    def blocks(
        self, block_rows: int = 1024, block_cols: int = 1024, *, threads: Optional[int] = None
    ) -> Iterator[Tuple[slice, slice, np.ndarray]]:
        """``(rows, cols, scores)`` for every block of at most block_rows x block_cols cells,
        column band by column band (each band's postings are built once)."""
        sizes = []
        for name, size in (("block_rows", block_rows), ("block_cols", block_cols)):
            count = integer_scalar(size)
            if count is None or count < 1:
                raise ValueError(f"{name} must be a positive integer, got {size!r}")
            sizes.append(count)
        block_rows, block_cols = sizes
        for c0 in range(0, self.num_references, block_cols):
            cols = slice(c0, min(c0 + block_cols, self.num_references))
            for r0 in range(0, self.num_hypotheses, block_rows):
                rows = slice(r0, min(r0 + block_rows, self.num_hypotheses))
                yield rows, cols, self.matrix(rows, cols, threads=threads)

    def _block(self, rows: Any, cols: Any, threads: int, keep_stats: bool) -> Any:
        r0, r1 = _span(rows, self.num_hypotheses, "rows")
        c0, c1 = _span(cols, self.num_references, "cols")
        nr, nc = r1 - r0, c1 - c0
        width = 2 + 2 * self.orders
        scores = np.empty((nr, nc), dtype=np.float64)
        stats = np.empty((nr, nc, width), dtype=np.int64) if keep_stats else None
        if nr == 0 or nc == 0:
            return scores, stats
        postings = self._column_postings(self._ref_first + c0, self._ref_first + c1)
        # Bands of whole rows, so that the statistics held at once stay bounded.
        band = max(1, _BAND_CELLS // nc)
        for b0 in range(r0, r1, band):
            b1 = min(b0 + band, r1)
            rows_out = (
                stats[b0 - r0 : b1 - r0].reshape(-1, width)
                if stats is not None
                else np.empty(((b1 - b0) * nc, width), dtype=np.int64)
            )
            self._score_band(
                b0, b1, c0, c1, postings, rows_out, scores[b0 - r0 : b1 - r0].reshape(-1), threads
            )
        return scores, stats

    def _score_band(
        self,
        r0: int,
        r1: int,
        c0: int,
        c1: int,
        postings: Any,
        rows: np.ndarray,
        out: np.ndarray,
        threads: int,
    ) -> None:
        """Count and score hypotheses r0..r1 against references c0..c1, chunks of whole
        hypothesis rows on the pool."""
        nc = c1 - c0
        kernel, recipe, first = self._kernel, self.recipe, self._ref_first

        def work(i0: int, i1: int) -> Any:
            cells = slice((i0 - r0) * nc, (i1 - r0) * nc)
            kernel.pairwise_stats(
                self._prof_off,
                self._prof_gram,
                self._prof_count,
                self._lengths,
                self.orders,
                *postings,
                i0,
                i1,
                first + c0,
                first + c1,
                rows[cells],
            )
            return recipe.score_chunk(rows, out, cells.start, cells.stop)

        # A row of the band is nc cells of work.
        states = run_chunks(r0, r1, threads, work, _MIN_CHUNK_CELLS, nc)
        try:
            recipe.finish(rows, out, states, "cell")
        except ValueError as exc:  # NLTK's errors (method6), which name the cell's number
            raise ValueError(
                f"{exc}; cell k is hypothesis {r0} + k // {nc} against reference {c0} + k % {nc}"
            ) from exc


def pairwise_bleu(
    hypotheses: Any,
    references: Any = None,
    recipe: Any = "sacrebleu",
    *,
    tokenize: Any = None,
    lowercase: bool = False,
    pad_id: Optional[int] = None,
    hyp_lengths: Any = None,
    ref_lengths: Any = None,
    threads: Optional[int] = None,
    return_stats: bool = False,
) -> Any:
    """The (hypotheses x references) float64 matrix of single-reference sentence BLEU; with
    ``references=None``, every hypothesis against every hypothesis (the diagonal included).

    Inputs and options as in ``PairwiseBLEU``; ``return_stats`` adds the int64 statistics
    (rows x cols x (2 + 2N)). For matrices too large to hold, use ``PairwiseBLEU(...).blocks()``.
    """
    return_stats = check_flag(return_stats, "return_stats")  # (before the work it would waste)
    prepared = PairwiseBLEU(
        hypotheses,
        references,
        recipe,
        tokenize=tokenize,
        lowercase=lowercase,
        pad_id=pad_id,
        hyp_lengths=hyp_lengths,
        ref_lengths=ref_lengths,
        threads=threads,
    )
    return prepared.matrix(return_stats=return_stats)
