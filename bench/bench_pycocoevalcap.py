#!/usr/bin/env python3
"""turbobleu.pycocoevalcap.Bleu vs pycocoevalcap's Bleu, side by side in one process, one thread.

Workloads: ``Bleu(4).compute_score(gts, res, verbose=0)`` of each library on

* ``captions`` - the COCO-like caption set the tests check (tests/pycocoevalcap_support.py):
  5,000 images with 5 PTB-style references each, made deterministically from a seed;
* WMT23 systems - each segment an image, its references the captions (``--pairs``; by default
  the first system of he-en, 1,910 segments with 2 references; ``--all-systems`` for every system
  of the chosen pairs).

Each result (the corpus BLEU-1..4 and every per-image list) is checked with ``==`` before timing;
a mismatch is printed loudly and makes the exit status 1. Contenders alternate (turbobleu,
pycocoevalcap, turbobleu, ...); the median of the timed runs is reported with the ratio
pycocoevalcap / turbobleu (target: at least 50x).

    python bench/bench_pycocoevalcap.py [--pairs he-en] [--all-systems] [--repeats 15]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(1, str(BENCH.parent / "tests"))  # the caption set the tests check
import benchlib  # noqa: E402

TARGET = 50.0
Captions = Dict[Any, List[str]]

COLUMNS: List[benchlib.Column] = [
    ("workload", lambda r: r["workload"]),
    ("images x refs", lambda r: f"{r['images']} x {r['references'] / max(r['images'], 1):.3g}"),
    ("turbobleu ms", lambda r: f"{r['turbobleu']['median_ms']:.2f}"),
    ("pycocoevalcap ms", lambda r: f"{r['pycocoevalcap']['median_ms']:.0f}"),
    ("ratio", lambda r: f"{r['ratio']:.0f}x"),
    ("==", lambda r: "yes" if r["equal"] else "NO"),
]


def wmt23_captions(system: Any) -> Tuple[Captions, Captions]:
    refs = system.refs_per_segment()
    return (
        {i: list(group) for i, group in enumerate(refs)},
        {i: [hyp] for i, hyp in enumerate(system.hyps)},
    )


def main() -> int:
    parser = benchlib.wmt23_parser(__doc__)
    parser.add_argument("--all-systems", action="store_true", help="every system of the pairs")
    parser.add_argument("--images", type=int, default=5000, help="images in the caption set")
    parser.add_argument("--repeats", type=int, default=15, help="timed runs of turbobleu")
    parser.add_argument("--slow-repeats", type=int, default=5, help="timed runs of pycocoevalcap")
    parser.add_argument("--name", default="pycocoevalcap")
    parser.add_argument("--out-dir", type=Path, default=benchlib.RESULTS_DIR)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    benchlib.pin_threads("1")

    from pycocoevalcap.bleu.bleu import Bleu as RealBleu
    from pycocoevalcap_support import caption_set

    import turbobleu
    from turbobleu.pycocoevalcap import Bleu

    info = benchlib.machine_info(["turbobleu", "pycocoevalcap", "numpy"])
    print(benchlib.machine_line(info), f"(turbobleu {turbobleu.implementation})")

    workloads: List[Tuple[str, Captions, Captions]] = [
        (f"captions {args.images}x5", *caption_set(args.images, 5, seed=0))
    ]
    systems = benchlib.load_wmt23(args.data, args.pairs or ["he-en"])
    for system in systems if args.all_systems else systems[:1]:
        workloads.append((f"{system.pair}/{system.name}", *wmt23_captions(system)))

    rows: List[Dict[str, Any]] = []
    failed = False
    for label, gts, res in workloads:
        contenders = [
            benchlib.Contender("turbobleu", lambda: Bleu(4).compute_score(gts, res, verbose=0)),
            benchlib.Contender(
                "pycocoevalcap", lambda: RealBleu(4).compute_score(gts, res, verbose=0)
            ),
        ]
        outputs, timings = benchlib.time_interleaved(
            contenders, args.repeats, 200.0, args.slow_repeats
        )
        same = outputs["turbobleu"] == outputs["pycocoevalcap"]
        if not same:
            print(f"FAIL {label}: turbobleu's scores differ from pycocoevalcap's")
        failed |= not same
        ours, theirs = timings["turbobleu"].median_ms, timings["pycocoevalcap"].median_ms
        row = {
            "workload": label,
            "images": len(gts),
            "references": sum(map(len, gts.values())),
            "equal": same,
            "turbobleu": timings["turbobleu"].as_dict(),
            "pycocoevalcap": timings["pycocoevalcap"].as_dict(),
            "ratio": theirs / ours,
        }
        rows.append(row)
        print(
            f"{label}: turbobleu {ours:.2f} ms, pycocoevalcap {theirs:.1f} ms, "
            f"ratio {theirs / ours:.0f}x, equal={same}",
            flush=True,
        )

    headers, table = benchlib.build_table(COLUMNS, rows)
    benchlib.print_table(headers, table)
    ratios = [r["ratio"] for r in rows]
    print(f"geometric mean ratio {benchlib.geomean(ratios):.0f}x (target >= {TARGET:.0f}x)")
    machine = benchlib.machine_line(info)
    markdown = (
        f"pycocoevalcap's Bleu(4).compute_score (verbose=0): turbobleu "
        f"({turbobleu.implementation}) vs pycocoevalcap, one thread, medians of alternating "
        f"runs; ratio = pycocoevalcap / turbobleu (target >= {TARGET:.0f}x), every value "
        f"compared with ==. Machine: {machine}.\n\n" + benchlib.md_table(headers, table) + "\n"
    )
    payload = {
        **benchlib.stamp("pycocoevalcap", info),
        "implementation": turbobleu.implementation,
        "repeats": args.repeats,
        "slow_repeats": args.slow_repeats,
        "target": TARGET,
        "rows": rows,
    }
    return benchlib.finish(args, payload, markdown, failed)


if __name__ == "__main__":
    sys.exit(main())
