#!/usr/bin/env python3
"""turbobleu's chrF / chrF++ vs sacrebleu (and fastchrf's pairwise matrix), side by side in one
process, on every WMT23 system.

Workloads:

* ``corpus``   - corpus chrF and chrF++ on every system: ``turbobleu.corpus_chrf`` vs
  ``sacrebleu.corpus_chrf`` (``word_order=0`` and ``2``), fresh calls, nothing cached.
* ``sentence`` - one chrF per segment on every system: ``turbobleu.CHRF().sentence_scores(hyps,
  refs)`` (one call) and a loop of ``turbobleu.sentence_chrf`` vs a loop of
  ``sacrebleu.sentence_chrf``.
* ``pairwise`` - per language pair, the first system's first N hypotheses against refA's first N
  references (N = ``--matrix``, 256): ``turbobleu.pairwise_chrf(..., threads=1)`` vs
  ``fastchrf.pairwise_chrf`` (Rust, optional; ``RAYON_NUM_THREADS`` = ``--peer-threads``).

Contenders alternate in rounds and the median of the timed runs is reported, with ratios
peer / turbobleu. Scores are checked with ``==`` against sacrebleu (corpus, every sentence score;
for the matrix: every cell against fastchrf's and 64 cells against sacrebleu's sentence chrF). A
mismatch is printed loudly and makes the exit status 1.

Run ``python bench/bench_chrf.py --help``; see bench/README.md.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Dict, List, Optional

import benchlib
from benchlib import Comparison, Contender, System, ratio

QUICK_PAIR = "en-de"


COMPARISONS = [
    Comparison(
        "corpus_chrf", "corpus chrF: sacrebleu / turbobleu", "corpus", "sb.chrF", "tb.chrF", 50
    ),
    Comparison(
        "corpus_chrfpp",
        "corpus chrF++: sacrebleu / turbobleu",
        "corpus",
        "sb.chrF++",
        "tb.chrF++",
        50,
    ),
    Comparison(
        "sentence_batch",
        "sentence chrF: sacrebleu loop / turbobleu CHRF.sentence_scores",
        "sentence",
        "sb.loop",
        "tb.batch",
        50,
    ),
    Comparison(
        "sentence_loop",
        "sentence chrF: sacrebleu loop / turbobleu sentence_chrf loop",
        "sentence",
        "sb.loop",
        "tb.loop",
        0,
    ),
    Comparison(
        "pairwise",
        "pairwise chrF matrix: fastchrf / turbobleu (one thread each)",
        "pairwise",
        "fastchrf",
        "tb.matrix",
        3,
    ),
]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    benchlib.add_workloads_option(p, ("corpus", "sentence", "pairwise"))
    benchlib.add_timing_options(p, repeats=5, slow_repeats=3)
    p.add_argument("--matrix", type=int, default=256, help="hypotheses and references per matrix")
    p.add_argument(
        "--peer-threads", default="1", help="RAYON_NUM_THREADS for fastchrf (a number or 'auto')"
    )
    benchlib.add_results_options(
        p,
        "results file stem (default: chrf, or chrf-quick)",
        quick=f"{QUICK_PAIR} only, 2 repeats",
    )
    args = p.parse_args(argv)
    benchlib.apply_quick(args, [QUICK_PAIR])
    benchlib.require_positive(p, args, "repeats", "slow_repeats", "matrix")
    args.name = benchlib.results_name(args, "chrf")
    return args


def load_libraries() -> Dict[str, Any]:
    import sacrebleu

    import turbobleu

    libs: Dict[str, Any] = {"turbobleu": turbobleu, "sacrebleu": sacrebleu}
    try:
        import fastchrf

        libs["fastchrf"] = fastchrf
    except ImportError:
        print("NOTE: fastchrf is not installed; the pairwise peer is skipped", file=sys.stderr)
    return libs


# -- workloads: (contenders, check of their outputs) -------------------------------------------
def corpus_workload(libs: Dict[str, Any], s: System) -> List[Contender]:
    tb, sb = libs["turbobleu"], libs["sacrebleu"]
    hyps, refs = s.hyps, s.refs
    out = []
    for name, order in (("chrF", 0), ("chrF++", 2)):
        out.append(
            Contender(f"tb.{name}", lambda o=order: tb.corpus_chrf(hyps, refs, word_order=o))
        )
        out.append(
            Contender(f"sb.{name}", lambda o=order: sb.corpus_chrf(hyps, refs, word_order=o))
        )
    return out


def check_corpus(outputs: Dict[str, Any], libs: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [
        {
            "what": f"turbobleu.corpus_chrf == sacrebleu.corpus_chrf ({name}: score, text)",
            "ok": (outputs[f"tb.{name}"].score, str(outputs[f"tb.{name}"]))
            == (outputs[f"sb.{name}"].score, str(outputs[f"sb.{name}"])),
        }
        for name in ("chrF", "chrF++")
    ]


def sentence_workload(libs: Dict[str, Any], s: System) -> List[Contender]:
    tb, sb = libs["turbobleu"], libs["sacrebleu"]
    hyps, refs, seg_refs = s.hyps, s.refs, s.refs_per_segment()
    return [
        Contender("tb.batch", lambda: tb.CHRF().sentence_scores(hyps, refs).tolist()),
        Contender(
            "tb.loop", lambda: [tb.sentence_chrf(h, r).score for h, r in zip(hyps, seg_refs)]
        ),
        Contender(
            "sb.loop", lambda: [sb.sentence_chrf(h, r).score for h, r in zip(hyps, seg_refs)]
        ),
    ]


def check_sentence(outputs: Dict[str, Any], libs: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [
        {
            "what": f"turbobleu {key} == sacrebleu.sentence_chrf loop (every segment)",
            "ok": outputs[key] == outputs["sb.loop"],
        }
        for key in ("tb.batch", "tb.loop")
    ]


def matrix_inputs(s: System, n: int) -> tuple:
    return s.hyps[:n], s.refs[0][:n]


def pairwise_workload(libs: Dict[str, Any], s: System, n: int) -> List[Contender]:
    tb = libs["turbobleu"]
    hyps, refs = matrix_inputs(s, n)
    out = [Contender("tb.matrix", lambda: tb.pairwise_chrf(hyps, refs, threads=1))]
    if "fastchrf" in libs:
        fc = libs["fastchrf"]
        out.append(Contender("fastchrf", lambda: fc.pairwise_chrf([hyps], [refs])[0]))
    return out


def check_pairwise(
    outputs: Dict[str, Any], libs: Dict[str, Any], s: System, n: int
) -> List[Dict[str, Any]]:
    hyps, refs = matrix_inputs(s, n)
    got = outputs["tb.matrix"]
    metric = libs["sacrebleu"].CHRF()
    cells = [(i, (7 * i + 3) % len(refs)) for i in range(0, len(hyps), max(1, len(hyps) // 64))]
    checks = [
        {
            "what": f"turbobleu.pairwise_chrf == sacrebleu sentence chrF ({len(cells)} cells)",
            "ok": all(
                got[i, j] == metric.sentence_score(hyps[i], [refs[j]]).score for i, j in cells
            ),
        }
    ]
    if "fastchrf" in outputs:
        checks.append(
            {
                "what": "turbobleu.pairwise_chrf == fastchrf.pairwise_chrf (every cell)",
                "ok": got.tolist() == [list(row) for row in outputs["fastchrf"]],
            }
        )
    return checks


# -- summary ----------------------------------------------------------------------------------
def detail_rows(records: List[Dict[str, Any]]):
    headers = ["pair", "system", "segs", "refs", "workload", "turbobleu ms", "peer ms", "ratio"]
    rows = []
    for r in records:
        for c in COMPARISONS:
            t = r["workloads"].get(c.workload, {}).get("timings", {})
            if c.turbo in t:
                label = c.title.split(":")[0] + (
                    f" ({c.turbo})" if c.workload == "sentence" else ""
                )
                rows.append(
                    [
                        r["pair"],
                        r["system"],
                        str(r["segments"]),
                        str(r["refs"]),
                        label,
                        benchlib.ms_cell(t, c.turbo),
                        benchlib.ms_cell(t, c.peer),
                        benchlib.ratio_cell(ratio(r, c)),
                    ]
                )
    return headers, rows


def summary_rows(summary: List[Dict[str, Any]]):
    headers = ["comparison", "timed", "geomean", "min (where)", "max", "target", "met (every one)"]
    rows = [
        [
            s["title"],
            str(s["systems"]),
            *[cell(s) for _, cell in benchlib.SPREAD_COLUMNS],
            f">= {s['target']:.0f}x" if s["target"] else "(info)",
            benchlib.yes_no(s["met_all"]) if s["target"] else "-",
        ]
        for s in summary
    ]
    return headers, rows


def markdown(meta: Dict[str, Any], summary, records) -> str:
    m = meta["machine"]
    commit = benchlib.commit_label(m["git"])
    sh, sr = summary_rows(summary)
    dh, dr = detail_rows(records)
    return "\n".join(
        [
            f"# chrF benchmark ({meta['date']})",
            "",
            f"`{meta['command']}` at {commit}; {benchlib.machine_line(m)}.",
            f"Repeats {meta['args']['repeats']} (slow: {meta['args']['slow_repeats']}); "
            f"matrix {meta['args']['matrix']} x {meta['args']['matrix']}; thread env "
            f"{meta['env']}. Checks: {meta['checks_ok']}/{meta['checks_total']} equal.",
            "",
            benchlib.md_table(sh, sr),
            "",
            "Per system (median ms; ratio = peer / turbobleu):",
            "",
            benchlib.md_table(dh, dr),
            "",
        ]
    )


def run(args: argparse.Namespace) -> int:
    env = benchlib.pin_threads(args.peer_threads)  # before NumPy / the libraries load
    libs = load_libraries()
    systems, machine = benchlib.load_and_describe(
        args, ["turbobleu", "sacrebleu", "fastchrf", "numpy"]
    )
    print(f"turbobleu implementation: {libs['turbobleu'].implementation}; thread env: {env}\n")
    first_of_pair = {}
    for s in systems:
        first_of_pair.setdefault(s.pair, s)
    work: Dict[str, Callable[[System], List[Contender]]] = {
        "corpus": lambda s: corpus_workload(libs, s),
        "sentence": lambda s: sentence_workload(libs, s),
        "pairwise": lambda s: pairwise_workload(libs, s, args.matrix),
    }
    checks_of: Dict[str, Callable[[Dict[str, Any], System], List[Dict[str, Any]]]] = {
        "corpus": lambda o, s: check_corpus(o, libs),
        "sentence": lambda o, s: check_sentence(o, libs),
        "pairwise": lambda o, s: check_pairwise(o, libs, s, args.matrix),
    }
    records: List[Dict[str, Any]] = []
    failures = 0
    for n, s in enumerate(systems, 1):
        rec = benchlib.system_record(s)
        for workload in args.workloads:
            if workload == "pairwise" and first_of_pair[s.pair] is not s:
                continue  # one matrix per language pair
            outputs, timings = benchlib.time_with(args, work[workload](s))
            checks = checks_of[workload](outputs, s)
            for check in checks:
                if not check["ok"]:
                    failures += 1
                    print(f"!!! MISMATCH {s.pair} {s.name}: {check['what']}", file=sys.stderr)
            rec["workloads"][workload] = benchlib.workload_entry(timings, checks)
        records.append(rec)
        parts = [
            f"{c.key} {benchlib.ratio_cell(ratio(rec, c))}" for c in COMPARISONS if ratio(rec, c)
        ]
        print(f"[{n}/{len(systems)}] {s.pair} {s.name}: {', '.join(parts)}", flush=True)

    summary = benchlib.summarize(records, COMPARISONS)
    benchlib.print_tables(detail_rows(records), summary_rows(summary))
    all_checks = [c for r in records for w in r["workloads"].values() for c in w["checks"]]
    meta = {
        **benchlib.run_meta("bench_chrf", args, env, machine),
        "checks_ok": sum(c["ok"] for c in all_checks),
        "checks_total": len(all_checks),
    }
    print(f"Checks: {meta['checks_ok']}/{meta['checks_total']} equal")
    if failures:
        print(f"\n{failures} MISMATCH(ES) - see above", file=sys.stderr)
    payload = {"meta": meta, "summary": summary, "systems": records}
    return benchlib.finish(args, payload, markdown(meta, summary, records), bool(failures))


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
