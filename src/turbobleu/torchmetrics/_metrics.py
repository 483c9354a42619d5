"""``BLEUScore``, ``SacreBLEUScore`` and their functional forms, counted by turbobleu.

The classes subclass torchmetrics' own (so they are ``torchmetrics.Metric`` objects, pass
``isinstance`` checks against torchmetrics' classes and keep their constructor, states, ``plot``
and class attributes); only ``update`` and ``compute`` are replaced. The states are torchmetrics'
(``preds_len``, ``target_len``, ``numerator``, ``denominator``: float tensors of the default
dtype, summed over DDP ranks), so synchronisation, ``reset``, ``forward``, ``merge_state`` and
state dicts behave as in torchmetrics.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor

from turbobleu.torchmetrics._counts import Batch
from turbobleu.torchmetrics._recipe import bleu_from_states
from turbobleu.torchmetrics._states import add_batch
from turbobleu.torchmetrics._text import LineSplitter, plain_splitter, sacre_splitter

__all__ = ["BLEUScore", "SacreBLEUScore", "bleu_score", "sacre_bleu_score"]

# torchmetrics' own classes and helpers (looked up by name: its types are optional here).
_TorchmetricsBLEUScore: Any = importlib.import_module("torchmetrics.text.bleu").BLEUScore
_TorchmetricsSacreBLEUScore: Any = importlib.import_module(
    "torchmetrics.text.sacre_bleu"
).SacreBLEUScore
_SacreBLEUTokenizer: Any = importlib.import_module(
    "torchmetrics.functional.text.sacre_bleu"
)._SacreBLEUTokenizer
_deprecated_root_import_class: Any = importlib.import_module(
    "torchmetrics.utilities.prints"
)._deprecated_root_import_class


def check_n_gram(n_gram: Any) -> None:
    if isinstance(n_gram, bool) or not isinstance(n_gram, int) or n_gram < 1:
        raise ValueError(f"n_gram must be an integer >= 1, got {n_gram!r}")


def default_weights(n_gram: int, weights: Optional[Sequence[float]]) -> Sequence[float]:
    """``weights`` checked against ``n_gram`` (torchmetrics' message), or the uniform ones."""
    if weights is not None and len(weights) != n_gram:
        raise ValueError(
            f"List of weights has different weights than `n_gram`: {len(weights)} != {n_gram}"
        )
    return weights if weights is not None else [1.0 / n_gram] * n_gram


@lru_cache(maxsize=None)
def _sacre_splitter(tokenize: str, lowercase: bool) -> LineSplitter:
    return sacre_splitter(tokenize, lowercase)


class BLEUScore(_TorchmetricsBLEUScore):
    """torchmetrics' ``BLEUScore`` (``n_gram``, ``smooth``, ``weights``, metric kwargs), with the
    same states and scores, counted by turbobleu's kernel. ``update(preds, target)`` takes the
    predictions and, per prediction, its references (``line.split()`` tokens)."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        check_n_gram(n_gram)
        super().__init__(n_gram=n_gram, smooth=smooth, weights=weights, **kwargs)

    def _splitter(self) -> LineSplitter:
        return plain_splitter()

    # ``forward`` stays torchmetrics' own (``torch.jit.unused``, so the metric scripts as
    # torchmetrics' does); its two-``update`` path, the one BLEU takes, is this method.
    def _forward_full_state_update(self, *args: Any, **kwargs: Any) -> Any:
        """torchmetrics' ``forward`` for this batch: the batch is tokenized and counted once
        for the path's two ``update`` calls (the global one and the batch-only one)."""
        self.__dict__["_turbobleu_batches"] = {}
        try:
            return super()._forward_full_state_update(*args, **kwargs)
        finally:
            self.__dict__.pop("_turbobleu_batches", None)

    def update(self, preds: Sequence[str], target: Sequence[Sequence[str]]) -> None:
        """Add a batch: ``preds[i]`` against its references ``target[i]``."""
        memo: Optional[Dict[Tuple[int, int, bool], Batch]] = self.__dict__.get("_turbobleu_batches")

        def make_batch(distinct: bool) -> Batch:
            key = (id(preds), id(target), distinct)
            batch = memo.get(key) if memo is not None else None
            if batch is None:
                batch = Batch(preds, target, self.n_gram, self._splitter(), distinct)
                if memo is not None:
                    memo[key] = batch
            return batch

        add_batch(self.preds_len, self.target_len, self.numerator, self.denominator, make_batch)

    def compute(self) -> Tensor:
        """The BLEU score of every batch added so far (over every rank, once synchronised)."""
        return bleu_from_states(
            self.preds_len,
            self.target_len,
            self.numerator,
            self.denominator,
            self.n_gram,
            self.weights,
            self.smooth,
        )


class SacreBLEUScore(BLEUScore, _TorchmetricsSacreBLEUScore):
    """torchmetrics' ``SacreBLEUScore`` (``tokenize``: ``none``, ``13a``, ``zh``, ``intl``,
    ``char``, ``ja-mecab``, ``ko-mecab``, ``flores101``, ``flores200``; ``lowercase``), tokenized
    by turbobleu's sacrebleu tokenizers the way torchmetrics applies its copies of them."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        check_n_gram(n_gram)
        _TorchmetricsSacreBLEUScore.__init__(
            self,
            n_gram=n_gram,
            smooth=smooth,
            tokenize=tokenize,
            lowercase=lowercase,
            weights=weights,
            **kwargs,
        )
        self._turbobleu_tokenize = (tokenize, bool(lowercase))
        self._splitter()  # a missing model or library fails here, not at the first update

    def _splitter(self) -> LineSplitter:
        return _sacre_splitter(*self._turbobleu_tokenize)


class _RootImportBLEUScore(BLEUScore):
    """``torchmetrics.BLEUScore``: :class:`BLEUScore` with torchmetrics' deprecation notice."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        _deprecated_root_import_class("BLEUScore", "text")
        super().__init__(n_gram=n_gram, smooth=smooth, weights=weights, **kwargs)


class _RootImportSacreBLEUScore(SacreBLEUScore):
    """``torchmetrics.SacreBLEUScore``: :class:`SacreBLEUScore` with the deprecation notice."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Optional[Sequence[float]] = None,
        **kwargs: Any,
    ) -> None:
        _deprecated_root_import_class("SacreBLEUScore", "text")
        super().__init__(
            n_gram=n_gram,
            smooth=smooth,
            tokenize=tokenize,
            lowercase=lowercase,
            weights=weights,
            **kwargs,
        )


def _score(
    preds: Any,
    target: Any,
    n_gram: int,
    smooth: bool,
    weights: Sequence[float],
    splitter: LineSplitter,
) -> Tensor:
    numerator = torch.zeros(n_gram)
    denominator = torch.zeros(n_gram)
    preds_len = torch.tensor(0.0)
    target_len = torch.tensor(0.0)
    add_batch(
        preds_len,
        target_len,
        numerator,
        denominator,
        lambda distinct: Batch(preds, target, n_gram, splitter, distinct),
    )
    return bleu_from_states(preds_len, target_len, numerator, denominator, n_gram, weights, smooth)


def bleu_score(
    preds: Union[str, Sequence[str]],
    target: Sequence[Union[str, Sequence[str]]],
    n_gram: int = 4,
    smooth: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Tensor:
    """torchmetrics' ``bleu_score``: a ``str`` prediction is one segment, a ``str`` target
    element is one reference; ``preds`` and ``target`` must be as long."""
    preds_ = [preds] if isinstance(preds, str) else preds
    target_ = [[t] if isinstance(t, str) else t for t in target]
    if len(preds_) != len(target_):
        raise ValueError(f"Corpus has different size {len(preds_)} != {len(target_)}")
    check_n_gram(n_gram)
    weights = default_weights(n_gram, weights)
    return _score(preds_, target_, n_gram, smooth, weights, plain_splitter())


def sacre_bleu_score(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    weights: Optional[Sequence[float]] = None,
) -> Tensor:
    """torchmetrics' ``sacre_bleu_score`` (strings are not wrapped, unlike ``bleu_score``)."""
    if len(preds) != len(target):
        raise ValueError(f"Corpus has different size {len(preds)} != {len(target)}")
    check_n_gram(n_gram)
    weights = default_weights(n_gram, weights)
    _SacreBLEUTokenizer._check_tokenizers_validity(tokenize)
    splitter = _sacre_splitter(tokenize, bool(lowercase))
    return _score(preds, target, n_gram, smooth, weights, splitter)
