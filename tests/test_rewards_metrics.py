"""Rewards with chrF and TER (``metric="chrf"`` / ``"ter"``): every reward == sacrebleu's own
``sentence_chrf`` / ``sentence_ter`` of the row, divided by 100 on the 0-1 scale, TER negated (an
error rate: higher rewards must be better), through BLEUReward and the three trainers' adapters."""

from __future__ import annotations

import pickle
from typing import Any, Callable, Dict, List, Optional

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURE_DATA, read_lines
from turbobleu.rewards import BLEUReward
from turbobleu.rewards import openrlhf as openrlhf_rewards
from turbobleu.rewards import verl as verl_rewards
from turbobleu.rewards.trl import trl_reward

HE_EN = FIXTURE_DATA / "he-en"

# metric name -> (sacrebleu's sentence call with these options, sign of the reward)
ORACLES: Dict[str, Callable[..., Any]] = {
    "chrf": lambda options: sacrebleu.metrics.CHRF(**options).sentence_score,
    "ter": lambda options: sacrebleu.metrics.TER(**options).sentence_score,
}
SIGN = {"chrf": 1.0, "ter": -1.0}
OPTION_SETS = [
    ("chrf", {}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"lowercase": True, "whitespace": True}),
    ("ter", {}),
    ("ter", {"normalized": True, "case_sensitive": True}),
    ("ter", {"no_punct": True}),
]


def refs_list(refs: Any) -> List[str]:
    return [refs] if isinstance(refs, str) else list(refs)


def expected(metric: str, options: Dict[str, Any], hyps: List[str], refs: List[Any], scale: int):
    call = ORACLES[metric](options)
    out: List[Optional[float]] = []
    for hyp, r in zip(hyps, refs):
        if r is None or (isinstance(r, list) and not r):
            out.append(None)
            continue
        score = call(hyp, refs_list(r)).score
        score = score / (100 // scale) if scale != 100 else score
        out.append(0.0 - score if SIGN[metric] < 0 else score)
    return out


def batch() -> tuple:
    """Real MT outputs, 4 per prompt, each prompt's 1 or 2 references repeated, some rows
    without a reference."""
    ref_a, ref_b = read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")
    hyp = read_lines(HE_EN / "hyp.GPT4-5shot.en")
    hyps, refs = [], []
    for p in range(10):
        r: Any = ref_a[p] if p % 3 == 0 else [ref_a[p], ref_b[p]]
        for g in range(4):
            hyps.append(hyp[(p + g) % len(hyp)])
            refs.append(None if (p, g) == (4, 1) else r)
    return hyps, refs


@pytest.mark.parametrize("metric,options", OPTION_SETS)
@pytest.mark.parametrize("scale", [1, 100])
def test_reward_equals_sacrebleus_sentence_score(metric, options, scale):
    hyps, refs = batch()
    reward = BLEUReward(metric=metric, metric_options=options, scale=scale)
    assert reward.rewards(hyps, refs) == expected(metric, options, hyps, refs, scale)


words = ["a", "b", "c", "A", ".", "the", "cat", "猫", "b,", ""]
texts = st.lists(st.sampled_from(words), max_size=8)
sentence = texts.map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(sentence, st.one_of(st.none(), sentence, st.lists(sentence, max_size=3))),
        min_size=1,
        max_size=6,
    ),
    which=st.sampled_from(OPTION_SETS),
)
def test_generated_rows(rows, which):
    metric, options = which
    hyps = [h for h, _ in rows]
    refs = [r for _, r in rows]
    reward = BLEUReward(metric=metric, metric_options=options)
    assert reward.rewards(hyps, refs) == expected(metric, options, hyps, refs, 1)


def test_ter_reward_is_higher_when_better():
    reward = BLEUReward(metric="ter")
    perfect, one_wrong, all_wrong = reward.rewards(
        ["the cat sat", "the dog sat", "x y z w v"], ["the cat sat"] * 3
    )
    assert perfect == 0.0 and str(perfect) == "0.0"  # not -0.0
    assert perfect > one_wrong > all_wrong
    assert all_wrong < -1.0  # TER has no upper bound: more edits than reference words


def test_trl_verl_openrlhf_take_the_metric():
    hyps, refs = batch()
    for metric, options in (("chrf", {"word_order": 2}), ("ter", {"normalized": True})):
        want = expected(metric, options, hyps, refs, 1)
        trl = trl_reward("reference", metric=metric, metric_options=options)
        assert trl.__name__ == f"{metric}_reference"
        assert trl(completions=hyps, reference=refs) == want
        kept = [i for i, r in enumerate(refs) if r is not None]
        got = verl_rewards.compute_score_batch(
            [None] * len(kept),
            [hyps[i] for i in kept],
            [refs[i] for i in kept],
            metric=metric,
            metric_options=options,
        )
        assert [g["score"] for g in got] == [want[i] for i in kept]
        assert all(set(g) == {"score"} for g in got)  # BLEU's statistics are BLEU's only
        single = verl_rewards.compute_score("d", hyps[0], refs[0], metric=metric)
        assert single == {"score": expected(metric, {}, hyps[:1], refs[:1], 1)[0]}
        func = openrlhf_rewards.make_reward_func(metric=metric, metric_options=options, scale=100)
        got_scores = func.scores([f"p{h}" for h in hyps[:8]], ["p"] * 8, refs[:8])
        assert got_scores == expected(metric, options, hyps[:8], refs[:8], 100)


def test_openrlhf_logs_under_the_metrics_name():
    torch = pytest.importorskip("torch", reason="OpenRLHF's return value is a torch tensor")
    hyps, refs = batch()
    func = openrlhf_rewards.make_reward_func(metric="ter")
    out = func([f"p{hyps[0]}"], ["p"], [refs[0]])
    assert list(out["extra_logs"]) == ["ter"]
    want = torch.tensor(expected("ter", {}, hyps[:1], refs[:1], 1), dtype=torch.float32)
    assert torch.equal(out["rewards"], want)


def test_pickles_and_scores_the_same_after_loading():
    hyps, refs = batch()
    reward = trl_reward("reference", metric="ter")
    loaded = pickle.loads(pickle.dumps(reward))
    assert loaded(completions=hyps, reference=refs) == reward(completions=hyps, reference=refs)
    assert "TER" in repr(loaded)


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        ({"metric": "meteor"}, ValueError, "unknown metric 'meteor'"),
        ({"metric": 3}, TypeError, "metric must be a metric's name"),
        (
            {"metric": "chrf", "tokenize": "13a"},
            ValueError,
            "tokenize is not an option of metric='chrf'",
        ),
        (
            {"metric": "ter", "recipe": "nltk"},
            ValueError,
            "recipe is not an option of metric='ter'",
        ),
        ({"metric": "ter", "pad_id": 0}, ValueError, "pad_id is not an option of metric='ter'"),
        ({"metric_options": {"word_order": 2}}, ValueError, "metric_options is for"),
        ({"metric": "chrf", "metric_options": {"n": 2}}, TypeError, "metric_options for"),
        ({"metric": "chrf", "metric_options": [1]}, TypeError, "must be a mapping"),
    ],
)
def test_bad_options_are_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        BLEUReward(**kwargs)


def test_token_ids_need_bleu():
    with pytest.raises(TypeError, match="metric='chrf' scores text"):
        BLEUReward(metric="chrf").rewards([[1, 2]], [[1, 2, 3]])
