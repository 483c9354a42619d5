"""Input conversion for the batch API: token ids (lists, NumPy arrays, torch tensors) or text ->
CSR buffers (int32 ids + int64 offsets) that the kernel reads.

Every conversion is whole-array work (NumPy, or one pass in the compiled packer); a torch tensor,
CPU or CUDA, is copied to the host once. ``pad_id`` may be any value its input can hold (any int
for Python lists, a value of the dtype for arrays: 0xFFFFFFFF pads a uint32 array); the ids left
after dropping it must be integers in 0..2**31-1, or it is an error that names the argument.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.text import chosen as _text_impl
from turbobleu._engine.text.registry import get_tokenizer
from turbobleu._engine.validate import (
    MAX_ID,
    check_pad_id,
    describe,
    first_token,
    integer_array,
    is_tensor,
    tensor_to_numpy,
)

# A tokenizer for text input: a registered name ("13a", "none", ...) or a callable str -> tokens.
TokenizerArg = Union[str, Callable[[str], Sequence[str]], None]

CSR = Tuple[np.ndarray, np.ndarray]


def _int_array(arr: np.ndarray, what: str) -> np.ndarray:
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must hold integer token ids, got dtype {arr.dtype}")
    return arr


def _check_range(ids: np.ndarray, what: str, pad_id: Optional[int] = None) -> None:
    """Every id (what is left once ``pad_id`` is dropped) must be in the kernel's 0..2**31-1."""
    if ids.size == 0:
        return
    low, high = int(ids.min()), int(ids.max())
    rule = (
        "token ids must be integers in 0..2**31-1"
        if pad_id is None
        else f"the ids left after dropping pad_id={pad_id} must be integers in 0..2**31-1"
    )
    if low < 0:
        hint = "pass pad_id= to drop padding" if pad_id is None else "negative ids are reserved"
        raise ValueError(f"{what} holds the negative id {low}: {rule} ({hint})")
    if high > MAX_ID:
        raise ValueError(f"{what} holds the id {high}: {rule}")


def pad_for_dtype(pad_id: int, dtype: np.dtype, what: str) -> Any:
    """``pad_id`` as a scalar of ``dtype``, the integer dtype of the input ``what``, so that the
    comparison with the ids is exact: NumPy 1 compares a uint64 array with a Python int as
    float64 (2**64-1 would equal 2**64-2), NumPy 2 refuses an int out of the dtype's range.

    A pad id the dtype cannot hold is refused: no element could equal it, so it is a mistake
    (an int32 array padded with -1 that was read as uint32, say) that would drop nothing."""
    info = np.iinfo(dtype)
    if not info.min <= pad_id <= info.max:
        raise ValueError(
            f"pad_id must be a value that the dtype of {what} ({dtype}) can hold, in "
            f"{info.min}..{info.max}, got {pad_id}"
        )
    return np.array(pad_id, dtype=dtype)[()]


