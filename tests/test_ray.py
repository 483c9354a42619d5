"""turbobleu.ray on a real local Ray (``ray.init(num_cpus=2)``): grouped corpus scores through
Ray Data's aggregation equal the single-process ones on every WMT23 system and on a million
generated rows in blocks of very different sizes; the batch callable pickles and scores as
sacrebleu's sentence_bleu; bad rows are named or counted."""

from __future__ import annotations

import pickle

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
pytest.importorskip("pandas")

import pandas as pd  # noqa: E402
import sacrebleu  # noqa: E402

from conftest import requires_wmt23  # noqa: E402
from scale_helpers import (  # noqa: E402
    CONFIGS,
    GENERATED_CONFIGS,
    assert_same,
    cached_generated_rows,
    check_wmt23,
    compiled_only,
    full_matrix_only,
    generated_expected,
    partition_sizes,
    wmt23_frame,
)
from turbobleu import ray as tbr  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield ray
    ray.shutdown()


SMALL = pd.DataFrame(
    {
        "hyp": ["the cat sat", "a dog", "hello there"],
        "refs": [["the cat sat on", "a cat"], ["a dog ran", "a dog"], ["hi there", "x"]],
        "g": ["x", "y", "x"],
    }
)


@pytest.mark.parametrize("name,options", [("chrf", {"word_order": 2}), ("ter", {})])
def test_chrf_and_ter(local_ray, name: str, options) -> None:
    ds = ray.data.from_pandas([SMALL.iloc[:1], SMALL.iloc[1:1], SMALL.iloc[1:]])
    oracle = {"chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}[name](**options)
    chosen = {"metric": name, "metric_options": options}
    rows = ds.map_batches(tbr.SentenceBLEU("hyp", "refs", **chosen), batch_format="numpy")
    want = {h: oracle.sentence_score(h, list(r)).score for h, r in zip(SMALL.hyp, SMALL.refs)}
    assert {r["hyp"]: r["bleu"] for r in rows.take_all()} == want
    score = tbr.corpus_bleu(ds, "hyp", "refs", **chosen)
    corpus = oracle.corpus_score(list(SMALL.hyp), [list(s) for s in zip(*SMALL.refs)])
    assert (score.score, str(score), score.segments) == (corpus.score, str(corpus), 3)
    assert str(score.signature) == str(oracle.get_signature())


def test_batch_callable_pickles_and_scores(local_ray) -> None:
    ds = ray.data.from_pandas([SMALL.iloc[:1], SMALL.iloc[1:1], SMALL.iloc[1:]])
    scorer = pickle.loads(pickle.dumps(tbr.SentenceBLEU("hyp", "refs")))
    rows = ds.map_batches(scorer, batch_format="numpy").take_all()
    want = [sacrebleu.sentence_bleu(h, list(r)).score for h, r in zip(SMALL.hyp, SMALL.refs)]
    # (Ray Data keeps no row order unless asked: compare by hypothesis)
    assert {r["hyp"]: r["bleu"] for r in rows} == dict(zip(SMALL.hyp, want))
    actors = ds.map_batches(
        tbr.SentenceBLEU,
        fn_constructor_kwargs={"hypothesis": "hyp", "references": "refs", "statistics": True},
        compute=ray.data.ActorPoolStrategy(size=2),
        batch_format="pandas",
    ).take_all()
    by_hyp = {r["hyp"]: (r["bleu"], r["sys_len"]) for r in actors}
    assert by_hyp == {h: (w, n) for h, w, n in zip(SMALL.hyp, want, [3, 2, 2])}


def test_corpus_and_grouped(local_ray) -> None:
    ds = ray.data.from_pandas([SMALL.iloc[:2], SMALL.iloc[2:]])
    streams = [list(s) for s in zip(*SMALL.refs)]
    score = tbr.corpus_bleu(ds, "hyp", "refs")
    assert_same(score, sacrebleu.corpus_bleu(list(SMALL.hyp), streams), 3, "corpus")
    assert str(score.signature) == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    grouped = tbr.corpus_bleu(ds, "hyp", "refs", by=["g"])
    assert sorted(grouped) == [("x",), ("y",)]
    assert grouped[("x",)].segments == 2


def test_bad_rows_named_or_counted(local_ray) -> None:
    frame = pd.DataFrame({"id": [1, 2, 3], "hyp": ["a b", None, "d"], "ref": ["a b", "c", None]})
    ds = ray.data.from_pandas(frame)
    with pytest.raises(Exception, match=r"column 'hyp', row 2: the hypothesis is null"):
        tbr.corpus_bleu(ds, "hyp", ["ref"], key="id")
    score = tbr.corpus_bleu(ds, "hyp", ["ref"], on_invalid="skip")
    assert (score.segments, score.skipped) == (1, 2)


@requires_wmt23
@full_matrix_only
@pytest.mark.parametrize("config_name", list(CONFIGS))
def test_wmt23_grouped_by_pair_and_system(local_ray, config_name: str) -> None:
    frame = wmt23_frame()
    ds = ray.data.from_pandas(frame).repartition(5)
    scores = tbr.corpus_bleu(ds, "hyp", "refs", by=["pair", "system"], **CONFIGS[config_name])
    check_wmt23(scores, config_name)


@compiled_only
def test_million_rows_uneven_blocks(local_ray) -> None:
    hyps, refs = cached_generated_rows()
    frames, start = [], 0
    for size in partition_sizes(len(hyps)):
        frames.append(
            pd.DataFrame({"hyp": hyps[start : start + size], "ref": refs[start : start + size]})
        )
        start += size
    ds = ray.data.from_pandas(frames)
    for name in GENERATED_CONFIGS:
        score = tbr.corpus_bleu(ds, "hyp", ["ref"], **CONFIGS[name])
        assert_same(score, generated_expected(name), len(hyps), name)
