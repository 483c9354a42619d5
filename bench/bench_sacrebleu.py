#!/usr/bin/env python3
"""turbobleu vs sacrebleu (and bleuscore) on every WMT23 system, side by side in one process.

Workloads, each on every system (13a tokenization, tokenization always included in the time):

* ``corpus``   - one corpus score: ``turbobleu.corpus_bleu`` vs ``sacrebleu.corpus_bleu`` vs
  ``bleuscore.compute`` (a Rust BLEU; optional). A fresh call every time, no cached object.
* ``sentence`` - one sentence score per segment: a Python loop of ``turbobleu.sentence_bleu``,
  one batch call ``turbobleu.BLEU(effective_order=True).sentence_scores(hyps, refs)``, and a
  Python loop of ``sacrebleu.sentence_bleu`` (the baseline for both).

Contenders alternate in rounds (tb, sb, bs, tb, sb, bs, ...) and the median of the timed runs is
reported, with ratios peer / turbobleu. turbobleu's scores are checked against sacrebleu's with
``==`` on every system; a mismatch is printed loudly and makes the exit status 1.

Run ``python bench/bench_sacrebleu.py --help``; see bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import logging
import os
import pstats
import sys
from typing import Any, Callable, Dict, List, Optional

import benchlib
from benchlib import Comparison, Contender, System, ratio

QUICK_PAIR = "en-de"  # the smallest pair (557 segments, one reference)


COMPARISONS = [
    Comparison(
        "corpus_sacrebleu",
        "corpus_bleu: sacrebleu / turbobleu",
        "corpus",
        "sacrebleu",
        "turbobleu",
        50.0,
    ),
    Comparison(
        "corpus_bleuscore",
        "corpus_bleu: bleuscore / turbobleu",
        "corpus",
        "bleuscore",
        "turbobleu",
        5.0,
    ),
    Comparison(
        "sentence_loop",
        "sentence loop: sacrebleu.sentence_bleu loop / turbobleu.sentence_bleu loop",
        "sentence",
        "sacrebleu.loop",
        "turbobleu.loop",
        20.0,
    ),
    Comparison(
        "sentence_batch",
        "sentence batch: sacrebleu.sentence_bleu loop / turbobleu BLEU.sentence_scores",
        "sentence",
        "sacrebleu.loop",
        "turbobleu.batch",
        50.0,
    ),
]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    benchlib.add_workloads_option(p, ("corpus", "sentence"))
    benchlib.add_timing_options(p, repeats=5, slow_repeats=3)
    p.add_argument(
        "--peer-threads",
        default="1",
        help="threads for rayon-based peers (bleuscore): a number, or 'auto' for "
        "their default (all cores). turbobleu always runs on one thread.",
    )
    benchlib.add_results_options(
        p,
        "results file stem (default: sacrebleu, or sacrebleu-quick)",
        quick=f"smoke run: pair {QUICK_PAIR} only, 2 repeats, results named *-quick",
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="also cProfile each turbobleu contender once on the largest system",
    )
    args = p.parse_args(argv)
    benchlib.apply_quick(args, [QUICK_PAIR])
    benchlib.require_positive(p, args, "repeats", "slow_repeats")
    args.name = benchlib.results_name(args, "sacrebleu")
    return args


# -- libraries -------------------------------------------------------------------------------


def load_libraries() -> Dict[str, Any]:
    """turbobleu (required) and the peers that are installed; says which peers are skipped."""
    import turbobleu

    libs: Dict[str, Any] = {"turbobleu": turbobleu}
    for name in ("sacrebleu", "bleuscore"):
        try:
            libs[name] = __import__(name)
        except ImportError:
            print(
                f"NOTE: {name} is not installed; skipping it "
                f"(pip install -e '.[bench]' installs the peers)",
                file=sys.stderr,
            )
    # Both libraries log a "forgot to detokenize?" warning on some systems; it is noise here
    # (each still runs the check, so the work timed is unchanged).
    logging.disable(logging.WARNING)
    return libs


def one_thread_kwargs(fn: Callable) -> Dict[str, int]:
    """``threads=1`` (or the like) if a turbobleu entry point grows a thread-count argument;
    today turbobleu is single-threaded by default and this returns {}."""
    params = inspect.signature(fn).parameters
    for name in ("threads", "num_threads", "n_threads", "workers"):
        if name in params:
            return {name: 1}
    return {}


def bleuscore_kwargs(bleuscore: Any) -> Dict[str, Any]:
    """sacrebleu's reference-length rule (closest, ties to shorter) where bleuscore has it."""
    try:
        bleuscore.compute(
            references=[["a b"]],
            predictions=["a b"],
            max_order=4,
            smooth=False,
            ref_len_method="sacrebleu",
        )
        return {"max_order": 4, "smooth": False, "ref_len_method": "sacrebleu"}
    except TypeError:
        print(
            "NOTE: this bleuscore has no ref_len_method; it uses the shortest reference, "
            "so multi-reference pairs will not match sacrebleu",
            file=sys.stderr,
        )
        return {"max_order": 4, "smooth": False}