def array_rows(
    arr: np.ndarray,
    what: str,
    pad_id: Optional[int],
    lengths: Any,
    lengths_name: str = "lengths",
) -> CSR:
    """CSR of the last axis of an integer array: each row keeps its first ``lengths`` ids, or
    every id that is not ``pad_id``, or all of them. ``lengths_name``: the argument that gave
    ``lengths`` (``hyp_lengths``, ...), for messages."""
    arr = _int_array(np.asarray(arr), what)
    width = arr.shape[-1]
    flat = arr.reshape(int(np.prod(arr.shape[:-1])), width)  # (-1, 0) is ambiguous for width 0
    if lengths is not None:
        if pad_id is not None:
            raise ValueError(f"{what}: give pad_id or {lengths_name}, not both")
        lens = integer_array(lengths, f"{lengths_name} (of {what})", arr.shape[:-1]).reshape(-1)
        if lens.size and (int(lens.min()) < 0 or int(lens.max()) > width):
            raise ValueError(
                f"{lengths_name} (of {what}) must be in 0..{width} (the array's last axis)"
            )
        keep = np.arange(width) < lens[:, None]
    elif pad_id is not None:
        keep = flat != pad_for_dtype(pad_id, arr.dtype, what)
        lens = keep.sum(axis=1, dtype=np.int64)
    else:
        keep = None
        lens = np.full(flat.shape[0], width, dtype=np.int64)
    ids = flat[keep] if keep is not None else flat.reshape(-1)
    _check_range(ids, what, pad_id)
    offsets = np.zeros(flat.shape[0] + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    return np.ascontiguousarray(ids, dtype=np.int32), offsets


def _drop_pad(ids: np.ndarray, offsets: np.ndarray, pad_id: Optional[int], what: str) -> CSR:
    if pad_id is None:
        return ids, offsets
    keep = ids != pad_for_dtype(pad_id, ids.dtype, what)
    kept = np.concatenate([[0], np.cumsum(keep, dtype=np.int64)])
    return np.ascontiguousarray(ids[keep]), kept[offsets]


def _vector(row: Any, what: str, i: int) -> np.ndarray:
    """Row ``i`` of a list of 1-D arrays, as an array (a row of such a list may be a list)."""
    try:
        arr = np.asarray(row)
    except (ValueError, TypeError):  # ragged nesting, e.g. [[[]], np.array(["a"])]
        raise ValueError(
            f"{what}[{i}] must be a 1-D array or sequence of token ids, got a ragged "
            f"{type(row).__name__}"
        ) from None
    if arr.ndim != 1:
        raise ValueError(f"{what}[{i}] must be 1-D, got shape {arr.shape}")
    return arr


def _concat_vectors(rows: List[Any], what: str, pad_id: Optional[int]) -> CSR:
    """A list of 1-D arrays or tensors: one concatenation (one host copy for tensors)."""
    if is_tensor(rows[0]):
        torch = sys.modules[type(rows[0]).__module__.split(".")[0]]
        lens = np.array([int(t.numel()) for t in rows], dtype=np.int64)
        flat = tensor_to_numpy(torch.cat([t.reshape(-1) for t in rows]))
    else:
        arrays = [_vector(a, what, i) for i, a in enumerate(rows)]
        lens = np.array([a.shape[0] for a in arrays], dtype=np.int64)
        if len({a.dtype for a in arrays if a.size}) > 1:
            return _concat_mixed(arrays, lens, what, pad_id)
        arrays = [a for a in arrays if a.size] or arrays  # (an empty row's dtype is no matter)
        flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)
    flat = _int_array(flat, what)
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    ids, offsets = _drop_pad(flat, offsets, pad_id, what)
    _check_range(ids, what, pad_id)
    return np.ascontiguousarray(ids, dtype=np.int32), offsets


def _concat_mixed(
    arrays: List[np.ndarray], lens: np.ndarray, what: str, pad_id: Optional[int]
) -> CSR:
    """1-D arrays of several dtypes: concatenated, NumPy would promote them (uint64 with int64
    to float64, where 2**64-1 and 2**64-2 are one value). Each is checked, and its padding
    dropped, in its own dtype; what is left is in 0..2**31-1 and is joined as int32."""
    parts = []
    for i, a in enumerate(arrays):
        if not a.size:
            parts.append(np.zeros(0, dtype=np.int32))
            continue
        a = _int_array(a, f"{what}[{i}]")
        if pad_id is not None:
            a = a[a != pad_for_dtype(pad_id, a.dtype, f"{what}[{i}]")]
        _check_range(a, f"{what}[{i}]", pad_id)
        parts.append(a.astype(np.int32))
    lens = np.array([p.shape[0] for p in parts], dtype=np.int64)
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.int32), offsets


def _is_vector(x: Any) -> bool:
    return is_tensor(x) or isinstance(x, np.ndarray)


