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
from benchlib import Comparison, Contender, System, ratio

QUICK_PAIR = "en-de"


COMPARISONS = [
    Comparison(
        "sentence_loop",
        "sentence_bleu loop: nltk / turbobleu.nltk",
        "sentence",
        "nltk",
        "turbobleu",
        20.0,
    ),
    Comparison("corpus", "corpus_bleu: nltk / turbobleu.nltk", "corpus", "nltk", "turbobleu", 50.0),
]
# The comparison of each workload.
BY_WORKLOAD = {c.workload: c for c in COMPARISONS}


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    benchlib.add_workloads_option(p, ("sentence", "corpus"))
    p.add_argument(
        "--smoothing",
        default="none",
        choices=["none"] + [f"method{i}" for i in range(8)],
        help="smoothing function for both libraries (default: NLTK's default)",
    )
    benchlib.add_timing_options(p, repeats=5, slow_repeats=3)
    benchlib.add_results_options(
        p,
        "results file stem (default: nltk, nltk-<smoothing>, or *-quick)",
        quick=f"smoke run: pair {QUICK_PAIR} only, 2 repeats, results named *-quick",
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


DETAIL_COLUMNS: List[benchlib.Column] = [
    *benchlib.SYSTEM_COLUMNS,
    ("tokens/seg", lambda r: f"{r['hyp_tokens_per_segment']:.1f}"),
    *benchlib.comparison_columns(BY_WORKLOAD["sentence"], "sent loop tb ms", "nltk ms", "nltk/tb"),
    *benchlib.comparison_columns(BY_WORKLOAD["corpus"], "corpus tb ms", "nltk ms", "nltk/tb"),
]

SUMMARY_COLUMNS: List[benchlib.Column] = [
    ("workload", lambda s: s["title"]),
    ("systems", lambda s: str(s["systems"])),
    ("total nltk ms", lambda s: f"{s['peer_total_ms']:.0f}"),
    ("total tb ms", lambda s: f"{s['turbo_total_ms']:.0f}"),
    ("total-time ratio", lambda s: f"{s['total_time_ratio']:.1f}x"),
    *benchlib.SPREAD_COLUMNS,
    ("target", lambda s: f">= {s['target']:.0f}x"),
    ("met (total time)", lambda s: benchlib.yes_no(s["met_total"])),
]


def detail_rows(records: List[Dict[str, Any]]):
    return benchlib.build_table(DETAIL_COLUMNS, records)


def summary_rows(summary: List[Dict[str, Any]]):
    return benchlib.build_table(SUMMARY_COLUMNS, summary)


def markdown(meta: Dict[str, Any], summary, records) -> str:
    m = meta["machine"]
    sh, sr = summary_rows(summary)
    dh, dr = detail_rows(records)
    commit = benchlib.commit_label(m["git"])
    checks = meta["checks"]
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
            *benchlib.md_summary_and_details((sh, sr), (dh, dr)),
            f"Scores: turbobleu.nltk == NLTK on {checks['ok']}/{checks['total']} checks "
            "(corpus score "
            "and every sentence score, compared with `==`).",
            "",
            f"Machine: {benchlib.machine_line(m)}; turbobleu implementation "
            f"`{meta['turbobleu_implementation']}` (compiled token interning: "
            f"{'yes' if meta['compiled_token_interning'] else 'no'}), "
            f"commit {commit}; {meta['date']}; "
            "1-min load "
            f"average {benchlib.load_cell(m, 'loadavg_start')} at start, "
            f"{benchlib.load_cell(m, 'loadavg_end')} at end "
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

    systems, machine = benchlib.load_and_describe(args, ["turbobleu", "nltk", "numpy"])
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
        tokens = sum(map(len, data.hyps)) / max(1, len(data.hyps))
        rec = benchlib.system_record(s, hyp_tokens_per_segment=tokens)
        for workload in args.workloads:
            outputs, timings = benchlib.time_with(
                args, contenders(libs, data, workload, args.smoothing)
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
            rec["workloads"][workload] = benchlib.workload_entry(timings, [result])
        records.append(rec)
        parts = [f"{w} {benchlib.ratio_cell(ratio(rec, BY_WORKLOAD[w]))}" for w in args.workloads]
        print(
            f"[{n}/{len(systems)}] {s.pair} {s.name} ({s.segments} segs, "
            f"{rec['hyp_tokens_per_segment']:.1f} tokens/seg): {', '.join(parts)}",
            flush=True,
        )

    summary = benchlib.summarize(records, COMPARISONS)
    benchlib.print_tables(detail_rows(records), summary_rows(summary), "nltk")
    for s_ in summary:
        print(
            f"AGGREGATE {s_['comparison']}: total-time ratio {s_['total_time_ratio']:.2f}x, "
            f"geomean {s_['geomean']:.2f}x, min {s_['min']:.2f}x ({s_['min_system']}), "
            f"target >= {s_['target']:.0f}x"
        )

    all_checks = [c for r in records for w in r["workloads"].values() for c in w["checks"]]
    meta = {
        **benchlib.run_meta("bench_nltk", args, env, machine),
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
    return 1 if failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
