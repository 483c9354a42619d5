"""Text -> token ids, split the way torchmetrics' ``BLEUScore`` and ``SacreBLEUScore`` split it.

``BLEUScore`` splits each line with ``str.split()``. ``SacreBLEUScore`` runs its copy of a
sacrebleu tokenizer on the line **as given** (no right-strip, unlike sacrebleu's BLEU), then
lowercases the tokenized text (sacrebleu lowercases before tokenizing), then splits. turbobleu's
compiled tokenizers follow sacrebleu on right-stripped lines, so:

- a line that ends in whitespace, for ``13a`` and ``intl`` (the two whose result can depend on
  it: ``'a-\\n'`` loses its ``-`` in 13a, ``'5. '`` splits its ``.`` in intl), is rewritten by the
  pure-Python rules on the line as it is and its result split; every other line takes the
  compiled tokenizer (``none``, ``char`` and ``zh`` cannot differ: split, join and strip);
- ``lowercase`` maps each distinct token to its lowercase form after tokenizing (a token's
  lowercase form is the slice of the lowercased line: no character lowercases into or out of
  whitespace, and whitespace ends the context of the final-sigma rule);
- the library tokenizers (``ja-mecab``, ``ko-mecab``, ``flores101``, ``flores200``) rewrite each
  line with the library as torchmetrics calls it. The SentencePiece model is read from
  torchmetrics' download folder, else from sacrebleu's cache; it is never downloaded.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from turbobleu._engine.text import chosen as _text_impl
from turbobleu.tokenizers import (
    SPM_MODELS,
    LibraryTokenizer,
    get_tokenizer,
    sacrebleu_model_path,
)

CSR = Tuple[np.ndarray, np.ndarray]  # (int32 ids, int64 offsets: one more than lines)

# torchmetrics' SacreBLEUScore tokenizer names (its AVAILABLE_TOKENIZERS).
TORCHMETRICS_TOKENIZERS = (
    "none",
    "13a",
    "zh",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "flores101",
    "flores200",
)
# The fast tokenizers whose result can depend on trailing whitespace (see the module docstring).
_TRAILING_SPACE_MATTERS = ("13a", "intl")


def vocab_tokens(vocab: Any) -> List[str]:
    """The token strings of a tokenizer vocabulary, by id (the twin's Vocab is a dict)."""
    if isinstance(vocab, dict):
        return list(vocab)
    return [vocab.token(i) for i in range(len(vocab))]


def lowercase_ids(ids: np.ndarray, vocab: Any) -> np.ndarray:
    """``ids`` mapped so that two tokens with the same lowercase form share an id."""
    first_of: Dict[str, int] = {}
    remap = np.array(
        [first_of.setdefault(token.lower(), i) for i, token in enumerate(vocab_tokens(vocab))],
        dtype=np.int32,
    )
    return remap[ids] if len(ids) else ids


def merge_lines(n: int, parts: List[Tuple[List[int], CSR]]) -> CSR:
    """One CSR of ``n`` lines from parts that each hold some of them (line numbers, their CSR)."""
    lengths = np.zeros(n, dtype=np.int64)
    for where, (_, offsets) in parts:
        lengths[where] = np.diff(offsets)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    ids = np.empty(int(offsets[-1]), dtype=np.int32)
    for where, (part_ids, part_offsets) in parts:
        counts = np.diff(part_offsets)
        shift = np.repeat(offsets[where] - part_offsets[:-1], counts)
        ids[np.arange(len(part_ids), dtype=np.int64) + shift] = part_ids
    return ids, offsets


class LineSplitter:
    """How one metric turns its text lines into token ids (``encode``); ``lowercase`` asks the
    caller to map the ids with :func:`lowercase_ids` once every line of a batch is encoded."""

    lowercase = False

    def __init__(self, code: int) -> None:
        self.code = code

    def encode(self, lines: List[str], vocab: Any, frozen: bool, what: str) -> CSR:
        """Ids of ``lines`` in ``vocab`` (``frozen``: unknown tokens get -1)."""
        return _text_impl.tokenize.tokenize(lines, self.code, False, vocab, frozen, what)


class SacreSplitter(LineSplitter):
    """A compiled sacrebleu tokenizer, applied as torchmetrics applies its copy of it."""

    def __init__(self, name: str, lowercase: bool) -> None:
        super().__init__(get_tokenizer(name).code)
        self.lowercase = lowercase
        self.watch_trailing_space = name in _TRAILING_SPACE_MATTERS

    def encode(self, lines: List[str], vocab: Any, frozen: bool, what: str) -> CSR:
        if not self.watch_trailing_space:
            return super().encode(lines, vocab, frozen, what)
        ragged = [i for i, line in enumerate(lines) if line[-1:].isspace()]
        if not ragged:
            return super().encode(lines, vocab, frozen, what)
        from turbobleu._engine.text import _tokenize_py  # the rules, on the line as it is

        plain = sorted(set(range(len(lines))) - set(ragged))
        rewritten = [_tokenize_py.rewrite(lines[i], self.code) for i in ragged]
        none = _text_impl.tokenize.TOK_NONE
        return merge_lines(
            len(lines),
            [
                (plain, super().encode([lines[i] for i in plain], vocab, frozen, what)),
                (ragged, _text_impl.tokenize.tokenize(rewritten, none, False, vocab, frozen, what)),
            ],
        )


class LibrarySplitter(LineSplitter):
    """MeCab or SentencePiece: each line rewritten by the library, then split."""

    def __init__(self, tokenizer: LibraryTokenizer, lowercase: bool) -> None:
        super().__init__(_text_impl.tokenize.TOK_NONE)
        self.tokenizer = tokenizer
        self.lowercase = lowercase

    def encode(self, lines: List[str], vocab: Any, frozen: bool, what: str) -> CSR:
        rewrite = self.tokenizer.rewrite
        rewritten = []
        for i, line in enumerate(lines):
            try:
                rewritten.append(rewrite(line) if line else line)
            except ValueError as exc:
                raise ValueError(f"{what}[{i}]: {exc}") from None
        return super().encode(rewritten, vocab, frozen, what)


def torchmetrics_flores_folder() -> str:
    """Where torchmetrics downloads its SentencePiece models (read when needed: tests move it)."""
    module: Any = importlib.import_module("torchmetrics.functional.text.sacre_bleu")
    return str(module._FLORES_LOCAL_DIR)


def flores_model_path(name: str) -> Optional[str]:
    """The SentencePiece model of ``flores101``/``flores200``: torchmetrics' download folder
    first, then sacrebleu's cache; None when neither has it."""
    file_name = SPM_MODELS[name][0]
    for path in (
        os.path.join(torchmetrics_flores_folder(), file_name),
        sacrebleu_model_path(name),
    ):
        if os.path.isfile(path):
            return path
    return None


def _flores(name: str) -> LibraryTokenizer:
    path = flores_model_path(name)
    if path is None:
        raise FileNotFoundError(
            f"tokenize={name!r} needs the SentencePiece model {SPM_MODELS[name][0]!r}, found "
            f"neither in torchmetrics' folder {torchmetrics_flores_folder()} nor in sacrebleu's "
            f"cache ({sacrebleu_model_path(name)}); turbobleu never downloads. Run torchmetrics' "
            f"SacreBLEUScore(tokenize={name!r}) once (it downloads {SPM_MODELS[name][2]}), or "
            "put the file in one of those places."
        )
    tokenizer = get_tokenizer(name, model_path=path)
    assert isinstance(tokenizer, LibraryTokenizer)
    return tokenizer


_PLAIN = LineSplitter(_text_impl.tokenize.TOK_NONE)


def plain_splitter() -> LineSplitter:
    """``BLEUScore``'s ``line.split()``."""
    return _PLAIN


def sacre_splitter(name: str, lowercase: bool) -> LineSplitter:
    """``SacreBLEUScore``'s tokenizer ``name`` (one of :data:`TORCHMETRICS_TOKENIZERS`)."""
    if name not in TORCHMETRICS_TOKENIZERS:
        raise ValueError(
            f"Unsupported tokenizer selected. Please, choose one of {list(TORCHMETRICS_TOKENIZERS)}"
        )
    if name.startswith("flores"):
        return LibrarySplitter(_flores(name), lowercase)
    tokenizer = get_tokenizer(name)
    if isinstance(tokenizer, LibraryTokenizer):
        return LibrarySplitter(tokenizer, lowercase)
    return SacreSplitter(name, lowercase)