class TextEncoder:
    """Text or token strings -> ids, with one vocabulary shared by references and hypotheses.

    ``tokenize`` is a registered tokenizer name (the compiled exact tokenizers) or a callable
    that returns a line's tokens. Pre-tokenized input (sequences of token strings) is interned
    as it is.
    """

    def __init__(self, tokenize: TokenizerArg, lowercase: bool) -> None:
        self.lowercase = bool(lowercase)
        self.callable: Optional[Callable[[str], Sequence[str]]] = None
        self.code: Optional[int] = None
        if callable(tokenize):
            self.callable = tokenize
            self.name = getattr(tokenize, "__name__", "callable")
        else:
            tokenizer = get_tokenizer(tokenize if tokenize is not None else "13a")
            if not hasattr(tokenizer, "code") or tokenizer.code is None:
                raise ValueError(
                    f"tokenize={tokenizer.name!r} has no fast tokenizer for the "
                    "batch API; pass a callable tokenizer instead"
                )
            self.code = tokenizer.code
            self.name = tokenizer.name
        self.vocab = _text_impl.tokenize.Vocab()
        self.words: Dict[str, int] = {}
        # "text" or "tokens" once something was encoded: hypotheses must come in the same form
        # as their references (ids from one vocabulary mean nothing in another).
        self.used: Optional[str] = None
        # What the caller names the references (mbr_select: pseudo_references), for messages.
        self.refs_name = "the references"

    def _use(self, kind: str, what: str) -> None:
        if self.used is not None and self.used != kind:
            raise _form_error(what, kind, self.used, self.refs_name)
        self.used = kind

    def _intern(
        self, tokens_per_line: List[Sequence[str]], frozen: bool, what: str, lowered: bool = False
    ) -> CSR:
        """Ids of token strings (pre-tokenized rows are lowercased token by token)."""
        lower = self.lowercase and not lowered
        words = self.words
        ids: List[int] = []
        offsets = [0]
        for i, tokens in enumerate(tokens_per_line):
            try:
                row = iter(tokens)
            except TypeError:  # no sequence (None, an int, a 0-d array)
                raise TypeError(
                    f"{what}[{i}] must be a sequence of str tokens, got {describe(tokens)}"
                ) from None
            for j, tok in enumerate(row):
                if not isinstance(tok, str):
                    raise TypeError(
                        f"{what}[{i}][{j}] must be a str token, got {type(tok).__name__}"
                    )
                if lower:
                    tok = tok.lower()
                tid = words.get(tok)
                if tid is None:
                    if frozen:
                        tid = -1  # never in a reference: it can only miss
                    else:
                        tid = words[tok] = len(words)
                ids.append(tid)
            offsets.append(len(ids))
        return np.array(ids, dtype=np.int32), np.array(offsets, dtype=np.int64)

    def lines(self, lines: List[Any], frozen: bool, what: str) -> CSR:
        """CSR ids of text lines (``frozen``: unknown tokens get id -1, which never matches)."""
        for i, line in enumerate(lines):
            if not isinstance(line, str):
                raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
        self._use("text", what)
        if self.callable is not None:
            # As sacrebleu does: lowercase the line, then tokenize it.
            fn = self.callable
            tokens = (
                [fn(line.lower()) for line in lines]
                if self.lowercase
                else [fn(line) for line in lines]
            )
            return self._intern(tokens, frozen, what, lowered=True)
        return _text_impl.tokenize.tokenize(
            lines, self.code, self.lowercase, self.vocab, frozen, what
        )

    def tokens(self, rows: List[Sequence[str]], frozen: bool, what: str) -> CSR:
        """CSR ids of pre-tokenized rows (sequences of token strings)."""
        self._use("tokens", what)
        return self._intern(rows, frozen, what)


_FORMS = {"text": "strings", "tokens": "lists of token strings", None: "token ids"}


def _form_error(
    what: str, kind: Optional[str], used: Optional[str], refs_name: str = "the references"
) -> TypeError:
    """Hypotheses (``what``) in another form than their references (``refs_name``), the forms
    being ``_FORMS``' keys."""
    return TypeError(
        f"{what} are {_FORMS[kind]} but {refs_name} are {_FORMS[used]}: give both in the same form"
    )


def _check_ids_or_text(
    encoder: Optional[TextEncoder], frozen: bool, kind: Optional[str], what: str
) -> None:
    """Hypotheses as ids against text references, or as text against id references (the
    encoder itself tells strings from token strings)."""
    if frozen and encoder is not None and (kind is None) != (encoder.used is None):
        raise _form_error(what, kind, encoder.used, encoder.refs_name)


def _check_sequence(
    rows: Any, what: str, lengths: Any, wanted: str, lengths_name: str = "lengths"
) -> None:
    """What is not an array must be a list (``wanted`` says of what), without ``lengths``."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise TypeError(f"{what} must be {wanted}, got {describe(rows)}")
    if lengths is not None:
        raise ValueError(f"{lengths_name} applies to arrays and tensors only ({what} is a list)")


def looks_like_text(rows: Sequence) -> Optional[str]:
    """ "text" (rows are strings), "tokens" (rows are sequences of strings) or None (ids)."""
    if isinstance(rows, np.ndarray) or is_tensor(rows) or not len(rows):
        return None
    first = first_token(rows)
    if isinstance(rows[0], str):
        return "text"
    if isinstance(first, str):
        return "tokens"
    return None


def sequences(
    rows: Any,
    what: str,
    pad_id: Optional[int] = None,
    lengths: Any = None,
    encoder: Optional[TextEncoder] = None,
    frozen: bool = False,
    lengths_name: str = "lengths",
) -> CSR:
    """CSR of one sequence per row: a 2-D array or tensor (with ``pad_id`` or ``lengths``), a
    list of 1-D arrays/tensors, a list of id sequences, or text / token strings (``encoder``).
    ``lengths_name``: the caller's name of ``lengths`` (``hyp_lengths``, ...), for messages."""
    pad_id = check_pad_id(pad_id)
    if is_tensor(rows):
        rows = tensor_to_numpy(rows)
    if isinstance(rows, np.ndarray):
        _check_ids_or_text(encoder, frozen, None, what)
        if rows.ndim != 2:
            raise ValueError(
                f"{what} as an array must be 2-D (rows x positions), got shape {rows.shape}"
            )
        return array_rows(rows, what, pad_id, lengths, lengths_name)
    _check_sequence(
        rows, what, lengths, "a list of sequences, a 2-D array or a tensor", lengths_name
    )
    kind = looks_like_text(rows)
    if kind is not None or first_token(rows) is not None:  # (no ids at all: any form will do)
        _check_ids_or_text(encoder, frozen, kind, what)
    if kind is not None:
        if encoder is None:
            raise TypeError(f"{what} holds text but no tokenizer is set")
        return (
            encoder.lines(list(rows), frozen, what)
            if kind == "text"
            else encoder.tokens(list(rows), frozen, what)
        )
    if rows and _is_vector(rows[0]):
        return _concat_vectors(list(rows), what, pad_id)
    return _count_impl.packer().pack_sequences(rows, what, pad_id)


