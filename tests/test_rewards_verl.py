"""verl's own reward managers call turbobleu's ``compute_score`` functions, loaded the way verl
loads a custom reward (``custom_reward_function.path`` / ``name`` / ``reward_kwargs`` through
``verl.trainer.ppo.reward``), on a ``DataProto`` batch laid out as verl's rollout lays it out
(left-padded prompts, right-padded responses, one attention mask over both, ``reward_model``
ground truths in NumPy object arrays). Each score equals sacrebleu's on the response text
verl decoded, and sits at the last valid response token of verl's float32 reward tensor.

Needs ``pip install ".[test]" verl`` (checked with verl 0.9.1, transformers 5.10, torch 2.13
CPU; verl pins transformers < 5.11, so it gets its own virtualenv next to TRL's); skips without
verl.
"""

from __future__ import annotations

import asyncio
from typing import Any, List

import numpy as np
import pytest
import sacrebleu

from conftest import FIXTURE_DATA, read_lines
from rewards_support import word_tokenizer
from turbobleu.rewards import verl as verl_rewards

verl = pytest.importorskip("verl", reason="verl is not installed (pip install verl)")
torch = pytest.importorskip("torch")
omegaconf = pytest.importorskip("omegaconf")
from verl import DataProto  # noqa: E402
from verl.trainer.ppo.reward import get_custom_reward_fn, load_reward_manager  # noqa: E402

HE_EN = FIXTURE_DATA / "he-en"
SAMPLES = 4  # responses per prompt (rollout.n)


def rollout_batch(tokenizer: Any, prompts: int = 5) -> tuple:
    """(DataProto, ground truths): responses are real MT outputs, ground truths 1 or 2
    references (a string, or a list that verl hands over as a NumPy array)."""
    refs_a, refs_b = read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")
    hyps = read_lines(HE_EN / "hyp.NLLB_Greedy.en")
    prompt_rows, response_rows, truths = [], [], []
    for p in range(prompts):
        truth: Any = refs_a[p] if p % 2 else np.array([refs_a[p], refs_b[p]], dtype=object)
        for s in range(SAMPLES):
            prompt_rows.append(tokenizer(f"translate {p}")["input_ids"])
            words = hyps[(p + s) % len(hyps)].split()[: 8 + 3 * s]
            response_rows.append(tokenizer(" ".join(words))["input_ids"])
            truths.append(truth)
    pad = tokenizer.pad_token_id
    p_len, r_len = max(map(len, prompt_rows)), max(map(len, response_rows)) + 2
    prompts_t = torch.tensor([[pad] * (p_len - len(r)) + r for r in prompt_rows])
    responses_t = torch.tensor([r + [pad] * (r_len - len(r)) for r in response_rows])
    mask = torch.tensor(
        [
            [0] * (p_len - len(p)) + [1] * (len(p) + len(r)) + [0] * (r_len - len(r))
            for p, r in zip(prompt_rows, response_rows)
        ]
    )
    n = len(truths)
    data = DataProto.from_dict(
        tensors={
            "prompts": prompts_t,
            "responses": responses_t,
            "input_ids": torch.cat([prompts_t, responses_t], dim=1),
            "attention_mask": mask,
        },
        non_tensors={
            "data_source": np.array(["wmt23"] * n, dtype=object),
            "reward_model": np.array([{"ground_truth": t} for t in truths], dtype=object),
            "extra_info": np.array([{"index": i} for i in range(n)], dtype=object),
        },
    )
    return data, truths, [len(r) for r in response_rows]


def config(name: str, path: str = verl_rewards.__file__, **reward_kwargs: Any) -> Any:
    return omegaconf.OmegaConf.create(
        {
            "reward": {
                "custom_reward_function": {
                    "path": path,
                    "name": name,
                    "reward_kwargs": reward_kwargs,
                },
                "reward_manager": {"source": "register", "name": "naive"},
            }
        }
    )


