"""Token-id inputs whose own Python code changes them while turbobleu reads them (regression).

The compiled packers read the caller's lists in two passes (measure, then copy) without holding
their items: a token's ``__index__`` that lengthened a later row made the copy overrun its buffer,
and a row's ``__iter__`` that emptied the outer list left the packer reading freed memory. Both
crashed the interpreter. Now the outer sequence is read from a snapshot (the result is the one of
the input as it was passed in), and a row that changes size while its ids are read raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, List

import pytest

import turbobleu
from turbobleu._engine.count import chosen as _count_impl

COMPILED = turbobleu.implementation == "cython"


class Lengthener:
    """A token id (5) whose conversion appends to another row."""

    def __init__(self, victim: List[int]) -> None:
        self.victim = victim

    def __index__(self) -> int:
        self.victim.extend([7] * 100_000)
        return 5


class ClearsOuter(Sequence):
    """A row or group that empties the outer list when iterated."""

    def __init__(self, items: List[Any], outer: List[Any]) -> None:
        self.items, self.outer = items, outer

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: Any) -> Any:
        return self.items[i]

    def __iter__(self):
        self.outer.clear()
        # Reuse the freed memory, so that reading it would crash.
        _ = [bytearray(64) for _ in range(20_000)], [[1.5] * 8 for _ in range(2000)]
        return iter(self.items)


def test_a_token_that_lengthens_a_later_row() -> None:
    later = [1, 2, 3]
    hyps = [[Lengthener(later)], later]
    refs = [[[5]], [[1, 2, 3]]]
    if COMPILED:
        with pytest.raises(RuntimeError, match=r"hypotheses\[1\] changed size"):
            turbobleu.sentence_bleu_batch(hyps, refs, threads=1)
    else:  # the twin reads each row when it gets to it: whatever it sees, it must not crash
        assert len(turbobleu.sentence_bleu_batch(hyps, refs, threads=1)) == 2


def plain_groups(n: int) -> List[Any]:
    return [[[1, 2, 3]], [[1, 2]]] + [[[4, 5, 6, k % 7]] for k in range(n)]


@pytest.mark.skipif(
    not COMPILED,
    reason="the compiled packers' snapshot (the twin iterates the "
    "list itself, so it sees the change)",
)
def test_a_group_that_empties_the_outer_list_scores_the_list_as_passed() -> None:
    want = turbobleu.sentence_bleu_batch([[1, 2, 9]] * 5002, plain_groups(5000), threads=1)
    outer: List[Any] = []
    outer.extend(plain_groups(5000))
    outer[1] = ClearsOuter([[1, 2]], outer)
    got = turbobleu.sentence_bleu_batch([[1, 2, 9]] * 5002, outer, threads=1)
    assert got.tolist() == want.tolist()
    outer.extend(plain_groups(5000))
    outer[1] = ClearsOuter([[1, 2]], outer)
    assert turbobleu.ReferenceSets(outer, threads=1).num_groups == 5002


@pytest.mark.skipif(not COMPILED, reason="the compiled packers' snapshot (see above)")
def test_a_row_that_empties_the_outer_list_packs_the_list_as_passed() -> None:
    rows = [[1, 2, 3], [1, 2]] + [[4, 5, 6, k % 7] for k in range(5000)]
    want_ids, want_off = _count_impl.packer().pack_sequences(rows, "hypotheses")
    outer: List[Any] = list(rows)
    outer[1] = ClearsOuter([1, 2], outer)
    ids, off = _count_impl.packer().pack_sequences(outer, "hypotheses")
    assert ids.tolist() == want_ids.tolist() and off.tolist() == want_off.tolist()
