#!/usr/bin/env python3
"""RL reward workload: per-sentence BLEU of sampled token-id sequences, turbobleu against NLTK,
sacrebleu (ids as strings), fast-bleu and bleuscore, side by side in one run.

Workloads (seeded, synthetic ids from a 32k vocabulary; each reference and hypothesis is a noisy
copy of a hidden 64-id "answer", so n-grams match as they do between samples and references):

* ``flat`` - 4096 hypotheses of ~64 ids, each with its own 4 references.
* ``grpo`` - 256 prompts x 16 samples; the 4 references of a prompt serve its 16 samples.

turbobleu gets the same Python lists of ints that NLTK gets (the conversion is timed), with
``threads=1`` and with every core. The per-sentence peers run in a Python loop over a subset of
the rows (``--peer-rows``) and are reported per sentence. Exactness is checked on that subset:
turbobleu's sacrebleu recipe == ``sacrebleu.sentence_bleu`` and its NLTK recipe == NLTK's
``sentence_bleu`` (method1), with ``==``; a mismatch prints a banner and exits 1.

``--memory`` adds the memory check: the flat workload scored 1,000 times in a loop (resident
memory sampled along the way), and 8 Python threads scoring concurrently vs serially.

Run ``python bench/bench_rl.py --help``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
import warnings
from typing import Any, Dict, List, Optional, Tuple

import benchlib
from benchlib import Contender

VOCAB = 32_000
LENGTH = 64
REFS = 4


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--repeats", type=int, default=7, help="timed runs per contender")
    p.add_argument(
        "--peer-rows",
        type=int,
        default=256,
        help="rows the per-sentence peers score per run (a subset of the workload)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="turbobleu's 'all threads' count (default: every usable core)",
    )
    p.add_argument(
        "--peer-threads", default="1", help="RAYON_NUM_THREADS for bleuscore: a number or 'auto'"
    )
    p.add_argument(
        "--memory",
        action="store_true",
        help="also run the memory loop (1,000 calls) and the 8-thread check",
    )
    p.add_argument("--memory-iterations", type=int, default=1000)
    benchlib.add_results_options(
        p,
        "results file stem (default: rl or rl-quick)",
        quick="smoke run: 2 repeats, 64 peer rows",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.repeats = min(args.repeats, 2)
        args.peer_rows = min(args.peer_rows, 64)
        args.memory_iterations = min(args.memory_iterations, 50)
    args.name = benchlib.results_name(args, "rl")
    return args


# -- data ------------------------------------------------------------------------------------------
def noisy_copy(rng: random.Random, answer: List[int]) -> List[int]:
    """15% substitutions, 5% deletions, 5% insertions."""
    out: List[int] = []
    for tok in answer:
        r = rng.random()
        if r < 0.15:
            out.append(rng.randrange(VOCAB))
        elif r < 0.20:
            continue
        elif r < 0.25:
            out.extend((tok, rng.randrange(VOCAB)))
        else:
            out.append(tok)
    return out


def make_workloads(
    seed: int = 2024,
) -> Dict[str, Tuple[List[List[int]], List[List[List[int]]], int]]:
    rng = random.Random(seed)
    flat_h, flat_r = [], []
    for _ in range(4096):
        answer = [rng.randrange(VOCAB) for _ in range(LENGTH)]
        flat_r.append([noisy_copy(rng, answer) for _ in range(REFS)])
        flat_h.append(noisy_copy(rng, answer))
    grpo_h, grpo_r = [], []
    for _ in range(256):
        answer = [rng.randrange(VOCAB) for _ in range(LENGTH)]
        grpo_r.append([noisy_copy(rng, answer) for _ in range(REFS)])
        grpo_h.extend(noisy_copy(rng, answer) for _ in range(16))
    return {"flat": (flat_h, flat_r, 1), "grpo": (grpo_h, grpo_r, 16)}


# -- peers -----------------------------------------------------------------------------------------
def load_peers() -> Dict[str, Any]:
    peers: Dict[str, Any] = {}
    for name in ("nltk", "sacrebleu", "fast_bleu", "bleuscore"):
        try:
            peers[name] = __import__(name)
        except ImportError as exc:
            print(f"NOTE: {name} is not importable ({exc}); skipping it", file=sys.stderr)
    if "nltk" in peers:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        peers["nltk_sentence_bleu"] = sentence_bleu
        peers["nltk_method1"] = SmoothingFunction().method1
    return peers


def contenders(
    tb: Any,
    peers: Dict[str, Any],
    hyps: List[List[int]],
    refs: List[List[List[int]]],
    group: int,
    threads: int,
    peer_rows: int,
) -> Tuple[List[Contender], Dict[str, int]]:
    """The contenders of one workload and how many sentences each scores per run."""
    n = len(hyps)
    nltk_recipe = tb.NLTKRecipe(smoothing_function=1)
    per_hyp_refs = refs if group == 1 else [refs[i // group] for i in range(n)]
    out: List[Contender] = []
    rows: Dict[str, int] = {}

    def add(key: str, fn: Any, count: int) -> None:
        out.append(Contender(key, fn))
        rows[key] = count

    for t, tag in ((1, "1 thread"), (threads, f"{threads} threads")):
        if group == 1:
            add(
                f"turbobleu sacrebleu-recipe ({tag})",
                lambda t=t: tb.sentence_bleu_batch(hyps, refs, threads=t),
                n,
            )
            add(
                f"turbobleu nltk-recipe ({tag})",
                lambda t=t: tb.sentence_bleu_batch(hyps, refs, nltk_recipe, threads=t),
                n,
            )
        else:
            add(
                f"turbobleu sacrebleu-recipe, prepare+score ({tag})",
                lambda t=t: tb.ReferenceSets(refs, threads=t).score(
                    hyps, group_size=group, threads=t
                ),
                n,
            )
            add(
                f"turbobleu nltk-recipe, prepare+score ({tag})",
                lambda t=t: tb.ReferenceSets(refs, threads=t).score(
                    hyps, nltk_recipe, group_size=group, threads=t
                ),
                n,
            )
            prepared = tb.ReferenceSets(refs, threads=1)
            add(
                f"turbobleu sacrebleu-recipe, prepared refs ({tag})",
                lambda t=t, p=prepared: p.score(hyps, group_size=group, threads=t),
                n,
            )
    sub_h, sub_r = hyps[:peer_rows], per_hyp_refs[:peer_rows]
    if "nltk" in peers:
        sb, m1 = peers["nltk_sentence_bleu"], peers["nltk_method1"]
        add(
            "nltk sentence_bleu loop (method1)",
            lambda: [sb(r, h, smoothing_function=m1) for h, r in zip(sub_h, sub_r)],
            len(sub_h),
        )
    # String peers get their strings built once, untimed.
    sub_hs = [" ".join(map(str, h)) for h in sub_h]
    sub_rs = [[" ".join(map(str, r)) for r in rs] for rs in sub_r]
    if "sacrebleu" in peers:
        sacre = peers["sacrebleu"]
        add(
            "sacrebleu sentence_bleu loop (ids as strings)",
            lambda: [
                sacre.sentence_bleu(h, r, tokenize="none").score for h, r in zip(sub_hs, sub_rs)
            ],
            len(sub_h),
        )
    if "fast_bleu" in peers:
        fb = peers["fast_bleu"]
        tok_h = [h.split() for h in sub_hs]
        tok_r = [[r.split() for r in rs] for rs in sub_rs]
        add(
            "fast-bleu loop (BLEU(refs).get_score([hyp]), method1)",
            lambda: [
                fb.BLEU(r, {4: (0.25,) * 4}, smoothing_func=1).get_score([h])[4][0]
                for h, r in zip(tok_h, tok_r)
            ],
            len(sub_h),
        )
    if "bleuscore" in peers:
        bs = peers["bleuscore"]
        add(
            "bleuscore loop (compute per sentence, smooth=True)",
            lambda: [
                bs.compute([r], [h], max_order=4, smooth=True)["bleu"]
                for h, r in zip(sub_hs, sub_rs)
            ],
            len(sub_h),
        )
    return out, rows


# -- checks ----------------------------------------------------------------------------------------
def checks(outputs: Dict[str, Any], peer_rows: int) -> List[Dict[str, Any]]:
    found: List[Dict[str, Any]] = []

    def pick(prefix: str) -> Optional[Any]:
        for key, value in outputs.items():
            if key.startswith(prefix):
                return value
        return None

    tb_sacre, tb_nltk = pick("turbobleu sacrebleu-recipe"), pick("turbobleu nltk-recipe")
    for peer, mine, what in (
        ("sacrebleu sentence_bleu", tb_sacre, "sacrebleu recipe"),
        ("nltk sentence_bleu", tb_nltk, "NLTK recipe (method1)"),
    ):
        theirs = pick(peer)
        if theirs is None or mine is None:
            continue
        got = [float(x) for x in mine[: len(theirs)]]
        bad = [i for i, (a, b) in enumerate(zip(got, theirs)) if a != b]
        found.append(
            {
                "what": f"turbobleu {what} == {peer} on {len(theirs)} rows",
                "ok": not bad,
                "turbobleu": True,
                "detail": "identical"
                if not bad
                else f"{len(bad)} differ, first row "
                f"{bad[0]}: {got[bad[0]]!r} != {theirs[bad[0]]!r}",
            }
        )
    # Threads never change a result.
    for prefix in ("turbobleu sacrebleu-recipe", "turbobleu nltk-recipe"):
        runs = [v for k, v in outputs.items() if k.startswith(prefix)]
        same = all(list(r) == list(runs[0]) for r in runs)
        found.append(
            {
                "what": f"{prefix}: every thread count and path gives the same scores",
                "ok": same,
                "turbobleu": True,
                "detail": "identical" if same else "DIFFER",
            }
        )
    fast, nl = pick("fast-bleu"), pick("nltk sentence_bleu")
    if fast is not None and nl is not None:
        diff = max(abs(a - b) for a, b in zip(fast, nl))
        exact = sum(a == b for a, b in zip(fast, nl))
        found.append(
            {
                "what": "fast-bleu vs NLTK method1 (informational)",
                "ok": True,
                "turbobleu": False,
                "detail": f"{exact}/{len(nl)} bit-identical, max |diff| {diff:.3g}",
            }
        )
    return found


# -- memory ----------------------------------------------------------------------------------------
def rss_mib() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def memory_check(tb: Any, hyps: Any, refs: Any, iterations: int, threads: int) -> Dict[str, Any]:
    samples: Dict[int, float] = {}
    first = tb.sentence_bleu_batch(hyps, refs, threads=threads)
    prepared = tb.ReferenceSets(refs, threads=threads)
    t0 = time.perf_counter()
    for i in range(1, iterations + 1):
        out = tb.sentence_bleu_batch(hyps, refs, threads=threads)
        out2 = prepared.score(hyps, threads=threads)
        if i in (10, 100) or i % 250 == 0 or i == iterations:
            samples[i] = rss_mib()
    elapsed = time.perf_counter() - t0
    same = out.tolist() == first.tolist() and out2.tolist() == first.tolist()
    # 8 Python threads at once vs serial.
    jobs = [(hyps[k::8], refs[k::8]) for k in range(8)]
    serial = [tb.sentence_bleu_batch(h, r, threads=2).tolist() for h, r in jobs]
    results: List[Any] = [None] * 8
    barrier = threading.Barrier(8)

    def run(k: int) -> None:
        barrier.wait()
        results[k] = [
            tb.sentence_bleu_batch(jobs[k][0], jobs[k][1], threads=2).tolist() for _ in range(5)
        ]

    workers = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    concurrent_ok = all(r == serial[k] for k, rs in enumerate(results) for r in rs)
    base = samples.get(10, next(iter(samples.values())))
    return {
        "iterations": iterations,
        "rss_mib": samples,
        "rss_growth_after_10_mib": samples[max(samples)] - base,
        "seconds": elapsed,
        "results_stable": same,
        "concurrent_8_threads_equal_serial": concurrent_ok,
    }


# -- main ------------------------------------------------------------------------------------------
def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    pinned = benchlib.pin_threads(args.peer_threads)
    # turbobleu gets an explicit threads= on every call: 1, and "all" (every usable core).
    os.environ.pop("TURBOBLEU_NUM_THREADS", None)
    import turbobleu as tb
    from turbobleu.batch import default_threads

    threads = args.threads or default_threads()
    warnings.simplefilter("ignore")  # NLTK's zero-overlap warnings, once per order
    peers = load_peers()
    info = benchlib.machine_info(
        ["turbobleu", "nltk", "sacrebleu", "fast-bleu", "bleuscore", "numpy"]
    )
    info["env"] = pinned
    info["turbobleu_threads_all"] = threads
    print(benchlib.machine_line(info))
    work = make_workloads()
    payload: Dict[str, Any] = {"machine": info, "workloads": {}, "checks": []}
    md_sections: List[str] = []
    failed = False
    for name, (hyps, refs, group) in work.items():
        cons, rows = contenders(tb, peers, hyps, refs, group, threads, args.peer_rows)
        outputs, timings = benchlib.time_interleaved(
            cons, args.repeats, slow_ms=5000, slow_repeats=3
        )
        per = {k: timings[k].median_ms * 1000 / rows[k] for k in timings}
        cpu = {
            k: sorted(timings[k].cpu_ms)[len(timings[k].cpu_ms) // 2] * 1000 / rows[k]
            for k in timings
        }
        tb1 = [k for k in per if k.startswith("turbobleu") and "(1 thread)" in k]
        base = max(per[k] for k in tb1)  # the slower turbobleu path is the ratios' baseline
        table_rows = []
        for key in per:
            table_rows.append(
                [
                    key,
                    str(rows[key]),
                    f"{per[key]:.2f}",
                    f"{cpu[key]:.2f}",
                    f"{per[key] / base:.2f}x" if not key.startswith("turbobleu") else "",
                    f"{timings[key].cpu_per_wall:.2f}",
                ]
            )
        headers = [
            "contender",
            "rows",
            "us/sentence",
            "cpu us/sentence",
            "vs turbobleu 1 thread",
            "cpu/wall",
        ]
        print(
            f"\n== {name}: {len(hyps)} hypotheses, {REFS} references "
            f"{'each' if group == 1 else f'per {group} samples'} =="
        )
        print(benchlib.text_table(headers, table_rows))
        found = checks(outputs, args.peer_rows)
        for c in found:
            print(("OK   " if c["ok"] else "FAIL ") + c["what"] + ": " + c["detail"])
            failed |= (not c["ok"]) and c["turbobleu"]
        ratios = summary_ratios(per, threads)
        for key, value in ratios.items():
            print(f"RATIO {name}: {key} = {value:.2f}")
        shared = [timings[k].cpu_per_wall for k in tb1]
        note = ""
        if min(shared) < 0.9:
            note = (
                f"\n\nNote: the machine was shared while this ran: single-thread turbobleu "
                f"runs got {min(shared):.2f}-{max(shared):.2f} of a core (cpu/wall), so wall "
                "times are inflated and thread scaling is not measurable here; the cpu "
                "column is the process CPU time (all threads) per sentence."
            )
            print(note.strip())
        payload["workloads"][name] = {
            "per_sentence_us": per,
            "cpu_us": cpu,
            "rows": rows,
            "timings": {k: t.as_dict() for k, t in timings.items()},
            "ratios": ratios,
            "checks": found,
        }
        md_sections.append(
            f"### {name}: {len(hyps)} hypotheses x ~{LENGTH} ids, {REFS} "
            f"references {'each' if group == 1 else f'per prompt ({group} samples per prompt)'}\n\n"
            + benchlib.md_table(headers, table_rows)
            + "\n\n"
            + "\n".join(f"- {k}: **{v:.1f}**" for k, v in ratios.items())
            + note
        )
    if args.memory:
        hyps, refs, _ = work["flat"]
        mem = memory_check(tb, hyps, refs, args.memory_iterations, threads)
        payload["memory"] = mem
        print(f"\nMEMORY {mem}")
        failed |= not (mem["results_stable"] and mem["concurrent_8_threads_equal_serial"])
        md_sections.append(
            f"### memory\n\n{mem['iterations']} calls of `sentence_bleu_batch` (flat workload) "
            f"plus {mem['iterations']} of `ReferenceSets.score`: resident memory "
            + ", ".join(f"{v:.1f} MiB after {k}" for k, v in mem["rss_mib"].items())
            + f" (growth after call 10: {mem['rss_growth_after_10_mib']:+.1f} MiB). "
            f"8 Python threads at once == serial: {mem['concurrent_8_threads_equal_serial']}."
        )
    markdown = (
        f"## RL reward workload (bench/bench_rl.py)\n\nMachine: "
        f"{benchlib.machine_line(info)}; turbobleu all-threads = {threads}; load average "
        f"at start {info['loadavg_start']}.\n\n" + "\n\n".join(md_sections) + "\n"
    )
    return benchlib.finish(args, payload, markdown, failed)


def summary_ratios(per: Dict[str, float], threads: int) -> Dict[str, float]:
    """The issue's targets: NLTK / turbobleu (1 thread) >= 50, fastest of fast-bleu/bleuscore /
    turbobleu (1 thread) >= 8, turbobleu 1 thread / all threads >= 1.6 (2 threads)."""
    out: Dict[str, float] = {}
    tb1 = {k: v for k, v in per.items() if k.startswith("turbobleu") and "(1 thread)" in k}
    slow1 = max(tb1.values())
    nltk_tb = [v for k, v in tb1.items() if "nltk-recipe" in k]
    for key, value in per.items():
        if key.startswith("nltk") and nltk_tb:
            out["NLTK / turbobleu nltk-recipe (1 thread) [target >= 50]"] = value / max(nltk_tb)
    fast = [v for k, v in per.items() if k.startswith(("fast-bleu", "bleuscore"))]
    if fast:
        out["fastest of fast-bleu, bleuscore / slowest turbobleu path (1 thread) [target >= 8]"] = (
            min(fast) / slow1
        )
    for key, value in tb1.items():
        many = key.replace("(1 thread)", f"({threads} threads)")
        if many in per and threads > 1:
            out[f"{key.split(' (')[0]}: 1 thread / {threads} threads [target >= 1.6 at 2]"] = (
                value / per[many]
            )
    return out


if __name__ == "__main__":
    sys.exit(main())
