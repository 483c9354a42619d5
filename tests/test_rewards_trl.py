"""TRL's own GRPOTrainer calls the turbobleu reward: two training steps of a tiny randomly
initialised Llama made from a config, with a word-level tokenizer trained on the test's text (no
downloads). The rewards TRL logs equal direct turbobleu and sacrebleu calls on the completions it
logged (TRL stores rewards as float32, so the comparison is in float32).

Needs ``pip install ".[test]" trl`` (checked with TRL 1.16.0, transformers 5.24, torch 2.13 CPU);
skips without TRL.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List

import numpy as np
import pytest
import sacrebleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines
from rewards_support import tiny_llama, word_tokenizer
from turbobleu.rewards.trl import TRLBLEUReward

os.environ.setdefault("HF_HUB_OFFLINE", "1")
trl = pytest.importorskip("trl", reason="TRL is not installed (pip install trl)")
torch = pytest.importorskip("torch")
datasets = pytest.importorskip("datasets")
pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

HE_EN = FIXTURE_DATA / "he-en"
GENERATIONS = 4


class Recording(TRLBLEUReward):
    """The adapter as TRL gets it, keeping what each call received and returned."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: List[Dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> List[Any]:
        out = super().__call__(**kwargs)
        self.calls.append({**kwargs, "out": out})
        return out


def test_grpo_trainer_logs_turbobleu_rewards(tmp_path):
    refs_a, refs_b = read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")
    hyps = read_lines(HE_EN / "hyp.GPT4-5shot.en")
    tokenizer = word_tokenizer(refs_a + refs_b + hyps)
    rows = 4  # every prompt in every generation batch
    references: List[Any] = [[refs_a[i], refs_b[i]] for i in range(rows)]
    references[2] = None  # a prompt without a reference: TRL logs NaN for its completions
    data = datasets.Dataset.from_dict(
        {
            "prompt": [" ".join(hyps[i].split()[:6]) for i in range(rows)],
            "reference": references,
            "reference_ids": [
                None if r is None else [tokenizer(x)["input_ids"] for x in r] for r in references
            ],
        }
    )
    model = tiny_llama(tokenizer)
    text_reward = Recording("reference")
    id_reward = Recording("reference_ids", eos_token_ids=[tokenizer.eos_token_id], name="bleu_ids")
    args = trl.GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=GENERATIONS * rows,
        num_generations=GENERATIONS,
        max_completion_length=12,
        max_steps=2,
        logging_steps=1,
        learning_rate=1e-3,
        use_cpu=True,
        report_to=[],
        save_strategy="no",
        seed=0,
    )
    trainer = trl.GRPOTrainer(
        model=model,
        reward_funcs=[text_reward, id_reward],
        args=args,
        train_dataset=data,
        processing_class=tokenizer,
    )
    trainer.train()

    assert trainer.reward_func_names == ["bleu_reference", "bleu_ids"]
    assert len(text_reward.calls) == len(id_reward.calls) == 2  # one generation batch per step
    for call in text_reward.calls:
        got = call["out"]
        assert len(got) == len(call["completions"]) == GENERATIONS * rows
        for completion, refs, reward in zip(call["completions"], call["reference"], got):
            if refs is None:
                assert reward is None
                continue
            assert reward == turbobleu.sentence_bleu(completion, refs).score / 100
            assert reward == sacrebleu.sentence_bleu(completion, refs).score / 100
    for call in id_reward.calls:
        for ids, refs, reward in zip(call["completion_ids"], call["reference_ids"], call["out"]):
            if refs is None:
                assert reward is None
                continue
            ids = ids[:-1] if ids and ids[-1] == tokenizer.eos_token_id else ids
            want = sacrebleu.sentence_bleu(
                " ".join(map(str, ids)), [" ".join(map(str, r)) for r in refs], tokenize="none"
            )
            assert reward == want.score / 100

    scored = [r for call in text_reward.calls + id_reward.calls for r in call["out"]]
    assert scored.count(None) == 2 * 2 * GENERATIONS  # prompt 2's completions, both rewards
    assert any(r for r in scored if r is not None)  # not all zero: words of the references

    # What TRL logged for the last generation batch: the same completions and rewards.
    last = text_reward.calls[-1]
    assert list(trainer._logs["completion"]) == last["completions"]
    for name, reward in (("bleu_reference", text_reward), ("bleu_ids", id_reward)):
        logged = np.array(trainer._logs["rewards"][name], dtype=np.float32)
        want = np.array([np.nan if r is None else r for r in reward.calls[-1]["out"]], np.float32)
        assert np.array_equal(logged, want, equal_nan=True)
    # And the per-step means TRL logged (NaN rows left out).
    means = [h["rewards/bleu_reference/mean"] for h in trainer.state.log_history if "loss" in h]
    assert len(means) == 2
    for mean, call in zip(means, text_reward.calls):
        values = np.array([r for r in call["out"] if r is not None], dtype=np.float32)
        assert mean == pytest.approx(float(values.mean()), rel=1e-6, abs=1e-7)
