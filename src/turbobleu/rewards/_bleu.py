"""BLEU's rewards (the registry's ``"reward"`` hook of ``bleu``): sentence BLEU of text or
token ids through prepared ``ReferenceSets``, kept between calls in a small LRU cache.

``turbobleu.rewards.BLEUReward`` reads every metric through one protocol: ``width`` (the
statistics columns of a ``RewardBatch``), ``score(hypotheses, groups, group, kind, what)`` ->
(rewards, statistics rows) and ``fields()`` (its repr); ``MetricReward`` is the default.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from turbobleu.batch import NLTKRecipe, ReferenceSets, SacreBLEURecipe

__all__ = ["DEFAULT_CACHE_BYTES", "BLEURewards"]

# Prepared references kept between calls, in bytes of their tables (the LRU drops the oldest).
DEFAULT_CACHE_BYTES = 64 * 2**20


class BLEURewards:
    """Sentence BLEU rewards on ``scale`` (see ``BLEUReward`` for the options)."""

    def __init__(
        self,
        recipe: Any = None,
        *,
        scale: int,
        tokenize: Any = None,
        lowercase: bool = False,
        threads: Optional[int] = None,
        pad_id: Optional[int] = None,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        metric_options: Optional[Mapping[str, Any]] = None,
    ) -> None:
        if metric_options is not None:
            raise ValueError(
                "metric_options is for metrics other than metric='bleu'; BLEU takes recipe="
            )
        if recipe is None or recipe == "sacrebleu":
            recipe = SacreBLEURecipe()
        elif recipe == "nltk":
            recipe = NLTKRecipe()
        if not isinstance(recipe, (SacreBLEURecipe, NLTKRecipe)):
            raise ValueError(
                "recipe must be 'sacrebleu', 'nltk', a SacreBLEURecipe or an NLTKRecipe, "
                f"got {recipe!r}"
            )
        if isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int) or cache_bytes < 0:
            raise ValueError(f"cache_bytes must be an integer >= 0, got {cache_bytes!r}")
        self.recipe = recipe
        self.scale = scale
        if tokenize is None:
            tokenize = "13a" if isinstance(recipe, SacreBLEURecipe) else "none"
        self.tokenize = tokenize
        self.lowercase = bool(lowercase)
        self.threads = threads
        self.pad_id = pad_id
        self.cache_bytes = cache_bytes
        # The recipe's own range: sacrebleu scores 0-100, NLTK 0-1.
        native = 100 if isinstance(recipe, SacreBLEURecipe) else 1
        self._divide = native // scale if native > scale else 1
        self._multiply = scale // native if scale > native else 1
        # BLEU's statistics columns: hyp_len, ref_len, matches_1..N, totals_1..N.
        self.width = 2 + 2 * recipe.orders
        self._init_cache()

    def _init_cache(self) -> None:
        self._lock = threading.Lock()
        self._cache: "OrderedDict[Hashable, ReferenceSets]" = OrderedDict()
        self._cached_bytes = 0

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        for key in ("_lock", "_cache", "_cached_bytes"):
            del state[key]
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._init_cache()

    def fields(self) -> str:
        return (
            f"recipe={self.recipe!r}, scale={self.scale}, tokenize={self.tokenize!r}, "
            f"lowercase={self.lowercase}"
        )

    def _prepared(self, key: Tuple[Any, ...], groups: List[Any], kind: str) -> ReferenceSets:
        """The ReferenceSets of ``groups`` (one per distinct run of rows), from the cache when
        the same groups were prepared before."""
        with self._lock:
            refs = self._cache.get(key)
            if refs is not None:
                self._cache.move_to_end(key)
                return refs
        refs = ReferenceSets(
            [list(g) for g in groups] if kind == "text" else [[list(r) for r in g] for g in groups],
            max_order=self.recipe.orders,
            pad_id=self.pad_id,
            tokenize=self.tokenize,
            lowercase=self.lowercase,
            threads=self.threads,
        )
        if refs.nbytes <= self.cache_bytes:
            with self._lock:
                if key not in self._cache:
                    self._cache[key] = refs
                    self._cached_bytes += refs.nbytes
                    while self._cached_bytes > self.cache_bytes:
                        _, old = self._cache.popitem(last=False)
                        self._cached_bytes -= old.nbytes
        return refs

    def score(
        self, hypotheses: Sequence[Any], groups: List[Any], group: np.ndarray, kind: str, what: str
    ) -> Tuple[np.ndarray, np.ndarray]:
        """Rewards and statistics rows of ``hypotheses`` (the rows that have references), row
        ``i`` against ``groups[group[i]]`` (text or token ids, as ``kind`` says)."""
        refs = self._prepared(tuple(groups), groups, kind)
        got, got_rows = refs.score(
            hypotheses,
            self.recipe,
            group=group,
            pad_id=self.pad_id,
            threads=self.threads,
            return_stats=True,
        )
        if self._divide != 1:
            got = got / self._divide
        elif self._multiply != 1:
            got = got * self._multiply
        return got, got_rows
