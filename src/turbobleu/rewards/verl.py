"""BLEU (or chrF, TER) ``compute_score`` functions for verl's custom reward.

verl loads a reward function from a file: in the trainer's config,

    reward.custom_reward_function.path=$(python -m turbobleu.rewards.verl --path)
    reward.custom_reward_function.name=compute_score          # or compute_score_batch

(``custom_reward_function`` sits at the top level of older verl configs), with options in
``custom_reward_function.reward_kwargs`` (``recipe``: sacrebleu | nltk, ``scale``: 1 | 100,
``tokenize``, ``lowercase``, ``recipe_options``: a mapping of ``SacreBLEURecipe`` /
``NLTKRecipe`` arguments; or ``metric``: chrf | ter with ``metric_options``, the
``CHRF`` / ``TER`` keyword arguments: see ``BLEUReward``). ``compute_score`` is verl's
per-sample form (the naive reward manager); ``compute_score_batch`` the batched form
(``reward_manager=batch``).

Each returns verl's dict: ``score`` (the reward) plus, for BLEU, its statistics (``hyp_len``,
``ref_len``, ``matches_n``, ``totals_n``) as extra keys that verl logs. ``ground_truth`` is the
reference: a string or a list of strings. verl has no "no reward" value, so a sample without a
reference is an error naming it. The prepared references of a ground truth are kept between
calls, so the n samples of a prompt prepare them once.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

from turbobleu.batch import NLTKRecipe, SacreBLEURecipe
from turbobleu.rewards import BLEUReward, RewardBatch, print_path_command

__all__ = ["compute_score", "compute_score_batch"]

_scorers: Dict[Tuple[Any, ...], BLEUReward] = {}
_scorers_lock = threading.Lock()


def _scorer(
    recipe: str = "sacrebleu",
    scale: int = 1,
    tokenize: Optional[str] = None,
    lowercase: bool = False,
    recipe_options: Optional[Dict[str, Any]] = None,
    threads: Optional[int] = None,
    metric: str = "bleu",
    metric_options: Optional[Dict[str, Any]] = None,
) -> BLEUReward:
    """The process's BLEUReward for these options (kept, so its cache serves later calls)."""
    options = dict(recipe_options or {})
    other = dict(metric_options or {})
    key = (
        recipe,
        scale,
        tokenize,
        lowercase,
        tuple(sorted(options.items())),
        threads,
        metric,
        tuple(sorted(other.items())),
    )
    with _scorers_lock:
        scorer = _scorers.get(key)
    if scorer is None:
        if recipe not in ("sacrebleu", "nltk"):
            raise ValueError(f"recipe must be 'sacrebleu' or 'nltk', got {recipe!r}")
        # Only the options given reach the metric (another metric refuses BLEU's).
        given: Dict[str, Any] = {"threads": threads} if threads is not None else {}
        if tokenize is not None:
            given["tokenize"] = tokenize
        if lowercase:
            given["lowercase"] = True
        if options:
            given["recipe"] = (SacreBLEURecipe if recipe == "sacrebleu" else NLTKRecipe)(**options)
        elif recipe != "sacrebleu":
            given["recipe"] = recipe
        if metric_options is not None:
            given["metric_options"] = metric_options
        scorer = BLEUReward(scale=scale, metric=metric, **given)
        with _scorers_lock:
            scorer = _scorers.setdefault(key, scorer)
    return scorer


def _ground_truth(value: Any) -> Any:
    """verl keeps non-tensor data in NumPy object arrays: a list of references may arrive as one."""
    return value.tolist() if hasattr(value, "tolist") and not isinstance(value, str) else value


def _results(batch: RewardBatch, what: str) -> List[Dict[str, Any]]:
    if not batch.valid.all():
        row = int((~batch.valid).argmax())
        raise ValueError(
            f"{what}[{row}] has no reference (None or empty): verl needs a score for every "
            "sample; give each sample a ground truth"
        )
    out = []
    for i, score in enumerate(batch.scores.tolist()):
        result: Dict[str, Any] = {"score": score}
        result.update(batch.statistics(i))
        out.append(result)
    return out


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    **reward_kwargs: Any,
) -> Dict[str, Any]:
    """verl's per-sample reward: BLEU of ``solution_str`` against ``ground_truth`` (a string or
    a list of strings), as ``{"score": reward, "hyp_len": ..., ...}``. ``reward_kwargs``: the
    config's ``reward_kwargs`` (see the module's docstring). ``data_source`` and ``extra_info``
    are not used."""
    batch = _scorer(**reward_kwargs).score(
        [solution_str], [_ground_truth(ground_truth)], what="ground_truth"
    )
    return _results(batch, "ground_truth")[0]


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Any]] = None,
    **reward_kwargs: Any,
) -> List[Dict[str, Any]]:
    """verl's batched reward: one dict per sample, as ``compute_score`` returns. Consecutive
    samples with the same ground truth (a prompt's n responses) share prepared references."""
    refs = [_ground_truth(g) for g in ground_truths]
    batch = _scorer(**reward_kwargs).score(list(solution_strs), refs, what="ground_truths")
    return _results(batch, "ground_truths")


def main(argv: Optional[List[str]] = None) -> None:
    print_path_command(argv, "turbobleu.rewards.verl", "custom_reward_function.path", __file__)


if __name__ == "__main__":
    main()
