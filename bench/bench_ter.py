"""TER: turbobleu against sacrebleu 2.6.0 on WMT23, side by side in one process, one thread.

Workloads per system: ``corpus`` (``TER().corpus_score``) and ``sentence`` (turbobleu's
``TER().sentence_scores`` against a loop of ``sacrebleu.sentence_ter``), each checked for
equality before it is timed; and turbobleu's ``corpus_score(threads=2)`` against its own one
thread. sacrebleu takes seconds to minutes per system, so it runs once per workload between
turbobleu's runs (turbobleu's median of ``--repeats`` before and after it); paragraph-level pairs
(en-de, de-en) are cut to ``--paragraphs`` segments and the others to ``--segments`` when given.
Ratios are sacrebleu's time over turbobleu's; the summary is over the systems where sacrebleu's
corpus TER takes at least ``--slow`` seconds (en-ja and en-zh, whose targets have few spaces,
are listed apart).

    python bench/bench_ter.py [--pairs he-en zh-en] [--segments 500] [--repeats 5]
"""

from __future__ import annotations

import sys
from pathlib import Path
from statistics import median
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

PARAGRAPH_PAIRS = ("en-de", "de-en")


def _side_by_side(
    workload: str, same: bool, ours: Callable[[], Any], sacre: Callable[[], Any], repeats: int
) -> Dict[str, Any]:
    """sacrebleu once, between ``repeats`` runs of turbobleu before and after it: the row's
    fields for ``workload`` (turbobleu's median)."""
    t_ours = [benchlib.seconds(ours) for _ in range(repeats)]
    t_sacre = benchlib.seconds(sacre)
    t_ours += [benchlib.seconds(ours) for _ in range(repeats)]
    return {
        f"{workload}_equal": same,
        f"{workload}_sacrebleu_s": t_sacre,
        f"{workload}_turbobleu_s": median(t_ours),
        f"{workload}_ratio": t_sacre / median(t_ours),
    }


def _ratios(key: str, chosen: List[Dict[str, Any]]) -> str:
    values = [r[key] for r in chosen if key in r]
    if not values:
        return "-"
    return f"{benchlib.geomean(values):.0f}x (min {min(values):.0f}x)"


def summary(rows: List[Dict[str, Any]], slow_s: float, machine: str) -> str:
    """The summary table (printed, and the markdown returned): systems where sacrebleu took at
    least ``slow_s`` seconds (its corpus TER, or its sentence loop when only that ran), and the
    others."""

    def sacrebleu_s(row: Dict[str, Any]) -> float:
        return float(row.get("corpus_sacrebleu_s", row.get("sentence_sacrebleu_s", 0.0)))

    untimed = [r for r in rows if sacrebleu_s(r) == 0.0]  # (--workloads threads only)
    slow = [r for r in rows if sacrebleu_s(r) >= slow_s]
    fast = [r for r in rows if r not in slow and r not in untimed]

    def threads(chosen: List[Dict[str, Any]]) -> str:
        values = [r["threads2_speedup"] for r in chosen if "threads2_speedup" in r]
        return f"{benchlib.geomean(values):.2f}x (min {min(values):.2f}x)" if values else "-"

    headers = ["systems", "n", "corpus_ter", "sentence scores", "threads=2"]
    table = [
        [
            f"sacrebleu >= {slow_s:g} s",
            str(len(slow)),
            _ratios("corpus_ratio", slow),
            _ratios("sentence_ratio", slow),
            threads(slow),
        ],
        [
            "the others",
            str(len(fast)),
            _ratios("corpus_ratio", fast),
            _ratios("sentence_ratio", fast),
            "-",
        ],
    ]
    if untimed:
        table.append(["sacrebleu not run", str(len(untimed)), "-", "-", threads(untimed)])
    print()
    print(benchlib.text_table(headers, table))
    return (
        f"TER, turbobleu vs sacrebleu 2.6.0 (one thread; ratios are sacrebleu's time over "
        f"turbobleu's, geometric mean and minimum). Machine: {machine}.\n\n"
        + benchlib.md_table(headers, table)
        + "\n"
    )