# -- workloads -------------------------------------------------------------------------------


def corpus_contenders(libs: Dict[str, Any], s: System) -> List[Contender]:
    tb = libs["turbobleu"]
    hyps, refs = s.hyps, s.refs
    tb_kw = one_thread_kwargs(tb.corpus_bleu)
    out = [Contender("turbobleu", lambda: tb.corpus_bleu(hyps, refs, **tb_kw))]
    if "sacrebleu" in libs:
        sb = libs["sacrebleu"]
        out.append(Contender("sacrebleu", lambda: sb.corpus_bleu(hyps, refs)))
    if "bleuscore" in libs:
        bs = libs["bleuscore"]
        bs_kw = libs["_bleuscore_kwargs"]
        # bleuscore wants references grouped per segment; regrouping is done once, untimed.
        seg_refs = s.refs_per_segment()
        out.append(
            Contender(
                "bleuscore", lambda: bs.compute(references=seg_refs, predictions=hyps, **bs_kw)
            )
        )
    return out


def sentence_contenders(libs: Dict[str, Any], s: System) -> List[Contender]:
    tb = libs["turbobleu"]
    hyps, refs = s.hyps, s.refs
    seg_refs = s.refs_per_segment()  # both loops take each segment's references as a list
    tb_kw = one_thread_kwargs(tb.BLEU.sentence_scores)
    out = [
        Contender(
            "turbobleu.loop", lambda: [tb.sentence_bleu(h, r).score for h, r in zip(hyps, seg_refs)]
        ),
        Contender(
            "turbobleu.batch",
            lambda: tb.BLEU(effective_order=True).sentence_scores(hyps, refs, **tb_kw),
        ),
    ]
    if "sacrebleu" in libs:
        sb = libs["sacrebleu"]
        out.append(
            Contender(
                "sacrebleu.loop",
                lambda: [sb.sentence_bleu(h, r).score for h, r in zip(hyps, seg_refs)],
            )
        )
    return out


CONTENDERS = {"corpus": corpus_contenders, "sentence": sentence_contenders}


# -- correctness checks ----------------------------------------------------------------------


def _corpus_fields(score: Any) -> tuple:
    return (score.score, list(score.counts), list(score.totals), score.sys_len, score.ref_len)


def check_corpus(outputs: Dict[str, Any]) -> List[Dict[str, Any]]:
    checks: List[Dict[str, Any]] = []
    if "sacrebleu" not in outputs:
        return checks
    sb = outputs["sacrebleu"]
    tb_f, sb_f = _corpus_fields(outputs["turbobleu"]), _corpus_fields(sb)
    checks.append(
        {
            "what": "turbobleu.corpus_bleu == sacrebleu.corpus_bleu (score, counts, "
            "totals, sys_len, ref_len)",
            "ok": tb_f == sb_f,
            "turbobleu": True,
            "detail": "identical" if tb_f == sb_f else f"turbobleu {tb_f} != sacrebleu {sb_f}",
        }
    )
    if "bleuscore" in outputs:
        checks.append(_check_bleuscore(outputs["bleuscore"], sb))
    return checks


