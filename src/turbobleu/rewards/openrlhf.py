"""A BLEU ``reward_func`` for OpenRLHF's reward-function file.

OpenRLHF loads ``reward_func`` from the file given to ``--reward.remote_url`` (older releases:
``--remote_rm_url``) and calls ``reward_func(queries, prompts, labels)``:

    --reward.remote_url $(python -m turbobleu.rewards.openrlhf --path) --label_key reference

``queries`` are the decoded prompt + response (special tokens kept), ``prompts`` the decoded
prompts and ``labels`` the dataset's ``--label_key`` column (here: the reference, a string or a
list of strings). The response is the query after its prompt, with trailing end-of-sequence
markers (``<|im_end|>``, ``</s>``, ...) cut off; it is scored with sacrebleu's sentence BLEU on
a 0-1 scale. For other options, write a two-line file of your own:

    from turbobleu.rewards.openrlhf import make_reward_func
    reward_func = make_reward_func(recipe="nltk", scale=100)
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from turbobleu.rewards import BLEUReward, print_path_command

__all__ = ["EOS_MARKERS", "OpenRLHFBLEUReward", "make_reward_func", "reward_func"]

# End-of-sequence (and padding) texts of common chat templates, cut from the end of a response.
EOS_MARKERS = (
    "<|im_end|>",
    "<|endoftext|>",
    "<|end_of_text|>",
    "<|eot_id|>",
    "<|end|>",
    "</s>",
    "<eos>",
    "<end_of_turn>",
)


class OpenRLHFBLEUReward(BLEUReward):
    """OpenRLHF reward function: BLEU of each response against its label. Made by
    ``make_reward_func``, which documents the arguments."""

    def __init__(
        self, recipe: Any = None, *, eos_markers: Sequence[str] = EOS_MARKERS, **options: Any
    ) -> None:
        super().__init__(recipe, **options)
        self.eos_markers = tuple(m for m in eos_markers if m)

    def response(self, query: str, prompt: str, row: int) -> str:
        """The text of ``query`` after ``prompt``, end-of-sequence markers cut from its end."""
        if not isinstance(query, str) or not isinstance(prompt, str):
            raise TypeError(f"queries[{row}] and prompts[{row}] must be strings")
        if not query.startswith(prompt):
            raise ValueError(
                f"queries[{row}] does not start with prompts[{row}]: cannot tell the response "
                "from the prompt"
            )
        text = query[len(prompt) :]
        cut = True
        while cut:
            cut = False
            for marker in self.eos_markers:
                stripped = text.rstrip()
                if stripped.endswith(marker):
                    text, cut = stripped[: -len(marker)], True
        return text

    def scores(
        self, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any]
    ) -> List[float]:
        """The rewards as Python floats (``__call__`` wraps them in OpenRLHF's dict)."""
        if not len(queries) == len(prompts) == len(labels):
            raise ValueError(
                f"queries, prompts and labels must have one entry per sample, got "
                f"{len(queries)}, {len(prompts)} and {len(labels)}"
            )
        responses = [self.response(q, p, i) for i, (q, p) in enumerate(zip(queries, prompts))]
        batch = self.score(responses, labels, what="labels")
        if not batch.valid.all():
            row = int((~batch.valid).argmax())
            raise ValueError(
                f"labels[{row}] has no reference (None or empty): give every sample a "
                "reference in the --label_key column"
            )
        return batch.scores.tolist()

    def __call__(
        self, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any], **kwargs: Any
    ) -> Dict[str, Any]:
        """OpenRLHF's call: ``{"rewards": tensor, "scores": tensor, "extra_logs": {"bleu":
        tensor}}``, one float32 entry per sample."""
        import torch  # OpenRLHF runs on torch; only this return needs it

        rewards = torch.tensor(self.scores(queries, prompts, labels), dtype=torch.float32)
        return {"rewards": rewards, "scores": rewards, "extra_logs": {self.metric: rewards}}


def make_reward_func(recipe: Any = None, **options: Any) -> OpenRLHFBLEUReward:
    """An OpenRLHF ``reward_func``: BLEU of each response against its label.

    ``recipe``: ``"sacrebleu"``, ``"nltk"`` or a ``SacreBLEURecipe``/``NLTKRecipe``. Keyword
    ``options``: ``eos_markers`` (texts cut from the end of each response; default
    ``EOS_MARKERS``), ``scale`` (1 or 100), ``tokenize``, ``lowercase``, ``threads``,
    ``cache_bytes``, and ``metric="chrf"`` / ``"ter"`` with ``metric_options`` (TER negated)
    as in ``BLEUReward``. The result pickles and is safe to call from threads.
    """
    return OpenRLHFBLEUReward(recipe, **options)


# The function OpenRLHF loads from this file: sacrebleu's sentence BLEU, 0-1.
reward_func = make_reward_func()


def main(argv: Optional[List[str]] = None) -> None:
    print_path_command(argv, "turbobleu.rewards.openrlhf", "--reward.remote_url", __file__)


if __name__ == "__main__":
    main()
