"""Compute sacrebleu's TER statistics for the WMT23 systems once and store them as a test fixture.

sacrebleu's TER is slow (minutes per option set over all systems), so tests compare turbobleu
with these stored answers instead of running sacrebleu each time. Run it again when the data,
the option sets or the sacrebleu release change:

    python scripts/ter_reference_answers.py [--data ../shared/data/wmt23] [--out tests/fixtures/ter]

One gzipped JSON file per option set; per system: the sha256 of the hypothesis and reference
files (a test skips a system whose files changed), sacrebleu's per-segment ``[edits, average
reference length]`` and its corpus score. Paragraph-level pairs (en-de, de-en) are cut to their
first ``PARAGRAPH_SEGMENTS`` segments.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

OPTION_SETS = {
    "defaults": {},
    "normalized": {"normalized": True},
    "no_punct": {"no_punct": True},
    "case_sensitive": {"case_sensitive": True},
    "normalized_asian": {"normalized": True, "asian_support": True},
}
PARAGRAPH_PAIRS = ("en-de", "de-en")
PARAGRAPH_SEGMENTS = 200


def read_lines(path: Path) -> list:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def digest(paths: list) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()


def systems(data: Path):
    """(pair, system, hypothesis path, reference paths) of every system, sorted."""
    for pair in sorted(p for p in data.iterdir() if p.is_dir()):
        refs = sorted(pair.glob("ref.*"))
        for hyp in sorted(pair.glob("hyp.*")):
            yield pair.name, hyp.name.split(".")[1], hyp, refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/wmt23"))
    parser.add_argument("--out", type=Path, default=Path("tests/fixtures/ter"))
    parser.add_argument(
        "--only", nargs="*", default=list(OPTION_SETS), help="option sets to compute"
    )
    args = parser.parse_args()

    import sacrebleu
    from sacrebleu.metrics import TER

    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.only:
        options = OPTION_SETS[name]
        answers = {"sacrebleu": sacrebleu.__version__, "options": options, "systems": {}}
        for pair, system, hyp_path, ref_paths in systems(args.data):
            hyps = read_lines(hyp_path)
            refs = [read_lines(p) for p in ref_paths]
            if pair in PARAGRAPH_PAIRS:
                hyps = hyps[:PARAGRAPH_SEGMENTS]
                refs = [r[:PARAGRAPH_SEGMENTS] for r in refs]
            start = time.perf_counter()
            metric = TER(**options)
            stats = metric._extract_corpus_statistics(hyps, refs)
            score = metric._aggregate_and_compute(stats)
            seconds = time.perf_counter() - start
            answers["systems"][f"{pair}/{system}"] = {
                "files": [str(p.relative_to(args.data)) for p in [hyp_path, *ref_paths]],
                "sha256": digest([hyp_path, *ref_paths]),
                "segments": len(hyps),
                "stats": stats,
                "score": score.score,
                "num_edits": score.num_edits,
                "ref_length": score.ref_length,
                "sacrebleu_seconds": round(seconds, 3),
            }
            print(f"{name} {pair}/{system}: {score.score:.4f} in {seconds:.1f} s", file=sys.stderr)
        path = args.out / f"{name}.json.gz"
        text = json.dumps(answers, separators=(",", ":")).encode("utf-8")
        with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same answers, the same bytes
            f.write(text)
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
