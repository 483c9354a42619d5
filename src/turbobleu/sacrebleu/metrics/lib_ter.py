"""``sacrebleu.metrics.lib_ter``: TER's edit counting (``translation_edit_rate``), its beam edit
distance (``BeamEditDistance``) and ``trace_to_alignment``, with sacrebleu's results.

``translation_edit_rate`` runs turbobleu's TER engine (the compiled edit counting, or its twin
under ``TURBOBLEU_IMPL=python``) on word ids. ``BeamEditDistance`` is the engine's beam edit
distance (``_engine.ter._ter_py.BeamDistance``) with sacrebleu's trace of operations and its
cache of matrix rows by hypothesis prefix. That cache is keyed by words alone, while the beam
depends on the hypothesis' length: as in sacrebleu, a hypothesis of another length that shares a
prefix with an earlier one reuses that one's rows, so the results of a ``BeamEditDistance``
depend on the calls made before (TER only calls it with hypotheses of one length).
"""

from __future__ import annotations

from turbobleu._engine.ter import chosen as _ter_impl
from turbobleu._engine.ter._ter_py import MATCH, SKIP_HYP, SKIP_REF, SUBSTITUTE, BeamDistance
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Dict, Hashable, List, Sequence, Tuple

    # A row of the edit distance matrix: (costs, moves), one of each per reference position.
    Row = Tuple[List[int], List[int]]

__all__ = ["BeamEditDistance", "trace_to_alignment", "translation_edit_rate"]

# sacrebleu's letters for the operations of a trace (rewriting the reference into the hypothesis
# after its flip; before it, "i" consumes a reference word and "d" a hypothesis word).
_OPERATION = {MATCH: " ", SUBSTITUTE: "s", SKIP_REF: "i", SKIP_HYP: "d"}
# sacrebleu stops adding rows to the cache once it holds this many.
_MAX_CACHE_SIZE = 10000


def translation_edit_rate(words_hyp: List[str], words_ref: List[str]) -> Tuple[int, int]:
    """(TER's number of edits from ``words_hyp`` to ``words_ref``, the reference's length)."""
    ids: Dict[Hashable, int] = {}
    ref = [ids.setdefault(word, len(ids)) for word in words_ref]
    hyp = [ids.setdefault(word, len(ids)) for word in words_hyp]
    return _ter_impl.ter_edits().pair_edits(hyp, ref), len(ref)


def trace_to_alignment(trace: str) -> Tuple[Dict[int, int], List[int], List[int]]:
    """The alignment a trace of operations (" " keep, "s" substitute, "i" insert, "d" delete)
    describes: for each reference position the hypothesis position it is aligned to (-1 before
    the first word), and the error flags (1 for an error) of the reference and hypothesis words.
    """
    hyp_pos = ref_pos = -1
    align: Dict[int, int] = {}
    ref_err: List[int] = []
    hyp_err: List[int] = []
    for k, op in enumerate(trace):
        if op == " " or op == "s":
            hyp_pos += 1
            ref_pos += 1
            align[ref_pos] = hyp_pos
            flag = int(op == "s")
            hyp_err.append(flag)
            ref_err.append(flag)
        elif op == "i":
            hyp_pos += 1
            hyp_err.append(1)
        elif op == "d":
            ref_pos += 1
            align[ref_pos] = hyp_pos
            ref_err.append(1)
        else:
            raise ValueError(f"trace[{k}] is {op!r}, not an operation (' ', 's', 'i' or 'd')")
    return align, ref_err, hyp_err


class BeamEditDistance:
    """The beam edit distance from hypotheses to one reference, ``words_ref``:
    ``distance(words_hyp)`` is ``(edit distance, trace)``, the trace being the operations of the
    cheapest path (see ``trace_to_alignment``), with sacrebleu's cache (see the module)."""

    def __init__(self, words_ref: Sequence[Hashable]) -> None:
        # The engine compares word ids: every word gets one when first seen.
        self._ids: Dict[Hashable, int] = {}
        self._ref = [self._ids.setdefault(word, len(self._ids)) for word in words_ref]
        # word id -> (the next words' node, the matrix row after that word)
        self._cache: Dict[int, Tuple[dict, Row]] = {}
        self._cache_size = 0

    def __call__(self, words_hyp: Sequence[Hashable]) -> Tuple[int, str]:
        words = [self._ids.setdefault(word, len(self._ids)) for word in words_hyp]
        beam = BeamDistance(self._ref, len(words))
        known: List[Row] = [beam.first_row]
        node = self._cache
        for word in words:  # the rows of the longest cached prefix
            if word not in node:
                break
            node, row = node[word]
            known.append(row)
        rows = beam.rows(words, known)
        self._remember(words, rows, len(known))
        return rows[-1][0][-1], self._trace(rows, len(words))

    def _remember(self, words: List[int], rows: List[Row], cached: int) -> None:
        """Caches the rows computed after the ``cached`` first ones (sacrebleu checks the size
        limit once per call)."""
        if self._cache_size >= _MAX_CACHE_SIZE:
            return
        node = self._cache
        for word in words[: cached - 1]:
            node = node[word][0]
        for word, row in zip(words[cached - 1 :], rows[cached:]):
            if word not in node:
                node[word] = ({}, row)
                self._cache_size += 1
            node = node[word][0]

    def _trace(self, rows: List[Row], n_hyp: int) -> str:
        ops: List[str] = []
        i, j = n_hyp, len(self._ref)
        while i > 0 or j > 0:
            move = rows[i][1][j]
            if move not in _OPERATION:  # sacrebleu fails here too
                raise RuntimeError(
                    "TER: the beam left no path through the edit distance matrix (a cached "
                    "prefix of a hypothesis of another length)"
                )
            ops.append(_OPERATION[move])
            if move == MATCH or move == SUBSTITUTE:
                i -= 1
                j -= 1
            elif move == SKIP_REF:
                j -= 1
            else:
                i -= 1
        return "".join(reversed(ops))
