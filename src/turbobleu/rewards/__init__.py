"""BLEU rewards in the shapes RL trainers call them.

One module per trainer, each built on the shared ``BLEUReward`` defined here:

* ``turbobleu.rewards.trl`` - ``trl_reward(column)``: a reward function for TRL's trainers
  (``GRPOTrainer(reward_funcs=...)``), a list of floats with None where a row has no reference.
* ``turbobleu.rewards.verl`` - ``compute_score`` (per sample) and ``compute_score_batch`` for
  verl's ``custom_reward_function.path`` / ``name``; ``python -m turbobleu.rewards.verl --path``
  prints the file to give it.
* ``turbobleu.rewards.openrlhf`` - ``reward_func(queries, prompts, labels)`` for OpenRLHF's
  ``--reward.remote_url`` (``python -m turbobleu.rewards.openrlhf --path``).

Every score is the mirrored library's single call, bit for bit: ``sacrebleu.sentence_bleu(hyp,
refs).score`` (the sacrebleu recipe) or NLTK's ``sentence_bleu(refs, hyp)`` (the NLTK recipe),
divided by 100 or multiplied by 100 when ``scale`` asks for the other range; with
``metric="chrf"`` or ``"ter"``, sacrebleu's ``sentence_chrf`` / ``sentence_ter`` (TER negated,
so that a higher reward is better: ``turbobleu.rewards.metric_reward``). References are
prepared once per run of consecutive rows that share them (a GRPO group) and kept between calls
in a small cache, so the per-sample forms (verl, OpenRLHF) do not rebuild them for every sample.

The adapters pickle (their cache and lock are rebuilt on load) and may be called from many
threads at once.
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from turbobleu.rewards._bleu import DEFAULT_CACHE_BYTES as DEFAULT_CACHE_BYTES  # (its old home)
from turbobleu.rewards.metric_reward import MetricReward

__all__ = ["BLEUReward", "RewardBatch", "first_kind", "print_path_command"]

# Reference types compared with == to find rows that repeat the previous row's references
# (NumPy arrays are not: their == is elementwise).
_PLAIN = (str, list, tuple)

# The metric a reward computes unless told otherwise.
_DEFAULT_METRIC = "bleu"

# Scales a reward may be given in: 0-1 or 0-100.
SCALES = (1, 100)


class RewardBatch:
    """Scores of one call: ``scores`` (float64, NaN where ``valid`` is False), BLEU's statistics
    ``rows`` ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (zeros where not valid; no
    columns for another metric) and ``valid`` (the rows that had references)."""

    def __init__(self, scores: np.ndarray, rows: np.ndarray, valid: np.ndarray) -> None:
        self.scores = scores
        self.rows = rows
        self.valid = valid

    def rewards(self) -> List[Optional[float]]:
        """Python floats, None where a row had no reference."""
        out: List[Optional[float]] = self.scores.tolist()
        if not self.valid.all():
            for i in np.flatnonzero(~self.valid):
                out[int(i)] = None
        return out

    def statistics(self, i: int) -> Dict[str, int]:
        """Row ``i``'s statistics by name (``hyp_len``, ``ref_len``, ``matches_n``,
        ``totals_n``)."""
        row = self.rows[i].tolist()
        if not row:  # another metric than BLEU: no statistics
            return {}
        order = (len(row) - 2) // 2
        stats = {"hyp_len": row[0], "ref_len": row[1]}
        for n in range(order):
            stats[f"matches_{n + 1}"] = row[2 + n]
            stats[f"totals_{n + 1}"] = row[2 + order + n]
        return stats


def _reference_kind(value: Any, where: str) -> Tuple[str, Optional[Tuple[Any, ...]]]:
    """("text" | "ids", the group as a hashable tuple of references), or (kind, None) for a
    row with no reference (None or an empty list). Anything else is a TypeError naming the row."""
    if value is None:
        return "none", None
    if isinstance(value, str):
        return "text", (value,)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{where}: a reference must be a string, a list of strings, a list of token ids "
            f"or a list of token-id lists, got {type(value).__name__}"
        )
    if not value:
        return "none", None
    first = value[0]
    if isinstance(first, np.ndarray):
        value = [v.tolist() if isinstance(v, np.ndarray) else v for v in value]
        first = value[0]
    if isinstance(first, str):
        if not all(isinstance(v, str) for v in value):
            raise TypeError(f"{where}: a list of references mixes strings with other values")
        return "text", tuple(value)
    if isinstance(first, (int, np.integer)) and not isinstance(first, bool):
        return "ids", (_id_tuple(value, where),)
    if isinstance(first, (list, tuple)):
        return "ids", tuple(_id_tuple(v, where) for v in value)
    raise TypeError(
        f"{where}: references must be strings or token ids, got a list of {type(first).__name__}"
    )


def _same(value: Any, previous: Any) -> bool:
    """``value`` is, or plainly equals, the previous row's references (NumPy arrays inside a
    list make ``==`` elementwise: those rows are compared by their keys instead)."""
    if value is previous:
        return True
    if type(value) is not type(previous) or type(value) not in _PLAIN:
        return False
    try:
        return bool(value == previous)
    except ValueError:
        return False


def first_kind(references: Sequence[Any], what: str) -> Optional[str]:
    """The kind ("text" or "ids") of the first row that has a reference; None if none has."""
    for i, value in enumerate(references):
        kind, key = _reference_kind(value, f"{what}[{i}]")
        if key is not None:
            return kind
    return None


def _id_tuple(value: Any, where: str) -> Tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(t, (int, np.integer)) and not isinstance(t, bool) for t in value
    ):
        raise TypeError(f"{where}: a token-id reference must be a list of integers")
    return tuple(int(t) for t in value)


class BLEUReward:
    """Sentence BLEU (or chrF, TER) of hypotheses against per-row references, for reward
    functions.

    ``recipe``: ``"sacrebleu"`` (``sacrebleu.sentence_bleu``: exp smoothing, effective order),
    ``"nltk"`` (NLTK's ``sentence_bleu``, no smoothing), or a ``SacreBLEURecipe`` /
    ``NLTKRecipe`` with other options. ``scale``: 1 for rewards in 0-1, 100 for 0-100.
    ``tokenize``/``lowercase``: how text is split (default: 13a for sacrebleu, whitespace for
    NLTK, as each library's sentence call does). ``threads``: worker threads for large batches
    (default: every core). ``pad_id``: a token id dropped from token-id hypotheses and
    references. ``cache_bytes``: memory for prepared references kept between calls.

    ``metric``: ``"bleu"`` (the default, with the options above) or another metric of the
    registry, ``"chrf"`` or ``"ter"``: sacrebleu's ``sentence_chrf`` / ``sentence_ter`` of
    text, made with ``metric_options`` (``CHRF`` / ``TER`` keyword arguments, e.g.
    ``{"word_order": 2}`` for chrF++); TER, an error rate, is negated so that higher is better
    (see ``turbobleu.rewards.metric_reward``); a metric added with ``register_metric`` is
    taken the same way. The BLEU options (``recipe``, ``tokenize``, ``lowercase``, ``threads``,
    ``pad_id``, ``cache_bytes``) are refused with another metric, naming the option. The
    metric's own settings (BLEU's ``recipe``, ``tokenize``, ...) read through this object.
    """

    def __init__(
        self,
        recipe: Any = None,
        *,
        scale: int = 1,
        metric: str = _DEFAULT_METRIC,
        metric_options: Optional[Mapping[str, Any]] = None,
        **options: Any,
    ) -> None:
        from turbobleu.metric_registry import get_metric

        if not isinstance(metric, str):
            raise TypeError(f"metric must be a metric's name, got {type(metric).__name__}")
        entry = get_metric(metric)
        if isinstance(scale, bool) or scale not in SCALES:
            raise ValueError(f"scale must be 1 (rewards in 0-1) or 100 (0-100), got {scale!r}")
        if recipe is not None:
            options["recipe"] = recipe
        if metric_options is not None:
            options["metric_options"] = metric_options
        self.metric = metric
        self.scale = int(scale)
        # The metric's own rewards (the registry's "reward" hook), else its sentence scores.
        make = entry.hook("reward")
        if make is not None:
            self._impl = make(scale=self.scale, **options)
        else:
            self._impl = MetricReward(entry.name, self.scale, **options)

    def __getattr__(self, name: str) -> Any:
        # The metric's own settings (BLEU's recipe, tokenize, cache, ...), read from its rewards.
        if name.startswith("__") or name == "_impl":
            raise AttributeError(name)
        return getattr(self._impl, name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._impl.fields()})"

    # -- scoring ----------------------------------------------------------------------------------
    def score(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Any],
        *,
        what: str = "references",
    ) -> RewardBatch:
        """Scores on this reward's scale, one per hypothesis.

        ``references[i]``: a string, a list of strings, a list of token ids or a list of
        token-id lists; None (or an empty list) for a row with no reference, whose score is NaN
        and ``valid`` False. Text references need text ``hypotheses``, token-id references
        token-id hypotheses (lists or arrays of ints). All rows of a call must have the same kind
        of reference. ``what`` names the references in error messages.
        """
        n = len(hypotheses)
        if len(references) != n:
            raise ValueError(
                f"{what} has {len(references)} rows but there are {n} hypotheses: give one "
                "entry (a reference, a list of references or None) per hypothesis"
            )
        kind = None
        keys: List[Any] = []  # the distinct group of each run of rows
        row_group = [-1] * n  # each row's index in keys; -1: no reference
        previous: Any = object()
        previous_key: Any = None
        for i, value in enumerate(references):
            if previous_key is not None and _same(value, previous):
                row_group[i] = len(keys) - 1  # the previous row's references (a GRPO group)
                continue
            row_kind, key = _reference_kind(value, f"{what}[{i}]")
            previous = value
            if key is None:
                previous_key = None
                continue
            if kind is None:
                kind = row_kind
            elif row_kind != kind:
                raise TypeError(
                    f"{what}[{i}] holds {row_kind} references but earlier rows hold {kind}: "
                    "give every row the same kind (text or token ids)"
                )
            if key != previous_key:
                keys.append(key)
                previous_key = key
            row_group[i] = len(keys) - 1
        group = np.array(row_group, dtype=np.int64)
        valid = group >= 0
        scores = np.full(n, np.nan)
        # The metric's statistics columns (BLEU's; none for a metric that has no such rows).
        rows = np.zeros((n, self._impl.width), dtype=np.int64)
        if kind is None:  # no row has a reference
            return RewardBatch(scores, rows, valid)
        hyps = self._hypotheses(hypotheses, kind, valid)
        idx = np.flatnonzero(valid)
        got, got_rows = self._impl.score(hyps, keys, group[idx], kind, what)
        scores[idx] = got
        rows[idx] = got_rows
        return RewardBatch(scores, rows, valid)

    def _hypotheses(self, hypotheses: Sequence[Any], kind: str, valid: np.ndarray) -> List[Any]:
        """The hypotheses of the valid rows, checked against the references' kind."""
        rows = (
            list(hypotheses) if valid.all() else [hypotheses[int(i)] for i in np.flatnonzero(valid)]
        )
        if kind == "text":
            wrong = [i for i, h in enumerate(rows) if not isinstance(h, str)]
            need = "text hypotheses"
        else:
            rows = [r.tolist() if hasattr(r, "tolist") else r for r in rows]
            wrong = [i for i, h in enumerate(rows) if not isinstance(h, (list, tuple))]
            need = "token-id hypotheses (pass the completions' token ids)"
        if wrong:
            raise TypeError(
                f"hypothesis {int(np.flatnonzero(valid)[wrong[0]])} is "
                f"{type(rows[wrong[0]]).__name__}: {kind} references need {need}"
            )
        return rows

    def rewards(
        self, hypotheses: Sequence[Any], references: Sequence[Any]
    ) -> List[Optional[float]]:
        """Scores as Python floats, None where a row has no reference."""
        return self.score(hypotheses, references).rewards()


def print_path_command(argv: Optional[List[str]], module: str, setting: str, path: str) -> None:
    """``python -m <module> --path``: prints the adapter's file, to give the trainer's
    ``setting``."""
    parser = argparse.ArgumentParser(
        prog=f"python -m {module}", description=f"print the file to give {setting}"
    )
    parser.add_argument("--path", action="store_true", help="print this module's file path")
    if parser.parse_args(argv).path:
        print(path)
    else:
        parser.print_help()