def _check_bleuscore(bs: Dict[str, Any], sb: Any) -> Dict[str, Any]:
    """bleuscore vs sacrebleu: lengths exactly, precisions and score to the last bit or not."""
    lengths_ok = bs["translation_length"] == sb.sys_len and bs["reference_length"] == sb.ref_len
    sb_prec = [c / t if t else 0.0 for c, t in zip(sb.counts, sb.totals)]
    prec_exact = list(bs["precisions"]) == sb_prec
    score = bs["bleu"] * 100.0
    rel = abs(score - sb.score) / abs(sb.score) if sb.score else abs(score)
    if score == sb.score:
        verdict = "identical score"
    elif rel < 1e-9:
        verdict = f"agrees to rel {rel:.1e} (not bit-identical)"
    else:
        verdict = f"DISAGREES: bleuscore {score!r} vs sacrebleu {sb.score!r} (rel {rel:.2e})"
    detail = (
        f"{verdict}; lengths {'equal' if lengths_ok else 'DIFFER'} "
        f"(bleuscore {bs['translation_length']}/{bs['reference_length']}, sacrebleu "
        f"{sb.sys_len}/{sb.ref_len}); precisions {'bit-identical' if prec_exact else 'differ'}"
    )
    return {
        "what": "bleuscore.compute vs sacrebleu.corpus_bleu",
        "turbobleu": False,
        "ok": lengths_ok and rel < 1e-9,
        "bit_identical": score == sb.score,
        "lengths_equal": lengths_ok,
        "precisions_bit_identical": prec_exact,
        "rel_diff": rel,
        "detail": detail,
    }


def check_sentence(outputs: Dict[str, Any]) -> List[Dict[str, Any]]:
    if "sacrebleu.loop" not in outputs:
        return []
    want = outputs["sacrebleu.loop"]
    checks = []
    for key in ("turbobleu.loop", "turbobleu.batch"):
        got = outputs[key]
        got = got.tolist() if hasattr(got, "tolist") else list(got)
        bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
        if len(got) != len(want):
            detail = f"{len(got)} scores for {len(want)} segments"
        elif bad:
            i = bad[0]
            detail = (
                f"{len(bad)} of {len(want)} segments differ; first: segment {i}: "
                f"turbobleu {got[i]!r} != sacrebleu {want[i]!r}"
            )
        else:
            detail = f"all {len(want)} sentence scores identical"
        checks.append(
            {
                "what": f"{key} == sacrebleu.sentence_bleu loop",
                "turbobleu": True,
                "ok": len(got) == len(want) and not bad,
                "detail": detail,
            }
        )
    return checks


CHECKS = {"corpus": check_corpus, "sentence": check_sentence}


def shout(system: System, check: Dict[str, Any]) -> None:
    """Print a failed check where nobody can miss it."""
    bar = "!" * 78
    kind = "SCORE MISMATCH" if check["turbobleu"] else "peer disagreement (not turbobleu's)"
    print(
        f"\n{bar}\n!!! {kind}: {system.pair} {system.name}\n!!! {check['what']}\n"
        f"!!! {check['detail']}\n{bar}\n",
        file=sys.stderr,
        flush=True,
    )


# -- summary and output ----------------------------------------------------------------------


