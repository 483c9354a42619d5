"""TER: turbobleu against torchmetrics' ``translation_edit_rate``, a second peer for speed only.

torchmetrics computes another number than sacrebleu by design (its edit distance runs from the
reference to the hypothesis, and it allows shifts of at most 9 words, where sacrebleu's limit is
10), so the scores are not compared for equality: this script says how often they differ from
sacrebleu's (turbobleu's equal sacrebleu's: checked here on every system, as in bench_ter.py).

Per system (each cut to ``--segments``; torchmetrics is pure Python and slower than sacrebleu):
torchmetrics' corpus TER once, between turbobleu's ``TER().corpus_score`` runs (median of
``--repeats`` before and after it), one thread each. "differs" counts the segments whose
torchmetrics sentence TER is not sacrebleu's within float32 rounding (1e-5 relative).

    python bench/bench_ter_torchmetrics.py [--pairs he-en zh-en] [--segments 200] [--repeats 3]
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

# Paragraph-level pairs: a few long segments would dominate; the sentence-level ones are what
# torchmetrics users score.
SKIPPED_PAIRS = ("en-de", "de-en")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)


def main() -> int:
    parser = benchlib.wmt23_parser(__doc__)
    parser.add_argument("--segments", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--name", default="ter-torchmetrics")
    parser.add_argument("--out-dir", type=Path, default=benchlib.RESULTS_DIR)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    benchlib.pin_threads("1")

    import sacrebleu
    import torch
    from torchmetrics.functional.text import translation_edit_rate

    from turbobleu.ter import TER

    torch.set_num_threads(1)
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "torchmetrics", "torch"])
    print(benchlib.machine_line(info))
    rows: List[Dict[str, Any]] = []
    failed = False
    for system in benchlib.load_wmt23(args.data, args.pairs):
        if system.pair in SKIPPED_PAIRS:
            continue
        hyps = system.hyps[: args.segments]
        refs = [r[: len(hyps)] for r in system.refs]
        per_segment = [list(r) for r in zip(*refs)]
        ours = TER().corpus_score(hyps, refs)
        theirs = sacrebleu.corpus_ter(hyps, refs)
        same = (ours.score, ours.num_edits, ours.ref_length) == (
            theirs.score,
            theirs.num_edits,
            theirs.ref_length,
        )
        failed |= not same

        def peer() -> Any:
            return translation_edit_rate(hyps, per_segment, return_sentence_level_score=True)

        t_ours = [
            benchlib.seconds(lambda: TER().corpus_score(hyps, refs)) for _ in range(args.repeats)
        ]
        start = time.perf_counter()
        corpus, sentences = peer()
        t_peer = time.perf_counter() - start
        t_ours += [
            benchlib.seconds(lambda: TER().corpus_score(hyps, refs)) for _ in range(args.repeats)
        ]
        ours_sentences = TER().sentence_scores(hyps, refs)
        differs = sum(
            not _close(100 * float(s), float(o)) for s, o in zip(sentences, ours_sentences)
        )
        row = {
            "system": f"{system.pair}/{system.name}",
            "segments": len(hyps),
            "refs": len(refs),
            "equal_to_sacrebleu": same,
            "torchmetrics_s": t_peer,
            "turbobleu_s": median(t_ours),
            "ratio": t_peer / median(t_ours),
            "torchmetrics_score": 100 * float(corpus),
            "sacrebleu_score": theirs.score,
            "segments_differing": differs,
        }
        rows.append(row)
        print(
            row["system"],
            f"ratio={row['ratio']:.0f}x torchmetrics={t_peer:.3f}s turbobleu={median(t_ours):.5f}s",
            f"score {row['torchmetrics_score']:.2f} vs {theirs.score:.2f},",
            f"{differs}/{len(hyps)} segments differ",
            flush=True,
        )

    headers = ["systems", "segments", "speed-up (geomean, min)", "segments differing", "corpus"]
    ratios = [r["ratio"] for r in rows]
    differing = sum(r["segments_differing"] for r in rows)
    total = sum(r["segments"] for r in rows)
    corpus_differ = sum(not _close(r["torchmetrics_score"], r["sacrebleu_score"]) for r in rows)
    table = [
        [
            str(len(rows)),
            str(total),
            f"{benchlib.geomean(ratios):.0f}x (min {min(ratios):.0f}x)" if rows else "-",
            f"{differing} ({100 * differing / max(total, 1):.1f}%)",
            f"{corpus_differ} of {len(rows)} differ",
        ]
    ]
    benchlib.print_table(headers, table)
    markdown = (
        "TER, turbobleu vs torchmetrics' translation_edit_rate (one thread; speed-up is "
        "torchmetrics' time over turbobleu's; torchmetrics' TER differs from sacrebleu's by "
        f"design: segments and corpus scores that differ are counted). Machine: "
        f"{benchlib.machine_line(info)}.\n\n" + benchlib.md_table(headers, table) + "\n"
    )
    payload = {
        **benchlib.stamp("ter-torchmetrics", info),
        "args": {k: str(v) for k, v in vars(args).items()},
        "systems": rows,
    }
    return benchlib.finish(args, payload, markdown, failed)


if __name__ == "__main__":
    sys.exit(main())
