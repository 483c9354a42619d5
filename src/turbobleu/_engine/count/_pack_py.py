"""Pure-Python twin of ``_pack.pyx``: packing token-id inputs into CSR buffers (int32 ids, int64
offsets), with the same checks and messages."""

from __future__ import annotations

from operator import index as _index

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

import numpy as _np

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["pack_groups", "pack_sequences"]


def _id_rule(pad: Any) -> str:
    """The range rule of the ids: what is left once the pad id is dropped must fit the kernel."""
    if pad is None:
        return "token ids must be integers in 0..2**31-1 (negative ids are reserved)"
    return (
        f"the ids left after dropping pad_id={pad} must be integers in 0..2**31-1 "
        "(negative ids are reserved)"
    )


def _describe(item: Any) -> str:
    kind = type(item).__name__
    return kind if isinstance(item, (list, tuple)) else f"{kind} {item!r}"


def _as_id(item: Any, what: str, i: int, j: int, pad: Any = None) -> int:
    try:
        v = _index(item)
    except TypeError:
        raise TypeError(
            f"{what}[{i}][{j}] must be an integer token id, got {_describe(item)}"
        ) from None
    if not 0 <= v <= 0x7FFFFFFF:
        raise ValueError(f"{what}[{i}][{j}] = {item!r}: {_id_rule(pad)}")
    return v


def _is_pad(item: Any, pad: Any) -> bool:
    try:
        return pad is not None and _index(item) == pad
    except TypeError:
        return False


def _items(seq: Any, name: str, give: str, expected: str) -> list:
    """``list(seq)`` for the input ``name``, which must not be text (``give`` says what to pass
    instead) and must be ``expected``."""
    if isinstance(seq, (str, bytes)):
        raise TypeError(
            f"{name} is a {type(seq).__name__}: {give}, or pass text with a "
            "tokenizer (tokenize=...)"
        )
    # As the compiled packer (PySequence_Check): a dict or a set is no row, whatever it holds.
    if isinstance(seq, (dict, set, frozenset)) or not hasattr(type(seq), "__getitem__"):
        raise TypeError(f"{name} must be {expected}, got {type(seq).__name__}")
    try:
        return list(seq)
    except TypeError:  # indexable but not iterable: a 0-d array, a NumPy scalar
        # As the compiled packer words it: a 0-d array is a sequence type that cannot be read,
        # a NumPy scalar no sequence at all.
        shown = _describe(seq) if isinstance(seq, _np.ndarray) else type(seq).__name__
        raise TypeError(f"{name} must be {expected}, got {shown}") from None


def _extend_ids(flat: list, seq: Any, what: str, i: int, pad: Any) -> None:
    """Append the ids of ``what[i]``, a token-id sequence, to ``flat``, leaving out ``pad``."""
    items = _items(seq, f"{what}[{i}]", "give token ids", "a sequence of token ids")
    flat.extend(
        _as_id(item, what, i, j, pad) for j, item in enumerate(items) if not _is_pad(item, pad)
    )


def pack_sequences(rows: Any, what: str, pad: Any = None, first: int = 0):
    """Pack a sequence of integer sequences into ``(ids int32, offsets int64)`` (CSR); items
    equal to ``pad`` (an int of any size, or None) are left out. Messages count rows from
    ``first``."""
    if pad is not None:
        pad = _index(pad)
    if isinstance(rows, (str, bytes)):
        raise TypeError(
            f"{what} must be a sequence of token-id sequences, got {type(rows).__name__}"
        )
    flat: list = []
    offsets = [0]
    for i, row in enumerate(rows, start=first):
        _extend_ids(flat, row, what, i, pad)
        offsets.append(len(flat))
    return _np.array(flat, dtype=_np.int32), _np.array(offsets, dtype=_np.int64)


def pack_groups(groups: Any, what: str, pad: Any = None, first: int = 0):
    """``(ids, offsets, group_offsets)`` of a sequence of groups of integer sequences; messages
    count groups from ``first``."""
    if isinstance(groups, (str, bytes)):
        raise TypeError(
            f"{what} must be a sequence of reference lists, got {type(groups).__name__}"
        )
    ids: list = []
    offsets = [0]
    group_offsets = [0]
    for g, grp in enumerate(groups, start=first):
        refs = _items(
            grp,
            f"{what}[{g}]",
            "give a list of token-id references",
            "a list of references (token-id sequences)",
        )
        for k, ref in enumerate(refs):
            if hasattr(ref, "__index__"):
                raise TypeError(
                    f"{what}[{g}][{k}] is an integer: {what}[{g}] must be a list of "
                    f"references, each a sequence of ids (for one reference per "
                    f"row, wrap it: [[ref] for ref in refs])"
                )
            _extend_ids(ids, ref, f"{what}[{g}]", k, pad)
            offsets.append(len(ids))
        group_offsets.append(len(offsets) - 1)
    return (
        _np.array(ids, dtype=_np.int32),
        _np.array(offsets, dtype=_np.int64),
        _np.array(group_offsets, dtype=_np.int64),
    )
