#!/usr/bin/env python3
"""turbobleu's GLEU and evaluate metrics vs NLTK's gleu_score and evaluate's scripts, on WMT23.

Workloads, each on every chosen system (default: the he-en pair, 1,910 segments, 2 references):

* ``corpus_gleu``   - one ``corpus_gleu(list_of_references, hypotheses)`` call on whitespace
  tokens (every system's split once, before anything is timed): ``turbobleu.nltk`` vs
  ``nltk.translate.gleu_score``.
* ``sentence_gleu`` - one ``sentence_gleu(references, hypothesis)`` call per segment, in a loop.
* ``google_bleu``   - evaluate's ``google_bleu`` script's ``_compute`` on the strings: its 13a
  tokenizer over every string (a fresh tokenizer per run: the script's tokenizer caches lines, so
  a warm cache would time only the lines seen before) then NLTK's ``corpus_gleu``; vs
  ``turbobleu.evaluate.load("google_bleu").compute``.
* ``sacrebleu``     - evaluate's ``sacrebleu`` script's ``_compute`` (the references transposed
  into streams, ``sacrebleu.corpus_bleu``); vs ``turbobleu.evaluate.load("sacrebleu").compute``.

The evaluate scripts are reproduced here from their published code (the Hub is not reached); the
evaluate package's own wrapping (Arrow tables, features) is the same for both contenders and is
not timed. Contenders alternate in rounds and the median of the timed runs is reported, with
ratios peer / turbobleu; every result is checked with ``==`` and a mismatch fails the run.
turbobleu runs on one thread (``pin_threads``). Run ``python bench/bench_gleu.py --help``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List

import benchlib
from benchlib import Contender, System

# The targets (peer time / turbobleu time, one thread).
TARGETS = {"corpus_gleu": 30.0, "sentence_gleu": 30.0, "google_bleu": 50.0, "sacrebleu": 50.0}


def parse_args(argv: List[str]) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__ or "")
    p.set_defaults(pairs=["he-en"])
    p.add_argument("--systems", type=int, default=0, help="systems per pair (0: all)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per contender")
    p.add_argument("--name", default="gleu", help="results file name prefix")
    p.add_argument("--out-dir", type=Path, default=benchlib.RESULTS_DIR)
    p.add_argument("--no-write", action="store_true", help="print only; write no results file")
    return p.parse_args(argv)


def workloads(system: System) -> Dict[str, List[Contender]]:
    import sacrebleu
    from nltk.translate import gleu_score
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from turbobleu import evaluate as tbe
    from turbobleu import nltk as tb

    hyps = [line.split() for line in system.hyps]
    refs = [[line.split() for line in group] for group in zip(*system.refs)]
    predictions = list(system.hyps)
    references = [list(group) for group in zip(*system.refs)]

    def evaluate_google_bleu() -> Dict[str, float]:
        tokenizer = Tokenizer13a()  # fresh: its lru_cache is keyed by the instance

        def tokenize(line: str) -> List[str]:
            return tokenizer(line).split()

        tokenized_refs = [[tokenize(r) for r in group] for group in references]
        tokenized = [tokenize(p) for p in predictions]
        return {"google_bleu": gleu_score.corpus_gleu(tokenized_refs, tokenized, 1, 4)}

    def evaluate_sacrebleu() -> Dict[str, Any]:
        per_prediction = len(references[0])
        streams = [[group[i] for group in references] for i in range(per_prediction)]
        out = sacrebleu.corpus_bleu(predictions, streams)
        keys = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")
        return {key: getattr(out, key) for key in keys}

    google_bleu = tbe.load("google_bleu")
    sacre = tbe.load("sacrebleu")
    return {
        "corpus_gleu": [
            Contender("turbobleu", lambda: tb.corpus_gleu(refs, hyps)),
            Contender("peer", lambda: gleu_score.corpus_gleu(refs, hyps)),
        ],
        "sentence_gleu": [
            Contender("turbobleu", lambda: [tb.sentence_gleu(r, h) for r, h in zip(refs, hyps)]),
            Contender("peer", lambda: [gleu_score.sentence_gleu(r, h) for r, h in zip(refs, hyps)]),
        ],
        "google_bleu": [
            Contender(
                "turbobleu",
                lambda: google_bleu.compute(predictions=predictions, references=references),
            ),
            Contender("peer", evaluate_google_bleu),
        ],
        "sacrebleu": [
            Contender(
                "turbobleu", lambda: sacre.compute(predictions=predictions, references=references)
            ),
            Contender("peer", evaluate_sacrebleu),
        ],
    }


def main(argv: List[str]) -> int:
    args = parse_args(argv)
    threads = benchlib.pin_threads("1")
    systems = benchlib.load_wmt23(args.data, args.pairs)
    if args.systems:
        per_pair: Dict[str, List[System]] = {}
        for system in systems:
            per_pair.setdefault(system.pair, []).append(system)
        systems = [s for group in per_pair.values() for s in group[: args.systems]]
    info = benchlib.machine_info(["turbobleu", "nltk", "sacrebleu", "evaluate"])
    print(benchlib.machine_line(info))
    results: List[Dict[str, Any]] = []
    failed = False
    # Every system's token lists are made before anything is timed: lists split after the peers'
    # runs (millions of short-lived objects) lie scattered in the heap, and reading them then
    # costs both contenders cache misses (turbobleu's corpus_gleu measured 2x slower that way).
    prepared = [(system, workloads(system)) for system in systems]
    for system, contenders_of in prepared:
        for workload, contenders in contenders_of.items():
            outputs, timings = benchlib.time_interleaved(contenders, args.repeats, 2000.0, 3)
            same = outputs["turbobleu"] == outputs["peer"]
            if not same:
                failed = True
                print(f"FAIL {system.pair}/{system.name} {workload}: results differ")
            tb_ms, peer_ms = timings["turbobleu"].median_ms, timings["peer"].median_ms
            results.append(
                {
                    "pair": system.pair,
                    "system": system.name,
                    "segments": system.segments,
                    "references": len(system.refs),
                    "workload": workload,
                    "turbobleu": timings["turbobleu"].as_dict(),
                    "peer": timings["peer"].as_dict(),
                    "ratio": peer_ms / tb_ms,
                    "equal": same,
                }
            )
            print(
                f"{system.pair}/{system.name:<14} {workload:<14} turbobleu {tb_ms:8.2f} ms  "
                f"peer {peer_ms:9.2f} ms  ratio {peer_ms / tb_ms:6.1f}x  equal={same}"
            )
    rows = []
    for workload, target in TARGETS.items():
        mine = [r for r in results if r["workload"] == workload]
        if not mine:
            continue
        ratios = [r["ratio"] for r in mine]
        rows.append(
            [
                workload,
                str(len(mine)),
                f"{sum(r['peer']['median_ms'] for r in mine):.1f}",
                f"{sum(r['turbobleu']['median_ms'] for r in mine):.2f}",
                f"{benchlib.geomean(ratios):.1f}x",
                f"{min(ratios):.1f}x",
                f"{max(ratios):.1f}x",
                f">= {target:.0f}x",
                "yes" if min(ratios) >= target else "no",
            ]
        )
    headers = [
        "workload",
        "systems",
        "peer ms (sum)",
        "turbobleu ms (sum)",
        "geomean",
        "min",
        "max",
        "target",
        "met (min)",
    ]
    print()
    print(benchlib.text_table(headers, rows))
    markdown = (
        "### turbobleu GLEU / evaluate metrics vs NLTK 3.10 gleu_score and evaluate's scripts\n\n"
        f"{benchlib.machine_line(info)}; threads: {threads}. Median of {args.repeats} "
        "interleaved runs; ratio = peer time / turbobleu time.\n\n"
        + benchlib.md_table(headers, rows)
    )
    payload = {"machine": info, "threads": threads, "repeats": args.repeats, "results": results}
    return benchlib.finish(args, payload, markdown + "\n", failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
