"""A BLEU reward function for TRL's trainers (``GRPOTrainer``, ``RLOOTrainer``, ...).

    from turbobleu.rewards.trl import trl_reward
    trainer = GRPOTrainer(model, reward_funcs=trl_reward("reference"), train_dataset=ds, ...)

TRL calls ``reward_func(prompts=..., completions=..., completion_ids=..., **columns)`` with the
dataset's other columns as keyword lists (one entry per completion, the prompt's row repeated for
each of its generations) and logs the rewards under the function's ``__name__``. The reward of a
row with no reference (None or an empty list) is None, which TRL records as NaN and leaves out of
the means.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from turbobleu.rewards import BLEUReward, first_kind

__all__ = ["TRLBLEUReward", "completion_text", "trl_reward"]


def completion_text(completion: Any, row: int) -> str:
    """The text of one completion: a string as it is, or, for conversational datasets (a list of
    chat messages), the content of the last assistant message."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                return _content_text(message.get("content"), row)
    raise TypeError(
        f"completions[{row}] must be a string or a list of chat messages with an assistant "
        f"message, got {type(completion).__name__}"
    )


def _content_text(content: Any, row: int) -> str:
    """A message's content: a string, or the text parts of a multimodal content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "")
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    raise TypeError(
        f"completions[{row}]: the assistant message's content must be a string or a list of "
        f"parts, got {type(content).__name__}"
    )


class TRLBLEUReward(BLEUReward):
    """TRL reward function: sentence BLEU of each completion against the references in the
    dataset column ``column``. Made by ``trl_reward``, which documents the arguments."""

    def __init__(
        self,
        column: str,
        recipe: Any = None,
        *,
        name: Optional[str] = None,
        eos_token_ids: Sequence[int] = (),
        **options: Any,
    ) -> None:
        if not isinstance(column, str) or not column:
            raise ValueError(f"column must be the name of a dataset column, got {column!r}")
        super().__init__(recipe, **options)
        self.column = column
        self.eos_token_ids = frozenset(int(i) for i in eos_token_ids)
        self.__name__ = name or f"{self.metric}_{column}"

    def __call__(
        self,
        prompts: Optional[Sequence[Any]] = None,
        completions: Optional[Sequence[Any]] = None,
        completion_ids: Optional[Sequence[Sequence[int]]] = None,
        **columns: Any,
    ) -> List[Optional[float]]:
        if completions is None:
            raise TypeError(f"{self.__name__}: TRL passes completions=...; none were given")
        if self.column not in columns:
            given = sorted(k for k in columns if k not in _TRL_KEYWORDS)
            raise KeyError(
                f"{self.__name__}: the dataset has no column {self.column!r} (its columns "
                f"here: {given}); name the reference column in trl_reward(...)"
            )
        references = columns[self.column]
        if completion_ids is not None and first_kind(references, self.column) == "ids":
            hyps: Sequence[Any] = self._strip_eos(completion_ids)
        else:
            hyps = list(completions)
            if not all(type(c) is str for c in hyps):
                hyps = [completion_text(c, i) for i, c in enumerate(hyps)]
        return self.score(hyps, references, what=self.column).rewards()

    def _strip_eos(self, completion_ids: Sequence[Sequence[int]]) -> Sequence[Sequence[int]]:
        """TRL keeps the end-of-sequence token in ``completion_ids``: drop it from the end."""
        if not self.eos_token_ids:
            return completion_ids
        eos = self.eos_token_ids
        out = []
        for ids in completion_ids:
            end = len(ids)
            while end and ids[end - 1] in eos:
                end -= 1
            out.append(ids[:end])
        return out


# Keywords TRL passes besides the dataset's columns (left out of the "columns here" message).
_TRL_KEYWORDS = frozenset({"trainer_state", "log_extra", "log_metric", "environments"})


def trl_reward(column: str = "reference", recipe: Any = None, **options: Any) -> TRLBLEUReward:
    """A reward function for TRL: sentence BLEU of each completion against its row's references.

    ``column``: the dataset column holding each prompt's references: a string, a list of
    strings, token ids or a list of token-id lists (then the completions' ``completion_ids``
    are scored, with ``eos_token_ids`` cut from their end: TRL keeps the end-of-sequence
    token there). Completions may be plain strings or chat messages (the last assistant
    message's content is scored). ``recipe``: ``"sacrebleu"`` (``sacrebleu.sentence_bleu``),
    ``"nltk"`` (NLTK's ``sentence_bleu``) or a ``SacreBLEURecipe``/``NLTKRecipe``.
    Keyword ``options``: ``scale`` 1 (rewards in 0-1, the default) or 100 (0-100); ``name``,
    the ``__name__`` TRL logs the reward under (default ``<metric>_<column>``, e.g.
    ``bleu_reference``); ``eos_token_ids``; ``tokenize``, ``lowercase``, ``threads``,
    ``pad_id``, ``cache_bytes``, and ``metric="chrf"`` / ``"ter"`` with ``metric_options``
    (sacrebleu's sentence chrF or TER, TER negated) as in ``BLEUReward``.

    Returns a picklable callable; rows with no reference get None (TRL's "no reward").
    """
    return TRLBLEUReward(column, recipe, **options)
