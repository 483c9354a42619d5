"""Reward adapters (turbobleu.rewards) without the trainers: every reward == the mirrored
library's own call per row, in the shapes TRL, verl and OpenRLHF call them (as read from their
released code: TRL 1.16 passes keyword lists, verl 0.9.1 keyword single samples or plural lists,
OpenRLHF 0.11.2 positional lists of one sample from a worker thread). The trainers themselves
run in tests/test_rewards_frameworks.py where they are installed."""

from __future__ import annotations

import asyncio
import importlib.util
import pickle
import subprocess
import sys
import threading
from typing import Any, List

import cloudpickle
import numpy as np
import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines
from turbobleu.batch import NLTKRecipe
from turbobleu.rewards import BLEUReward
from turbobleu.rewards import openrlhf as openrlhf_rewards
from turbobleu.rewards import verl as verl_rewards
from turbobleu.rewards.trl import trl_reward

HE_EN = FIXTURE_DATA / "he-en"
GROUP = 4  # completions per prompt (GRPO's num_generations)


def grpo_batch(prompts: int = 12) -> tuple:
    """(completions, references): real MT outputs as completions, GROUP per prompt, each prompt's
    1 or 2 references repeated for its completions (as TRL repeats dataset columns)."""
    ref_a, ref_b = read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")
    systems = [read_lines(HE_EN / f"hyp.{s}.en") for s in ("GPT4-5shot", "NLLB_Greedy")]
    completions, references = [], []
    for p in range(prompts):
        refs: Any = ref_a[p] if p % 3 == 0 else [ref_a[p], ref_b[p]]
        for g in range(GROUP):
            # A prompt's own outputs and a neighbour's, so scores range from high to low.
            completions.append(systems[g % 2][(p + g // 2) % len(ref_a)])
            references.append(list(refs) if isinstance(refs, list) else refs)
    return completions, references


def as_list(refs: Any) -> List[str]:
    return [refs] if isinstance(refs, str) else refs


def sacrebleu_scores(completions: List[str], references: List[Any]) -> List[float]:
    return [sacrebleu.sentence_bleu(c, as_list(r)).score for c, r in zip(completions, references)]


# -- TRL ---------------------------------------------------------------------------------------
def test_trl_equals_sacrebleu_per_row_on_both_scales():
    completions, references = grpo_batch()
    want = sacrebleu_scores(completions, references)
    reward = trl_reward("reference")
    got = reward(
        prompts=["p"] * len(completions),
        completions=completions,
        completion_ids=[[1, 2]] * len(completions),
        reference=references,
        trainer_state=None,
        log_extra=None,
        log_metric=None,
    )
    assert got == [w / 100 for w in want]
    assert trl_reward("reference", scale=100)(completions=completions, reference=references) == want
    assert [
        turbobleu.sentence_bleu(c, as_list(r)).score for c, r in zip(completions, references)
    ] == want


def test_trl_nltk_recipe_equals_nltk_on_both_scales():
    completions, references = grpo_batch(6)
    method1 = SmoothingFunction().method1
    want = [
        nltk_sentence_bleu(
            [r.split() for r in as_list(refs)], c.split(), smoothing_function=method1
        )
        for c, refs in zip(completions, references)
    ]
    recipe = NLTKRecipe(smoothing_function=method1)
    assert trl_reward("ref", recipe)(completions=completions, ref=references) == want
    got = trl_reward("ref", recipe, scale=100)(completions=completions, ref=references)
    assert got == [w * 100 for w in want]
    # The string "nltk" is NLTK's default (method0), warnings included.
    with pytest.warns(UserWarning):
        plain = trl_reward("ref", "nltk")(completions=completions, ref=references)
    with pytest.warns(UserWarning):
        assert plain == [
            nltk_sentence_bleu([r.split() for r in as_list(refs)], c.split())
            for c, refs in zip(completions, references)
        ]


def test_trl_rows_without_reference_get_none():
    completions, references = grpo_batch(4)
    references[3] = None
    references[4:8] = [[]] * 4  # an empty list is no reference either
    got = trl_reward("reference")(completions=completions, reference=references)
    want = [s / 100 for s in sacrebleu_scores(completions, [r or ["x"] for r in references])]
    assert got[3] is None and got[4:8] == [None] * 4
    assert [g for i, g in enumerate(got) if i != 3 and not 4 <= i < 8] == [
        w for i, w in enumerate(want) if i != 3 and not 4 <= i < 8
    ]
    assert trl_reward("reference")(completions=["a", "b"], reference=[None, None]) == [None, None]


def test_trl_conversational_completions():
    completions, references = grpo_batch(3)
    chats = [[{"role": "assistant", "content": c}] for c in completions]
    # Multimodal content parts and an earlier tool turn: the last assistant text is scored.
    chats[1] = [
        {"role": "assistant", "content": "call the tool"},
        {"role": "tool", "content": "result"},
        {"role": "assistant", "content": [{"type": "text", "text": completions[1]}]},
    ]
    reward = trl_reward("reference")
    plain = reward(completions=completions, reference=references)
    assert reward(completions=chats, reference=references) == plain


def test_trl_token_ids_use_completion_ids_without_eos():
    rng = np.random.default_rng(7)
    eos = 2
    refs, hyps, ids_refs = [], [], []
    for p in range(10):
        group = [rng.integers(3, 30, size=int(rng.integers(5, 25))).tolist() for _ in range(2)]
        for _ in range(GROUP):
            hyp = [t if rng.random() > 0.3 else int(rng.integers(3, 30)) for t in group[0]]
            hyps.append(hyp + [eos])  # TRL keeps the end-of-sequence token
            refs.append(group if p % 2 else group[0])  # a list of id lists, or one id list
            ids_refs.append(group if p % 2 else [group[0]])

    def text(ids: List[int]) -> str:
        return " ".join(map(str, ids))

    want = [
        sacrebleu.sentence_bleu(text(h[:-1]), [text(r) for r in rs], tokenize="none").score / 100
        for h, rs in zip(hyps, ids_refs)
    ]
    reward = trl_reward("reference_ids", eos_token_ids=[eos])
    # The completions' text is not what is scored: token-id references score completion_ids.
    got = reward(completions=["unused"] * len(hyps), completion_ids=hyps, reference_ids=refs)
    assert got == want
    arrays = [np.array(r) if isinstance(r[0], int) else [np.array(x) for x in r] for r in refs]
    assert reward(completions=["x"] * len(hyps), completion_ids=hyps, reference_ids=arrays) == want
    with_eos = trl_reward("reference_ids")(
        completion_ids=hyps, completions=["x"] * len(hyps), reference_ids=refs
    )
    assert with_eos != want  # the EOS id counts when it is not cut


def test_trl_name_and_errors():
    reward = trl_reward("answer")
    assert reward.__name__ == "bleu_answer"
    assert trl_reward("answer", name="bleu").__name__ == "bleu"
    with pytest.raises(KeyError, match="no column 'answer'.*'solution'"):
        reward(completions=["a"], solution=["a"], trainer_state=None)
    with pytest.raises(TypeError, match=r"answer\[1\]: a reference must be"):
        reward(completions=["a", "b"], answer=["a", 5])
    with pytest.raises(TypeError, match=r"answer\[1\] holds ids references but earlier rows"):
        reward(completions=["a", "b"], completion_ids=[[1], [1]], answer=["a", [1, 2]])
    with pytest.raises(TypeError, match="token-id hypotheses"):
        reward(completions=["a"], answer=[[1, 2]])
    with pytest.raises(TypeError, match=r"completions\[0\] must be a string"):
        reward(completions=[{"content": "a"}], answer=["a"])
    with pytest.raises(ValueError, match="answer has 1 rows but there are 2"):
        reward(completions=["a", "b"], answer=["a"])
    with pytest.raises(ValueError, match="scale must be 1"):
        trl_reward("answer", scale=10)
    with pytest.raises(ValueError, match="recipe must be"):
        trl_reward("answer", "bleu")


# -- pickling, threads, cache --------------------------------------------------------------------
@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_adapters_pickle_before_and_after_use(dumps):
    completions, references = grpo_batch(4)
    reward = trl_reward("reference", scale=100, name="b")
    before = pickle.loads(dumps(reward))
    want = reward(completions=completions, reference=references)
    after = pickle.loads(dumps(reward))  # its cache and lock are rebuilt, not pickled
    assert before.__name__ == after.__name__ == "b"
    for copy in (before, after):
        assert copy(completions=completions, reference=references) == want
    orl = pickle.loads(dumps(openrlhf_rewards.make_reward_func(scale=100)))
    assert orl.scores(["P" + c for c in completions], ["P"] * len(completions), references) == want
    for fn in (verl_rewards.compute_score, verl_rewards.compute_score_batch):
        assert pickle.loads(dumps(fn)) is fn


def test_concurrent_calls_equal_serial_calls():
    batches = [grpo_batch(12) for _ in range(1)] * 8
    reward = trl_reward("reference", threads=2)
    shifted = []
    for k, (c, r) in enumerate(batches):  # different batches per thread (rotated rows)
        shifted.append((c[k:] + c[:k], r[k:] + r[:k]))
    serial = [trl_reward("reference")(completions=c, reference=r) for c, r in shifted]
    results: List[Any] = [None] * len(shifted)
    barrier = threading.Barrier(len(shifted))

    def run(k: int) -> None:
        barrier.wait()
        for _ in range(5):
            got = reward(completions=shifted[k][0], reference=shifted[k][1])
            if results[k] is None or got != serial[k]:
                results[k] = got

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(shifted))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == serial


def test_references_prepared_once_per_group_and_kept_between_calls():
    completions, references = grpo_batch(5)
    reward = BLEUReward()
    first = reward.score(completions, references)
    assert len(reward._cache) == 1
    (prepared,) = reward._cache.values()
    assert prepared.num_groups == 5  # GROUP consecutive rows share one prepared group
    again = reward.score(completions, references)
    assert list(reward._cache.values()) == [prepared]  # the second call reused it
    assert again.scores.tolist() == first.scores.tolist()
    # verl's per-sample calls: the GROUP samples of a prompt prepare its references once.
    verl_rewards._scorers.clear()
    for c, r in zip(completions[:GROUP], references[:GROUP]):
        verl_rewards.compute_score("wmt", c, r)
    (scorer,) = verl_rewards._scorers.values()
    assert len(scorer._cache) == 1


def test_cache_stays_within_its_byte_budget():
    completions, references = grpo_batch(12)
    small = BLEUReward(cache_bytes=20_000)
    for i in range(0, len(completions), GROUP):
        small.score(completions[i : i + GROUP], references[i : i + GROUP])
        assert small._cached_bytes <= 20_000
        assert small._cached_bytes == sum(p.nbytes for p in small._cache.values())
    assert 0 < len(small._cache) < 12
    none = BLEUReward(cache_bytes=0)
    assert none.score(completions, references).scores.tolist() == [
        s / 100 for s in sacrebleu_scores(completions, references)
    ]
    assert not none._cache


# -- verl ----------------------------------------------------------------------------------------
def test_verl_compute_score_as_the_naive_manager_calls_it():
    completions, references = grpo_batch(4)
    refs = [np.array(r, dtype=object) if isinstance(r, list) else r for r in references]
    want = sacrebleu_scores(completions, references)
    for c, r, w in zip(completions, refs, want):
        extra = {"index": 0, "num_turns": None, "rollout_reward_scores": {}}
        got = verl_rewards.compute_score(
            data_source="wmt", solution_str=c, ground_truth=r, extra_info=extra
        )
        stats = sacrebleu.sentence_bleu(c, as_list(r.tolist() if hasattr(r, "tolist") else r))
        assert got["score"] == w / 100
        assert [got[f"matches_{n}"] for n in range(1, 5)] == stats.counts
        assert [got[f"totals_{n}"] for n in range(1, 5)] == stats.totals
        assert (got["hyp_len"], got["ref_len"]) == (stats.sys_len, stats.ref_len)
    keys = {tuple(verl_rewards.compute_score("d", c, r)) for c, r in zip(completions, refs)}
    assert len(keys) == 1  # verl needs the same keys from every sample


def test_verl_batched_form_and_reward_kwargs():
    completions, references = grpo_batch(4)
    n = len(completions)
    batch = verl_rewards.compute_score_batch(
        data_sources=np.array(["wmt"] * n, dtype=object),
        solution_strs=completions,
        ground_truths=references,
        extra_infos=[{}] * n,
    )
    assert batch == [
        verl_rewards.compute_score("wmt", c, r) for c, r in zip(completions, references)
    ]
    nltk_batch = verl_rewards.compute_score_batch(
        ["wmt"] * n,
        completions,
        references,
        None,
        recipe="nltk",
        scale=100,
        recipe_options={"smoothing_function": 1},
    )
    method1 = SmoothingFunction().method1
    assert [r["score"] for r in nltk_batch] == [
        100
        * nltk_sentence_bleu([x.split() for x in as_list(r)], c.split(), smoothing_function=method1)
        for c, r in zip(completions, references)
    ]


def test_verl_errors_name_the_sample():
    with pytest.raises(ValueError, match=r"ground_truths\[1\] has no reference"):
        verl_rewards.compute_score_batch(["d", "d"], ["a", "b"], ["a", None])
    with pytest.raises(ValueError, match=r"ground_truth\[0\] has no reference"):
        verl_rewards.compute_score("d", "a", None)
    with pytest.raises(ValueError, match="recipe must be 'sacrebleu' or 'nltk'"):
        verl_rewards.compute_score("d", "a", "a", recipe="chrf")


def test_verl_file_loads_the_way_verl_loads_it():
    """verl's load_extern_object: spec_from_file_location on the printed path, getattr name."""
    out = subprocess.run(
        [sys.executable, "-m", "turbobleu.rewards.verl", "--path"],
        capture_output=True,
        text=True,
        check=True,
    )
    path = out.stdout.strip()
    assert path == verl_rewards.__file__
    spec = importlib.util.spec_from_file_location("custom_module_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    got = module.compute_score(data_source="d", solution_str="a b c d", ground_truth="a b c d e")
    assert got["score"] == sacrebleu.sentence_bleu("a b c d", ["a b c d e"]).score / 100


# -- OpenRLHF ------------------------------------------------------------------------------------
def test_openrlhf_response_is_the_query_after_its_prompt_without_eos():
    completions, references = grpo_batch(3)
    prompt = "<|im_start|>user\nTranslate.<|im_end|>\n<|im_start|>assistant\n"
    reward = openrlhf_rewards.make_reward_func()
    queries = [
        prompt + c + "<|im_end|>" + "<|endoftext|>" * (i % 3) for i, c in enumerate(completions)
    ]
    want = [s / 100 for s in sacrebleu_scores(completions, references)]
    assert reward.scores(queries, [prompt] * len(queries), references) == want
    assert reward.response(prompt + "a b</s>", prompt, 0) == "a b"
    kept = openrlhf_rewards.make_reward_func(eos_markers=())
    assert kept.response(prompt + "a b</s>", prompt, 0) == "a b</s>"
    with pytest.raises(ValueError, match=r"queries\[0\] does not start with prompts\[0\]"):
        reward.scores(["other text"], [prompt], ["a"])
    with pytest.raises(ValueError, match=r"labels\[0\] has no reference"):
        reward.scores([prompt + "a"], [prompt], [None])


def test_openrlhf_file_and_threaded_single_sample_calls():
    """OpenRLHF 0.11.2 loads ``reward_func`` from the file and calls it positionally with lists
    of one sample, each through asyncio.to_thread."""
    torch = pytest.importorskip("torch", reason="OpenRLHF's return value is a torch tensor")
    path = subprocess.run(
        [sys.executable, "-m", "turbobleu.rewards.openrlhf", "--path"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    spec = importlib.util.spec_from_file_location("reward_func", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    completions, references = grpo_batch(3)
    prompt = "<s>[INST] Translate. [/INST]"

    async def gather() -> list:
        return await asyncio.gather(
            *(
                asyncio.to_thread(module.reward_func, [prompt + c + "</s>"], [prompt], [r])
                for c, r in zip(completions, references)
            )
        )

    results = asyncio.run(gather())
    want = sacrebleu_scores(completions, references)
    for got, w in zip(results, want):
        assert got["rewards"].dtype == torch.float32 and got["rewards"].shape == (1,)
        assert got["rewards"].item() == np.float32(w / 100)
        assert got["extra_logs"]["bleu"].flatten()[0].item() == np.float32(w / 100)


def test_turbobleu_rewards_is_imported_on_first_use():
    code = (
        "import sys, turbobleu\n"
        "print('turbobleu.rewards' in sys.modules, 'rewards' in dir(turbobleu))\n"
        "from turbobleu import rewards\n"
        "print(rewards.BLEUReward.__module__, turbobleu.rewards is rewards)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["False True", "turbobleu.rewards True"]