def _plain_id_groups(refs: Sequence) -> bool:
    """Whether ``refs`` looks like lists of id sequences (checked on its first items only; the
    compiled packer checks every item)."""
    for grp in refs[:1]:
        if not isinstance(grp, (list, tuple)):
            return False
        for ref in grp[:1]:
            if isinstance(ref, str) or _is_vector(ref):
                return False
            if isinstance(ref, (list, tuple)) and ref and isinstance(ref[0], str):
                return False
    return True


def groups(
    refs: Any,
    what: str,
    pad_id: Optional[int] = None,
    lengths: Any = None,
    encoder: Optional[TextEncoder] = None,
    lengths_name: str = "lengths",
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR of reference groups: ``(ids, offsets, group_offsets)``.

    Accepted: a 2-D array (one reference per group) or 3-D array (groups x k x positions), a list
    whose items are each a list of references (id sequences, 1-D arrays/tensors, or strings), or
    a list of strings (one text reference per group).
    """
    pad_id = check_pad_id(pad_id)
    if is_tensor(refs):
        refs = tensor_to_numpy(refs)
    if isinstance(refs, np.ndarray):
        if refs.ndim not in (2, 3):
            raise ValueError(
                f"{what} as an array must be 2-D (one reference per row) or 3-D "
                f"(rows x references x positions), got shape {refs.shape}"
            )
        ids, offsets = array_rows(refs, what, pad_id, lengths, lengths_name)
        k = 1 if refs.ndim == 2 else refs.shape[1]
        return ids, offsets, np.arange(refs.shape[0] + 1, dtype=np.int64) * k
    _check_sequence(
        refs, what, lengths, "a list of reference lists, an array or a tensor", lengths_name
    )
    if refs and isinstance(refs[0], str):  # one text reference per group
        ids, offsets = sequences(list(refs), what, encoder=encoder)
        return ids, offsets, np.arange(len(refs) + 1, dtype=np.int64)
    if not refs:
        return (np.zeros(0, np.int32), np.zeros(1, np.int64), np.zeros(1, np.int64))
    if _plain_id_groups(refs):
        # The common case (lists of id lists) in one compiled pass, with item-level messages.
        return _count_impl.packer().pack_groups(refs, what, pad_id)
    counts = np.empty(len(refs), dtype=np.int64)
    flat: List[Any] = []
    for g, grp in enumerate(refs):
        if isinstance(grp, str) or is_tensor(grp) or isinstance(grp, np.ndarray):
            if isinstance(grp, str):
                raise TypeError(
                    f"{what}[{g}] is a str but {what}[0] is not: give every group "
                    "as a list of references"
                )
            arr = tensor_to_numpy(grp) if is_tensor(grp) else grp
            if arr.ndim != 2:
                raise ValueError(f"{what}[{g}] as an array must be 2-D (references x positions)")
            grp = list(arr)
        elif not isinstance(grp, Sequence):
            raise TypeError(f"{what}[{g}] must be a list of references, got {type(grp).__name__}")
        counts[g] = len(grp)
        flat.extend(grp)
    group_offsets = np.zeros(len(refs) + 1, dtype=np.int64)
    np.cumsum(counts, out=group_offsets[1:])
    kind = looks_like_text(flat) if flat else None
    if kind is None and flat and not _is_vector(flat[0]):
        # The common case (lists of id lists) in one compiled pass, with item-level messages.
        ids, offsets, _ = _count_impl.packer().pack_groups(refs, what, pad_id)
        return ids, offsets, group_offsets
    ids, offsets = sequences(flat, what, pad_id, encoder=encoder)
    return ids, offsets, group_offsets
