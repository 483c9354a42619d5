"""OpenRLHF's own single-turn executor loads turbobleu's ``reward_func`` file (what
``--reward.remote_url file.py`` does) and calls it on a generated sample: the query it decodes
keeps the special tokens (the end-of-sequence text included), the prompt is the raw prompt. The
rollout engine is a stand-in returning fixed token ids (OpenRLHF generates with vLLM). The reward
it records equals sacrebleu's on the response text, and turns into the Experience fields the way
OpenRLHF 0.11.2's samples generator turns it (``torch.tensor([reward])``, extra logs'
``.flatten()[0].item()``).

OpenRLHF 0.11.2 does not install here with its dependencies (flash-attn needs CUDA to build):
``pip install --no-deps openrlhf==0.11.2`` plus ``transformers pylatexenc aiohttp`` imports its
executor (``openrlhf.utils.agent``); skips without it. Without OpenRLHF,
tests/test_rewards.py checks the same call pattern (the file loaded by path, positional lists of
one sample, each through ``asyncio.to_thread``).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, List

import numpy as np
import pytest
import sacrebleu

from conftest import FIXTURE_DATA, read_lines
from rewards_support import word_tokenizer
from turbobleu.rewards import openrlhf as openrlhf_rewards

agent = pytest.importorskip(
    "openrlhf.utils.agent",
    reason="OpenRLHF is not installed (pip install --no-deps openrlhf==0.11.2 transformers "
    "pylatexenc aiohttp: its full install builds flash-attn, which needs CUDA)",
)
torch = pytest.importorskip("torch")

HE_EN = FIXTURE_DATA / "he-en"


class FixedEngine:
    """Stands in for OpenRLHF's vLLM engine: answers each request with the next token ids."""

    def __init__(self, responses: List[List[int]]) -> None:
        self.responses = list(responses)

    async def generate(
        self, prompt_token_ids: List[int], params: Any, multi_modal_data: Any = None
    ):
        ids = self.responses.pop(0)
        return SimpleNamespace(
            outputs=[SimpleNamespace(token_ids=ids, finish_reason="stop", logprobs=None)]
        )


def test_single_turn_executor_scores_with_reward_func_file():
    refs_a, refs_b = read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")
    hyps = read_lines(HE_EN / "hyp.GPT4-5shot.en")
    tokenizer = word_tokenizer(refs_a + refs_b + hyps + ["translate this"])
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=openrlhf_rewards.__file__)
    assert executor.reward_func is not None  # loaded from the file, not an HTTP endpoint
    prompt = "translate this"
    samples = 6
    responses = [
        tokenizer(" ".join(hyps[i].split()[:20]))["input_ids"] + [tokenizer.eos_token_id]
        for i in range(samples)
    ]
    labels: List[Any] = [refs_a[i] if i % 2 else [refs_a[i], refs_b[i]] for i in range(samples)]
    engine = FixedEngine(responses)
    params = SimpleNamespace(max_tokens=64, logprobs=None)

    async def run_all() -> list:
        return [
            await executor.execute(prompt, label, params, 128, tokenizer, engine)
            for label in labels
        ]

    outputs = asyncio.run(run_all())
    for out, ids, label in zip(outputs, responses, labels):
        query = tokenizer.decode(out["observation_tokens"], skip_special_tokens=False)
        assert query.endswith(tokenizer.eos_token)  # OpenRLHF keeps it; the adapter cuts it
        text = tokenizer.decode(ids, skip_special_tokens=True)
        want = sacrebleu.sentence_bleu(text, [label] if isinstance(label, str) else label)
        assert out["reward"] is not None, "the executor swallowed an error from reward_func"
        assert out["reward"].item() == np.float32(want.score / 100)
        # The samples generator's conversion into the Experience's info fields.
        info_reward = torch.tensor([out["reward"]])
        assert info_reward.shape == (1,) and info_reward.item() == np.float32(want.score / 100)
        for value in out["extra_logs"].values():
            assert torch.tensor([value.flatten()[0].item()]).item() == np.float32(want.score / 100)
