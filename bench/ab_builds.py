"""A/B of two turbobleu builds on the same machine: is build B as fast as build A?

Each build is a source tree with its extensions built in place (``python setup.py build_ext
--inplace``). The script starts one child process per (build, round, workload), A and B back to back
each importing turbobleu from its tree (``PYTHONPATH=<tree>/src``) and timing turbobleu's own
calls only (no peer library), on every WMT23 system:

  corpus-13a      ``corpus_bleu`` (13a), every system
  corpus-intl     ``corpus_bleu`` (intl), every system
  loop-13a        a ``sentence_bleu`` loop over the first 300 segments of every system
  batch-13a       ``BLEU(effective_order=True).sentence_scores``, every system
  nltk-corpus     ``turbobleu.nltk.corpus_bleu`` on whitespace tokens, every system
  nltk-loop       a ``turbobleu.nltk.sentence_bleu`` loop, first 300 segments of every system
  rl-flat         ``sentence_bleu_batch`` of 4096 id rows x 4 references (one thread)
  rl-grpo         ``ReferenceSets.score``, 256 prompts x 16 samples (one thread)
  chrf-corpus     ``corpus_chrf``, every system
  chrf-loop       a ``sentence_chrf`` loop over the first 300 segments of every system
  google-bleu     ``turbobleu.evaluate.load("google_bleu").compute`` (13a), every system
  paired-bs       ``significance.paired_bootstrap`` of 4 systems from statistics (1,000 samples)
  import          ``python -c "import turbobleu"``, process time (user + sys)

Within a child each workload runs once untimed, then ``--inner`` timed times (``gc.collect()``
before each call, as the other benchmarks do), and the child reports the median. The result is
the median over rounds of each build's child medians, and the ratio B / A (below 1: B is faster);
"paired" is the median of each round's own B / A, with its quartiles (steadier on a shared host).

    python bench/ab_builds.py --a ../before --b . --rounds 5
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

WORKLOADS = [
    "corpus-13a",
    "corpus-intl",
    "loop-13a",
    "batch-13a",
    "nltk-corpus",
    "nltk-loop",
    "rl-flat",
    "rl-grpo",
    "chrf-corpus",
    "chrf-loop",
    "google-bleu",
    "paired-bs",
    "import",
]


def _timed_median(fn: Callable[[], Any], inner: int) -> float:
    fn()
    times = []
    for _ in range(inner):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _child(data: Path, inner: int, workloads: List[str]) -> Dict[str, float]:
    """Runs inside the child: seconds per workload (medians of ``inner`` calls)."""
    import numpy as np

    import turbobleu
    import turbobleu.evaluate as tb_evaluate
    import turbobleu.nltk as tb_nltk
    from turbobleu import significance

    systems = benchlib.load_wmt23(data)
    tokens = [
        ([h.split() for h in s.hyps], [[r.split() for r in refs] for refs in zip(*s.refs)])
        for s in systems
    ]
    rng = np.random.default_rng(0)
    refs_flat = [[rng.integers(1, 32000, 64).tolist() for _ in range(4)] for _ in range(4096)]
    hyps_flat = [r[0][:40] + rng.integers(1, 32000, 24).tolist() for r in refs_flat]
    refs_grpo = [[rng.integers(1, 32000, 64).tolist() for _ in range(4)] for _ in range(256)]
    hyps_grpo = [
        r[0][:40] + rng.integers(1, 32000, 24).tolist() for r in refs_grpo for _ in range(16)
    ]
    prepared = turbobleu.ReferenceSets(refs_grpo)
    bleu = turbobleu.BLEU()
    pair = [s for s in systems if s.pair == systems[0].pair][:4]
    pair_stats = [bleu.corpus_stats(s.hyps, s.refs) for s in pair]
    google_bleu = tb_evaluate.load("google_bleu")
    per_prediction = [[list(refs) for refs in zip(*s.refs)] for s in systems]

    jobs: Dict[str, Callable[[], Any]] = {
        "corpus-13a": lambda: [turbobleu.corpus_bleu(s.hyps, s.refs) for s in systems],
        "corpus-intl": lambda: [
            turbobleu.corpus_bleu(s.hyps, s.refs, tokenize="intl") for s in systems
        ],
        "loop-13a": lambda: [
            turbobleu.sentence_bleu(h, list(r)).score
            for s in systems
            for h, r in zip(s.hyps[:300], zip(*s.refs))
        ],
        "batch-13a": lambda: [
            turbobleu.BLEU(effective_order=True).sentence_scores(s.hyps, s.refs) for s in systems
        ],
        "nltk-corpus": lambda: [tb_nltk.corpus_bleu(r, h) for h, r in tokens],
        "nltk-loop": lambda: [
            tb_nltk.sentence_bleu(rr, hh) for h, r in tokens for hh, rr in zip(h[:300], r[:300])
        ],
        "rl-flat": lambda: turbobleu.sentence_bleu_batch(hyps_flat, refs_flat, threads=1),
        "rl-grpo": lambda: prepared.score(hyps_grpo, group_size=16, threads=1),
        "chrf-corpus": lambda: [turbobleu.corpus_chrf(s.hyps, s.refs) for s in systems],
        "chrf-loop": lambda: [
            turbobleu.sentence_chrf(h, list(r)).score
            for s in systems
            for h, r in zip(s.hyps[:300], zip(*s.refs))
        ],
        "google-bleu": lambda: [
            google_bleu.compute(predictions=s.hyps, references=refs)
            for s, refs in zip(systems, per_prediction)
        ],
        "paired-bs": lambda: significance.paired_bootstrap(
            pair_stats[0], pair_stats[1:], bleu, n_samples=1000
        ),
    }
    import warnings

    warnings.simplefilter("ignore")
    return {name: _timed_median(jobs[name], inner) for name in workloads if name in jobs}


def _import_time(tree: Path) -> float:
    """User + sys seconds of ``python -c "import turbobleu"`` in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import turbobleu"], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _run_child(tree: Path, args: argparse.Namespace, workloads: List[str]) -> Dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), TURBOBLEU_IMPL="cython")
    proc = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            "--data",
            str(args.data),
            "--inner",
            str(args.inner),
            "--workloads",
            *workloads,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: Dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    if "import" in workloads:
        result["import"] = statistics.median(_import_time(tree) for _ in range(5))
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", type=Path, help="source tree of build A (the reference)")
    p.add_argument("--b", type=Path, help="source tree of build B (the candidate)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--inner", type=int, default=5)
    p.add_argument("--data", type=Path, default=benchlib.DEFAULT_DATA)
    p.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=WORKLOADS)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--json", type=Path, help="also write the results here")
    args = p.parse_args()
    if args.child:
        print(json.dumps(_child(args.data, args.inner, args.workloads)))
        return
    if args.a is None or args.b is None:
        p.error("--a and --b are required")
    # One child per (round, workload), A and B back to back in alternating order: on a shared
    # host whole stretches of seconds run 30% slower, and adjacent children share the stretch.
    runs: Dict[str, List[Dict[str, float]]] = {"A": [], "B": []}
    for r in range(args.rounds):
        for label in runs:
            runs[label].append({})
        for w, name in enumerate(args.workloads):
            order = (("A", args.a), ("B", args.b))
            for label, tree in order if (r + w) % 2 == 0 else order[::-1]:
                runs[label][r].update(_run_child(tree.resolve(), args, [name]))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    rows = []
    summary = {}
    for name in args.workloads:
        a = statistics.median(run[name] for run in runs["A"])
        b = statistics.median(run[name] for run in runs["B"])
        # Each round's own B / A (its two children ran back to back).
        paired = sorted(rb[name] / ra[name] for ra, rb in zip(runs["A"], runs["B"]))
        low, high = _quartiles(paired)
        summary[name] = {
            "a_ms": a * 1e3,
            "b_ms": b * 1e3,
            "b_over_a": b / a,
            "paired_b_over_a": statistics.median(paired),
            "paired_quartiles": [low, high],
            "a_rounds_ms": [run[name] * 1e3 for run in runs["A"]],
            "b_rounds_ms": [run[name] * 1e3 for run in runs["B"]],
        }
        rows.append(
            [
                name,
                f"{a * 1e3:.2f}",
                f"{b * 1e3:.2f}",
                f"{b / a:.3f}",
                f"{statistics.median(paired):.3f}",
                f"{low:.3f}-{high:.3f}",
            ]
        )
    print(
        f"A = {args.a}  B = {args.b}  ({args.rounds} alternating rounds, "
        f"{args.inner} calls each; medians; paired: the median of each round's B / A)"
    )
    headers = ["workload", "A ms", "B ms", "B / A", "paired", "paired IQR"]
    print(benchlib.text_table(headers, rows))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "a": str(args.a),
                    "b": str(args.b),
                    "rounds": args.rounds,
                    "inner": args.inner,
                    "results": summary,
                    "machine": benchlib.machine_info(["numpy"]),
                },
                indent=1,
            )
        )


def _quartiles(values: List[float]) -> List[float]:
    """The first and third quartiles (the values themselves for fewer than 2)."""
    if len(values) < 2:
        return [values[0], values[0]]
    q1, _, q3 = statistics.quantiles(values, n=4)
    return [q1, q3]


if __name__ == "__main__":
    main()
