#!/usr/bin/env python3
"""TRL reward adapter on a GRPO batch: turbobleu.rewards.trl against the per-sample BLEU reward
that public RL code writes, side by side in one run.

Workload (WMT23 he-en, seeded): 256 prompts x 16 completions of about 200 tokens. A prompt is a
chunk of 9 consecutive segments; its 1-4 references (cycling) are the chunk in refA, refB and two
systems' outputs; its 16 completions are the other two systems' chunk with seeded word drops and
swaps (rates 0-40%), so each is distinct and scores spread from low to high. TRL's call is made
as TRL makes it: keyword lists, each prompt's reference column repeated for its 16 completions.

Contenders (alternating rounds, medians; ``gc.collect()`` before each run):

* ``turbobleu TRL adapter``: ``trl_reward("reference", threads=T, cache_bytes=0)(...)`` - the
  whole reward call, references prepared inside it (no cache: each training step has new prompts).
* ``turbobleu batch API by hand``: ``ReferenceSets(refs).score(completions, group_size=16)`` on
  inputs already in the batch API's shape - the adapter's core work. ``1 - core / adapter`` is
  the adapter's own overhead (converting completions, grouping rows, building the output).
* ``evaluate.load("bleu")`` per sample, when its metric script loads (it is fetched from the
  Hugging Face Hub: offline it does not, and the run says so); else
* ``sacrebleu.corpus_bleu([c], [[r] for r in refs]).score / 100`` per sample (the other form of
  public reward code, and what evaluate's script would be timed against), and
  ``sacrebleu.sentence_bleu`` per sample (the exact peer of the adapter's default recipe).

The per-sample peers score ``--peer-rows`` rows per run (a prefix of the batch) and are reported
per sample. Exactness on those rows: the adapter == ``sacrebleu.sentence_bleu(...).score / 100``,
and the adapter with ``SacreBLEURecipe(effective_order=False)`` == the ``corpus_bleu`` peer (the
same statistics, without effective order), with ``==``; a mismatch exits 1.

Wall times on a shared machine are noisy; ``--once adapter|hand|setup`` runs one call (after
the same setup and warm-up) and exits, for a deterministic instruction-count A/B under callgrind:

    valgrind --tool=callgrind python bench/bench_rewards.py --once setup    # then adapter, hand

(the adapter's own share is 1 - (hand - setup) / (adapter - setup)).

Run ``python bench/bench_rewards.py --help``.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import benchlib
from benchlib import Contender

PROMPTS = 256
GROUP = 16
CHUNK = 9  # segments per prompt (about 200 13a tokens)


def parse_args(argv: Optional[List[str]] = None) -> Any:
    p = benchlib.wmt23_parser(__doc__)
    p.set_defaults(pairs=["he-en"])
    p.add_argument("--repeats", type=int, default=5, help="timed runs per contender")
    p.add_argument("--peer-rows", type=int, default=512, help="rows the per-sample peers score")
    benchlib.add_results_options(
        p,
        "results file stem (default: rewards)",
        quick="smoke run: 2 repeats, 64 peer rows",
    )
    p.add_argument(
        "--once",
        choices=["setup", "adapter", "hand"],
        help="no timing: build the batch, warm up, make one call of this kind (or none) and exit",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.repeats, args.peer_rows = min(args.repeats, 2), min(args.peer_rows, 64)
    args.name = benchlib.results_name(args, "rewards")
    return args


# -- data ------------------------------------------------------------------------------------------
def perturb(rng: random.Random, words: List[str], rate: float) -> str:
    out = [w for w in words if rng.random() >= rate / 2]
    for _ in range(int(len(out) * rate / 2)):
        i = rng.randrange(len(out) - 1) if len(out) > 1 else 0
        out[i : i + 2] = out[i : i + 2][::-1]
    return " ".join(out)


def make_batch(data: Path, pair: str) -> Tuple[List[str], List[Any], List[List[str]]]:
    """(completions, the reference column as TRL passes it, references per prompt)."""
    systems = benchlib.load_wmt23(data, [pair])
    refs = systems[0].refs  # refA, refB
    outputs = [s.hyps for s in systems]
    streams = refs + outputs[2:4]  # the reference pool; systems 0 and 1 make the completions
    lines = len(refs[0])
    stride = max(1, (lines - CHUNK) // PROMPTS)
    rng = random.Random(2024)
    completions: List[str] = []
    column: List[Any] = []
    per_prompt: List[List[str]] = []
    for p in range(PROMPTS):
        lo = (p * stride) % (lines - CHUNK)
        chunk_refs = [" ".join(s[lo : lo + CHUNK]) for s in streams[: 1 + p % 4]]
        per_prompt.append(chunk_refs)
        for g in range(GROUP):
            words = " ".join(outputs[g % 2][lo : lo + CHUNK]).split()
            completions.append(perturb(rng, words, 0.4 * g / GROUP))
            # TRL gives each completion its prompt's row: one list object per row, not shared.
            column.append(chunk_refs[0] if len(chunk_refs) == 1 else list(chunk_refs))
    return completions, column, per_prompt


# -- main ------------------------------------------------------------------------------------------
def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    pinned = benchlib.pin_threads("1")
    os.environ.pop("TURBOBLEU_NUM_THREADS", None)  # threads= is given on every call
    import sacrebleu

    import turbobleu as tb
    from turbobleu.batch import SacreBLEURecipe, default_threads
    from turbobleu.rewards.trl import trl_reward

    threads = default_threads()
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "evaluate", "trl", "numpy"])
    info["env"] = pinned
    print(benchlib.machine_line(info))
    completions, column, per_prompt = make_batch(args.data, args.pairs[0])
    n = len(completions)
    tokenize_13a = tb.get_tokenizer("13a")
    lengths = [len(tokenize_13a(c).split()) for c in completions]
    print(f"{n} completions, {sum(lengths) / n:.0f} 13a tokens each on average")
    kwargs = {"prompts": ["p"] * n, "completion_ids": [[0]] * n, "trainer_state": None}
    if args.once:
        return run_once(args.once, tb, trl_reward, completions, column, per_prompt, kwargs)

    evaluate_note = "evaluate is not installed"
    bleu_metric = None
    try:
        import evaluate

        bleu_metric = evaluate.load("bleu")
        evaluate_note = "evaluate.load('bleu') loaded"
    except ImportError:
        pass
    except Exception as exc:  # offline: the metric script is not on this machine
        evaluate_note = f"evaluate.load('bleu') failed: {type(exc).__name__}: {exc}"
    print("NOTE: " + evaluate_note)

    cons: List[Contender] = []
    rows: Dict[str, int] = {}

    def add(key: str, fn: Any, count: int) -> None:
        cons.append(Contender(key, fn))
        rows[key] = count

    for t in sorted({1, threads}):
        tag = f"{t} thread" + ("s" if t > 1 else "")
        reward = trl_reward("reference", threads=t, cache_bytes=0)
        add(
            f"turbobleu TRL adapter ({tag})",
            lambda r=reward: r(completions=completions, reference=column, **kwargs),
            n,
        )
        add(
            f"turbobleu batch API by hand ({tag})",
            lambda t=t: tb.ReferenceSets(per_prompt, threads=t).score(
                completions, group_size=GROUP, threads=t
            ),
            n,
        )
    m = min(args.peer_rows, n)
    sub_c = completions[:m]
    sub_r = [[r] if isinstance(r, str) else r for r in column[:m]]
    if bleu_metric is not None:
        add(
            "evaluate.load('bleu').compute per sample (smooth=True)",
            lambda: [
                bleu_metric.compute(predictions=[c], references=[r], smooth=True)["bleu"]
                for c, r in zip(sub_c, sub_r)
            ],
            m,
        )
    add(
        "sacrebleu.corpus_bleu per sample",
        lambda: [
            sacrebleu.corpus_bleu([c], [[x] for x in r]).score / 100 for c, r in zip(sub_c, sub_r)
        ],
        m,
    )
    add(
        "sacrebleu.sentence_bleu per sample",
        lambda: [sacrebleu.sentence_bleu(c, r).score / 100 for c, r in zip(sub_c, sub_r)],
        m,
    )
    outputs, timings = benchlib.time_interleaved(cons, args.repeats, slow_ms=5000, slow_repeats=3)
    per = {k: timings[k].median_ms * 1000 / rows[k] for k in timings}

    # Exactness on the peers' rows.
    checks = []
    adapter = outputs["turbobleu TRL adapter (1 thread)"]
    no_eff = trl_reward("reference", SacreBLEURecipe(effective_order=False))(
        completions=completions, reference=column, **kwargs
    )
    for what, mine, theirs in (
        ("adapter == sacrebleu.sentence_bleu / 100", adapter[:m], outputs[cons[-1].key]),
        (
            "adapter (effective_order=False) == sacrebleu.corpus_bleu per sample / 100",
            no_eff[:m],
            outputs["sacrebleu.corpus_bleu per sample"],
        ),
        (
            "adapter == batch API by hand / 100 (every row)",
            adapter,
            (outputs["turbobleu batch API by hand (1 thread)"] / 100).tolist(),
        ),
    ):
        bad = [i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
        checks.append({"what": f"{what} on {len(theirs)} rows", "ok": not bad, "bad": bad[:5]})
        print(("OK   " if not bad else "FAIL ") + checks[-1]["what"])
    same_threads = all(
        list(outputs[k]) == list(adapter) for k in outputs if k.startswith("turbobleu TRL")
    )
    checks.append({"what": "every thread count gives the same rewards", "ok": same_threads})

    headers = ["contender", "rows", "us/sample", "ms/batch of 4096", "peer / adapter (1 thread)"]
    base = per["turbobleu TRL adapter (1 thread)"]
    table = [
        [
            k,
            str(rows[k]),
            f"{v:.2f}",
            f"{v * n / 1000:.1f}",
            "" if k.startswith("turbobleu") else f"{v / base:.1f}x",
        ]
        for k, v in per.items()
    ]
    print(benchlib.text_table(headers, table))
    ratios: Dict[str, float] = {}
    peer = "evaluate.load('bleu').compute per sample (smooth=True)"
    if peer not in per:
        peer = "sacrebleu.corpus_bleu per sample"
    ratios[f"{peer} / TRL adapter (1 thread) [target >= 50]"] = per[peer] / base
    for t in sorted({1, threads}):
        tag = f"{t} thread" + ("s" if t > 1 else "")
        core = per[f"turbobleu batch API by hand ({tag})"]
        adapter_t = per[f"turbobleu TRL adapter ({tag})"]
        ratios[f"adapter overhead, 1 - by hand / adapter ({tag}) [target < 0.20]"] = (
            1 - core / adapter_t
        )
    for key, value in ratios.items():
        print(f"RATIO {key} = {value:.3f}")
    failed = not all(c["ok"] for c in checks)
    payload = {
        "machine": info,
        "workload": {"prompts": PROMPTS, "group": GROUP, "completions": n, "pair": args.pairs[0]},
        "evaluate": evaluate_note,
        "per_sample_us": per,
        "rows": rows,
        "timings": {k: t.as_dict() for k, t in timings.items()},
        "ratios": ratios,
        "checks": checks,
    }
    markdown = (
        f"## TRL reward adapter on a GRPO batch (bench/bench_rewards.py)\n\nMachine: "
        f"{benchlib.machine_line(info)}; load average at start {info['loadavg_start']}.\n\n"
        f"{PROMPTS} prompts x {GROUP} completions of {sum(lengths) / n:.0f} 13a tokens on average "
        f"(WMT23 {args.pairs[0]}), 1-4 references per prompt. {evaluate_note}.\n\n"
        + benchlib.md_table(headers, table)
        + "\n\n"
        + "\n".join(f"- {k}: **{v:.3f}**" for k, v in ratios.items())
        + "\n\n"
        + "\n".join(f"- {'OK' if c['ok'] else 'FAIL'}: {c['what']}" for c in checks)
        + "\n"
    )
    return benchlib.finish(args, payload, markdown, failed)


def run_once(
    mode: str,
    tb: Any,
    trl_reward: Any,
    completions: List[str],
    column: List[Any],
    per_prompt: List[List[str]],
    kwargs: Dict[str, Any],
) -> int:
    """One adapter call or one hand-written batch call (``setup``: neither), after a small warm
    call of each so that both pay the same first-use costs."""
    reward = trl_reward("reference", threads=1, cache_bytes=0)
    reward(completions=completions[:GROUP], reference=column[:GROUP], **kwargs)
    tb.ReferenceSets(per_prompt[:1], threads=1).score(completions[:GROUP], group_size=GROUP)
    if mode == "adapter":
        reward(completions=completions, reference=column, **kwargs)
    elif mode == "hand":
        tb.ReferenceSets(per_prompt, threads=1).score(completions, group_size=GROUP, threads=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
