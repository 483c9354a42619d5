#!/usr/bin/env python3
"""turbobleu.torchmetrics vs torchmetrics' BLEUScore and SacreBLEUScore, side by side.

Workloads on one WMT23 system (default: he-en GPT4-5shot, 1,910 segments with 2 references each),
one thread (``torch.set_num_threads(1)``, turbobleu and BLAS pinned to one):

* ``bleu_score`` / ``sacre_bleu_score`` - the functional forms over the whole system;
* ``BLEUScore`` / ``SacreBLEUScore`` - a fresh metric, one ``update`` with the whole system, then
  ``compute``;
* ``update epoch`` - a validation epoch: a fresh ``BLEUScore``, ``update`` over 2,000 segments
  (the system's, repeated from the start to reach 2,000) in batches of 64, then ``compute``.

Contenders alternate in rounds (turbobleu, torchmetrics, ...); the median of the timed runs is
reported with the ratio torchmetrics / turbobleu. Every result is checked with ``==`` (the score
tensor, its dtype and device, and the metric states); a mismatch fails the run (exit status 1).

Run ``python bench/bench_torchmetrics.py --help``; see bench/README.md.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import benchlib
from benchlib import Contender

STATES = ("preds_len", "target_len", "numerator", "denominator")


@dataclass(frozen=True)
class Workload:
    key: str
    title: str
    target: float


WORKLOADS = [
    Workload("bleu_score", "bleu_score (functional)", 50.0),
    Workload("sacre_bleu_score", "sacre_bleu_score (functional, 13a)", 50.0),
    Workload("BLEUScore", "BLEUScore update + compute", 50.0),
    Workload("SacreBLEUScore", "SacreBLEUScore update + compute (13a)", 50.0),
    Workload("update_epoch", "BLEUScore.update epoch (2,000 segments, batches of 64)", 30.0),
]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    p.add_argument("--pair", default="he-en")
    p.add_argument("--system", default="GPT4-5shot")
    p.add_argument("--epoch-segments", type=int, default=2000)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--repeats", type=int, default=5, help="timed runs per contender")
    p.add_argument("--slow-seconds", type=float, default=2.0)
    p.add_argument("--slow-repeats", type=int, default=3)
    p.add_argument("--name", default="torchmetrics", help="results file stem")
    p.add_argument("--out-dir", type=Path, default=benchlib.RESULTS_DIR)
    p.add_argument("--no-write", action="store_true", help="print only, write no result files")
    return p.parse_args(argv)


def snapshot(result: Any) -> Tuple[Any, ...]:
    """What the exactness check compares: the score (value, dtype, device) and the states."""
    score, metric = result if isinstance(result, tuple) else (result, None)
    states = tuple(getattr(metric, s).tolist() for s in STATES) if metric is not None else ()
    return (score.tolist(), str(score.dtype), str(score.device), states)


def workloads(
    libs: Dict[str, Any], hyps: List[str], target: List[List[str]], epoch: int, batch: int
) -> Dict[str, Callable[[], Any]]:
    """The job of each workload for one library (a module with torchmetrics' four names)."""
    epoch_hyps = [hyps[i % len(hyps)] for i in range(epoch)]
    epoch_target = [target[i % len(target)] for i in range(epoch)]

    def module(cls: Any) -> Callable[[], Any]:
        def run() -> Any:
            metric = cls()
            metric.update(hyps, target)
            return metric.compute(), metric

        return run

    def update_epoch() -> Any:
        metric = libs["BLEUScore"]()
        for start in range(0, epoch, batch):
            metric.update(epoch_hyps[start : start + batch], epoch_target[start : start + batch])
        return metric.compute(), metric

    return {
        "bleu_score": lambda: libs["bleu_score"](hyps, target),
        "sacre_bleu_score": lambda: libs["sacre_bleu_score"](hyps, target),
        "BLEUScore": module(libs["BLEUScore"]),
        "SacreBLEUScore": module(libs["SacreBLEUScore"]),
        "update_epoch": update_epoch,
    }


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    threads = benchlib.pin_threads("1")
    import torch

    torch.set_num_threads(1)
    import torchmetrics.functional.text as tm_functional
    import torchmetrics.text as tm_text

    import turbobleu
    import turbobleu.torchmetrics as tb

    (system,) = [s for s in benchlib.load_wmt23(args.data, [args.pair]) if s.name == args.system]
    hyps = system.hyps
    target = [list(refs) for refs in zip(*system.refs)]
    libs = {
        "turbobleu": {n: getattr(tb, n) for n in tb.__all__},
        "torchmetrics": {
            "bleu_score": tm_functional.bleu_score,
            "sacre_bleu_score": tm_functional.sacre_bleu_score,
            "BLEUScore": tm_text.BLEUScore,
            "SacreBLEUScore": tm_text.SacreBLEUScore,
        },
    }
    jobs = {
        lib: workloads(fns, hyps, target, args.epoch_segments, args.batch)
        for lib, fns in libs.items()
    }
    info = benchlib.machine_info(["torch", "torchmetrics", "turbobleu", "numpy"])
    print(benchlib.machine_line(info))
    print(
        f"{args.pair} {args.system}: {len(hyps)} segments, {len(system.refs)} references; "
        f"turbobleu {turbobleu.implementation}, torch threads {torch.get_num_threads()}"
    )
    rows, records, failed = [], [], False
    for work in WORKLOADS:
        contenders = [Contender(lib, jobs[lib][work.key]) for lib in ("turbobleu", "torchmetrics")]
        outputs, timings = benchlib.time_with(args, contenders)
        same = snapshot(outputs["turbobleu"]) == snapshot(outputs["torchmetrics"])
        failed |= not same
        tb_ms = timings["turbobleu"].median_ms
        tm_ms = timings["torchmetrics"].median_ms
        ratio = tm_ms / tb_ms
        verdict = "ok" if ratio >= work.target else "BELOW TARGET"
        if not same:
            print(
                f"FAIL {work.key}: {snapshot(outputs['turbobleu'])} != "
                f"{snapshot(outputs['torchmetrics'])}"
            )
        rows.append(
            [
                work.title,
                "==" if same else "DIFFERENT",
                f"{tm_ms:.1f}",
                f"{tb_ms:.2f}",
                f"{ratio:.0f}x",
                f">= {work.target:.0f}x {verdict}",
            ]
        )
        records.append(
            {
                "workload": work.key,
                "equal": same,
                "score": snapshot(outputs["turbobleu"])[0],
                "ratio": ratio,
                "target": work.target,
                "timings": {k: t.as_dict() for k, t in timings.items()},
            }
        )
        print(benchlib.text_table(HEADERS, rows[-1:]).splitlines()[-1], flush=True)
    benchlib.print_table(HEADERS, rows)
    markdown = (
        f"# torchmetrics BLEU: turbobleu.torchmetrics vs torchmetrics\n\n"
        f"{args.pair} {args.system} ({len(hyps)} segments, {len(system.refs)} references); "
        f"update epoch: {args.epoch_segments} segments in batches of {args.batch}. One thread. "
        f"Medians of {args.repeats} runs (torchmetrics: {args.slow_repeats}), alternating.\n\n"
        f"{benchlib.machine_line(info)}\n\n" + benchlib.md_table(HEADERS, rows) + "\n"
    )
    payload = {
        **benchlib.stamp("torchmetrics", info),
        "threads": threads,
        "implementation": turbobleu.implementation,
        "pair": args.pair,
        "system": args.system,
        "epoch_segments": args.epoch_segments,
        "batch": args.batch,
        "results": records,
    }
    return benchlib.finish(args, payload, markdown, failed)


HEADERS = ["workload", "equal", "torchmetrics ms", "turbobleu ms", "ratio", "target"]

if __name__ == "__main__":
    sys.exit(main())
