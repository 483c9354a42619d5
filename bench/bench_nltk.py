#!/usr/bin/env python3
"""turbobleu.nltk vs nltk.translate.bleu_score on every WMT23 system, side by side in one process.

Workloads, each on every system, on whitespace-split tokens (``line.split()``, done once before
timing: NLTK's API takes tokens):

* ``sentence`` - one ``sentence_bleu(references, hypothesis)`` call per segment in a Python loop
  (the common pattern in training and evaluation scripts): ``turbobleu.nltk.sentence_bleu`` vs
  ``nltk.translate.bleu_score.sentence_bleu``.
* ``corpus``   - one ``corpus_bleu(list_of_references, hypotheses)`` call.

Both use the default weights and smoothing unless ``--smoothing methodN`` is given (the same
``SmoothingFunction`` method of each library). NLTK's zero-order warnings are filtered ("ignore")
for both libraries alike; the ``warnings.warn`` calls still run inside the timed work.

Contenders alternate in rounds (tb, nltk, tb, nltk, ...) and the median of the timed runs is
reported, with ratios nltk / turbobleu. Every result is checked with ``==`` (corpus score and
every sentence score); a mismatch is printed loudly and makes the exit status 1.

Run ``python bench/bench_nltk.py --help``; see bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import benchlib
from benchlib import Contender, System

QUICK_PAIR = "en-de"


@dataclass(frozen=True)
class Comparison:
    key: str
    title: str
    workload: str
    target: float


COMPARISONS = [
    Comparison("sentence_loop", "sentence_bleu loop: nltk / turbobleu.nltk", "sentence", 20.0),
    Comparison("corpus", "corpus_bleu: nltk / turbobleu.nltk", "corpus", 50.0),
]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    p.add_argument(
        "--workloads", nargs="+", choices=("sentence", "corpus"), default=["sentence", "corpus"]
    )
    p.add_argument(
        "--smoothing",
        default="none",
        choices=["none"] + [f"method{i}" for i in range(8)],
        help="smoothing function for both libraries (default: NLTK's default)",
    )
    benchlib.add_timing_options(p, repeats=5, slow_repeats=3)
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: pair {QUICK_PAIR} only, 2 repeats, results named *-quick",
    )
    benchlib.add_results_options(
        p, "results file stem (default: nltk, nltk-<smoothing>, or *-quick)"
    )
    args = p.parse_args(argv)
    benchlib.apply_quick(args, [QUICK_PAIR])
    benchlib.require_positive(p, args, "repeats", "slow_repeats")
    smoothing = "" if args.smoothing == "none" else f"-{args.smoothing}"
    args.name = benchlib.results_name(args, "nltk" + smoothing)
    return args


# -- workloads -------------------------------------------------------------------------------


@dataclass
class Tokenized:
    hyps: List[List[str]]
    refs: List[List[List[str]]]  # per segment: its references


def tokenize(s: System) -> Tokenized:
    return Tokenized(
        [h.split() for h in s.hyps], [[r.split() for r in group] for group in s.refs_per_segment()]
    )


def smoothing_of(module: Any, name: str) -> Any:
    return None if name == "none" else getattr(module.SmoothingFunction(), name)


def contenders(
    libs: Dict[str, Any], data: Tokenized, workload: str, smoothing: str
) -> List[Contender]:
    out = []
    for key in ("turbobleu", "nltk"):
        module = libs[key]
        sf = smoothing_of(module, smoothing)
        if workload == "sentence":
            fn = module.sentence_bleu

            def run(fn: Any = fn, sf: Any = sf) -> List[Any]:
                return [fn(r, h, smoothing_function=sf) for r, h in zip(data.refs, data.hyps)]
        else:
            fn = module.corpus_bleu

            def run(fn: Any = fn, sf: Any = sf) -> Any:
                return fn(data.refs, data.hyps, smoothing_function=sf)

        out.append(Contender(key, run))
    return out


def check(outputs: Dict[str, Any], workload: str) -> Dict[str, Any]:
    got, want = outputs["turbobleu"], outputs["nltk"]
    if workload == "corpus":
        ok = got == want and type(got) is type(want)
        detail = "identical" if ok else f"turbobleu {got!r} != nltk {want!r}"
    else:
        bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w or type(g) is not type(w)]
        ok = len(got) == len(want) and not bad
        detail = (
            f"all {len(want)} sentence scores identical"
            if ok
            else f"{len(bad)} of {len(want)} differ; first: segment {bad[0]}: "
            f"turbobleu {got[bad[0]]!r} != nltk {want[bad[0]]!r}"
            if bad
            else f"{len(got)} scores for {len(want)} segments"
        )
    return {"what": f"turbobleu.nltk == nltk ({workload})", "ok": ok, "detail": detail}


# -- summary ---------------------------------------------------------------------------------


def ratio(record: Dict[str, Any], workload: str) -> Optional[float]:
    t = record["workloads"].get(workload, {}).get("timings", {})
    if "nltk" not in t or "turbobleu" not in t:
        return None
    return t["nltk"]["median_ms"] / t["turbobleu"]["median_ms"]


def summarize(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    summary = []
    for c in COMPARISONS:
        pairs = [(r, ratio(r, c.workload)) for r in records]
        pairs = [(r, x) for r, x in pairs if x is not None]
        if not pairs:
            continue
        ratios = [x for _, x in pairs]
        worst_rec, worst = min(pairs, key=lambda p: p[1])

        def total(key: str) -> float:
            return sum(r["workloads"][c.workload]["timings"][key]["median_ms"] for r, _ in pairs)

        total_ratio = total("nltk") / total("turbobleu")
        summary.append(
            {
                "comparison": c.key,
                "title": c.title,
                "target": c.target,
                "systems": len(ratios),
                "total_time_ratio": total_ratio,
                "geomean": benchlib.geomean(ratios),
                "min": worst,
                "min_system": f"{worst_rec['pair']} {worst_rec['system']}",
                "max": max(ratios),
                "nltk_total_ms": total("nltk"),
                "turbobleu_total_ms": total("turbobleu"),
                "met_total": total_ratio >= c.target,
            }
        )
    return summary


def detail_rows(records: List[Dict[str, Any]]):
    headers = [
        "pair",
        "system",
        "segs",
        "refs",
        "tokens/seg",
        "sent loop tb ms",
        "nltk ms",
        "nltk/tb",
        "corpus tb ms",
        "nltk ms",
        "nltk/tb",
    ]
    rows = []
    for r in records:
        ts = r["workloads"].get("sentence", {}).get("timings", {})
        tc = r["workloads"].get("corpus", {}).get("timings", {})
        rows.append(
            [
                r["pair"],
                r["system"],
                str(r["segments"]),
                str(r["refs"]),
                f"{r['hyp_tokens_per_segment']:.1f}",
                benchlib.ms_cell(ts, "turbobleu"),
                benchlib.ms_cell(ts, "nltk"),
                benchlib.ratio_cell(ratio(r, "sentence")),
                benchlib.ms_cell(tc, "turbobleu"),
                benchlib.ms_cell(tc, "nltk"),
                benchlib.ratio_cell(ratio(r, "corpus")),
            ]
        )
    return headers, rows


def summary_rows(summary: List[Dict[str, Any]]):
    headers = [
        "workload",
        "systems",
        "total nltk ms",
        "total tb ms",
        "total-time ratio",
        "geomean",
        "min (system)",
        "max",
        "target",
        "met (total time)",
    ]
    rows = [
        [
            s["title"],
            str(s["systems"]),
            f"{s['nltk_total_ms']:.0f}",
            f"{s['turbobleu_total_ms']:.0f}",
            f"{s['total_time_ratio']:.1f}x",
            f"{s['geomean']:.1f}x",
            f"{s['min']:.1f}x ({s['min_system']})",
            f"{s['max']:.1f}x",
            f">= {s['target']:.0f}x",
            "yes" if s["met_total"] else "no",
        ]
        for s in summary
    ]
    return headers, rows


def markdown(meta: Dict[str, Any], summary, records) -> str:
    m = meta["machine"]
    sh, sr = summary_rows(summary)
    dh, dr = detail_rows(records)
    commit = benchlib.commit_label(m["git"])
    checks = meta["checks"]
    load = lambda key: f"{m[key][0]:.1f}" if m.get(key) else "unknown"  # noqa: E731
    return "\n".join(
        [
            f"### turbobleu.nltk vs NLTK {meta['nltk_version']} on WMT23 "
            f"({meta['systems']} systems, "
            f"whitespace-split tokens, smoothing: {meta['args']['smoothing']})",
            "",
            f"Median of {meta['args']['repeats']} interleaved runs per contender "
            "(fewer for runs over "
            f"{meta['args']['slow_seconds']:g} s); ratio = NLTK time / turbobleu time. "
            "Sentence loop: "
            "one `sentence_bleu` call per segment; corpus: one `corpus_bleu` call.",
            "",
            benchlib.md_table(sh, sr),
            "",
            "<details><summary>Per system (median ms)</summary>",
            "",
            benchlib.md_table(dh, dr),
            "",
            "</details>",
            "",
            f"Scores: turbobleu.nltk == NLTK on {checks['ok']}/{checks['total']} checks "
            "(corpus score "
            "and every sentence score, compared with `==`).",
            "",
            f"Machine: {benchlib.machine_line(m)}; turbobleu implementation "
            f"`{meta['turbobleu_implementation']}` (compiled token interning: "
            f"{'yes' if meta['compiled_token_interning'] else 'no'}), "
            f"commit {commit}; {meta['date']}; "
            "1-min load "
            f"average {load('loadavg_start')} at start, {load('loadavg_end')} at end "
            "(above the CPU "
            "count means other work shared the machine).",
            f"Command: `{meta['command']}`",
            "",
        ]
    )


# -- main ------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    env = benchlib.pin_threads("1")
    import nltk.translate.bleu_score as nltk_bleu

    import turbobleu
    import turbobleu.nltk as tb_nltk

    libs = {"turbobleu": tb_nltk, "nltk": nltk_bleu}
    warnings.simplefilter("ignore")  # method0's zero-order warnings, for both libraries alike

    systems = benchlib.load_wmt23(args.data, args.pairs)
    machine = benchlib.machine_info(["turbobleu", "nltk", "numpy"])
    print(f"Machine: {benchlib.machine_line(machine)}")
    print(
        f"turbobleu implementation: {turbobleu.implementation} (compiled token interning: "
        f"{turbobleu.implementation == 'cython'}); smoothing {args.smoothing}; "
        f"{len(systems)} systems; repeats {args.repeats}\n",
        flush=True,
    )

    records: List[Dict[str, Any]] = []
    failures = 0
    for n, s in enumerate(systems, 1):
        data = tokenize(s)
        rec: Dict[str, Any] = {
            "pair": s.pair,
            "system": s.name,
            "segments": s.segments,
            "refs": len(s.refs),
            "hyp_tokens_per_segment": sum(map(len, data.hyps)) / max(1, len(data.hyps)),
            "workloads": {},
        }
        for workload in args.workloads:
            outputs, timings = benchlib.time_interleaved(
                contenders(libs, data, workload, args.smoothing),
                args.repeats,
                args.slow_seconds * 1000,
                args.slow_repeats,
            )
            result = check(outputs, workload)
            if not result["ok"]:
                failures += 1
                print(
                    f"\n{'!' * 78}\n!!! SCORE MISMATCH: {s.pair} {s.name}\n!!! {result['what']}"
                    f"\n!!! {result['detail']}\n{'!' * 78}\n",
                    file=sys.stderr,
                    flush=True,
                )
            rec["workloads"][workload] = {
                "timings": {k: t.as_dict() for k, t in timings.items()},
                "checks": [result],
            }
        records.append(rec)
        parts = [f"{w} {benchlib.ratio_cell(ratio(rec, w))}" for w in args.workloads]
        print(
            f"[{n}/{len(systems)}] {s.pair} {s.name} ({s.segments} segs, "
            f"{rec['hyp_tokens_per_segment']:.1f} tokens/seg): {', '.join(parts)}",
            flush=True,
        )

    summary = summarize(records)
    dh, dr = detail_rows(records)
    sh, sr = summary_rows(summary)
    print("\nPer system (median ms; ratio = nltk / turbobleu):\n" + benchlib.text_table(dh, dr))
    print("\nSummary:\n" + benchlib.text_table(sh, sr))
    for s_ in summary:
        print(
            f"AGGREGATE {s_['comparison']}: total-time ratio {s_['total_time_ratio']:.2f}x, "
            f"geomean {s_['geomean']:.2f}x, min {s_['min']:.2f}x ({s_['min_system']}), "
            f"target >= {s_['target']:.0f}x"
        )

    all_checks = [c for r in records for w in r["workloads"].values() for c in w["checks"]]
    meta = {
        "benchmark": "bench_nltk",
        "date": benchlib.utc_now().isoformat(timespec="seconds"),
        "command": " ".join(["python", "bench/bench_nltk.py"] + sys.argv[1:]),
        "args": benchlib.args_record(args),
        "env": env,
        "machine": machine,
        "nltk_version": benchlib.package_version("nltk"),
        "turbobleu_implementation": turbobleu.implementation,
        "systems": len(systems),
        # whether turbobleu._engine.intern._intern (compiled interning of the tokens) was built and
        # used
        "compiled_token_interning": turbobleu.implementation == "cython",
        "checks": {"ok": sum(c["ok"] for c in all_checks), "total": len(all_checks)},
    }
    meta["machine"]["loadavg_end"] = list(os.getloadavg())
    print(f"Checks: turbobleu.nltk == nltk on {meta['checks']['ok']}/{meta['checks']['total']}")
    payload = {"meta": meta, "summary": summary, "systems": records}
    benchlib.save_results(args, payload, markdown(meta, summary, records))
    if failures:
        print(f"\n{failures} SCORE MISMATCH(ES) vs nltk - see above", file=sys.stderr)
        return 1
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