def main() -> int:
    parser = benchlib.wmt23_parser(__doc__)
    parser.add_argument("--segments", type=int, help="cut sentence-level systems to this many")
    parser.add_argument("--paragraphs", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--slow", type=float, default=1.0)
    parser.add_argument("--workloads", nargs="+", default=["corpus", "sentence", "threads"])
    benchlib.add_results_options(parser, "results file stem (default: ter)")
    parser.add_argument(
        "--from-json", type=Path, help="print (and write) the summary of an earlier run's rows"
    )
    args = parser.parse_args()
    args.name = benchlib.results_name(args, "ter")
    if args.from_json:
        import json

        earlier = json.loads(args.from_json.read_text(encoding="utf-8"))
        markdown = summary(earlier["systems"], args.slow, benchlib.machine_line(earlier["machine"]))
        if not args.no_write:
            (args.out_dir / f"{args.name}-latest.md").write_text(markdown, encoding="utf-8")
        return 0
    benchlib.pin_threads("1")

    import sacrebleu
    from sacrebleu.metrics import TER as SacreTER

    import turbobleu
    from turbobleu.ter import TER

    info = benchlib.machine_info(["turbobleu", "sacrebleu"])
    print(benchlib.machine_line(info), f"(turbobleu {turbobleu.implementation})")
    rows: List[Dict[str, Any]] = []
    failed = False
    for system in benchlib.load_wmt23(args.data, args.pairs):
        cut = args.paragraphs if system.pair in PARAGRAPH_PAIRS else args.segments
        hyps = system.hyps[:cut] if cut else system.hyps
        refs = [r[: len(hyps)] for r in system.refs]
        label = f"{system.pair}/{system.name}"
        row: Dict[str, Any] = {"system": label, "segments": len(hyps), "refs": len(refs)}
        if "corpus" in args.workloads:
            theirs = SacreTER().corpus_score(hyps, refs)
            ours = TER().corpus_score(hyps, refs)
            same = (ours.score, ours.num_edits, ours.ref_length) == (
                theirs.score,
                theirs.num_edits,
                theirs.ref_length,
            )
            failed |= not same
            row.update(
                _side_by_side(
                    "corpus",
                    same,
                    lambda: TER().corpus_score(hyps, refs),
                    lambda: SacreTER().corpus_score(hyps, refs),
                    args.repeats,
                )
            )
        if "sentence" in args.workloads:
            per_segment = list(zip(*refs))
            want = [sacrebleu.sentence_ter(h, list(r)).score for h, r in zip(hyps, per_segment)]
            got = TER().sentence_scores(hyps, refs)
            same = all(float(a) == b for a, b in zip(got, want))
            failed |= not same

            def loop() -> None:
                for h, r in zip(hyps, per_segment):
                    sacrebleu.sentence_ter(h, list(r))

            row.update(
                _side_by_side(
                    "sentence", same, lambda: TER().sentence_scores(hyps, refs), loop, args.repeats
                )
            )
        if "threads" in args.workloads:
            one: List[float] = []
            two: List[float] = []
            for _ in range(args.repeats):  # alternating
                one.append(benchlib.seconds(lambda: TER().corpus_score(hyps, refs)))
                two.append(benchlib.seconds(lambda: TER().corpus_score(hyps, refs, threads=2)))
            row.update(threads2_speedup=median(one) / median(two))
        rows.append(row)
        print(
            label,
            " ".join(
                f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                for k, v in row.items()
                if k != "system"
            ),
            flush=True,
        )

    markdown = summary(rows, args.slow, benchlib.machine_line(info))
    payload = {
        "benchmark": "ter",
        "date": benchlib.utc_now().isoformat(),
        "machine": info,
        "args": benchlib.args_record(args, all_strings=True),
        "systems": rows,
    }
    return benchlib.finish(args, payload, markdown, failed)


if __name__ == "__main__":
    sys.exit(main())
