"""Checks of public arguments, made once where a call enters the library.

Every check raises a ``TypeError`` (wrong kind of value) or a ``ValueError`` (right kind, out of
range or wrong shape) whose message starts with the argument's name (and its row and column where
there are some) and says what was expected. Nothing is truncated, rounded or wrapped: a value
that does not fit is refused.

Kept light (no NumPy at import): ``import turbobleu`` and the text calls load this module.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Optional, Tuple

    import numpy as np

# Token ids are int32 in the kernel, negative ids reserved (a pad id may be any value its input
# can hold: padding is dropped before the ids are checked against this range).
MAX_ID = 2**31 - 1
# The largest n-gram order: each statistics row holds 2 + 2 * order int64 counts per segment,
# so a huge order exhausts memory (or overflows C ints) before counting anything.
MAX_ORDER = 256


def integer_scalar(value: Any) -> Optional[int]:
    """``value`` as a Python int where it is one integer: an int, a NumPy integer scalar (what
    indexing an integer array gives) or a 0-d integer array; None for anything else, bools
    (Python's and NumPy's) included."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if getattr(getattr(value, "dtype", None), "kind", None) == "b":
        return None  # NumPy's bools (NumPy before 2.1 still lets operator.index take them)
    try:
        return operator.index(value)  # (a 1-D array refuses)
    except TypeError:
        return None


def check_order(value: Any, name: str) -> int:
    """``value`` as an n-gram order in 1..MAX_ORDER (an integer, not a bool)."""
    order = integer_scalar(value)
    if order is None or not 1 <= order <= MAX_ORDER:
        raise ValueError(f"{name} must be an integer in 1..{MAX_ORDER}, got {value!r}")
    return order


def describe(value: Any) -> str:
    """The kind of ``value`` for a message: its type, with the shape and dtype of an array or
    tensor (``ndarray of shape (2,) and dtype float64``)."""
    kind = type(value).__name__
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        return f"{kind} of shape {tuple(shape)} and dtype {dtype}"
    return kind


def check_pad_id(pad_id: Any) -> Optional[int]:
    """``pad_id`` as a Python int (or None): an integer of any size and integer type (int, NumPy
    integer scalar, 0-d integer array; not bool). A float pad id was once truncated on one path
    and compared as a float on another, which scored an identical pair 59.46.

    Its range is checked against each input it applies to (``count.ids.pad_for_dtype``): any int
    for Python lists, a value of the array's dtype for arrays and tensors."""
    if pad_id is None:
        return None
    if isinstance(pad_id, bool) or not hasattr(pad_id, "__index__"):
        raise TypeError(f"pad_id must be an integer or None, got {describe(pad_id)}")
    try:
        return operator.index(pad_id)
    except TypeError:
        # An array or tensor of several values (or of floats) has __index__ but refuses it,
        # with NumPy's own message ("only integer scalar arrays ...") that names nothing.
        raise TypeError(f"pad_id must be one integer or None, got {describe(pad_id)}") from None


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool: True, False, a NumPy bool, or the ints 0 and 1 (as a bool is one).
    Anything else (None, a string, an array, NaN) is refused rather than read by its truth value:
    ``lowercase="no"`` would otherwise lowercase, and an array's truth raises NumPy's message."""
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool" and type(value).__module__ == "numpy":  # np.bool_
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be a bool, got {describe(value)}")


def check_truth(value: Any, name: str) -> bool:
    """``bool(value)``, as sacrebleu reads its flags (any truthy value), except that a value with
    no truth value (an array of several items) is a ValueError naming ``name``, not NumPy's."""
    try:
        return bool(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a bool, got {describe(value)}") from None


def is_row(row: Any) -> bool:
    """Whether ``row`` can be one row of ids or tokens: a sequence (list, tuple, range, 1-D
    array, tensor), not a mapping or a set (whose iteration order is not a sentence's)."""
    return not isinstance(row, (dict, set, frozenset)) and hasattr(type(row), "__getitem__")


def first_token(rows: Sequence) -> Any:
    """The first token of the first non-empty row (None if every row is empty, or when a row
    that is no sequence comes first: the packer then names it)."""
    for row in rows:
        if isinstance(row, str):
            return row
        if not is_row(row) or not hasattr(row, "__len__"):
            return None
        try:
            size = len(row)
        except TypeError:  # a 0-d array: no sequence (the packer names it)
            return None
        if size:
            return row[0]
    return None


def is_tensor(x: Any) -> bool:
    """A torch tensor, recognised without importing torch."""
    return type(x).__module__.startswith("torch") and hasattr(x, "detach")


def tensor_to_numpy(x: Any) -> np.ndarray:
    """One host copy of a tensor (CPU or CUDA)."""
    return x.detach().cpu().numpy()


def integer_array(value: Any, name: str, shape: Tuple[int, ...]) -> np.ndarray:
    """``value`` (a sequence, array or tensor of integers) as an int64 array of ``shape``: e.g.
    ``group=`` (one group index per hypothesis) or ``lengths=`` (one length per row)."""
    import numpy as np

    if is_tensor(value):
        value = tensor_to_numpy(value)
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):  # ragged nesting, e.g. [[0], 1]
        raise ValueError(
            f"{name} must be integers of shape {shape}, got a ragged {type(value).__name__}"
        ) from None
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got shape {arr.shape}")
    if arr.dtype == object and all(type(v) is int for v in arr.flat):
        raise ValueError(f"{name} holds an integer that does not fit an int64")
    if arr.size and (arr.dtype.kind not in "iu" or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) > 2**63 - 1:
        raise ValueError(f"{name} holds {int(arr.max())}, which does not fit an int64")
    return arr.astype(np.int64, copy=False)


def check_sequence(value: Any, expected: str, hint: str = "") -> None:
    """TypeError ``"<expected>, got <type><hint>"`` unless ``value`` is a sequence other than a
    str (a str is a sequence of characters, never the lines or streams that were asked for)."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"{expected}, got {type(value).__name__}{hint}")


def check_text_streams(references: Any) -> None:
    """sacrebleu's ``references`` argument: a sequence of streams (not an array or a string)."""
    check_sequence(
        references, "references must be a sequence of reference streams (lists of strings)"
    )
