#!/usr/bin/env python3
"""turbobleu vs sacrebleu significance testing on WMT23: paired bootstrap, approximate
randomization and bootstrap confidence intervals, side by side in one process.

Workloads, per language pair (all 4 systems of the pair, the first one is the baseline; 13a):

* ``bs``  - paired bootstrap resampling, 1000 resamples (``--paired-bs``):
  ``sacrebleu.significance.PairedTest(..., "bs", 1000)()`` vs ``turbobleu.BLEU(references=...)``
  + ``corpus_stats`` per system + ``turbobleu.significance.paired_bootstrap``.
* ``ar``  - paired approximate randomization, 10000 trials (``--paired-ar``), likewise.
* ``ci``  - one system's bootstrap confidence interval, 1000 resamples (``--confidence``):
  ``sacrebleu.BLEU().corpus_score(hyps, refs, n_bootstrap=1000)`` vs turbobleu's statistics +
  ``confidence_interval``.
* ``cli-bs``, ``cli-ar`` (opt-in) - the command lines end to end (``sacrebleu REF -i HYPS -pbs``
  vs ``turbobleu REF -i HYPS -pbs``), process start-up included.

Two ratios per workload (contenders alternate in rounds; medians; ratio = sacrebleu / turbobleu):

* end to end (``tb`` vs ``sb``): each timed call starts from strings - a fresh metric, tokenizing
  the references and systems, extracting statistics - then runs the test;
* the test alone (``tb.test`` vs ``sb.test``): both start from per-segment statistics extracted
  before the timer. sacrebleu runs its own ``PairedTest`` (or ``_bootstrap_resample`` +
  ``estimate_ci`` for ``ci``) through a BLEU whose statistics extraction returns the precomputed
  rows, so only its resampling and scoring are timed.

Every result is checked for equality with sacrebleu's (floats ==); a mismatch is printed and makes
the exit status 1. ``bench_paired_test.py`` times the ``PairedTest`` classes themselves, for
BLEU, chrF, chrF++ and TER.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import benchlib
from benchlib import Contender, System

QUICK_PAIR = "de-en"  # the smallest pair with 4 systems (549 segments)
TARGETS: Dict[str, Optional[float]] = {
    "bs": 50.0,
    "ar": 50.0,
    "ci": None,
    "cli-bs": None,
    "cli-ar": None,
}
TITLES = {
    "bs": "paired bootstrap, 1000 resamples",
    "ar": "approximate randomization, 10000 trials",
    "ci": "bootstrap CI of one system, 1000 resamples",
    "cli-bs": "command line -pbs (whole process)",
    "cli-ar": "command line -par (whole process)",
}


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    p.add_argument("--workloads", nargs="+", choices=tuple(TARGETS), default=["bs", "ar", "ci"])
    p.add_argument("--bs-samples", type=int, default=1000)
    p.add_argument("--ar-trials", type=int, default=10000)
    benchlib.add_timing_options(p, repeats=5, slow_repeats=1)
    benchlib.add_results_options(
        p,
        "results file stem (default: significance[-quick])",
        quick=f"smoke run: pair {QUICK_PAIR} only, 2 repeats, results named *-quick",
    )
    args = p.parse_args(argv)
    benchlib.apply_quick(args, [QUICK_PAIR])
    args.name = benchlib.results_name(args, "significance")
    return args


# -- contenders ------------------------------------------------------------------------------------
def library_contenders(
    workload: str, systems: List[System], args: argparse.Namespace
) -> List[Contender]:
    import sacrebleu
    from sacrebleu.significance import PairedTest

    import turbobleu
    from turbobleu import significance as sig

    refs = systems[0].refs
    hyps = [s.hyps for s in systems]
    named = [(s.name, s.hyps) for s in systems]

    class CachedBLEU(sacrebleu.BLEU):  # sacrebleu's BLEU with statistics extracted beforehand
        def __init__(self, table: Dict[int, List[List[int]]]) -> None:
            super().__init__(references=refs)
            self.table = table

        def _extract_corpus_statistics(self, hypotheses: Any, references: Any) -> Any:
            return self.table[id(hypotheses)]  # keyed by the system's list object

    sb_metric = sacrebleu.BLEU(references=refs)
    table = {id(h): sb_metric._extract_corpus_statistics(h, None) for h in hyps}

    if workload == "ci":

        def sb_ci() -> Tuple[float, float]:
            score = sacrebleu.BLEU().corpus_score(hyps[0], refs, n_bootstrap=args.bs_samples)
            return score._mean, score._ci

        def tb_ci() -> Tuple[float, float]:
            metric = turbobleu.BLEU()
            return sig.confidence_interval(
                metric.corpus_stats(hyps[0], refs), metric, args.bs_samples
            )

        from sacrebleu.significance import _bootstrap_resample

        def sb_ci_test() -> Tuple[float, float]:
            score = sb_metric._aggregate_and_compute(table[id(hyps[0])])
            _, samples = _bootstrap_resample(table[id(hyps[0])], sb_metric, args.bs_samples)
            score.estimate_ci(samples)
            return score._mean, score._ci

        metric0 = turbobleu.BLEU()
        stats0 = metric0.corpus_stats(hyps[0], refs)
        return [
            Contender("tb", tb_ci),
            Contender("sb", sb_ci),
            Contender("tb.test", lambda: sig.confidence_interval(stats0, metric0, args.bs_samples)),
            Contender("sb.test", sb_ci_test),
        ]

    kind = workload
    n = args.bs_samples if kind == "bs" else args.ar_trials
    run = sig.paired_bootstrap if kind == "bs" else sig.paired_approximate_randomization

    def sb() -> List[Dict[str, Any]]:
        metric = sacrebleu.BLEU(references=refs)
        _, scores = PairedTest(named, {"BLEU": metric}, None, kind, n)()
        return [dict(r.__dict__) for r in scores["BLEU"]]

    def tb() -> List[Dict[str, Any]]:
        metric = turbobleu.BLEU(references=refs)
        stats = [metric.corpus_stats(h) for h in hyps]
        return [r.as_dict() for r in run(stats[0], stats[1:], metric, n)]

    def sb_test() -> List[Dict[str, Any]]:
        _, scores = PairedTest(named, {"BLEU": CachedBLEU(table)}, None, kind, n)()
        return [dict(r.__dict__) for r in scores["BLEU"]]

    fixed = turbobleu.BLEU(references=refs)
    fixed_stats = [fixed.corpus_stats(h) for h in hyps]
    return [
        Contender("tb", tb),
        Contender("sb", sb),
        Contender(
            "tb.test", lambda: [r.as_dict() for r in run(fixed_stats[0], fixed_stats[1:], fixed, n)]
        ),
        Contender("sb.test", sb_test),
    ]


def cli_contenders(workload: str, pair_dir: Path, systems: List[System]) -> List[Contender]:
    bin_dir = Path(sys.executable).parent
    tools = {
        k: shutil.which(k, path=str(bin_dir)) or shutil.which(k) for k in ("turbobleu", "sacrebleu")
    }
    ref_files = [f"ref.{r}.{pair_dir.name.split('-')[1]}" for r in systems[0].ref_names]
    lang = pair_dir.name.split("-")[1]
    hyp_files = [f"hyp.{s.name}.{lang}" for s in systems]
    flag = "-pbs" if workload == "cli-bs" else "-par"
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")}

    def command(tool: str):
        def run() -> str:
            done = subprocess.run(
                [tools[tool], *ref_files, "-i", *hyp_files, flag, "-q"],
                cwd=pair_dir,
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode:
                raise RuntimeError(f"{tool} failed: {done.stderr[-500:]}")
            return done.stdout

        return run

    missing = [k for k, v in tools.items() if not v]
    if missing:
        raise FileNotFoundError(f"console scripts not found: {missing}")
    return [Contender("tb", command("turbobleu")), Contender("sb", command("sacrebleu"))]


# -- reporting -------------------------------------------------------------------------------------
def summary_rows(records: List[Dict[str, Any]]) -> List[List[str]]:
    rows = []
    for workload in TARGETS:
        got = [r for r in records if r["workload"] == workload]
        if not got:
            continue
        target = TARGETS[workload]
        for key, label in (
            ("test_ratio", "test only"),
            ("cpu_test_ratio", "test only, CPU"),
            ("ratio", "end to end"),
            ("cpu_ratio", "end to end, CPU"),
        ):
            have = [r for r in got if key in r]
            if not have:
                continue
            ratios = [r[key] for r in have]
            worst = min(have, key=lambda r: r[key])
            checked = target is not None and key.endswith("test_ratio")
            met = "yes" if checked and min(ratios) >= target else ("no" if checked else "-")
            rows.append(
                [
                    TITLES[workload],
                    label,
                    str(len(have)),
                    f"{benchlib.geomean(ratios):.1f}x",
                    f"{worst[key]:.1f}x ({worst['pair']})",
                    f"{max(ratios):.1f}x",
                    f">= {target:.0f}x" if checked else "-",
                    met,
                ]
            )
    return rows


def markdown(records: List[Dict[str, Any]], info: Dict[str, Any], args: argparse.Namespace) -> str:
    head = benchlib.PAIR_SUMMARY_HEADER
    per = [
        "workload",
        "pair",
        "segs",
        "sacrebleu ms",
        "turbobleu ms",
        "sb/tb",
        "sacrebleu test ms",
        "turbobleu test ms",
        "sb/tb test",
        "equal",
    ]

    def ms(value: Optional[float]) -> str:
        return "-" if value is None else f"{value:.1f}"

    lines = [
        "### turbobleu vs sacrebleu: significance tests on WMT23 (4 systems per pair, 13a)",
        "",
        f"Median of up to {args.repeats} interleaved runs ({args.slow_repeats} for runs over "
        f"{args.slow_seconds:g} s), ratio = sacrebleu time / turbobleu time, one thread "
        "(BLAS pinned). *End to end*: "
        "from strings (fresh metric, tokenization, statistics of every system, then the test). "
        "*Test only*: from per-segment statistics extracted beforehand (sacrebleu runs its own "
        "PairedTest on cached statistics). *CPU*: the same ratio in process CPU time, which "
        "other load on the machine disturbs less than wall time. Every result equals "
        "sacrebleu's (floats ==).",
        "",
        benchlib.md_table(head, summary_rows(records)),
        "",
        "<details><summary>Per pair (median ms)</summary>",
        "",
        benchlib.md_table(
            per,
            [
                [
                    r["workload"],
                    r["pair"],
                    str(r["segments"]),
                    ms(r["sb_ms"]),
                    ms(r["tb_ms"]),
                    f"{r['ratio']:.1f}x",
                    ms(r["sb_test_ms"]),
                    ms(r["tb_test_ms"]),
                    f"{r['test_ratio']:.1f}x" if "test_ratio" in r else "-",
                    "yes" if r["equal"] else "NO",
                ]
                for r in records
            ],
        ),
        "",
        "</details>",
        "",
        f"Machine: {benchlib.machine_line(info)}",
        "",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    benchlib.pin_threads("1")
    systems = benchlib.load_wmt23(args.data, args.pairs)
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "numpy"])
    import logging

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    records: List[Dict[str, Any]] = []
    failures = 0
    for pair, members in benchlib.group_by_pair(systems).items():
        for workload in args.workloads:
            if workload.startswith("cli"):
                contenders = cli_contenders(workload, args.data / pair, members)
            else:
                contenders = library_contenders(workload, members, args)
            outputs, timings = benchlib.time_with(args, contenders)
            equal = all(outputs[k] == outputs["sb"] for k in outputs)
            if not equal:
                failures += 1
                print(
                    f"!!! MISMATCH {workload} {pair}:\n  tb {outputs['tb']}\n  sb {outputs['sb']}",
                    flush=True,
                )
            record = {
                "workload": workload,
                "pair": pair,
                "segments": members[0].segments,
                "systems": [s.name for s in members],
                "equal": equal,
                "tb_ms": timings["tb"].median_ms,
                "sb_ms": timings["sb"].median_ms,
                "ratio": timings["sb"].median_ms / timings["tb"].median_ms,
                "tb_test_ms": timings["tb.test"].median_ms if "tb.test" in timings else None,
                "sb_test_ms": timings["sb.test"].median_ms if "sb.test" in timings else None,
                "timings": {k: t.as_dict() for k, t in timings.items()},
            }
            if record["sb_test_ms"] is not None:
                record["test_ratio"] = record["sb_test_ms"] / record["tb_test_ms"]
            # the same ratios in process CPU time (less sensitive to other load on the machine)
            cpu = {k: statistics.median(t.cpu_ms) for k, t in timings.items()}
            record["cpu_ratio"] = cpu["sb"] / cpu["tb"]
            if "sb.test" in cpu:
                record["cpu_test_ratio"] = cpu["sb.test"] / cpu["tb.test"]
            records.append(record)
            line = (
                f"{workload:7s} {pair}  end to end: sacrebleu {record['sb_ms']:8.1f} ms, "
                f"turbobleu {record['tb_ms']:7.1f} ms ({record['ratio']:6.1f}x)"
            )
            if "test_ratio" in record:
                line += (
                    f"  test only: {record['sb_test_ms']:8.1f} ms vs "
                    f"{record['tb_test_ms']:6.1f} ms ({record['test_ratio']:6.1f}x)"
                )
            print(line + f"  equal={equal}", flush=True)
    paths = benchlib.finish_records(
        "significance",
        args,
        info,
        records,
        failures,
        summary_rows(records),
        lambda: markdown(records, info, args),
    )
    if paths:  # also as <name>-latest.json
        latest = paths[0].parent / f"{args.name}-latest.json"
        latest.write_text(paths[0].read_text(encoding="utf-8"), encoding="utf-8")
        print(f"wrote {latest}")
    return 1 if failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
