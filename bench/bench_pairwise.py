#!/usr/bin/env python3
"""Pairwise BLEU matrix (the MBR hot loop): turbobleu against a sacrebleu.sentence_bleu loop and
mbrs' MetricBLEU, side by side in one run, on WMT23 sentences.

Per language pair, the matrix is the first ``--size`` outputs of the pair's first system (by file
name) x the first ``--size`` lines of its reference: ``size**2`` cells, each the single-reference
``sentence_bleu`` with sacrebleu's defaults (13a; zh for Chinese and char for Japanese targets).
Every contender gets the same Python lists of strings and does the whole job in the timed call
(tokenizing included):

* turbobleu: ``pairwise_bleu(hyps, refs, threads=1)``, and with every core;
* turbobleu through mbrs' interface: ``mbrs_bleu_metric().pairwise_scores(hyps, refs)``;
* sacrebleu: ``[[sacrebleu.sentence_bleu(h, [r]).score for r in refs] for h in hyps]``;
* mbrs: ``MetricBLEU(cfg).pairwise_scores(hyps, refs)`` with its default ``num_workers=8`` (a
  process pool per call) and with ``num_workers=1``.

Checks (a mismatch prints a banner and exits 1): turbobleu's matrix == the sacrebleu loop's, cell
for cell; mbrs' tensors are ``torch.equal`` to the adapter's. Timing: benchlib's alternating rounds,
medians; ratios are peer median / turbobleu (1 thread) median; per-cell microseconds for all.
Targets (reported, never asserted): >= 150x the sacrebleu loop and >= 80x mbrs' MetricBLEU.

mbrs runs where it is installed (``pip install "setuptools<81" && pip install mbrs``); without
it its rows are skipped with a note. Run ``python bench/bench_pairwise.py --help``.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

import benchlib
from benchlib import Contender

TOKENIZE = {"zh": "zh", "ja": "char"}
TARGETS = {"sacrebleu": 150.0, "mbrs": 80.0}


def parse_args(argv: Optional[List[str]] = None) -> Any:
    p = benchlib.wmt23_parser(__doc__)
    p.set_defaults(pairs=["zh-en", "en-ru", "he-en"])
    p.add_argument("--size", type=int, default=256, help="hypotheses and references per matrix")
    benchlib.add_timing_options(p, repeats=7, slow_repeats=3)
    p.add_argument("--threads", type=int, default=None, help="turbobleu's 'all threads' count")
    benchlib.add_results_options(
        p,
        "results file stem (default: pairwise)",
        quick="smoke run: zh-en, 64 x 64, 2 repeats",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.pairs, args.size, args.repeats = ["zh-en"], min(args.size, 64), 2
        args.slow_repeats = min(args.slow_repeats, 2)
    args.name = benchlib.results_name(args, "pairwise")
    return args


def load_mbrs() -> Any:
    try:
        from mbrs.metrics import MetricBLEU
    except ImportError as exc:
        print(f"NOTE: mbrs is not importable ({exc}); skipping its rows", file=sys.stderr)
        return None
    return MetricBLEU


def contenders(
    hyps: List[str], refs: List[str], tok: str, threads: int, metric_bleu: Any
) -> List[Contender]:
    import sacrebleu

    from turbobleu.pairwise import pairwise_bleu

    out = [
        Contender(
            "turbobleu (1 thread)", lambda: pairwise_bleu(hyps, refs, tokenize=tok, threads=1)
        ),
        Contender(
            f"turbobleu ({threads} threads)",
            lambda: pairwise_bleu(hyps, refs, tokenize=tok, threads=threads),
        ),
    ]
    if metric_bleu is not None:
        from turbobleu.mbr import mbrs_bleu_metric

        ours = mbrs_bleu_metric(tokenize=tok)
        ours.threads = 1
        out.append(
            Contender(
                "turbobleu as mbrs metric (1 thread)", lambda: ours.pairwise_scores(hyps, refs)
            )
        )
        for workers in (8, 1):
            theirs = metric_bleu(metric_bleu.Config(tokenize=tok, num_workers=workers))
            out.append(
                Contender(
                    f"mbrs MetricBLEU (num_workers={workers})",
                    lambda m=theirs: m.pairwise_scores(hyps, refs),
                )
            )
    out.append(
        Contender(
            "sacrebleu sentence_bleu loop",
            lambda: [
                [sacrebleu.sentence_bleu(h, [r], tokenize=tok).score for r in refs] for h in hyps
            ],
        )
    )
    return out


def check(outputs: Dict[str, Any], pair: str) -> List[str]:
    """Mismatches between the contenders' matrices (empty: all agree)."""
    import torch

    problems = []
    ours = outputs["turbobleu (1 thread)"]
    if ours.tolist() != outputs["sacrebleu sentence_bleu loop"]:
        problems.append(f"{pair}: turbobleu != sacrebleu loop")
    for key, value in outputs.items():
        if key.startswith("turbobleu (") and value.tolist() != ours.tolist():
            problems.append(f"{pair}: {key} != turbobleu (1 thread)")
        if key.startswith("mbrs") or key.startswith("turbobleu as mbrs"):
            want = torch.tensor(ours, dtype=torch.float32)
            if not torch.equal(value, want):
                problems.append(f"{pair}: {key} != turbobleu's matrix as float32")
    return problems


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    pinned = benchlib.pin_threads("1")
    from turbobleu.batch import default_threads

    threads = args.threads or max(2, default_threads())
    metric_bleu = load_mbrs()
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "mbrs", "torch", "numpy"])
    print(benchlib.machine_line(info))
    systems = benchlib.load_wmt23(args.data, args.pairs)
    results, rows, problems = [], [], []
    for pair in args.pairs:
        system = next(s for s in systems if s.pair == pair)
        hyps, refs = system.hyps[: args.size], system.refs[0][: args.size]
        tok = TOKENIZE.get(pair.split("-")[1], "13a")
        cells = len(hyps) * len(refs)
        outputs, timings = benchlib.time_with(
            args, contenders(hyps, refs, tok, threads, metric_bleu)
        )
        problems += check(outputs, pair)
        base = timings["turbobleu (1 thread)"].median_ms
        for key, t in timings.items():
            ratio = t.median_ms / base
            target = next((v for k, v in TARGETS.items() if key.startswith(k)), None)
            rows.append(
                [
                    pair,
                    key,
                    f"{len(hyps)}x{len(refs)}",
                    f"{t.median_ms:.1f}",
                    f"{t.median_ms * 1000 / cells:.3f}",
                    f"{ratio:.1f}x",
                    f">= {target:.0f}x {'met' if ratio >= target else 'NOT met'}" if target else "",
                    f"{len(t.wall_ms)}",
                ]
            )
            results.append(
                {"pair": pair, "contender": key, "system": system.name, "tokenize": tok}
                | {"cells": cells, "us_per_cell": t.median_ms * 1000 / cells}
                | {"ratio_to_turbobleu_1_thread": ratio, "target": target}
                | t.as_dict()
            )
    headers = ["pair", "contender", "matrix", "median ms", "us/cell", "vs tb 1 thr", "target", "n"]
    print(benchlib.text_table(headers, rows))
    if problems:
        print("=" * 70 + "\nMISMATCH: " + "\n".join(problems) + "\n" + "=" * 70)
    markdown = (
        f"Pairwise BLEU matrix, {benchlib.utc_now():%Y-%m-%d}: "
        f"{benchlib.machine_line(info)}\n\n{benchlib.md_table(headers, rows)}\n"
    )
    payload = {"machine": info, "args": benchlib.args_record(args)}
    payload |= {"threads_env": pinned, "results": results, "mismatches": problems}
    benchlib.save_results(args, payload, markdown)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