def summarize(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``benchlib.summarize`` of COMPARISONS, with each geometric mean as a fraction of its
    target (for the profile hint)."""
    summary = benchlib.summarize(records, COMPARISONS)
    for s in summary:
        s["fraction_of_target"] = s["geomean"] / s["target"]
    return summary


BY_KEY = {c.key: c for c in COMPARISONS}
DETAIL_COLUMNS: List[benchlib.Column] = [
    *benchlib.SYSTEM_COLUMNS,
    *benchlib.comparison_columns(BY_KEY["corpus_sacrebleu"], "corpus tb ms", "sb ms", "sb/tb"),
    *benchlib.comparison_columns(BY_KEY["corpus_bleuscore"], None, "bs ms", "bs/tb"),
    *benchlib.comparison_columns(BY_KEY["sentence_loop"], "sent loop tb ms", "sb loop ms", "sb/tb"),
    *benchlib.comparison_columns(BY_KEY["sentence_batch"], "sent batch tb ms", None, "sb/tb"),
]

SUMMARY_COLUMNS: List[benchlib.Column] = [
    ("workload", lambda s: s["title"].split(": ")[0]),
    ("comparison", lambda s: s["title"].split(": ")[1]),
    ("systems", lambda s: str(s["systems"])),
    *benchlib.SPREAD_COLUMNS,
    ("total-time ratio", lambda s: f"{s['total_time_ratio']:.1f}x"),
    ("target", lambda s: f">= {s['target']:.0f}x"),
    (
        "met (geomean / every system)",
        lambda s: f"{benchlib.yes_no(s['met_geomean'])} / {benchlib.yes_no(s['met_all'])}",
    ),
]


def detail_rows(records: List[Dict[str, Any]]):
    return benchlib.build_table(DETAIL_COLUMNS, records)


def summary_rows(summary: List[Dict[str, Any]]):
    return benchlib.build_table(SUMMARY_COLUMNS, summary)


def profile_hint(summary: List[Dict[str, Any]]) -> str:
    if not summary:
        return "no ratios (is sacrebleu installed?)"
    worst = min(summary, key=lambda s: s["fraction_of_target"])
    return (
        f"furthest from its target: {worst['title']} at {worst['geomean']:.1f}x geomean vs "
        f">= {worst['target']:.0f}x ({100 * worst['fraction_of_target']:.0f}% of target; "
        f"needs {1 / worst['fraction_of_target']:.1f}x more speed)"
    )


def markdown(meta: Dict[str, Any], summary, records) -> str:
    m = meta["machine"]
    sh, sr = summary_rows(summary)
    dh, dr = detail_rows(records)
    commit = benchlib.commit_label(m["git"])
    checks = meta["checks"]
    lines = [
        f"### turbobleu vs sacrebleu{' and bleuscore' if 'bleuscore' in meta['peers'] else ''}"
        f" on WMT23 ({meta['systems']} systems, 13a)",
        "",
        f"Median of {meta['args']['repeats']} interleaved runs per contender (fewer for runs "
        f"over {meta['args']['slow_seconds']:g} s), ratio = peer time / turbobleu time; "
        "tokenization included; turbobleu on one thread"
        + (
            ", bleuscore on " + meta["env"].get("RAYON_NUM_THREADS", "all") + " thread(s)"
            if "bleuscore" in meta["peers"]
            else ""
        )
        + ".",
        "",
        *benchlib.md_summary_and_details((sh, sr), (dh, dr)),
        f"Scores: turbobleu == sacrebleu on {checks['turbobleu_ok']}/{checks['turbobleu_total']} "
        f"checks (corpus fields and every sentence score, compared with `==`)"
        + (f"; bleuscore: {checks['bleuscore_summary']}" if checks.get("bleuscore_summary") else "")
        + ".",
        "",
        f"Machine: {benchlib.machine_line(m)}; turbobleu implementation "
        f"`{meta['turbobleu_implementation']}`, commit {commit}; {meta['date']}; "
        f"1-min load average {benchlib.load_cell(m, 'loadavg_start')} at start, "
        f"{benchlib.load_cell(m, 'loadavg_end')} at end (above the CPU count means other work "
        "shared the machine).",
        f"Command: `{meta['command']}`",
        "",
    ]
    return "\n".join(lines)


def bleuscore_summary(records: List[Dict[str, Any]]) -> Optional[str]:
    checks = [
        c
        for r in records
        for c in r["workloads"].get("corpus", {}).get("checks", [])
        if not c["turbobleu"]
    ]
    if not checks:
        return None
    identical = sum(c["bit_identical"] for c in checks)
    agree = sum(c["ok"] for c in checks)
    lengths = sum(c.get("lengths_equal", False) for c in checks)
    precs = sum(c.get("precisions_bit_identical", False) for c in checks)
    worst = max(c["rel_diff"] for c in checks)
    return (
        f"hyp/ref lengths equal to sacrebleu's on {lengths}/{len(checks)} systems, n-gram "
        f"precisions bit-identical on {precs}/{len(checks)}, score (x100) bit-identical on "
        f"{identical}/{len(checks)} and within 1e-9 relative on {agree}/{len(checks)} "
        f"(largest relative difference {worst:.1e})"
    )


# -- profiling -------------------------------------------------------------------------------


def profile_turbobleu(libs: Dict[str, Any], systems: List[System], workloads: List[str]) -> str:
    largest = max(systems, key=lambda s: s.segments * len(s.refs))
    out = [
        f"cProfile of turbobleu on {largest.pair} {largest.name} "
        f"({largest.segments} segments, {len(largest.refs)} refs), top by own time:"
    ]
    for workload in workloads:
        for c in CONTENDERS[workload](libs, largest):
            if not c.key.startswith("turbobleu"):
                continue
            prof = cProfile.Profile()
            prof.runcall(c.run)
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(8)
            body = buf.getvalue()
            start = body.find("   ncalls")
            out.append(f"\n--- {workload}: {c.key}\n{body[start:].rstrip()}")
    return "\n".join(out)


# -- main ------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    env = benchlib.pin_threads(args.peer_threads)  # before NumPy / the libraries load
    libs = load_libraries()
    if "bleuscore" in libs:
        libs["_bleuscore_kwargs"] = bleuscore_kwargs(libs["bleuscore"])
    tb = libs["turbobleu"]
    peers = [k for k in ("sacrebleu", "bleuscore") if k in libs]

    systems, machine = benchlib.load_and_describe(
        args, ["turbobleu", "sacrebleu", "bleuscore", "numpy"]
    )
    print(f"turbobleu implementation: {tb.implementation}; thread env: {env}")
    print(
        f"{len(systems)} systems from {args.data}; workloads {args.workloads}; "
        f"repeats {args.repeats} (slow: {args.slow_repeats} over {args.slow_seconds:g} s)\n",
        flush=True,
    )

    records: List[Dict[str, Any]] = []
    failures = 0
    for n, s in enumerate(systems, 1):
        rec = benchlib.system_record(s, ref_names=s.ref_names)
        for workload in args.workloads:
            outputs, timings = benchlib.time_with(args, CONTENDERS[workload](libs, s))
            checks = CHECKS[workload](outputs)
            for check in checks:
                if not check["ok"]:
                    shout(s, check)
                    failures += check["turbobleu"]
            rec["workloads"][workload] = benchlib.workload_entry(timings, checks)
        records.append(rec)
        parts = [
            f"{c.key} {benchlib.ratio_cell(ratio(rec, c))}" for c in COMPARISONS if ratio(rec, c)
        ]
        tb_ms = [
            f"{k} {t['median_ms']:.1f} ms"
            for w in rec["workloads"].values()
            for k, t in w["timings"].items()
            if k.startswith("turbobleu")
        ]
        print(
            f"[{n}/{len(systems)}] {s.pair} {s.name} ({s.segments} segs, {len(s.refs)} refs): "
            f"{'; '.join(tb_ms)} | {', '.join(parts)}",
            flush=True,
        )

    summary = summarize(records)
    benchlib.print_tables(detail_rows(records), summary_rows(summary))
    for s_ in summary:
        print(
            f"AGGREGATE {s_['comparison']}: geomean {s_['geomean']:.2f}x, min "
            f"{s_['min']:.2f}x ({s_['min_system']}), target >= {s_['target']:.0f}x"
        )
    hint = profile_hint(summary)
    print(f"\nProfile hint: {hint}")

    # Did turbobleu stay on one thread? (CPU time about equal to wall time.)
    cpw = [
        t["cpu_per_wall"]
        for r in records
        for w in r["workloads"].values()
        for k, t in w["timings"].items()
        if k.startswith("turbobleu")
    ]
    max_cpw = max(cpw) if cpw else float("nan")
    if max_cpw > 1.3:
        print(
            f"WARNING: turbobleu used {max_cpw:.2f} CPU-seconds per second: more than one thread?",
            file=sys.stderr,
        )

    tb_checks = [
        c for r in records for w in r["workloads"].values() for c in w["checks"] if c["turbobleu"]
    ]
    meta = {
        **benchlib.run_meta("bench_sacrebleu", args, env, machine),
        "peers": peers,
        "turbobleu_implementation": tb.implementation,
        "systems": len(systems),
        "turbobleu_max_cpu_per_wall": max_cpw,
        "checks": {
            "turbobleu_ok": sum(c["ok"] for c in tb_checks),
            "turbobleu_total": len(tb_checks),
            "bleuscore_summary": bleuscore_summary(records),
        },
    }
    meta["machine"]["loadavg_end"] = list(os.getloadavg())
    print(
        f"Checks: turbobleu == sacrebleu on {meta['checks']['turbobleu_ok']}/"
        f"{meta['checks']['turbobleu_total']}"
        + (
            f"; bleuscore: {meta['checks']['bleuscore_summary']}"
            if meta["checks"]["bleuscore_summary"]
            else ""
        )
    )
    print(f"turbobleu max CPU/wall: {max_cpw:.2f} (1.0 = one thread)")

    if args.profile:
        print("\n" + profile_turbobleu(libs, systems, args.workloads))

    payload = {"meta": meta, "summary": summary, "profile_hint": hint, "systems": records}
    benchlib.save_results(args, payload, markdown(meta, summary, records))
    if failures:
        print(
            f"\n{failures} turbobleu SCORE MISMATCH(ES) vs sacrebleu - see above", file=sys.stderr
        )
    return 1 if failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
