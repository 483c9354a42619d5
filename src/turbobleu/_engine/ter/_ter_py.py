"""The pure-Python twin of ``_ter.pyx``: TER's edit counting, the readable specification of what
the compiled module computes (same functions, same parameters).

TER (Snover et al., 2006) as sacrebleu 2.6.0 computes it (its reimplementation of Tercom): the
number of edits that turn a hypothesis into a reference is the fewest word insertions, deletions
and substitutions (an edit distance) plus the number of block shifts, where shifts are chosen
greedily: while some shift of a block of the hypothesis lowers the edit distance, make the best
one. Words are ids here (the texts were tokenized and interned above this stage); only equality
of ids matters.

Every rule below that looks arbitrary is sacrebleu's (and mostly Tercom's), kept because the edit
counts must be equal to its own:

- The edit distance is a *beam* search: row ``i`` (hypothesis words consumed) is only computed
  in a band of ``beam`` columns on either side of the pseudo-diagonal ``floor(i * n_ref / n_hyp)``
  (the last row in full); cells outside stay at ``INFINITY``. Between equal costs a cell prefers
  a match/substitution, then consuming a hypothesis word, then consuming a reference word.
- Shift candidates: every block of 1..``MAX_SHIFT_SIZE`` words that occurs in both texts at
  starts at most ``MAX_SHIFT_DIST`` apart, in the order (hypothesis start, reference start,
  length); a block is skipped when all its hypothesis words are already correct, when all the
  reference words it matches are already matched, or when the reference block's first word is
  aligned inside the block. It is tried before each aligned position of the reference block (and
  before the reference's start); a position equal to the previous one is not tried twice.
- The best candidate has the highest gain, then the longest block, the earliest start, the
  earliest target. After ``MAX_CANDIDATES`` candidates (counted over the whole search) the search
  stops, and the shift found by that last round is *not* made.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Iterator, List, Optional, Sequence, Tuple

__all__ = ["corpus_rows", "pair_edits"]

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_CANDIDATES = 1000
INFINITY = 10**16
MAX_IDS = 1 << 28  # word ids: the compiled module keeps a table of their reference positions

# The move that reached a cell, as the trace records it.
MATCH, SUBSTITUTE, SKIP_HYP, SKIP_REF = 0, 1, 2, 3


class BeamDistance:
    """The beam edit distance between a reference and hypotheses of one length ``n_hyp``.

    ``rows(words, first, known)`` computes the matrix rows after ``known`` (rows 0..first of the
    same prefix, reused: row ``i`` depends only on ``words[:i]``)."""

    def __init__(self, ref: Sequence[int], n_hyp: int) -> None:
        self.ref = ref
        self.n_ref = n_ref = len(ref)
        self.n_hyp = n_hyp
        self.ratio = n_ref / n_hyp if n_hyp else 1
        # a hypothesis far shorter than its reference widens the band, so that rows overlap
        self.beam = (
            math.ceil(self.ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < self.ratio / 2 else BEAM_WIDTH
        )
        # row 0: reference words consumed one by one
        self.first_row = ([j for j in range(n_ref + 1)], [SKIP_REF] * (n_ref + 1))

    def band(self, i: int) -> Tuple[int, int]:
        """The columns [lo, hi) computed in row ``i``."""
        diagonal = math.floor(i * self.ratio)
        lo = max(0, diagonal - self.beam)
        hi = self.n_ref + 1 if i == self.n_hyp else min(self.n_ref + 1, diagonal + self.beam)
        return lo, hi

    def rows(
        self, words: Sequence[int], known: List[Tuple[List[int], List[int]]]
    ) -> List[Tuple[List[int], List[int]]]:
        """All rows 0..n_hyp of ``words`` (costs, moves), ``known`` being its first rows."""
        rows = list(known)
        ref = self.ref
        for i in range(len(rows), self.n_hyp + 1):
            above_cost = rows[-1][0]
            cost = [INFINITY] * (self.n_ref + 1)
            move = [-1] * (self.n_ref + 1)
            lo, hi = self.band(i)
            word = words[i - 1]
            for j in range(lo, hi):
                if j == 0:
                    cost[0], move[0] = above_cost[0] + 1, SKIP_HYP
                    continue
                same = word == ref[j - 1]
                # the first strictly cheaper of: match/substitute, skip hyp word, skip ref word
                for c, m in (
                    (above_cost[j - 1] + (0 if same else 1), MATCH if same else SUBSTITUTE),
                    (above_cost[j] + 1, SKIP_HYP),
                    (cost[j - 1] + 1, SKIP_REF),
                ):
                    if c < cost[j]:
                        cost[j], move[j] = c, m
            rows.append((cost, move))
        return rows

    def distance(self, words: Sequence[int], known: List[Tuple[List[int], List[int]]]) -> int:
        return self.rows(words, known)[-1][0][self.n_ref]


def alignment(
    rows: List[Tuple[List[int], List[int]]], n_hyp: int, n_ref: int
) -> Tuple[List[int], List[int], List[int]]:
    """From the moves of the cheapest path: for each reference word the hypothesis position it
    is aligned to (-1: before the first word), and which hypothesis / reference words are in
    error (not matched)."""
    aligned = [0] * n_ref
    hyp_err = [0] * n_hyp
    ref_err = [0] * n_ref
    i, j = n_hyp, n_ref
    while i > 0 or j > 0:
        m = rows[i][1][j]
        if m == MATCH or m == SUBSTITUTE:
            i -= 1
            j -= 1
            aligned[j] = i
            hyp_err[i] = ref_err[j] = int(m == SUBSTITUTE)
        elif m == SKIP_HYP:
            i -= 1
            hyp_err[i] = 1
        elif m == SKIP_REF:
            j -= 1
            ref_err[j] = 1
            aligned[j] = i - 1  # after the hypothesis words consumed so far
        else:  # sacrebleu raises here too (a path through a cell the band left out)
            raise RuntimeError("TER: the beam left no path through the edit distance matrix")
    return aligned, hyp_err, ref_err


def shifted(words: List[int], start: int, length: int, target: int) -> List[int]:
    """``words`` with the block [start, start + length) moved before position ``target``; for a
    target inside the block or just after it, sacrebleu moves the block past the ``target - start``
    words after it (the slices clamp at the end)."""
    block = words[start : start + length]
    if target < start:
        return words[:target] + block + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + block + words[target:]
    return (
        words[:start] + words[start + length : length + target] + block + words[length + target :]
    )


def shared_blocks(words: Sequence[int], ref: Sequence[int]) -> Iterator[Tuple[int, int, int]]:
    """(hyp start, ref start, length) of every common block, in the order sacrebleu tries them."""
    n_hyp, n_ref = len(words), len(ref)
    for hs in range(n_hyp):
        for rs in range(n_ref):
            if abs(rs - hs) > MAX_SHIFT_DIST:
                continue
            length = 0
            while length < MAX_SHIFT_SIZE and words[hs + length] == ref[rs + length]:
                length += 1
                yield hs, rs, length
                if hs + length == n_hyp or rs + length == n_ref:
                    break


def best_shift(
    words: List[int], ref: Sequence[int], ed: BeamDistance, checked: int
) -> Tuple[int, List[int], int]:
    """(gain, shifted words, candidates checked so far) of the best shift; gain 0 when none."""
    rows = ed.rows(words, [ed.first_row])
    before = rows[-1][0][ed.n_ref]
    aligned, hyp_err, ref_err = alignment(rows, len(words), ed.n_ref)
    best: Optional[Tuple[Tuple[int, int, int, int], List[int]]] = None
    for hs, rs, length in shared_blocks(words, ref):
        if not any(hyp_err[hs : hs + length]) or not any(ref_err[rs : rs + length]):
            continue
        if hs <= aligned[rs] < hs + length:
            continue
        previous = -1
        for r in range(rs - 1, rs + length):
            target = 0 if r == -1 else aligned[r] + 1
            if target == previous:
                continue
            previous = target
            candidate = shifted(words, hs, length, target)
            # rows up to the first changed word are the current hypothesis' own
            unchanged = min(hs, target)
            gain = before - ed.distance(candidate, rows[: unchanged + 1])
            key = (gain, length, -hs, -target)
            checked += 1
            if best is None or key > best[0]:
                best = key, candidate
        if checked >= MAX_CANDIDATES:
            break
    if best is None:
        return 0, words, checked
    return best[0][0], best[1], checked


def pair_edits(hyp: Sequence[int], ref: Sequence[int]) -> int:
    """TER's number of edits (shifts + edit distance) from ``hyp`` to ``ref``."""
    if not ref:
        return len(hyp)
    words = list(hyp)
    ed = BeamDistance(ref, len(words))
    shifts = 0
    checked = 0
    while True:
        gain, candidate, checked = best_shift(words, ref, ed, checked)
        if checked >= MAX_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = candidate
    return shifts + ed.distance(words, [ed.first_row])


