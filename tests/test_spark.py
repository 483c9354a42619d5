"""turbobleu.spark on a real local Spark (``local[2]``): grouped corpus scores equal the
single-process ones on every WMT23 system and on generated rows over very uneven
partitions; sentence scores equal sacrebleu's; bad rows are named or counted."""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pandas")

import pandas as pd  # noqa: E402
import sacrebleu  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from scale_helpers import (  # noqa: E402
    CONFIGS,
    GENERATED_CONFIGS,
    SMALL_ROWS,
    check_generated,
    check_small_corpus,
    check_wmt23_grouped,
    compiled_only,
    generated_frame,
    partition_sizes,
    wmt23_matrix,
)
from turbobleu import spark as tbs  # noqa: E402
from turbobleu.aggregate import Scorer, Totals  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("turbobleu-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_small_frame_sentence_and_corpus(spark) -> None:
    df = spark.createDataFrame(SMALL_ROWS, ["hyp", "refs", "g"])
    got = [r["b"] for r in df.select(tbs.sentence_bleu("hyp", "refs").alias("b")).collect()]
    assert got == [sacrebleu.sentence_bleu(h, list(r)).score for h, r, _ in SMALL_ROWS]
    check_small_corpus(tbs.corpus_bleu(df, "hyp", "refs"))
    by_group = tbs.corpus_bleu(df, "hyp", "refs", by=["g"])
    assert sorted(by_group) == [("x",), ("y",)]
    assert by_group[("y",)].segments == 1


@pytest.mark.parametrize(
    "name,options", [("chrf", {"word_order": 2}), ("ter", {}), ("ter", {"normalized": True})]
)
def test_chrf_and_ter(spark, name: str, options) -> None:
    rows = [
        ("the cat sat", ["the cat sat on", "a cat"], "x"),
        ("a dog", ["a dog ran", "A dog."], "y"),
        ("hello there", ["hi there", "x"], "x"),
        ("", ["nothing", "here"], "y"),
    ]
    df = spark.createDataFrame(rows, ["hyp", "refs", "g"]).repartition(3)
    oracle = {"chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}[name](**options)
    chosen = {"metric": name, "metric_options": options}
    got = df.select("hyp", tbs.sentence_bleu("hyp", "refs", **chosen).alias("s")).collect()
    want = {h: oracle.sentence_score(h, list(r)).score for h, r, _ in rows}
    assert {r["hyp"]: r["s"] for r in got} == want
    score = tbs.corpus_bleu(df, "hyp", "refs", **chosen)
    streams = [list(s) for s in zip(*[r for _, r, _ in rows])]
    corpus = oracle.corpus_score([h for h, _, _ in rows], streams)
    assert (score.score, str(score), score.segments) == (corpus.score, str(corpus), 4)
    assert str(score.signature) == str(oracle.get_signature())
    by_group = tbs.corpus_bleu(df, "hyp", "refs", by=["g"], **chosen)
    x = oracle.corpus_score(
        ["the cat sat", "hello there"], [["the cat sat on", "hi there"], ["a cat", "x"]]
    )
    assert by_group[("x",)].score == x.score


def test_reference_columns_and_statistics_struct(spark) -> None:
    df = spark.createDataFrame(
        [("the cat sat", "the cat sat on", "a cat"), ("a dog", "a dog ran", "a dog")],
        ["hyp", "r1", "r2"],
    )
    stats = df.select(tbs.statistics("hyp", ["r1", "r2"]).alias("s")).select("s.*").collect()
    scorer = Scorer()
    want = scorer.rows(
        ["the cat sat", "a dog"], [["the cat sat on", "a dog ran"], ["a cat", "a dog"]]
    )
    assert [[r[c] for c in scorer.columns] for r in stats] == want.stats.tolist()
    assert [r["refs"] for r in stats] == [2, 2]
    nltk = df.select(
        tbs.sentence_bleu("hyp", ["r1", "r2"], recipe="nltk", smoothing_function=2).alias("b")
    ).collect()
    assert [r["b"] for r in nltk] == Scorer("nltk", smoothing_function=2).sentence_scores(
        Scorer("nltk").rows(
            ["the cat sat", "a dog"], [["the cat sat on", "a dog ran"], ["a cat", "a dog"]]
        )
    ).tolist()


def test_bad_rows_named_or_counted(spark) -> None:
    df = spark.createDataFrame(
        [(1, "a b", "a b"), (2, None, "c"), (3, "d", None)], "id long, hyp string, ref string"
    )
    with pytest.raises(Exception, match=r"column 'hyp', row 2: the hypothesis is null"):
        tbs.corpus_bleu(df, "hyp", ["ref"], key="id")
    with pytest.raises(Exception, match=r"column 'ref', row 3: the reference is null"):
        tbs.corpus_bleu(df.filter("id != 2"), "hyp", ["ref"], key="id")
    score = tbs.corpus_bleu(df, "hyp", ["ref"], on_invalid="skip")
    assert (score.segments, score.skipped) == (1, 2)
    scores = df.select(tbs.sentence_bleu("hyp", ["ref"], on_invalid="skip").alias("b")).collect()
    assert [r["b"] is None for r in scores] == [False, True, True]
    with pytest.raises(ValueError, match="no segment to score"):
        tbs.corpus_bleu(df.limit(0), "hyp", ["ref"])


@wmt23_matrix
def test_wmt23_grouped_by_pair_and_system(spark, config_name: str) -> None:
    to_dataset = spark.createDataFrame
    check_wmt23_grouped(tbs.corpus_bleu, lambda f: to_dataset(f).repartition(5), config_name)


@compiled_only
def test_generated_rows_uneven_partitions(spark) -> None:
    """All configurations in one job: one statistics struct per configuration, summed in Spark
    over partitions of very different sizes (empty ones included)."""
    frame = generated_frame()
    rows, sizes = len(frame), partition_sizes(len(frame))
    df = spark.createDataFrame(frame).repartition(len(sizes), "part")
    # Hash partitioning by "part": the 600,000 rows of part 1 stay together, and at most the 5
    # non-empty parts fill partitions, so at least 3 of the 8 are empty.
    counts = [r["count"] for r in df.groupBy(F.spark_partition_id()).count().collect()]
    assert max(counts) >= sizes[1] and len(counts) <= 5 and sum(counts) == rows
    scorers = {name: Scorer(**CONFIGS[name]) for name in GENERATED_CONFIGS}
    columns = [
        tbs.statistics("hyp", ["ref"], scorer=scorer).alias(name)
        for name, scorer in scorers.items()
    ]
    sums = [
        F.sum(F.col(f"{name}.{c}")).alias(f"{name}:{c}")
        for name, scorer in scorers.items()
        for c in scorer.columns
    ]
    row = df.select(*columns).agg(*sums, F.count(F.lit(1)).alias("rows")).collect()[0]
    assert row["rows"] == rows

    def summed(name: str) -> Any:
        scorer = scorers[name]
        return scorer.score(Totals([row[f"{name}:{c}"] for c in scorer.columns], rows, 1, 1))

    check_generated(summed, GENERATED_CONFIGS)
    check_generated(lambda name: tbs.corpus_bleu(df, "hyp", ["ref"]), ["13a"])  # the public path


def test_collected_rows_feed_significance(spark) -> None:
    """Per-segment rows from Spark (ordered by a segment id) give the single-process paired
    bootstrap and approximate randomization results."""
    import numpy as np

    import turbobleu
    from conftest import FIXTURE_DATA, read_lines
    from turbobleu import significance

    he_en = FIXTURE_DATA / "he-en"
    refs = read_lines(he_en / "ref.refA.en")
    systems = [read_lines(he_en / f"hyp.{name}.en") for name in ("GPT4-5shot", "NLLB_Greedy")]
    scorer = Scorer()

    def spark_rows(hyps):
        frame = pd.DataFrame({"id": range(len(hyps)), "hyp": hyps, "ref": refs})
        df = spark.createDataFrame(frame).repartition(3)
        stats = df.select("id", tbs.statistics("hyp", ["ref"], scorer=scorer).alias("s"))
        rows = stats.orderBy("id").select([f"s.{c}" for c in scorer.columns]).collect()
        return turbobleu.BLEUStats(np.array([list(r) for r in rows]), 4)

    metric = turbobleu.BLEU()
    single = [metric.corpus_stats(h, [refs]) for h in systems]
    gathered = [spark_rows(h) for h in systems]
    assert gathered == single
    for test in (significance.paired_bootstrap, significance.paired_approximate_randomization):
        want = test(single[0], [single[1]], metric, n_samples=200, seed=12345)
        got = test(gathered[0], [gathered[1]], scorer.metric, n_samples=200, seed=12345)
        assert [r.as_dict() for r in got] == [r.as_dict() for r in want]
