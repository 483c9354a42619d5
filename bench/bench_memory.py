"""Peak memory of corpus BLEU on inputs bigger than memory should allow (issue 22).

Generates a hypothesis file and a reference file of ``--gb`` GB each in a temporary directory
(deleted afterwards): lines drawn from a pool of 50,000 random sentences, the reference of each a
perturbed copy of its hypothesis. Then, each in its own child process (peak RSS from ``wait4``):

  cli      ``python -m turbobleu REF -i HYP -b`` (the command line streams its files)
  stream   ``turbobleu.corpus_bleu_stream(HYP, [REF])``

Both must print the same score. On a slice that fits in memory (``--slice`` lines) the streaming
call is also compared with the in-memory ``corpus_bleu`` and with sacrebleu's.

    python bench/bench_memory.py --gb 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

WORDS = (
    "the of and to in a is that for it as was with be by on not he I this are or his from at "
    "which but have an they you were her she there been one all we their has would when if so "
    "no what up out who them some into more other could time . , ; : ! ? ( ) \" ' - 1990 3.5 "
    "naïve café Zürich 東京 데이터"
).split()

STREAM_CALL = (
    "import json, sys, turbobleu; s = turbobleu.corpus_bleu_stream(sys.argv[1], [sys.argv[2]]); "
    "print(json.dumps([s.score, s.counts, s.totals, s.sys_len, s.ref_len]))"
)


def sentence_pool(rng: random.Random, size: int) -> List[Tuple[str, str]]:
    """(hypothesis, reference) pairs: the reference drops, swaps or changes a few words."""
    pool = []
    for _ in range(size):
        words = rng.choices(WORDS, k=rng.randint(3, 40))
        ref = list(words)
        for _ in range(rng.randint(0, 4)):
            i = rng.randrange(len(ref))
            ref[i] = rng.choice(WORDS)
        pool.append((" ".join(words), " ".join(ref)))
    return pool


def generate(directory: Path, gigabytes: float, seed: int) -> Tuple[Path, Path, int]:
    rng = random.Random(seed)
    pool = sentence_pool(rng, 50_000)
    hyp_path, ref_path = directory / "hyp.txt", directory / "ref.txt"
    target = int(gigabytes * 1e9)
    written = lines = 0
    with open(hyp_path, "w", encoding="utf-8") as hyp, open(ref_path, "w", encoding="utf-8") as ref:
        while written < target:
            picks = [pool[rng.randrange(len(pool))] for _ in range(100_000)]
            block = "\n".join(p[0] for p in picks) + "\n"
            hyp.write(block)
            ref.write("\n".join(p[1] for p in picks) + "\n")
            written += len(block.encode("utf-8"))
            lines += len(picks)
    return hyp_path, ref_path, lines


def run_child(argv: List[str], env: Dict[str, str]) -> Dict[str, Any]:
    """Run a child: its stdout, wall time and peak RSS in MB (of exactly this child: wait4)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert child.stdout is not None and child.stderr is not None
    out = child.stdout.read()
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"{argv[:4]} failed ({child.returncode}): {err.decode()[-2000:]}")
    return {
        "stdout": out.decode().strip(),
        "seconds": round(wall, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
    }


def check_slice(hyp: Path, ref: Path, lines: int) -> Dict[str, Any]:
    """Streaming, in-memory and sacrebleu scores of the first ``lines`` segments."""
    import sacrebleu

    import turbobleu

    with open(hyp, encoding="utf-8") as h, open(ref, encoding="utf-8") as r:
        hyps = [next(h).rstrip() for _ in range(lines)]
        refs = [next(r).rstrip() for _ in range(lines)]
    stream = turbobleu.corpus_bleu_stream(iter(hyps), [iter(refs)], chunk_size=7919)
    memory = turbobleu.corpus_bleu(hyps, [refs])
    peer = sacrebleu.corpus_bleu(hyps, [refs])
    scores = [x.score for x in (stream, memory, peer)]
    return {
        "lines": lines,
        "stream": scores[0],
        "in_memory": scores[1],
        "sacrebleu": scores[2],
        "equal": scores[0] == scores[1] == scores[2],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--gb", type=float, default=2.0, help="size of each generated file, in GB")
    p.add_argument("--slice", type=int, default=200_000, help="lines of the in-memory check")
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--tmp", type=Path, default=Path(tempfile.gettempdir()))
    benchlib.add_results_options(p, "results file stem (default: memory)")
    args = p.parse_args()
    args.name = benchlib.results_name(args, "memory")

    src = str(benchlib.REPO_ROOT / "src")
    sys.path.insert(0, src)  # this checkout, for the slice check in this process
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    work = Path(tempfile.mkdtemp(prefix="turbobleu-memory.", dir=args.tmp))
    try:
        start = time.perf_counter()
        hyp, ref, lines = generate(work, args.gb, args.seed)
        made = time.perf_counter() - start
        sizes = [round(path.stat().st_size / 1e9, 3) for path in (hyp, ref)]
        print(f"generated {lines:,} lines: hyp {sizes[0]} GB, ref {sizes[1]} GB ({made:.0f} s)")
        cli = run_child([sys.executable, "-m", "turbobleu", str(ref), "-i", str(hyp), "-b"], env)
        print(f"cli:    {cli}")
        stream = run_child([sys.executable, "-c", STREAM_CALL, str(hyp), str(ref)], env)
        print(f"stream: {stream}")
        stream_score = json.loads(stream["stdout"])
        same = f"{stream_score[0]:.1f}" == cli["stdout"]
        sliced = check_slice(hyp, ref, min(args.slice, lines))
        print(f"slice:  {sliced}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [
        [
            "command line",
            f"{sizes[0] + sizes[1]:.2f}",
            f"{cli['seconds']:.1f}",
            f"{cli['peak_rss_mb']:.0f}",
        ],
        [
            "corpus_bleu_stream",
            f"{sizes[0] + sizes[1]:.2f}",
            f"{stream['seconds']:.1f}",
            f"{stream['peak_rss_mb']:.0f}",
        ],
    ]
    headers = ["path", "input GB", "seconds", "peak RSS MB"]
    print(benchlib.text_table(headers, rows))
    print(
        f"same score (cli {cli['stdout']}, stream {stream_score[0]}): {same}; slice of "
        f"{sliced['lines']:,} lines equal to in-memory and sacrebleu: {sliced['equal']}"
    )
    if not (same and sliced["equal"]):
        raise SystemExit("scores differ")
    info = benchlib.machine_info(["sacrebleu"])
    payload = {
        "machine": info,
        "lines": lines,
        "gigabytes": sizes,
        "cli": cli,
        "stream": stream,
        "slice": sliced,
    }
    markdown = benchlib.md_table(headers, rows) + "\n\n" + benchlib.machine_line(info) + "\n"
    benchlib.save_results(args, payload, markdown)


if __name__ == "__main__":
    main()
