"""Sentence BLEU throughput on Spark and Ray: turbobleu vs sacrebleu.sentence_bleu row by row.

The same job in the same engine, local mode, 1 and 2 workers: a DataFrame / Dataset of
(hypothesis, reference) rows from the sentence-level WMT23 pairs (repeated to the asked size) is
cached first; the timed part maps every row to its sentence BLEU and sums the scores in the
engine (so nothing is collected). turbobleu: ``turbobleu.spark.sentence_bleu`` /
``turbobleu.ray.SentenceBLEU``; sacrebleu: a pandas UDF / batch function calling
``sacrebleu.sentence_bleu(h, [r]).score`` for each row. Reported: rows per second per worker
core (median of ``--repeats`` alternating runs), the ratio, the 1 -> 2 worker scaling, and an
estimate for 1e9 rows on 100 nodes. turbobleu gets 1,000,000 rows: with 200,000 each job's
fixed cost (scheduling, Arrow set-up; about a second) was most of its time.

    PYTHONPATH=src python bench/bench_scale.py            # ~10 min on 2 shared cores
    PYTHONPATH=src python bench/bench_scale.py --quick    # a smoke run
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional

from benchlib import (
    add_results_options,
    load_wmt23,
    machine_info,
    md_table,
    save_results,
    utc_now,
    wmt23_parser,
)

# Paragraph-level pairs (long segments) are left out: this is the sentence-filtering workload.
PAIRS = ["en-he", "en-ja", "en-ru", "en-zh", "he-en", "ja-en"]
# turbobleu, the sacrebleu row-by-row job, and the engine alone (a UDF returning zeros on the
# turbobleu rows: what no scorer in that engine can beat).
CONTENDERS = ("turbobleu", "sacrebleu", "noop")
OUTPUT_BYTES_PER_ROW = 8  # one double per row
TOTALS_BYTES = (2 + 2 * 4 + 4) * 8  # a corpus partition's summary: 14 int64 values


def rows_of(data: Any, pairs: List[str], n: int) -> Any:
    import pandas as pd

    hyps: List[str] = []
    refs: List[str] = []
    for system in load_wmt23(data, [p for p in pairs if (data / p).is_dir()]):
        hyps += system.hyps
        refs += system.refs[0]
    reps = -(-n // len(hyps))
    return pd.DataFrame({"hyp": (hyps * reps)[:n], "ref": (refs * reps)[:n]})


def sacrebleu_scores(hyps: List[str], refs: List[str]) -> List[float]:
    import sacrebleu

    return [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]


# -- engines ------------------------------------------------------------------------------
class SparkRunner:
    name = "spark"

    def __init__(self, workers: int) -> None:
        from pyspark.sql import SparkSession

        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        self.spark = (
            SparkSession.builder.master(f"local[{workers}]")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.memory", "4g")  # (1 GB, the default, fails at 1M rows)
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.sql.shuffle.partitions", str(2 * workers))
            .getOrCreate()
        )
        self.spark.sparkContext.setLogLevel("ERROR")
        self.workers = workers

    def dataset(self, frame: Any) -> Any:
        df = self.spark.createDataFrame(frame).repartition(4 * self.workers).cache()
        df.count()
        return df

    def turbobleu(self, df: Any) -> Callable[[], Any]:
        from pyspark.sql import functions as F

        from turbobleu import spark as tbs

        return lambda: df.select(tbs.sentence_bleu("hyp", ["ref"]).alias("b")).agg(F.sum("b"))

    def sacrebleu(self, df: Any) -> Callable[[], Any]:
        import pandas as pd
        from pyspark.sql import functions as F

        def score(h: pd.Series, r: pd.Series) -> pd.Series:
            return pd.Series(sacrebleu_scores(h.tolist(), r.tolist()))

        score.__annotations__ = {"h": pd.Series, "r": pd.Series, "return": pd.Series}
        udf = F.pandas_udf(score, "double")  # type: ignore[call-overload]
        return lambda: df.select(udf("hyp", "ref").alias("b")).agg(F.sum("b"))

    def noop(self, df: Any) -> Callable[[], Any]:
        import pandas as pd
        from pyspark.sql import functions as F

        def zero(h: pd.Series, r: pd.Series) -> pd.Series:
            return pd.Series(0.0, index=h.index)

        zero.__annotations__ = {"h": pd.Series, "r": pd.Series, "return": pd.Series}
        udf = F.pandas_udf(zero, "double")  # type: ignore[call-overload]
        return lambda: df.select(udf("hyp", "ref").alias("b")).agg(F.sum("b"))

    def run(self, job: Any) -> float:
        return float(job().collect()[0][0])

    def close(self) -> None:
        self.spark.stop()


class RayRunner:
    name = "ray"

    def __init__(self, workers: int) -> None:
        import ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        self.workers = workers

    def dataset(self, frame: Any) -> Any:
        import ray

        return ray.data.from_pandas(frame).repartition(4 * self.workers).materialize()

    def turbobleu(self, ds: Any) -> Callable[[], Any]:
        from turbobleu.ray import SentenceBLEU

        return lambda: ds.map_batches(SentenceBLEU("hyp", ["ref"]), batch_format="numpy")

    def sacrebleu(self, ds: Any) -> Callable[[], Any]:
        import numpy as np

        def score(batch: Dict[str, Any]) -> Dict[str, Any]:
            batch["bleu"] = np.array(sacrebleu_scores(list(batch["hyp"]), list(batch["ref"])))
            return batch

        return lambda: ds.map_batches(score, batch_format="numpy")

    def noop(self, ds: Any) -> Callable[[], Any]:
        import numpy as np

        def zero(batch: Dict[str, Any]) -> Dict[str, Any]:
            batch["bleu"] = np.zeros(len(batch["hyp"]))
            return batch

        return lambda: ds.map_batches(zero, batch_format="numpy")

    def run(self, job: Any) -> float:
        return float(job().sum("bleu"))

    def close(self) -> None:
        import ray

        ray.shutdown()


def check_same_scores(runner: Any, frame: Any) -> None:
    """The two jobs give the same score for every row of a sample (checked before timing)."""
    sample = frame.iloc[:500]
    data = runner.dataset(sample)
    if runner.name == "spark":
        from turbobleu import spark as tbs

        got = [r["b"] for r in data.select(tbs.sentence_bleu("hyp", ["ref"]).alias("b")).collect()]
        hyps = [r["hyp"] for r in data.select("hyp").collect()]
        refs = [r["ref"] for r in data.select("ref").collect()]
    else:
        rows = runner.turbobleu(data)().take_all()
        got = [r["bleu"] for r in rows]
        hyps, refs = [r["hyp"] for r in rows], [r["ref"] for r in rows]
    if got != sacrebleu_scores(hyps, refs):
        raise AssertionError(f"{runner.name}: turbobleu and sacrebleu sentence scores differ")


def measure(engine: Any, workers: int, frames: Dict[str, Any], repeats: int) -> Dict[str, Any]:
    runner = engine(workers)
    try:
        check_same_scores(runner, frames["sacrebleu"])
        jobs = {}
        for who in CONTENDERS:
            data = runner.dataset(frames[who])
            jobs[who] = (getattr(runner, who)(data), len(frames[who]))
            runner.run(jobs[who][0])  # warm-up (workers start, UDFs load)
        times: Dict[str, List[float]] = {who: [] for who in CONTENDERS}
        for _ in range(repeats):
            for who, (job, _) in jobs.items():
                start = time.perf_counter()
                runner.run(job)
                times[who].append(time.perf_counter() - start)
        out: Dict[str, Any] = {"engine": runner.name, "workers": workers}
        for who, (_, n) in jobs.items():
            median = statistics.median(times[who])
            out[who] = {
                "rows": n,
                "seconds": times[who],
                "median_s": median,
                "rows_per_s_per_core": n / median / workers,
            }
        out["ratio"] = (
            out["turbobleu"]["rows_per_s_per_core"] / out["sacrebleu"]["rows_per_s_per_core"]
        )
        return out
    finally:
        runner.close()


def total_rate(result: Dict[str, Any]) -> float:
    """turbobleu's rows per second over all workers."""
    return float(result["turbobleu"]["rows"] / result["turbobleu"]["median_s"])