def expected(tokenizer: Any, data: Any, truths: List[Any], lengths: List[int]) -> List[Any]:
    """sacrebleu on the response text verl decodes (skipping special tokens)."""
    out = []
    for row, truth, length in zip(data.batch["responses"], truths, lengths):
        text = tokenizer.decode(row[:length], skip_special_tokens=True)
        refs = truth.tolist() if isinstance(truth, np.ndarray) else [truth]
        out.append(sacrebleu.sentence_bleu(text, refs))
    return out


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    texts = [read_lines(HE_EN / f) for f in ("ref.refA.en", "ref.refB.en", "hyp.NLLB_Greedy.en")]
    return word_tokenizer([line for t in texts for line in t] + ["translate 0 1 2 3 4"])


@pytest.mark.parametrize("path", [verl_rewards.__file__, "pkg://turbobleu.rewards.verl"])
def test_reward_loop_naive_manager(tokenizer, path):
    """verl 0.9.1's trainer path: load_reward_manager -> NaiveRewardManager.run_single per
    sample (as RewardLoopWorker.compute_score_batch gathers them), then assemble_rm_scores."""
    data, truths, lengths = rollout_batch(tokenizer)
    manager = load_reward_manager(config("compute_score", path), tokenizer)

    async def score_all() -> list:
        return await asyncio.gather(
            *(manager.run_single(data[i : i + 1]) for i in range(len(data)))
        )

    results = manager.loop.run_until_complete(score_all())
    want = expected(tokenizer, data, truths, lengths)
    for got, w in zip(results, want):
        assert got["reward_score"] == w.score / 100
        extra = got["reward_extra_info"]
        assert extra["score"] == w.score / 100
        assert [extra[f"matches_{n}"] for n in range(1, 5)] == w.counts
        assert [extra[f"totals_{n}"] for n in range(1, 5)] == w.totals
        assert (extra["hyp_len"], extra["ref_len"]) == (w.sys_len, w.ref_len)
    rm_scores = manager.assemble_rm_scores(data, [r["reward_score"] for r in results])
    for i, (w, length) in enumerate(zip(want, lengths)):
        assert rm_scores[i, length - 1].item() == np.float32(w.score / 100)
        assert rm_scores[i].count_nonzero() <= 1


def test_batch_reward_manager_with_batched_compute_score(tokenizer):
    from verl.workers.reward_manager.batch import BatchRewardManager

    data, truths, lengths = rollout_batch(tokenizer)
    fn = get_custom_reward_fn(config("compute_score_batch", scale=100))
    manager = BatchRewardManager(tokenizer, num_examine=0, compute_score=fn)
    out = manager(data, return_dict=True)
    want = expected(tokenizer, data, truths, lengths)
    assert out["reward_extra_info"]["score"] == [w.score for w in want]
    assert out["reward_extra_info"]["matches_1"] == [w.counts[0] for w in want]
    for i, (w, length) in enumerate(zip(want, lengths)):
        assert out["reward_tensor"][i, length - 1].item() == np.float32(w.score)


def test_legacy_naive_manager_with_nltk_reward_kwargs(tokenizer):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from verl.workers.reward_manager.naive import NaiveRewardManager

    data, truths, lengths = rollout_batch(tokenizer)
    fn = get_custom_reward_fn(
        config("compute_score", recipe="nltk", recipe_options={"smoothing_function": 1})
    )
    out = NaiveRewardManager(tokenizer, num_examine=0, compute_score=fn)(data, return_dict=True)
    method1 = SmoothingFunction().method1
    for i, (row, truth, length) in enumerate(zip(data.batch["responses"], truths, lengths)):
        text = tokenizer.decode(row[:length], skip_special_tokens=True)
        refs = truth.tolist() if isinstance(truth, np.ndarray) else [truth]
        want = sentence_bleu([r.split() for r in refs], text.split(), smoothing_function=method1)
        assert out["reward_extra_info"]["score"][i] == want
        assert out["reward_tensor"][i, length - 1].item() == np.float32(want)
