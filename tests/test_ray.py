"""turbobleu.ray on a real local Ray (``ray.init(num_cpus=2)``): grouped corpus scores through
Ray Data's aggregation equal the single-process ones on every WMT23 system and on generated
rows in blocks of very different sizes; the batch callable pickles and scores as
sacrebleu's sentence_bleu; bad rows are named or counted."""

from __future__ import annotations

import pickle

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
pytest.importorskip("pandas")

import pandas as pd  # noqa: E402
import sacrebleu  # noqa: E402

from scale_helpers import (  # noqa: E402
    CONFIGS,
    SMALL_ROWS,
    check_generated,
    check_small_corpus,
    check_wmt23_grouped,
    compiled_only,
    generated_frame,
    wmt23_matrix,
)
from turbobleu import ray as tbr  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield ray
    ray.shutdown()


SMALL = pd.DataFrame(SMALL_ROWS, columns=["hyp", "refs", "g"])


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
    check_small_corpus(tbr.corpus_bleu(ds, "hyp", "refs"))
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


@wmt23_matrix
def test_wmt23_grouped_by_pair_and_system(local_ray, config_name: str) -> None:
    to_dataset = ray.data.from_pandas
    check_wmt23_grouped(tbr.corpus_bleu, lambda f: to_dataset(f).repartition(5), config_name)


@compiled_only
def test_generated_rows_uneven_blocks(local_ray) -> None:
    frame = generated_frame()
    parts = range(frame["part"].max() + 1)  # every partition, the empty ones too
    frames = [frame.loc[frame["part"] == p, ["hyp", "ref"]].reset_index(drop=True) for p in parts]
    ds = ray.data.from_pandas(frames)
    check_generated(lambda name: tbr.corpus_bleu(ds, "hyp", ["ref"], **CONFIGS[name]))