def estimate(rate_per_core: float, cores_per_node: int = 16, nodes: int = 100) -> str:
    rows = 1e9
    seconds = rows / (rate_per_core * cores_per_node * nodes)
    per_node_out = rows / nodes * OUTPUT_BYTES_PER_ROW
    return (
        f"1e9 rows on {nodes} nodes x {cores_per_node} cores at the measured "
        f"{rate_per_core:,.0f} rows/s/core: {seconds:,.0f} s of scoring ({seconds / 60:.1f} min), "
        f"if reading the text keeps up (about 150 bytes a row: 1.5 GB per node). Each node "
        f"writes {per_node_out / 1e9:.2f} GB of sentence scores (8 bytes a row); a corpus score "
        f"sends {TOTALS_BYTES} bytes per partition and group (14 int64 sums and counts), so "
        "the final reduction is negligible whatever the partitioning."
    )


def parse_args(argv: Optional[List[str]] = None) -> Any:
    parser = wmt23_parser(__doc__ or "")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows for turbobleu")
    parser.add_argument("--baseline-rows", type=int, default=20_000, help="rows for sacrebleu")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=["spark", "ray"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    add_results_options(
        parser,
        "results file stem (default: scale, also with --quick)",
        quick="20k / 2k rows, 1 repeat",
    )
    args = parser.parse_args(argv)
    args.name = args.name or "scale"
    if args.quick:
        args.rows, args.baseline_rows, args.repeats = 20_000, 2_000, 1
    return args


def main() -> None:
    args = parse_args()
    pairs = args.pairs or PAIRS
    frames = {
        "turbobleu": rows_of(args.data, pairs, args.rows),
        "sacrebleu": rows_of(args.data, pairs, args.baseline_rows),
    }
    frames["noop"] = frames["turbobleu"]
    info = machine_info(["turbobleu", "sacrebleu", "pyspark", "ray", "pandas", "pyarrow"])
    engines = {"spark": SparkRunner, "ray": RayRunner}
    results = []
    for name in args.engines:
        for workers in args.workers:
            result = measure(engines[name], workers, frames, args.repeats)
            results.append(result)
            print(
                f"{name} x{workers}: turbobleu "
                f"{result['turbobleu']['rows_per_s_per_core']:,.0f} rows/s/core, sacrebleu "
                f"{result['sacrebleu']['rows_per_s_per_core']:,.0f}, ratio {result['ratio']:.1f}x",
                flush=True,
            )
    table = []
    for r in results:
        same = [x for x in results if x["engine"] == r["engine"]]
        one = next((x for x in same if x["workers"] == 1), None)
        scaling = f"{total_rate(r) / total_rate(one):.2f}x" if one and r is not one else "-"
        table.append(
            [
                r["engine"],
                str(r["workers"]),
                f"{r['turbobleu']['rows_per_s_per_core']:,.0f}",
                f"{r['sacrebleu']['rows_per_s_per_core']:,.0f}",
                f"{r['ratio']:.1f}x",
                f"{r['noop']['rows_per_s_per_core']:,.0f}",
                f"{r['noop']['rows_per_s_per_core'] / r['sacrebleu']['rows_per_s_per_core']:.1f}x",
                scaling,
            ]
        )
    best = max(r["turbobleu"]["rows_per_s_per_core"] for r in results)
    worst = min(r["turbobleu"]["rows_per_s_per_core"] for r in results)
    markdown = "\n".join(
        [
            f"# Sentence BLEU at scale ({utc_now():%Y-%m-%d})",
            "",
            f"Machine: {info['cpu_model']}, {info['usable_cpus']} usable CPUs (shared), load "
            f"average at start {info['loadavg_start']}. Rows: {args.rows:,} (turbobleu), "
            f"{args.baseline_rows:,} (sacrebleu), WMT23 pairs {', '.join(pairs)}, repeated; "
            f"median of {args.repeats} alternating runs. Target: turbobleu >= 30x.",
            "",
            md_table(
                [
                    "engine",
                    "workers",
                    "turbobleu rows/s/core",
                    "sacrebleu rows/s/core",
                    "ratio",
                    "engine alone (no-op UDF) rows/s/core",
                    "ceiling (no-op / sacrebleu)",
                    "speed-up 1 -> 2 workers (turbobleu)",
                ],
                table,
            ),
            "",
            "Estimate: " + estimate(worst) + f" (At the best measured rate, {best:,.0f} "
            f"rows/s/core: {1e9 / (best * 1600):,.0f} s.)",
            "",
        ]
    )
    print(markdown)
    save_results(args, {"machine": info, "results": results}, markdown)


if __name__ == "__main__":
    main()