def corpus_rows(
    hyp_ids: Any,
    hyp_offsets: Any,
    ref_ids: Any,
    ref_offsets: Any,
    ref_groups: Any,
    out: Any,
) -> None:
    """For each segment s, ``out[s] = [fewest edits over its references, sum of their lengths]``.

    Hypothesis s is ``hyp_ids[hyp_offsets[s]:hyp_offsets[s + 1]]``; its references are the spans
    r in ``ref_groups[s]..ref_groups[s + 1]``, reference r being
    ``ref_ids[ref_offsets[r]:ref_offsets[r + 1]]``; ``out`` is a flat int64 buffer (2 per
    segment). Offsets are absolute, so a window on ``hyp_offsets``, ``ref_groups`` and ``out``
    is a run of segments (how the caller splits the work among threads)."""
    # (the compiled search indexes a table by word id: the same limits here)
    if len(ref_ids) and min(ref_ids) < 0:
        raise ValueError(f"TER: reference word ids must be >= 0, got {min(ref_ids)}")
    top = max(max(ref_ids, default=-1), max(hyp_ids, default=-1))
    if top >= MAX_IDS:
        raise ValueError(f"TER: word ids must be below {MAX_IDS}, got {top}")
    for s in range(len(hyp_offsets) - 1):
        hyp = list(hyp_ids[hyp_offsets[s] : hyp_offsets[s + 1]])
        fewest = INFINITY
        lengths = 0
        for r in range(ref_groups[s], ref_groups[s + 1]):
            ref = list(ref_ids[ref_offsets[r] : ref_offsets[r + 1]])
            fewest = min(fewest, pair_edits(hyp, ref))
            lengths += len(ref)
        out[2 * s] = fewest
        out[2 * s + 1] = lengths
